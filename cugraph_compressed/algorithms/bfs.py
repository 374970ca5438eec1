"""Breadth-first search, cuGraph's ``bfs`` on a :class:`~cugraph_compressed.CompressedGraph`.

Two backends compute the same thing: every vertex's hop distance from the nearest start vertex
and a predecessor on a shortest path.  The host version is a plain level loop over the layout's
host decoder (the oracle the GPU version is tested against); the device version runs the
kernels of ``bfs.cu``.  Which predecessor a vertex gets when several are valid differs between
them (as it does between runs of any parallel BFS, cuGraph's included).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .._args import check_bool
from ..graph_view import OUT
from ..kernels.traversal import Module, Traversal
from .registry import ALGORITHMS, front_door


def vertex_sentinel(dtype):
    """Distance of an unreachable vertex: the largest value of the vertex dtype (cuGraph's)."""
    return np.iinfo(np.dtype(dtype)).max


def bfs_host(adjacency, sources, depth_limit):
    """Level-synchronous BFS in NumPy over the host decoder of the out-lists; returns
    (dist, pred)."""
    layout, dtype = adjacency.layout, adjacency.vertex_dtype
    n = layout.num_vertices
    dist = np.full(n, vertex_sentinel(dtype), dtype=dtype)
    pred = np.full(n, -1, dtype=dtype)
    frontier = np.unique(sources).astype(np.int64)
    dist[frontier] = 0
    level = 0
    while frontier.size and (depth_limit is None or level < depth_limit):
        owner, neighbours, _ = layout.decode_lists(frontier)
        fresh = dist[neighbours] == vertex_sentinel(dtype)
        neighbours, owner = neighbours[fresh], owner[fresh]
        # The first edge (in decode order) that reaches a new vertex names its predecessor.
        neighbours, first = np.unique(neighbours, return_index=True)
        level += 1
        dist[neighbours] = level
        pred[neighbours] = frontier[owner[first]]
        frontier = neighbours
    return dist, pred


MODULE = Module(Path(__file__).with_name("bfs.cu"), {
    "seed": ("bfs_seed<{vertex}>", False, False),
    "expand": ("bfs_expand<{view}, {vertex}, false>", False, True),
    "expand_warps": ("bfs_expand<{view}, {vertex}, true>", False, True),
})


def bfs_device(adjacency, sources, depth_limit):
    """Level-synchronous BFS on the GPU over the out-lists' device view; returns (dist, pred).

    Each level expands the frontier in the launches of ``list_passes``: short lists one item
    per thread, long lists one item per warp."""
    import cupy as cp

    layout, dtype = adjacency.layout, adjacency.vertex_dtype
    run = Traversal(layout, dtype, adjacency.config)
    n = layout.num_vertices
    dist = cp.full(n, vertex_sentinel(dtype), dtype=dtype)
    pred = cp.full(n, -1, dtype=dtype)
    visited = cp.zeros((n + 31) // 32, dtype=cp.uint32)
    frontier = cp.empty(max(n, 1), dtype=dtype)
    following = cp.empty_like(frontier)
    size = cp.zeros(1, dtype=cp.uint64)
    sources = cp.asarray(sources, dtype=dtype)
    MODULE.kernel("seed", vertex=dtype)(
        *run.grid(sources.size), (sources, np.int64(sources.size), visited, dist, frontier, size))
    expand = [run.kernel(MODULE, name) for name in ("expand", "expand_warps")]
    count = int(size.get()[0])
    level = 0
    while count and (depth_limit is None or level < depth_limit):
        run.order_frontier(frontier, count)
        size.fill(0)
        level += 1
        run.over_lists(expand, frontier, count, visited, dist, pred, following, size,
                       dtype.type(level))
        count = int(size.get()[0])
        frontier, following = following, frontier
    return dist, pred


@front_door("bfs", host=bfs_host, device=bfs_device, orientation=OUT, source=True)
def bfs(G, start=None, depth_limit=None, i_start=None, directed=None, return_predecessors=True):
    """Breadth-first search from one or several start vertices.

    Parameters
    ----------
    G : CompressedGraph or cugraph.Graph
        The graph.  A plain ``cugraph.Graph`` (or anything that is not a ``CompressedGraph``)
        is handed to ``cugraph.bfs`` unchanged.
    start : scalar, list, array or Series
        Start vertex id(s), in the user's ids.  Several starts run one multi-source search.
    depth_limit : int, optional
        Only vertices at most this many hops from a start are reached; None, 0 or a negative
        value means no limit (cuGraph's reading).
    i_start : optional
        Alias of ``start`` (cuGraph's); give one of the two.
    directed : None
        Must stay None for a graph, as in cuGraph: the graph's own directedness is used.
    return_predecessors : bool
        When False no predecessors are returned: the ``predecessor`` column is all null for
        int32/int64 ids (what cuGraph returns), -1 for other id types.

    Returns
    -------
    DataFrame
        cuDF for a device graph, pandas for a host graph, with columns ``vertex``,
        ``distance`` (the vertex dtype; unreachable = its maximum) and ``predecessor``
        (-1 for starts and unreachable vertices).

    Raises
    ------
    TypeError
        No start, both ``start`` and ``i_start``, ``directed`` given, or a non-integer
        ``depth_limit``.
    ValueError
        A start vertex that is not in the graph (the message names it), or an empty start list.
    """
    # Argument errors are cuGraph's, type for type.
    if start is not None and i_start is not None:
        raise TypeError("cannot specify both 'start' and 'i_start'")
    if start is None and i_start is None:
        raise TypeError("must specify 'start' or 'i_start', but not both")
    if directed is not None:
        raise TypeError("'directed' cannot be specified for a Graph-type input")
    start = i_start if start is None else start
    if depth_limit is not None and (isinstance(depth_limit, bool)
                                    or not isinstance(depth_limit, (int, np.integer))):
        raise TypeError(f"depth_limit must be an int or None, got {depth_limit!r}")
    if depth_limit is not None and depth_limit <= 0:
        depth_limit = None  # cuGraph reads 0 and negative limits as "no limit"
    return_predecessors = check_bool("return_predecessors", return_predecessors)
    sources = G.ids.to_internal(start, "start")
    dist, pred = ALGORITHM.run(G, sources, depth_limit)
    predecessors = G.ids.to_user(pred) if return_predecessors else G.ids.none()
    return G.ids.vertex_frame({"distance": dist, "predecessor": predecessors})


ALGORITHM = ALGORITHMS["bfs"]
