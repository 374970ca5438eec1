"""The algorithms on a split graph, answering on its original vertices (:class:`SplitRuns`).

A split graph holds ``N`` original vertices and synthetic ones ``N ..``; every synthetic
vertex lies in the tree of one original list owner, its root (``roots``), and has exactly one
in-edge (0 weight).  Each algorithm runs on the split lists and maps back:

* **BFS** is a 0/1 shortest-path search: a hop into a synthetic vertex costs 0, a hop into an
  original vertex 1, so ``depth_limit`` counts original hops.  Each level is expanded, then
  closed over the synthetic vertices it reached (they join the level and are expanded in turn
  until none is newly reached); the originals it reached form the next level.  The host runs
  this over the layout's host decoder, the GPU with the kernels of ``split.cu``.
* **SSSP** runs as it is: new edges weigh 0, so every original distance is kept.
* **WCC** hooks the two ends of every stored edge, whichever way it points (split lists are
  not symmetric): the host's hooking over all edges, on the GPU ``split.cu``'s pass (the
  hooking of ``components.cu``, each edge handed over smaller end first).  The label is the
  smallest vertex of the component, an original one (a synthetic vertex shares its root's
  component).
* **PageRank** pulls over the split lists: a synthetic vertex passes the sum of its children
  up undamped within the same iteration, which is the same as crediting each edge into an
  original vertex to the root of its list's owner.  The iteration then sees exactly the
  original edges, original out-degrees, ``N`` vertices for the teleport and the dangling
  mass; it runs in float64, its product over the host decoder's edges a window of slots at a
  time on the host, and in one pass of ``split.cu``'s kernel on the GPU.

Predecessors that are synthetic become their root, the original vertex whose list held the
edge.  BFS and SSSP need out-lists: a split of in-lists (a directed graph stored transposed)
refuses them.  BFS, WCC and PageRank's product have a host version and GPU kernels (PageRank's
iteration is one code on NumPy or CuPy arrays); SSSP is the package's own on either backend.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from .._backend import HOST
from .._source import slot_decoder
from ..algorithms.bfs import MODULE as BFS_MODULE
from ..algorithms.components import wcc_host
from ..algorithms.sssp import sssp_device, sssp_host
from ..kernels.traversal import Module, Traversal

#: Stored edges decoded per window by the host's PageRank product (int64 owners and neighbours,
#: float64 products); a graph of at most this many keeps them between iterations.
WINDOW_EDGES = 1 << 22


@dataclass(frozen=True)
class SplitRuns:
    """What a split graph's GraphView hands the algorithms' front door (``view.transform``).

    Attributes
    ----------
    kind : str
        The transform (``"udt"`` or ``"comb"``), named in refusals.
    n : int
        Original vertices.
    roots : array
        The root of every synthetic vertex (NumPy or CuPy, the split graph's vertex dtype).
    in_lists : bool
        The split lists are in-lists (a directed graph stored transposed).
    directed : bool
        The original graph is directed (an undirected one's lists are in- and out-lists).
    vertex_dtype : numpy.dtype
        The dtype of results (the original graph's).
    backend : str
    """

    kind: str
    n: int
    roots: object
    in_lists: bool
    directed: bool
    vertex_dtype: np.dtype
    backend: str

    def implementations(self, name: str):
        """``(host, device)`` implementations of algorithm ``name`` on the split graph.

        Raises
        ------
        ValueError
            BFS or SSSP on a split of in-lists.
        NotImplementedError
            An algorithm with no exact version on a split graph.
        """
        if name in ("bfs", "sssp") and self.in_lists:
            raise ValueError(
                f"{name} needs out-lists, but this {self.kind} graph split in-lists (the "
                "directed graph was stored transposed): transform a graph built with "
                "store_transposed=False for bfs and sssp")
        if name == "bfs":
            return partial(bfs_levels, runs=self), partial(bfs_split_device, runs=self)
        if name == "sssp":
            return (partial(_sssp, runs=self, shortest=sssp_host),
                    partial(_sssp, runs=self, shortest=sssp_device))
        if name == "weakly_connected_components":
            return partial(_wcc_host, runs=self), partial(_wcc_device, runs=self)
        if name == "pagerank":
            return (partial(_pagerank, runs=self, products=_host_product),
                    partial(_pagerank, runs=self, products=_device_product))
        raise NotImplementedError(f"{name} has no exact version on a {self.kind} graph; run it "
                                  "on the original graph")

    def xp(self):
        if self.backend == HOST:
            return np
        import cupy

        return cupy

    def to_roots(self, vertices):
        """Synthetic ids replaced by their roots; original ids and -1 kept."""
        xp = self.xp()
        vertices = vertices.astype(np.int64)
        if not self.roots.size:  # nothing was split
            return vertices
        synthetic = vertices >= self.n
        return xp.where(synthetic, self.roots[xp.where(synthetic, vertices - self.n, 0)],
                        vertices)


def _windows(adjacency, runs: SplitRuns):
    """``(begin, end, owner, neighbour)`` of every window of stored slots."""
    layout = adjacency.layout
    decode = slot_decoder(layout, runs.backend, adjacency.config, f"a {runs.kind} graph")
    for begin in range(0, layout.num_edges, WINDOW_EDGES):
        end = min(begin + WINDOW_EDGES, layout.num_edges)
        owner, neighbour = decode(begin, end)
        yield begin, end, owner, neighbour


def _hops(dist, runs: SplitRuns, reached):
    """Original vertices' hop counts in the vertex dtype, unreachable at its maximum."""
    xp, dtype = runs.xp(), np.dtype(runs.vertex_dtype)
    # The original ids may be wider than the split graph's own (int64 user ids, int32 inside):
    # widen before the sentinel goes in, which CuPy would cast to dist's dtype.
    return xp.where(reached, dist.astype(dtype), dtype.type(np.iinfo(dtype).max))


def bfs_levels(adjacency, sources, depth_limit, *, runs: SplitRuns):
    """0/1 BFS on the host: each level expanded, then closed over the synthetic vertices it
    reaches (cost 0), before the originals it reached form the next level."""
    layout, n = adjacency.layout, runs.n
    total = layout.num_vertices
    unreached = np.iinfo(np.int64).max
    dist = np.full(total, unreached, dtype=np.int64)
    pred = np.full(total, -1, dtype=np.int64)
    frontier = np.unique(np.asarray(sources).astype(np.int64))
    dist[frontier] = 0
    level = 0
    while frontier.size and (depth_limit is None or level < depth_limit):
        current, following = frontier, []
        while current.size:
            owner, neighbours, _ = layout.decode_lists(current)
            fresh = dist[neighbours] == unreached
            neighbours, owner = neighbours[fresh], owner[fresh]
            # The first edge (in decode order) that reaches a vertex names its predecessor.
            neighbours, first = np.unique(neighbours, return_index=True)
            synthetic = neighbours >= n
            dist[neighbours] = np.where(synthetic, level, level + 1)
            pred[neighbours] = current[owner[first]]
            following.append(neighbours[~synthetic])
            current = neighbours[synthetic]
        frontier = np.concatenate(following)
        level += 1
    dist, pred = dist[:n], pred[:n]
    return _hops(dist, runs, dist != unreached), runs.to_roots(pred).astype(runs.vertex_dtype)


#: split.cu's kernels, grouped by algorithm: a run compiles its own group only.
MODULE = Module(Path(__file__).with_name("split.cu"), {
    "expand": ("split_bfs_expand<{view}, {vertex}, false>", False, True, "bfs"),
    "expand_warps": ("split_bfs_expand<{view}, {vertex}, true>", False, True, "bfs"),
    "hook": ("split_wcc_hook<{view}, {vertex}, false>", False, True, "wcc"),
    "hook_warps": ("split_wcc_hook<{view}, {vertex}, true>", False, True, "wcc"),
    "compress": ("wcc_compress<{vertex}>", False, False, "wcc"),
    "spmv": ("split_pagerank_spmv<{view}, {vertex}, {weight}, false>", True, True, "pagerank"),
    "spmv_warps": ("split_pagerank_spmv<{view}, {vertex}, {weight}, true>", True, True,
                   "pagerank"),
})


def bfs_split_device(adjacency, sources, depth_limit, *, runs: SplitRuns):
    """0/1 BFS on the GPU (``split.cu``): each level's frontier of original vertices is
    expanded, then the synthetic vertices it reached, round after round, until a round reaches
    none; every round appends the originals it reaches to the next level's frontier.

    Per vertex (original and synthetic): distance, predecessor, a visited bit; frontier
    buffers of ``N`` (originals) and twice the synthetic count (a round reads one, writes the
    other)."""
    import cupy as cp

    layout, vtype = adjacency.layout, adjacency.vertex_dtype
    run = Traversal(layout, vtype, adjacency.config)
    total, n = layout.num_vertices, runs.n
    unreached = np.iinfo(vtype).max
    dist = cp.full(total, unreached, dtype=vtype)
    pred = cp.full(total, -1, dtype=vtype)
    visited = cp.zeros((total + 31) // 32, dtype=cp.uint32)
    frontier = cp.empty(max(n, 1), dtype=vtype)
    following = cp.empty_like(frontier)
    rounds = [cp.empty(max(total - n, 1), dtype=vtype) for _ in range(2)]
    kept, split = cp.zeros(1, dtype=cp.uint64), cp.zeros(1, dtype=cp.uint64)
    sources = cp.asarray(sources, dtype=vtype)
    BFS_MODULE.kernel("seed", vertex=vtype)(
        *run.grid(sources.size), (sources, np.int64(sources.size), visited, dist, frontier, kept))
    expand = [run.kernel(MODULE, name) for name in ("expand", "expand_warps")]
    count = int(kept.get()[0])
    level = 0
    while count and (depth_limit is None or level < depth_limit):
        run.order_frontier(frontier, count)
        kept.fill(0)
        current, size, out = frontier, count, 0
        while size:  # the level's originals, then the synthetic vertices they reach, in rounds
            split.fill(0)
            run.over_lists(expand, current, size, visited, dist, pred, following, kept,
                           rounds[out], split, vtype.type(level), np.int64(n))
            current, size, out = rounds[out], int(split.get()[0]), 1 - out
        count = int(kept.get()[0])
        frontier, following = following, frontier
        level += 1
    dist, pred = dist[:n], pred[:n]
    return _hops(dist, runs, dist != unreached), runs.to_roots(pred).astype(runs.vertex_dtype)


def _sssp(adjacency, source, cutoff, *, runs: SplitRuns, shortest):
    dist, pred = shortest(adjacency, source, cutoff)
    return dist[:runs.n], runs.to_roots(pred[:runs.n])


def _wcc_host(adjacency, *, runs: SplitRuns):
    """The host's hooking over all edges (both ends of each), original vertices' labels."""
    return wcc_host(adjacency)[:runs.n]


def _wcc_device(adjacency, *, runs: SplitRuns):
    """One hooking pass over every edge and a compression, on the GPU (``split.cu``)."""
    import cupy as cp

    layout, vtype = adjacency.layout, adjacency.vertex_dtype
    total = layout.num_vertices
    run = Traversal(layout, vtype, adjacency.config)
    parent = cp.arange(total, dtype=vtype)
    run.over_lists([run.kernel(MODULE, name) for name in ("hook", "hook_warps")], None, total,
                   parent)
    MODULE.kernel("compress", vertex=vtype)(*run.grid(total), (parent, np.int64(total)))
    return parent[:runs.n]


def _flat_windows(adjacency, runs: SplitRuns):
    """The original edges, window after window: ``(source, target, weight)`` with each edge
    into an original vertex credited to its list owner's root."""
    xp, n = runs.xp(), runs.n
    weights = adjacency.weights
    for begin, end, owner, neighbour in _windows(adjacency, runs):
        keep = neighbour < n
        root = runs.to_roots(owner[keep])
        child = neighbour[keep]
        w = (xp.ones(child.size) if weights is None
             else weights[begin:end][keep].astype(np.float64))
        # Split in-lists (and undirected lists) hold each vertex's sources.
        yield (root, child, w) if runs.directed and not runs.in_lists else (child, root, w)


def _host_product(adjacency, runs: SplitRuns):
    """``product(values, forward)`` over the original edges on the host: forward sums
    ``values[source] * w`` into each target, backward ``values[target] * w`` into each source.
    A graph of up to :data:`WINDOW_EDGES` stored edges keeps its edges between calls."""
    n = runs.n
    edges = list(_flat_windows(adjacency, runs)) if adjacency.layout.num_edges <= WINDOW_EDGES \
        else None

    def product(values, forward):
        out = np.zeros(n)
        for source, target, w in edges if edges is not None else _flat_windows(adjacency, runs):
            into, outof = (target, source) if forward else (source, target)
            out += np.bincount(into, weights=values[outof] * w, minlength=n)
        return out

    return product


def _device_product(adjacency, runs: SplitRuns):
    """The same product on the GPU: one pass of ``split.cu``'s kernel over the split lists."""
    import cupy as cp

    layout, vtype, weights = adjacency.layout, adjacency.vertex_dtype, adjacency.weights
    run = Traversal(layout, vtype, adjacency.config)
    weighted = weights is not None
    wtype = np.dtype(weights.dtype) if weighted else np.dtype(np.float32)
    w = weights if weighted else cp.zeros(1, dtype=wtype)
    kernels = [run.kernel(MODULE, name, weight=wtype) for name in ("spmv", "spmv_warps")]
    roots = runs.roots if runs.roots.size else cp.zeros(1, dtype=vtype)
    # Split in-lists and undirected lists hold sources: the forward product pulls over them.
    holds_sources = runs.in_lists or not runs.directed

    def product(values, forward):
        out = cp.zeros(runs.n)
        run.over_lists(kernels, None, layout.num_vertices, w, np.int32(weighted),
                       cp.ascontiguousarray(values, dtype=cp.float64), roots,
                       np.int64(runs.n), np.int32(forward == holds_sources), out)
        return out

    return product


def _pagerank(adjacency, alpha, teleport, start, out_weight, max_iter, tol, *,
              runs: SplitRuns, products):
    """cuGraph's PageRank iteration (as the host version computes it, in float64) over the
    split lists, synthetic vertices passing their children's sums to their roots;
    ``products`` gives the product over the original edges (:func:`_host_product`,
    :func:`_device_product`)."""
    xp, n = runs.xp(), runs.n
    if n == 0:
        return np.zeros(0), True
    product = products(adjacency, runs)
    if out_weight is None:
        out_weight = product(xp.ones(n), False)
    else:
        out_weight = xp.asarray(out_weight, dtype=np.float64)
    dangling = out_weight == 0
    divisor = xp.where(dangling, 1.0, out_weight)
    teleport = None if teleport is None else xp.asarray(teleport, dtype=np.float64)
    scores = xp.full(n, 1.0 / n) if start is None else xp.array(start, dtype=np.float64)
    iterations = 0
    while True:
        spread = alpha * float(scores[dangling].sum()) + (1.0 - alpha)
        fresh = alpha * product(scores / divisor, True)
        fresh += spread / n if teleport is None else spread * teleport
        change = float(xp.abs(fresh - scores).sum())
        scores = fresh
        iterations += 1
        if change < tol or iterations >= max_iter:
            break
    return scores, iterations < max_iter
