"""GPU BFS bottom-up (direction-optimizing: undirected graphs, and directed graphs over the
in-lists they keep beside their out-lists with ``directed_bottom_up``) against top-down and
SciPy on every layout (run with -m gpu on a GPU host)."""
import gc

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist
from cugraph_compressed.memory_budget import STATE_BYTES_PER_VERTEX

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


def directed_graph(layout, placement="device", **kwargs):
    import cudf

    G = cgc.CompressedGraph(directed=True, format=layout, placement=placement,
                            memory_budget=kwargs.pop("memory_budget", None))
    return G.from_cudf_edgelist(cudf.from_pandas(EDGES), renumber=False, **kwargs)


def beside_payload(G):
    """Bytes of the per-edge buffers of the in-lists G keeps beside its out-lists."""
    kept = G._kept_in_lists()
    return sum(int(kept.arrays[name].nbytes) for name in kept.edge_buffers)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_directed_graphs_stay_top_down(layout):
    """Without directed_bottom_up a directed graph holds its out-lists only: whatever the
    other knobs, BFS follows them and builds nothing beside."""
    G = directed_graph(layout)
    G.traversal = cgc.TraversalConfig(**CONFIGS["bottom-up"])
    check(cgc.bfs(G, SOURCES), directed=True)
    assert "in_lists_beside" not in G.nbytes_by_component()


@pytest.mark.parametrize("placement", ["device", "host", "auto"])
@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_directed_bottom_up_scans_the_in_lists_beside(layout, placement):
    """With directed_bottom_up the first BFS builds the in-lists beside the out-lists (in the
    graph's placement; pinned for auto), the graph counts them, and BFS from Beamer's switch
    or bottom-up from the first level gives SciPy's distances with parents along edges."""
    G = directed_graph(layout, placement)
    if placement == "auto":
        G.to_placement("auto", split_vertex=G.number_of_vertices() // 2)
    before, where = G.nbytes, G.nbytes_by_placement()
    for name in ("default", "bottom-up", "bottom-up-checked"):
        G.traversal = cgc.TraversalConfig(directed_bottom_up=True, **CONFIGS[name])
        check(cgc.bfs(G, SOURCES), directed=True)
        check(cgc.bfs(G, SOURCES, depth_limit=2), directed=True, depth_limit=2)
    beside = G.nbytes_by_component()["in_lists_beside"]
    assert beside == G._kept_in_lists().nbytes > 0 and G.nbytes == before + beside
    on_host = G.nbytes_by_placement()["host"] - where["host"]
    assert on_host == (0 if placement == "device" else beside_payload(G))


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_in_lists_beside_follow_the_out_lists(layout):
    """A graph stored transposed is re-oriented for BFS and keeps its old in-lists beside the
    new out-lists; moving the out-lists drops them, and the next BFS builds them again."""
    G = directed_graph(layout, store_transposed=True)
    old = G._layout
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True, **CONFIGS["bottom-up"])
    check(cgc.bfs(G, SOURCES), directed=True)
    assert not G._in_lists and G._kept_in_lists() is old
    G.to_placement("host")
    assert "in_lists_beside" not in G.nbytes_by_component()
    check(cgc.bfs(G, SOURCES), directed=True)
    assert G.nbytes_by_placement()["host"] > beside_payload(G) > 0


def test_in_lists_beside_draw_from_the_graph_budget():
    """The in-lists' GPU bytes join the graph's draw; a budget without room for them raises
    MemoryError, keeps nothing and leaves top-down BFS running."""
    budget = cgc.MemoryBudget(1 << 36)
    G = directed_graph("ef", memory_budget=budget)
    used = budget.used
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    check(cgc.bfs(G, SOURCES), directed=True)
    assert budget.used == used + G.nbytes_by_component()["in_lists_beside"]
    G.to_placement("device")  # placed again: the in-lists go, and their draw with them
    assert budget.used == used and "in_lists_beside" not in G.nbytes_by_component()
    check(cgc.bfs(G, SOURCES), directed=True)  # built again, drawn again
    assert budget.used == used + G.nbytes_by_component()["in_lists_beside"]
    G.traversal = cgc.TraversalConfig()  # the opt-in off: the in-lists and their draw go
    assert budget.used == used and "in_lists_beside" not in G.nbytes_by_component()
    tight = cgc.MemoryBudget(used)
    H = directed_graph("ef", memory_budget=tight)
    assert tight.used == used
    H.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    with pytest.raises(MemoryError, match="under 'device'"):
        cgc.bfs(H, SOURCES)
    gc.collect()
    assert tight.used == used and "in_lists_beside" not in H.nbytes_by_component()
    H.traversal = cgc.TraversalConfig()
    check(cgc.bfs(H, SOURCES), directed=True)


def test_an_auto_split_that_took_its_budget_leaves_no_room_for_them():
    """An auto graph whose split took what its budget left refuses the in-lists (MemoryError
    before building them) and keeps running top-down."""
    D = directed_graph("ef")
    payload = sum(int(D._layout.arrays[k].nbytes) for k in D._layout.edge_buffers)
    resident = D.nbytes_by_placement()["device"] - payload
    state = D.number_of_vertices() * max(STATE_BYTES_PER_VERTEX.values())
    budget = cgc.MemoryBudget(resident + state + payload // 2)
    G = directed_graph("ef", "auto", memory_budget=budget)
    assert 0 < G.placement_choice["split_vertex"] < G.number_of_vertices()
    used = budget.used
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    with pytest.raises(MemoryError, match="under 'device'"):
        cgc.bfs(G, SOURCES)
    assert budget.used == used and "in_lists_beside" not in G.nbytes_by_component()
    G.traversal = cgc.TraversalConfig()
    check(cgc.bfs(G, SOURCES), directed=True)
