"""Breadth-first search, cuGraph's ``bfs`` on a :class:`~cugraph_compressed.CompressedGraph`.

Two backends compute the same thing: every vertex's hop distance from the nearest start vertex
and a predecessor on a shortest path.  The host version is a plain level loop over the layout's
host decoder (the oracle the GPU version is tested against); the device version runs the
kernels of ``bfs.cu``, direction-optimizing on undirected graphs, and on directed ones over
the in-lists they keep beside their out-lists with ``TraversalConfig.directed_bottom_up``
(``bfs_device``).  Which
predecessor a vertex gets when several are valid differs between them (as it does between runs
of any parallel BFS, cuGraph's included).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .._args import check_bool
from ..graph_view import OUT
from ..kernels.traversal import BLOCK, LaggedCounts, Module, SizedPasses, Traversal
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
    "decide": ("bfs_decide", False, False),
    "frontier_bits": ("bfs_frontier_bits", False, False),
    "bottom_up": ("bfs_bottom_up<{view}, {vertex}>", False, True),
})
#: Words of the device state (bfs.cu): direction (0 top-down, 1 bottom-up), edges of the
#: frontier, unexplored edges, the previous frontier's size.
STATE_WORDS = 4
UNEXPLORED_EDGES = 2


def _word(array, i):
    """Element ``i`` of a device array as a one-element view: a pointer for a kernel."""
    return array[i:i + 1]


def bfs_device(adjacency, sources, depth_limit):
    """Level-synchronous BFS on the GPU over the out-lists' device view; returns (dist, pred).

    A top-down level expands the frontier in the launches of ``list_passes``: short lists one
    item per thread, long lists one item per warp.  On an undirected graph (and on a directed
    one with ``TraversalConfig.directed_bottom_up``, over the in-lists it keeps beside its
    out-lists) a level goes bottom-up instead when the frontier is large
    (``TraversalConfig.bottom_up_alpha`` and ``bottom_up_beta``, decided on the device): every
    unvisited vertex scans its in-list and stops at its first neighbour in the frontier, its
    parent.  Distances are the same either way; predecessors are parents one level up, not
    necessarily the same ones.

    No size is read on the host per level: the frontier's size, its item scan and the
    direction live in device memory (``SizedPasses``), and the host reads the sizes one level
    late (``LaggedCounts``) only to stop.  What still waits for the device: that late read,
    and, where ``TraversalConfig.sort_frontiers_from`` is set, the frontier's size before it
    is sorted (CuPy's sort takes a host length)."""
    import cupy as cp

    layout, dtype, config = adjacency.layout, adjacency.vertex_dtype, adjacency.config
    run = Traversal(layout, dtype, config)
    # Asked before this run's state is allocated: a directed graph's in-lists are built on
    # the first call, and their build's working memory and the state never meet.
    up_lists = adjacency.bottom_up_lists()
    bottom_up = up_lists is not None
    if bottom_up:
        up = run if up_lists is adjacency else Traversal(up_lists.layout, dtype, config)
    n = layout.num_vertices
    words = (n + 31) // 32
    dist = cp.full(n, vertex_sentinel(dtype), dtype=dtype)
    pred = cp.full(n, -1, dtype=dtype)
    visited = cp.zeros(words, dtype=cp.uint32)
    queues = [cp.empty(max(n, 1), dtype=dtype) for _ in range(2)]  # frontiers, by level parity
    sizes = cp.zeros(2, dtype=cp.uint64)
    state = cp.zeros(STATE_WORDS, dtype=cp.uint64)
    state[UNEXPLORED_EDGES] = layout.num_edges
    gate, frontier_edges = _word(state, 0), _word(state, 1)
    sources = cp.asarray(sources, dtype=dtype)
    MODULE.kernel("seed", vertex=dtype)(
        *run.grid(sources.size), (sources, np.int64(sources.size), visited, dist, queues[0],
                                  sizes[0:1]))
    passes = SizedPasses(run, n)
    expand = [run.kernel(MODULE, name) for name in ("expand", "expand_warps")]
    if bottom_up:
        seen = cp.zeros(words, dtype=cp.uint32)  # visited as of the last level's start
        frontier_bits = cp.empty(words, dtype=cp.uint32)
        bits, search_up = MODULE.kernel("frontier_bits"), up.kernel(MODULE, "bottom_up")
    decide = MODULE.kernel("decide")
    alpha = np.float64(config.bottom_up_alpha if bottom_up else 1.0)
    beta = np.float64(config.bottom_up_beta)
    counts = LaggedCounts(cp)
    level = 0
    while depth_limit is None or level < depth_limit:
        frontier, following = queues[level % 2], queues[(level + 1) % 2]
        size, next_size = _word(sizes, level % 2), _word(sizes, (level + 1) % 2)
        if run.sort_from is not None:
            count = int(size.get()[0])  # a host sort needs the length: this level waits
            if not count:
                break
            run.order_frontier(frontier, count)
        next_size.fill(0)
        next_level = dtype.type(level + 1)
        if bottom_up:
            bits(*run.grid(words), (visited, seen, frontier_bits, np.int64(words)))
        passes(expand, frontier, size, gate, visited, dist, pred, following, next_size,
               next_level, edges=frontier_edges,
               after_first=lambda: decide((1,), (1,), (state, size, np.int64(n), alpha, beta,
                                                     np.int32(bottom_up))))
        if bottom_up:
            search_up((passes.tiles(search_up),), (BLOCK,), (
                up.view, np.int64(n), state, frontier_bits, visited, dist, pred, following,
                next_size, next_level))
        counts.send(level, next_size)
        level += 1
        # Level `level - 2`'s output is the frontier of level `level - 1`, just enqueued: if it
        # was empty, that level did nothing and the search is over.
        if level >= 2 and not counts.receive(level - 2):
            break
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
    return G.ids.vertex_frame({"distance": dist,
                               "predecessor": pred if return_predecessors else None},
                              ids=("predecessor",))


ALGORITHM = ALGORITHMS["bfs"]
