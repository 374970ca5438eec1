"""PageRank over a multi-worker graph, as ``cugraph.dask.pagerank``.

The single graph's iteration (:func:`cugraph_compressed.algorithms.pagerank.pagerank_host`),
pushed over each worker's out-lists: a worker decodes its lists once, and in every round
divides its vertices' scores by their out-weights, sums the shares per target and sends each
owner the sums for its vertices; the owner adds them up with the teleport term.  The driver
gathers two numbers per worker and round (its part of the L1 change and of the dangling mass)
and stops, as the single graph does, when the change is below ``tol`` or after ``max_iter``
rounds.  Scores are float64 (cuGraph's dtype in the frame); sums are added in another order
than on one graph, so scores agree to rounding, not bit for bit.
"""
from __future__ import annotations

import warnings

import numpy as np

from .._args import check_bool, check_number
from ..algorithms.pagerank import TRANSPOSED_WARNING, _failed_to_converge_error, check_weights
from .exchange import State, merged
from .graph import check_graph, result_frame

MESSAGE_DTYPES = (np.int64, np.float64)  # target vertex, summed shares


def _start(partition, state, args):
    """Decode the lists once: per edge its owner and weight, and the distinct targets grouped
    by owning rank; the start scores ``1 / n``."""
    (n,) = args
    xp = partition.xp
    check_weights(partition.adjacency)
    owner, neighbours, positions = partition.decode(
        xp.arange(partition.v0, partition.v1, dtype=np.int64))
    weights = partition.adjacency.weights
    w = xp.ones(owner.size) if weights is None else weights[positions].astype(np.float64)
    out_weight = xp.bincount(owner, weights=w, minlength=partition.size)
    targets, inverse = xp.unique(neighbours, return_inverse=True)
    data = {"owner": owner, "w": w, "targets": targets, "inverse": inverse.ravel(),
            "dangling": out_weight == 0, "divisor": xp.where(out_weight == 0, 1.0, out_weight),
            "scores": xp.full(partition.size, 1.0 / n)}
    return _push(partition, data, 0.0)


def _push(partition, data, change):
    """The outbox of the scores in ``data``: per rank, its targets and the summed shares."""
    xp = partition.xp
    scaled = data["scores"] / data["divisor"]
    sums = xp.bincount(data["inverse"], weights=scaled[data["owner"]] * data["w"],
                       minlength=data["targets"].size)
    outbox = partition.route(data["targets"], sums)
    mass = float(data["scores"][data["dangling"]].sum())
    return State(data=data, outbox=outbox, report=(change, mass))


def _iterate(partition, state, args, *inbox):
    alpha, spread, n = args
    xp = partition.xp
    data = state.data
    vertices, sums = merged(xp, inbox, MESSAGE_DTYPES)
    fresh = alpha * xp.bincount(vertices - partition.v0, weights=sums,
                                minlength=partition.size)
    fresh += spread / n
    change = float(xp.abs(fresh - data["scores"]).sum())
    data["scores"] = fresh
    return _push(partition, data, change)


def _result(partition, state, dtype):
    return partition.vertex_frame({"pagerank": state.data["scores"].astype(dtype)})


def pagerank(input_graph, alpha=0.85, personalization=None, precomputed_vertex_out_weight=None,
             max_iter=100, tol=1.0e-5, nstart=None, fail_on_nonconvergence=True):
    """PageRank scores of every vertex (``cugraph.dask.pagerank``).

    Parameters
    ----------
    input_graph : cugraph_compressed.dask.CompressedGraph
        The graph.
    alpha : float
        Damping factor, in [0, 1].
    personalization, precomputed_vertex_out_weight, nstart : None
        Not supported by the multi-worker graph (NotImplementedError when given).
    max_iter : int
        Iteration limit.
    tol : float
        Convergence threshold on the L1 change between iterations.
    fail_on_nonconvergence : bool
        Raise ``FailedToConvergeError`` when not converged; False returns ``(ddf, converged)``.

    Returns
    -------
    dask.dataframe.DataFrame or (dask.dataframe.DataFrame, bool)
        One partition per worker, columns ``vertex`` and ``pagerank`` (float64 for float64
        weights, else float32, as the single graph).

    Raises
    ------
    RuntimeError
        ``alpha`` outside [0, 1] or a negative ``tol`` (cuGraph's types).
    ValueError
        NaN edge weights.
    FailedToConvergeError
        Not converged and ``fail_on_nonconvergence`` is True.
    """
    G = check_graph(input_graph)
    for name, value in (("personalization", personalization), ("nstart", nstart),
                        ("precomputed_vertex_out_weight", precomputed_vertex_out_weight)):
        if value is not None:
            raise NotImplementedError(f"{name} is not supported by the multi-worker pagerank; "
                                      "leave it None")
    if not G.store_transposed:
        warnings.warn(TRANSPOSED_WARNING, UserWarning, stacklevel=2)
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
    workers = G.workers
    n = G.number_of_vertices()
    dtype = np.dtype(np.float64 if G.weight_dtype == np.float64 else np.float32)
    converged = True
    if n:
        empty = [[] for _ in range(workers.size)]
        states, reports, inboxes = workers.round(_start, [None] * workers.size, empty, n,
                                                 dtypes=MESSAGE_DTYPES)
        iterations = 0
        while True:
            spread = alpha * sum(mass for _, mass in reports) + (1.0 - alpha)
            states, reports, inboxes = workers.round(_iterate, states, inboxes, alpha, spread,
                                                     n, dtypes=MESSAGE_DTYPES)
            iterations += 1
            if sum(change for change, _ in reports) < tol or iterations >= max_iter:
                break
        converged = iterations < max_iter
        parts = [workers.submit(r, _result, workers.partitions[r], states[r], dtype)
                 for r in range(workers.size)]
    else:
        parts = [workers.submit(r, _empty_result, workers.partitions[r], dtype)
                 for r in range(workers.size)]
    result = result_frame(workers, parts)
    if fail_on_nonconvergence:
        if not converged:
            raise _failed_to_converge_error()(
                f"pagerank did not converge to tol={tol} within max_iter={max_iter} iterations")
        return result
    return result, bool(converged)


def _empty_result(partition, dtype):
    return partition.vertex_frame({"pagerank": partition.xp.zeros(0, dtype=dtype)})
