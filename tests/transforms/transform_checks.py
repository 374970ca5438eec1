"""Checks shared by the transforms' tests: hub-heavy edge frames, every algorithm on a
transformed graph against SciPy and NetworkX on the original graph (host), and against cuGraph
on the original graph (GPU)."""
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from graphs import (
    PAGERANK_ARGS,
    by_vertex,
    check_against_scipy,
    check_bfs_against_cugraph,
    check_sssp_against_cugraph,
    cugraph_result,
    num_vertices,
    random_edges,
    start_vertex,
    weighted_adjacency,
)
from scipy.sparse import csgraph

import cugraph_compressed as cgc


def hub_edges(seed, hub_degree=60, n=120, m=300):
    """Random weighted edges (self loops and repeats included) and an out- and in-hub."""
    df = random_edges(n, m, seed, weighted=True)
    rng = np.random.default_rng(seed)
    spokes = rng.choice(n, hub_degree, replace=False)
    hubs = pd.DataFrame({"source": np.r_[np.full(hub_degree, 1), spokes],
                         "destination": np.r_[spokes, np.full(hub_degree, 2)],
                         "weight": rng.random(2 * hub_degree).astype(np.float32) + 0.01})
    return pd.concat([df, hubs], ignore_index=True)


def random_hub_edges(seed, n, m, hub):
    """Random weighted edges, ``hub`` more out of vertex 0 and one edge 0 -> n - 1 (so the
    start reaches past the hub)."""
    rng = np.random.default_rng(seed)
    df = random_edges(n, m, seed, weighted=True)
    hub_frame = pd.DataFrame({"source": np.zeros(hub, np.int64),
                              "destination": rng.integers(0, n, hub),
                              "weight": rng.random(hub).astype(np.float32) + 0.01})
    return pd.concat([df, hub_frame, pd.DataFrame({"source": [0], "destination": [n - 1],
                                                   "weight": np.float32([0.5])})],
                     ignore_index=True)


def check_against_cugraph(G, name, directed):
    """BFS, SSSP, PageRank (L1 < 1e-5) and, undirected, WCC of ``G`` (a transformed device
    graph of the test graph ``name``) against cuGraph on the original graph."""
    check_bfs_against_cugraph(name, directed, cgc.bfs(G, start_vertex(name)))
    check_sssp_against_cugraph(name, directed, cgc.sssp(G, start_vertex(name)))
    ref = cugraph_result(name, directed, "pagerank")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        result, _ = cgc.pagerank(G, **PAGERANK_ARGS)
    assert list(result.columns) == ref["columns"]
    mine = by_vertex(result, num_vertices(name))
    assert mine["pagerank"].dtype == ref["pagerank"].dtype
    assert np.abs(mine["pagerank"].astype(np.float64)
                  - ref["pagerank"].astype(np.float64)).sum() < 1e-5
    if not directed:
        ref = cugraph_result(name, False, "wcc")
        mine = by_vertex(cgc.weakly_connected_components(G), num_vertices(name))
        assert mine["labels"].dtype == ref["labels"].dtype
        pairs = pd.DataFrame({"a": mine["labels"], "b": ref["labels"]}).drop_duplicates()
        assert pairs["a"].is_unique and pairs["b"].is_unique


def build(df, directed, layout, **kwargs):
    return cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(
        df, renumber=False, weight="weight", **kwargs)


def reference_pagerank(df, directed, n):
    """NetworkX PageRank (float64) of the deduplicated weighted graph, by vertex."""
    a = weighted_adjacency(df, n, directed).tocoo()
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(zip(a.row.tolist(), a.col.tolist(), a.data.tolist()))
    scores = nx.pagerank(g, tol=1e-13, max_iter=1000)
    return np.array([scores[v] for v in range(n)])


def check_all(df, G, T, directed, start, depth_limit=None):
    """Every algorithm on ``T`` equals the reference on the original graph ``df`` (and ``G``'s
    own results where both are exact)."""
    n = G.number_of_vertices()
    ids = np.arange(n)
    result = cgc.bfs(T, start, depth_limit=depth_limit)
    assert result["distance"].dtype == cgc.bfs(G, start)["distance"].dtype
    check_against_scipy(df, result, directed, start, depth_limit, ids=ids)
    expected = cgc.bfs(G, start, depth_limit=depth_limit).sort_values("vertex")
    assert np.array_equal(result.sort_values("vertex")["distance"], expected["distance"])
    a = weighted_adjacency(df, n, directed)
    dist = csgraph.dijkstra(a, directed=True, indices=int(np.atleast_1d(start)[0]))
    paths = cgc.sssp(T, int(np.atleast_1d(start)[0])).sort_values("vertex")
    reached = np.isfinite(dist)
    assert np.allclose(paths["distance"].to_numpy()[reached], dist[reached], rtol=1e-5)
    assert np.all(paths["distance"].to_numpy()[~reached] == np.finfo(np.float32).max)
    pred = paths["predecessor"].to_numpy()
    others = np.flatnonzero(reached & (pred != -1))
    w = np.asarray(a[pred[others], others]).ravel()
    assert np.all(w > 0), "a predecessor is not an in-edge of the original graph"
    assert np.allclose(dist[pred[others]] + w, dist[others], rtol=1e-5)
    with pytest.warns(UserWarning, match="store_transposed"):
        scores = cgc.pagerank(T, tol=1e-10, max_iter=1000).sort_values("vertex")
    assert np.abs(scores["pagerank"].to_numpy(np.float64)
                  - reference_pagerank(df, directed, n)).sum() <= 1e-6
    if not directed:
        labels = cgc.weakly_connected_components(T).sort_values("vertex")["labels"].to_numpy()
        _, expected = csgraph.connected_components(a, directed=False)
        pairs = pd.DataFrame({"a": labels, "b": expected}).drop_duplicates()
        assert pairs["a"].is_unique and pairs["b"].is_unique
