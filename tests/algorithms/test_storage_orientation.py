"""Directed graphs stored as in-lists (``store_transposed=True``): the stored edges, and BFS and
SSSP, which re-orient the storage in place through the streaming build.  The re-oriented graph
is bit for bit the graph built directly as out-lists, whatever the budget (many vertex ranges,
many pieces, lists cut across pieces), in the sorted vertex order (the default degree order
ranks a transposed graph's vertices by in-degree, a direct build's by out-degree); BFS and
SSSP on it match SciPy; the re-orientation's
peak stays within both structures, the budget and O(V); a failure midway leaves the graph as it
was."""
import tracemalloc
import weakref

import numpy as np
import pandas as pd
import pytest
from graphs import (
    REORIENTATION_CASES,
    REORIENTATION_PROPERTIES,
    REORIENTATION_VERTICES,
    SMALL_GRAPHS,
    assert_same_graph,
    check_against_scipy,
    random_edges,
    reorientation_edges,
    small_graph,
    weighted_adjacency,
)
from scipy.sparse.csgraph import dijkstra

import cugraph_compressed as cgc
from cugraph_compressed import _source
from cugraph_compressed._build import MIN_RUN
from cugraph_compressed.formats.base import RangeEncoder
from cugraph_compressed.generators import rmat_chunks

LAYOUTS = sorted(cgc.FORMATS)


def sorted_graph(fmt, **params):
    """An empty directed graph in the sorted vertex order, the order in which a re-oriented
    graph and one built directly as out-lists number their vertices alike."""
    return cgc.CompressedGraph(directed=True, format=fmt, vertex_order="sorted", **params)


def build(df, layout, store_transposed):
    return sorted_graph(layout).from_pandas_edgelist(
        df, renumber=False, weight="weight", store_transposed=store_transposed)


def sorted_edges(G):
    return G.view_edge_list().sort_values(["source", "destination"]).reset_index(drop=True)


def out_lists(G):
    """The graph's out-lists, re-orienting it when it holds in-lists (what BFS asks for)."""
    return G.view().adjacency("out")


@pytest.fixture(scope="module")
def edges():
    df = random_edges(400, 2500, 90, weighted=True)  # parallel edges, self loops, isolated ids
    return df.astype({"source": np.int32, "destination": np.int32})


@pytest.fixture(scope="module")
def hubs():
    df = reorientation_edges()
    assert df["destination"].value_counts().iloc[:2].min() > 2 * MIN_RUN  # lists cut by pieces
    return df


@pytest.mark.parametrize("props", sorted(REORIENTATION_PROPERTIES))
@pytest.mark.parametrize("fmt, params", REORIENTATION_CASES,
                         ids=[f"{f}-{p}" for f, p in REORIENTATION_CASES])
def test_reoriented_graph_is_the_out_list_build(hubs, fmt, params, props):
    """Bit for bit the graph built directly with store_transposed=False: under the default
    budget (one range, one piece) and under one that makes several ranges and pieces, with
    the hubs' in-lists cut across pieces and isolated vertices at the end (``vertices``)."""
    columns, small = REORIENTATION_PROPERTIES[props]
    vertices = pd.Series(np.arange(REORIENTATION_VERTICES))
    direct = sorted_graph(fmt, **params).from_edge_chunks(
        [hubs], renumber=False, vertices=vertices, **columns)
    for budget in (None, small):
        G = sorted_graph(fmt, **params).from_edge_chunks(
            [hubs], renumber=False, vertices=vertices, store_transposed=True,
            memory_budget=budget, **columns)
        assert G._in_lists
        in_lists = {name: array.copy() for name, array in G._layout.arrays.items()}
        adjacency = out_lists(G)
        assert not adjacency.in_lists and adjacency.layout is G._layout
        assert_same_graph(G, direct)
        stats = G.build_stats["reoriented"]
        assert stats["budget"] == G.build_stats["budget"]  # the budget the graph was built with
        if budget is not None:
            assert stats["ranges"] > 1 and stats["pieces"] > 2
        assert G.store_transposed  # as given at the build
        assert any(not np.array_equal(in_lists[k], G._layout.arrays[k]) for k in in_lists)


def test_renumbered_ids_are_kept():
    """The re-orientation works on internal ids: the renumber map (string ids here) and the
    results in user ids are unchanged."""
    df = random_edges(300, 5000, 3, weighted=True)
    df = df.assign(source="v" + df["source"].astype(str),
                   destination="v" + df["destination"].astype(str))
    G = sorted_graph("ef").from_edge_chunks(
        [df], weight="weight", store_transposed=True, memory_budget=20_000)
    direct = sorted_graph("ef").from_pandas_edgelist(
        df, weight="weight")
    before = sorted_edges(G)
    out_lists(G)
    assert_same_graph(G, direct)
    assert G.nodes().equals(direct.nodes())
    pd.testing.assert_frame_equal(sorted_edges(G), before)


@pytest.mark.parametrize("fmt", LAYOUTS)
@pytest.mark.parametrize("case", sorted(SMALL_GRAPHS))
def test_small_graphs(fmt, case):
    df, kwargs = small_graph(case)
    G = sorted_graph(fmt).from_pandas_edgelist(
        df, store_transposed=True, **kwargs)
    direct = sorted_graph(fmt).from_pandas_edgelist(df, **kwargs)
    out_lists(G)
    assert_same_graph(G, direct)
    G.validate()


def test_undirected_and_out_list_graphs_are_left_alone(edges):
    for directed, transposed in ((False, True), (True, False)):
        G = cgc.CompressedGraph(directed=directed).from_pandas_edgelist(
            edges, renumber=False, weight="weight", store_transposed=transposed)
        layout = G._layout
        assert out_lists(G).layout is layout and "reoriented" not in G.build_stats


@pytest.mark.parametrize("layout", LAYOUTS)
def test_in_lists_hold_the_same_edges(edges, layout):
    G = build(edges, layout, True)
    assert G._in_lists
    G.validate()
    pd.testing.assert_frame_equal(sorted_edges(G), sorted_edges(build(edges, layout, False)))


@pytest.mark.parametrize("budget", [None, 9_000])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_bfs_converts_in_lists_in_place(edges, layout, budget):
    G = sorted_graph(layout).from_edge_chunks(
        [edges], renumber=False, weight="weight", store_transposed=True, memory_budget=budget)
    before = sorted_edges(G)
    result = cgc.bfs(G, start=5).sort_values("vertex").reset_index(drop=True)
    assert not G._in_lists  # converted once, and kept
    G.validate()
    pd.testing.assert_frame_equal(sorted_edges(G), before)
    check_against_scipy(edges, result, True, [5])
    if budget is not None:
        assert G.build_stats["reoriented"]["ranges"] > 1


@pytest.mark.parametrize("layout", LAYOUTS)
def test_sssp_on_in_lists(edges, layout):
    G = sorted_graph(layout).from_edge_chunks(
        [edges], renumber=False, weight="weight", store_transposed=True, memory_budget=9_000)
    n = G.number_of_vertices()
    result = cgc.sssp(G, 7).sort_values("vertex")
    expected = dijkstra(weighted_adjacency(edges, n, True), indices=7)
    dist = result["distance"].to_numpy(np.float64)
    reached = np.isfinite(expected)
    assert np.array_equal(dist < 3e38, reached)
    assert np.allclose(dist[reached], expected[reached], rtol=1e-6)


# -- failure --------------------------------------------------------------------------------------
def fail_on_piece(monkeypatch, k):
    """Make the ``k``-th piece read back (over all passes) raise MemoryError."""
    pieces, read = _source.StoredEdges.pieces, []

    def failing(self, *args, **kwargs):
        for piece in pieces(self, *args, **kwargs):
            read.append(1)
            if len(read) == k:
                raise MemoryError("out of memory (test)")
            yield piece

    monkeypatch.setattr(_source.StoredEdges, "pieces", failing)


def fail_on_finish(monkeypatch):
    """Make the encoder fail once every range is written: the new structure is complete."""
    def failing(self):
        raise MemoryError("out of memory (test)")

    monkeypatch.setattr(RangeEncoder, "finish", failing)


def watch_encoders(monkeypatch):
    """Weak references to the encoders the build sizes with (they hold the new buffers)."""
    seen, size = [], RangeEncoder.size

    def watched(self, *args):
        if not any(ref() is self for ref in seen):
            seen.append(weakref.ref(self))
        return size(self, *args)

    monkeypatch.setattr(RangeEncoder, "size", watched)
    return seen


@pytest.mark.parametrize("where", ["reading", "finishing"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_failure_midway_leaves_the_graph_as_it_was(edges, layout, where, monkeypatch):
    """MemoryError while the stored edges are read back (a later pass) or once the new structure
    is complete: the graph keeps its in-lists, buffers and properties and runs PageRank as
    before, nothing of the failed build survives it (no garbage collection asked), and it
    re-orients when asked again."""
    G = sorted_graph(layout).from_edge_chunks(
        [edges], renumber=False, weight="weight", store_transposed=True, memory_budget=9_000)
    layout_before, properties_before = G._layout, dict(G._properties)
    arrays = {name: array.copy() for name, array in G._layout.arrays.items()}
    ranks = cgc.pagerank(G)
    with monkeypatch.context() as patch:
        if where == "reading":
            fail_on_piece(patch, 5)
        else:
            fail_on_finish(patch)
        encoders = watch_encoders(patch)
        try:  # not pytest.raises: its record of the traceback would keep the failed frames
            cgc.bfs(G, start=5)
        except MemoryError as exc:
            assert "test" in str(exc)
        else:
            raise AssertionError("the re-orientation did not fail")
    assert encoders and all(ref() is None for ref in encoders)
    assert G._in_lists and G._layout is layout_before and "reoriented" not in G.build_stats
    assert G._properties == properties_before
    for name, array in arrays.items():
        assert np.array_equal(G._layout.arrays[name], array)
    G.validate()
    pd.testing.assert_frame_equal(cgc.pagerank(G), ranks)
    result = cgc.bfs(G, start=5).sort_values("vertex").reset_index(drop=True)
    assert not G._in_lists
    check_against_scipy(edges, result, True, [5])


# -- memory ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", LAYOUTS)
def test_host_reorientation_peak_stays_within_its_bound(fmt):
    """The re-orientation's own allocations (the old structure is there before it) peak within
    the new structure, the budget and O(V) vertex arrays (the degrees' prefix sum, the build's
    counts, the layouts' per-vertex buffers and host degree decoders): no term in the edge
    count beyond the structure, where decoding, transposing and re-encoding every edge at once
    takes about 24 bytes an edge."""
    budget = 2 << 20  # pieces of budget // 4 // 48 rows, above MIN_RUN
    G = sorted_graph(fmt).from_edge_chunks(
        rmat_chunks(12, 64, chunk_edges=1 << 15, seed=7), renumber=False, store_transposed=True,
        memory_budget=budget)
    out_lists(sorted_graph(fmt).from_edge_chunks(
        rmat_chunks(6, chunk_edges=100), renumber=False, store_transposed=True))  # imports
    tracemalloc.start()
    try:
        out_lists(G)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    stats = G.build_stats["reoriented"]
    assert stats["ranges"] > 1 and stats["pieces"] > 10, stats
    bound = G.nbytes + budget + 192 * G.number_of_vertices()
    assert peak <= bound, (peak, bound)
    assert bound < G.nbytes + 24 * G.number_of_edges()
