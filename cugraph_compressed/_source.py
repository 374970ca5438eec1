"""The edges the streaming build reads pass after pass: the user's frames, or a graph's own.

A build reads its input several times (the id set, per-vertex counts, then the edges of each
vertex range), so the input must give the same frames on every pass: a sequence of frames, or a
zero-argument callable returning a fresh iterable of them.  A one-shot iterator is refused.
:class:`EdgeChunks` wraps either, converts each frame to the build's frame library, resolves
and checks its columns (every check on a frame lives in :mod:`._edgelist`), remembers every
chunk's row count on the first pass and refuses a later pass that differs.  Each chunk is read
as *pieces* of at most ``piece_rows`` rows, so per-row temporaries stay bounded whatever the
chunk size.

:class:`StoredEdges` reads back the edges a graph's layout stores, for a build of its other
orientation: pieces of consecutive property slots, decoded as they are read (on the GPU for a
device graph).
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
        self.first_dtypes = None  # the same in the first chunk, empty or not

    def where(self, i: int) -> str:
        """The prefix an error about chunk ``i`` starts with."""
        return "" if self.single else f"chunk {i}: "

    # -- passes -----------------------------------------------------------------------------
    def frames(self):
        """One pass: ``(index, frame)`` in the build's library, holding the columns it reads.

        The first pass resolves the columns (cuGraph's rules) and records the row counts;
        later passes raise :class:`ChunkError` where they differ."""
        made = self._make()
        if backend_of(made) is not None:  # one frame: iterating it gives its labels
            raise TypeError(f"the chunks callable returned one {type(made).__name__}; it must "
                            "return an iterable of edge frames (for one frame: [frame])")
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
        if self.first_dtypes is None:
            self.first_dtypes = dtypes
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


class StoredEdges:
    """The edges a graph stores, read back as pieces of the streaming build, each in the
    graph's direction: the source of the other orientation's build.

    A piece is a window of consecutive property slots: the lists of a vertex range, a list
    longer than the window cut across pieces, so a piece never holds more than the rows the
    build asks for, whatever the degrees.  Its ids are internal ids of the build's index dtype,
    its properties views of the graph's, in slot order.

    Parameters
    ----------
    layout : Layout
        The stored lists.
    properties : dict
        ``{name: array}`` in the layout's slot order.
    backend : {"host", "device"}
        Where the graph lives: a device layout is decoded on the GPU through its view
        (:class:`~.kernels.traversal.SlotDecoder`), a host one by its host decoders
        (:meth:`~.formats.base.Layout.decode_slots`).
    in_lists : bool
        The lists are in-lists: an edge is (neighbour, owner).
    config : TraversalConfig
        The graph's kernel tuning (``checked`` decodes with the checked kernels).
    what : str
        What reads the edges, named by a checked kernel's fault.
    """

    def __init__(self, layout, properties, backend, in_lists, config,
                 what="re-orienting the graph"):
        self.layout, self.properties = layout, dict(properties)
        self.backend, self.in_lists, self.config = backend, in_lists, config
        self.what = what
        self.num_vertices, self.num_edges = layout.num_vertices, layout.num_edges
        # What the build reads of a source: columns named after the properties, their dtypes.
        self.columns = ("source", "destination", {name: name for name in self.properties})
        self.dtypes = {name: np.dtype(v.dtype) for name, v in self.properties.items()}
        self.first_dtypes = self.dtypes

    def pieces(self, piece_rows: int, index_dtype, properties: bool = True):
        """One pass: :class:`Piece` objects of at most ``piece_rows`` edges, ``(src, dst)`` in
        ``index_dtype``, with the properties unless ``properties`` is False."""
        if not self.num_edges:
            return
        decode = slot_decoder(self.layout, self.backend, self.config, self.what)
        for i, begin in enumerate(range(0, self.num_edges, piece_rows)):
            end = min(begin + piece_rows, self.num_edges)
            owner, neighbour = decode(begin, end)
            owner = owner.astype(index_dtype, copy=False)
            neighbour = neighbour.astype(index_dtype, copy=False)
            src, dst = (neighbour, owner) if self.in_lists else (owner, neighbour)
            del owner, neighbour  # the int64 decode is freed before the build takes the piece
            props = {k: v[begin:end] for k, v in self.properties.items()} if properties else {}
            yield Piece(i, src, dst, props)


def slot_decoder(layout, backend: str, config, what: str):
    """``decode(begin, end)``: ``(owner, neighbour)`` int64 arrays of the edges at property
    slots ``begin .. end - 1`` of ``layout`` (decode order); its O(V) state (the degrees'
    prefix sum) lives as long as the function.

    A host layout is read by its host decoders (:meth:`~.formats.base.Layout.decode_slots`), a
    device one on the GPU through its view (:class:`~.kernels.traversal.SlotDecoder`), with the
    checked kernels when ``config`` asks for them (a fault names ``what``).
    """
    if backend == HOST:
        ends = np.cumsum(layout.degrees())
        return lambda begin, end: layout.decode_slots(begin, end, ends)
    from .kernels.traversal import SlotDecoder, checked_run

    decoder = SlotDecoder(layout, config)

    def decode(begin, end):
        with checked_run(layout, config, what):
            return decoder(begin, end)

    return decode


def stored_degrees(layout, backend: str, config):
    """The length of every stored list, int64, in the backend's array module: the host
    layout's :meth:`~.formats.base.Layout.degrees`, or on the GPU the view's own counts (a
    device layout is never copied to the host for them)."""
    if backend == HOST:
        return np.asarray(layout.degrees()).astype(np.int64, copy=False)
    from .kernels.traversal import SlotDecoder, checked_run

    with checked_run(layout, config, "reading degrees"):
        ends = SlotDecoder(layout, config).ends
    degrees = ends.copy()
    degrees[1:] -= ends[:-1]
    return degrees
