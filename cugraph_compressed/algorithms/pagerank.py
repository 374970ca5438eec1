"""PageRank, cuGraph's ``pagerank`` on a CompressedGraph.

The iteration is cuGraph's: start from ``1/N`` (or ``nstart`` as given), divide each vertex's
score by its out-weight, collect the mass of dangling vertices (out-weight 0) and hand it back
with the teleport term, uniformly or by the normalized personalization; stop when the L1
change drops below ``tol``.  As in cuGraph, ``converged`` means the loop stopped before
``max_iter`` iterations.  The host version computes in float64; the device version sums in
float64 and stores each vertex's share (score / out-weight) in float32, as cuGraph iterates,
unless the weights are float64 or ``tol`` is finer than float32 can resolve.  Results come
back in cuGraph's dtype (float64 for float64 weights, else float32).
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from .._args import check_bool, check_number
from .._backend import to_host
from ..graph_view import ANY
from ..kernels import grid_size, resident_blocks
from ..kernels.traversal import BLOCK, Module, Traversal
from ._weights import graph_bad_weights
from .registry import ALGORITHMS, front_door

TRANSPOSED_WARNING = ("Pagerank expects the 'store_transposed' flag to be set to 'True' for "
                      "optimal performance during the graph creation")


class FailedToConvergeError(Exception):
    """PageRank did not converge within ``max_iter`` iterations.

    Where cuGraph is installed, ``cugraph.exceptions.FailedToConvergeError`` is raised instead
    (it subclasses neither), so existing ``except`` clauses keep working.
    """


def _failed_to_converge_error():
    try:
        from cugraph.exceptions import FailedToConvergeError as cugraph_error
    except ImportError:
        return FailedToConvergeError
    return cugraph_error


def _dense(G, frame, column, what, non_negative=False):
    """A float64 host vector over all vertices from a (vertex, column) frame; 0 where absent.

    ValueError names the first vertex listed twice (which value would win is not defined), the
    first NaN or infinite value and, with ``non_negative``, the first negative one."""
    if frame is None:
        return None
    columns = getattr(frame, "columns", ())
    if "vertex" not in columns or column not in columns:
        raise ValueError(f"{what} must be a DataFrame with columns 'vertex' and '{column}'")
    vector = np.zeros(G.num_vertices)
    if len(frame):
        ids = to_host(G.ids.to_internal(frame["vertex"], f"{what}")).astype(np.int64)
        values = frame[column]
        values = values.to_numpy() if hasattr(values, "to_numpy") else np.asarray(values)
        values = to_host(values).astype(np.float64)

        def vertex(row):
            value = frame["vertex"].iloc[int(row)]
            return value.item() if hasattr(value, "item") else value

        order = np.argsort(ids, kind="stable")
        repeated = order[1:][ids[order[1:]] == ids[order[:-1]]]
        if repeated.size:
            raise ValueError(f"{what} lists vertex {vertex(repeated.min())!r} more than once; "
                             "give each vertex one value")
        bad = ~np.isfinite(values) | ((values < 0) if non_negative else False)
        if bad.any():
            row = int(np.argmax(bad))
            need = "a finite, non-negative number" if non_negative else "a finite number"
            raise ValueError(f"{what} gives vertex {vertex(row)!r} the value "
                             f"{float(values[row])!r}; each '{column}' must be {need}")
        vector[ids] = values
    return vector


def check_weights(adjacency) -> None:
    """ValueError naming the first NaN weight: no iteration converges through one."""
    weights = adjacency.weights
    if weights is None:
        return
    count, first = graph_bad_weights(adjacency)
    if count:
        raise ValueError(f"pagerank cannot converge with NaN edge weights: {count} "
                         f"weight(s) are NaN, the first at stored edge {first}")


def finite_out_weights(out_weight, xp):
    """``out_weight``, after a ValueError when a vertex's sum of weights is not finite (an
    infinite weight, opposite infinities, or a float64 overflow): its share would be 0 or NaN
    and the scores would silently stop summing to 1."""
    if not bool(xp.isfinite(out_weight).all()):
        raise ValueError("a vertex's out-weight (the sum of its out-edges' weights) is "
                         "infinite or NaN: an infinite weight, or weights this large that "
                         "their float64 sum overflows; scale them down")
    return out_weight


def out_weights_host(owner, weights, n):
    """Each vertex's out-weight (float64): the sum of the weights of its out-edges."""
    return finite_out_weights(np.bincount(owner, weights=weights, minlength=n), np)


#: What the latest PageRank run of this process did: ``iterations``, the passes over every
#: list (the benchmark's read counts multiply one pass by it; nothing else reads it).
LAST_RUN: dict = {}


def pagerank_host(adjacency, alpha, teleport, start, out_weight, max_iter, tol):
    """cuGraph's PageRank iteration over the layout's host decoder (lists decoded once), on
    whichever lists the graph holds.

    The out-weights (float64) are computed on the first call without
    ``precomputed_vertex_out_weight`` and kept on the graph (``Adjacency.derive``).
    Returns float64 scores and whether the loop stopped before ``max_iter`` iterations.
    """
    layout, weights = adjacency.layout, adjacency.weights
    n = layout.num_vertices
    if n == 0:
        return np.zeros(0), True
    owner, neighbours, positions = layout.to_coo()
    if adjacency.in_lists:
        owner, neighbours = neighbours, owner
    w = np.ones(owner.size) if weights is None else to_host(weights)[positions].astype(np.float64)
    if out_weight is None:
        out_weight = adjacency.derive(("pagerank", "out_weight"),
                                      lambda: out_weights_host(owner, w, n))
    dangling = out_weight == 0
    divisor = np.where(dangling, 1.0, out_weight)
    scores = np.full(n, 1.0 / n) if start is None else start.copy()
    iterations = 0
    while True:
        scaled = scores / divisor
        spread = alpha * scores[dangling].sum() + (1.0 - alpha)
        fresh = alpha * np.bincount(neighbours, weights=scaled[owner] * w, minlength=n)
        fresh += spread / n if teleport is None else spread * teleport
        change = np.abs(fresh - scores).sum()
        scores = fresh
        iterations += 1
        if change < tol or iterations >= max_iter:
            break
    LAST_RUN["iterations"] = iterations
    return scores, iterations < max_iter


#: Shares in the weight type, or in float64 (``_share_dtype``): a name per pass and width.
MODULE = Module(Path(__file__).with_name("pagerank.cu"), {
    "spmv": ("pagerank_spmv<{view}, {vertex}, {weight}, {weight}, false>", True, True),
    "spmv_warps": ("pagerank_spmv<{view}, {vertex}, {weight}, {weight}, true>", True, True),
    "spmv_wide": ("pagerank_spmv<{view}, {vertex}, {weight}, double, false>", True, True),
    "spmv_warps_wide": ("pagerank_spmv<{view}, {vertex}, {weight}, double, true>", True, True),
    "update": ("pagerank_update<{weight}>", True, False),
    "scores": ("pagerank_scores", False, False),
})
ITEM_RANKS = 32  # ranks per work item: one owner read and, pulling a longer list, one atomic


def _share_dtype(weight_dtype, tol):
    """float32 shares unless the weights are float64 or ``tol`` lies below float32's epsilon:
    rounding each share to float32 moves the L1 change by up to about alpha * 6e-8, so finer
    tolerances could never be met."""
    if weight_dtype == np.float64 or tol < np.finfo(np.float32).eps:
        return np.dtype(np.float64)
    return np.dtype(np.float32)


def out_weights_device(spmv, n, share_dtype, in_lists):
    """Each vertex's out-weight (float64) on the GPU: PageRank's product with every share 1,
    summing each vertex's out-edges (a pull over out-lists, a push over in-lists)."""
    import cupy as cp

    out_weight = cp.zeros(n, dtype=cp.float64)
    spmv(cp.ones(n, dtype=share_dtype), not in_lists, out_weight)
    return finite_out_weights(out_weight, cp)


def inverse_out_weights(out_weight, share_dtype):
    """The reciprocals of float64 device out-weights in the share dtype, NaN where dangling
    (out-weight 0); ``out_weight`` is overwritten."""
    import cupy as cp

    cp.copyto(out_weight, np.nan, where=out_weight == 0)  # dangling: NaN through reciprocal
    return cp.reciprocal(out_weight, out=out_weight).astype(share_dtype)


def pagerank_device(adjacency, alpha, teleport, start, out_weight, max_iter, tol):
    """cuGraph's PageRank iteration on the GPU over the layout's device view; returns (float64
    scores, converged).

    In-lists (``store_transposed``) and symmetric lists (undirected graphs) pull: each vertex
    sums its sources' shares, with a plain store when its list is one work item.  A directed
    graph stored as out-lists pushes each share to its target with an atomic add.

    Per vertex the iteration holds two products, this iteration's and the last one (float64:
    every sum, the L1 change and the dangling mass are float64; a score is never stored but
    made from its product as alpha * product + teleport, again for the last one when the
    change is measured, so it is the same double), each vertex's share (score / out-weight)
    and the reciprocal of its out-weight (NaN: dangling) in float32 (cuGraph's precision;
    float64 for float64 weights or a ``tol`` below float32's epsilon, ``_share_dtype``), and
    one int64 scan of the short lists' work items: 32 bytes (40 with float64 shares), plus 8
    with a personalization.  After each product one kernel (``pagerank_update``) reads the
    two products, the reciprocal and any personalization, and writes the share and a zero
    over the last product (the next one's output): 32 bytes a vertex with float32 shares,
    one atomic per block for each of its two sums and one read of both on the host, which the
    convergence test needs.

    The reciprocal out-weights (summed in float64, kept in the share dtype: float32, or
    float64 as above) are computed by the first call without
    ``precomputed_vertex_out_weight`` and kept on the graph (``Adjacency.derive``; 4 bytes a
    vertex, 8 in float64) for later calls with the same share dtype, until its structure
    changes (a rebuild, or a re-orientation for BFS or SSSP).  Out-weights given by the call
    are used for that call only.

    Each product runs in the launches of ``list_passes``: short lists one item per thread,
    long lists one item per warp (pulling, its lanes' sums are reduced by shuffles and added
    with one atomic per warp item, or stored where the item is the whole list), whose pass
    holds a scan over the long lists only.
    Float64 sums of long lists are thus added in another order than one thread would.
    """
    import cupy as cp

    layout, weights, in_lists = adjacency.layout, adjacency.weights, adjacency.in_lists
    n = layout.num_vertices
    if n == 0:
        return np.zeros(0), True
    vtype = adjacency.vertex_dtype
    run = Traversal(layout, vtype, adjacency.config)
    weighted = weights is not None
    wtype = np.dtype(weights.dtype) if weighted else np.dtype(np.float32)
    w = weights if weighted else cp.zeros(1, dtype=wtype)
    stype = _share_dtype(wtype, tol)
    wide = "_wide" if stype != wtype else ""
    passes = []  # (kernel, vertices, count, scan, total, item size, per warp): every product
    for name, (item_size, degrees, per_warp) in zip(("spmv", "spmv_warps"),
                                                    run.passes(ITEM_RANKS)):
        # The warp pass meets few lists: its scan runs over those only.
        members = run.members(item_size, degrees) if per_warp else None
        count = n if members is None else members.size
        scan, total = run.items(members, count, item_size, degrees)
        passes.append((run.kernel(MODULE, name + wide, weight=wtype), members, count, scan, total,
                       item_size, per_warp))

    def spmv(shares, pull, out):
        for kernel, members, count, scan, total, item_size, per_warp in passes:
            run.launch(kernel, members, count, scan, total, item_size,
                       np.int32(members is None), w, np.int32(weighted), shares,
                       np.int32(pull), out, per_warp=per_warp)

    pull = in_lists or adjacency.symmetric
    if out_weight is None:
        inverse = adjacency.derive(("pagerank", "inverse_out_weight", stype.str),
                                   lambda: inverse_out_weights(
                                       out_weights_device(spmv, n, stype, in_lists), stype))
    else:
        inverse = inverse_out_weights(cp.asarray(out_weight, dtype=cp.float64), stype)
    personalized = np.int32(teleport is not None)
    # The products' two buffers: the one the next product adds to and the last one, from which
    # the update makes the last scores again (pagerank.cu: scores are never stored).  The
    # start scores enter as a product made with alpha 1 and no teleport.
    product = cp.full(n, 1.0 / n) if start is None else cp.array(start, dtype=cp.float64)
    before = cp.zeros(n, dtype=cp.float64)
    # Read only when personalized.
    personal = product if teleport is None else cp.asarray(teleport, dtype=cp.float64)
    shares = cp.empty(n, dtype=stype)
    # Two (L1 change, dangling mass) pairs used in turn: each update adds to one and zeroes
    # the other, the next update's.
    sums = cp.zeros(4, dtype=cp.float64)
    pairs = (sums[:2], sums[2:])
    update, scores = MODULE.kernel("update", weight=stype), MODULE.kernel("scores")
    # As many blocks as the GPU holds at once, striding over the vertices: every block ends in
    # a reduction and one atomic per sum, which a block per 256 vertices would pay n / 256
    # times on the same two words.
    grid = ((min(grid_size(n, BLOCK), resident_blocks(update, BLOCK)),), (BLOCK,))

    def finish(k, step, last):
        """Update ``k`` of the scores made by ``step`` (alpha, spread) from ``product``
        against those made by ``last`` from ``before``: their L1 change and dangling mass."""
        update(*grid, (product, before, inverse, personal, personalized, *map(np.float64, step),
                       *map(np.float64, last), np.int64(n), shares, pairs[k % 2],
                       pairs[1 - k % 2]))
        return (float(x) for x in pairs[k % 2].get())

    step = (1.0, 0.0)  # the start scores: alpha 1, no teleport
    _, mass = finish(0, step, (0.0, 0.0))  # against zeros: the change means nothing
    iterations = 0
    while True:
        product, before = before, product  # the update zeroed `before`: the next output
        spmv(shares, pull, product)
        last, step = step, (alpha, alpha * mass + (1.0 - alpha))
        iterations += 1
        change, mass = finish(iterations, step, last)
        if change < tol or iterations >= max_iter:
            break
    scores(*grid, (product, personal, personalized, *map(np.float64, step), np.int64(n)))
    LAST_RUN["iterations"] = iterations
    return product, iterations < max_iter


def finish(result, converged, tol, max_iter, fail_on_nonconvergence):
    """What a PageRank front door returns: ``result``, raising FailedToConvergeError when it
    did not converge and ``fail_on_nonconvergence``; else ``(result, converged)``."""
    if fail_on_nonconvergence:
        if not converged:
            raise _failed_to_converge_error()(
                f"pagerank did not converge to tol={tol} within max_iter={max_iter} iterations")
        return result
    return result, bool(converged)


def vertex_inputs(G, personalization, nstart, precomputed_vertex_out_weight, has_edges: bool):
    """PageRank's per-vertex inputs as dense float64 vectors over ``G``'s vertices (None where
    not given), checked as cuGraph checks them: ``(teleport, start, out_weight)``, the
    personalization normalized to sum 1.  ``G`` is what :func:`_dense` reads (a graph view,
    or the Dask graph's vertex lookup); every PageRank front door calls it."""
    teleport = _dense(G, personalization, "values", "personalization", non_negative=True)
    if teleport is not None:
        if len(personalization) == 0:
            raise RuntimeError("Invalid input argument: the personalization vector should not "
                               "be empty")
        largest = teleport.max()
        if not largest > 0:
            raise RuntimeError(f"Invalid input argument: sum of personalization values should be "
                               f"positive, got {teleport.sum()}")
        teleport = teleport / largest  # first: a sum of values near the largest float is inf
        teleport /= teleport.sum()
    start = _dense(G, nstart, "values", "nstart")
    out_weight = _dense(G, precomputed_vertex_out_weight, "sums",
                        "precomputed_vertex_out_weight", non_negative=True)
    if out_weight is not None and has_edges and not out_weight.any():
        raise ValueError("precomputed_vertex_out_weight gives every vertex an out-weight of 0: "
                         "every vertex would be dangling while its edges still pass on its "
                         "score, so the iteration cannot converge")
    return teleport, start, out_weight


def check_arguments(store_transposed, alpha, tol, max_iter, fail_on_nonconvergence):
    """PageRank's scalar arguments checked as cuGraph checks them (its error types), and the
    warning for a graph not stored transposed; every PageRank front door calls it.

    Returns
    -------
    tuple
        ``(alpha, tol, fail_on_nonconvergence)`` as numbers and a bool.
    """
    if not store_transposed:
        warnings.warn(TRANSPOSED_WARNING, UserWarning, stacklevel=3)
    alpha, tol = check_number("alpha", alpha), check_number("tol", tol)
    fail_on_nonconvergence = check_bool("fail_on_nonconvergence", fail_on_nonconvergence)
    if not 0.0 <= alpha <= 1.0:
        raise RuntimeError(f"Invalid input argument: alpha should be in [0.0, 1.0], got {alpha!r}")
    if not tol >= 0.0:
        raise RuntimeError("Invalid input argument: epsilon (tol) should be non-negative, "
                           f"got {tol!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)):
        raise TypeError(f"max_iter must be an int, got {max_iter!r}")
    if max_iter < 0:
        raise OverflowError(f"max_iter={max_iter} is negative; it must be >= 0")
    return alpha, tol, fail_on_nonconvergence


@front_door("pagerank", host=pagerank_host, device=pagerank_device, orientation=ANY,
            check=check_weights, transposed=True)
def pagerank(G, alpha=0.85, personalization=None, precomputed_vertex_out_weight=None,
             max_iter=100, tol=1.0e-5, nstart=None, dangling=None, fail_on_nonconvergence=True):
    """PageRank scores of every vertex.

    Parameters
    ----------
    G : CompressedGraph or cugraph.Graph
        The graph; anything that is not a CompressedGraph goes to cuGraph.
    alpha : float
        Damping factor, in [0, 1].
    personalization : DataFrame, optional
        Columns ``vertex`` and ``values``: the teleport distribution (normalized here).
    precomputed_vertex_out_weight : DataFrame, optional
        Columns ``vertex`` and ``sums``: out-weights to use instead of computing them
        (without them, the first call computes them and the graph keeps them for later calls).
    max_iter : int
        Iteration limit.
    tol : float
        Convergence threshold on the L1 change between iterations.
    nstart : DataFrame, optional
        Columns ``vertex`` and ``values``: the start vector, used as given (missing vertices 0).
    dangling : None
        Ignored, as in cuGraph (NetworkX compatibility).
    fail_on_nonconvergence : bool
        Raise ``FailedToConvergeError`` when not converged; False returns ``(df, converged)``.

    Returns
    -------
    DataFrame or (DataFrame, bool)
        Columns ``vertex`` and ``pagerank``.

    Raises
    ------
    RuntimeError
        ``alpha`` outside [0, 1], negative ``tol``, an empty personalization or one summing
        to zero (cuGraph's types).
    ValueError
        A personalization, nstart or out-weight vertex that is not in the graph.
    FailedToConvergeError
        Not converged and ``fail_on_nonconvergence`` is True (cuGraph's class when installed).
    """
    alpha, tol, fail_on_nonconvergence = check_arguments(
        G.store_transposed, alpha, tol, max_iter, fail_on_nonconvergence)
    dtype = np.dtype(np.float64 if G.weight_dtype == np.float64 else np.float32)
    teleport, start, out_weight = vertex_inputs(
        G, personalization, nstart, precomputed_vertex_out_weight, G.num_edges > 0)
    scores, converged = ALGORITHM.run(G, float(alpha), teleport, start, out_weight,
                                      int(max_iter), float(tol))
    result = G.ids.vertex_frame({"pagerank": scores.astype(dtype)})
    return finish(result, converged, tol, max_iter, fail_on_nonconvergence)


ALGORITHM = ALGORITHMS["pagerank"]
