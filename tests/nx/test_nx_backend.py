"""The NetworkX backend on the host: registration, conversion, each function against NetworkX
itself on random graphs (directed or not, multigraphs, weights, mixed labels, every layout),
and NetworkX's semantics one by one (orders, bounds, types, errors, what ``can_run`` refuses).
"""
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import networkx as nx
import networkx_entry_points
import numpy as np
import pytest
from nx_graphs import BACKEND, assert_same_answers, random_graph

import _cugraph_compressed_nx as info
import cugraph_compressed.nx as nx_backend
from cugraph_compressed import _backend
from cugraph_compressed.formats import FORMATS
from cugraph_compressed.nx import BackendGraph, from_networkx

pytestmark = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs:UserWarning")


@pytest.fixture(autouse=True)
def on_host():
    """Converted graphs live on the host, whatever this machine has."""
    with nx.config.backends.cugraph_compressed(backend="host"):
        yield


# -- registration ------------------------------------------------------------------------------
def test_entry_points_name_the_backend_and_its_info():
    declared = networkx_entry_points.networkx_entry_points()
    assert declared["networkx.backends"] == {BACKEND: "cugraph_compressed.nx:backend"}
    assert declared["networkx.backend_info"] == {BACKEND: "_cugraph_compressed_nx:get_info"}
    (backend,) = entry_points(group="networkx.backends", name=BACKEND)
    assert backend.load() is nx_backend.backend
    assert nx.utils.backends._load_backend(BACKEND) is nx_backend.backend
    (get_info,) = entry_points(group="networkx.backend_info", name=BACKEND)
    assert get_info.load() is info.get_info


def test_info_lists_exactly_the_implemented_functions():
    functions = nx.utils.backends.backend_info[BACKEND]["functions"]
    assert set(functions) == set(info.FUNCTIONS) == set(nx_backend.FUNCTIONS)
    for name in functions:
        assert callable(getattr(nx_backend.backend, name))
        assert BACKEND in nx.utils.backends._registered_algorithms[name].backends
    assert set(info.FORMATS) == {"auto", *FORMATS}


def test_config_defaults_and_checks():
    config = nx.config.backends.cugraph_compressed
    assert set(config) == {"format", "backend"}
    with pytest.raises(ValueError, match="format must be one of .*'zip'"):
        config.format = "zip"
    with pytest.raises(ValueError, match="backend must be one of .*'gpu'"):
        config.backend = "gpu"
    with config(format="cgr"):
        H = nx.utils.backends._load_backend(BACKEND).convert_from_nx(nx.path_graph(4))
    assert H.graph.format == "cgr" and H.backend == "host"


@pytest.mark.skipif(_backend.gpu_available(), reason="this machine has a usable GPU")
def test_device_without_gpu_is_refused_with_the_reason():
    with pytest.raises(RuntimeError, match="needs a usable GPU"):
        from_networkx(nx.path_graph(3), backend="device")


# -- against NetworkX on random graphs ---------------------------------------------------------
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("multigraph", [False, True])
@pytest.mark.parametrize("labels, weights", [("int", "int"), ("str", "float"),
                                             ("mixed", "none"), ("mixed", "float")])
def test_random_graphs_give_networkx_answers(directed, multigraph, labels, weights):
    for seed in range(3):
        G, names, rng = random_graph(seed, directed, multigraph, labels, weights)
        assert_same_answers(G, names, rng)


@pytest.mark.parametrize("format", sorted(FORMATS))
def test_every_layout_gives_networkx_answers(format):
    with nx.config.backends.cugraph_compressed(format=format):
        for seed, (directed, multigraph) in enumerate([(False, False), (True, True)]):
            G, names, rng = random_graph(10 + seed, directed, multigraph, "str", "int")
            assert nx.utils.backends._load_backend(BACKEND).convert_from_nx(
                G).graph.format == format
            assert_same_answers(G, names, rng, sources=1)


def test_adjacency_order_is_kept_where_sorting_loses_it():
    G = nx.Graph()
    G.add_nodes_from(range(6))
    G.add_edges_from([(0, 3), (0, 1), (3, 2), (1, 2), (2, 4), (5, 0)])
    H = from_networkx(G)
    assert list(nx.bfs_edges(H, 0)) == [(0, 3), (0, 1), (0, 5), (3, 2), (2, 4)]
    assert list(nx.bfs_edges(H, 0)) == list(nx.bfs_edges(G, 0))
    # Lists already in node order need no positions: sorting keeps NetworkX's order.
    P = from_networkx(nx.path_graph(6))
    assert "rank" not in P.graph.view_edge_list().columns
    assert "rank" in H.graph.view_edge_list().columns


def test_reverse_search_follows_predecessor_order():
    D = nx.DiGraph()
    D.add_edges_from([(3, 0), (1, 0), (2, 1), (4, 1), (2, 3)])
    H = from_networkx(D)
    assert list(nx.bfs_edges(H, 0, reverse=True)) == [(0, 3), (0, 1), (3, 2), (1, 4)]
    assert list(nx.bfs_edges(H, 0, reverse=True)) == list(nx.bfs_edges(D, 0, reverse=True))
    # reverse only turns directed graphs round
    U = nx.Graph(D)
    assert list(nx.bfs_edges(U, 0, reverse=True, backend=BACKEND)) == list(nx.bfs_edges(U, 0))


# -- one semantic at a time ------------------------------------------------------------------
def test_bfs_source_errors_are_networkx_errors_raised_when_iterated():
    G, D = nx.path_graph(3), nx.path_graph(3, create_using=nx.DiGraph)
    edges = nx.bfs_edges(G, 9, backend=BACKEND)  # nothing raised yet, as in NetworkX
    with pytest.raises(nx.NetworkXError, match="The node 9 is not in the graph."):
        list(edges)
    with pytest.raises(nx.NetworkXError, match="The node 9 is not in the digraph."):
        list(nx.bfs_edges(D, 9, reverse=True, backend=BACKEND))
    with pytest.raises(nx.NetworkXError, match="The node 9 is not in the graph."):
        nx.bfs_tree(G, 9, backend=BACKEND)
    with pytest.raises(TypeError, match="unhashable"):
        list(nx.bfs_edges(G, [1], backend=BACKEND))


def test_source_errors_of_the_path_lengths():
    G = nx.path_graph(3)
    with pytest.raises(nx.NodeNotFound, match="Source 9 is not in G"):
        nx.single_source_shortest_path_length(G, 9, backend=BACKEND)
    with pytest.raises(nx.NodeNotFound, match="Node 9 not found in graph"):
        nx.single_source_dijkstra_path_length(G, 9, backend=BACKEND)
    with pytest.raises(TypeError, match="unhashable"):
        nx.single_source_dijkstra_path_length(G, [1], backend=BACKEND)


def test_source_as_given_and_labels_of_any_type():
    odd = frozenset({1})
    G = nx.Graph([(1, "a"), ("a", (2, 3)), ((2, 3), 4.5), (4.5, odd)])
    H = from_networkx(G)
    assert list(nx.bfs_edges(H, 1.0)) == [(1.0, "a"), ("a", (2, 3)), ((2, 3), 4.5),
                                          (4.5, odd)]
    lengths = nx.single_source_shortest_path_length(H, 1.0)
    assert list(lengths) == [1.0, "a", (2, 3), 4.5, odd]
    assert type(next(iter(lengths))) is float  # the source as the caller gave it


def test_sort_neighbors_sorted_orders_by_label_and_needs_ordered_labels():
    G = nx.Graph([(0, 5), (0, 2), (0, 9), (2, 1), (5, 3)])
    assert (list(nx.bfs_edges(G, 0, sort_neighbors=sorted, backend=BACKEND))
            == [(0, 2), (0, 5), (0, 9), (2, 1), (5, 3)])
    mixed = nx.Graph([(0, "a"), (0, 1)])
    with pytest.raises(NotImplementedError):
        list(nx.bfs_edges(mixed, 0, sort_neighbors=sorted, backend=BACKEND))


def test_depth_limit_and_cutoff_reach_up_to_their_ceiling():
    G = nx.path_graph(6)
    for bound in (0, 1, 1.5, 2, 10, -1, float("inf"), float("nan"), True):
        assert (list(nx.bfs_edges(G, 0, depth_limit=bound, backend=BACKEND))
                == list(nx.bfs_edges(G, 0, depth_limit=bound)))
        assert (nx.single_source_shortest_path_length(G, 0, cutoff=bound, backend=BACKEND)
                == nx.single_source_shortest_path_length(G, 0, cutoff=bound))


def test_dijkstra_cutoff_is_inclusive_and_weights_follow_networkx():
    G = nx.MultiGraph()
    G.add_edge("s", "a", weight=2)
    G.add_edge("s", "a", weight=5)      # parallel: the smallest counts
    G.add_edge("a", "b")                # no attribute: weight 1
    G.add_edge("b", "c", weight=0.25)
    lengths = nx.single_source_dijkstra_path_length(G, "s", backend=BACKEND)
    assert lengths == {"s": 0, "a": 2, "b": 3, "c": 3.25}
    assert lengths == nx.single_source_dijkstra_path_length(G, "s")
    within = nx.single_source_dijkstra_path_length(G, "s", cutoff=3, backend=BACKEND)
    assert within == {"s": 0, "a": 2, "b": 3}
    ints = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3})])
    exact = nx.single_source_dijkstra_path_length(ints, 0, backend=BACKEND)
    assert exact == {0: 0, 1: 2, 2: 5} and all(type(x) is int for x in exact.values())
    hops = nx.single_source_dijkstra_path_length(ints, 0, weight=None, backend=BACKEND)
    assert hops == {0: 0, 1: 1, 2: 2} and all(type(x) is int for x in hops.values())


def test_weights_the_backend_cannot_use_go_back_to_networkx():
    negative = nx.Graph([(0, 1, {"weight": -1}), (1, 2, {"weight": 2})])
    text = nx.Graph([(0, 1, {"weight": "x"})])
    huge = nx.Graph([(0, 1, {"weight": 2**60})])
    for G in (negative, text, huge):
        with pytest.raises(NotImplementedError):
            nx.single_source_dijkstra_path_length(G, 0, backend=BACKEND)
    # Picked by backend_priority, the backend hands these calls to NetworkX.
    with nx.config(backend_priority=[BACKEND], fallback_to_nx=True):
        assert (nx.single_source_dijkstra_path_length(huge, 0)
                == {0: 0, 1: 2**60})
        with pytest.raises(ValueError, match="Contradictory paths"):
            nx.single_source_dijkstra_path_length(negative, 2)


def test_pagerank_convergence_rule_and_errors():
    G = nx.karate_club_graph()
    # NetworkX stops once the L1 change is below N * tol: the last max_iter that fails and
    # the first that converges are NetworkX's own.
    for tol in (1e-4, 1e-8):
        first = next(m for m in range(200) if _converges(G, max_iter=m, tol=tol))
        assert not _converges(G, max_iter=first - 1, tol=tol, backend=BACKEND)
        assert _converges(G, max_iter=first, tol=tol, backend=BACKEND)
    with pytest.raises(nx.PowerIterationFailedConvergence, match="within 3 iterations"):
        nx.pagerank(G, max_iter=3, backend=BACKEND)
    with pytest.raises(ZeroDivisionError):
        nx.pagerank(G, personalization={0: 0}, backend=BACKEND)
    with pytest.raises(nx.PowerIterationFailedConvergence):  # a start vector summing to 0
        nx.pagerank(G, nstart={"absent": 1}, backend=BACKEND)
    assert nx.pagerank(nx.Graph(), backend=BACKEND) == {}


def _converges(G, **arguments) -> bool:
    try:
        nx.pagerank(G, **arguments)
    except nx.PowerIterationFailedConvergence:
        return False
    return True


def test_pagerank_dangling_vector():
    chain = nx.DiGraph([(0, 1), (1, 2)])  # 2 is dangling
    same = {0: 1.0, 2: 3.0}
    assert np.allclose(list(nx.pagerank(chain, personalization=same, dangling=same,
                                        backend=BACKEND).values()),
                       list(nx.pagerank(chain, personalization=same, dangling=same).values()))
    with pytest.raises(NotImplementedError):
        nx.pagerank(chain, dangling={0: 1}, backend=BACKEND)
    # Without dangling nodes the vector changes nothing: the backend answers.
    cycle = nx.cycle_graph(4, create_using=nx.DiGraph)
    assert np.allclose(list(nx.pagerank(cycle, dangling={0: 1}, backend=BACKEND).values()),
                       list(nx.pagerank(cycle, dangling={0: 1}).values()))


def test_pagerank_adds_parallel_edges_and_counts_them_without_weights():
    M = nx.MultiDiGraph([(0, 1, {"weight": 1}), (0, 1, {"weight": 4}), (0, 2, {"weight": 2}),
                         (2, 0), (1, 2), (1, 2)])
    H = from_networkx(M, "weight")
    for weight in ("weight", None):
        ours, theirs = nx.pagerank(H, weight=weight), nx.pagerank(M, weight=weight)
        assert np.allclose([ours[k] for k in theirs], list(theirs.values()), atol=1e-12)


def test_weight_none_on_a_weighted_conversion():
    G = nx.Graph([(0, 1, {"weight": 5}), (1, 2, {"weight": 1}), (2, 0, {"weight": 1})])
    G.add_edge(2, 3, weight=2)
    H = from_networkx(G, "weight")
    ours, theirs = nx.pagerank(H, weight=None), nx.pagerank(G, weight=None)
    assert np.allclose([ours[k] for k in theirs], list(theirs.values()), atol=1e-12)
    # NetworkX's cache hands a weighted conversion to a call without weights.
    nx.pagerank(G, backend=BACKEND)
    ours = nx.pagerank(G, weight=None, backend=BACKEND)
    assert np.allclose([ours[k] for k in theirs], list(theirs.values()), atol=1e-12)


def test_connected_components_order_and_directed_graphs():
    G = nx.Graph()
    G.add_nodes_from(["z", "y", "x", "w"])
    G.add_edges_from([("x", "z"), ("w", "y")])
    assert list(nx.connected_components(G, backend=BACKEND)) == [{"z", "x"}, {"y", "w"}]
    assert nx.number_connected_components(G, backend=BACKEND) == 2
    H = from_networkx(nx.DiGraph([(0, 1)]))
    for function in (nx.connected_components, nx.number_connected_components):
        with pytest.raises(nx.NetworkXNotImplemented, match="not implemented for directed"):
            function(H)
    assert list(nx.connected_components(nx.Graph(), backend=BACKEND)) == []
    assert nx.number_connected_components(nx.Graph(), backend=BACKEND) == 0


# -- the interface ---------------------------------------------------------------------------
@pytest.mark.parametrize("name, args, kwargs, reason", [
    ("bfs_edges", (nx.Graph(), 0), {"sort_neighbors": lambda nodes: nodes}, "sort_neighbors"),
    ("bfs_tree", (nx.Graph(), 0), {"depth_limit": "2"}, "depth_limit"),
    ("single_source_shortest_path_length", (nx.Graph(), 0), {"cutoff": 1j}, "cutoff"),
    ("single_source_dijkstra_path_length", (nx.Graph(), 0),
     {"weight": lambda u, v, d: 1}, "callable weight"),
    ("pagerank", (nx.Graph(),), {"weight": lambda u, v, d: 1}, "callable weight"),
    ("pagerank", (nx.Graph(),), {"max_iter": 2.5}, "max_iter"),
    ("pagerank", (nx.Graph(),), {"personalization": [1, 2]}, "personalization"),
    ("pagerank", (nx.Graph(),), {"alpha": "0.85"}, "alpha"),
    ("pagerank", (nx.Graph(), 0.85, None, 10, 1e-6, None, "weight", None, "extra"), {},
     "do not fit"),
    ("betweenness_centrality", (nx.Graph(),), {}, "not implemented"),
])
def test_can_run_refuses_what_it_cannot_match(name, args, kwargs, reason):
    answer = nx_backend.backend.can_run(name, args, kwargs)
    assert isinstance(answer, str) and reason in answer


def test_can_run_accepts_what_it_matches():
    can_run = nx_backend.backend.can_run
    assert can_run("bfs_edges", (nx.Graph(), 0), {"sort_neighbors": sorted}) is True
    assert can_run("pagerank", (nx.Graph(),), {"personalization": {0: 1}, "weight": None})
    assert can_run("single_source_dijkstra_path_length", (nx.Graph(), 0),
                   {"cutoff": np.float32(2)}) is True
    H = from_networkx(nx.path_graph(3), "weight")
    assert "converted with 'weight'" in can_run("pagerank", (H,), {"weight": "cost"})
    # A refused call runs in NetworkX when the backend was not asked for by name.
    with nx.config(backend_priority=[BACKEND], fallback_to_nx=True):
        descending = list(nx.bfs_edges(nx.star_graph(3), 0,
                                       sort_neighbors=lambda nodes: sorted(nodes)[::-1]))
    assert descending == [(0, 3), (0, 2), (0, 1)]


def test_conversion_keeps_one_numeric_attribute():
    backend = nx_backend.backend
    G = nx.Graph([(0, 1, {"weight": 2, "cost": 3})])
    with pytest.raises(NotImplementedError, match="one edge attribute"):
        backend.convert_from_nx(G, edge_attrs={"weight": 1, "cost": 1})
    with pytest.raises(NotImplementedError, match="not all"):
        backend.convert_from_nx(G, preserve_edge_attrs=True)
    H = backend.convert_from_nx(G, edge_attrs={"cost": 1})
    assert isinstance(H, BackendGraph) and H.weight == "cost"
    assert nx.single_source_dijkstra_path_length(H, 0, weight="cost") == {0: 0, 1: 3}
    with pytest.raises(TypeError, match="must be a NetworkX graph"):
        from_networkx({0: [1]})


def test_backend_graph_passes_to_networkx_and_back():
    G = nx.DiGraph()
    G.add_edge("b", "a", weight=1.5)
    G.add_edge("a", "c", weight=2)
    G.add_node("lonely")
    H = from_networkx(G, "weight")
    assert (len(H), list(H), "a" in H, [1] in H) == (4, ["b", "a", "c", "lonely"], True, False)
    assert H.is_directed() and not H.is_multigraph()
    back = nx_backend.backend.convert_to_nx(H)
    assert type(back) is nx.DiGraph and list(back) == list(G)
    assert nx.utils.edges_equal(back.edges(data=True), G.edges(data=True))
    assert nx_backend.backend.convert_to_nx({"a": 1}) == {"a": 1}
    # NetworkX converts a backend graph back for a function the backend lacks.
    with nx.config(fallback_to_nx=True):
        assert nx.degree_centrality(H) == nx.degree_centrality(G)
    with pytest.raises(NotImplementedError, match="multigraph"):
        from_networkx(nx.MultiGraph([(0, 1), (0, 1)])).to_networkx()


def test_import_networkx_does_not_import_the_backend():
    """NetworkX reads the backend's info at import: that must not import the package."""
    code = ("import sys, networkx as nx; "
            "assert 'cugraph_compressed' in nx.utils.backends.backend_info; "
            "print(sorted(m for m in sys.modules if m.startswith(('cugraph_compressed', 'numpy', "
            "'cupy', 'cudf'))))")
    paths = [str(Path(__file__).resolve().parents[2]), networkx_entry_points.registered or "",
             os.environ.get("PYTHONPATH", "")]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(paths)), check=True)
    assert done.stdout.strip() == "[]"


def _python(code, **environment):
    """Run ``code`` in a fresh interpreter that sees this checkout and the backend's entry
    points; its completed process."""
    paths = [str(Path(__file__).resolve().parents[2]), networkx_entry_points.registered or "",
             os.environ.get("PYTHONPATH", "")]
    return subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code],
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(paths), **environment))


def test_backend_config_survives_importing_the_backend_first():
    """Importing cugraph_compressed.nx before networkx used to start NetworkX's import from
    inside the info module's, so NetworkX read a half-made module and kept an empty config."""
    done = _python("import cugraph_compressed.nx, networkx as nx; "
                   "c = nx.config.backends.cugraph_compressed; "
                   "c.format = 'ef'; print(type(c).__name__, c.format, c.backend)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["BackendConfig", "ef", "auto"]


def test_a_bad_environment_value_warns_and_keeps_the_config():
    done = _python("import warnings; warnings.simplefilter('default'); import networkx as nx; "
                   "print(nx.config.backends.cugraph_compressed.format)",
                   CUGRAPH_COMPRESSED_NX_FORMAT="zip")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["auto"]
    assert "CUGRAPH_COMPRESSED_NX_FORMAT='zip' is not one of" in done.stderr
