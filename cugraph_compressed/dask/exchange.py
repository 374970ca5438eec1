"""The workers of a multi-worker graph, and the rounds its algorithms run in.

An algorithm runs level- or iteration-synchronously.  In a round every worker runs one step
on its :class:`~.partition.Partition` (which stays where it was built: every task is pinned to
its worker), with its state of the round before and the messages the other workers addressed
to it.  A step returns the worker's new state, holding an outbox (one message per rank) and a
small report.  The driver gathers only the reports (counts, partial sums) to decide whether to
go on; each message travels from the worker that wrote it to the worker it is for as a Dask
future, worker to worker, never through the driver.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import _backend
from .partition import stable_argsort


@dataclass
class State:
    """What a step leaves on its worker: the algorithm's vertex state (``data``), one message
    per rank (``outbox``) and what the driver gathers (``report``)."""

    data: dict
    outbox: list = field(default_factory=list)
    report: object = None
    received: list | None = None  # the inbox of the next step, when NCCL delivered it


def _outbox(state: State, rank: int):
    return state.outbox[rank]


def _report(state: State):
    return state.report


def _step(step, partition, state, args, *inbox):
    """``step`` with the full inbox, in rank order: the messages of the other ranks and the
    one this rank's last state addressed to itself."""
    if state is not None and state.outbox:
        inbox = list(inbox)
        inbox.insert(partition.rank, state.outbox[partition.rank])
    with _backend.allocations(partition.backend):  # device arrays from RMM, as the single graph
        return step(partition, state, args, *inbox)


def _nccl_step(step, partition, state, args, token, dtypes, *inbox):
    """``step``, then the all-to-all of its outbox through NCCL: the messages received are
    kept in the new state for the next step (:mod:`.nccl`)."""
    from . import nccl

    if state is not None and state.received is not None:
        inbox = state.received
    with _backend.allocations(partition.backend):
        fresh = step(partition, state, args, *inbox)
        received = nccl.all_to_all(token, partition.rank, partition.parts, fresh.outbox,
                                   dtypes)
    return State(data=fresh.data, report=fresh.report, received=received)


def _call(function, partition, *args):
    with _backend.allocations(partition.backend):
        return function(partition, *args)


class Workers:
    """The workers holding a graph's partitions, one rank each.

    Parameters
    ----------
    client : distributed.Client
    addresses : list of str
        Worker addresses, by rank.
    partitions : list of distributed.Future
        Each rank's :class:`~.partition.Partition`, held by that rank's worker.
    """

    def __init__(self, client, addresses, partitions):
        self.client = client
        self.addresses = list(addresses)
        self.partitions = list(partitions)
        self.nccl = None  # an NCCL session (.nccl.Session) between GPU workers, once opened

    @property
    def exchange(self) -> str:
        """How the rounds' messages travel: ``"nccl"`` or ``"dask"``."""
        return "dask" if self.nccl is None else "nccl"

    @property
    def size(self) -> int:
        return len(self.addresses)

    def submit(self, rank: int, function, *args):
        """``function(*args)`` on rank ``rank``'s worker (not cached: steps may differ only in
        state held elsewhere)."""
        return self.client.submit(function, *args, workers=[self.addresses[rank]],
                                  allow_other_workers=False, pure=False)

    def each(self, function, *args):
        """``function(partition, *args)`` on every rank: a future per rank."""
        return [self.submit(r, _call, function, self.partitions[r], *args)
                for r in range(self.size)]

    def round(self, step, states, inboxes, *args, dtypes=None):
        """One synchronous round: ``step(partition, state, args, *inbox)`` on every rank.

        ``states``: each rank's :class:`State` future (or None); ``inboxes``: per rank, the
        messages for it (futures or values).  Returns the new state futures, the gathered
        reports and the next inboxes (rank ``j``'s: ``outbox[j]`` of every rank).  Messages
        whose columns have the ``dtypes`` given go through NCCL when a session is open (the
        next inboxes are then empty: the states hold them)."""
        if self.nccl is not None and dtypes is not None:
            fresh = [self.submit(r, _nccl_step, step, self.partitions[r], states[r], args,
                                 self.nccl.token, tuple(dtypes), *inboxes[r])
                     for r in range(self.size)]
            reports = self.client.gather([self.submit(r, _report, fresh[r])
                                          for r in range(self.size)])
            return fresh, reports, [[] for _ in range(self.size)]
        fresh = [self.submit(r, _step, step, self.partitions[r], states[r], args, *inboxes[r])
                 for r in range(self.size)]
        reports = [self.submit(r, _report, fresh[r]) for r in range(self.size)]
        # Submitted before the wait for the reports: the messages are ready by the next round.
        # A rank's message to itself stays in its state (``_step`` takes it from there).
        inboxes = [[self.submit(i, _outbox, fresh[i], j) for i in range(self.size) if i != j]
                   for j in range(self.size)]
        return fresh, self.client.gather(reports), inboxes

    def user_ids(self, states, key: str, renumbered: bool):
        """Two rounds turning ``state.data[key]`` (global internal ids) into user ids: each
        rank asks the owners of the ids it holds, which answer with their slices of the
        renumber map.  Returns the states (holding ``"asked"``) and per rank the answers, for
        :func:`to_user`; nothing to exchange when the graph is not renumbered."""
        if not renumbered:
            return states, [[] for _ in range(self.size)]
        # The ranks' last states hold no outbox, so an _ask round takes no messages.
        states, _, inboxes = self.round(_ask, [self.submit(r, _quiet, s) for r, s in
                                               enumerate(states)],
                                        [[] for _ in range(self.size)], key)
        _, _, answers = self.round(_answer, states, inboxes)
        own = [self.submit(r, _own_answer, self.partitions[r], states[r])
               for r in range(self.size)]
        for r in range(self.size):
            answers[r].insert(r, own[r])
        return states, answers

    def gather(self, futures):
        return self.client.gather(futures)

    def frame(self, futures, meta):
        """A Dask DataFrame of one partition per rank (each future a frame on its worker)."""
        import dask.dataframe as dd

        return dd.from_delayed(futures, meta=meta, verify_meta=False)


# -- message helpers, run on the workers ---------------------------------------------------------
def merged(xp, inbox, dtypes):
    """The messages of ``inbox`` (tuples of one array per entry of ``dtypes``) concatenated
    column by column, in those dtypes."""
    parts = [m for m in inbox if m is not None and int(m[0].size)]
    if not parts:
        return tuple(xp.zeros(0, dtype=d) for d in dtypes)
    # A first round's messages come from the driver as NumPy arrays, which CuPy does not
    # concatenate with its own.
    return tuple(xp.concatenate([xp.asarray(m[c]) for m in parts]).astype(d, copy=False)
                 for c, d in enumerate(dtypes))


def smallest_per_vertex(xp, vertices, *keys):
    """Index of each distinct vertex's entry with the smallest ``keys`` (compared in order),
    in increasing vertex order: how concurrent proposals for a vertex are settled the same way
    whatever order they arrive in."""
    if not int(vertices.size):
        return xp.zeros(0, dtype=np.int64)
    order = xp.arange(vertices.size, dtype=np.int64)
    for key in reversed((vertices, *keys)):  # stable sorts, least significant key first
        order = order[stable_argsort(xp, key[order])]
    sorted_vertices = vertices[order]
    first = xp.ones(sorted_vertices.size, dtype=bool)
    first[1:] = sorted_vertices[1:] != sorted_vertices[:-1]
    return order[first]


# -- results in user ids -------------------------------------------------------------------------
def _ask(partition, state, args):
    """Route the distinct vertices of ``state.data[key]`` (global ids, -1 for none) to their
    owners."""
    (key,) = args
    xp = partition.xp
    wanted = state.data[key]
    asked = xp.unique(wanted[wanted >= 0])
    return State(data={**state.data, "asked": asked}, outbox=partition.route(asked))


def _quiet(state: State) -> State:
    return State(data=state.data)


def _answer(partition, state, args, *inbox):
    """The user ids of the vertices each rank asked for, one message back to each."""
    return State(data={}, outbox=[partition.user_ids(message[0]) for message in inbox])


def _own_answer(partition, state):
    """The user ids of the vertices this rank asked itself for."""
    return partition.user_ids(state.outbox[partition.rank][0])


def to_user(partition, state, key, answers):
    """``state.data[key]`` (global internal ids, -1 for none) as user ids, from the
    ``answers`` of :meth:`Workers.user_ids` (-1, or null where the id type cannot hold -1, for
    none, as the single graph's results)."""
    from .._ids import VertexIds

    values = state.data[key]
    if partition.ids is None:
        return values.astype(partition.vertex_dtype)
    xp = partition.xp
    lib = _backend.frame_library(partition.backend)
    asked = state.data["asked"]
    known = lib.concat(list(answers), ignore_index=True)
    if not len(known):  # nothing to translate: every entry is -1, gathered from any id
        known = partition.ids.renumber_map.iloc[:1]
    local = xp.where(values >= 0, xp.searchsorted(asked, values), -1)
    return VertexIds(partition.backend, len(known), partition.vertex_dtype, known).to_user(
        local.astype(partition.vertex_dtype))
