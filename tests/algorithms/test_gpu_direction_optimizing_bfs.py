"""GPU BFS bottom-up (direction-optimizing, undirected graphs) against top-down and SciPy on
every layout (run with -m gpu on a GPU host)."""
import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu
DEVICE_LAYOUTS = cgc.supported()["bfs"]["device"]
#: Top-down only, Beamer's default switch, and bottom-up from the first level to the last.
CONFIGS = {"top-down": {"bottom_up_alpha": None}, "default": {},
           "bottom-up": {"bottom_up_alpha": 1e12, "bottom_up_beta": 1e12},
           "bottom-up-checked": {"bottom_up_alpha": 1e12, "bottom_up_beta": 1e12,
                                 "checked": True}}
EDGES = rmat_edgelist(12, seed=6)
SOURCES = [0, 37]


def hops(directed, depth_limit=None):
    """SciPy's hop distances from the nearest source, -1 where unreached (or past the limit)."""
    n = int(max(EDGES["source"].max(), EDGES["destination"].max())) + 1
    a = csr_matrix((np.ones(len(EDGES)), (EDGES["source"], EDGES["destination"])), shape=(n, n))
    d = shortest_path(a, directed=directed, unweighted=True, indices=SOURCES).min(axis=0)
    if depth_limit is not None:
        d[d > depth_limit] = np.inf
    return np.where(np.isfinite(d), d, -1).astype(np.int64)


def check(result, directed, depth_limit=None):
    """Distances equal SciPy's; each reached vertex but a source has a predecessor one level up
    along an edge."""
    r = result.to_pandas().sort_values("vertex")
    dist = r["distance"].to_numpy().astype(np.int64)
    pred = r["predecessor"].to_numpy().astype(np.int64)
    want = hops(directed, depth_limit)
    reached = want >= 0
    assert np.array_equal(dist[reached], want[reached])
    assert (dist[~reached] == np.iinfo(r["distance"].dtype).max).all()
    assert (pred[~reached] == -1).all() and (pred[want == 0] == -1).all()
    inner = np.flatnonzero(want > 0)
    assert np.array_equal(dist[pred[inner]], dist[inner] - 1)
    edges = set(zip(EDGES["source"].tolist(), EDGES["destination"].tolist()))
    for p, v in zip(pred[inner].tolist(), inner.tolist()):
        assert (p, v) in edges or (not directed and (v, p) in edges)
    return dist


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_bottom_up_levels_give_top_down_distances(layout):
    import cudf

    G = cgc.CompressedGraph(directed=False, format=layout).from_cudf_edgelist(
        cudf.from_pandas(EDGES), renumber=False)
    distances = {}
    for name, knobs in CONFIGS.items():
        G.traversal = cgc.TraversalConfig(**knobs)
        distances[name] = check(cgc.bfs(G, SOURCES), directed=False)
        check(cgc.bfs(G, SOURCES, depth_limit=2), directed=False, depth_limit=2)
    for name in CONFIGS:
        assert np.array_equal(distances[name], distances["top-down"]), name


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_directed_graphs_stay_top_down(layout):
    """A directed graph stores out-lists only: whatever the knobs, BFS follows them."""
    import cudf

    G = cgc.CompressedGraph(directed=True, format=layout).from_cudf_edgelist(
        cudf.from_pandas(EDGES), renumber=False)
    G.traversal = cgc.TraversalConfig(**CONFIGS["bottom-up"])
    check(cgc.bfs(G, SOURCES), directed=True)
