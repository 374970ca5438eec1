"""The virtual split on the host backend: the parts each list is handed out in, against the
definition (strided ranks j, j + n, ... or contiguous runs), and every algorithm on the split
graph against SciPy and NetworkX on the original graph, on every layout, directed and
undirected, weighted and not, part sizes from 1 to above the largest degree."""
import pickle

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from graphs import check_against_scipy, weighted_adjacency
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph
from transform_checks import build, check_all, hub_edges, random_hub_edges

import cugraph_compressed as cgc
from cugraph_compressed.graph_view import ANY
from cugraph_compressed.transforms import VirtualGraph, comb, udt, virtual_split
from cugraph_compressed.transforms.virtual import Parts, VirtualLayout

LAYOUTS = sorted(cgc.FORMATS)
LARGEST = 61  # the hub's degree in hub_edges (60 spokes, and a repeat or self loop at most)


def expected_parts(ranks, size, strided):
    """A list's ranks as its parts take them, by the definition."""
    d = len(ranks)
    if strided:
        n = -(-d // size)
        return [ranks[j::n] for j in range(n)]
    return [ranks[j:j + size] for j in range(0, d, size)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("coalesce", [True, False], ids=["strided", "contiguous"])
@pytest.mark.parametrize("part_size", [1, 2, 3, 8, LARGEST + 1])
def test_lists_are_handed_out_part_after_part(part_size, coalesce, layout):
    G = build(hub_edges(3), True, layout)
    layout_object = G.view().adjacency(ANY).layout
    parts = Parts.of(layout_object, part_size, coalesce)
    assert parts.strided == (coalesce and layout != "cgr")
    if parts.strided:
        assert parts.size == part_size
    else:  # rounded up to where the layout's decoder can start
        chunk = layout_object.device_chunk_size
        assert parts.size % chunk == 0 and part_size <= parts.size < part_size + chunk
    vertices = np.arange(layout_object.num_vertices, dtype=np.int64)
    owner, neighbours, slots = layout_object.decode_lists(vertices)
    v_owner, v_neighbours, v_slots = VirtualLayout(layout_object, parts).decode_lists(vertices)
    for v in range(vertices.size):
        mine = owner == v
        ranks = list(zip(neighbours[mine].tolist(), slots[mine].tolist()))
        expected = [e for part in expected_parts(ranks, parts.size, parts.strided) for e in part]
        split = v_owner == v
        assert list(zip(v_neighbours[split].tolist(), v_slots[split].tolist())) == expected
    degrees = np.bincount(owner, minlength=vertices.size)
    V = virtual_split(G, part_size=part_size, coalesce=coalesce)
    families = -(-degrees // parts.size)
    assert V.transform.added_vertices == int(np.maximum(families - 1, 0).sum())


@pytest.mark.filterwarnings("ignore:Pagerank expects")
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["dir", "undir"])
@pytest.mark.parametrize("part_size, coalesce", [(1, True), (3, True), (8, True),
                                                 (LARGEST + 1, True), (3, False)])
def test_algorithms_equal_the_original(part_size, coalesce, directed, layout):
    df = hub_edges(7)
    G = build(df, directed, layout)
    V = virtual_split(G, part_size=part_size, coalesce=coalesce)
    check_all(df, G, V, directed, start=1)
    # Nothing but the order of work changed: exact equality where the result is unique.
    for call in (lambda g: cgc.bfs(g, [1, 4], depth_limit=2), lambda g: cgc.sssp(g, 1)):
        mine, theirs = call(V).sort_values("vertex"), call(G).sort_values("vertex")
        assert np.array_equal(mine["distance"], theirs["distance"])


@pytest.mark.filterwarnings("ignore:Pagerank expects")
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["dir", "undir"])
def test_unweighted_graphs(directed, layout):
    df = hub_edges(11).drop(columns="weight")
    G = cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(
        df, renumber=False)
    V = virtual_split(G, part_size=4)
    check_against_scipy(df, cgc.bfs(V, 1), directed, 1, ids=np.arange(120))
    with pytest.raises(RuntimeError):
        cgc.sssp(V, 1)
    a = weighted_adjacency(df.assign(weight=1.0), 120, directed).tocoo()
    g = nx.DiGraph()
    g.add_nodes_from(range(120))
    g.add_edges_from(zip(a.row.tolist(), a.col.tolist()))
    reference = nx.pagerank(g, tol=1e-13, max_iter=1000)
    scores = cgc.pagerank(V, tol=1e-10, max_iter=1000).sort_values("vertex")["pagerank"]
    assert np.abs(scores.to_numpy(np.float64) - [reference[v] for v in range(120)]).sum() <= 1e-6
    if not directed:
        labels = cgc.weakly_connected_components(V).sort_values("vertex")["labels"].to_numpy()
        _, expected = csgraph.connected_components(a, directed=False)
        pairs = pd.DataFrame({"a": labels, "b": expected}).drop_duplicates()
        assert pairs["a"].is_unique and pairs["b"].is_unique


@pytest.mark.filterwarnings("ignore:Pagerank expects")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), n=st.integers(2, 50), m=st.integers(0, 150),
       hub=st.integers(0, 40), directed=st.booleans(), layout=st.sampled_from(LAYOUTS),
       part_size=st.integers(1, 45), coalesce=st.booleans(),
       depth=st.sampled_from([None, 1, 2]))
def test_random_graphs_equal_the_original(seed, n, m, hub, directed, layout, part_size,
                                          coalesce, depth):
    df = random_hub_edges(seed, n, m, hub)
    G = build(df, directed, layout)
    check_all(df, G, virtual_split(G, part_size=part_size, coalesce=coalesce), directed,
              start=0, depth_limit=depth)


@pytest.mark.filterwarnings("ignore:Pagerank expects")
def test_transposed_graph_and_user_ids():
    """A directed graph stored transposed (BFS re-orients it, PageRank pulls over its
    in-lists) and renumbered string ids: every result as the original's."""
    df = hub_edges(5)
    names = {v: f"v{v:03d}" for v in range(120)}
    named = df.assign(source=df["source"].map(names), destination=df["destination"].map(names))
    G = cgc.CompressedGraph(directed=True, format="ef").from_pandas_edgelist(
        named, weight="weight", store_transposed=True)
    V = virtual_split(G, part_size=2)
    assert V.transform.lists == "in"
    mine = cgc.bfs(V, ["v001", "v050"], depth_limit=2).sort_values("vertex")
    theirs = cgc.bfs(G, ["v001", "v050"], depth_limit=2).sort_values("vertex")
    assert mine["vertex"].tolist() == theirs["vertex"].tolist()
    assert np.array_equal(mine["distance"], theirs["distance"])
    mine = cgc.pagerank(V, tol=1e-10).sort_values("vertex")
    theirs = cgc.pagerank(G, tol=1e-10).sort_values("vertex")
    assert mine["vertex"].tolist() == theirs["vertex"].tolist()
    assert np.abs(mine["pagerank"].to_numpy(np.float64)
                  - theirs["pagerank"].to_numpy(np.float64)).sum() <= 1e-6


def test_record_queries_and_bad_arguments():
    df = hub_edges(1)
    G = build(df, False, "csr")
    V = virtual_split(G, part_size=8)
    assert isinstance(V, VirtualGraph) and isinstance(V, cgc.CompressedGraph)
    record = V.transform
    assert record.kind == "virtual" and record.added_edges == 0 and record.added_bytes == 0
    assert record.params == {"part_size": 8, "coalesce": True, "strided": True,
                             "ranks_per_part": 8}
    assert record.added_bytes_by_placement == {"device": 0, "host": 0}
    # The same graph: every query answers as the original's.
    assert V.nbytes == G.nbytes and V.number_of_vertices() == G.number_of_vertices()
    pd.testing.assert_frame_equal(V.view_edge_list(), G.view_edge_list())
    pd.testing.assert_frame_equal(V.degrees(), G.degrees())
    assert "virtual" in repr(V) and G.view().transform is None
    with pytest.raises(ValueError, match=r"part_size must be in \[1, 2\*\*62\], got 0"):
        virtual_split(G, part_size=0)
    with pytest.raises(ValueError, match=r"part_size must be .*, got 18446744073709551616"):
        virtual_split(G, part_size=2**64)
    assert virtual_split(G, part_size=2**62).transform.added_vertices == 0
    with pytest.raises(TypeError, match="part_size must be an integer"):
        virtual_split(G, part_size=2.0)
    with pytest.raises(TypeError, match="coalesce must be a bool"):
        virtual_split(G, coalesce=1)
    with pytest.raises(NotImplementedError, match="load is not defined on a virtual split"):
        VirtualGraph.load("any.cgc")
    with pytest.raises(TypeError, match="takes a CompressedGraph"):
        virtual_split(nx.Graph())
    with pytest.raises(ValueError, match="empty"):
        virtual_split(cgc.CompressedGraph())
    with pytest.raises(TypeError, match="already a virtual graph"):
        udt(V, degree_bound=2)
    with pytest.raises(TypeError, match="already a comb graph"):
        virtual_split(comb(G, threshold=2, width=2))
    with pytest.raises(NotImplementedError, match="save the original"):
        V.save("x")
    with pytest.raises(TypeError, match="cannot pickle a virtual split graph"):
        pickle.dumps(V)


def test_a_split_keeps_and_records_nothing_of_the_originals_in_lists_and_reorientation():
    """The original's in-lists kept beside its out-lists stay the original's (the split
    neither counts nor drops them), and the split's own re-orientation is recorded in its
    build stats, not the original's."""
    df = hub_edges(4)
    G = build(df, True, "ef")
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    G.view().adjacency("out").bottom_up_lists()  # built and kept beside G's out-lists
    V = virtual_split(G, part_size=4)
    assert "in_lists_beside" in G.nbytes_by_component()
    assert "in_lists_beside" not in V.nbytes_by_component()
    assert V.nbytes == G.nbytes - G.nbytes_by_component()["in_lists_beside"]
    V.traversal = cgc.TraversalConfig()  # the opt-in off for V: G's in-lists stay
    assert "in_lists_beside" in G.nbytes_by_component()

    T = build(df, True, "ef", store_transposed=True)
    W = virtual_split(T, part_size=4)
    W.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    want = csgraph.shortest_path(weighted_adjacency(df, int(df[["source", "destination"]]
                                                                .max().max()) + 1, True),
                                 unweighted=True, indices=1)
    got = cgc.bfs(W, 1).sort_values("vertex")
    reached = np.isfinite(want[got["vertex"].to_numpy()])
    assert np.array_equal(got["distance"].to_numpy()[reached],
                          want[got["vertex"].to_numpy()][reached].astype(np.int64))
    assert "reoriented" in W.build_stats and "reoriented" not in T.build_stats
    assert "in_lists_beside" not in W.nbytes_by_component()
