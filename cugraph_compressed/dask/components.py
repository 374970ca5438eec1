"""Weakly connected components of a multi-worker graph, as
``cugraph.dask.weakly_connected_components``.

Label propagation in rounds: every vertex starts labelled with its own internal id; a worker
sends the labels of the vertices whose label dropped (all of them in the first round) along
their lists to the neighbours' owners, which keep the smallest label proposed.  When a round
changes nothing, each vertex holds the smallest internal id of its component: the single
graph's labels exactly.
"""
from __future__ import annotations

import numpy as np

from .exchange import State, merged, smallest_per_vertex
from .graph import check_graph, result_frame

MESSAGE_DTYPES = (np.int64, np.int64)  # vertex, proposed label


def _round(partition, state, args, *inbox):
    xp = partition.xp
    if state is None:
        labels = xp.arange(partition.v0, partition.v1, dtype=np.int64)
        changed = xp.arange(partition.size, dtype=np.int64)
    else:
        labels = state.data["labels"]
        vertices, proposed = merged(xp, inbox, MESSAGE_DTYPES)
        local = vertices - partition.v0
        pick = smallest_per_vertex(xp, local, proposed)
        local, proposed = local[pick], proposed[pick]
        lower = proposed < labels[local]
        changed = local[lower]
        labels[changed] = proposed[lower]
    outbox = [None] * partition.parts
    if changed.size:
        owner, neighbours, _ = partition.decode(changed + partition.v0)
        label = labels[changed][owner]
        # Labels not below an own neighbour's label would be dropped by this rank's next step.
        lower = ~partition.settled(neighbours, lambda v, proposed: proposed >= labels[v], label)
        neighbours, label = neighbours[lower], label[lower]
        best = smallest_per_vertex(xp, neighbours, label)
        outbox = partition.route(neighbours[best], label[best])
    sent = sum(int(m[0].size) for m in outbox if m is not None)
    return State(data={"labels": labels}, outbox=outbox, report=sent)


def _result(partition, state):
    return partition.vertex_frame({"labels": state.data["labels"].astype(
        partition.vertex_dtype)})


def weakly_connected_components(input_graph):
    """Weakly connected components of an undirected graph
    (``cugraph.dask.weakly_connected_components``).

    Parameters
    ----------
    input_graph : cugraph_compressed.dask.CompressedGraph
        An undirected graph.

    Returns
    -------
    dask.dataframe.DataFrame
        One partition per worker, columns ``vertex`` and ``labels`` (the vertex dtype: the
        smallest internal id of the component, as the single graph's labels; compare
        partitions, not label values, with cuGraph).

    Raises
    ------
    ValueError
        The graph is directed.
    """
    G = check_graph(input_graph)
    if G.is_directed():
        raise ValueError("input graph must be undirected: weakly connected components are "
                         "computed on an undirected CompressedGraph(directed=False)")
    workers = G.workers
    empty = [[] for _ in range(workers.size)]
    states, sent, inboxes = workers.round(_round, [None] * workers.size, empty,
                                          dtypes=MESSAGE_DTYPES)
    while sum(sent):
        states, sent, inboxes = workers.round(_round, states, inboxes, dtypes=MESSAGE_DTYPES)
    parts = [workers.submit(r, _result, workers.partitions[r], states[r])
             for r in range(workers.size)]
    return result_frame(workers, parts)
