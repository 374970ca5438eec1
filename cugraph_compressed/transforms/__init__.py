"""Graph transforms that reduce degree skew: Tigr's virtual split and UDT, and graph combing.

``udt(G, degree_bound=K)`` and ``comb(G, threshold, width)`` return a
:class:`~.graph.TransformedGraph`: the same layout and parameters, on the same backend, whose
long lists are hung under trees of synthetic vertices (:mod:`.split_edges` says how), built
piece by piece through the streaming build.  The package's algorithms take it like any graph
and answer on the original vertices with the original graph's results (:mod:`.algorithms`);
``G.transform`` (:class:`~.graph.Transform`) records what was added, bytes included.

UDT bounds every list at ``K`` (a tree of depth ``log_K`` per long list); comb splits only
lists above a threshold, one level deep, so the owner keeps ``ceil(d / width)`` edges.  Both
add one vertex and one edge per synthetic vertex and a 0/1 BFS on top.

``virtual_split(G, part_size=P)`` (Tigr's virtual split with edge-array coalescing,
:mod:`.virtual`) changes no list: it cuts each list into parts of about ``P`` ranks, virtual
vertices whose values live on the physical vertex, and the algorithms hand out work by part
(strided parts on ``csr``, ``fl`` and ``ef``, contiguous ones on ``cgr``).  It adds no vertex,
edge, level or byte, and every algorithm returns exactly what the original graph returns.

Which to use: the virtual split first (free, every algorithm, every layout); UDT or comb only
where a bounded stored degree is itself wanted (they rebuild the graph, add vertices and make
BFS a 0/1 search).  The package's traversal core already cuts long lists into balanced items,
so none of them is expected to speed its GPU kernels up much: ``benchmarks/transforms.py``
measures each against the untransformed graph.

Every transform keeps the original graph's backend and placement (a transform of a
host-placed graph keeps its per-edge buffers in pinned host memory);
``transform.added_bytes_by_placement`` says where its added bytes are.
"""
from __future__ import annotations

from .._args import check_bool, check_int
from ..graph import CompressedGraph
from .graph import Transform, TransformedGraph
from .split_edges import SplitPlan
from .virtual import VirtualGraph

#: The largest size parameter: any list is shorter, and the transforms' int64 arithmetic
#: on degrees stays exact.
LARGEST = 2**62

__all__ = ["Transform", "TransformedGraph", "VirtualGraph", "comb", "udt", "virtual_split"]


def _check_graph(G, what: str) -> None:
    if not isinstance(G, CompressedGraph):
        raise TypeError(f"{what} takes a CompressedGraph, got {type(G).__name__}")
    if isinstance(G, (TransformedGraph, VirtualGraph)):
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
    k = check_int("degree_bound", degree_bound, 2, LARGEST)
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
    threshold = check_int("threshold", threshold, 0, LARGEST)
    width = check_int("width", width, 1, LARGEST)
    return TransformedGraph(G, SplitPlan("comb", threshold, width),
                            {"threshold": threshold, "width": width})


def virtual_split(G, part_size=8, coalesce=True) -> VirtualGraph:
    """Tigr's virtual split: every list longer than ``part_size`` is handed to the algorithms
    as a family of ``ceil(degree / part_size)`` virtual vertices over the same stored list,
    whose values stay on the physical vertex (:mod:`.virtual`).

    Parameters
    ----------
    G : CompressedGraph
        A built graph, host or device, any layout and placement; it is not changed, and the
        result shares its buffers.
    part_size : int
        ``P`` >= 1, ranks per virtual vertex (Tigr's 8).
    coalesce : bool
        Edge-array coalescing: part ``j`` of a family of ``n`` takes ranks ``j, j + n, ...``
        on ``csr``, ``fl`` and ``ef``; ``cgr`` (no random access inside its residual segments)
        and ``coalesce=False`` take contiguous ranks, ``P`` rounded up to the layout's decode
        chunk.

    Returns
    -------
    VirtualGraph
        Answers every query and algorithm (BFS, SSSP, PageRank, WCC) as ``G`` does;
        ``.transform`` records the parts (``added_bytes`` 0: no table is stored).

    Raises
    ------
    TypeError
        ``G`` is not a CompressedGraph or is already transformed, ``part_size`` is not an
        integer, or ``coalesce`` is not a bool.
    ValueError
        ``part_size`` < 1, or ``G`` has no edge list.
    """
    _check_graph(G, "virtual_split")
    part_size = check_int("part_size", part_size, 1, LARGEST)
    return VirtualGraph(G, part_size, check_bool("coalesce", coalesce))
