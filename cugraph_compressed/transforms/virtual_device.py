"""The algorithms over virtual vertices on the GPU (``virtual.cu``), for :mod:`.virtual`.

Every pass numbers the parts of the lists it visits with the traversal core's item scan
(:class:`~cugraph_compressed.kernels.traversal.Traversal`): items of ``Parts.size`` ranks,
one per thread, item ``j`` of a list being its part ``j``.  Values stay on the physical
vertices, so each driver is the plain algorithm over those passes:

* **BFS**: level-synchronous top-down, seeded by ``bfs.cu``'s ``bfs_seed``.
* **SSSP**: Bellman-Ford rounds over the improved vertices (``sssp.cu``'s relaxation, no far
  pile), then ``sssp.cu``'s predecessor pass over every list.
* **WCC**: one hooking pass over every edge and ``components.cu``'s compression.
* **PageRank**: :func:`.algorithms._pagerank`'s float64 iteration over the product of one
  pass (pull: one atomic per part).

Each run compiles only its own kernels: its algorithm's group of ``virtual.cu`` for its view,
vertex and weight types, and the same-typed kernels it borrows from ``bfs.cu``, ``sssp.cu`` and
``components.cu``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..algorithms.bfs import MODULE as BFS_MODULE
from ..algorithms.components import MODULE as WCC_MODULE
from ..algorithms.sssp import MODULE as SSSP_MODULE
from ..algorithms.sssp import distance_bound
from ..kernels.traversal import Module, Traversal
from .algorithms import _pagerank

#: virtual.cu's kernels by algorithm (a run compiles its own group); strided or contiguous
#: parts are a launch argument.
MODULE = Module(Path(__file__).with_name("virtual.cu"), {
    "bfs": ("virtual_bfs_expand<{view}, {vertex}>", False, True, "bfs"),
    "sssp": ("virtual_sssp_relax<{view}, {vertex}, {weight}>", True, True, "sssp"),
    "wcc": ("virtual_wcc_hook<{view}, {vertex}>", False, True, "wcc"),
    "spmv": ("virtual_pagerank_spmv<{view}, {vertex}, {weight}>", True, True, "pagerank"),
})


class _Pass:
    """One run's passes over the parts of a vertex set's lists."""

    def __init__(self, adjacency, runs, algorithm: str, weight=None):
        self.run = Traversal(adjacency.layout, adjacency.vertex_dtype, adjacency.config)
        self.parts = runs.parts(adjacency.layout)
        self.kernel = self.run.kernel(MODULE, algorithm, weight=weight)

    def __call__(self, vertices, count, *args):
        """The kernel over the parts of ``vertices[:count]`` (None: every vertex)."""
        scan, total = self.run.items(vertices, count, self.parts.size)
        self.run.launch(self.kernel, vertices, count, scan, total, self.parts.size,
                        np.int32(self.parts.strided), *args)


def bfs(adjacency, sources, depth_limit, *, runs):
    """Top-down BFS over virtual vertices; returns (dist, pred) as ``bfs_device`` does."""
    import cupy as cp

    vtype = adjacency.vertex_dtype
    over = _Pass(adjacency, runs, "bfs")
    n = adjacency.layout.num_vertices
    unreached = np.iinfo(vtype).max
    dist = cp.full(n, unreached, dtype=vtype)
    pred = cp.full(n, -1, dtype=vtype)
    visited = cp.zeros((n + 31) // 32, dtype=cp.uint32)
    frontier, following = cp.empty(max(n, 1), dtype=vtype), cp.empty(max(n, 1), dtype=vtype)
    size = cp.zeros(1, dtype=cp.uint64)
    sources = cp.asarray(sources, dtype=vtype)
    BFS_MODULE.kernel("seed", vertex=vtype)(
        *over.run.grid(sources.size), (sources, np.int64(sources.size), visited, dist, frontier,
                                       size))
    count, level = int(size.get()[0]), 0
    while count and (depth_limit is None or level < depth_limit):
        size.fill(0)
        over(frontier, count, visited, dist, pred, following, size, vtype.type(level + 1))
        frontier, following = following, frontier
        count, level = int(size.get()[0]), level + 1
    return dist, pred


def sssp(adjacency, source, cutoff, *, runs):
    """Bellman-Ford rounds over virtual vertices; returns (dist, with inf unreachable, pred)
    as ``sssp_device`` does."""
    import cupy as cp

    weights, vtype = adjacency.weights, adjacency.vertex_dtype
    wtype = np.dtype(weights.dtype)
    over = _Pass(adjacency, runs, "sssp", weight=wtype)
    n = adjacency.layout.num_vertices
    dist = cp.full(n, np.inf, dtype=wtype)
    dist[source] = 0
    queued = cp.zeros((n + 31) // 32, dtype=cp.uint32)
    frontier = cp.full(max(n, 1), source, dtype=vtype)
    following = cp.empty_like(frontier)
    size = cp.zeros(1, dtype=cp.uint64)
    unqueue = SSSP_MODULE.kernel("unqueue", vertex=vtype)
    limit = distance_bound(cutoff, wtype)
    count = 1
    while count:
        size.fill(0)
        over(frontier, count, weights, limit, dist, queued, following, size)
        unqueue(*over.run.grid(n), (following, size, queued))
        frontier, following = following, frontier
        count = int(size.get()[0])
    pred = cp.full(n, -1, dtype=vtype)
    names = [over.run.kernel(SSSP_MODULE, name, weight=wtype)
             for name in ("predecessors", "predecessors_warps")]
    over.run.over_lists(names, None, n, weights, dist, wtype.type(np.inf), np.int64(source),
                        pred)
    return dist, pred


def wcc(adjacency, *, runs):
    """One hooking pass over every part and a compression; labels as ``wcc_device``."""
    import cupy as cp

    vtype = adjacency.vertex_dtype
    over = _Pass(adjacency, runs, "wcc")
    n = adjacency.layout.num_vertices
    parent = cp.arange(n, dtype=vtype)
    over(None, n, parent)
    WCC_MODULE.kernel("compress", vertex=vtype)(*over.run.grid(n), (parent, np.int64(n)))
    return parent


def _products(adjacency, runs):
    """``product(values, forward)`` over every list's parts (:func:`.algorithms._pagerank`):
    forward sums ``values[source] * w`` into each target, backward the other way."""
    import cupy as cp

    weights = adjacency.weights
    weighted = weights is not None
    wtype = np.dtype(weights.dtype) if weighted else np.dtype(np.float32)
    w = weights if weighted else cp.zeros(1, dtype=wtype)
    over = _Pass(adjacency, runs, "spmv", weight=wtype)
    n = adjacency.layout.num_vertices
    # In-lists and undirected lists hold each vertex's sources: forward pulls over them.
    holds_sources = adjacency.in_lists or adjacency.symmetric

    def product(values, forward):
        out = cp.zeros(n)
        over(None, n, w, np.int32(weighted), cp.ascontiguousarray(values, dtype=cp.float64),
             np.int32(forward == holds_sources), out)
        return out

    return product


class _Vertices:
    """What :func:`.algorithms._pagerank` reads of its runs: the vertex count and CuPy."""

    def __init__(self, n):
        self.n = n

    @staticmethod
    def xp():
        import cupy

        return cupy


def pagerank(adjacency, alpha, teleport, start, out_weight, max_iter, tol, *, runs):
    """cuGraph's PageRank iteration (float64) over the product of :func:`_products`."""
    return _pagerank(adjacency, alpha, teleport, start, out_weight, max_iter, tol,
                     runs=_Vertices(adjacency.layout.num_vertices),
                     products=lambda adjacency, _: _products(adjacency, runs))


IMPLEMENTATIONS = {"bfs": bfs, "sssp": sssp, "weakly_connected_components": wcc,
                   "pagerank": pagerank}
