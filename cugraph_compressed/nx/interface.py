"""The backend object NetworkX loads (the ``networkx.backends`` entry point).

NetworkX asks it whether it ``can_run`` a call (with the call's arguments, before converting),
converts graphs with ``convert_from_nx``, calls the function of the same name, and hands the
result to ``convert_to_nx``.  ``can_run`` turns away exactly the arguments the backend cannot
honour; NetworkX then runs those calls itself (with ``nx.config.fallback_to_nx``, or when the
backend was picked by ``nx.config.backend_priority``).
"""
from __future__ import annotations

import inspect
import numbers

from .algorithms import FUNCTIONS
from .graph import BackendGraph, from_networkx


def _real(value) -> bool:
    return isinstance(value, numbers.Real)


def _bfs(args) -> str | None:
    if args.get("sort_neighbors") not in (None, sorted):
        return "sort_neighbors other than None or the builtin sorted"
    if args.get("depth_limit") is not None and not _real(args["depth_limit"]):
        return "a depth_limit that is not a real number"
    return None


def _cutoff(args) -> str | None:
    if args.get("cutoff") is not None and not _real(args["cutoff"]):
        return "a cutoff that is not a real number"
    return None


def _weight(args) -> str | None:
    weight, G = args.get("weight"), args.get("G")
    if callable(weight):
        return "a callable weight"
    if isinstance(G, BackendGraph) and weight is not None and weight != G.weight:
        return (f"weights from edge attribute {weight!r}, but the graph was converted with "
                f"{G.weight!r}")
    return None


def _dijkstra(args) -> str | None:
    return _weight(args) or _cutoff(args)


def _pagerank(args) -> str | None:
    for name in ("alpha", "tol"):
        if not _real(args.get(name)):
            return f"an {name} that is not a real number"
    if not isinstance(args.get("max_iter"), numbers.Integral):
        return "a max_iter that is not an integer"
    for name in ("personalization", "nstart", "dangling"):
        value = args.get(name)
        if value is not None and not hasattr(value, "get"):
            return f"a {name} that is not a dict"
    return _weight(args)


#: Function name -> why its arguments cannot run here (None: they can).
_CHECKS = {
    "bfs_edges": _bfs,
    "bfs_tree": _bfs,
    "single_source_shortest_path_length": _cutoff,
    "single_source_dijkstra_path_length": _dijkstra,
    "pagerank": _pagerank,
    "connected_components": lambda args: None,
    "number_connected_components": lambda args: None,
}


class BackendInterface:
    """NetworkX's view of the ``cugraph_compressed`` backend: the conversions, ``can_run``
    and one attribute per implemented function (:data:`.algorithms.FUNCTIONS`)."""

    @staticmethod
    def convert_from_nx(graph, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                        graph_name=None):
        """A :class:`~.graph.BackendGraph` of NetworkX graph ``graph`` keeping the one edge
        attribute ``edge_attrs`` names (``{attribute: default}``); node and graph attributes
        are not kept.

        Raises
        ------
        NotImplementedError
            More than one edge attribute, all of them (``preserve_edge_attrs``), or weights
            the backend cannot compute with; NetworkX then runs the call itself.
        """
        if preserve_edge_attrs:
            raise NotImplementedError("the backend keeps one numeric edge attribute, not all")
        if not edge_attrs:
            return from_networkx(graph)
        if len(edge_attrs) > 1:
            raise NotImplementedError("the backend keeps one edge attribute, asked for "
                                      f"{sorted(map(repr, edge_attrs))}")
        ((weight, default),) = edge_attrs.items()
        return from_networkx(graph, weight, default=default)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        """Results are NetworkX's types already; a :class:`~.graph.BackendGraph` becomes a
        NetworkX graph (:meth:`~.graph.BackendGraph.to_networkx`)."""
        if isinstance(obj, BackendGraph):
            return obj.to_networkx()
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """True when the backend honours these arguments of ``name``, else why not (a string,
        which NetworkX logs)."""
        function = FUNCTIONS.get(name)
        if function is None:
            return f"{name} is not implemented"
        try:
            bound = inspect.signature(function).bind(*args, **kwargs)
        except TypeError as exc:  # NetworkX raises its own error for these arguments
            return f"arguments that do not fit {name}: {exc}"
        bound.apply_defaults()
        return _CHECKS[name](bound.arguments) or True


for _name, _function in FUNCTIONS.items():
    setattr(BackendInterface, _name, staticmethod(_function))
