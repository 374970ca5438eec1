"""The in-lists a directed graph keeps beside its out-lists (``Adjacency.in_lists_beside``,
for bottom-up BFS levels with ``TraversalConfig.directed_bottom_up``): built by the streaming
build from the graph's own edges, bit for bit the in-lists of a graph built directly with
``store_transposed=True``, kept while the out-lists stay, counted by the graph's byte counts.
The GPU side (BFS over them, placement, the memory budget) is in
``test_gpu_direction_optimizing_bfs.py``."""
import numpy as np
import pytest
from graphs import host_array, random_edges

import cugraph_compressed as cgc
from cugraph_compressed import graph as graph_module
from cugraph_compressed.graph_view import ANY, OUT

LAYOUTS = sorted(cgc.FORMATS)


def graph(df, layout, directed=True, store_transposed=False, **params):
    """A host graph in the sorted vertex order, where a direct in-list build numbers the
    vertices as the out-list build does."""
    G = cgc.CompressedGraph(directed=directed, format=layout, vertex_order="sorted", **params)
    return G.from_pandas_edgelist(df, renumber=False, weight="weight",
                                  store_transposed=store_transposed)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_in_lists_beside_are_the_transposed_build(layout):
    df = random_edges(300, 4000, seed=11, weighted=True)
    G = graph(df, layout)
    before, where = G.nbytes, G.nbytes_by_placement()
    beside = G.view().adjacency(OUT).in_lists_beside()
    want = graph(df, layout, store_transposed=True)._layout
    assert beside.in_lists and not beside.symmetric and not beside.properties
    assert list(beside.layout.arrays) == list(want.arrays)
    for name, array in want.arrays.items():
        got = host_array(beside.layout.arrays[name])
        assert got.dtype == array.dtype and np.array_equal(got, array), name
    assert G.view().adjacency(OUT).in_lists_beside().layout is beside.layout  # kept
    assert G.nbytes_by_component()["in_lists_beside"] == want.nbytes
    assert G.nbytes == before + want.nbytes
    assert G.nbytes_by_placement()["host"] == where["host"] + want.nbytes


@pytest.mark.parametrize("layout", LAYOUTS)
def test_in_lists_beside_keep_the_degree_order_ids(layout):
    """A renumbered graph in degree order: the in-lists hold the same internal ids, turned
    round, and pass the layout's own checks."""
    df = random_edges(300, 4000, seed=13)
    G = cgc.CompressedGraph(directed=True, format=layout).from_pandas_edgelist(df)
    assert G.vertex_order == "degree" and G.renumbered
    out = G.view().adjacency(OUT)
    beside = out.in_lists_beside().layout
    o, n, _ = out.layout.to_coo()
    io, inn, _ = beside.to_coo()
    assert sorted(zip(o.tolist(), n.tolist())) == sorted(zip(inn.tolist(), io.tolist()))
    beside.validate()


@pytest.mark.parametrize("layout", ["csr", "ef"])
def test_only_directed_out_lists_have_in_lists_beside(layout):
    df = random_edges(100, 900, seed=12, weighted=True)
    assert graph(df, layout, directed=False).view().adjacency(OUT).in_lists_beside is None
    T = graph(df, layout, store_transposed=True)
    assert T.view().adjacency(ANY).in_lists_beside is None  # it holds its in-lists
    out = T.view().adjacency(OUT)  # re-oriented in place: out-lists now
    assert not out.in_lists and out.in_lists_beside is not None
    assert "in_lists_beside" not in T.nbytes_by_component()
    beside = out.in_lists_beside()
    assert beside.layout.num_edges == out.layout.num_edges
    assert T.nbytes_by_component()["in_lists_beside"] == beside.layout.nbytes


def test_directed_bottom_up_is_a_bool():
    assert cgc.TraversalConfig(directed_bottom_up=True).directed_bottom_up
    assert not cgc.TraversalConfig().directed_bottom_up
    with pytest.raises(TypeError, match="directed_bottom_up=1 must be a bool"):
        cgc.TraversalConfig(directed_bottom_up=1)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_re_orientation_keeps_the_old_in_lists(layout, monkeypatch):
    """With directed_bottom_up, re-orienting a transposed graph keeps its in-lists (without
    their properties) beside the new out-lists: one build, not two."""
    df = random_edges(200, 2500, seed=14, weighted=True)
    T = graph(df, layout, store_transposed=True)
    T.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    old = T._layout
    builds = []
    real = graph_module.build
    monkeypatch.setattr(graph_module, "build", lambda *a, **k: builds.append(1) or real(*a, **k))
    out = T.view().adjacency(OUT)
    assert len(builds) == 1 and not out.in_lists
    assert out.in_lists_beside().layout is old and len(builds) == 1
    assert T.nbytes_by_component()["in_lists_beside"] == old.nbytes
    assert "weight" in T.nbytes_by_component()  # the out-lists' own weights, once


def test_a_re_orientation_keeps_them_only_for_bottom_up_bfs():
    """Without directed_bottom_up, or with bottom-up BFS switched off, the old in-lists go."""
    df = random_edges(200, 2500, seed=15, weighted=True)
    for config in (cgc.TraversalConfig(),
                   cgc.TraversalConfig(directed_bottom_up=True, bottom_up_alpha=None)):
        T = graph(df, "ef", store_transposed=True)
        T.traversal = config
        T.view().adjacency(OUT)
        assert not T._in_lists and T._kept_in_lists() is None


@pytest.mark.parametrize("layout", ["csr", "ef"])
def test_turning_the_opt_in_off_drops_the_in_lists(layout):
    """A configuration without directed_bottom_up gives the kept in-lists back (the graph's
    bytes return to its out-lists'); turning it on again builds them anew on the next ask."""
    G = graph(random_edges(300, 4000, seed=17, weighted=True), layout)
    before = G.nbytes
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    first = G.view().adjacency(OUT).bottom_up_lists().layout
    assert G.nbytes == before + first.nbytes
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True, bottom_up_beta=48)
    assert G._kept_in_lists() is first  # still going bottom-up: kept
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True, bottom_up_alpha=None)
    assert G._kept_in_lists() is None and G.nbytes == before
    assert "in_lists_beside" not in G.nbytes_by_component()
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    again = G.view().adjacency(OUT).bottom_up_lists().layout
    assert again is not first and G.nbytes == before + again.nbytes
    G.traversal = cgc.TraversalConfig()
    assert G._kept_in_lists() is None and G.nbytes == before


def test_a_virtual_split_leaves_the_original_its_in_lists():
    """A virtual split shares the original's buffers: turning the opt-in off on the split
    drops nothing of the original's."""
    from cugraph_compressed.transforms import virtual_split

    G = graph(random_edges(300, 4000, seed=19, weighted=True), "csr")
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    kept = G.view().adjacency(OUT).bottom_up_lists().layout
    V = virtual_split(G, 8)
    V.traversal = cgc.TraversalConfig()
    assert G._kept_in_lists() is kept and "in_lists_beside" in G.nbytes_by_component()
