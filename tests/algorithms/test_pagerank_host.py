"""Host PageRank on every layout against NetworkX, and cuGraph's conventions."""
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from graphs import random_edges

import cugraph_compressed as cgc
from cugraph_compressed.algorithms.pagerank import TRANSPOSED_WARNING, pagerank

LAYOUTS = sorted(cgc.FORMATS)


def nx_graph(df, directed, weighted):
    g = nx.DiGraph() if directed else nx.Graph()
    g.add_nodes_from(range(int(max(df["source"].max(), df["destination"].max())) + 1))
    if weighted:
        # our dedup rule: the smallest weight of parallel edges (tests avoid both directions)
        edges = df.groupby(["source", "destination"], as_index=False)["weight"].min()
        g.add_weighted_edges_from(edges.itertuples(index=False, name=None))
    else:
        g.add_edges_from(zip(df["source"], df["destination"]))
    return g


def l1(result, expected):
    ours = result.set_index("vertex")["pagerank"]
    return sum(abs(float(ours[v]) - p) for v, p in expected.items())


def build(df, layout, directed=True, store_transposed=True, **kwargs):
    return cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(
        df, renumber=False, store_transposed=store_transposed, **kwargs)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("store_transposed", [True, False], ids=["in-lists", "out-lists"])
@pytest.mark.filterwarnings("ignore:Pagerank expects")  # out-lists warn, as in cuGraph
def test_matches_networkx(layout, directed, store_transposed):
    df = random_edges(300, 1200, 70)  # leaves dangling vertices and isolated ids
    G = build(df, layout, directed, store_transposed)
    expected = nx.pagerank(nx_graph(df, directed, False), alpha=0.85, tol=1e-12, max_iter=1000)
    result = pagerank(G, tol=1e-10, max_iter=1000)
    assert result["pagerank"].dtype == np.float32
    assert l1(result, expected) < 1e-5


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("store_transposed", [True, False], ids=["in-lists", "out-lists"])
@pytest.mark.filterwarnings("ignore:Pagerank expects")  # out-lists warn, as in cuGraph
def test_weighted_and_personalized(layout, store_transposed):
    df = random_edges(200, 900, 71, weighted=True)
    df = df[df["source"] < df["destination"]]  # one direction per pair: no averaging question
    G = build(df, layout, store_transposed=store_transposed, weight="weight")
    pers = {3: 1.0, 10: 3.0, 50: 0.5}
    expected = nx.pagerank(nx_graph(df, True, True), alpha=0.9, personalization=pers,
                           dangling=pers, tol=1e-12, max_iter=1000)
    frame = pd.DataFrame({"vertex": list(pers), "values": list(pers.values())})
    result = pagerank(G, alpha=0.9, personalization=frame, tol=1e-10, max_iter=1000)
    assert l1(result, expected) < 1e-5


def test_float64_weights_give_float64_scores():
    df = random_edges(30, 90, 72, weighted=True).astype({"weight": np.float64})
    assert pagerank(build(df, "csr", weight="weight"))["pagerank"].dtype == np.float64


def test_nstart_is_used_as_given():
    df = random_edges(50, 200, 73)
    G = build(df, "csr")
    reference = pagerank(G, tol=1e-10)
    start = reference.rename(columns={"pagerank": "values"})
    result, converged = pagerank(G, nstart=start, tol=1e-6, max_iter=3,
                                 fail_on_nonconvergence=False)
    assert converged  # starting at the answer, the first iteration barely moves it
    assert np.allclose(result["pagerank"], reference["pagerank"], atol=1e-6)


def test_non_convergence():
    G = build(random_edges(50, 200, 74), "csr")
    with pytest.raises(Exception) as info:
        pagerank(G, max_iter=1)  # cuGraph's rule: one iteration never counts as converged
    assert type(info.value).__name__ == "FailedToConvergeError"
    result, converged = pagerank(G, max_iter=1, fail_on_nonconvergence=False)
    assert converged is False and len(result) == G.number_of_vertices()
    _, converged = pagerank(G, max_iter=0, fail_on_nonconvergence=False)
    assert converged is False


def test_warning_and_errors():
    df = random_edges(20, 60, 75)
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, renumber=False)
    with pytest.warns(UserWarning, match="store_transposed"):
        pagerank(G)
    Gt = build(df, "csr")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pagerank(Gt)
    with pytest.raises(RuntimeError, match="alpha"):
        pagerank(Gt, alpha=1.5)
    with pytest.raises(RuntimeError, match="non-negative"):
        pagerank(Gt, tol=-1)
    with pytest.raises(RuntimeError, match="positive"):
        pagerank(Gt, personalization=pd.DataFrame({"vertex": [0], "values": [0.0]}))
    with pytest.raises(ValueError, match="vertex 99"):
        pagerank(Gt, personalization=pd.DataFrame({"vertex": [99], "values": [1.0]}))
    with pytest.raises(ValueError, match="'values'"):
        pagerank(Gt, nstart=pd.DataFrame({"vertex": [0], "value": [1.0]}))
    assert TRANSPOSED_WARNING.startswith("Pagerank expects")


# -- inputs that cannot give a meaningful answer are named, not iterated on ---------------------
def small_graph(weights=(1.0, 2.0, 3.0)):
    df = pd.DataFrame({"source": [0, 1, 2], "destination": [1, 2, 0],
                       "weight": np.asarray(weights, np.float32)})
    return build(df, "csr", weight="weight")


@pytest.mark.parametrize("what, column", [("personalization", "values"), ("nstart", "values"),
                                          ("precomputed_vertex_out_weight", "sums")])
def test_a_vertex_given_twice_is_named(what, column):
    frame = pd.DataFrame({"vertex": [2, 0, 2], column: [0.5, 0.25, 0.25]})
    with pytest.raises(ValueError, match=f"{what} lists vertex 2 more than once"):
        pagerank(small_graph(), **{what: frame})


@pytest.mark.parametrize("what, column", [("personalization", "values"),
                                          ("precomputed_vertex_out_weight", "sums")])
def test_negative_nan_or_infinite_values_are_named(what, column):
    for bad in (-0.5, np.nan, np.inf):
        frame = pd.DataFrame({"vertex": [0, 1, 2], column: [1.0, bad, 1.0]})
        with pytest.raises(ValueError, match=f"{what} gives vertex 1 the value"):
            pagerank(small_graph(), **{what: frame})
    frame = pd.DataFrame({"vertex": [0, 1, 2], "values": [1.0, -np.inf, 1.0]})
    with pytest.raises(ValueError, match="nstart gives vertex 1 the value -inf"):
        pagerank(small_graph(), nstart=frame)


def test_personalization_values_near_the_largest_float_are_normalized():
    """Values whose sum overflows float64 still weigh as their ratios say (the sum of 1e308
    twice was inf, and every teleport share 0)."""
    G = small_graph()
    huge = pagerank(G, personalization=pd.DataFrame({"vertex": [0, 1], "values": [1e308] * 2}))
    ones = pagerank(G, personalization=pd.DataFrame({"vertex": [0, 1], "values": [1.0] * 2}))
    np.testing.assert_allclose(huge["pagerank"], ones["pagerank"], rtol=1e-12)
    assert huge["pagerank"].sum() == pytest.approx(1.0)


def test_out_weights_that_overflow_are_refused():
    """A vertex whose out-edges' weights sum past float64 would pass on no score at all."""
    df = pd.DataFrame({"source": [0, 1, 1], "destination": [1, 0, 2],
                       "weight": [1.0, 1.7e308, 1.7e308]})
    G = build(df, "csr", weight="weight")
    with pytest.raises(ValueError, match="out-weight .* is infinite"):
        pagerank(G)
    for weights in ([1.0, np.inf, 1.0], [1.0, np.inf, -np.inf]):  # an infinite weight; NaN sum
        G = build(df.assign(weight=weights), "csr", weight="weight")
        with pytest.raises(ValueError, match="out-weight .* is infinite or NaN"):
            pagerank(G)


def test_nan_weights_are_named_not_iterated():
    with pytest.raises(ValueError, match="NaN edge weights: 1 weight"):
        pagerank(small_graph((1.0, np.nan, 3.0)))


def test_all_zero_out_weights_are_refused():
    sums = pd.DataFrame({"vertex": [0, 1, 2], "sums": [0.0, 0.0, 0.0]})
    with pytest.raises(ValueError, match="out-weight of 0"):
        pagerank(small_graph(), precomputed_vertex_out_weight=sums)


def test_out_weights_are_computed_once_per_graph_structure(monkeypatch):
    """The first call computes the out-weights and the graph keeps them: later calls reuse
    them (the function that computes them is not called again) and agree with NetworkX; a
    re-orientation (BFS on a graph stored transposed) changes the structure, so the next call
    computes them afresh; out-weights given by a call are neither computed nor kept."""
    import cugraph_compressed.algorithms.pagerank as module

    calls = []
    compute = module.out_weights_host

    def counted(*args):
        calls.append(1)
        return compute(*args)

    monkeypatch.setattr(module, "out_weights_host", counted)
    df = random_edges(60, 400, seed=11, weighted=True)
    G = build(df, "ef", weight="weight")
    expected = nx.pagerank(nx_graph(df, True, True), tol=1e-10)
    for _ in range(2):
        assert l1(pagerank(G, tol=1e-10), expected) < 1e-5
    assert len(calls) == 1
    sums = pd.DataFrame({"vertex": np.arange(60), "sums": np.ones(60)})
    pagerank(G, precomputed_vertex_out_weight=sums, max_iter=3, fail_on_nonconvergence=False)
    assert len(calls) == 1
    cgc.bfs(G, 0)  # re-encodes the in-lists as out-lists
    assert l1(pagerank(G, tol=1e-10), expected) < 1e-5
    assert len(calls) == 2
