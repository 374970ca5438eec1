"""``placement="auto"`` on the CPU: validation, the split choice as pure functions over given
sizes, where each layout's buffers are cut, split layouts decoding like whole ones, and the
accounting of a shared :class:`~cugraph_compressed.MemoryBudget`.

The GPU side (kernels reading both parts, RMM peaks, pinned bytes) is tested in
``tests/api/test_gpu_placement.py``; the device views reading split buffers run on the CPU in
``tests/native/test_device_views_native.py``.
"""
import gc

import numpy as np
import pandas as pd
import pytest
from graphs import random_edges

import cugraph_compressed as cgc
from cugraph_compressed._split import SplitArray, choose_split, device_share
from cugraph_compressed.formats.cgr import join_offsets
from cugraph_compressed.generators import rmat_edgelist
from cugraph_compressed.memory_budget import STATE_BYTES_PER_VERTEX, state_bytes_per_vertex

LAYOUTS = sorted(cgc.FORMATS)
EDGES = rmat_edgelist(9, seed=2)


def host_layout(fmt, directed=False, **params):
    G = cgc.CompressedGraph(directed=directed, format=fmt, **params)
    return G.from_pandas_edgelist(EDGES, renumber=False)._layout


# -- validation ---------------------------------------------------------------------------------
def test_auto_is_accepted_and_a_host_graph_reports_host():
    G = cgc.CompressedGraph(directed=True, format="ef", placement="auto", memory_budget=1 << 20)
    assert G.placement == "auto"  # before the build: what the build will use
    G.from_pandas_edgelist(EDGES, renumber=False)
    assert G.placement == "host" and G.placement_choice is None
    assert G.nbytes_by_placement() == {"device": 0, "host": G.nbytes}
    want = cgc.bfs(cgc.CompressedGraph(directed=True, format="ef").from_pandas_edgelist(
        EDGES, renumber=False), 0)
    pd.testing.assert_frame_equal(cgc.bfs(G, 0), want)
    assert G.to_placement("auto", memory_budget=10, split_vertex=3) is G  # nothing to move
    assert G.placement == "host"


@pytest.mark.parametrize("placement", ["gpu", "Auto", None, 1])
def test_bad_placement_names_the_value(placement):
    with pytest.raises(ValueError, match=f"placement={placement!r}"):
        cgc.CompressedGraph(placement=placement)


@pytest.mark.parametrize("budget, error", [(0, ValueError), (-5, ValueError),
                                           (1.5, TypeError), ("1GB", TypeError),
                                           (True, TypeError)])
def test_bad_memory_budget_names_the_value(budget, error):
    with pytest.raises(error, match=f"memory_budget.*{budget!r}"):
        cgc.CompressedGraph(placement="auto", memory_budget=budget)
    G = cgc.CompressedGraph().from_pandas_edgelist(EDGES)
    with pytest.raises(error, match=f"memory_budget.*{budget!r}"):
        G.to_placement("auto", memory_budget=budget)
    with pytest.raises(error, match="nbytes"):
        cgc.MemoryBudget(budget)


def test_split_vertex_needs_auto_and_a_vertex_in_range():
    G = cgc.CompressedGraph(format="fl").from_pandas_edgelist(EDGES, renumber=False)
    n = G.number_of_vertices()
    with pytest.raises(ValueError, match="split_vertex=3 needs placement='auto'"):
        G.to_placement("host", split_vertex=3)
    with pytest.raises(ValueError, match=rf"split_vertex must be in \[0, {n}\], got {n + 1}"):
        G.to_placement("auto", split_vertex=n + 1)
    with pytest.raises(TypeError, match="split_vertex must be an integer"):
        G.to_placement("auto", split_vertex=2.0)


def test_format_auto_ignores_the_placement():
    """The layout ``format="auto"`` picks, and every candidate's size, are the same whatever
    the placement asked for: sizes are those of the graph, wherever its buffers go."""
    choices = []
    for placement in ("device", "host", "auto"):
        G = cgc.CompressedGraph(format="auto", placement=placement, memory_budget=1 << 30)
        G.from_pandas_edgelist(EDGES)
        choices.append(G.format_choice)
    assert choices[0] == choices[1] == choices[2]
    from cugraph_compressed import _auto

    assert "placement" not in _auto.choose.__code__.co_varnames


# -- the split choice, pure functions -----------------------------------------------------------
def brute_force_split(sizes, share):
    """The largest s with sizes[s] <= share, by looking at every s."""
    return int(np.flatnonzero(np.asarray(sizes) <= share).max())


@pytest.mark.parametrize("seed", range(4))
def test_choose_split_is_the_largest_prefix_that_fits(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 5000))
    sizes = np.r_[0, np.cumsum(rng.integers(0, 50, n))]  # non-decreasing, flat runs too
    calls = []

    def bytes_at(vertices):
        calls.append(len(vertices))
        return sizes[vertices]

    for share in [0, 1, int(sizes[n // 2]), int(sizes[-1]) - 1, int(sizes[-1]), 10**12]:
        calls.clear()
        assert choose_split(bytes_at, n, share) == brute_force_split(sizes, share)
        assert max(calls) <= 1024  # batches of probes, never every vertex at once


def test_choose_split_with_lists_larger_than_the_share():
    sizes = np.array([0, 100, 100, 100, 250])  # list 0 alone is more than the share
    assert choose_split(lambda v: sizes[v], 4, 99) == 0
    assert choose_split(lambda v: sizes[v], 4, 100) == 3
    assert choose_split(lambda v: sizes[v], 4, 250) == 4


def test_device_share_takes_per_vertex_arrays_and_state_off_the_budget():
    assert device_share(10_000, 1_000, 100, 52) == 10_000 - 1_000 - 5_200
    assert device_share(6_200, 1_000, 100, 52) == 0
    with pytest.raises(MemoryError, match=r"6199 bytes.*1000 bytes under 'device'.*5200 bytes"):
        device_share(6_199, 1_000, 100, 52)


def test_state_bytes_cover_every_algorithm():
    assert set(STATE_BYTES_PER_VERTEX) == set(cgc.supported())
    assert state_bytes_per_vertex(False) == max(STATE_BYTES_PER_VERTEX.values())
    assert state_bytes_per_vertex(True) == 2 * state_bytes_per_vertex(False)


@pytest.mark.parametrize("weight, wide", [(np.float32, False), (np.float64, True)])
def test_state_nbytes_is_the_largest_state_per_vertex(weight, wide):
    edges = EDGES.assign(weight=np.arange(len(EDGES), dtype=weight))
    G = cgc.CompressedGraph(directed=True, format="ef").from_pandas_edgelist(edges,
                                                                            weight="weight")
    per_vertex = max(STATE_BYTES_PER_VERTEX.values()) * (2 if wide else 1)
    assert G.state_nbytes() == G.number_of_vertices() * per_vertex


def test_bytes_by_placement_count_the_vertex_order():
    """A degree-ordered graph's permutations are among its bytes wherever they are."""
    G = cgc.CompressedGraph(directed=True, format="ef", vertex_order="degree")
    G.from_pandas_edgelist(EDGES)
    assert G.nbytes_by_component()["vertex_order"] > 0
    assert G.nbytes_by_placement() == {"device": 0, "host": G.nbytes}


# -- where the buffers are cut, and split layouts ---------------------------------------------
@pytest.mark.parametrize("fmt", LAYOUTS)
def test_edge_starts_cut_each_buffer_where_a_list_begins(fmt):
    layout = host_layout(fmt)
    n = layout.num_vertices
    starts = layout.edge_starts(np.arange(n + 1))
    assert set(starts) == set(layout.edge_buffers)
    for name, cut in starts.items():
        size = layout.arrays[name].size
        assert cut[0] == 0 and cut[-1] == size and (np.diff(cut) >= 0).all()
    firsts = np.r_[0, np.cumsum(np.asarray(layout.degrees()))]
    (name, cut), = starts.items()
    if fmt == "csr":
        assert np.array_equal(cut, firsts)
    elif fmt == "fl":  # the word of each list's first field
        assert np.array_equal(cut[:-1], firsts[:-1] * layout.index_width // 32)
    elif fmt == "cgr":  # the word of each list's first bit
        bits = join_offsets(layout.arrays["bit_offsets"], layout.arrays["bit_offsets_high"])
        assert np.array_equal(cut[:-1], bits[:-1] // 32)
    itemsize = layout.arrays[name].itemsize
    assert np.array_equal(layout.split_nbytes(np.arange(n + 1)), cut * itemsize)


def split_at(layout, vertex):
    arrays = dict(layout.arrays)
    for name, cut in layout.edge_starts(np.asarray([vertex])).items():
        whole = layout.arrays[name]
        arrays[name] = SplitArray(whole[:int(cut[0])].copy(), whole[int(cut[0]):].copy(),
                                  int(cut[0]))
    return layout.with_arrays(arrays)


@pytest.mark.parametrize("fmt", LAYOUTS)
def test_split_layouts_decode_and_validate_like_whole_ones(fmt):
    """The host decoders and ``validate()`` read a split layout (its buffers through
    SplitArray) exactly as the whole one, at splits on the first, a middle and past the last
    list."""
    layout = host_layout(fmt, directed=True)
    n = layout.num_vertices
    want = layout.to_coo()
    for vertex in (0, 1, n // 2, n // 2 + 1, n - 1, n):
        split = split_at(layout, vertex)
        got = split.to_coo()
        assert all(np.array_equal(a, b) for a, b in zip(want, got)), vertex
        split.validate()
        assert split.nbytes == layout.nbytes
        degrees = np.asarray(layout.degrees())
        for v in (0, n // 2, int(np.argmax(degrees))):
            end = min(int(degrees[v]), 7)
            assert np.array_equal(split.decode_range(v, 0, end), layout.decode_range(v, 0, end))


def test_split_array_reads_like_the_whole():
    whole = np.arange(100, dtype=np.int32) * 3
    a = SplitArray(whole[:37].copy(), whole[37:].copy(), 37)
    assert a.size == 100 and a.nbytes == whole.nbytes and a.dtype == whole.dtype
    assert np.array_equal(np.asarray(a), whole)
    for key in (slice(None), slice(10, 37), slice(37, 60), slice(30, 45), slice(5, 90, 7),
                slice(99, 200), np.array([0, 36, 37, 99, 50])):
        assert np.array_equal(a[key], whole[key]), key
    assert a[36] == whole[36] and a[37] == whole[37] and a[-1] == whole[-1]
    assert a.min() == whole.min() and a.max() == whole.max()
    assert a.nbytes_by_placement() == {"device": 37 * 4, "host": 63 * 4}
    with pytest.raises(IndexError, match="index 100 is out of bounds"):
        a[100]
    with pytest.raises(ValueError, match="expected the split, 5"):
        SplitArray(whole[:4], whole[4:], 5)


# -- MemoryBudget -----------------------------------------------------------------------------
class Owner:
    pass


def test_memory_budget_draws_are_given_back_when_their_graph_goes():
    budget = cgc.MemoryBudget(1000)
    a, b = Owner(), Owner()
    ta = budget.draw(a, 600)
    tb = budget.draw(b, 300)
    assert budget.used == 900 and budget.available == 100 and sorted(budget.draws()) == [300, 600]
    with pytest.raises(MemoryError, match="needs 200 bytes under 'device'.*100 of 1000 bytes"):
        budget.draw(Owner(), 200)
    assert budget.used == 900  # a refused draw changes nothing
    budget.require(100)
    with pytest.raises(MemoryError, match="needs 101 bytes under 'device'"):
        budget.require(101)
    budget.require(700, replacing=ta)  # ta's 600 would be given back
    ta = budget.draw(a, 700, replacing=ta)  # a graph placed again: its old draw counts as free
    assert budget.used == 1000 and budget.held(ta) == 700
    with pytest.raises(MemoryError):
        budget.draw(a, 801, replacing=ta)
    assert budget.held(ta) == 700
    del a
    gc.collect()
    assert budget.used == 300
    budget.release(tb)
    budget.release(tb)  # twice: nothing more
    assert budget.used == 0 and budget.held(tb) == 0
    del b
    assert repr(budget) == "MemoryBudget(nbytes=1000, used=0)"


def test_a_host_graph_draws_nothing():
    budget = cgc.MemoryBudget(1)
    G = cgc.CompressedGraph(placement="auto", memory_budget=budget)
    G.from_pandas_edgelist(random_edges(200, 50, 1))
    assert budget.used == 0


@pytest.mark.parametrize("fmt", LAYOUTS)
def test_a_split_layout_saves_the_bytes_of_the_whole(tmp_path, fmt):
    """A saved graph holds each split buffer's parts one after the other, under one checksum:
    the same file as the whole buffer's, read back whole."""
    G = cgc.CompressedGraph(format=fmt).from_pandas_edgelist(EDGES, renumber=False)
    G.save(tmp_path / "whole.cgc")
    G._layout = split_at(G._layout, G.number_of_vertices() // 3)
    G.save(tmp_path / "split.cgc")
    assert (tmp_path / "split.cgc").read_bytes() == (tmp_path / "whole.cgc").read_bytes()
    H = cgc.CompressedGraph.load(tmp_path / "split.cgc")
    pd.testing.assert_frame_equal(cgc.bfs(H, 0), cgc.bfs(G, 0))
