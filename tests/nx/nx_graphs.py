"""Random NetworkX graphs and the comparison of every backend function with NetworkX itself,
shared by the host and the GPU tests of the backend."""
import random

import networkx as nx
import numpy as np

BACKEND = "cugraph_compressed"
CLASSES = {(False, False): nx.Graph, (True, False): nx.DiGraph,
           (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}


def random_graph(seed: int, directed: bool, multigraph: bool, labels: str, weights: str):
    """A graph whose adjacency lists are not in node order: nodes added shuffled, edges in
    random order (self loops and parallel edges included), some removed and added again (to
    the end of both ends' lists), isolated nodes kept.

    ``labels``: "int", "str" or "mixed" (ints, strings, tuples and floats together);
    ``weights``: "none", "int" or "float" (about a tenth of the edges lack the attribute).
    """
    rng = random.Random(seed)
    G = CLASSES[directed, multigraph]()
    n = rng.randint(1, 40)
    if labels == "int":
        names = list(range(n))
    elif labels == "str":
        names = [f"v{i}" for i in range(n)]
    else:
        names = [rng.choice([i, str(i), (i, "t"), i + 0.5]) for i in range(n)]
    rng.shuffle(names)
    G.add_nodes_from(names)
    for _ in range(rng.randint(0, 3 * n)):
        attributes = {}
        if weights != "none" and rng.random() < 0.9:
            attributes["weight"] = rng.randint(0, 9) if weights == "int" else rng.random() * 5
        G.add_edge(rng.choice(names), rng.choice(names), **attributes)
    edges = list(G.edges(keys=True, data=True) if multigraph else G.edges(data=True))
    for *ends, data in rng.sample(edges, min(len(edges), 5)):
        G.remove_edge(*ends)
        G.add_edge(*ends[:2], **data)
    return G, names, rng


def typed(mapping: dict) -> list:
    """``(key, value, type of value)`` of a dict, in its order."""
    return [(key, value, type(value)) for key, value in mapping.items()]


def assert_same_answers(G, names, rng, sources: int = 2):
    """Every implemented function, dispatched to the backend with ``backend=``, gives what
    NetworkX gives: the same edges, dicts and sets in the same order and types (PageRank's
    floats within 1e-12; Dijkstra's order among equal distances aside)."""
    orderable = len({type(name) for name in names}) == 1
    # NetworkX's sums are ints along paths of int weights only; the backend's are ints when
    # every weight is.
    int_weights = all(type(data.get("weight", 1)) is int for *_, data in G.edges(data=True))
    for s in rng.sample(names, min(sources, len(names))):
        for reverse in (False, True):
            for depth in (None, 0, 1, 2.5, -1):
                assert (list(nx.bfs_edges(G, s, reverse=reverse, depth_limit=depth,
                                          backend=BACKEND))
                        == list(nx.bfs_edges(G, s, reverse=reverse, depth_limit=depth)))
            if orderable:
                assert (list(nx.bfs_edges(G, s, reverse=reverse, sort_neighbors=sorted,
                                          backend=BACKEND))
                        == list(nx.bfs_edges(G, s, reverse=reverse, sort_neighbors=sorted)))
            ours = nx.bfs_tree(G, s, reverse=reverse, depth_limit=2, backend=BACKEND)
            theirs = nx.bfs_tree(G, s, reverse=reverse, depth_limit=2)
            assert type(ours) is nx.DiGraph
            assert (list(ours), list(ours.edges)) == (list(theirs), list(theirs.edges))
        for cutoff in (None, 0, 1, 2.5, -3):
            assert (typed(nx.single_source_shortest_path_length(G, s, cutoff=cutoff,
                                                                backend=BACKEND))
                    == typed(nx.single_source_shortest_path_length(G, s, cutoff=cutoff)))
        for weight in ("weight", None):
            for cutoff in (None, 0, 3, 4.5, -1):
                ours = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff, weight=weight,
                                                             backend=BACKEND)
                theirs = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff,
                                                               weight=weight)
                assert ours == theirs
                assert list(ours.values()) == sorted(ours.values())
                if int_weights or weight is None:
                    assert sorted(typed(ours), key=repr) == sorted(typed(theirs), key=repr)
    for weight in ("weight", None):
        assert_same_pagerank(G, weight=weight)
        chosen = rng.sample(names, max(1, len(names) // 2))
        vector = {name: rng.random() for name in chosen}
        assert_same_pagerank(G, weight=weight, personalization=vector, nstart=vector,
                             dangling=vector)
    if not G.is_directed():
        assert (list(nx.connected_components(G, backend=BACKEND))
                == list(nx.connected_components(G)))
        assert (nx.number_connected_components(G, backend=BACKEND)
                == nx.number_connected_components(G))


def assert_same_pagerank(G, **arguments):
    """Both converge (to within 1e-12, keys in the same order) or both fail to."""
    try:
        theirs = nx.pagerank(G, **arguments)
    except nx.PowerIterationFailedConvergence:
        theirs = None
    if theirs is None:
        try:
            nx.pagerank(G, **arguments, backend=BACKEND)
        except nx.PowerIterationFailedConvergence:
            return
        raise AssertionError(f"NetworkX did not converge, the backend did ({arguments})")
    ours = nx.pagerank(G, **arguments, backend=BACKEND)
    assert list(ours) == list(theirs)
    assert all(type(x) is float for x in ours.values())
    np.testing.assert_allclose([ours[k] for k in theirs], list(theirs.values()), rtol=0,
                               atol=1e-12)
