"""Saved graphs on the GPU: a device graph saved and loaded (on the device, or on the host)
holds its buffers bit for bit, a host graph loaded on the device holds the device build's
buffers, both answer as the original; buffers go through pinned staging blocks into RMM memory;
pickles and deep copies of device graphs; a damaged file raises SavedGraphError and leaves the
CUDA context working."""
import copy
import pickle

import numpy as np
import pandas as pd
import pytest
from graphs import (
    REORIENTATION_CASES,
    assert_identical_graphs,
    assert_same_graph,
    random_edges,
    saved_parts,
    write_saved,
)

import cugraph_compressed as cgc
from cugraph_compressed import LayoutInvariantError, SavedGraphError, saved

pytestmark = [pytest.mark.gpu, pytest.mark.filterwarnings("ignore:Pagerank expects")]


@pytest.fixture(scope="module")
def edges():
    return random_edges(3000, 20_000, 41, dtype=np.int32, weighted=True)


def device_graph(df, directed=True, fmt="csr", params=None, **kwargs):
    import cudf

    G = cgc.CompressedGraph(directed=directed, format=fmt, **(params or {}))
    return G.from_cudf_edgelist(cudf.from_pandas(df), **kwargs)


def host_graph(df, directed=True, fmt="csr", params=None, **kwargs):
    G = cgc.CompressedGraph(directed=directed, format=fmt, **(params or {}))
    return G.from_pandas_edgelist(df, **kwargs)


def pandas(frame):
    frame = frame.to_pandas() if hasattr(frame, "to_pandas") else frame
    return frame.sort_values("vertex").reset_index(drop=True)


def assert_same_answers(G, H, start):
    """BFS distances equal, SSSP distances and PageRank equal to rounding (the host sums
    paths in float64, the GPU in the weight type), WCC the same partition (GPU predecessors
    and labels may come from any of several valid choices)."""
    for name in ("bfs", "sssp"):
        mine, theirs = (pandas(getattr(cgc, name)(X, start)) for X in (H, G))
        assert mine["vertex"].tolist() == theirs["vertex"].tolist()
        assert np.allclose(mine["distance"], theirs["distance"], rtol=1e-6), name
        if name == "bfs":
            assert np.array_equal(mine["distance"], theirs["distance"])
    mine, theirs = pandas(cgc.pagerank(H)), pandas(cgc.pagerank(G))
    assert np.allclose(mine["pagerank"], theirs["pagerank"], rtol=1e-5, atol=1e-9)
    if not G.is_directed():
        mine = pandas(cgc.weakly_connected_components(H))
        theirs = pandas(cgc.weakly_connected_components(G))
        assert (pd.crosstab(mine["labels"], theirs["labels"]) > 0).sum(axis=1).eq(1).all()
        assert mine["labels"].nunique() == theirs["labels"].nunique()


@pytest.mark.parametrize("fmt, params", REORIENTATION_CASES)
@pytest.mark.parametrize("directed", [True, False])
def test_device_graph_round_trips_on_both_backends(tmp_path, edges, fmt, params, directed):
    D = device_graph(edges, directed, fmt, params, weight="weight")
    path = tmp_path / "device.cgc"
    D.save(path)
    loaded = cgc.CompressedGraph.load(path)
    assert loaded.backend == "device"
    assert_identical_graphs(D, loaded)
    start = int(edges["source"][0])
    assert_same_answers(D, loaded, start)
    on_host = cgc.CompressedGraph.load(path, backend="host")
    assert on_host.backend == "host"
    assert_identical_graphs(D, on_host)
    H = host_graph(edges, directed, fmt, params, weight="weight")
    assert_same_graph(on_host, H)  # the host build's buffers
    assert_same_answers(H, on_host, start)


@pytest.mark.parametrize("fmt, params", REORIENTATION_CASES)
def test_host_graph_loads_on_the_device(tmp_path, edges, fmt, params):
    # Sorted order: a re-oriented transposed graph keeps its in-degree order, so only in the
    # sorted order is it bit for bit the graph built directly as out-lists (line below).
    sorted_params = {**params, "vertex_order": "sorted"}
    H = host_graph(edges, True, fmt, sorted_params, weight="weight", store_transposed=True)
    H.save(tmp_path / "host.cgc")
    G = cgc.CompressedGraph.load(tmp_path / "host.cgc", backend="device")
    assert G.backend == "device" and G._in_lists
    assert_identical_graphs(H, G)
    D = device_graph(edges, True, fmt, params, weight="weight")
    start = int(edges["source"][0])
    assert_same_answers(D, G, start)  # BFS first re-orients the loaded graph on the GPU
    assert not G._in_lists
    assert_same_graph(G, host_graph(edges, True, fmt, sorted_params, weight="weight"))


def test_string_ids_cross_backends(tmp_path, edges):
    import cudf

    df = edges.assign(source="v" + edges["source"].astype(str),
                      destination="v" + edges["destination"].astype(str))
    D = cgc.CompressedGraph(directed=False, format="ef").from_cudf_edgelist(
        cudf.from_pandas(df), weight="weight")
    D.save(tmp_path / "strings.cgc")
    G = cgc.CompressedGraph.load(tmp_path / "strings.cgc")
    assert_identical_graphs(D, G)
    H = cgc.CompressedGraph.load(tmp_path / "strings.cgc", backend="host")
    assert H.nodes().tolist() == sorted(set(df["source"]) | set(df["destination"]))
    assert_same_answers(D, G, "v7")
    assert_same_answers(D, H, "v7")
    back = cgc.CompressedGraph.load(tmp_path / "strings.cgc", backend="host")
    back.save(tmp_path / "again.cgc")
    assert_identical_graphs(D, cgc.CompressedGraph.load(tmp_path / "again.cgc",
                                                        backend="device"))


def test_bytes_ids_stay_on_the_host(tmp_path):
    ids = pd.Series([b"a", b"b", b"c"], dtype=object)
    df = pd.DataFrame({"source": ids, "destination": ids.iloc[::-1].reset_index(drop=True)})
    host_graph(df).save(tmp_path / "bytes.cgc")
    with pytest.raises(TypeError, match="bytes, which cuDF cannot hold"):
        cgc.CompressedGraph.load(tmp_path / "bytes.cgc", backend="device")


def test_pickle_and_deepcopy_device_graph(edges):
    D = device_graph(edges, False, "cgr", weight="weight")
    D.traversal = cgc.TraversalConfig(checked=True)
    for G in (pickle.loads(pickle.dumps(D, protocol=5)), copy.deepcopy(D)):
        assert G.backend == "device" and G.traversal == D.traversal
        assert_identical_graphs(D, G)
        for name, array in G._layout.arrays.items():
            if array.size:  # empty arrays hold no memory: their pointers are all 0
                assert array.data.ptr != D._layout.arrays[name].data.ptr
        assert_same_answers(D, G, int(edges["source"][0]))


def test_many_staging_blocks(tmp_path, monkeypatch):
    from cugraph_compressed.generators import rmat_edgelist

    monkeypatch.setattr(saved, "BLOCK_BYTES", 4096)
    df = rmat_edgelist(14, seed=5, weighted=True)
    D = device_graph(df, True, "fl", renumber=False, weight="weight")
    D.save(tmp_path / "blocks.cgc")
    G = cgc.CompressedGraph.load(tmp_path / "blocks.cgc")
    assert_identical_graphs(D, G)
    H = cgc.CompressedGraph.load(tmp_path / "blocks.cgc", backend="host")
    G.save(tmp_path / "again.cgc")
    assert (tmp_path / "again.cgc").read_bytes() == (tmp_path / "blocks.cgc").read_bytes()
    assert_identical_graphs(D, H)
    header, buffers = saved_parts(tmp_path / "blocks.cgc")
    entry = next(b for b in header["buffers"] if b["name"] == "property/weight")
    assert entry["nbytes"] > 3 * 4096
    data = bytearray((tmp_path / "blocks.cgc").read_bytes())
    data[entry["offset"] + 2 * 4096 + 5] ^= 1  # in the third block
    (tmp_path / "blocks.cgc").write_bytes(bytes(data))
    with pytest.raises(SavedGraphError, match="'property/weight'.* is damaged"):
        cgc.CompressedGraph.load(tmp_path / "blocks.cgc")


def test_loaded_buffers_live_in_rmm_memory(tmp_path, edges):
    import rmm

    D = device_graph(edges, True, "ef", weight="weight")
    D.save(tmp_path / "graph.cgc")
    previous = rmm.mr.get_current_device_resource()
    limited = rmm.mr.LimitingResourceAdaptor(previous, allocation_limit=1 << 34)
    rmm.mr.set_current_device_resource(limited)
    try:
        before = limited.get_allocated_bytes()
        G = cgc.CompressedGraph.load(tmp_path / "graph.cgc")
        assert limited.get_allocated_bytes() - before >= G.nbytes - G._ids.nbytes()
        del G
        rmm.mr.set_current_device_resource(rmm.mr.LimitingResourceAdaptor(
            previous, allocation_limit=D.structure_nbytes // 2))
        with pytest.raises(MemoryError):
            cgc.CompressedGraph.load(tmp_path / "graph.cgc")
    finally:
        rmm.mr.set_current_device_resource(previous)


def test_damaged_files_never_reach_a_kernel(tmp_path, edges):
    import cupy as cp

    D = device_graph(edges, True, "csr", renumber=False, weight="weight")
    path = tmp_path / "graph.cgc"
    D.save(path)
    header, buffers = saved_parts(path)
    damaged = {k: bytearray(v) for k, v in buffers.items()}
    damaged["layout/indices"][0:4] = np.int32(10**9).tobytes()  # far outside the graph
    write_saved(path, header, damaged)
    with pytest.raises(SavedGraphError, match="csr invariant 3") as caught:
        cgc.CompressedGraph.load(path)
    assert isinstance(caught.value.__cause__, LayoutInvariantError)
    D.save(path)
    header, _ = saved_parts(path)
    data = bytearray(path.read_bytes())
    entry = next(b for b in header["buffers"] if b["name"] == "layout/offsets")
    data[entry["offset"] + 4] ^= 0x40
    path.write_bytes(bytes(data))
    with pytest.raises(SavedGraphError, match="'layout/offsets'.* is damaged"):
        cgc.CompressedGraph.load(path)
    D.save(path)
    G = cgc.CompressedGraph.load(path)  # the context still works
    assert_same_answers(D, G, 0)
    cp.cuda.Device().synchronize()
