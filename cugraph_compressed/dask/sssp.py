"""Single-source shortest paths over a multi-worker graph, as ``cugraph.dask.sssp``.

Label-correcting rounds, the single host version's frontier relaxation spread over the
workers: each worker takes the distances proposed to its vertices (the smallest per vertex,
ties to the smallest proposer), keeps those that improve, and relaxes the out-lists of the
improved vertices, proposing each neighbour's best candidate to its owner.  Distances are
computed in float64 and a candidate counts only while, rounded to the weight dtype, it is
below the cutoff and the dtype's largest finite value (:func:`distance_bound`), as in the
single graph: the distances are equal to its.
"""
from __future__ import annotations

import numpy as np

from .._backend import to_host
from ..algorithms.sssp import check_arguments, distance_bound
from .exchange import State, merged, smallest_per_vertex, to_user
from .graph import check_graph, result_frame, seed, to_internal

MESSAGE_DTYPES = (np.int64, np.float64, np.int64)  # vertex, candidate distance, proposer


def _bad_weights(partition):
    """``(count, first)`` of this rank's negative or NaN weights (slot order)."""
    weights = partition.adjacency.weights
    bad = (weights < 0) | (weights != weights)
    count = int(bad.sum())
    return count, float(to_host(weights[int(bad.argmax())])) if count else None


def _round(partition, state, args, *inbox):
    (limit,) = args
    xp = partition.xp
    if state is None:
        data = {"dist": xp.full(partition.size, np.inf),
                "pred": xp.full(partition.size, -1, dtype=np.int64)}
    else:
        data = state.data
    dist, pred = data["dist"], data["pred"]
    vertices, candidates, proposers = merged(xp, inbox, MESSAGE_DTYPES)
    local = vertices - partition.v0
    pick = smallest_per_vertex(xp, local, candidates, proposers)
    local, candidates, proposers = local[pick], candidates[pick], proposers[pick]
    better = candidates < dist[local]
    local = local[better]
    dist[local] = candidates[better]
    pred[local] = proposers[better]
    outbox = [None] * partition.parts
    if local.size:
        frontier = local + partition.v0
        owner, neighbours, positions = partition.decode(frontier)
        weights = partition.adjacency.weights
        # float64 sums may overflow to inf, float32 lengths round to inf in the cast: both are
        # paths too long to count, not errors.
        with np.errstate(over="ignore"):
            candidate = dist[local][owner] + weights[positions].astype(np.float64)
            held = candidate.astype(weights.dtype) < limit
        # Candidates not below an own neighbour's distance would be dropped by this rank's
        # next step; every smallest candidate it would take stays.
        held &= ~partition.settled(neighbours, lambda v, c: c >= dist[v], candidate)
        neighbours, candidate = neighbours[held], candidate[held]
        proposer = frontier[owner[held]]
        best = smallest_per_vertex(xp, neighbours, candidate, proposer)
        outbox = partition.route(neighbours[best], candidate[best], proposer[best])
    sent = sum(int(m[0].size) for m in outbox if m is not None)
    return State(data=data, outbox=outbox, report=sent)


def _result(partition, state, dtype, *answers):
    dist = state.data["dist"].astype(dtype)
    dist[dist == np.inf] = np.finfo(dist.dtype).max  # cuGraph's "unreachable"
    return partition.vertex_frame({"distance": dist,
                                   "predecessor": to_user(partition, state, "pred", answers)})


def sssp(input_graph, source, cutoff=None, check_source=True):
    """Shortest path distances from ``source`` over non-negative weights
    (``cugraph.dask.sssp``).

    Parameters
    ----------
    input_graph : cugraph_compressed.dask.CompressedGraph
        A weighted graph.
    source : vertex id
        The start vertex (user ids).
    cutoff : float, optional
        Vertices at distance ``>= cutoff`` are reported unreachable, compared in the weight
        dtype as the single graph's ``sssp`` compares them.
    check_source : bool
        Kept for cuGraph's signature: the source is always checked.

    Returns
    -------
    dask.dataframe.DataFrame
        One partition per worker, columns ``vertex``, ``distance`` (the weight dtype;
        unreachable = its largest finite value) and ``predecessor`` (-1 for the source and
        unreachable vertices).

    Raises
    ------
    RuntimeError
        The graph has no weights.
    ValueError
        A source not in the graph, several sources, negative or NaN weights, a negative or NaN
        cutoff.
    """
    G = check_graph(input_graph)
    check_arguments(G.is_weighted(), source, cutoff)
    workers = G.workers
    bad = workers.gather(workers.each(_bad_weights))
    total = sum(count for count, _ in bad)
    if total:
        first = next(value for count, value in bad if count)
        raise ValueError(f"sssp needs non-negative weights; found weight {first!r} "
                         f"({total} negative or NaN weight(s) in all)")
    start = to_internal(G, [source], "source")
    limit = distance_bound(cutoff, np.dtype(G.weight_dtype))
    seeds = seed(G, start, np.zeros(1), np.full(1, -1, dtype=np.int64))
    states, sent, inboxes = workers.round(_round, [None] * workers.size, seeds, limit,
                                          dtypes=MESSAGE_DTYPES)
    while sum(sent):
        states, sent, inboxes = workers.round(_round, states, inboxes, limit,
                                              dtypes=MESSAGE_DTYPES)
    states, answers = workers.user_ids(states, "pred", G.renumbered)
    parts = [workers.submit(r, _result, workers.partitions[r], states[r], G.weight_dtype,
                            *answers[r])
             for r in range(workers.size)]
    return result_frame(workers, parts)
