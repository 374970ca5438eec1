"""Saved graphs on the host: ``save``/``load``, pickling and deep copies give the graph back bit
for bit (every layout and its parameters, directed or not, every property, every kind of vertex
id, empty graphs, graphs stored transposed), algorithms answer as on the original and as SciPy
does, a file read by hand follows the documented format, and every kind of damage raises
``SavedGraphError`` naming the file."""
import copy
import json
import os
import pickle
import struct
import zlib

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from graphs import (
    REORIENTATION_CASES,
    SMALL_GRAPHS,
    assert_identical_graphs,
    check_against_scipy,
    random_edges,
    saved_parts,
    small_graph,
    write_saved,
)

import cugraph_compressed as cgc
from cugraph_compressed import LayoutInvariantError, SavedGraphError, saved
from cugraph_compressed._backend import gpu_available

pytestmark = pytest.mark.filterwarnings("ignore:Pagerank expects")  # out-lists warn, as cuGraph


@pytest.fixture(scope="module")
def edges():
    """Parallel edges, self loops and isolated ids; weights, edge ids and edge types."""
    df = random_edges(300, 1500, 31, weighted=True)
    rng = np.random.default_rng(32)
    df["eid"] = np.arange(len(df), dtype=np.int64)
    df["et"] = rng.integers(0, 5, len(df)).astype(np.int32)
    return df


def build(df, directed=True, fmt="csr", params=None, **kwargs):
    G = cgc.CompressedGraph(directed=directed, format=fmt, **(params or {}))
    return G.from_pandas_edgelist(df, **kwargs)


def round_trip(G, tmp_path, **load_args):
    path = tmp_path / "graph.cgc"
    G.save(path)
    return cgc.CompressedGraph.load(path, **load_args)


def results(G, start):
    """Every algorithm's frame on ``G`` (SSSP when weighted, WCC when undirected)."""
    out = {"bfs": cgc.bfs(G, start), "pagerank": cgc.pagerank(G)}
    if not G.is_directed():
        out["wcc"] = cgc.weakly_connected_components(G)
    if G.is_weighted():
        out["sssp"] = cgc.sssp(G, start)
    return out


def assert_same_results(G, H, start):
    mine, theirs = results(H, start), results(G, start)
    for name, frame in theirs.items():
        pd.testing.assert_frame_equal(mine[name], frame, obj=name)


@pytest.mark.parametrize("fmt, params", REORIENTATION_CASES)
@pytest.mark.parametrize("directed", [True, False])
def test_round_trip_every_layout(tmp_path, edges, fmt, params, directed):
    # Edge ids and types are refused by symmetrization (as in cuGraph): undirected graphs get
    # weights alone.
    attr = ["weight", "eid", "et"] if directed else "weight"
    G = build(edges, directed, fmt, params, edge_attr=attr)
    H = round_trip(G, tmp_path)
    assert H.backend == "host" and H.is_weighted()
    assert_identical_graphs(G, H)
    H.validate()
    start = int(edges["source"][0])
    assert_same_results(G, H, start)
    check_against_scipy(edges, cgc.bfs(H, start), directed, start)
    stored = H.view_edge_list()
    assert list(stored.columns) == ["source", "destination", *([attr] if not directed else attr)]
    assert len(stored) == G.number_of_edges()


@pytest.mark.parametrize("fmt", sorted(cgc.FORMATS))
@pytest.mark.parametrize("properties", [{}, {"weight": "weight"}, {"edge_id": "eid"},
                                        {"edge_type": "et", "weight": "weight"}])
def test_round_trip_property_sets(tmp_path, edges, fmt, properties):
    G = build(edges, True, fmt, renumber=False, **properties)
    H = round_trip(G, tmp_path)
    assert_identical_graphs(G, H)
    assert list(H._properties) == list(G._properties)
    assert_same_results(G, H, 0)


def _id_cases():
    ints = np.arange(60)
    return {
        "str": pd.Series([f"v{i:03d}" for i in ints], dtype="str"),
        "object": pd.Series([f"vertex \u00e9{i}" for i in ints], dtype=object),
        "string": pd.Series([f"\U0001f600{i}" for i in ints], dtype="string"),
        "bytes": pd.Series([b"\x00\xff" + bytes([i]) for i in ints], dtype=object),
        "category": pd.Series(pd.Categorical([f"c{i}" for i in ints],
                                             categories=[f"c{i}" for i in ints[::-1]])),
        "uint64": pd.Series(np.uint64(2**63) + 7 * ints.astype(np.uint64)),
        "float32": pd.Series((ints * 0.5 - 3).astype(np.float32)),
        "int32": pd.Series((ints * 1000 - 7).astype(np.int32)),
        "datetime": pd.Series(pd.to_datetime(ints, unit="D")),
        "timedelta": pd.Series(pd.to_timedelta(ints, unit="s")),
    }


@pytest.mark.parametrize("kind", sorted(_id_cases()))
def test_round_trip_vertex_ids(tmp_path, kind):
    ids = _id_cases()[kind]
    rng = np.random.default_rng(3)
    pick = rng.integers(0, 50, (2, 200))  # ids 50 .. 59 come in as isolated vertices
    df = pd.DataFrame({"a": ids.iloc[pick[0]].reset_index(drop=True),
                       "b": ids.iloc[pick[1]].reset_index(drop=True)})
    G = build(df, False, "ef", source="a", destination="b", vertices=ids)
    H = round_trip(G, tmp_path)
    assert_identical_graphs(G, H)
    expected = ids.sort_values().tolist() if kind != "category" else ids.iloc[::-1].tolist()
    assert H.nodes().tolist() == expected  # the user's ids, in the build's order
    start = ids.iloc[int(pick[0][0])]
    pd.testing.assert_frame_equal(cgc.bfs(H, start), cgc.bfs(G, start))
    pd.testing.assert_frame_equal(cgc.weakly_connected_components(H),
                                  cgc.weakly_connected_components(G))


@pytest.mark.parametrize("fmt", sorted(cgc.FORMATS))
@pytest.mark.parametrize("case", sorted(SMALL_GRAPHS))
def test_round_trip_small_and_empty_graphs(tmp_path, fmt, case):
    df, kwargs = small_graph(case)
    G = build(df, False, fmt, **kwargs)
    H = round_trip(G, tmp_path)
    assert_identical_graphs(G, H)
    assert H.number_of_vertices() == G.number_of_vertices()
    if H.number_of_vertices():
        assert_same_results(G, H, 0)


def test_round_trip_empty_renumbered_graph(tmp_path):
    df = pd.DataFrame({"source": pd.Series([], dtype=object),
                       "destination": pd.Series([], dtype=object)})
    G = build(df, True, "cgr")
    H = round_trip(G, tmp_path)
    assert_identical_graphs(G, H)
    assert H.number_of_vertices() == 0 and H.renumbered


@pytest.mark.parametrize("fmt", sorted(cgc.FORMATS))
def test_store_transposed_round_trip(tmp_path, edges, fmt):
    G = build(edges, True, fmt, renumber=False, weight="weight", store_transposed=True)
    H = round_trip(G, tmp_path)
    assert H._in_lists and H.store_transposed
    assert_identical_graphs(G, H)
    pd.testing.assert_frame_equal(cgc.pagerank(H), cgc.pagerank(G))  # pulls over in-lists
    pd.testing.assert_frame_equal(cgc.bfs(H, 0), cgc.bfs(G, 0))  # both re-orient
    assert not H._in_lists and H.build_stats["reoriented"]["budget"] == G.build_stats["budget"]
    assert_identical_graphs(G, H)
    K = round_trip(H, tmp_path)  # stored transposed, holding out-lists now
    assert K.store_transposed and not K._in_lists
    assert_identical_graphs(H, K)
    check_against_scipy(edges, cgc.bfs(K, 0), True, 0, ids=np.arange(K.number_of_vertices()))


def test_pickle_copy_and_deepcopy(edges):
    G = build(edges, True, "cgr", {"code": "gamma"}, edge_attr=["weight", "eid", "et"])
    G.traversal = cgc.TraversalConfig(warp_item_ranks=None, checked=True)
    copies = [pickle.loads(pickle.dumps(G, protocol)) for protocol in (2, 4, 5)]
    out_of_band = []
    data = pickle.dumps(G, protocol=5, buffer_callback=out_of_band.append)
    assert len(out_of_band) == 1 and len(data) < 1000  # the graph travels as one buffer
    copies.append(pickle.loads(data, buffers=out_of_band))
    copies += [copy.deepcopy(G), copy.copy(G)]
    for H in copies:
        assert_identical_graphs(G, H)
        assert H.traversal == G.traversal
        for name, array in H._layout.arrays.items():
            assert not np.shares_memory(array, G._layout.arrays[name])
    assert_same_results(G, copies[-2], int(edges["source"][0]))


def test_pickled_bytes_are_the_saved_file(tmp_path, edges):
    G = build(edges, True, "fl", weight="weight")
    G.save(tmp_path / "graph.cgc")
    out_of_band = []
    pickle.dumps(G, protocol=5, buffer_callback=out_of_band.append)
    assert bytes(out_of_band[0].raw()) == (tmp_path / "graph.cgc").read_bytes()


def test_empty_graph_object_pickles():
    G = cgc.CompressedGraph(directed=True, format="ef", k=4)
    H = pickle.loads(pickle.dumps(G))
    assert H.is_directed() and H.format == "ef" and H.layout_params == G.layout_params
    H.from_pandas_edgelist(pd.DataFrame({"source": [0, 1], "destination": [1, 2]}))
    assert H.number_of_edges() == 2
    with pytest.raises(ValueError, match="the graph is empty"):
        copy.deepcopy(G).save("never-written.cgc")


def test_file_read_by_hand_follows_the_documented_format(tmp_path, edges):
    """A csr file read with struct, json, zlib and NumPy alone holds SciPy's CSR of the edges."""
    G = build(edges, True, "csr", renumber=False)
    G.save(tmp_path / "graph.cgc")
    data = (tmp_path / "graph.cgc").read_bytes()
    magic, version, crc, size = struct.unpack_from("<8sIIQ", data)
    assert (magic, version) == (b"\x89CGC\r\n\x1a\n", 2)
    text = data[24:24 + size]
    assert zlib.crc32(text) == crc and text.isascii()
    header = json.loads(text)
    assert header["file_bytes"] == len(data) and header["checksum"] == "crc32"
    arrays = {}
    for b in header["buffers"]:
        assert b["offset"] % 64 == 0 and b["offset"] >= 24 + size
        raw = data[b["offset"]:b["offset"] + b["nbytes"]]
        assert zlib.crc32(raw) == int(b["crc32"], 16)
        arrays[b["name"]] = np.frombuffer(raw, b["dtype"]).reshape(b["shape"])
    assert data[header["buffers"][-1]["offset"] + header["buffers"][-1]["nbytes"]:] == b""
    layout = header["layout"]
    n = layout["num_vertices"]
    assert (layout["name"], header["directed"], header["renumber_map"],
            header["vertex_order"]) == ("csr", True, None, None)
    offsets = arrays[layout["buffers"]["offsets"]]
    indices = arrays[layout["buffers"]["indices"]]
    assert offsets.dtype == np.int32 and indices.dtype == np.int32
    expected = sp.csr_matrix((np.ones(len(edges)), (edges["source"], edges["destination"])),
                             shape=(n, n))
    expected.sum_duplicates()
    expected.sort_indices()
    assert np.array_equal(offsets, expected.indptr) and np.array_equal(indices, expected.indices)


def test_small_blocks_read_and_check_every_block(tmp_path, edges, monkeypatch):
    monkeypatch.setattr(saved, "BLOCK_BYTES", 64)
    G = build(edges, False, "ef", weight="weight")
    H = round_trip(G, tmp_path)
    assert_identical_graphs(G, H)
    header, buffers = saved_parts(tmp_path / "graph.cgc")
    damaged = bytearray(buffers["property/weight"])
    damaged[-1] ^= 0x10  # in the last block
    data = bytearray((tmp_path / "graph.cgc").read_bytes())
    entry = next(b for b in header["buffers"] if b["name"] == "property/weight")
    data[entry["offset"]:entry["offset"] + entry["nbytes"]] = damaged
    (tmp_path / "graph.cgc").write_bytes(bytes(data))
    with pytest.raises(SavedGraphError, match="'property/weight'.* is damaged"):
        cgc.CompressedGraph.load(tmp_path / "graph.cgc")


# -- damaged files ------------------------------------------------------------------------------
@pytest.fixture()
def saved_file(tmp_path, edges):
    df = edges.assign(source="v" + edges["source"].astype(str),
                      destination="v" + edges["destination"].astype(str))
    G = build(df, True, "csr", edge_attr=["weight", "eid", "et"])
    path = tmp_path / "graph.cgc"
    G.save(path)
    return path


def load_error(path, match):
    with pytest.raises(SavedGraphError, match=match) as caught:
        cgc.CompressedGraph.load(path)
    assert str(caught.value).startswith(f"{path}: ")
    return caught.value


def test_error_type_is_exported():
    assert issubclass(SavedGraphError, ValueError) and "SavedGraphError" in cgc.__all__


@pytest.mark.parametrize("start", [b"PK\x03\x04 a zip file", b"hello",
                                   b"\x89CGD\r\n\x1a\n" + bytes(40)])
def test_wrong_magic(tmp_path, start):
    path = tmp_path / "other.bin"
    path.write_bytes(start)
    load_error(path, "not a saved CompressedGraph: it starts with")


@pytest.mark.parametrize("version, match", [(3, "format version 3 \\(written by a newer"),
                                            (0, "format version 0; this cugraph_compressed "
                                                "reads versions \\[1, 2\\]")])
def test_wrong_version(saved_file, version, match):
    data = bytearray(saved_file.read_bytes())
    data[8:12] = struct.pack("<I", version)
    saved_file.write_bytes(bytes(data))
    load_error(saved_file, match)


def test_truncated_anywhere(saved_file):
    data = saved_file.read_bytes()
    header, _ = saved_parts(saved_file)
    first = header["buffers"][0]["offset"]
    for cut in (0, 3, 8, 23, 24, 100, first, first + 7, len(data) // 2, len(data) - 1):
        saved_file.write_bytes(data[:cut])
        load_error(saved_file, "truncated")


def test_bytes_appended(saved_file):
    saved_file.write_bytes(saved_file.read_bytes() + b"\0")
    load_error(saved_file, "1 bytes follow the end of the saved graph")


def test_bit_flip_in_the_header(saved_file):
    data = saved_file.read_bytes()
    _, _, _, size = struct.unpack_from("<8sIIQ", data)
    for at in (12, 24, 24 + size // 3, 24 + size - 1):  # the header's CRC, then the header
        damaged = bytearray(data)
        damaged[at] ^= 0x04
        saved_file.write_bytes(bytes(damaged))
        load_error(saved_file, "the header is damaged: its CRC-32 is")


def test_bit_flip_in_each_buffer(saved_file):
    data = saved_file.read_bytes()
    header, _ = saved_parts(saved_file)
    assert {b["name"] for b in header["buffers"]} >= {"layout/indices", "property/edge_type",
                                                      "renumber_map/data"}
    for entry in header["buffers"]:
        damaged = bytearray(data)
        damaged[entry["offset"] + entry["nbytes"] // 2] ^= 0x80
        saved_file.write_bytes(bytes(damaged))
        load_error(saved_file, f"buffer '{entry['name']}' \\(bytes {entry['offset']}\\.\\..* is "
                               "damaged: its CRC-32 is [0-9a-f]{8}, the header says")


@pytest.mark.parametrize("fmt, damage", [
    ("csr", lambda b: b["layout/indices"].__setitem__(slice(0, 4), struct.pack("<i", 999))),
    ("ef", lambda b: b["layout/blocks"].__setitem__(slice(0, 8), struct.pack("<q", 1))),
    ("cgr", lambda b: b["layout/edge_offsets"].__setitem__(slice(-4, None),
                                                           struct.pack("<I", 5))),
    ("fl", lambda b: b["layout/offsets"].__setitem__(slice(0, 4), b"\xff" * 4)),
])
def test_broken_invariant_with_valid_checksums(tmp_path, edges, fmt, damage):
    build(edges, True, fmt, renumber=False).save(tmp_path / "graph.cgc")
    header, buffers = saved_parts(tmp_path / "graph.cgc")
    buffers = {k: bytearray(v) for k, v in buffers.items()}
    damage(buffers)
    write_saved(tmp_path / "graph.cgc", header, buffers)
    error = load_error(tmp_path / "graph.cgc", f"the {fmt} layout's buffers break an invariant: "
                                               f"{fmt} invariant")
    assert isinstance(error.__cause__, LayoutInvariantError)


def _swap_map(h, b):  # two renumber map entries out of order
    data = bytearray(b["renumber_map/data"])
    data[1], data[-1] = data[-1], data[1]
    b["renumber_map/data"] = bytes(data)


def _set(path, value):
    def mutate(h, b):
        *parents, last = path.split(".")
        target = h
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[last] = value
    return mutate


def _drop(name):
    def mutate(h, b):
        h["buffers"] = [e for e in h["buffers"] if e["name"] != name]
    return mutate


@pytest.mark.parametrize("mutate, match", [
    (_set("layout.num_edges", 5), "header.properties.weight is a float32 buffer of shape"),
    (_set("layout.num_vertices", 3), "renumber_map holds offsets and data that do not "
                                     "describe values \\(3 entries expected\\)"),
    (_set("layout.name", "coo"), "format='coo' is not a known layout"),
    (_set("layout.params", {"force_64bit": 1}), "force_64bit must be a bool"),
    (_set("layout.state", {"offset_width": 3}), "does not fit a csr layout"),
    (_set("directed", "yes"), "header.directed is a string, not a boolean"),
    (_set("in_lists", True), "header.in_lists is true for a graph that is not"),
    (_set("vertex_dtype", "int16"), "header.vertex_dtype is 'int16', not one of"),
    (_set("extra", 1), "holds fields this version does not know: \\['extra'\\]"),
    (_set("checksum", "xxh64"), "checksum 'xxh64' is not one this version reads"),
    (_set("properties.color", "property/weight"), "which another field names too"),
    (_set("columns", {"source": "a"}), "header.columns names \\['source'\\]"),
    (_set("renumber_map.kind", "pickle"), "renumber_map.kind is 'pickle', not one of"),
    (_set("renumber_map.pandas_dtype", "int8"), "pandas_dtype is 'int8', not one of"),
    (_swap_map, "renumber_map holds not strictly increasing"),
    (_set("buffers.0.dtype", ">i4"), "buffers\\[0\\].dtype is '>i4', not a little-endian"),
    (_set("buffers.0.dtype", "O"), "buffers\\[0\\].dtype is 'O'"),
    (_set("buffers.0.shape", [-1]), "buffers\\[0\\].shape is \\[-1\\]"),
    (_set("buffers.0.shape", []), "buffers\\[0\\].shape is \\[\\], not an array of one or"),
    (_set("buffers.1.nbytes", 4), "buffers\\[1\\].nbytes is 4, but"),
    (_set("buffers.1.name", "layout/offsets"), "repeats buffer name 'layout/offsets'"),
    (_drop("property/edge_id"), "names buffer 'property/edge_id', which the buffer table"),
    (_set("properties", {"weight": "property/weight", "edge_type": "property/edge_type"}),
     "lists buffers no field names: \\['property/edge_id'\\]"),
    (_set("layout.buffers", {"offsets": "layout/offsets", "extra": "layout/indices"}),
     "a csr layout has buffers"),
])
def test_inconsistent_header_with_valid_checksums(saved_file, mutate, match):
    header, buffers = saved_parts(saved_file)
    mutate(header, buffers)
    write_saved(saved_file, header, buffers)
    load_error(saved_file, match)


def test_malformed_checksum(saved_file):
    header, buffers = saved_parts(saved_file)
    header["buffers"][1]["crc32"] = "XYZ"
    write_saved(saved_file, header, buffers, fix_checksums=False)
    load_error(saved_file, "buffers\\[1\\].crc32 is 'XYZ', not 8 lowercase hex digits")


def test_misplaced_buffer_with_valid_checksums(saved_file):
    header, buffers = saved_parts(saved_file)
    write_saved(saved_file, header, buffers)
    data = bytearray(saved_file.read_bytes())
    size = struct.unpack_from("<Q", data, 16)[0]
    text = json.loads(data[24:24 + size])
    text["buffers"][1]["offset"] += 1  # one digit more at most: keep the buffers where they are
    raw = json.dumps(text).encode()
    first = header["buffers"][0]["offset"]
    assert 24 + len(raw) <= first
    data[12:24] = struct.pack("<IQ", zlib.crc32(raw), len(raw))
    data[24:first] = raw + bytes(first - 24 - len(raw))
    saved_file.write_bytes(bytes(data))
    load_error(saved_file, "buffers\\[1\\].offset is [0-9]+, not a multiple of 64")


# -- arguments ------------------------------------------------------------------------------------
def test_backend_argument(saved_file):
    with pytest.raises(ValueError, match="backend='gpu' is not one of None, 'host', 'device'"):
        cgc.CompressedGraph.load(saved_file, backend="gpu")
    assert cgc.CompressedGraph.load(saved_file, backend="host").backend == "host"
    if not gpu_available():
        with pytest.raises(RuntimeError, match="a device graph needs a usable GPU"):
            cgc.CompressedGraph.load(saved_file, backend="device")


def test_graph_saved_from_the_device_loads_on_the_host(saved_file):
    """The file of a device graph differs only by its ``backend`` field."""
    G = cgc.CompressedGraph.load(saved_file)
    header, buffers = saved_parts(saved_file)
    header["backend"] = "device"
    write_saved(saved_file, header, buffers)
    if not gpu_available():
        with pytest.raises(RuntimeError, match="backend='host' to read it on the host"):
            cgc.CompressedGraph.load(saved_file)
    H = cgc.CompressedGraph.load(saved_file, backend="host")
    assert H.backend == "host"
    assert_identical_graphs(G, H)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        cgc.CompressedGraph.load(tmp_path / "nothing.cgc")
    with pytest.raises(IsADirectoryError):
        cgc.CompressedGraph.load(tmp_path)


def test_save_follows_links_and_refuses_directories_and_read_only_files(tmp_path, edges):
    G = build(edges, True, "csr")
    target, link = tmp_path / "data" / "graph.cgc", tmp_path / "graph.cgc"
    target.parent.mkdir()
    link.symlink_to(target)
    G.save(link)
    assert link.is_symlink() and target.is_file()  # the file it names written, the link kept
    pd.testing.assert_frame_equal(cgc.CompressedGraph.load(link).view_edge_list(),
                                  G.view_edge_list())
    for directory in (tmp_path / "data", f"{tmp_path / 'new'}{os.sep}", f"{target}{os.sep}"):
        with pytest.raises(IsADirectoryError):
            G.save(directory)
    with pytest.raises(FileNotFoundError, match="no such directory"):
        G.save(tmp_path / "missing" / "graph.cgc")
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    with pytest.raises(OSError, match="links loop"):
        G.save(tmp_path / "loop1")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OSError, match="not a regular file"):
        G.save(tmp_path / "fifo")
    assert (tmp_path / "loop1").is_symlink() and not (tmp_path / "fifo").is_file()
    other = build(edges.iloc[:5], True, "csr")
    target.chmod(0o640)
    G.save(target)
    assert target.stat().st_mode & 0o777 == 0o640  # the replaced file's permission bits kept
    target.chmod(0o444)
    before = target.read_bytes()
    if os.access(target, os.W_OK):  # a process that may write it anyway (root): it is saved
        other.save(target)
        pd.testing.assert_frame_equal(cgc.CompressedGraph.load(target).view_edge_list(),
                                      other.view_edge_list())
    else:
        with pytest.raises(PermissionError, match="not writable"):
            other.save(target)
        assert target.read_bytes() == before
    assert sorted(os.listdir(target.parent)) == ["graph.cgc"]  # no temporary left behind


def test_unsaveable_ids_leave_the_old_file(tmp_path, edges):
    path = tmp_path / "graph.cgc"
    build(edges, True, "csr").save(path)
    before = path.read_bytes()
    when = pd.Series(pd.date_range("2020-01-01", periods=3, tz="UTC"))
    G = build(pd.DataFrame({"source": when, "destination": when.iloc[::-1].reset_index(drop=True)}),
              True, "csr")
    with pytest.raises(TypeError, match="vertex ids of dtype datetime64.*UTC.* cannot be saved"):
        G.save(path)
    with pytest.raises(TypeError, match="cannot be saved"):
        pickle.dumps(G)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["graph.cgc"]


def test_unsaveable_column_label(tmp_path):
    df = pd.DataFrame({1.5j: [0, 1], "destination": [1, 2]})
    G = build(df, True, "csr", source=1.5j)
    with pytest.raises(TypeError, match="column label 1.5j \\(complex\\) cannot be saved"):
        G.save(tmp_path / "graph.cgc")


def test_tuple_and_integer_column_labels(tmp_path):
    df = pd.DataFrame({("s", 1): [0, 1, 2], 7: [1, 2, 0], "w": [1.0, 2.0, 3.0]})
    G = build(df, True, "fl", source=("s", 1), destination=7, weight="w")
    H = round_trip(G, tmp_path)
    assert H._columns == {"source": ("s", 1), "destination": 7, "weight": "w"}
    pd.testing.assert_frame_equal(H.view_edge_list(), G.view_edge_list())
