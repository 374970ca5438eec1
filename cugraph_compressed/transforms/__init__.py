"""Graph transforms that reduce degree skew: Tigr's UDT and graph combing.

``udt(G, degree_bound=K)`` and ``comb(G, threshold, width)`` return a
:class:`~.graph.TransformedGraph`: the same layout and parameters, on the same backend, whose
long lists are hung under trees of synthetic vertices (:mod:`.split_edges` says how), built
piece by piece through the streaming build.  The package's algorithms take it like any graph
and answer on the original vertices with the original graph's results (:mod:`.algorithms`);
``G.transform`` (:class:`~.graph.Transform`) records what was added, bytes included.

Which to use: UDT bounds every list at ``K`` (a tree of depth ``log_K`` per long list); comb
splits only lists above a threshold, one level deep, so the owner keeps ``ceil(d / width)``
edges.  Both add one vertex and one edge per synthetic vertex and a 0/1 BFS on top; the
package's traversal core already balances long lists by cutting them into warp-sized items,
so neither is expected to speed up its GPU kernels much: measure before relying on one.

Tigr's other transform, the **virtual split** with edge-array coalescing, is designed here but
not built.  It would keep the stored lists and add a per-family table: a list of ``d > P``
edges (``P`` the part size, Tigr's 8) becomes ``n = ceil(d / P)`` virtual vertices
``{physical vertex, part j}``, part ``j`` reading ranks ``j, j + n, j + 2n, ...`` so that the
parts of a family read consecutive edges at each step; values stay on the physical vertex
(atomics), so every algorithm keeps its results with no extra vertices or levels.  A strided
rank needs random access into a list: direct on ``csr`` and ``fl`` (an offset and a fixed
width), through the forward pointers on ``ef`` (select from the nearest pointer, at most
``k - 1`` values away); ``cgr`` has no random access inside residuals, so its parts would be
its existing contiguous residual segments instead of strides.  It would be a traversal option
(work items by family instead of by list) measured against the current core, which already
cuts long lists into contiguous items.
"""
from __future__ import annotations

from .._args import check_int
from ..graph import CompressedGraph
from .graph import Transform, TransformedGraph
from .split_edges import SplitPlan

__all__ = ["Transform", "TransformedGraph", "comb", "udt"]


def _check_graph(G, what: str) -> None:
    if not isinstance(G, CompressedGraph):
        raise TypeError(f"{what} takes a CompressedGraph, got {type(G).__name__}")
    if isinstance(G, TransformedGraph):
        raise TypeError(f"{what}: the graph is already a {G.transform.kind} graph; transform "
                        "the original graph instead")
    G.view()  # ValueError for a graph with no edge list


def udt(G, degree_bound=8) -> TransformedGraph:
    """Tigr's uniform-degree tree transform: no list longer than ``degree_bound``.

    Each stored list of ``d > K`` neighbours is queued; while more than ``K`` remain, ``K``
    are popped and hung under a new (synthetic) vertex, which joins the queue; the last
    ``<= K`` stay with the owner.  New edges weigh 0.

    Parameters
    ----------
    G : CompressedGraph
        A built graph, host or device, any layout; it is not changed.  Its stored lists are
        split: out-lists, or in-lists when a directed graph was built with
        ``store_transposed=True`` (then PageRank and WCC run on the result, BFS and SSSP
        refuse it).
    degree_bound : int
        ``K`` >= 2.

    Returns
    -------
    TransformedGraph
        Same layout, parameters and backend; ``.transform`` records the added vertices, edges
        and bytes.

    Raises
    ------
    TypeError
        ``G`` is not a CompressedGraph, is already transformed, or ``degree_bound`` is not an
        integer.
    ValueError
        ``degree_bound`` < 2, or ``G`` has no edge list.
    """
    _check_graph(G, "udt")
    k = check_int("degree_bound", degree_bound, 2)
    return TransformedGraph(G, SplitPlan("udt", k, k), {"degree_bound": k})


def comb(G, threshold, width) -> TransformedGraph:
    """Graph combing: every list longer than ``threshold`` is cut into groups of ``width``
    consecutive neighbours, each hung under a new (synthetic) vertex; the owner keeps only
    those vertices.  New edges weigh 0, so connectivity and distances are kept.

    Parameters
    ----------
    G : CompressedGraph
        A built graph, host or device, any layout; it is not changed.  Its stored lists are
        split, as for :func:`udt`.
    threshold : int
        Lists longer than this (>= 0) are combed.
    width : int
        Neighbours per new vertex (>= 1).

    Returns
    -------
    TransformedGraph

    Raises
    ------
    TypeError
        ``G`` is not a CompressedGraph, is already transformed, or an argument is not an
        integer.
    ValueError
        ``threshold`` < 0, ``width`` < 1, or ``G`` has no edge list.
    """
    _check_graph(G, "comb")
    threshold = check_int("threshold", threshold, 0)
    width = check_int("width", width, 1)
    return TransformedGraph(G, SplitPlan("comb", threshold, width),
                            {"threshold": threshold, "width": width})
