"""Global vertex ids of a Dask edge frame, computed by Dask: never gathered on one process.

With ``renumber=True`` the internal ids are the ranks of the sorted distinct user ids, exactly
as the single graph numbers them (:mod:`cugraph_compressed._idset`): the distinct ids of the
source and destination columns are found by Dask's ``drop_duplicates`` and sorted into range
partitions by ``set_index``; a partition's ranks are its position plus the lengths of the
partitions before it.  Edges get their internal ids by joining with that map, partition by
partition.  Each worker later keeps the slice of the map its vertex range covers
(:func:`id_slice`), which turns its results back into user ids.
"""
from __future__ import annotations

import numpy as np

from .. import _backend
from .partition import DST, SRC, array_module_of

#: The column of internal ids in the id map.
INTERNAL = "internal"


def _ranked(part, offset: int, dtype):
    """One sorted partition of the distinct ids (in its index) with its ranks."""
    xp = array_module_of(part)
    return part.assign(**{INTERNAL: xp.arange(offset, offset + len(part), dtype=dtype)})


def _samples(part, count: int):
    """Up to ``count`` evenly spaced ids of one partition of distinct ids, its smallest and
    largest included (a Series)."""
    ids = part.sort_values(ignore_index=True)
    if len(ids) <= count:
        return ids
    at = np.unique(np.linspace(0, len(ids) - 1, count).astype(np.int64))
    return ids.iloc[at].reset_index(drop=True)


def sorted_ids(client, frame, parts: int):
    """``(futures, divisions, lengths)``: the distinct ids of ``frame``'s ``SRC`` and ``DST``
    columns, sorted, as range partitions of a frame indexed by id (one future per partition, in
    order), their divisions and lengths.

    The divisions come from evenly spaced samples of every partition's distinct ids (found
    here, not by ``set_index``: its own search runs a computation inside a cached property,
    which deadlocks an in-process scheduler on Python 3.11)."""
    import dask
    import dask.dataframe as dd

    parts = max(parts, 1)
    ids = dd.concat([frame[SRC].rename("id"), frame[DST].rename("id")], ignore_index=True)
    distinct = client.persist(ids.drop_duplicates(split_out=parts))
    samples = dask.compute(*[dask.delayed(_samples)(p, 64 * parts)
                             for p in distinct.to_delayed()])
    samples = [s for s in samples if len(s)]
    if not samples:
        futures = client.compute(distinct.to_frame().set_index("id", divisions=[0, 0])
                                 .to_delayed()[:1])
        return futures, (None, None), [0]
    backend = _backend.DEVICE if _backend.is_cudf_object(samples[0]) else _backend.HOST
    pooled = _backend.frame_library(backend).concat(samples, ignore_index=True)
    pooled = pooled.sort_values(ignore_index=True)
    at = np.linspace(0, len(pooled) - 1, parts + 1).astype(np.int64)
    divisions = sorted(set(_scalar(pooled.iloc[int(i)]) for i in at))
    if len(divisions) == 1:
        divisions = divisions * 2
    indexed = distinct.to_frame().set_index("id", divisions=divisions)
    futures = client.compute(indexed.to_delayed())
    lengths = client.gather([client.submit(len, f) for f in futures])
    return futures, tuple(divisions), [int(x) for x in lengths]


def _scalar(value):
    return value.item() if hasattr(value, "item") else value


def id_map(client, futures, divisions, lengths, meta, dtype):
    """The Dask frame ``id -> INTERNAL`` (the rank), partitioned like the sorted ids."""
    import dask.dataframe as dd

    offsets = np.concatenate([[0], np.cumsum(lengths)])[:-1]
    ranked = [client.submit(_ranked, f, int(o), dtype) for f, o in zip(futures, offsets)]
    meta = _ranked(meta, 0, dtype)
    return dd.from_delayed(ranked, meta=meta, divisions=divisions)


def internal_edges(frame, mapping):
    """``frame`` with ``SRC`` and ``DST`` replaced by their internal ids (a join with
    ``mapping`` for each; the columns are renamed once, after both joins, as Dask's merge
    planning follows column names through the joins)."""
    keep = [c for c in frame.columns if c not in (SRC, DST)]
    for column in (SRC, DST):
        frame = frame.merge(mapping.rename(columns={INTERNAL: f"{column}_{INTERNAL}"}),
                            how="inner", left_on=column, right_index=True)
    internal = [f"{SRC}_{INTERNAL}", f"{DST}_{INTERNAL}"]
    return frame[internal + keep].rename(columns=dict(zip(internal, (SRC, DST))))


def id_slice(parts, offsets, v0: int, v1: int):
    """The user ids of internal ids ``v0 .. v1 - 1`` as one Series, from the sorted id
    partitions (``parts``, each starting at internal id ``offsets[i]``) that overlap it."""
    pieces = []
    for part, first in zip(parts, offsets):
        lo, hi = max(v0 - first, 0), min(v1 - first, len(part))
        if lo < hi:
            pieces.append(part.index[lo:hi].to_series().reset_index(drop=True))
    if not pieces:
        return parts[0].index[:0].to_series().reset_index(drop=True)
    backend = _backend.DEVICE if _backend.is_cudf_object(pieces[0]) else _backend.HOST
    return _backend.frame_library(backend).concat(pieces, ignore_index=True)


def overlapping(lengths, v0: int, v1: int):
    """Indices of the sorted id partitions overlapping internal ids ``v0 .. v1 - 1``, and
    every partition's first internal id."""
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    wanted = [i for i in range(len(lengths))
              if offsets[i] < v1 and offsets[i + 1] > v0 and lengths[i]]
    return wanted, offsets[:-1]
