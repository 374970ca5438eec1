"""Breadth-first search over a multi-worker graph, as ``cugraph.dask.bfs``.

Level-synchronous: in round ``L`` every worker takes the vertices proposed to it at distance
``L`` (each with the proposing predecessor), keeps those it had not reached, and decodes their
out-lists; each neighbour is proposed, with the smallest proposing vertex as its predecessor,
to the worker owning it.  The search ends when a round proposes nothing (or at
``depth_limit``).  Distances equal the single graph's; a predecessor is a vertex one level
closer with an edge to the vertex, as there.
"""
from __future__ import annotations

import numpy as np

from .._args import check_bool
from ..algorithms.bfs import vertex_sentinel
from .exchange import State, merged, smallest_per_vertex, to_user
from .graph import check_graph, result_frame, seed, to_internal

MESSAGE_DTYPES = (np.int64, np.int64)  # vertex, proposing predecessor


def _level(partition, state, args, *inbox):
    level, depth_limit = args
    xp, dtype = partition.xp, partition.vertex_dtype
    if state is None:
        data = {"dist": xp.full(partition.size, vertex_sentinel(dtype), dtype=dtype),
                "pred": xp.full(partition.size, -1, dtype=np.int64)}
    else:
        data = state.data
    dist, pred = data["dist"], data["pred"]
    vertices, proposers = merged(xp, inbox, MESSAGE_DTYPES)
    local = vertices - partition.v0
    fresh = dist[local] == vertex_sentinel(dtype)
    local, proposers = local[fresh], proposers[fresh]
    pick = smallest_per_vertex(xp, local, proposers)
    local = local[pick]
    dist[local] = level
    pred[local] = proposers[pick]
    outbox = [None] * partition.parts
    if local.size and (depth_limit is None or level < depth_limit):
        frontier = local + partition.v0
        owner, neighbours, _ = partition.decode(frontier)
        # Own neighbours reached already are dropped here (whole vertices, so the first edge
        # of every other neighbour stays where it was).
        unseen = ~partition.settled(neighbours, lambda v: dist[v] != vertex_sentinel(dtype))
        owner, neighbours = owner[unseen], neighbours[unseen]
        # Decode order follows the (sorted) frontier: a neighbour's first edge comes from its
        # smallest proposer.
        neighbours, first = xp.unique(neighbours, return_index=True)
        outbox = partition.route(neighbours, frontier[owner[first]])
    sent = sum(int(m[0].size) for m in outbox if m is not None)
    return State(data=data, outbox=outbox, report=sent)


def _result(partition, state, *answers):
    return partition.vertex_frame({"distance": state.data["dist"],
                                   "predecessor": to_user(partition, state, "pred", answers)})


def bfs(input_graph, start, depth_limit=None, return_distances=True, check_start=True):
    """Breadth-first search from one or several start vertices (``cugraph.dask.bfs``).

    Parameters
    ----------
    input_graph : cugraph_compressed.dask.CompressedGraph
        The graph (directed or undirected).
    start : scalar, list, array or Series
        Start vertex id(s), in the user's ids; several run one multi-source search.
    depth_limit : int, optional
        Only vertices at most this many hops from a start are reached; None, 0 or a negative
        value means no limit.
    return_distances : bool
        Kept for cuGraph's signature: the distances are always returned.
    check_start : bool
        Kept for cuGraph's signature: the start vertices are always checked.

    Returns
    -------
    dask.dataframe.DataFrame
        One partition per worker (its vertex range, in internal id order), columns ``vertex``,
        ``distance`` (the vertex dtype; unreachable = its maximum) and ``predecessor`` (-1 for
        starts and unreachable vertices).

    Raises
    ------
    TypeError
        ``input_graph`` is not a multi-worker CompressedGraph, or ``depth_limit`` is not an
        integer.
    ValueError
        A start vertex that is not in the graph, or an empty start list.
    """
    G = check_graph(input_graph)
    if depth_limit is not None and (isinstance(depth_limit, bool)
                                    or not isinstance(depth_limit, (int, np.integer))):
        raise TypeError(f"depth_limit must be an int or None, got {depth_limit!r}")
    if depth_limit is not None and depth_limit <= 0:
        depth_limit = None  # cuGraph reads 0 and negative limits as "no limit"
    check_bool("return_distances", return_distances)
    check_bool("check_start", check_start)
    starts = np.unique(to_internal(G, start, "start"))
    workers = G.workers
    seeds = seed(G, starts, np.full(starts.size, -1, dtype=np.int64))
    states, sent, inboxes = workers.round(_level, [None] * workers.size, seeds, 0, depth_limit,
                                          dtypes=MESSAGE_DTYPES)
    level = 0
    while sum(sent):
        level += 1
        states, sent, inboxes = workers.round(_level, states, inboxes, level, depth_limit,
                                              dtypes=MESSAGE_DTYPES)
    states, answers = workers.user_ids(states, "pred", G.renumbered)
    parts = [workers.submit(r, _result, workers.partitions[r], states[r], *answers[r])
             for r in range(workers.size)]
    return result_frame(workers, parts)
