"""``fl``: CSR with both arrays bit-packed at a fixed width (Kaczmarski, Przymus & Rzazewski).

The two CSR arrays keep their meaning; each is stored as one bit stream (the shared format of
:mod:`cugraph_compressed.formats.bits`) of equally wide fields, so the ``i``-th entry of either
array is read in O(1) from any position: one shift and one mask over the 64-bit window of the
two words holding it.  Nothing else is stored: no per-vertex array besides the packed offsets.

Buffers
-------
``offsets``
    ``uint32`` bit stream of ``num_vertices + 1`` fields of ``offset_width`` bits.  Field ``v``
    (bits ``v * offset_width ..``) is the number of edges of the vertices before ``v``, so the
    list of ``v`` is entries ``offsets[v] .. offsets[v + 1] - 1`` of ``indices``.
``indices``
    ``uint32`` bit stream of ``num_edges`` fields of ``index_width`` bits: the neighbour ids,
    list after list, each list sorted.

Bit order and padding: bit ``i`` of a stream is bit ``i % 32`` (least significant first) of
word ``i // 32``; a field's least significant bit comes first.  Field ``k`` of a stream of
width ``w`` starts at bit ``k * w``, with no gap between fields, so a field may straddle two
words.  A field wider than 32 bits is read as its low 32 bits at ``k * w`` and its high
``w - 32`` bits at ``k * w + 32``.  Each stream holds ``ceil(fields * w / 32)`` data words
followed by ``TAIL_WORDS`` (2) words of tail padding, so the two-word window at any field is
inside the buffer; the bits after the last field (the rest of the last data word and the tail
words) are written as zeros and ignored by every decoder, whatever they hold.  A width of 0
(every value 0: an empty graph, or only edges to vertex 0) stores the tail words alone.

Choosing the widths: ``l`` versus ``l'``
---------------------------------------
``l`` is the bit length of the largest value of an array: of ``num_edges`` for ``offsets``,
of the largest neighbour id for ``indices`` (the data's, not ``num_vertices - 1``).  The stored
width ``l' >= l`` trades memory for alignment.  A width that divides 32 (1, 2, 4, 8, 16, 32)
or equals 64 never lets a field straddle a 32-bit word: a reader needs one load, and 8, 16, 32
and 64 bits are plain aligned integers (a kernel may load them as such).  Any other width lets
a share of the fields straddle two words, which costs a second load (usually from the same
cache line) and a funnel shift, but stores ``l'`` bits per value instead of ``l``.  The paper
chose 16 bits (2 values per word) and 21 bits (3 values per 64 bits, 1 bit wasted); packed
back to back here, 21 bits takes exactly the paper's 3 values per 64 bits of space.

Parameters (see :meth:`FixedLengthLayout.check_params`):

* ``index_width`` / ``offset_width``: ``None`` (default) picks automatically; an int in
  ``0 .. 64`` is used as given and must be ``>= l``, else ValueError naming both.
* ``align_slack`` (default ``1/8``): the automatic rule.  Let ``a`` be the smallest aligned
  width (1, 2, 4, 8, 16, 32, 64) ``>= l``; the width is ``a`` when ``a - l <= align_slack * l``
  (at most 12.5% more bits by default), otherwise ``l``.  With the default, ``l`` = 15 -> 16,
  29..31 -> 32, 57..63 -> 64, and e.g. 7, 14, 20, 24 stay minimal; ``align_slack=0`` always
  stores the minimal width.

Sizes: ``4 * (stream_words((num_vertices + 1) * offset_width) + stream_words(num_edges *
index_width))`` bytes, which :meth:`FixedLengthLayout.estimate_nbytes` predicts exactly from
``num_edges`` and the largest neighbour id.  Against the papers' CSR (32-bit ids and offsets)
that is ``index_width / 32`` per edge: 0.5x for R-MAT scale 16 (16-bit ids), 0.5-0.67x for
graphs of 2**16 .. 2**21 vertices, as the paper reports.

Invariants (checked by :meth:`FixedLengthLayout.validate`, in this order)
-------------------------------------------------------------------------
1. Both buffers are 1-D ``uint32`` arrays of exactly ``stream_words(fields * width)`` words
   (fields: ``num_vertices + 1`` for ``offsets``, ``num_edges`` for ``indices``), and both
   widths are ints in ``0 .. 64``.
2. ``offsets[0] == 0`` and ``offsets[num_vertices] == num_edges``.
3. ``offsets`` is non-decreasing.
4. Every neighbour id lies in ``[0, num_vertices)``.
5. Every list is strictly increasing (sorted, no parallel edges).
6. Each width is the one the parameters choose for the stored data: the explicit width, or
   the automatic rule applied to ``l`` of ``num_edges`` (offsets) and of the largest
   neighbour id (indices).  So the encoding is canonical: the host and GPU encoders write the
   same bits.

The property slot of the ``k``-th neighbour of ``v`` is ``offsets[v] + k`` (sorted order).

Code layout: :class:`FixedWidthLists` is the list codec (any sorted lists of values below
2**63, independent of ``num_vertices``); :class:`FixedLengthLayout` is a thin wrapper adding
the vertex range.  :func:`pack_fixed` / :func:`read_fixed` are the fixed-width array codec on
top of the shared packers (``bits.pack_fields`` on the host, ``bits.pack_fixed_device`` on
the GPU, which never materializes the bit positions) and reader (``bits.read_fields``).
"""
from __future__ import annotations

import sys
from numbers import Integral, Real

import numpy as np

from .._backend import to_host
from .base import (
    FirstBroken,
    Layout,
    RangeEncoder,
    encode_ranges,
    entry_windows,
    first_entries,
    invariant_error,
    list_windows,
    ragged_positions,
    searchable,
)
from .bits import TAIL_WORDS, pack_fields, pack_fixed_device, read_fields, stream_words

MAX_WIDTH = 64
ALIGNED_WIDTHS = (1, 2, 4, 8, 16, 32, 64)
DEFAULT_ALIGN_SLACK = 0.125
# Host fast path: widths that are whole little-endian integers are a plain view of the words.
_VIEW_DTYPES = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_LITTLE_ENDIAN = sys.byteorder == "little"
_HOST_CHUNK = 1 << 20   # fields packed per host pass
CHUNK_EDGES = 1 << 25   # edges per encoder run (whole lists): bounds its temporaries
_DECODE_ROWS = 2048     # rows of 32 fields decoded per host pass (sized for the L2 cache)
_LOW32 = np.uint64(0xFFFFFFFF)


# ---------------------------------------------------------------------------- widths

def auto_width(l: int, align_slack: float = DEFAULT_ALIGN_SLACK) -> int:
    """The automatic width for values of bit length ``l`` (module docstring: the rule)."""
    if l <= 0:
        return 0
    aligned = next(a for a in ALIGNED_WIDTHS if a >= l)
    return aligned if aligned - l <= align_slack * l else l


def choose_width(largest: int, width, align_slack: float, what: str) -> int:
    """The stored width ``l'`` for an array whose largest value is ``largest``.

    ``width`` is the explicit choice (``None``: automatic); ValueError when it is below ``l``.
    """
    l = int(largest).bit_length()
    if l > MAX_WIDTH:
        raise ValueError(f"{what}: the largest value {largest} needs {l} bits, more than "
                         f"{MAX_WIDTH}")
    if width is None:
        return auto_width(l, align_slack)
    if width < l:
        raise ValueError(f"{what}={width} is too narrow: the largest value {largest} needs "
                         f"l={l} bits (give {what} >= {l}, or None to choose automatically)")
    return int(width)


# ---------------------------------------------------------------------------- fixed-width arrays

def pack_fixed(values, width: int, xp):
    """A bit stream holding ``values[k]`` (non-negative, below ``2**width``) at bit ``k * width``
    (:func:`pack_fixed_into` a zeroed stream)."""
    words = xp.zeros(stream_words(int(values.size) * width), dtype=np.uint32)
    pack_fixed_into(words, values, width, 0, xp)
    return words


def pack_fixed_into(words, values, width: int, first: int, xp):
    """OR ``values[k]`` (non-negative, below ``2**width``) into the stream ``words`` at bit
    ``(first + k) * width``, touching only the words those fields span.

    NumPy: the host reference, through ``bits.pack_fields`` in runs of ``_HOST_CHUNK`` fields,
    or a plain store into a view for 8/16/32/64 bits (whole bytes: no word is shared).  CuPy:
    ``bits.pack_fixed_device``; fields over 32 bits go in two passes (low and high half).  Both
    write the same bits.  ORing lets a run of fields share its first and last words with the
    fields around it, written before or after.
    """
    n = int(values.size)
    if width == 0 or n == 0:
        return
    if xp is np:
        values = np.asarray(values)
        if width in _VIEW_DTYPES and _LITTLE_ENDIAN:
            words.view(_VIEW_DTYPES[width])[first:first + n] = values
            return
        for i in range(0, n, _HOST_CHUNK):
            chunk = values[i:i + _HOST_CHUNK].astype(np.uint64)
            bit = (first + i) * width
            positions = np.arange(chunk.size, dtype=np.int64) * width + bit % 32
            if width > 32:
                chunk = np.concatenate([chunk & _LOW32, chunk >> np.uint64(32)])
                positions = np.concatenate([positions, positions + 32])
            _or_words(words, bit, pack_fields(chunk, positions,
                                              bit % 32 + min(_HOST_CHUNK, n - i) * width))
        return
    bit = first * width
    total_bits = bit % 32 + n * width
    if width <= 32:
        if values.dtype == np.int32:
            low = values.view(np.uint32)       # non-negative: the same bits, no copy
        else:
            low = values.astype(np.uint32, copy=False)
        part = pack_fixed_device(low, width, total_bits, bit % 32)
    else:
        wide = values.astype(np.uint64, copy=False)
        part = pack_fixed_device((wide & _LOW32).astype(np.uint32), width, total_bits, bit % 32)
        part |= pack_fixed_device((wide >> np.uint64(32)).astype(np.uint32), width, total_bits,
                                  bit % 32 + 32)
    _or_words(words, bit, part)


def _or_words(words, bit: int, part):
    """OR ``part``, a stream whose bit 0 is bit ``bit - bit % 32`` of ``words``, into ``words``
    (its tail padding, past the end of ``words``, left out)."""
    w0 = bit // 32
    span = min(int(part.size), int(words.size) - w0)
    words[w0:w0 + span] |= part[:span]


def read_fixed(words, index, width: int, xp):
    """Fields ``index`` (int64 array) of a fixed-width stream, as uint64; O(1) each."""
    index = xp.asarray(index, dtype=np.int64)
    if width == 0:
        return xp.zeros(index.shape, dtype=np.uint64)
    if (xp is np and width in _VIEW_DTYPES and _LITTLE_ENDIAN and words.dtype == np.uint32
            and words.flags.c_contiguous
            and words.nbytes % np.dtype(_VIEW_DTYPES[width]).itemsize == 0):
        return words.view(_VIEW_DTYPES[width])[index].astype(np.uint64, copy=False)
    return read_fields(words, index * width, width, xp)


def read_range(words, start: int, stop: int, width: int, xp):
    """Fields ``start .. stop - 1`` of a fixed-width stream, as uint64.

    The host decodes a run of fields 32 at a time: 32 fields of ``width`` bits span exactly
    ``width`` words, so the bit offset of the ``j``-th field of every such row is the constant
    ``j * width`` and each of the 32 columns is one strided shift-and-mask (no gathers).  CuPy
    (and short runs) read field by field with :func:`read_fixed`.
    """
    count = stop - start
    if xp is not np or count < 256 or width == 0 or (width in _VIEW_DTYPES and _LITTLE_ENDIAN):
        return read_fixed(words, xp.arange(start, stop, dtype=np.int64), width, xp)
    out = np.empty(count, dtype=np.uint64)
    first = start - start % 32                  # rows start on a word boundary
    rows_per_pass = _DECODE_ROWS
    low_mask = np.uint64((1 << min(width, 32)) - 1)
    high_mask = np.uint64((1 << max(width - 32, 0)) - 1)
    for row0 in range(first, stop, rows_per_pass * 32):
        rows = min(rows_per_pass, -(-(stop - row0) // 32))
        word0 = row0 * width // 32
        chunk = words[word0:word0 + rows * width + 1]
        if chunk.size < rows * width + 1:       # the last row may run past the tail padding
            chunk = np.concatenate([chunk, np.zeros(rows * width + 1 - chunk.size, np.uint32)])
        window = (chunk[:-1].astype(np.uint64) | (chunk[1:].astype(np.uint64) << np.uint64(32)))
        window = window.reshape(rows, width)
        block = np.empty((rows, 32), dtype=np.uint64)
        for j in range(32):
            bit = j * width
            column = (window[:, bit >> 5] >> np.uint64(bit & 31)) & low_mask
            if width > 32:
                bit += 32
                high = (window[:, bit >> 5] >> np.uint64(bit & 31)) & high_mask
                column |= high << np.uint64(32)
            block[:, j] = column
        block = block.reshape(-1)
        lo = max(start, row0) - row0
        hi = min(stop, row0 + rows * 32) - row0
        out[row0 + lo - start:row0 + hi - start] = block[lo:hi]
    return out


# ---------------------------------------------------------------------------- the list codec

def check_lists(owner, values, num_lists: int, xp, bound=None, bound_name="bound",
                first_entry=0) -> int:
    """Check the encoder's preconditions and return the largest value (0 when empty).

    ``owner[i]`` is the list of ``values[i]``: owners non-decreasing and in ``[0, num_lists)``,
    values non-negative (below ``bound`` when given) and strictly increasing within a list.
    ValueError names the offending list and value (entries numbered from ``first_entry``).
    """
    if owner.ndim != 1 or values.ndim != 1 or owner.size != values.size:
        raise ValueError(f"list ids and values must be 1-D arrays of one length, got shapes "
                         f"{tuple(owner.shape)} and {tuple(values.shape)}")
    for what, array in (("list ids", owner), ("values", values)):
        if array.dtype.kind not in "iu":
            raise ValueError(f"{what} must be integers, got dtype {array.dtype}")
    n = int(owner.size)
    if n == 0:
        return 0
    low, high = int(owner.min()), int(owner.max())
    if low < 0 or high >= num_lists:
        at = int(xp.argmax((owner < 0) | (owner >= num_lists)))
        raise ValueError(f"list id {int(owner[at])} (entry {at + first_entry}) is outside "
                         f"[0, {num_lists})")
    low, high = int(values.min()), int(values.max())
    if low < 0:
        at = int(xp.argmax(values < 0))
        raise ValueError(f"value {int(values[at])} in list {int(owner[at])} is negative")
    if bound is not None and high >= bound:
        at = int(xp.argmax(values >= bound))
        raise ValueError(f"value {int(values[at])} in list {int(owner[at])} is not below "
                         f"{bound_name}={bound}")
    if n > 1:
        back = owner[1:] < owner[:-1]
        bad = back | ((owner[1:] == owner[:-1]) & (values[1:] <= values[:-1]))
        if bool(bad.any()):
            at = int(xp.argmax(bad))
            entry = at + 1 + first_entry
            first, second = int(owner[at]), int(owner[at + 1])
            a, b = int(values[at]), int(values[at + 1])
            if second < first:
                raise ValueError(f"entries are not sorted by list: list {second} follows list "
                                 f"{first} at entry {entry}")
            if a == b:
                raise ValueError(f"list {first} holds value {a} twice (duplicate entry {entry})")
            raise ValueError(f"list {first} is not sorted: value {b} follows {a} at entry {entry}")
    return high


class FixedWidthLists:
    """The list codec: ``num_lists`` sorted lists as two fixed-width streams (offsets, values).

    Independent of any vertex range: values are any non-negative integers below 2**63.  The
    buffers are read from the ``arrays`` mapping on every call (a layout's buffers, in NumPy or
    CuPy; decoding runs in that array module).
    """

    def __init__(self, xp, arrays: dict, num_lists: int, num_values: int, offset_width: int,
                 index_width: int):
        self.xp = xp
        self.arrays = arrays
        self.num_lists = int(num_lists)
        self.num_values = int(num_values)
        self.offset_width = offset_width
        self.index_width = index_width

    @classmethod
    def encode(cls, owner, values, num_lists: int, xp, *, bound=None, bound_name="bound",
               index_width=None, offset_width=None, align_slack=DEFAULT_ALIGN_SLACK):
        """Encode ``values`` grouped by ``owner`` (see :func:`check_lists` for the input), with
        the layout's range encoder (:class:`FixedLengthEncoder`)."""
        params = {"index_width": index_width, "offset_width": offset_width,
                  "align_slack": align_slack}
        coded = encode_ranges(FixedLengthEncoder(FixedLengthLayout, num_lists, xp, params, bound,
                                                 bound_name), owner, values)
        return cls(xp, coded.arrays, num_lists, coded.num_edges, coded.offset_width,
                   coded.index_width)

    @staticmethod
    def nbytes_for(num_lists: int, num_values: int, offset_width: int, index_width: int) -> int:
        """Bytes of the two streams."""
        return 4 * (stream_words((num_lists + 1) * offset_width)
                    + stream_words(num_values * index_width))

    # -- decoding ----------------------------------------------------------------------------
    def offsets(self, lists=None):
        """Offsets (int64) of ``lists`` (default: all ``num_lists + 1``)."""
        words, width, xp = self.arrays["offsets"], self.offset_width, self.xp
        if lists is None:
            return read_range(words, 0, self.num_lists + 1, width, xp).astype(np.int64)
        return read_fixed(words, lists, width, xp).astype(np.int64)

    def values(self, positions):
        """Values (int64) at entry ``positions`` of the concatenated lists."""
        values = read_fixed(self.arrays["indices"], positions, self.index_width, self.xp)
        return values.astype(np.int64)

    def values_range(self, start: int, stop: int):
        """Values (int64) of entries ``start .. stop - 1`` of the concatenated lists."""
        values = read_range(self.arrays["indices"], start, stop, self.index_width, self.xp)
        return values.astype(np.int64)

    def _check_lists(self, lists):
        if lists.size and (int(lists.min()) < 0 or int(lists.max()) >= self.num_lists):
            at = int(self.xp.argmax((lists < 0) | (lists >= self.num_lists)))
            raise ValueError(f"list {int(lists[at])} is outside [0, {self.num_lists})")

    def decode(self, lists):
        """``(owner, values, positions)`` of whole lists, as :meth:`Layout.decode_lists`.

        A run of consecutive lists (``to_coo``) is read as one run of fields; any other set of
        lists field by field, each in O(1).
        """
        xp = self.xp
        lists = xp.asarray(lists, dtype=np.int64).reshape(-1)
        self._check_lists(lists)
        k = int(lists.size)
        if (k and int(lists[-1]) - int(lists[0]) == k - 1
                and bool((lists[1:] - lists[:-1] == 1).all())):
            first = int(lists[0])
            bounds = read_range(self.arrays["offsets"], first, first + k + 1, self.offset_width,
                                xp).astype(np.int64)
            owner, positions = ragged_positions(xp, bounds[:-1], bounds[1:] - bounds[:-1])
            return owner, self.values_range(int(bounds[0]), int(bounds[-1])), positions
        starts = self.offsets(lists)
        lengths = self.offsets(lists + 1) - starts
        owner, positions = ragged_positions(xp, starts, lengths)
        return owner, self.values(positions), positions

    def decode_range(self, list_id: int, begin: int, end: int):
        """Entries ``begin .. end - 1`` of one list (Python slice semantics), read directly."""
        xp = self.xp
        list_id = int(list_id)
        if not 0 <= list_id < self.num_lists:
            raise ValueError(f"list {list_id} is outside [0, {self.num_lists})")
        start, stop = (int(x) for x in self.offsets(xp.asarray([list_id, list_id + 1])))
        first, last, _ = slice(begin, end).indices(stop - start)
        return self.values_range(start + first, start + max(first, last))


# ---------------------------------------------------------------------------- the layout

def _owner_of(xp, offsets, edge: int) -> int:
    # The vertex whose list holds ``edge`` (the last one whose offset is <= edge).
    return int(xp.searchsorted(offsets, xp.asarray([edge], dtype=np.int64), side="right")[0]) - 1


class FixedLengthLayout(Layout):
    """CSR whose offsets and neighbour ids are bit-packed at fixed widths (module docstring)."""

    name = "fl"
    build_bytes_per_vertex = 4  # measured 2.4
    buffer_names = ("offsets", "indices")
    edge_buffers = ("indices",)

    def __init__(self, xp, num_vertices, num_edges, arrays, params, offset_width, index_width):
        super().__init__(xp, num_vertices, num_edges, arrays, params)
        self.offset_width = offset_width
        self.index_width = index_width

    @classmethod
    def check_params(cls, index_width=None, offset_width=None,
                     align_slack=DEFAULT_ALIGN_SLACK) -> dict:
        """Defaults: both widths automatic (``None``), ``align_slack=1/8``.

        Raises TypeError for a width that is not None or an int, or a slack that is not a real
        number; ValueError for a width outside ``0 .. 64`` or a negative or non-finite slack.
        """
        out = {}
        for name, width in (("index_width", index_width), ("offset_width", offset_width)):
            if width is not None:
                if isinstance(width, (bool, np.bool_)) or not isinstance(width, Integral):
                    raise TypeError(f"{name} must be None or an int, got {width!r}")
                if not 0 <= int(width) <= MAX_WIDTH:
                    raise ValueError(f"{name}={int(width)} is outside [0, {MAX_WIDTH}]")
                width = int(width)
            out[name] = width
        if isinstance(align_slack, (bool, np.bool_)) or not isinstance(align_slack, Real):
            raise TypeError(f"align_slack must be a real number, got {align_slack!r}")
        if not (np.isfinite(float(align_slack)) and float(align_slack) >= 0):
            raise ValueError(f"align_slack={align_slack!r} must be finite and >= 0")
        out["align_slack"] = float(align_slack)
        return out

    @classmethod
    def encoder(cls, num_vertices, xp, **params):
        return FixedLengthEncoder(cls, num_vertices, xp, cls.check_params(**params),
                                  int(num_vertices), "num_vertices")

    def saved_state(self) -> dict:
        """The two stored widths (constructor arguments)."""
        return {"offset_width": int(self.offset_width), "index_width": int(self.index_width)}

    def _lists(self) -> FixedWidthLists:
        return FixedWidthLists(self.xp, self.arrays, self.num_vertices, self.num_edges,
                               self.offset_width, self.index_width)

    # -- decoding ----------------------------------------------------------------------------
    def offsets(self):
        """The unpacked offsets, int64, ``num_vertices + 1`` entries."""
        return self._lists().offsets()

    def degrees(self):
        offsets = self.offsets()
        return offsets[1:] - offsets[:-1]

    def decode_lists(self, vertices):
        return self._lists().decode(vertices)

    def decode_range(self, v, begin, end):
        """Neighbours ``begin .. end - 1`` of ``v``, read directly at ``offsets[v] + begin``."""
        return self._lists().decode_range(v, begin, end)

    def edge_starts(self, vertices):
        """The word holding each list's first field (bit ``first_edge(v) * index_width``)."""
        vertices = np.asarray(vertices, dtype=np.int64)
        at = self.xp.asarray(np.minimum(vertices, self.num_vertices))
        first = to_host(read_fixed(self.arrays["offsets"], at, self.offset_width, self.xp))
        words = np.asarray(first, dtype=np.int64) * self.index_width // 32
        return {"indices": self._bounded_starts("indices", words, vertices)}

    # -- device view (formats/fixed_length.cuh) ---------------------------------------------
    @classmethod
    def device_view_types(cls):
        return ["cgc::FlView"]

    def view_type(self):
        return "cgc::FlView"  # random access: every rank is a cheap start

    def view_words(self, address):
        return [address(self.arrays["offsets"]), address(self.arrays["indices"]),
                self.offset_width, self.index_width]

    def validate(self):
        """Raise :class:`LayoutInvariantError` on the first broken invariant (module docs).

        Runs on the layout's own array module in windows: offsets in runs of
        ``VALIDATE_WINDOW_LISTS`` (:func:`base.entry_windows`), neighbour ids in windows of
        whole lists of at most ``VALIDATE_WINDOW`` ids (:func:`base.list_windows`; a longer
        list alone).  Temporaries: about 24 bytes an offset and 24 bytes an id of a window.
        """
        xp, n, m = self.xp, self.num_vertices, self.num_edges
        # 1: buffer shapes and widths
        for name, fields, width in (("offsets", n + 1, self.offset_width),
                                    ("indices", m, self.index_width)):
            what = "offset_width" if name == "offsets" else "index_width"
            if isinstance(width, (bool, np.bool_)) or not isinstance(width, Integral) \
                    or not 0 <= width <= MAX_WIDTH:
                raise invariant_error("fl", "1", f"{what}={width!r} is not an int in [0, "
                                      f"{MAX_WIDTH}]")
            words = self.arrays.get(name)
            if words is None or words.ndim != 1 or words.dtype != np.uint32:
                raise invariant_error("fl", "1", f"{name} must be a 1-D uint32 array, got "
                                      f"{None if words is None else (words.dtype, words.shape)}")
            expected = stream_words(fields * width)
            if words.size != expected:
                raise invariant_error("fl", "1", f"{name} has {words.size} words, expected "
                                      f"{expected} for {fields} fields of {width} bits plus "
                                      f"{TAIL_WORDS} tail words")
        words, width = self.arrays["offsets"], self.offset_width

        def offsets_of(a, b):  # offsets a .. b, int64
            return read_range(words, a, b + 1, width, xp).astype(np.int64)

        # 2: ends
        first, last = (int(x) for x in read_fixed(words, xp.asarray([0, n]), width, xp))
        if first != 0 or last != m:
            raise invariant_error("fl", "2", f"offsets[0]={first} and "
                                  f"offsets[{n}]={last}, expected 0 and num_edges={m}")
        # 3: non-decreasing offsets
        for a, b in entry_windows(n, xp):
            offsets = offsets_of(a, b)
            down = offsets[1:] < offsets[:-1]
            if bool(down.any()):
                bad = int(xp.argmax(down))
                raise invariant_error("fl", "3", f"offsets decrease after vertex {a + bad}: "
                                      f"{int(offsets[bad])} > {int(offsets[bad + 1])}")
        # 4, 5: neighbour ids in range (negative ids cannot be stored), strictly increasing
        # lists; windows of whole lists, the largest id kept for 6
        lists, found, largest = self._lists(), FirstBroken(), 0
        for v0, _, offsets in list_windows(offsets_of, n, xp):
            if found.done(4):
                break
            e0, e1 = int(offsets[0]), int(offsets[-1])
            if e1 == e0:
                continue
            values = lists.values_range(e0, e1)
            largest = max(largest, int(values.max()))

            def owner_of(at):  # the vertex whose list holds window entry ``at``
                return v0 + _owner_of(xp, offsets, e0 + at)

            if largest >= n:
                at = int(xp.argmax(values >= n))
                found.fail(4, invariant_error(
                    "fl", "4", f"neighbour {int(values[at])} of vertex {owner_of(at)} "
                    f"(edge {e0 + at}) is not below num_vertices={n}"))
                continue
            if found.done(5) or e1 - e0 < 2:
                continue
            bad = values[1:] <= values[:-1]
            starts = offsets[1:-1]
            bad[starts[(starts > e0) & (starts < e1)] - e0 - 1] = False  # lists' first entries
            if bool(bad.any()):
                at = int(xp.argmax(bad)) + 1
                owner = owner_of(at)
                found.fail(5, invariant_error(
                    "fl", "5", f"list of vertex {owner} is not strictly increasing at position "
                    f"{e0 + at - int(offsets[owner - v0])}: {int(values[at])} after "
                    f"{int(values[at - 1])}"))
        found.raise_first()
        # 6: canonical widths
        slack = self.params.get("align_slack", DEFAULT_ALIGN_SLACK)
        for what, largest_value in (("offset_width", m), ("index_width", largest)):
            given = self.params.get(what)
            stored = getattr(self, what)
            l = int(largest_value).bit_length()
            expected = given if given is not None else auto_width(l, slack)
            if stored != expected:
                if given is not None:
                    rule = f"{what}={given} was given"
                else:
                    rule = (f"the automatic rule (align_slack={slack}) gives {expected} for the "
                            f"largest value {largest_value}")
                raise invariant_error("fl", "6", f"{what} is {stored} but {rule}")


# ---------------------------------------------------------------------------- the range encoder

class FixedLengthEncoder(RangeEncoder):
    """The range encoder of :class:`FixedLengthLayout` (and of :class:`FixedWidthLists`).

    Both widths are known once every range is sized (the offset width from the edge count,
    the index width from the largest value), so sizing a range only checks it and keeps its
    largest value; writing a range ORs its offsets and values into the two streams (fields
    need not start on a word: the words a range shares with its neighbours are ORed), in any
    order.  Across ranges it keeps two numbers and the ranges' first edges.

    ``bound`` (None: values below 2**64 only) and ``bound_name`` are those of
    :func:`check_lists`.
    """

    def __init__(self, layout_cls, num_vertices, xp, params, bound=None, bound_name="bound"):
        super().__init__(layout_cls, num_vertices, xp, params)
        self.bound, self.bound_name = bound, bound_name
        self.largest = 0
        self.offsets = self.indices = None

    layout_chunk_edges = CHUNK_EDGES
    work_bytes_per_edge = 80  # measured 62 (widths that are not 8, 16, 32 or 64)

    def _check(self, src, dst, first_entry):
        largest = check_lists(src, dst, self.num_vertices, self.xp, self.bound, self.bound_name,
                              first_entry)
        self.largest = max(self.largest, int(largest))

    def _size(self, v0, v1, src, dst, first_edge):
        pass  # the checks kept the largest value; the edge count is the rest

    def widths(self):
        """``(offset_width, index_width)``, once every range is sized (ValueError for a width
        given too narrow, naming both)."""
        p = self.params
        return (choose_width(self.num_edges, p["offset_width"], p["align_slack"], "offset_width"),
                choose_width(self.largest, p["index_width"], p["align_slack"], "index_width"))

    def _nbytes(self):
        return FixedWidthLists.nbytes_for(self.num_vertices, self.num_edges, *self.widths())

    def _allocate(self):
        w_off, w_idx = self.widths()
        self.offsets = self.xp.zeros(stream_words((self.num_vertices + 1) * w_off), np.uint32)
        self.indices = self._edge_zeros(stream_words(self.num_edges * w_idx), np.uint32)

    def _write(self, v0, v1, src, dst, first_edge):
        xp, n = self.xp, self.num_vertices
        w_off, w_idx = self.widths()
        src = searchable(src, v1)
        for w0, w1, e0, e1 in self.runs(v0, v1, src):
            end = w1 + 1 if w1 == n else w1  # offset w1 is the next run's first, but the last
            pack_fixed_into(self.offsets, first_entries(src, w0, end, xp) + first_edge, w_off,
                            w0, xp)
            pack_fixed_into(self.indices, dst[e0:e1], w_idx, first_edge + e0, xp)
        return None

    def _arrays(self):
        arrays = {"offsets": self.offsets, "indices": self.indices}
        self.offsets = self.indices = None
        return (arrays, self.params, *self.widths())
