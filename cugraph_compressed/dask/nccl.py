"""Messages between GPU workers through NCCL (CuPy's bindings), in place of Dask's comms.

A graph of device graphs on more than one worker opens one NCCL communicator per
rank when every worker can (CuPy with NCCL, a GPU): :class:`Session`.  A round then runs the
algorithm's step and an all-to-all of its outbox inside the same task on every worker
(:func:`step_and_exchange`): the counts, then every message column as bytes, point to point
in one NCCL group.  The messages received stay in the rank's state for its next step, so
between rounds only the small reports reach the driver.  All ranks of a round run at once,
one task per worker, as NCCL's collectives need.

The turning of results back into user ids (a few messages of ids of any type, once per call)
still goes through Dask.
"""
from __future__ import annotations

import uuid

import numpy as np

#: Communicators of this process: (session token, rank) -> NcclCommunicator.
_COMMUNICATORS: dict = {}


def available() -> bool:
    """True when this process can open an NCCL communicator (CuPy with NCCL, a GPU)."""
    from .. import _backend

    if _backend.gpu_unavailable_reason() is not None:
        return False
    try:
        from cupy.cuda import nccl
    except ImportError:
        return False
    return bool(getattr(nccl, "available", True))


def _unique_id():
    from cupy.cuda import nccl

    return nccl.get_unique_id()


def _open(token: str, unique_id, size: int, rank: int) -> int:
    """Join the communicator (blocks until every rank has joined)."""
    from cupy.cuda import nccl

    _COMMUNICATORS[token, rank] = nccl.NcclCommunicator(size, unique_id, rank)
    return rank


def _close(token: str, rank: int) -> None:
    comm = _COMMUNICATORS.pop((token, rank), None)
    if comm is not None:
        comm.destroy()


class Session:
    """One NCCL communicator per rank of ``workers`` (a :class:`~.exchange.Workers`)."""

    def __init__(self, workers):
        self.token = uuid.uuid4().hex
        self.size = workers.size
        unique_id = workers.gather(workers.submit(0, _unique_id))
        # Every rank's task must run at once: each blocks in NCCL until all have joined.
        workers.gather([workers.submit(r, _open, self.token, unique_id, self.size, r)
                        for r in range(self.size)])

    def close(self, workers) -> None:
        workers.gather([workers.submit(r, _close, self.token, r) for r in range(self.size)])


def release(client, addresses, token: str) -> None:
    """Destroy the communicators of session ``token`` once its graph is collected: each
    holds NCCL's buffers on its GPU until then.  Fire and forget, as a finalizer must not wait
    on the workers."""
    from distributed import fire_and_forget

    try:
        for rank, address in enumerate(addresses):
            fire_and_forget(client.submit(_close, token, rank, workers=[address],
                                          allow_other_workers=False, pure=False))
    except Exception:  # the client is closed: the workers' communicators went with it
        pass


def all_to_all(token: str, rank: int, size: int, outbox, dtypes):
    """Send ``outbox[j]`` (a tuple of CuPy arrays of ``dtypes``, or None) to rank ``j`` and
    receive one such tuple from every rank, in rank order."""
    import cupy as cp
    from cupy.cuda import nccl

    comm = _COMMUNICATORS[token, rank]
    stream = cp.cuda.get_current_stream()
    columns = len(dtypes)
    outbox = [tuple(cp.ascontiguousarray(cp.asarray(c, dtype=d)) for c, d in zip(m, dtypes))
              if m is not None else tuple(cp.zeros(0, dtype=d) for d in dtypes)
              for m in outbox]
    sent = cp.asarray([int(m[0].size) for m in outbox], dtype=cp.int64)
    counts = cp.zeros(size, dtype=cp.int64)
    nccl.groupStart()
    for peer in range(size):
        comm.send(sent[peer:].data.ptr, 1, nccl.NCCL_INT64, peer, stream.ptr)
        comm.recv(counts[peer:].data.ptr, 1, nccl.NCCL_INT64, peer, stream.ptr)
    nccl.groupEnd()
    counts = counts.get()
    inbox = [tuple(cp.empty(int(counts[p]), dtype=d) for d in dtypes) for p in range(size)]
    nccl.groupStart()
    for c in range(columns):
        item = np.dtype(dtypes[c]).itemsize
        for peer in range(size):
            if outbox[peer][c].size:
                comm.send(outbox[peer][c].data.ptr, outbox[peer][c].size * item,
                          nccl.NCCL_UINT8, peer, stream.ptr)
            if inbox[peer][c].size:
                comm.recv(inbox[peer][c].data.ptr, inbox[peer][c].size * item,
                          nccl.NCCL_UINT8, peer, stream.ptr)
    nccl.groupEnd()
    stream.synchronize()
    return inbox
