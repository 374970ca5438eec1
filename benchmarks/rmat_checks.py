"""Checks of BFS, connected components and PageRank results by their definitions, over edges
regenerated chunk by chunk, for graphs no reference library can hold.

Written apart from the product on purpose: nothing here imports ``cugraph_compressed``.  The
edges come as a callable returning a fresh iterable of ``(u, v)`` CuPy arrays (duplicates and
self loops included, as generated); results come as dense CuPy arrays indexed by vertex id.

* :func:`check_bfs`: the source at distance 0; over every edge (both directions when
  undirected) ``dist[v] <= dist[u] + 1`` whenever ``u`` is reached; every other reached vertex
  has a predecessor ``p`` with an edge ``p -> v`` and ``dist[p] + 1 == dist[v]``; unreached
  vertices have predecessor -1.
* :func:`check_components`: equal labels across every edge, and as many distinct labels as an
  independent union-find over the same edges finds components.  Together: the same partition.
* :func:`pagerank_residual`: the L1 distance between the scores and one more PageRank step
  computed from the deduplicated edges (source range by source range, so each range holds
  every out-edge of its sources and out-degrees are exact).

The same functions run on NumPy arrays (the CPU tests check the checks against SciPy).
"""
import numpy as np


def _xp(array):
    """NumPy or CuPy, whichever holds ``array``."""
    if isinstance(array, np.ndarray):
        return np
    import cupy

    return cupy


def _scatter(op, target, index, values):
    """``target[index] = op(target[index], values)``, repeated indices included."""
    if isinstance(target, np.ndarray):
        getattr(np, {"min": "minimum", "add": "add"}[op]).at(target, index, values)
    else:
        import cupyx

        getattr(cupyx, f"scatter_{op}")(target, index, values)


def _directions(edges, undirected):
    """Every chunk's edges, and when undirected each one reversed as well."""
    for u, v in edges():
        yield u, v
        if undirected:
            yield v, u


def check_bfs(edges, dist, pred, source, unreached, undirected):
    """Problems found (a list of strings; empty when the BFS result is valid)."""
    xp, n = _xp(dist), dist.size
    problems = []
    if int(dist[source]) != 0 or int(pred[source]) != -1:
        problems.append(f"source {source}: distance {int(dist[source])}, "
                        f"predecessor {int(pred[source])}")
    reached = dist != unreached
    if bool((pred[~reached] != -1).any()):
        problems.append("an unreached vertex has a predecessor")
    found = xp.zeros(n, dtype=bool)
    found[source] = True
    too_far = 0
    for u, v in _directions(edges, undirected):
        du = dist[u].astype(np.int64)
        dv = dist[v].astype(np.int64)
        near = dist[u] != unreached
        too_far += int((near & (dv > du + 1)).sum())
        tree = near & (pred[v] == u) & (dv == du + 1)
        found[v[tree]] = True
    if too_far:
        problems.append(f"{too_far} edges u -> v with dist[v] > dist[u] + 1")
    orphans = int((reached & ~found).sum())
    if orphans:
        problems.append(f"{orphans} reached vertices without a valid predecessor edge")
    return problems


def union_find_components(edges, n, xp=np):
    """The number of connected components of the undirected graph on vertices ``0 .. n-1``:
    hook roots by the smaller id until every edge joins one root, compressing paths fully."""
    parent = xp.arange(n, dtype=np.int64 if n > 2**31 - 1 else np.int32)

    def compress():
        while True:
            grand = parent[parent]
            if bool((grand == parent).all()):
                return
            parent[:] = grand

    for u, v in edges():
        while True:
            compress()
            ru, rv = parent[u], parent[v]
            differ = ru != rv
            if not bool(differ.any()):
                break
            ru, rv = ru[differ], rv[differ]
            # Roots only, each hooked below itself: pointers decrease, so no cycle forms.
            _scatter("min", parent, xp.maximum(ru, rv), xp.minimum(ru, rv))
    return int((parent == xp.arange(n, dtype=parent.dtype)).sum())


def check_components(edges, labels):
    """Problems found (empty when ``labels`` is the partition into connected components)."""
    problems = []
    split = 0
    for u, v in edges():
        split += int((labels[u] != labels[v]).sum())
    if split:
        problems.append(f"{split} edges join different labels")
    ours = int(_xp(labels).unique(labels).size)
    theirs = union_find_components(edges, labels.size, _xp(labels))
    if ours != theirs:
        problems.append(f"{ours} labels, but union-find finds {theirs} components")
    return problems, theirs


def source_ranges(edges, n, undirected, range_edges, xp=np):
    """``[(lo, hi, ends)]``: consecutive source-vertex ranges covering ``0 .. n-1``, each
    holding ``ends`` <= ``range_edges`` edge ends (a vertex with more is a range of its own),
    so what one range deduplicates is bounded by edges, not vertices (R-MAT's hubs share the
    low ids).  ``xp``: the module of the edges' arrays."""
    # One n-long array, counted in place and then summed in place: a bincount per chunk
    # and a separate cumsum were two more 8.6 GB arrays at R-MAT 30.  Counted as uint64,
    # which every CuPy's scatter-add takes (int64 only from 14.1), then read as int64 (the
    # same bits: counts stay far below 2^63), so searchsorted compares like dtypes (NumPy
    # would compare a uint64 array with a Python int in float64, copying it per call).
    ends = xp.zeros(n, dtype=np.uint64)
    for u, _ in _directions(edges, undirected):
        _scatter("add", ends, u, np.uint64(1))
    xp.cumsum(ends, out=ends)
    ends = ends.view(np.int64)
    ranges, lo = [], 0
    while lo < n:
        before = int(ends[lo - 1]) if lo else 0
        hi = int(xp.searchsorted(ends, before + range_edges, side="right"))
        hi = min(max(hi, lo + 1), n)
        ranges.append((lo, hi, int(ends[hi - 1]) - before))
        lo = hi
    return ranges


def pagerank_residual(edges, scores, alpha, undirected, range_edges):
    """``(L1 residual, sum of scores)``: ``|| x - F(x) ||_1`` with ``F(x)[v] = (1 - alpha) / n
    + alpha * (sum over distinct edges u -> v of x[u] / outdeg(u) + dangling mass / n)``.

    Parallel edges are deduplicated by source range (:func:`source_ranges`: at most
    ``range_edges`` edge ends a range), so the memory it takes is a few times that many
    8-byte keys."""
    xp, n = _xp(scores), scores.size
    ranges = source_ranges(edges, n, undirected, range_edges, xp)
    x = scores.astype(np.float64, copy=False)
    step = xp.zeros(n, dtype=np.float64)
    dangling = 0.0
    bits = max(int(n - 1).bit_length(), 1)
    index = np.int32 if n <= 2**31 else np.int64  # a range's ends: half the bytes where ids fit
    for lo, hi, count in ranges:
        keys, filled = xp.empty(count, dtype=np.uint64), 0  # filled in place: no list to join
        for u, v in _directions(edges, undirected):
            keep = (u >= lo) & (u < hi)
            part = ((u[keep].astype(np.uint64) - np.uint64(lo)) << np.uint64(bits)) \
                | v[keep].astype(np.uint64)
            if filled + part.size > count:
                raise ValueError("the edges gave more ends on a later pass than on the first")
            keys[filled:filled + part.size] = part
            filled += part.size
            del part
        keys = xp.unique(keys[:filled])               # distinct edges of sources lo .. hi-1
        src = (keys >> np.uint64(bits)).astype(index)
        dst = (keys & np.uint64((1 << bits) - 1)).astype(index)
        del keys
        outdeg = xp.bincount(src, minlength=hi - lo)
        dangling += float(x[lo:hi][outdeg == 0].sum())
        share = x[lo:hi] / xp.maximum(outdeg, 1)
        _scatter("add", step, dst, share[src])
        del src, dst, outdeg, share
    step *= alpha
    step += (1.0 - alpha) / n + alpha * dangling / n
    step -= x  # in place: at R-MAT 30 each n-long float64 temporary is 8.6 GB
    return float(xp.abs(step, out=step).sum()), float(x.sum())
