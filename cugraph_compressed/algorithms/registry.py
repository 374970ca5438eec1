"""The one front door of every algorithm, and the registry that lists them.

An algorithm module defines its host and device implementations, then its public function
under :func:`front_door`, which registers an :class:`Algorithm` and does what every algorithm
does the same way:

* anything that is not a :class:`~cugraph_compressed.CompressedGraph` (a plain
  ``cugraph.Graph``) goes to cuGraph's function of the same name, arguments unchanged;
* a graph with no edge list raises ValueError;
* the function body gets the graph's :class:`~cugraph_compressed.graph_view.GraphView` in
  place of the graph, checks its arguments, translates ids, and calls :meth:`Algorithm.run`,
  which fetches the adjacency in the algorithm's orientation and runs the host or the device
  implementation (the device one inside ``device_allocations``, so its memory comes from RMM,
  and inside ``checked_run``, so a checked run's faults become LayoutInvariantError).

``ALGORITHMS`` (in registration order) is what :func:`supported`, the package's namespace, the
benchmark and the tests enumerate; importing :mod:`cugraph_compressed.algorithms` imports
every algorithm module, so a new algorithm is its ``.py`` (and ``.cu``) and its tests.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable

from .._backend import HOST, device_allocations
from ..graph import CompressedGraph
from ..graph_view import ANY, OUT, GraphView
from ..kernels.traversal import checked_run

#: name -> Algorithm, in registration order.
ALGORITHMS: dict = {}
#: name -> (algorithm name, function): further front doors of registered algorithms.
ALIASES: dict = {}


@dataclass(frozen=True)
class Algorithm:
    """One algorithm: its cuGraph name, implementations and what it needs of a graph.

    Attributes
    ----------
    name : str
        The public (and cuGraph) function name.
    host, device : callable
        ``impl(adjacency, *args)``: the NumPy and the GPU implementation, on the
        :class:`~cugraph_compressed.graph_view.Adjacency` of ``orientation``.
    orientation : str
        ``OUT`` (needs out-lists: BFS, SSSP) or ``ANY``.
    function : callable
        The public front door.
    check : callable, optional
        ``check(adjacency)``, run before either implementation: checks of the edge data that
        both backends need (SSSP's non-negative weights).
    short : str
        Its name in benchmark records (``wcc``).
    undirected : bool
        Runs on undirected graphs only.
    source : bool
        Takes a start vertex (benchmarks time it per source).
    transposed : bool
        Prefers in-list storage (``store_transposed=True``).
    benchmark_args : dict
        Keyword arguments of benchmark calls beyond the graph (and the source).
    """

    name: str
    host: Callable
    device: Callable
    orientation: str
    function: Callable
    check: Callable | None = None
    short: str = ""
    undirected: bool = False
    source: bool = False
    transposed: bool = False
    benchmark_args: dict = field(default_factory=dict)

    def run(self, view: GraphView, *args, **kwargs):
        """Run the implementation of ``view``'s backend on the graph's adjacency in this
        algorithm's orientation (re-encoding the graph if it is stored the other way).  A
        transformed graph supplies its own implementations, which answer on its original
        vertices (or refuse the algorithm).  ``kwargs`` go to the implementation."""
        host, device = self.host, self.device
        if view.transform is not None:
            host, device = view.transform.implementations(self.name)
        adjacency = view.adjacency(self.orientation)
        if self.check is not None:
            self.check(adjacency)
        if view.backend == HOST:
            return host(adjacency, *args, **kwargs)
        with device_allocations(), checked_run(adjacency.layout, adjacency.config, self.name):
            return device(adjacency, *args, **kwargs)


def front_door(name: str, *, host: Callable, device: Callable, orientation: str = ANY,
               **facts):
    """Decorator registering the public function of an algorithm (see the module docstring).

    The decorated body is written as ``body(view, *args, **kwargs)``: it receives the graph's
    :class:`GraphView` where the caller passed the graph.  ``facts`` are the remaining
    :class:`Algorithm` fields.
    """
    if orientation not in (OUT, ANY):
        raise ValueError(f"orientation must be {OUT!r} or {ANY!r}, got {orientation!r}")

    def register(body):
        door = _door(name, body)
        if name in ALGORITHMS:
            raise ValueError(f"algorithm {name!r} is registered twice")
        ALGORITHMS[name] = Algorithm(name=name, host=host, device=device,
                                     orientation=orientation, function=door,
                                     short=facts.pop("short", name), **facts)
        return door

    return register


def alias(name: str, of: str):
    """Decorator registering a second public front door of algorithm ``of`` (cuGraph's
    ``connected_components`` beside ``weakly_connected_components``); same hand-off and
    empty-graph check, the body gets the view."""

    if of not in ALGORITHMS:
        raise ValueError(f"{name!r} is an alias of {of!r}, which is not registered")

    def register(body):
        door = _door(name, body)
        ALIASES[name] = (of, door)
        return door

    return register


def _door(name: str, body: Callable) -> Callable:
    @functools.wraps(body)
    def door(G, *args, **kwargs):
        if not isinstance(G, CompressedGraph):
            return getattr(_cugraph(), name)(G, *args, **kwargs)
        return body(G.view(), *args, **kwargs)

    return door


def _cugraph():
    """cuGraph itself, for graphs that are not ours; TypeError when it is not installed."""
    try:
        import cugraph
    except ImportError as exc:
        raise TypeError(
            "this function takes a CompressedGraph; other graph types go to cuGraph, "
            f"which is not importable here ({exc})"
        ) from None
    return cugraph


def public_functions() -> dict:
    """``{name: function}`` of every front door and alias, for the package namespace."""
    functions = {name: entry.function for name, entry in ALGORITHMS.items()}
    functions.update({name: door for name, (_, door) in ALIASES.items()})
    return functions


def device_layouts() -> list:
    """Layouts with GPU kernels: those with a device view (every algorithm is written once
    against the view interface, ``formats/views.cuh``, and runs on all of them)."""
    from ..formats import FORMATS

    return sorted(name for name, cls in FORMATS.items() if cls.device_view_types())


def supported() -> dict:
    """``{algorithm: {"host": [layouts], "device": [layouts]}}`` for every algorithm."""
    from ..formats import FORMATS

    return {name: {"host": sorted(FORMATS), "device": device_layouts()} for name in ALGORITHMS}
