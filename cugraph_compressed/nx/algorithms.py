"""The NetworkX functions the backend implements, with NetworkX's signatures and semantics.

Each takes a :class:`~cugraph_compressed.nx.graph.BackendGraph` where NetworkX takes a graph,
runs the package's algorithm on its :class:`~cugraph_compressed.CompressedGraph` (through the
registry's :meth:`~cugraph_compressed.algorithms.registry.Algorithm.run`, on the host or the
GPU) and answers in NetworkX's types: node labels, Python ints and floats, NetworkX's
exceptions.  What cannot be matched raises NotImplementedError before any work, so NetworkX
runs the call itself (``can_run`` in :mod:`.interface` turns most of it away earlier).
"""
from __future__ import annotations

import math

import networkx as nx
import numpy as np

from .. import _backend
from .._build import default_budget, piece_rows
from .._source import StoredEdges
from ..algorithms.registry import ALGORITHMS
from ..graph_view import ANY
from .bfs_order import bfs_levels, discovery_order


# -- breadth-first search ----------------------------------------------------------------------
def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """NetworkX's ``bfs_edges``: the edges of a breadth-first search from ``source``, in
    NetworkX's order (a generator, which raises NetworkXError for a missing source when
    iterated, as NetworkX's does)."""
    key = _neighbour_key(G, sort_neighbors)
    return _tree_edges(G, source, reverse, depth_limit, key)


def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """NetworkX's ``bfs_tree``: a ``networkx.DiGraph`` of the edges of ``bfs_edges``."""
    key = _neighbour_key(G, sort_neighbors)
    tree = nx.DiGraph()
    tree.add_node(source)
    tree.add_edges_from(_tree_edges(G, source, reverse, depth_limit, key))
    return tree


def single_source_shortest_path_length(G, source, cutoff=None):
    """NetworkX's ``single_source_shortest_path_length``: ``{node: hops}`` for the nodes at
    most ``cutoff`` hops from ``source``, in NetworkX's discovery order."""
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    found = {source: 0}
    limit = _hops(cutoff, len(G))
    if limit == 0:
        return found
    view = G.graph.view()
    levels = bfs_levels(view, G.index(source), limit)
    children, _ = discovery_order(view, levels, _budget(G.graph))
    hops = _backend.to_host(levels)[children]
    labels = G.labels
    found.update(zip([labels[c] for c in children.tolist()], hops.tolist()))
    return found


def _tree_edges(G, source, reverse, depth_limit, key):
    s = _bfs_source(G, source)
    limit = _hops(depth_limit, len(G))
    if limit == 0:
        return
    graph = G.reverse_graph() if reverse and G.is_directed() else G.graph
    view = graph.view()
    levels = bfs_levels(view, s, limit)
    children, parents = discovery_order(view, levels, _budget(graph), key)
    labels = G.labels
    for parent, child in zip(parents.tolist(), children.tolist()):
        # The first level's parent is the source as the caller gave it, as NetworkX yields it.
        yield (source if parent == s else labels[parent]), labels[child]


def _bfs_source(G, source) -> int:
    """The source's internal id; NetworkX's error for a missing one (its ``neighbors``')."""
    try:
        return G.index(source)
    except KeyError:
        kind = "digraph" if G.is_directed() else "graph"
        raise nx.NetworkXError(f"The node {source} is not in the {kind}.") from None


def _hops(limit, num_nodes: int):
    """NetworkX's depth bound as the package's BFS takes it: NetworkX goes on while the level
    is below ``limit``, so levels up to ``ceil(limit)`` are reached; 0 for none beyond the
    source, None for no bound."""
    if limit is None:
        return None
    if not limit > 0:  # NaN too: NetworkX's `depth < nan` never holds
        return 0
    if limit >= num_nodes:
        return None
    return math.ceil(limit)


def _neighbour_key(G, sort_neighbors):
    """None (adjacency order), or each vertex's rank among the sorted labels for the builtin
    ``sorted``; NotImplementedError for anything else."""
    if sort_neighbors is None:
        return None
    if sort_neighbors is not sorted:
        raise NotImplementedError("sort_neighbors must be None or the builtin sorted; "
                                  f"got {sort_neighbors!r}")
    return G.label_ranks()


# -- shortest path lengths ---------------------------------------------------------------------
def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """NetworkX's ``single_source_dijkstra_path_length``: ``{node: distance}`` for the nodes
    within ``cutoff`` (inclusive) of ``source``, by distance.

    Parallel edges weigh their smallest weight; edges without the attribute weigh 1.
    Distances are ints when every weight is an int, as NetworkX's sums are.
    """
    hash(source)  # TypeError for an unhashable source, as NetworkX's set {source} raises
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if callable(weight):
        raise NotImplementedError("a callable weight runs in NetworkX")
    s = G.index(source)
    found = {source: 0}
    bound = None if cutoff is None else _real(cutoff)
    if bound is not None and math.isnan(bound):  # NetworkX's `distance > nan` never holds
        bound = None
    if bound is not None and bound < 0:
        return found
    if weight is None:  # every edge weighs 1: hop counts
        limit = None if bound is None or math.isinf(bound) else _hops(math.floor(bound),
                                                                      len(G))
        if limit == 0:
            return found
        dist = _backend.to_host(bfs_levels(G.graph.view(), s, limit)).astype(np.float64)
        dist[dist < 0] = np.inf
        integral = True
    else:
        view = G.weighted_view(weight, summed=False)
        problem = G.weight_problem(weight, summed=False)
        if problem is not None:
            raise NotImplementedError(f"{problem}: NetworkX's Dijkstra runs the call")
        # NetworkX keeps distances <= cutoff; the package's bound is exclusive.
        limit = None if bound is None else np.nextafter(bound, np.inf)
        dist, _ = ALGORITHMS["sssp"].run(view, s, limit)
        dist = _backend.to_host(dist).astype(np.float64)
        integral = G.int_weights
    reached = np.flatnonzero(np.isfinite(dist))
    reached = reached[reached != s]
    reached = reached[np.argsort(dist[reached], kind="stable")]
    values = dist[reached]
    values = values.astype(np.int64).tolist() if integral else values.tolist()
    labels = G.labels
    found.update(zip([labels[v] for v in reached.tolist()], values))
    return found


def _real(value) -> float:
    try:
        return float(value)
    except OverflowError:  # an int beyond float64
        return math.inf if value > 0 else -math.inf


# -- PageRank ----------------------------------------------------------------------------------
def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None,
             weight="weight", dangling=None):
    """NetworkX's ``pagerank``: power iteration until the L1 change is below ``N * tol``.

    Parallel edges add up; edges without the attribute weigh 1.  The personalization, start
    and dangling vectors are normalized as NetworkX normalizes them (missing nodes 0).

    Raises
    ------
    networkx.PowerIterationFailedConvergence
        Not converged within ``max_iter`` iterations.
    ZeroDivisionError
        The personalization sums to 0 (NetworkX's error).
    NotImplementedError
        A ``dangling`` vector other than the personalization (uniform without one) on a graph
        with dangling nodes, or NaN or infinite weights: NetworkX runs the call.
    """
    n = len(G)
    if n == 0:
        return {}
    if callable(weight):
        raise NotImplementedError("a callable weight runs in NetworkX")
    view = G.weighted_view(weight, summed=True)
    problem = G.weight_problem(weight, summed=True)
    if problem is not None:
        raise NotImplementedError(f"{problem}: NetworkX's PageRank runs the call")
    teleport = _vector(G, personalization)
    if teleport is not None:
        if teleport.sum() == 0:
            raise ZeroDivisionError
        teleport = teleport / teleport.sum()
    start = _normalized(_vector(G, nstart))
    out_weight = None
    if dangling is not None:
        spread = _normalized(_vector(G, dangling))
        if np.isnan(spread).any():  # NetworkX's iterate turns NaN and never converges
            raise nx.PowerIterationFailedConvergence(max_iter)
        uniform = np.full(n, 1.0 / n) if teleport is None else teleport
        if not np.array_equal(spread, uniform):
            # The package hands dangling mass to the teleport vector; another vector only
            # matters where some vertex has no out-weight.
            out_weight = _out_weights(view, _budget(G.graph))
            if bool((out_weight == 0).any()):
                raise NotImplementedError(
                    "a dangling vector other than the personalization (uniform without one) "
                    "on a graph with dangling nodes runs in NetworkX")
    # NetworkX has converged when its last allowed iteration meets the bound; the package's
    # flag holds only for a stop before its limit: give it one more.
    scores, converged = ALGORITHMS["pagerank"].run(
        view, float(alpha), teleport, start, out_weight, int(max_iter) + 1, float(tol) * n)
    if not converged:
        raise nx.PowerIterationFailedConvergence(max_iter)
    return dict(zip(G.labels, _backend.to_host(scores).tolist()))


def _vector(G, values):
    """A float64 vector over the nodes from a dict (missing nodes 0), as NetworkX builds it;
    None for None."""
    if values is None:
        return None
    return np.array([values.get(label, 0) for label in G.labels], dtype=float)


def _normalized(vector):
    if vector is None:
        return None
    with np.errstate(divide="ignore", invalid="ignore"):  # a zero sum: NaN, as NetworkX gets
        return vector / vector.sum()


def _out_weights(view, budget):
    """float64 out-weight of every vertex, summed from the stored edges piece by piece."""
    adjacency = view.adjacency(ANY)
    xp = _backend.array_module(view.backend)
    edges = StoredEdges(adjacency.layout, {"weight": adjacency.weights}, view.backend,
                        adjacency.in_lists, adjacency.config, what="summing out-weights")
    with _backend.allocations(view.backend):
        total = xp.zeros(adjacency.num_vertices, dtype=np.float64)
        for piece in edges.pieces(piece_rows(budget), np.int64):
            total += xp.bincount(piece.src, weights=piece.properties["weight"],
                                 minlength=adjacency.num_vertices)
        return _backend.to_host(total)


# -- connected components ----------------------------------------------------------------------
def connected_components(G):
    """NetworkX's ``connected_components``: a generator of node sets, in the order NetworkX
    yields them (by their first node in the graph's order)."""
    _undirected_only(G)
    return iter(_components(G))


def number_connected_components(G):
    """NetworkX's ``number_connected_components``."""
    _undirected_only(G)
    if len(G) == 0:
        return 0
    return int(np.unique(_component_labels(G)).size)


def _undirected_only(G):
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")


def _component_labels(G):
    return _backend.to_host(ALGORITHMS["weakly_connected_components"].run(G.graph.view()))


def _components(G) -> list:
    if len(G) == 0:
        return []
    labels = _component_labels(G)
    members = np.argsort(labels, kind="stable")  # each component's vertices in id order
    starts = np.flatnonzero(np.r_[True, labels[members][1:] != labels[members][:-1]])
    groups = np.split(members, starts[1:])
    groups.sort(key=lambda group: group[0])  # by smallest vertex: NetworkX's order
    names = G.labels
    return [{names[v] for v in group.tolist()} for group in groups]


def _budget(graph) -> int:
    return graph.build_stats.get("budget") or default_budget(graph.backend)


#: The functions the backend implements (``_cugraph_compressed_nx.FUNCTIONS`` names them).
FUNCTIONS = {f.__name__: f for f in (
    bfs_edges, bfs_tree, single_source_shortest_path_length,
    single_source_dijkstra_path_length, pagerank, connected_components,
    number_connected_components)}
