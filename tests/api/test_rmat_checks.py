"""The large-graph checks of ``benchmarks/rmat_checks.py`` against SciPy and NetworkX: they
accept correct results and catch broken ones (a check that cannot fail proves nothing)."""
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import rmat_checks  # noqa: E402

UNREACHED = np.iinfo(np.int32).max


def random_edges(seed, n=60, m=150):
    """Edges with duplicates and self loops, cut into uneven chunks (as generated)."""
    rng = np.random.default_rng(seed)
    u = rng.integers(0, n, m).astype(np.int32)
    v = rng.integers(0, n, m).astype(np.int32)
    u[:5], v[:5] = u[5:10], v[5:10]     # parallel edges
    v[10:13] = u[10:13]                 # self loops
    cuts = [0, 1, 40, 41, 100, m]

    def edges():
        for a, b in zip(cuts[:-1], cuts[1:]):
            yield u[a:b], v[a:b]
    return n, u, v, edges


def matrix(n, u, v, undirected):
    a = sp.coo_matrix((np.ones(u.size), (u, v)), shape=(n, n)).tocsr()
    return a + a.T if undirected else a


def reference_bfs(n, u, v, source, undirected):
    order, pred = csgraph.breadth_first_order(matrix(n, u, v, undirected), source,
                                              directed=True, return_predecessors=True)
    dist = np.full(n, UNREACHED, dtype=np.int32)
    dist[source] = 0
    for x in order[1:]:
        dist[x] = dist[pred[x]] + 1
    pred = np.where(pred < 0, -1, pred).astype(np.int32)
    return dist, pred


@pytest.mark.parametrize("undirected", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_bfs_check_accepts_scipy_and_catches_errors(seed, undirected):
    n, u, v, edges = random_edges(seed)
    source = int(u[0])
    dist, pred = reference_bfs(n, u, v, source, undirected)
    assert rmat_checks.check_bfs(edges, dist, pred, source, UNREACHED, undirected) == []
    reached = np.flatnonzero((dist != UNREACHED) & (dist > 0))
    assert reached.size
    x = int(reached[-1])
    too_far = dist.copy()
    too_far[x] += 1
    assert rmat_checks.check_bfs(edges, too_far, pred, source, UNREACHED, undirected)
    # A predecessor one level up that has no edge to x (or x itself when none exists).
    into_x = set(u[v == x].tolist()) | (set(v[u == x].tolist()) if undirected else set())
    upper = [w for w in range(n) if dist[w] == dist[x] - 1 and w not in into_x]
    not_adjacent = pred.copy()
    not_adjacent[x] = upper[0] if upper else x
    assert rmat_checks.check_bfs(edges, dist, not_adjacent, source, UNREACHED, undirected)
    unreached = np.flatnonzero(dist == UNREACHED)
    if unreached.size:
        stray = pred.copy()
        stray[unreached[0]] = source
        assert rmat_checks.check_bfs(edges, dist, stray, source, UNREACHED, undirected)


@pytest.mark.parametrize("seed", range(4))
def test_component_check_matches_scipy(seed):
    n, u, v, edges = random_edges(seed, m=45)    # sparse: several components
    count, labels = csgraph.connected_components(matrix(n, u, v, True), directed=False)
    assert count > 2
    assert rmat_checks.union_find_components(edges, n) == count
    assert rmat_checks.check_components(edges, labels) == ([], count)
    merged = np.where(labels == labels[0], labels[n - 1], labels)
    if labels[0] != labels[n - 1]:
        assert rmat_checks.check_components(edges, merged)[0]   # two components one label
    split = labels.copy()
    split[int(u[20])] = labels.max() + 1
    if u[20] != v[20]:
        assert rmat_checks.check_components(edges, split)[0]    # an edge across labels


@pytest.mark.parametrize("undirected", [False, True])
@pytest.mark.parametrize("range_edges", [1, 7, 1000])
def test_pagerank_residual_against_networkx(undirected, range_edges):
    n, u, v, edges = random_edges(3)
    g = nx.Graph() if undirected else nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(zip(u.tolist(), v.tolist()))
    ref = nx.pagerank(g, alpha=0.85, tol=1e-14, max_iter=1000)
    scores = np.array([ref[i] for i in range(n)])
    residual, total = rmat_checks.pagerank_residual(edges, scores, 0.85, undirected,
                                                    range_edges)
    assert residual < 1e-10 and total == pytest.approx(1.0)
    off = scores.copy()
    off[0] += 1e-3
    off[1] -= 1e-3
    assert rmat_checks.pagerank_residual(edges, off, 0.85, undirected, range_edges)[0] > 1e-4


@pytest.mark.parametrize("undirected", [False, True])
@pytest.mark.parametrize("range_edges", [1, 5, 40, 10**6])
def test_source_ranges_cover_the_vertices_within_the_edge_bound(undirected, range_edges):
    n, u, v, edges = random_edges(4)
    ends = np.bincount(np.concatenate([u, v]) if undirected else u, minlength=n)
    ranges = rmat_checks.source_ranges(edges, n, undirected, range_edges)
    assert ranges[0][0] == 0 and ranges[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(ranges[:-1], ranges[1:]))
    for lo, hi, count in ranges:
        assert hi > lo and count == ends[lo:hi].sum()
        assert hi - lo == 1 or ends[lo:hi].sum() <= range_edges
        if hi < n:  # maximal: the next vertex would pass the bound
            assert ends[lo:hi + 1].sum() > range_edges
