"""Degrees, neighbours, membership and the renumbering helpers against networkx and pandas.

The reference graph is networkx's: the deduplicated edges (an undirected graph's in both
directions, a self loop once) as a DiGraph, every vertex included; cuGraph's degrees on it are
that DiGraph's in- and out-degrees, ``degree`` their sum.  Every layout, both directions,
in-list storage (``store_transposed``), renumbered string ids and the degree vertex order
(whose internal ids pandas computes independently); the graphs are built under a small budget,
so degree counts and hub lists are decoded in several windows."""
import functools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from graphs import random_edges

import cugraph_compressed as cgc
from cugraph_compressed._build import MIN_RUN

LAYOUTS = ["csr", "ef", "cgr", "fl"]
V = 5000
#: (directed, store_transposed, string ids)
CASES = {"directed": (True, False, False), "directed transposed": (True, True, False),
         "undirected": (False, False, False), "transposed strings": (True, True, True),
         "undirected strings": (False, False, True),
         "degree-ordered directed": (True, False, False),
         "degree-ordered transposed strings": (True, True, True),
         "degree-ordered undirected strings": (False, False, True)}
#: Cases built with vertex_order="degree" (and so renumbered).
DEGREE_ORDERED = {case for case in CASES if case.startswith("degree-ordered")}
BUDGET = 1 << 16  # windows of MIN_RUN edges: a hub's list and the degree pass span several


@functools.cache
def edges(strings: bool):
    """Random edges (self loops, parallel edges) plus hub 0 pointing at every vertex and hub 1
    pointed at by every vertex: lists longer than a window in both directions."""
    df = pd.concat([random_edges(V, 8000, 11),
                    pd.DataFrame({"source": 0, "destination": np.arange(V)}),
                    pd.DataFrame({"source": np.arange(0, V, 2), "destination": 1}),
                    pd.DataFrame({"source": np.arange(1, V, 2), "destination": 1})],
                   ignore_index=True)
    assert V > MIN_RUN and len(df) > 3 * MIN_RUN
    if strings:
        df = df.map(lambda i: f"v{i:05d}")
    return df


@functools.cache
def reference(directed: bool, strings: bool):
    df = edges(strings)
    ref = nx.DiGraph() if directed else nx.Graph()
    ref.add_nodes_from(pd.concat([df["source"], df["destination"]]).unique())
    ref.add_edges_from(zip(df["source"], df["destination"]))
    return ref if directed else ref.to_directed()


@functools.cache
def graph(layout: str, case: str):
    directed, transposed, strings = CASES[case]
    ordered = case in DEGREE_ORDERED
    G = cgc.CompressedGraph(directed=directed, format=layout,
                            vertex_order="degree" if ordered else "sorted")
    return G.from_edge_chunks([edges(strings)], renumber=strings or ordered,
                              store_transposed=transposed, memory_budget=BUDGET)


def expected_internal(case) -> dict:
    """``{user id: internal id}`` of a renumbered case, by pandas: ranks of the sorted ids, or
    for the degree order the input degree of the stored lists (a row's list owner, both ends
    of an undirected row), largest first, ties by id."""
    directed, transposed, strings = CASES[case]
    df = edges(strings)
    ids = np.sort(pd.concat([df["source"], df["destination"]]).unique())
    if case not in DEGREE_ORDERED:
        return {v: i for i, v in enumerate(ids)}
    owner = df["destination"] if transposed else df["source"]
    ends = owner if directed else pd.concat([df["source"], df["destination"]])
    degree = ends.value_counts().reindex(ids, fill_value=0)
    frame = pd.DataFrame({"id": ids, "degree": degree.to_numpy()})
    order = frame.sort_values(["degree", "id"], ascending=[False, True])["id"]
    return {v: i for i, v in enumerate(order)}


def expected_degrees(case, vertices):
    directed, _, strings = CASES[case]
    ref = reference(directed, strings)
    return (np.array([ref.in_degree(v) for v in vertices]),
            np.array([ref.out_degree(v) for v in vertices]))


def some_vertices(case):
    """The hubs and a sample, one of them twice."""
    _, _, strings = CASES[case]
    picks = [0, 1, 2, 7, V - 1, 42, 7, 1500]
    return [f"v{i:05d}" for i in picks] if strings else picks


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_degrees_match_networkx(layout, case):
    G = graph(layout, case)
    directed, transposed, strings = CASES[case]
    vertex_dtype = G.vertex_dtype
    every = sorted(reference(directed, strings).nodes)
    in_ref, out_ref = expected_degrees(case, every)
    frames = {kind: getattr(G, kind)() for kind in ("in_degree", "out_degree", "degree",
                                                     "degrees")}
    for kind, frame in frames.items():
        # cuGraph's column order: vertex last for int ids, first for ids it renumbers.
        names = ["in_degree", "out_degree"] if kind == "degrees" else ["degree"]
        assert list(frame.columns) == (["vertex", *names] if strings else [*names, "vertex"])
        assert frame["vertex"].tolist() == every
        for name in names:
            assert frame[name].dtype == vertex_dtype
    np.testing.assert_array_equal(frames["in_degree"]["degree"], in_ref)
    np.testing.assert_array_equal(frames["out_degree"]["degree"], out_ref)
    np.testing.assert_array_equal(frames["degree"]["degree"], in_ref + out_ref)
    np.testing.assert_array_equal(frames["degrees"]["in_degree"], in_ref)
    np.testing.assert_array_equal(frames["degrees"]["out_degree"], out_ref)
    if not directed:  # both are the neighbour count; networkx's Graph counts a loop twice
        undirected = nx.Graph(reference(directed, strings))
        loops = np.array([undirected.has_edge(v, v) for v in every])
        np.testing.assert_array_equal(in_ref, [undirected.degree(v) for v in every] - loops)
        assert G.number_of_edges() == undirected.number_of_edges()  # counted in windows
    assert G.store_transposed == transposed and G.format == layout  # nothing re-encoded


@pytest.mark.parametrize("case", ["directed transposed", "undirected strings"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_degrees_of_a_vertex_subset_keep_its_order(layout, case):
    G = graph(layout, case)
    subset = some_vertices(case)
    in_ref, out_ref = expected_degrees(case, subset)
    for given in (subset, pd.Series(subset), np.asarray(subset)):
        frame = G.degrees(given)
        assert frame["vertex"].tolist() == subset
        np.testing.assert_array_equal(frame["in_degree"], in_ref)
        np.testing.assert_array_equal(frame["out_degree"], out_ref)
    one = G.out_degree(subset[3])
    assert one["vertex"].tolist() == [subset[3]] and one["degree"].tolist() == [out_ref[3]]
    assert len(G.in_degree([])) == 0 and list(G.in_degree([]).columns) == \
        list(G.in_degree().columns)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_neighbors_and_edges_match_networkx(layout, case):
    G = graph(layout, case)
    directed, _, strings = CASES[case]
    ref = reference(directed, strings)
    for v in some_vertices(case):
        got = G.neighbors(v)
        want = sorted(ref.successors(v)) if ref.has_node(v) else []
        assert got.tolist() == want  # sorted by id, whatever the vertex order
        assert got.name == ("0" if strings else "dst")
        assert G.has_node(v) == (ref.has_node(v) or not strings)  # 0 .. max id without renumber
    rng = np.random.default_rng(3)
    nodes = sorted(ref.nodes)
    pairs = [(nodes[i], nodes[j]) for i, j in rng.integers(0, len(nodes), (100, 2))]
    pairs += list(ref.edges)[::251] + [(nodes[0], nodes[-1]), (nodes[-1], nodes[0])]
    for u, v in pairs:
        assert G.has_edge(u, v) == ref.has_edge(u, v), (u, v)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_vertices_outside_the_graph(layout):
    G = graph(layout, "transposed strings")
    assert not G.has_node("nope") and not G.has_node(7) and not G.has_edge("v00000", "nope")
    assert G.neighbors("nope").tolist() == []
    with pytest.raises(ValueError, match="vertex_subset vertex 'nope' is not in the graph"):
        G.degree(["v00001", "nope"])
    with pytest.raises(TypeError, match="one vertex id"):
        G.neighbors(["v00001"])
    H = graph(layout, "directed")
    assert not H.has_node(V) and not H.has_node(-1) and not H.has_node("v1")
    assert H.neighbors(V).tolist() == [] and not H.has_edge(0, V)
    with pytest.raises(ValueError, match=f"vertex {V} is not in the graph \\(ids are 0"):
        H.in_degree([V])


def test_degree_queries_need_a_built_graph():
    for call in (lambda G: G.degree(), lambda G: G.neighbors(0), lambda G: G.has_node(0)):
        with pytest.raises(ValueError, match="empty"):
            call(cgc.CompressedGraph())


@pytest.mark.parametrize("case", ["undirected strings", "degree-ordered undirected strings"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_renumbering_helpers_round_trip(layout, case):
    G = graph(layout, case)
    ids = ["v00007", "nope", "v02999", "v00000"]
    internal = G.lookup_internal_vertex_id(pd.Series(ids))
    expected = expected_internal(case)
    assert internal.dtype == "Int32"  # nullable: one id is not a vertex
    assert internal.isna().tolist() == [False, True, False, False]
    assert internal.dropna().tolist() == [expected[v] for v in ("v00007", "v02999", "v00000")]
    frame = pd.DataFrame({"x": [1.5, 2.5, 3.5], "vertex": ["v00007", "v02999", "v00000"]},
                         index=[5, 6, 7])
    assert G.lookup_internal_vertex_id(frame, "vertex").tolist() == \
        internal.dropna().tolist()
    added = G.add_internal_vertex_id(frame, "id", "vertex")
    assert list(added.columns) == ["id", "x"] and added["x"].tolist() == [1.5, 2.5, 3.5]
    kept = G.add_internal_vertex_id(frame, "id", ["vertex"], drop=False)
    assert list(kept.columns) == ["id", "x", "vertex"]
    back = G.unrenumber(added, "id")
    assert list(back.columns) == ["id", "x"] and back["id"].tolist() == frame["vertex"].tolist()
    back, name = G.unrenumber(added.assign(id=added["id"].astype(np.int64)), "id",
                              get_column_names=True)
    assert name == "id" and back["id"].tolist() == frame["vertex"].tolist()
    series = G.add_internal_vertex_id(pd.Series(["v00001"]), "id", None)
    assert list(series.columns) == ["id", "0"] and series["0"].tolist() == ["v00001"]


def test_renumbering_helpers_refuse_what_is_not_an_id():
    G = graph("csr", "transposed strings")
    frame = pd.DataFrame({"id": [0, G.number_of_vertices()]})
    with pytest.raises(ValueError, match=f"holds {G.number_of_vertices()}, which is not an"):
        G.unrenumber(frame, "id")
    with pytest.raises(ValueError, match="integers, no nulls"):
        G.unrenumber(pd.DataFrame({"id": ["a"]}), "id")
    with pytest.raises(KeyError, match="'vertex' is not a column"):
        G.unrenumber(frame, "vertex")
    with pytest.raises(ValueError, match="give column_name"):
        G.lookup_internal_vertex_id(frame)
    with pytest.raises(ValueError, match="several columns"):
        G.add_internal_vertex_id(frame, "x", ["id", "id"])
    with pytest.raises(ValueError, match="already has a column 'id'"):
        G.add_internal_vertex_id(frame, "id", "id", drop=False)
    with pytest.raises(TypeError, match="drop must be a bool"):
        G.add_internal_vertex_id(frame, "x", "id", drop="yes")


@pytest.mark.parametrize("case", sorted(DEGREE_ORDERED))
def test_degree_order_internal_ids_match_pandas(case):
    G = graph("ef", case)
    expected = expected_internal(case)
    ids = list(expected)
    assert G.lookup_internal_vertex_id(pd.Series(ids)).tolist() == [expected[v] for v in ids]
    back = G.unrenumber(pd.DataFrame({"i": np.arange(len(ids))}), "i")["i"].tolist()
    assert back == ids  # expected lists the ids in internal order
    assert G.nodes().tolist() == sorted(ids)  # results keep sorted user ids


def test_unrenumbered_graph_ids_are_internal_ids():
    G = graph("fl", "directed")
    assert G.lookup_internal_vertex_id([5, 0, V]).tolist() == [5, 0, pd.NA]
    out = G.unrenumber(pd.DataFrame({"p": [3, -1]}), "p")
    assert out["p"].tolist() == [3, -1]  # a missing predecessor stays -1


@pytest.mark.parametrize("ids", [np.array([], np.int64), pd.Series([], dtype=object)],
                         ids=["int64", "strings"])
def test_an_empty_renumbered_graph_unrenumbers_missing_ids(ids):
    """No vertex: -1 (a missing predecessor) stays -1, any other id is named, not indexed."""
    G = cgc.CompressedGraph().from_pandas_edgelist(
        pd.DataFrame({"source": ids, "destination": ids}))
    assert G.renumbered and G.number_of_vertices() == 0
    assert G.unrenumber(pd.DataFrame({"p": [-1, -1]}), "p")["p"].tolist() == [-1, -1]
    with pytest.raises(ValueError, match="holds 0, .* the graph has no vertices"):
        G.unrenumber(pd.DataFrame({"p": [0]}), "p")


@pytest.mark.gpu
@pytest.mark.parametrize("case", ["directed", "directed transposed", "undirected strings",
                                  "transposed strings", "degree-ordered directed",
                                  "degree-ordered undirected strings"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_device_queries_match_networkx(layout, case):
    import cudf

    directed, transposed, strings = CASES[case]
    ordered = case in DEGREE_ORDERED
    G = cgc.CompressedGraph(directed=directed, format=layout,
                            vertex_order="degree" if ordered else "sorted")
    G.from_edge_chunks([cudf.from_pandas(edges(strings))], renumber=strings or ordered,
                       store_transposed=transposed, memory_budget=BUDGET)
    H = graph(layout, case)
    subset = some_vertices(case)
    calls = [(kind, ()) for kind in ("in_degree", "out_degree", "degree", "degrees")]
    for kind, args in calls + [("degrees", (subset,)), ("in_degree", (subset,))]:
        got, want = getattr(G, kind)(*args), getattr(H, kind)(*args)
        assert isinstance(got, cudf.DataFrame) and list(got.columns) == list(want.columns)
        for name in want.columns:  # string ids: cuDF's and pandas' string dtypes differ
            assert got[name].to_pandas().tolist() == want[name].tolist(), (kind, name)
            assert name == "vertex" or got[name].dtype == want[name].dtype
    for v in subset:
        assert G.neighbors(v).to_pandas().tolist() == H.neighbors(v).tolist()
        assert G.has_edge(subset[0], v) == H.has_edge(subset[0], v)
        assert G.has_node(v) == H.has_node(v)
    missing = ["nope"] if strings else [V + 5]  # cuDF columns hold one type
    got = G.lookup_internal_vertex_id(cudf.Series(subset + missing))
    want = H.lookup_internal_vertex_id(pd.Series(subset + missing))
    assert got.to_pandas().astype("Int64").tolist() == want.astype("Int64").tolist()
