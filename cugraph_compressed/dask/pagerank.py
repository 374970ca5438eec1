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

import numpy as np

from .. import _backend
from ..algorithms.pagerank import (
    check_arguments,
    check_weights,
    finish,
    finite_out_weights,
    vertex_inputs,
)
from .exchange import State, merged
from .graph import check_graph, result_frame, to_internal

MESSAGE_DTYPES = (np.int64, np.float64)  # target vertex, summed shares


def _start(partition, state, args, given):
    """Decode the lists once: per edge its owner and weight, and the distinct targets grouped
    by owning rank; the start scores.  ``given``: this rank's slices of the teleport, start
    and out-weight vectors the caller gave (``None`` where not given)."""
    (n,) = args
    xp = partition.xp
    check_weights(partition.adjacency)
    owner, neighbours, positions = partition.decode(
        xp.arange(partition.v0, partition.v1, dtype=np.int64))
    weights = partition.adjacency.weights
    w = xp.ones(owner.size) if weights is None else weights[positions].astype(np.float64)
    teleport, start, out_weight = (None if v is None else xp.asarray(v, dtype=np.float64)
                                   for v in given)
    if out_weight is None:
        out_weight = finite_out_weights(xp.bincount(owner, weights=w, minlength=partition.size),
                                        xp)
    targets, inverse = xp.unique(neighbours, return_inverse=True)
    data = {"owner": owner, "w": w, "targets": targets, "inverse": inverse.ravel(),
            "dangling": out_weight == 0, "divisor": xp.where(out_weight == 0, 1.0, out_weight),
            "teleport": teleport,
            "scores": xp.full(partition.size, 1.0 / n) if start is None else start}
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
    fresh += spread / n if data["teleport"] is None else spread * data["teleport"]
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
    personalization : DataFrame, optional
        Columns ``vertex`` and ``values``: the teleport distribution (normalized here).
    precomputed_vertex_out_weight : DataFrame, optional
        Columns ``vertex`` and ``sums``: out-weights to use instead of summing them.
    nstart : DataFrame, optional
        Columns ``vertex`` and ``values``: the start vector (missing vertices 0).
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
        ``alpha`` outside [0, 1], a negative ``tol``, an empty personalization or one summing
        to zero (cuGraph's types).
    ValueError
        NaN edge weights; an out-weight that is not finite; a personalization, nstart or
        out-weight vertex that is not in the graph, listed twice, or with a NaN (or negative)
        value.
    FailedToConvergeError
        Not converged and ``fail_on_nonconvergence`` is True.

    Notes
    -----
    The three per-vertex inputs (pandas, cuDF or Dask frames) are checked on the driver as the
    single graph checks them, into one float64 vector over all vertices, and each worker is
    sent its range's slice.
    """
    G = check_graph(input_graph)
    alpha, tol, fail_on_nonconvergence = check_arguments(
        G.store_transposed, alpha, tol, max_iter, fail_on_nonconvergence)
    workers = G.workers
    n = G.number_of_vertices()
    dtype = np.dtype(np.float64 if G.weight_dtype == np.float64 else np.float32)
    vertices = _Vertices(G)
    teleport, start, out_weight = vertex_inputs(
        vertices, _local(personalization), _local(nstart),
        _local(precomputed_vertex_out_weight), G.number_of_edges(directed_edges=True) > 0)
    converged = True
    if n:
        given = [[tuple(None if v is None else v[v0:v1] for v in (teleport, start, out_weight))]
                 for v0, v1 in G.vertex_ranges]  # each rank gets its slices
        states, reports, inboxes = workers.round(_start, [None] * workers.size, given, n,
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
    return finish(result, converged, tol, max_iter, fail_on_nonconvergence)


class _Vertices:
    """What the single graph's ``_dense`` reads of a graph (its vertex count and id lookup),
    for the multi-worker graph: the per-vertex inputs are checked and spread there, then cut
    into the ranks' slices."""

    def __init__(self, G):
        self.num_vertices = G.number_of_vertices()
        self.ids = self
        self._graph = G

    def to_internal(self, values, what):
        return to_internal(self._graph, values, what)


def _local(frame):
    """A per-vertex input frame on the driver: Dask frames computed, cuDF ones to pandas."""
    if frame is None:
        return None
    if hasattr(frame, "compute") and hasattr(frame, "npartitions"):
        frame = frame.compute()
    return frame.to_pandas() if _backend.is_cudf_object(frame) else frame


def _empty_result(partition, dtype):
    return partition.vertex_frame({"pagerank": partition.xp.zeros(0, dtype=dtype)})
