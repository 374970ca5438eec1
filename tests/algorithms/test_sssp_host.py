"""Host SSSP on every layout against SciPy's Dijkstra."""
import numpy as np
import pandas as pd
import pytest
from graphs import random_edges, weighted_adjacency
from scipy.sparse import csgraph

import cugraph_compressed as cgc
from cugraph_compressed.algorithms.sssp import sssp

LAYOUTS = sorted(cgc.FORMATS)


def check_sssp(df, G, result, source, directed, cutoff=None):
    n = G.number_of_vertices()
    a = weighted_adjacency(df, n, directed)
    expected = csgraph.dijkstra(a, directed=True, indices=source)
    if cutoff is not None:
        expected[expected >= cutoff] = np.inf  # cuGraph's cutoff is strict
    result = result.sort_values("vertex")
    dist = result["distance"].to_numpy().astype(np.float64)
    pred = result["predecessor"].to_numpy()
    big = np.finfo(result["distance"].dtype).max
    reached = np.isfinite(expected)
    assert np.allclose(dist[reached], expected[reached], rtol=1e-5, atol=1e-6)
    assert np.all(dist[~reached] == big) and np.all(pred[~reached] == -1)
    assert pred[source] == -1
    others = np.flatnonzero(reached)
    others = others[others != source]
    p = pred[others]
    assert np.all(p >= 0)  # every reached vertex but the source names a predecessor
    src, dst = df["source"].to_numpy(), df["destination"].to_numpy()
    edges = set(zip(src, dst)) | (set() if directed else set(zip(dst, src)))
    assert all((u, v) in edges for u, v in zip(p, others))  # along an edge of the graph
    w = np.asarray(a[p, others]).ravel()
    assert np.allclose(dist[p] + w, dist[others], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
def test_random_weighted(layout, directed):
    df = random_edges(300, 1500, 50, weighted=True)
    G = cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(
        df, renumber=False, weight="weight")
    check_sssp(df, G, sssp(G, 3), 3, directed)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_cutoff_and_zero_weights(layout):
    df = random_edges(200, 900, 51, weighted=True)
    df.loc[::7, "weight"] = 0.0
    G = cgc.CompressedGraph(directed=True, format=layout).from_pandas_edgelist(
        df, renumber=False, weight="weight")
    check_sssp(df, G, sssp(G, 0, cutoff=0.5), 0, True, cutoff=0.5)


def test_output_columns_and_dtypes():
    df = random_edges(20, 60, 52, weighted=True)
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, renumber=False, weight="weight")
    result = sssp(G, source=1)
    assert list(result.columns) == ["distance", "vertex", "predecessor"]
    assert result["distance"].dtype == np.float32
    assert result["vertex"].dtype == np.int64 and result["predecessor"].dtype == np.int64


def test_errors():
    df = pd.DataFrame({"source": [0, 1], "destination": [1, 2], "w": [1.0, -2.0]})
    unweighted = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, renumber=False)
    with pytest.raises(RuntimeError, match="requires the input graph to be weighted"):
        sssp(unweighted, 0)
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, renumber=False, weight="w")
    with pytest.raises(ValueError, match="-2.0"):
        sssp(G, 0)
    nan = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        df.assign(w=[1.0, np.nan]), renumber=False, weight="w")
    with pytest.raises(ValueError, match="nan"):
        sssp(nan, 0)
    ok = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        df.assign(w=[1.0, 2.0]), renumber=False, weight="w")
    with pytest.raises(TypeError, match="must specify 'source'"):
        sssp(ok)
    with pytest.raises(TypeError, match="both"):
        sssp(ok, 0, indices=0)
    with pytest.raises(TypeError, match="'unweighted' cannot be specified"):
        sssp(ok, 0, unweighted=True)
    with pytest.raises(ValueError, match="method"):
        sssp(ok, 0, method="dijkstra")
    with pytest.raises(ValueError, match="source vertex 9"):
        sssp(ok, 9)
    assert sssp(ok, indices=0)["distance"].tolist() == [0.0, 1.0, 3.0]


def test_weights_are_checked_once_per_graph(monkeypatch):
    """SSSP and PageRank count bad weights on a graph's first call only (the graph is
    immutable), and each algorithm's own rule is counted once: NaN for PageRank, NaN or
    negative for SSSP."""
    from cugraph_compressed.algorithms import _weights

    calls = []
    counted = _weights.bad_weights
    monkeypatch.setattr(_weights, "bad_weights",
                        lambda w, negative=False: calls.append(negative) or counted(w, negative))
    edges = pd.DataFrame({"source": [0, 1, 2], "destination": [1, 2, 0],
                          "weight": [1.0, 2.0, 0.5]})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(edges, weight="weight")
    for _ in range(3):
        cgc.sssp(G, 0)
        cgc.pagerank(G)
    assert sorted(calls) == [False, True]
    bad = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        edges.assign(weight=[1.0, -2.0, 0.5]), weight="weight")
    for _ in range(2):  # refused every time, not only when first counted
        with pytest.raises(ValueError, match="non-negative weights; found weight -2.0"):
            cgc.sssp(bad, 0)
