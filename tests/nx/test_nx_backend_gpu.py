"""The NetworkX backend on the GPU: graphs converted to device graphs give NetworkX's answers
(random graphs of every kind, every device layout, a graph with long lists)."""
import networkx as nx
import pytest
from nx_graphs import BACKEND, assert_same_answers, random_graph

from cugraph_compressed.algorithms.registry import device_layouts
from cugraph_compressed.nx import from_networkx

pytestmark = [pytest.mark.gpu,
              pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs")]


@pytest.fixture(autouse=True)
def on_device():
    with nx.config.backends.cugraph_compressed(backend="device"):
        yield


def test_auto_builds_on_the_gpu():
    with nx.config.backends.cugraph_compressed(backend="auto"):
        H = nx.utils.backends._load_backend(BACKEND).convert_from_nx(nx.path_graph(4))
    assert H.backend == "device"
    assert H.graph.backend == "device"


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("multigraph", [False, True])
@pytest.mark.parametrize("labels, weights", [("int", "int"), ("mixed", "float"),
                                             ("str", "none")])
def test_random_graphs_give_networkx_answers_on_device(directed, multigraph, labels, weights):
    for seed in range(2):
        G, names, rng = random_graph(seed, directed, multigraph, labels, weights)
        assert from_networkx(G).backend == "device"
        assert_same_answers(G, names, rng)


@pytest.mark.parametrize("format", device_layouts())
def test_every_device_layout_gives_networkx_answers(format):
    with nx.config.backends.cugraph_compressed(format=format):
        G, names, rng = random_graph(7, True, True, "str", "float")
        assert from_networkx(G).graph.format == format
        assert_same_answers(G, names, rng, sources=1)


def test_long_lists_on_device():
    """Hubs whose lists take the warp passes; edges added in random order (ranks kept)."""
    G = nx.gnm_random_graph(3000, 30000, seed=3)
    G.add_edges_from((0, v) for v in range(1, 3000, 2))
    for u, v, data in G.edges(data=True):
        data["weight"] = (u * 7 + v * 13) % 10 + 0.5
    for graph in (G, G.to_directed()):
        H = from_networkx(graph, "weight")
        assert list(nx.bfs_edges(H, 5)) == list(nx.bfs_edges(graph, 5))
        assert (nx.single_source_dijkstra_path_length(H, 5)
                == nx.single_source_dijkstra_path_length(graph, 5))
        ours, theirs = nx.pagerank(H), nx.pagerank(graph)
        assert max(abs(ours[k] - theirs[k]) for k in theirs) < 1e-12
    assert list(nx.connected_components(from_networkx(G))) == list(nx.connected_components(G))
