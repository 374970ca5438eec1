"""The user's edge frames, read pass after pass by the streaming build.

A build reads its input several times (the id set, per-vertex counts, then the edges of each
vertex range), so the input must give the same frames on every pass: a sequence of frames, or a
zero-argument callable returning a fresh iterable of them.  A one-shot iterator is refused.
:class:`EdgeChunks` wraps either, converts each frame to the build's frame library, resolves
and checks its columns (every check on a frame lives in :mod:`._edgelist`), remembers every
chunk's row count on the first pass and refuses a later pass that differs.  Each chunk is read
as *pieces* of at most ``piece_rows`` rows, so per-row temporaries stay bounded whatever the
chunk size.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import _backend
from ._backend import DEVICE, HOST
from ._edgelist import (
    check_id_series,
    check_property_series,
    column_values,
    edge_columns,
    is_column,
)


class ChunkError(ValueError):
    """A chunk of the input breaks a rule the first chunks set (columns, dtypes, row counts)."""


@dataclass
class Piece:
    """Consecutive rows of chunk ``chunk``: id columns (arrays, or Series for ids that are not
    numbers) and property arrays, in the build's array module."""

    chunk: int
    src: object
    dst: object
    properties: dict


def backend_of(frame) -> str | None:
    """``DEVICE`` for a cuDF frame, ``HOST`` for a pandas frame, None for anything else."""
    if not hasattr(frame, "columns"):
        return None
    if _backend.is_cudf_object(frame):
        return DEVICE
    if _backend.is_pandas_object(frame):
        return HOST
    return None


def _is_frame(obj) -> bool:
    return backend_of(obj) is not None


class EdgeChunks:
    """A re-readable source of edge frames.

    Parameters
    ----------
    chunks : sequence of DataFrame, or callable
        The frames (cuDF or pandas), or a zero-argument callable returning a fresh iterable
        of them on every call.
    backend : {"host", "device"} or None
        Where the graph is built; None follows the first chunk's frame type.
    single : bool
        The input was one frame (``from_cudf_edgelist``): errors then do not name a chunk.
    """

    def __init__(self, chunks, backend=None, *, single=False):
        if _is_frame(chunks):
            raise TypeError(
                "chunks is one DataFrame: pass a list of frames (or use from_cudf_edgelist / "
                "from_pandas_edgelist for a single frame)")
        if callable(chunks) and not isinstance(chunks, Sequence):
            self._make = chunks
        elif isinstance(chunks, (str, bytes)) or not hasattr(chunks, "__iter__"):
            raise TypeError(f"chunks must be a sequence of edge frames or a zero-argument "
                            f"callable returning an iterable of them, got {type(chunks).__name__}")
        elif iter(chunks) is chunks or not hasattr(chunks, "__len__"):
            raise TypeError(
                f"chunks is a one-shot iterator ({type(chunks).__name__}): the build reads its "
                "chunks several times; pass a list of frames, or a zero-argument callable "
                "returning a fresh iterable of them (e.g. lambda: (read(p) for p in paths))")
        else:
            self._make = lambda: chunks
        if backend not in (None, HOST, DEVICE):
            raise ValueError(f"backend={backend!r} is not one of None, 'host', 'device'")
        self.backend = backend
        self.single = single
        self.rows = None  # rows of every chunk, from the first pass
        self.columns = None  # (source, destination, {property: label}) from the first chunk
        self.dtypes = None  # label -> NumPy dtype of that column in the first non-empty chunk

    def where(self, i: int) -> str:
        """The prefix an error about chunk ``i`` starts with."""
        return "" if self.single else f"chunk {i}: "

    # -- passes -----------------------------------------------------------------------------
    def frames(self):
        """One pass: ``(index, frame)`` in the build's library, holding the columns it reads.

        The first pass resolves the columns (cuGraph's rules) and records the row counts;
        later passes raise :class:`ChunkError` where they differ."""
        made = self._make()
        try:
            iterator = iter(made)
        except TypeError:
            raise TypeError(f"the chunks callable returned {type(made).__name__}, which is not "
                            "iterable; it must return an iterable of edge frames") from None
        first_pass = self.rows is None
        rows = []
        for i, frame in enumerate(iterator):
            frame = self._convert(i, frame)
            rows.append(len(frame))
            if not first_pass and (i >= len(self.rows) or rows[i] != self.rows[i]):
                expected = (f"{self.rows[i]} rows" if i < len(self.rows)
                            else f"only {len(self.rows)} chunks")
                raise ChunkError(
                    f"chunk {i} gave {rows[i]} rows on a later pass, where the first pass had "
                    f"{expected}: the chunks must be the same on every pass")
            yield i, frame
        if first_pass:
            self.rows = rows
        elif len(rows) != len(self.rows):
            raise ChunkError(f"a later pass gave {len(rows)} chunks, the first pass "
                             f"{len(self.rows)}: the chunks must be the same on every pass")

    def _convert(self, i, frame):
        kind = backend_of(frame)
        if kind is None:
            raise TypeError(f"{self.where(i)}expected a cuDF or pandas DataFrame, got "
                            f"{type(frame).__module__}.{type(frame).__name__}")
        if self.backend is None:
            self.backend = kind
        if self.columns is not None:
            wanted = self.labels()
            missing = [c for c in wanted if not is_column(c, frame.columns)]
            if missing:
                raise ChunkError(f"{self.where(i)}columns {missing!r} are not in this chunk "
                                 f"(its columns: {list(frame.columns)!r})")
        if kind != self.backend:  # a host chunk for a device build, or the reverse
            if self.columns is not None:  # only the columns read cross over
                frame = frame[self.labels()]
            if self.backend == DEVICE:
                import cudf

                frame = cudf.from_pandas(frame)
            else:
                frame = frame.to_pandas()
        return frame

    def labels(self) -> list:
        """The labels of every column the build reads, ids first."""
        source, destination, props = self.columns
        return [source, destination, *props.values()]

    def resolve(self, frame, i, **names) -> None:
        """Resolve the column names against the first chunk (``edge_columns``)."""
        try:
            self.columns = edge_columns(frame, **names)
        except ValueError as exc:
            raise type(exc)(f"{self.where(i)}{exc}") from None

    def check(self, i: int, frame, renumber: bool) -> None:
        """The per-chunk checks: nulls and dtypes of ids and properties, and the same dtypes
        as the first non-empty chunk (empty chunks may carry any dtype)."""
        source, destination, props = self.columns
        where = self.where(i)
        dtypes = {}
        for what, label in (("source", source), ("destination", destination)):
            dtypes[label] = check_id_series(frame[label], f"{what} column {label!r}", renumber,
                                            where)
        for name, label in props.items():
            dtypes[label] = check_property_series(frame[label], name, where)
        if len(frame) == 0:
            return
        if self.dtypes is None:
            self.dtypes = dtypes
            return
        for label, dtype in dtypes.items():
            if dtype != self.dtypes[label]:
                raise ChunkError(f"{where}column {label!r} has dtype {dtype}, the chunks before "
                                 f"it {self.dtypes[label]}: give every chunk the same dtypes")


def pieces(frame, i: int, columns, piece_rows: int, xp, numeric_ids: bool,
           properties: bool = True):
    """The rows of ``frame`` (chunk ``i``) as :class:`Piece` objects of at most ``piece_rows``
    rows: numeric columns as arrays of ``xp`` (views where the library allows), other id
    types as Series slices; weights of integer dtype cast to floats as cuGraph does.  With
    ``properties=False`` (passes that read ids only) no property is read."""
    source, destination, props = columns
    if not properties:
        props = {}
    n = len(frame)
    if n == 0:
        return
    src, dst = frame[source], frame[destination]
    if numeric_ids:
        src, dst = column_values(src, xp), column_values(dst, xp)
    values = {name: column_values(frame[label], xp) for name, label in props.items()}
    if "weight" in values and values["weight"].dtype.kind != "f":
        w = values["weight"]
        values["weight"] = w.astype(np.float32 if w.dtype.itemsize <= 4 else np.float64)
    for begin in range(0, n, piece_rows):
        end = min(begin + piece_rows, n)
        cut = slice(begin, end)
        if numeric_ids:
            s, d = src[cut], dst[cut]
        else:
            s, d = src.iloc[cut].reset_index(drop=True), dst.iloc[cut].reset_index(drop=True)
        yield Piece(i, s, d, {k: v[cut] for k, v in values.items()})

