"""``placement`` on the host: the value is checked in one place (ValueError naming it and the
choices), a host graph has one place to be (any valid
value, reported ``"host"``), ``to_placement`` and ``nbytes_by_placement`` on host graphs, saved
and pickled graphs keep or take the placement, every layout declares its per-edge buffers, and
the word merge the GPU encoders use for host-placed streams gives the bits of a whole-stream
encoding whatever order the runs come in."""
import ctypes
import gc
import pickle
import sys
import types

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from graphs import random_edges

import cugraph_compressed as cgc
from cugraph_compressed import FORMATS, _pinned, _placement
from cugraph_compressed.algorithms._weights import bad_weights
from cugraph_compressed.formats.bits import pack_fields

LAYOUTS = sorted(FORMATS)


@pytest.fixture(scope="module")
def edges():
    return random_edges(200, 900, 5, weighted=True)


def build(edges, fmt="csr", placement="device", directed=True, **kwargs):
    G = cgc.CompressedGraph(directed=directed, format=fmt, placement=placement)
    return G.from_pandas_edgelist(edges, weight="weight", **kwargs)


def bfs_distances(G, start):
    """The reached vertices' BFS distances (cuGraph's unreached sentinel left out)."""
    frame = cgc.bfs(G, start)
    frame = frame[frame["distance"] < np.iinfo(frame["distance"].dtype).max]
    return dict(zip(frame["vertex"].tolist(), frame["distance"].tolist()))


def networkx_distances(edges, start, directed=True):
    graph = (nx.DiGraph if directed else nx.Graph)()
    graph.add_edges_from(zip(edges["source"].tolist(), edges["destination"].tolist()))
    return nx.single_source_shortest_path_length(graph, start)


# -- the value -------------------------------------------------------------------------------
@pytest.mark.parametrize("placement", ["device", "host"])
def test_valid_placements_are_accepted_and_reported_before_a_build(placement):
    G = cgc.CompressedGraph(format="ef", placement=placement)
    assert G.placement == placement
    assert cgc.CompressedGraph().placement == "device"


@pytest.mark.parametrize("bad", ["gpu", "Host", "", None, 1, ["host"]])
def test_bad_placement_names_the_value_and_the_choices(bad):
    with pytest.raises(ValueError,
                       match=r"placement=.*is not one of \['device', 'host', 'auto'\]") as info:
        cgc.CompressedGraph(placement=bad)
    assert repr(bad) in str(info.value)


def test_auto_placement_on_a_host_graph_is_host(edges):
    assert cgc.CompressedGraph(placement="auto").placement == "auto"
    G = build(edges)
    assert G.to_placement("auto") is G
    with pytest.raises(ValueError, match="is not one of"):
        G.to_placement("pinned")
    assert G.placement == "host"


def test_placement_is_not_a_layout_parameter():
    """It is the graph's own keyword: a layout's parameter check never sees it."""
    G = cgc.CompressedGraph(format="csr", placement="host", force_64bit=True)
    assert G.layout_params == {"force_64bit": True}
    with pytest.raises(TypeError):
        cgc.CompressedGraph(format="csr", placement="host", nonsense=1)


# -- host graphs: one place to be ------------------------------------------------------------
@pytest.mark.parametrize("fmt", LAYOUTS)
@pytest.mark.parametrize("placement", ["device", "host"])
def test_host_graph_is_host_placed_whatever_was_asked(edges, fmt, placement):
    G = build(edges, fmt, placement)
    assert G.placement == "host"
    start = int(edges["source"][0])
    assert bfs_distances(G, start) == networkx_distances(edges, start)
    sizes = G.nbytes_by_placement()
    assert sizes == {"device": 0, "host": G.nbytes}


def test_nbytes_by_placement_counts_the_renumber_map_and_properties():
    df = pd.DataFrame({"a": ["x", "y", "z", "x"], "b": ["y", "z", "x", "z"],
                       "w": [1.0, 2.0, 3.0, 4.0]})
    G = cgc.CompressedGraph(directed=True, format="fl").from_pandas_edgelist(
        df, source="a", destination="b", weight="w")
    assert G.renumbered
    sizes = G.nbytes_by_placement()
    assert sizes["device"] == 0
    assert sizes["host"] == G.nbytes == sum(G.nbytes_by_component().values())


def test_nbytes_by_placement_of_an_empty_graph_raises():
    with pytest.raises(ValueError, match="empty"):
        cgc.CompressedGraph().nbytes_by_placement()


@pytest.mark.parametrize("fmt", LAYOUTS)
def test_to_placement_on_a_host_graph_moves_nothing(edges, fmt):
    G = build(edges, fmt, directed=False)
    arrays = dict(G._layout.arrays)
    start = int(edges["source"][0])
    before = bfs_distances(G, start)
    for target in ("device", "host"):
        assert G.to_placement(target) is G
        assert G.placement == "host"
        assert all(G._layout.arrays[k] is v for k, v in arrays.items())
    assert bfs_distances(G, start) == before == networkx_distances(edges, start, directed=False)


def test_to_placement_before_a_build_sets_where_the_build_puts_buffers(edges):
    G = cgc.CompressedGraph(format="ef")
    assert G.to_placement("host") is G and G.placement == "host"
    G.to_placement("device")
    assert G.placement == "device"
    G.from_pandas_edgelist(edges)
    assert G.placement == "host"  # built on the host backend


def test_read_edgelist_takes_the_placement(tmp_path, edges):
    path = tmp_path / "edges.csv"
    edges[["source", "destination"]].to_csv(path, index=False, header=False)
    G = cgc.read_edgelist(path, delimiter=",", placement="host")
    assert G.placement == "host"
    with pytest.raises(ValueError, match="placement='nowhere'"):
        cgc.read_edgelist(path, delimiter=",", placement="nowhere")


# -- saved and pickled graphs ----------------------------------------------------------------
@pytest.mark.parametrize("fmt", LAYOUTS)
@pytest.mark.parametrize("placement", ["device", "host", "auto"])
def test_load_takes_a_placement(tmp_path, edges, fmt, placement):
    G = build(edges, fmt)
    path = tmp_path / "graph.cgc"
    G.save(path)
    H = cgc.CompressedGraph.load(path, placement=placement)
    assert H.placement == "host"
    for name, array in G._layout.arrays.items():
        assert np.array_equal(np.asarray(H._layout.arrays[name]), np.asarray(array)), name
    assert np.array_equal(H._properties["weight"], G._properties["weight"])


@pytest.mark.parametrize("bad", ["gpu", None])
def test_load_refuses_a_bad_placement(tmp_path, edges, bad):
    path = tmp_path / "graph.cgc"
    build(edges).save(path)
    with pytest.raises(ValueError, match="placement="):
        cgc.CompressedGraph.load(path, placement=bad)


@pytest.mark.parametrize("placement", ["device", "host", "auto"])
def test_pickles_keep_the_placement(edges, placement):
    empty = cgc.CompressedGraph(format="cgr", placement=placement)
    assert pickle.loads(pickle.dumps(empty)).placement == placement
    G = build(edges, "cgr", placement)
    H = pickle.loads(pickle.dumps(G))
    assert H.placement == "host"
    start = int(edges["source"][0])
    assert bfs_distances(H, start) == networkx_distances(edges, start)


# -- layouts: the per-edge buffers -----------------------------------------------------------
@pytest.mark.parametrize("fmt", LAYOUTS)
def test_every_layout_names_its_per_edge_buffers(edges, fmt):
    cls = FORMATS[fmt]
    assert cls.edge_buffers and set(cls.edge_buffers) <= set(cls.buffer_names)
    # Doubling the edges on the same vertices grows the per-edge buffers about twice as
    # much as the rest: they hold the payload.
    small = build(edges.iloc[:300], fmt)._layout
    large = build(edges, fmt)._layout
    grown = {name: int(large.arrays[name].nbytes) - int(small.arrays[name].nbytes)
             for name in cls.buffer_names if small.arrays[name] is not None}
    per_edge = sum(grown[name] for name in cls.edge_buffers)
    assert per_edge > 0 and per_edge >= sum(grown.values()) - per_edge


@pytest.mark.parametrize("fmt", LAYOUTS)
def test_with_arrays_is_the_same_layout_over_copies(edges, fmt):
    layout = build(edges, fmt)._layout
    copy = layout.with_arrays({k: None if v is None else v.copy()
                               for k, v in layout.arrays.items()})
    assert copy is not layout and copy.params == layout.params
    copy.validate()
    for mine, theirs in zip(copy.to_coo(), layout.to_coo()):
        assert np.array_equal(mine, theirs)


# -- the merge of host-placed words ----------------------------------------------------------
@pytest.mark.parametrize("order", ["forward", "backward", "shuffled"])
def test_runs_staged_apart_merge_into_the_whole_stream(order):
    """Fields of three runs, bit-contiguous (runs share the words at their boundaries), each
    packed into a zeroed slice of its own words and ORed into the stream (what the GPU
    encoders do for a host-placed stream), in any order, give the stream packed at once."""
    rng = np.random.default_rng(3)
    widths = rng.integers(1, 30, 300)
    positions = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    values = (rng.integers(0, 2**31, 300) & ((1 << widths) - 1)).astype(np.uint64)
    total = int(positions[-1] + widths[-1])
    whole = pack_fields(values, positions, total)
    stream = np.zeros_like(whole)
    runs = [(0, 97), (97, 180), (180, 300)]
    if order == "backward":
        runs = runs[::-1]
    elif order == "shuffled":
        runs = [runs[1], runs[2], runs[0]]
    for i, j in runs:
        first_word = int(positions[i]) // 32
        end_bit = total if j == 300 else int(positions[j])
        local = positions[i:j] - 32 * first_word
        part = pack_fields(values[i:j], local, end_bit - 32 * first_word)
        _placement.or_words(stream, first_word, part)
    assert np.array_equal(stream, whole)


def test_or_words_leaves_out_words_past_the_end():
    stream = np.zeros(4, dtype=np.uint32)
    _placement.or_words(stream, 3, np.asarray([5, 7, 9], dtype=np.uint32))
    assert stream.tolist() == [0, 0, 0, 5]


# -- placement helpers on the host -----------------------------------------------------------
def test_host_arrays_are_host_placed_and_nothing_is_pinned():
    assert _placement.placement_of(np.zeros(3)) == "host"
    assert _placement.zeros(5, np.int32, "host", np).tolist() == [0] * 5
    target = np.zeros(6, dtype=np.int64)
    _placement.write(target, 2, np.asarray([7, 8], dtype=np.int32))
    assert target.tolist() == [0, 0, 7, 8, 0, 0]
    assert cgc.pinned_nbytes() == 0


@pytest.mark.parametrize("negative", [False, True])
def test_bad_weights_count_and_first_match_numpy(negative):
    rng = np.random.default_rng(9)
    weights = rng.normal(size=1000).astype(np.float32)
    weights[[17, 400]] = np.nan
    count, first = bad_weights(weights, negative)
    mask = np.isnan(weights) | ((weights < 0) if negative else False)
    assert count == int(mask.sum()) and first == int(np.flatnonzero(mask)[0])
    assert bad_weights(np.abs(np.nan_to_num(weights)), negative) == (0, None)


# -- pinned blocks, through a stand-in for CuPy's runtime --------------------------------------
class _FakeRuntime:
    """cudaHostAlloc / cudaFreeHost over ctypes buffers, failing on demand."""

    class CUDARuntimeError(RuntimeError):
        pass

    def __init__(self):
        self.blocks, self.fail = {}, False

    def hostAlloc(self, nbytes, flags):
        assert flags == 3  # mapped | portable
        if self.fail:
            raise self.CUDARuntimeError("cudaErrorMemoryAllocation: out of memory")
        buffer = (ctypes.c_char * nbytes)()
        self.blocks[ctypes.addressof(buffer)] = buffer
        return ctypes.addressof(buffer)

    def freeHost(self, ptr):
        del self.blocks[ptr]

    def pointerGetAttributes(self, ptr):
        return types.SimpleNamespace(devicePointer=ptr)


class _FakeArray:
    """What _pinned reads of a cupy.ndarray (its module must be cupy's)."""

    def __init__(self, shape, dtype, memptr):
        self.shape, self.dtype, self.data = shape, np.dtype(dtype), memptr
        self.nbytes = int(np.prod(shape)) * self.dtype.itemsize
        self.flags = types.SimpleNamespace(c_contiguous=True)


_FakeArray.__module__ = "cupy"


@pytest.fixture
def fake_cupy(monkeypatch):
    runtime = _FakeRuntime()

    class UnownedMemory:
        def __init__(self, ptr, size, owner, device_id):
            self.ptr, self.size, self._owner = ptr, size, owner

    class MemoryPointer:
        def __init__(self, mem, offset):
            self.mem, self.ptr = mem, mem.ptr + offset

    cuda = types.SimpleNamespace(runtime=runtime, Device=lambda: types.SimpleNamespace(id=0),
                                 UnownedMemory=UnownedMemory, MemoryPointer=MemoryPointer)
    module = types.ModuleType("cupy")
    module.cuda, module.ndarray = cuda, _FakeArray
    monkeypatch.setitem(sys.modules, "cupy", module)
    yield runtime
    gc.collect()
    assert not runtime.blocks and cgc.pinned_nbytes() == 0


def test_pinned_blocks_are_counted_and_freed_with_their_last_array(fake_cupy):
    array = _pinned.zeros((5,), np.int32)
    assert _pinned.is_pinned(array) and _placement.placement_of(array) == "host"
    assert cgc.pinned_nbytes() == 20 and len(fake_cupy.blocks) == 1
    view = _pinned.host_view(array)
    assert view.tolist() == [0] * 5
    view[2] = 7
    assert _pinned.host_view(array).tolist() == [0, 0, 7, 0, 0]  # one memory
    other = _placement.empty((3, 2), np.float64, "host", sys.modules["cupy"])
    assert cgc.pinned_nbytes() == 20 + 48 and other.shape == (3, 2)
    del array
    assert cgc.pinned_nbytes() == 68  # the host view still holds the block
    del view
    gc.collect()
    assert cgc.pinned_nbytes() == 48
    del other


def test_a_failed_pin_is_a_memory_error_naming_the_bytes(fake_cupy):
    held = _pinned.empty(4, np.uint8)
    fake_cupy.fail = True
    with pytest.raises(MemoryError, match=r"could not pin 4000 bytes .* holds 4 pinned bytes"):
        _pinned.empty(1000, np.int32)
    assert cgc.pinned_nbytes() == 4
    del held
