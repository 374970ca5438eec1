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

from .._backend import HOST, device_allocations
from ..kernels import get_kernel, grid_size, register
from ._common import check_graph, cugraph_module as _cugraph, vertex_sentinel
from .registry import require

KERNELS = Path(__file__).with_name("bfs.cu")
_CTYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
_BLOCK, _ITEMS = 256, 4  # must match BFS_BLOCK / BFS_ITEMS in bfs.cu


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
    if not check_graph(G):
        return _cugraph().bfs(G, start=start, depth_limit=depth_limit, i_start=i_start,
                              directed=directed, return_predecessors=return_predecessors)
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
    sources = G._internal_ids(start, "start")
    layout = G._layout
    if G.backend == HOST:
        dist, pred = bfs_host(layout, sources, depth_limit, G.vertex_dtype)
    else:
        require("bfs", G)
        with device_allocations():
            dist, pred = bfs_device(layout, sources, depth_limit, G.vertex_dtype)
    predecessors = G._user_ids(pred) if return_predecessors else G._no_ids()
    return G._vertex_frame({"distance": dist, "predecessor": predecessors})


def bfs_host(layout, sources, depth_limit, dtype):
    """Level-synchronous BFS in NumPy over ``layout``'s host decoder; returns (dist, pred)."""
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


def _kernel_names(dtype, layout):
    index_t = _CTYPES[np.dtype(layout.indices.dtype)]
    offset_t = _CTYPES[np.dtype(layout.offsets.dtype)]
    vertex_t = _CTYPES[np.dtype(dtype)]
    return (f"bfs_seed<{vertex_t}>",
            f"bfs_csr_degrees<{index_t}, {offset_t}, {vertex_t}>",
            f"bfs_csr_expand<{index_t}, {offset_t}, {vertex_t}>")


def kernel_instantiations():
    """Every instantiation of ``bfs.cu`` the driver may launch (CI compiles them all)."""
    names = []
    for vertex_t in _CTYPES.values():
        names.append(f"bfs_seed<{vertex_t}>")
        for index_t in _CTYPES.values():
            for offset_t in _CTYPES.values():
                names += [f"bfs_csr_degrees<{index_t}, {offset_t}, {vertex_t}>",
                          f"bfs_csr_expand<{index_t}, {offset_t}, {vertex_t}>"]
    return names


register(KERNELS, kernel_instantiations)


def bfs_device(layout, sources, depth_limit, dtype):
    """Level-synchronous BFS on the GPU with the kernels of ``bfs.cu``; returns (dist, pred)."""
    import cupy as cp

    dtype = np.dtype(dtype)
    seed_name, degrees_name, expand_name = _kernel_names(dtype, layout)
    everything = kernel_instantiations()
    seed = get_kernel(KERNELS, seed_name, everything)
    degrees_kernel = get_kernel(KERNELS, degrees_name, everything)
    expand = get_kernel(KERNELS, expand_name, everything)

    n = layout.num_vertices
    offsets, indices = layout.offsets, layout.indices
    dist = cp.full(n, vertex_sentinel(dtype), dtype=dtype)
    pred = cp.full(n, -1, dtype=dtype)
    visited = cp.zeros((n + 31) // 32, dtype=cp.uint32)
    frontier = cp.empty(max(n, 1), dtype=dtype)
    following = cp.empty_like(frontier)
    degrees = cp.empty(max(n, 1), dtype=cp.int64)
    size = cp.zeros(1, dtype=cp.uint64)

    sources = cp.asarray(sources, dtype=dtype)
    seed((grid_size(sources.size, _BLOCK),), (_BLOCK,),
         (sources, np.int64(sources.size), visited, dist, frontier, size))
    count = int(size.get()[0])
    level = 0
    while count and (depth_limit is None or level < depth_limit):
        degrees_kernel((grid_size(count, _BLOCK),), (_BLOCK,),
                       (offsets, indices, frontier, np.int64(count), degrees))
        scan = cp.cumsum(degrees[:count])
        total = int(scan[-1])
        if total == 0:
            break
        size.fill(0)
        level += 1
        tiles = -(-total // (_BLOCK * _ITEMS))
        expand((tiles,), (_BLOCK,),
               (offsets, indices, frontier, scan, np.int64(count), np.int64(total), visited,
                dist, pred, following, size, dtype.type(level)))
        count = int(size.get()[0])
        frontier, following = following, frontier
    return dist, pred

