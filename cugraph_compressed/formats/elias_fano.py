"""``ef``: every neighbour list coded with Elias-Fano (EFG, Gera & Kim), bit-contiguous.

The module has two layers: :class:`EliasFanoLists` codes any sequence of sorted lists of
integers below ``2**32`` (list ``i`` given as the pairs ``(i, value)``), independent of any graph;
:class:`EliasFanoLayout` is the thin graph layout on top (list ``v`` = out-neighbours of vertex
``v``, ``num_lists = num_vertices``, values below ``num_vertices``).

Parameters
----------
``k`` (default 512, the paper's)
    Forward-pointer stride: a list of ``n > k`` values carries a pointer to every value of rank
    ``j * k`` (``1 <= j <= (n - 1) // k``) so decoding can start there.  ``1 <= k <= 2**32``.
``block_size`` (default 64)
    ``B``, the number of per-list entries sharing one row of 64-bit bases in ``blocks``; a power
    of two in ``[1, 2**16]``.

Coding of one list
------------------
A list of ``n >= 1`` strictly increasing values ``x_0 < ... < x_{n-1} < 2**32`` has
``u = x_{n-1} + 1`` and ``l = max(0, floor(log2(u / n)))`` low bits per value (``0 <= l <= 32``;
in integers ``l = bit_length(u // n) - 1``).  Its bits, from its data bit offset ``s`` on::

    [pointers: m fields of w_fp bits][lows: n fields of l bits][uppers: n + (x_{n-1} >> l) bits]

* ``m = (n - 1) // k`` forward pointers of ``w_fp = bit_length(2n - 1)`` bits each (``m = 0``
  when ``n <= k``).  Pointer ``j`` (``1 <= j <= m``) lies at ``s + (j - 1) * w_fp`` and holds
  ``x_{jk} >> l`` = (position of the ``jk``-th one in the uppers) ``- jk``, i.e.
  ``select1(jk) - jk``; it fits because ``x_{n-1} >> l <= 2n - 1``.
* lows start at ``lo = s + m * w_fp``: value ``i``'s field is ``x_i & (2**l - 1)`` at
  ``lo + i * l``.
* uppers start at ``up = lo + n * l``: bit ``up + (x_i >> l) + i`` is set for every ``i``, every
  other bit is clear.  No terminating bit: the region is exactly ``n + (x_{n-1} >> l)`` bits, so
  it ends with a one and the next list's bits follow at once (lists are bit-contiguous, never
  word-aligned).  ``x_i = ((p_i - up - i) << l) | low_i`` where ``p_i`` is the ``i``-th one.

An empty list (``n = 0``, "u = 0") has no bits and ``l = 0``.  A list costs at most
``n * (2 + ceil(log2(u / n)))`` bits (the Elias-Fano bound, :func:`ef_bound_bits`) plus its
pointers; pointers add about ``bit_length(2n) / k`` bits per value.

Buffers (``L = num_lists`` lists; entry ``e`` of ``0 .. L`` describes list ``e``, entry ``L`` is
the end sentinel)
------------------
Per entry ``e`` three numbers are stored: ``first[e]``, the number of values in lists before
``e`` (so ``n_e = first[e + 1] - first[e]`` and ``first[L] = num_values``; the property slot
of value ``i`` of list ``e`` is ``first[e] + i``); ``start[e]``, the bit offset ``s`` of list
``e`` in ``data`` (``start[L]`` = data bits); and ``l[e]`` (0 for the sentinel).  They are held
in two levels:

``blocks``
    int64, shape ``(L // B + 1, 4)``.  Row ``b`` covers entries ``b*B .. min(b*B + B, L + 1) - 1``:
    ``[0]`` ``first[b*B]``, ``[1]`` ``start[b*B]``, ``[2]`` the bit position in ``records`` of
    entry ``b*B``'s record, ``[3]`` the row's field widths ``we | wb << 8 | wl << 16`` (bits
    24..63 zero): ``we = bit_length(first[last] - first[b*B])``,
    ``wb = bit_length(start[last] - start[b*B])`` (``last`` the row's last entry) and
    ``wl = bit_length(max l over the row)``.
``records``
    uint32 bit stream (format of :mod:`.bits`: bit ``i`` is bit ``i % 32`` of word ``i // 32``,
    fields least significant bit first, ``TAIL_WORDS`` words of tail padding).  Entry
    ``e = b*B + j`` has a ``W = we + wb + wl``-bit record at ``R = blocks[b, 2] + j * W``:
    ``first[e] - blocks[b, 0]`` in ``we`` bits at ``R``, ``start[e] - blocks[b, 1]`` in ``wb``
    bits at ``R + we``, ``l[e]`` in ``wl`` bits at ``R + we + wb``.  Widths may exceed 32 (up
    to 64): such a field is read as its low 32 bits at ``p`` and its high ``w - 32`` bits at
    ``p + 32``.  Rows are consecutive: ``blocks[b + 1, 2] = blocks[b, 2] + B * W_b``; the stream
    holds ``blocks[-1, 2] + (entries of the last row) * W_last`` bits.
``data``
    uint32 bit stream (same format) of ``start[L]`` bits: the lists' codes, list after list.

Padding: both streams end with ``TAIL_WORDS`` words after their last data word, so a decoder may
load the 64-bit window ``words[p // 32], words[p // 32 + 1]`` at any position ``p`` up to the
stream's bit length.  The tail words and the unused bits of the last data word are written as
zeros but their content is unspecified: decoders bound every scan by the next list's ``start``.

Decoding (what a GPU decoder does; the host decoders here do the same with NumPy)
--------------------------------------------------------------------------------
Entry ``e``: ``b = e >> log2(B)``, one row load, one record read (two for ``e + 1`` when it is
the next row's head).  A whole list: the threads of a block take the upper region word by word
(reading 32-bit windows at any bit offset), popcount them, prefix-sum the counts to know the
rank of every one, then select-in-word (or select-in-byte with a lookup table) to find each
one's position ``p_i``; value ``i`` is ``((p_i - up - i) << l) | low_i`` with ``low_i`` read at
``lo + i * l``.  From value ``i`` on (``decode_range``): ``j = i // k``; for ``j >= 1`` the scan
starts at bit ``up + pointer_j + j*k`` (that bit is the one of value ``jk``), for ``j = 0`` at
``up``; it never has to go past the one of value ``(j' * k)`` for the first pointer ``j'`` beyond
the range, or past ``start[e + 1]``.

Sizes
-----
Graph500 R-MAT, directed, deduplicated: scale 16 (955K edges) 1.64 bytes per edge against 4.27
for a plain CSR with 32-bit indices; scale 24 (263M edges) 2.39 bytes per edge (data 2.13,
records 0.23, blocks 0.03) against 4.25, the data at 0.967 x the Elias-Fano bound.  Per list
entry the two levels cost about 34 bits (a 256-bit row per 64 entries plus records of
row-local widths, ~30 bits), where a 64-bit offset, a 32-bit degree and l would cost 100.

Invariants (checked by :meth:`EliasFanoLists.validate`, numbered in its messages)
-----------------------------------------------------------------------------------
1. ``blocks`` is int64 of shape ``(L // B + 1, 4)``; ``records`` and ``data`` are 1-D uint32.
2. Row 0 starts at zero (``blocks[0, :3] == 0``); every row's widths have ``we, wb <= 64``,
   ``wl <= 6`` and zero bits 24..63; rows are consecutive in ``records``
   (``blocks[b + 1, 2] = blocks[b, 2] + B * W_b``) and ``records`` holds exactly
   ``stream_words`` of the total record bits.
3. Value offsets: each row's head record stores 0 (``first[b*B] = blocks[b, 0]``), ``first`` is
   non-decreasing and ``first[L] = num_values``.
4. Bit offsets: each row's head record stores 0 (``start[b*B] = blocks[b, 1]``), ``start`` is
   non-decreasing, and ``data`` holds exactly ``stream_words(start[L])`` words.
5. Every list's bits are its pointers, lows and an upper region of exactly ``n`` one bits that
   ends with a one (an empty list has no bits).
6. ``l`` of a non-empty list is ``max(0, floor(log2(u / n)))`` with ``u`` = its last value + 1;
   empty lists and the sentinel have ``l = 0``.
7. Pointer ``j`` of a list holds ``x_{jk} >> l``.
8. Every list is strictly increasing.
9. Every value is below the value bound (``2**32`` for the codec, ``num_vertices`` for the
   layout).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import _backend, _placement
from ..kernels import get_kernel, grid_size, register
from .base import (
    FirstBroken,
    Layout,
    RangeEncoder,
    encode_ranges,
    entry_windows,
    first_entries,
    invariant_error,
    list_chunks,
    list_windows,
    popcount,
    ragged_positions,
    searchable,
)
from .bits import (
    WORD_BITS,
    BitReader,
    bit_length,
    pack_into,
    read_fields,
    split_fields,
    stream_words,
)

_ONE = np.uint64(1)
_BYTE_TABLES = {}


def _byte_tables(xp):
    """``(ones, select)``: the ones of each byte value and the bit of its ``k``-th one
    (``select[byte, k]``, 0 past its ones), int64 arrays of ``xp``."""
    name = xp.__name__
    if name not in _BYTE_TABLES:
        bits = (np.arange(256)[:, None] >> np.arange(8)) & 1
        select = np.zeros((256, 8), dtype=np.int64)
        for value in range(256):
            where = np.flatnonzero(bits[value])
            select[value, :where.size] = where
        _BYTE_TABLES[name] = (xp.asarray(bits.sum(axis=1)), xp.asarray(select))
    return _BYTE_TABLES[name]

DEFAULT_K = 512
DEFAULT_BLOCK_SIZE = 64
MAX_K = 2**32
MAX_BLOCK_SIZE = 2**16
VALUE_LIMIT = 2**32  # values are below this
CHUNK_EDGES = 1 << 22  # values per encoder run (whole rows of lists): bounds its temporaries
#: Values per run of the device encoder, which keeps nothing per value: fewer, longer runs.
DEVICE_CHUNK_EDGES = 1 << 24
#: Bytes per value of a run the device encoder may allocate: its kernels allocate nothing per
#: value (per list about 25: value and bit offsets, l), but a run's list ids are copied to
#: int64 when their dtype cannot number every list (``searchable``), and ids narrower than 32
#: bits or strided are copied for the kernels (``_words``): at most 8 + 8.
DEVICE_WORK_BYTES_PER_EDGE = 16
_ROW_COLUMNS = 4

__all__ = ["EliasFanoLayout", "EliasFanoLists", "EliasFanoEncoder", "ef_bound_bits",
           "check_params"]


def check_params(k=DEFAULT_K, block_size=DEFAULT_BLOCK_SIZE) -> dict:
    """Validate the ``ef`` parameters; returns them with defaults filled in."""
    for name, value in (("k", k), ("block_size", block_size)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an int, got {value!r}")
    if not 1 <= k <= MAX_K:
        raise ValueError(f"k={k} is out of range: forward pointers every k values need "
                         f"1 <= k <= {MAX_K}")
    if not (1 <= block_size <= MAX_BLOCK_SIZE and block_size & (block_size - 1) == 0):
        raise ValueError(f"block_size={block_size} must be a power of two between 1 and "
                         f"{MAX_BLOCK_SIZE}")
    return {"k": int(k), "block_size": int(block_size)}


# -- planning: every per-list number, written once against xp --------------------------------
def _list_numbers(n, u, xp, k):
    """Per non-empty list (``n >= 1`` values, the last ``u - 1``): l, pointer count m,
    pointer width w_fp and total bits (int64 arrays)."""
    l = xp.maximum(bit_length(u // n, xp) - 1, 0)
    m = (n - 1) // k
    w_fp = xp.where(m > 0, bit_length(2 * n - 1, xp), 0)
    return l, m, w_fp, m * w_fp + n * l + n + ((u - 1) >> l)


def _entry_numbers(owner, values, a, b, xp, k):
    """Entries ``a .. b - 1`` (list ``e``, or the sentinel when ``e == num_lists``: an empty
    list): ``first`` (``b - a + 1`` value offsets, the last one entry ``b``'s) and per entry
    ``n``, ``l``, ``m``, ``w_fp`` and total bits (int64 arrays).  Only non-empty lists are
    worked on: every number of an empty list is 0."""
    first = first_entries(owner, a, b + 1, xp)
    n = first[1:] - first[:-1]
    numbers = [xp.zeros(n.size, dtype=np.int64) for _ in range(4)]
    full = xp.flatnonzero(n)
    if full.size:
        u = values[first[full + 1] - 1].astype(np.int64) + 1
        for array, part in zip(numbers, _list_numbers(n[full], u, xp, k)):
            array[full] = part
    return (first, n, *numbers)


def _size_run(blocks, owner, values, a, b, value_base, data_bits, record_bits, xp, k, B):
    """The sizing sweep over entries ``a .. b - 1`` (whole rows, or up to the sentinel):
    their rows of ``blocks`` (final).  ``owner`` and ``values`` are the run's entries, the
    first of them value ``value_base`` of all lists; the run's first row starts at data bit
    ``data_bits`` and record bit ``record_bits``.  Returns where the next run starts, so no
    temporary spans more than the run."""
    first, n, l, m, w_fp, bits = _entry_numbers(owner, values, a, b, xp, k)
    start = _offsets_from(bits, data_bits, xp)
    heads = xp.arange(0, b - a, B, dtype=np.int64)     # rows a // B .. , run-local entries
    lasts = xp.minimum(heads + B - 1, b - a - 1)
    we = bit_length(first[lasts] - first[heads], xp)
    wb = bit_length(start[lasts] - start[heads], xp)
    padded = xp.zeros(heads.size * B, dtype=np.int64)
    padded[:b - a] = l
    wl = bit_length(padded.reshape(heads.size, B).max(axis=1), xp)
    record_at = _offsets_from((lasts - heads + 1) * (we + wb + wl), record_bits, xp)
    rows = slice(a // B, a // B + heads.size)
    blocks[rows, 0] = first[heads] + value_base
    blocks[rows, 1] = start[heads]
    blocks[rows, 2] = record_at[:-1]
    blocks[rows, 3] = we | (wb << 8) | (wl << 16)
    return int(start[-1]), int(record_at[-1])


def _offsets_from(sizes, base: int, xp):
    """``base`` plus the exclusive prefix sums of ``sizes``: one more entry than ``sizes``."""
    out = xp.full(sizes.size + 1, base, dtype=np.int64)
    out[1:] += xp.cumsum(sizes)
    return out


def _nbytes_of(blocks, data_bits: int, record_bits: int) -> int:
    return int(blocks.nbytes) + 4 * stream_words(record_bits) + 4 * stream_words(data_bits)


def _bound_bits(n, u, xp) -> int:
    """Sum over non-empty lists of n * (2 + ceil(log2(u / n)))."""
    nonempty = n > 0
    safe_n = xp.maximum(n, 1)
    ceil_ratio = -(-u // safe_n)  # ceil(u / n) >= 1
    ceil_log = bit_length(xp.maximum(ceil_ratio - 1, 0), xp)  # ceil(log2(ceil(u / n)))
    return int(xp.where(nonempty, n * (2 + ceil_log), 0).sum())


def ef_bound_bits(owner, values, num_lists, xp=np) -> int:
    """The Elias-Fano bound of these lists: the sum over lists of ``n * (2 + ceil(log2(u / n)))``
    bits, ``u`` the list's largest value + 1 (empty lists count 0).

    For a graph pass ``(src, dst, num_vertices)``, edges sorted by (src, dst) without
    duplicates.  :attr:`EliasFanoLists.data_bits` of the encoding never exceeds it by more than
    the forward pointers.
    """
    owner = xp.asarray(owner)
    values = xp.asarray(values)
    if values.size:
        n = xp.bincount(owner, minlength=int(num_lists)).astype(np.int64)
        ends = xp.cumsum(n)
        last = values[xp.maximum(ends - 1, 0)].astype(np.int64)
        u = xp.where(n > 0, last + 1, 0)
    else:
        n = u = xp.zeros(int(num_lists), dtype=np.int64)
    return _bound_bits(n, u, xp)


# -- input checks ------------------------------------------------------------------------------
def _check_num_lists(num_lists):
    if isinstance(num_lists, bool) or int(num_lists) != num_lists or num_lists < 0:
        raise ValueError(f"the number of lists must be a non-negative int, got {num_lists!r}")


def _check_input(owner, values, num_lists, xp, what, first_entry=0):
    """ValueError naming the list and value on entries that are not sorted lists of distinct
    values below 2**32 owned by lists ``0 .. num_lists - 1``; ``first_entry`` is the number of
    the first entry in the messages."""
    if owner.ndim != 1 or values.ndim != 1 or owner.size != values.size:
        raise ValueError(f"list ids and values must be 1-D arrays of one length, got shapes "
                         f"{tuple(owner.shape)} and {tuple(values.shape)}")
    for name, array in (("list ids", owner), ("values", values)):
        if array.size and np.dtype(array.dtype).kind not in "iu":
            raise ValueError(f"{name} must be integers, got dtype {array.dtype}")
    size = int(values.size)
    if not size:
        return
    lo, hi = int(owner.min()), int(owner.max())
    if lo < 0 or hi >= num_lists:
        bad = lo if lo < 0 else hi
        raise ValueError(f"{what} {bad} is out of range: list ids must lie in [0, {num_lists})")
    lo, hi = int(values.min()), int(values.max())
    if lo < 0 or hi >= VALUE_LIMIT:
        bad = lo if lo < 0 else hi
        at = int(xp.argmax(values == bad))
        raise ValueError(f"{what} {int(owner[at])} holds value {bad}, outside [0, 2**32 - 1]")
    if size > 1:
        step = owner[1:].astype(np.int64) - owner[:-1].astype(np.int64)
        if bool((step < 0).any()):
            at = int(xp.argmax(step < 0)) + 1
            raise ValueError(f"input is not sorted by list: {what} {int(owner[at])} comes after "
                             f"{what} {int(owner[at - 1])} (entry {at + first_entry})")
        wide = values.astype(np.int64)
        bad = (step == 0) & (wide[1:] <= wide[:-1])
        if bool(bad.any()):
            at = int(xp.argmax(bad)) + 1
            prev, cur = int(wide[at - 1]), int(wide[at])
            problem = (f"holds value {cur} twice" if prev == cur
                       else f"is not sorted: value {cur} follows {prev}")
            raise ValueError(f"{what} {int(owner[at])} {problem} (entry {at + first_entry}); "
                             "lists must be "
                             "strictly increasing")


# -- the codec -----------------------------------------------------------------------------------
class EliasFanoLists:
    """``num_lists`` sorted lists of values below ``2**32``, Elias-Fano coded (module docs).

    Parameters
    ----------
    xp : module
        The array module holding ``arrays`` (NumPy or CuPy).
    num_lists, num_values : int
        Lists and values coded.
    arrays : dict
        ``blocks``, ``records``, ``data`` as documented in the module.
    k, block_size : int
        The parameters they were coded with.
    """

    def __init__(self, xp, num_lists, num_values, arrays, k=DEFAULT_K,
                 block_size=DEFAULT_BLOCK_SIZE):
        self.xp = xp
        self.num_lists = int(num_lists)
        self.num_values = int(num_values)
        self.arrays = arrays
        self.k = int(k)
        self.block_size = int(block_size)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def encode(cls, owner, values, num_lists, xp, k=DEFAULT_K, block_size=DEFAULT_BLOCK_SIZE,
               what="list"):
        """Code the lists given as pairs ``(owner[i], values[i])``, sorted by owner then value.

        ``xp`` is NumPy (host reference) or CuPy (GPU encoder, bit-identical buffers).  Raises
        ValueError naming the list and the value when the input is not sorted by list, a list
        is not strictly increasing, or a value or list id is out of range; ``what`` names a
        list in those messages.  The layout's range encoder (:class:`EliasFanoEncoder`) does
        the work, with values bounded by ``2**32`` only.
        """
        params = check_params(k, block_size)
        coded = encode_ranges(EliasFanoEncoder.for_lists(num_lists, xp, params, what),
                              owner, values)
        return cls(xp, num_lists, coded.num_edges, coded.arrays, **params)

    @staticmethod
    def estimate_nbytes(owner, values, num_lists, xp, k=DEFAULT_K,
                        block_size=DEFAULT_BLOCK_SIZE) -> int:
        """Bytes :meth:`encode` would produce for this input: its sizing sweep alone."""
        params = check_params(k, block_size)
        return encode_ranges(EliasFanoEncoder.for_lists(num_lists, xp, params, "list"),
                             owner, values, size_only=True)

    # -- host views -------------------------------------------------------------------------
    def _host(self):
        """``(blocks, records, data)`` as NumPy arrays (copies when held by CuPy)."""
        arrays = tuple(self.arrays[name] for name in ("blocks", "records", "data"))
        if all(isinstance(a, np.ndarray) for a in arrays):
            return arrays
        cached = getattr(self, "_host_copy", None)  # (device arrays, their host copies)
        if cached is None or any(a is not b for a, b in zip(cached[0], arrays)):
            cached = (arrays, tuple(_backend.to_host(a) for a in arrays))
            self._host_copy = cached
        return cached[1]

    def _out(self, array):
        return array if self.xp is np else self.xp.asarray(array)

    def _entries(self, entries, blocks=None, records=None):
        """``(first, start, l)`` of entries (NumPy int64 arrays in, NumPy out)."""
        if blocks is None:
            blocks, records, _ = self._host()
        entries = np.asarray(entries, dtype=np.int64)
        b = entries // self.block_size
        row = blocks[b]
        widths = row[:, 3]
        we, wb, wl = widths & 0xFF, (widths >> 8) & 0xFF, (widths >> 16) & 0xFF
        at = row[:, 2] + (entries - b * self.block_size) * (we + wb + wl)
        first = row[:, 0] + read_fields(records, at, we).astype(np.int64)
        start = row[:, 1] + read_fields(records, at + we, wb).astype(np.int64)
        l = read_fields(records, at + we + wb, wl).astype(np.int64)
        return first, start, l

    def entry_starts(self, entries, blocks, records):
        """The bit of ``data`` where each of ``entries``' lists begins (NumPy int64), from
        host copies of ``blocks`` and ``records`` (the per-list buffers alone)."""
        return self._entries(entries, blocks, records)[1]

    def _lists(self, lists):
        """Everything a decoder needs about ``lists`` (NumPy int64 arrays)."""
        lists = np.asarray(_backend.to_host(lists), dtype=np.int64).ravel()
        if lists.size and (int(lists.min()) < 0 or int(lists.max()) >= self.num_lists):
            bad = int(lists.min()) if int(lists.min()) < 0 else int(lists.max())
            raise ValueError(f"list {bad} is out of range: there are {self.num_lists} lists")
        first, start, l = self._entries(np.concatenate([lists, lists + 1]))
        q = lists.size
        n = first[q:] - first[:q]
        m = np.where(n > 0, (n - 1) // self.k, 0)
        w_fp = np.where(m > 0, bit_length(2 * n - 1, np), 0)
        lo = start[:q] + m * w_fp
        return dict(first=first[:q], n=n, l=l[:q], m=m, w_fp=w_fp, start=start[:q], lo=lo,
                    up=lo + n * l[:q], end=start[q:])

    def bit_ranges(self, lists):
        """``(start, end)``: the bit positions in ``data`` where each list's entry (forward
        pointers, lows, upper bits) begins and where the next one begins (NumPy int64)."""
        info = self._lists(lists)
        return info["start"], info["end"]

    # -- decoding ----------------------------------------------------------------------------
    def degrees(self):
        """Length of every list, int64 (array module of the buffers)."""
        first, _, _ = self._entries(np.arange(self.num_lists + 1, dtype=np.int64))
        return self._out(np.diff(first))

    def _ones(self, data, up, end):
        """Positions of the one bits in the regions ``[up_i, end_i)`` and the region of each,
        in region order then position order (NumPy)."""
        nonempty = end > up
        w0 = up >> 5
        words = np.where(nonempty, ((end - 1) >> 5) - w0 + 1, 0)
        word_owner, word_index = ragged_positions(np, w0, words)
        bits = np.unpackbits(data[word_index].astype("<u4").view(np.uint8), bitorder="little")
        hit = np.flatnonzero(bits)
        owner = word_owner[hit >> 5]
        position = word_index[hit >> 5] * WORD_BITS + (hit & 31)
        keep = (position >= up[owner]) & (position < end[owner])
        return owner[keep], position[keep]

    def _decode(self, info, data):
        """All values of the lists in ``info`` (assumes exactly n ones per upper region)."""
        owner, position = self._ones(data, info["up"], info["end"])
        n = info["n"]
        rank = np.arange(owner.size, dtype=np.int64) - (np.cumsum(n) - n)[owner]
        l = info["l"][owner]
        low = read_fields(data, info["lo"][owner] + rank * l, l).astype(np.int64)
        high = position - info["up"][owner] - rank
        return owner, (high << l) | low, info["first"][owner] + rank

    def decode(self, lists):
        """``(owner, values, positions)`` of ``lists``: for every value, the index into
        ``lists`` of its list, the value (int64) and its slot ``first[list] + rank``."""
        _, _, data = self._host()
        owner, values, positions = self._decode(self._lists(lists), data)
        return self._out(owner), self._out(values), self._out(positions)

    def decode_range(self, i: int, begin: int, end: int):
        """Values of ranks ``begin .. end - 1`` of list ``i`` (int64), decoded from the forward
        pointer at or before ``begin``: the work is O(end - begin + k), not O(n)."""
        _, _, data = self._host()
        info = {name: int(value[0]) for name, value in self._lists([int(i)]).items()}
        n, l, k = info["n"], info["l"], self.k
        if not (isinstance(begin, (int, np.integer)) and isinstance(end, (int, np.integer))
                and 0 <= begin <= end <= n):
            raise ValueError(f"range [{begin}, {end}) is not within list {i} of {n} values")
        if begin == end:
            return self._out(np.zeros(0, dtype=np.int64))
        up, w_fp = info["up"], info["w_fp"]

        def pointer(j):  # x_{jk} >> l, from the j-th forward pointer (1 <= j <= m)
            return int(read_fields(data, [info["start"] + (j - 1) * w_fp], w_fp)[0])

        j = begin // k
        scan_from = up if j == 0 else up + pointer(j) + j * k
        after = (end - 1) // k + 1  # first pointer past the range, if the list has it
        scan_to = up + pointer(after) + after * k + 1 if after <= info["m"] else info["end"]
        w0 = scan_from >> 5
        bits = np.unpackbits(data[w0:((scan_to - 1) >> 5) + 1].astype("<u4").view(np.uint8),
                             bitorder="little")[scan_from - 32 * w0:scan_to - 32 * w0]
        position = np.flatnonzero(bits) + scan_from
        rank = j * k + np.arange(position.size, dtype=np.int64)
        keep = (rank >= begin) & (rank < end)
        rank, position = rank[keep], position[keep]
        low = read_fields(data, info["lo"] + rank * l, np.full(rank.size, l)).astype(np.int64)
        return self._out(((position - up - rank) << l) | low)

    # -- size ------------------------------------------------------------------------------
    @property
    def data_bits(self) -> int:
        """Bits of the lists' codes (pointers, lows, uppers), without padding."""
        blocks, records, _ = self._host()
        return int(self._entries(np.asarray([self.num_lists]), blocks, records)[1][0])

    def _last_values(self, info, data):
        """Last value of every non-empty list in ``info`` (needs invariant 5), int64."""
        n, l = info["n"], info["l"]
        high = info["end"] - 1 - info["up"] - (n - 1)
        low = read_fields(data, info["lo"] + (n - 1) * l, np.minimum(l, 32)).astype(np.int64)
        return (high << l) | low

    def bound_bits(self) -> int:
        """The Elias-Fano bound (:func:`ef_bound_bits`) of the coded lists."""
        _, _, data = self._host()
        info = self._lists(np.arange(self.num_lists, dtype=np.int64))
        nonempty = info["n"] > 0
        u = np.where(nonempty, self._last_values(info, data) + 1, 0)
        return _bound_bits(info["n"], np.where(nonempty, u, 0), np)

    # -- invariants ------------------------------------------------------------------------
    def _entry_range(self, a: int, b: int, reader):
        """``(first, start, l)`` of entries ``a .. b - 1``, int64 arrays of ``self.xp`` read
        through ``reader`` (a :class:`BitReader` of ``records`` on the same module)."""
        xp, B = self.xp, self.block_size
        blocks = self.arrays["blocks"]
        e = xp.arange(a, b, dtype=np.int64)
        row = e // B
        widths = blocks[row, 3]
        we, wb, wl = widths & 0xFF, (widths >> 8) & 0xFF, (widths >> 16) & 0xFF
        at = blocks[row, 2] + (e - row * B) * (we + wb + wl)
        del e, widths
        first = blocks[row, 0] + reader.fields(at, we).astype(np.int64)
        start = blocks[row, 1] + reader.fields(at + we, wb).astype(np.int64)
        return first, start, reader.fields(at + we + wb, wl).astype(np.int64)

    def validate(self, value_bound: int = VALUE_LIMIT) -> None:
        """Raise :class:`LayoutInvariantError` on the first broken invariant (module docs).

        Runs on the buffers' own array module (no copy to the host of a device layout) in
        windows: the rows whole, then the entries in runs of ``VALIDATE_WINDOW_LISTS``
        (:func:`base.entry_windows`) for invariants 3 and 4, then whole lists of at most
        ``VALIDATE_WINDOW`` values (:func:`base.list_windows`; a longer list alone) for 5 to
        9, whose ones are counted with a popcount per word and whose values are decoded
        from the words of their upper regions alone.  Temporaries: about 40 bytes a row,
        100 bytes an entry of a window of entries and 80 bytes a value of a window of
        values.
        """
        xp = self.xp
        blocks, records, data = (self.arrays[name] for name in ("blocks", "records", "data"))
        L, B = self.num_lists, self.block_size
        rows = L // B + 1
        # 1. shapes and dtypes
        if blocks.dtype != np.int64 or blocks.shape != (rows, _ROW_COLUMNS):
            raise invariant_error("ef", "1", f"blocks is {blocks.dtype} of shape {blocks.shape}, "
                                  f"expected int64 of shape ({rows}, {_ROW_COLUMNS})")
        for name, array in (("records", records), ("data", data)):
            if array.dtype != np.uint32 or array.ndim != 1:
                raise invariant_error("ef", "1", f"{name} is {array.dtype} with {array.ndim} "
                                      "dimensions, expected 1-D uint32")
        # 2. rows (a few numbers per block_size lists: whole)
        if bool((blocks[0, :3] != 0).any()):
            raise invariant_error("ef", "2", f"row 0 starts at {blocks[0, :3].tolist()}, expected "
                                  "[0, 0, 0]")
        widths = blocks[:, 3]
        we, wb, wl = widths & 0xFF, (widths >> 8) & 0xFF, (widths >> 16) & 0xFF
        bad = ((widths >> 24) != 0) | (we > 64) | (wb > 64) | (wl > 6)
        if bool(bad.any()):
            b = int(xp.argmax(bad))
            raise invariant_error("ef", "2", f"row {b} has widths word {int(widths[b]):#x}: "
                                  f"we={int(we[b])}, wb={int(wb[b])} (at most 64), "
                                  f"wl={int(wl[b])} (at most 6)")
        width = we + wb + wl
        del we, wb, wl, bad
        expected = blocks[:-1, 2] + B * width[:-1]
        if bool((blocks[1:, 2] != expected).any()):
            b = int(xp.argmax(blocks[1:, 2] != expected)) + 1
            raise invariant_error("ef", "2", f"row {b} records start at bit {int(blocks[b, 2])}, "
                                  f"expected {int(expected[b - 1])} (after row {b - 1})")
        record_bits = int(blocks[-1, 2]) + (L + 1 - (rows - 1) * B) * int(width[-1])
        del expected, width
        if records.size != stream_words(record_bits):
            raise invariant_error("ef", "2", f"records has {records.size} words, expected "
                                  f"{stream_words(record_bits)} for {record_bits} bits")
        reader = BitReader(records, xp)
        found = FirstBroken()
        self._check_offsets(reader, found)
        found.raise_first()
        self._check_lists(reader, found, value_bound)
        found.raise_first()

    def _check_offsets(self, reader, found):
        """Invariants 3 and 4, entries in windows, the sentinel's end counts beside."""
        xp, L, B = self.xp, self.num_lists, self.block_size
        blocks, data = self.arrays["blocks"], self.arrays["data"]
        first_l, start_l, _ = (int(x[0]) for x in self._entry_range(L, L + 1, reader))
        if first_l != self.num_values:
            found.fail((3, 2), invariant_error("ef", "3", f"the sentinel entry counts {first_l} "
                                               f"values, expected {self.num_values}"))
        if data.size != stream_words(start_l):
            found.fail((4, 2), invariant_error("ef", "4", f"data has {data.size} words, expected "
                                               f"{stream_words(start_l)} for {start_l} bits"))
        for a, b in entry_windows(L + 1, xp, align=B):
            if found.done((3, 0)):
                return
            first, start, _ = self._entry_range(a, min(b + 1, L + 1), reader)  # + the next head
            heads = blocks[a // B:a // B + -(-(b - a) // B)]
            for rule, name, values, column in (("3", "value offset", first, 0),
                                               ("4", "bit offset", start, 1)):
                step = int(rule)
                if found.done((step, 0)):
                    break
                off = values[:b - a:B] != heads[:, column]
                if bool(off.any()):
                    r = int(xp.argmax(off))
                    found.fail((step, 0), invariant_error(
                        "ef", rule, f"the head record of row {a // B + r} stores {name} "
                        f"{int(values[r * B] - heads[r, column])}, expected 0"))
                    break
                if found.done((step, 1)):
                    break
                down = values[1:] < values[:-1]
                if bool(down.any()):
                    e = int(xp.argmax(down))
                    found.fail((step, 1), invariant_error(
                        "ef", rule, f"{name} decreases from entry {a + e} to {a + e + 1}: "
                        f"{int(values[e])} > {int(values[e + 1])}"))
                    break

    def _check_lists(self, reader, found, value_bound):
        """Invariants 5 to 9, whole lists in windows (offsets already checked)."""
        xp, L = self.xp, self.num_lists
        l_sentinel = int(self._entry_range(L, L + 1, reader)[2][0])
        if l_sentinel != 0:
            found.fail((6, 0), invariant_error("ef", "6", f"the sentinel entry stores "
                                               f"l={l_sentinel}, expected 0"))
        data = BitReader(self.arrays["data"], xp)

        def offsets_of(a, b):
            return self._entry_range(a, b + 1, reader)[0]

        for v0, v1, _ in list_windows(offsets_of, L, xp):
            if found.done((5, 0)):
                return
            self._check_window(v0, v1, reader, data, found, value_bound)

    def _check_window(self, v0, v1, reader, data, found, value_bound):
        """Invariants 5 to 9 on lists ``v0 .. v1 - 1``, in order; records the first failure."""
        xp, k = self.xp, self.k
        first, start, l = self._entry_range(v0, v1 + 1, reader)
        n = first[1:] - first[:-1]
        end, start, l = start[1:], start[:-1], l[:-1]
        m = xp.where(n > 0, (n - 1) // k, 0)
        w_fp = xp.where(m > 0, bit_length(2 * n - 1, xp), 0)
        lo = start + m * w_fp
        up = lo + n * l

        def fail(step, rule, mask, detail):  # the first list of the window where mask holds
            if not bool(mask.any()):
                return False
            e = int(xp.argmax(mask))
            return found.fail(step, invariant_error("ef", rule, detail(e, v0 + e)))

        # 5. upper regions
        if fail((5, 0), "5", (n == 0) & (end != start),
                lambda e, v: f"empty list {v} has {int(end[e] - start[e])} bits"):
            return
        if found.done((5, 1)) or fail(
                (5, 1), "5", (n > 0) & (up >= end),
                lambda e, v: f"list {v} has {int(end[e] - start[e])} bits, too few for "
                             f"{int(up[e] - start[e])} bits of pointers and lows and {int(n[e])} "
                             "ones"):
            return
        words = data.words
        w_lo = int(start[0]) >> 5 if start.size else 0
        span = words[w_lo:(int(end[-1]) >> 5) + 1] if start.size else words[:0]
        before = xp.zeros(span.size + 1, dtype=np.int64)
        before[1:] = xp.cumsum(popcount(span, xp))

        def rank(p):  # ones of the span before bit p
            word = (p >> 5) - w_lo
            below = (xp.left_shift(_ONE, (p & 31).astype(np.uint64)) - _ONE).astype(np.uint32)
            return before[word] + popcount(span[word] & below, xp)

        ones = rank(end) - rank(up)

        if found.done((5, 2)) or fail(
                (5, 2), "5", ones != n,
                lambda e, v: f"the upper bits of list {v} hold {int(ones[e])} ones, expected "
                             f"{int(n[e])}"):
            return
        last_bit = (span[((end - 1) >> 5) - w_lo] >> ((end - 1) & 31).astype(np.uint32)) & 1
        if found.done((5, 3)) or fail(
                (5, 3), "5", (n > 0) & (last_bit != 1),
                lambda e, v: f"the upper bits of list {v} end with a zero bit at "
                             f"{int(end[e] - 1)}"):
            return
        # 6. l
        if found.done((6, 1)) or fail((6, 1), "6", (n == 0) & (l != 0),
                                      lambda e, v: f"empty list {v} stores l={int(l[e])}, "
                                                   "expected 0"):
            return
        if found.done((6, 2)) or fail((6, 2), "6", (n > 0) & (l > 32),
                                      lambda e, v: f"list {v} stores l={int(l[e])}, more than "
                                                   "32"):
            return
        high = end - 1 - up - (n - 1)
        low = data.fields(lo + (n - 1) * l, xp.minimum(l, 32)).astype(np.int64)
        u = xp.where(n > 0, ((high << l) | low) + 1, 0)
        expected_l = xp.where(n > 0, xp.maximum(bit_length(u // xp.maximum(n, 1), xp) - 1, 0),
                              0)
        if found.done((6, 3)) or fail(
                (6, 3), "6", l != expected_l,
                lambda e, v: f"list {v} of {int(n[e])} values with u={int(u[e])} stores "
                             f"l={int(l[e])}, expected {int(expected_l[e])}"):
            return
        del high, low
        if found.done((7, 0)):
            return
        # 7. forward pointers, from the decoded values
        owner, values = self._window_values(data, span, w_lo, first - first[0], n, l, lo, up,
                                            end)
        local_first = first[:-1] - first[0]
        if int(m.sum()):
            fp_owner, rank_ = ragged_positions(xp, xp.zeros(m.size, dtype=np.int64), m)
            j = rank_ + 1
            stored = data.fields(start[fp_owner] + rank_ * w_fp[fp_owner],
                                 w_fp[fp_owner]).astype(np.int64)
            truth = values[local_first[fp_owner] + j * k] >> l[fp_owner]
            wrong = stored != truth
            if bool(wrong.any()):
                p = int(xp.argmax(wrong))
                found.fail((7, 0), invariant_error(
                    "ef", "7", f"pointer {int(j[p])} of list {v0 + int(fp_owner[p])} holds "
                    f"{int(stored[p])}, expected x_{int(j[p]) * k} >> l = {int(truth[p])}"))
                return
            del fp_owner, rank_, j, stored, truth, wrong
        # 8, 9. values
        if found.done((8, 0)):
            return
        if values.size > 1:
            bad = (owner[1:] == owner[:-1]) & (values[1:] <= values[:-1])
            if bool(bad.any()):
                at = int(xp.argmax(bad)) + 1
                e = int(owner[at])
                found.fail((8, 0), invariant_error(
                    "ef", "8", f"list {v0 + e} is not strictly increasing: value "
                    f"{int(values[at])} at rank {at - int(local_first[e])} follows "
                    f"{int(values[at - 1])}"))
                return
        if values.size and int(values.max()) >= value_bound:
            at = int(xp.argmax(values >= value_bound))
            found.fail((9, 0), invariant_error("ef", "9", f"list {v0 + int(owner[at])} holds "
                                               f"value {int(values[at])}, not below "
                                               f"{value_bound}"))

    def _window_values(self, data, span, w_lo, first, n, l, lo, up, end):
        """``(owner, values)`` of a window's lists (every upper region holds exactly ``n``
        ones): the one bits of each region's words (bits outside the region masked off), found
        byte by byte through two 256-entry tables; ``owner`` window-local."""
        xp = self.xp
        full = end > up
        w0 = up >> 5
        count = xp.where(full, ((end - 1) >> 5) - w0 + 1, 0)
        region, word = ragged_positions(xp, w0, count)
        del count
        keep_from = xp.where(word == w0[region], up[region] & 31, 0).astype(np.uint64)
        last = end[region] - 1
        keep_to = xp.where(word == (last >> 5), (last & 31) + 1, 32).astype(np.uint64)
        del last
        mask = ((xp.left_shift(_ONE, keep_to) - _ONE)
                & ~(xp.left_shift(_ONE, keep_from) - _ONE)).astype(np.uint32)
        del keep_from, keep_to, region
        x = span[word - w_lo] & mask
        del mask
        # The ones byte by byte: a byte's count and its k-th one's bit from two small tables.
        octets = ((x[:, None] >> xp.asarray([0, 8, 16, 24], dtype=np.uint32))
                  & np.uint32(0xFF)).reshape(-1)
        del x
        ones_table, select_table = _byte_tables(xp)
        which, k = ragged_positions(xp, xp.zeros(octets.size, dtype=np.int64),
                                    ones_table[octets])
        position = (word[which >> 2] * 32 + (which & 3) * 8
                    + select_table[octets[which], k])
        del which, k, octets, word
        owner, rank = ragged_positions(xp, xp.zeros(n.size, dtype=np.int64), n)
        shift = l[owner]
        low = data.fields(lo[owner] + rank * shift, shift).astype(np.int64)
        position -= up[owner] + rank
        return owner, (position << shift) | low


def _record_fields(blocks, a, b, first, start, l, xp, block_size):
    """The fields (uint32 values, int64 positions) of the records of entries ``a .. b - 1``."""
    e = xp.arange(a, b, dtype=np.int64)
    row = e // block_size
    widths = blocks[row, 3]
    we, wb = widths & 0xFF, (widths >> 8) & 0xFF
    at = blocks[row, 2] + (e - row * block_size) * (we + wb + ((widths >> 16) & 0xFF))
    del e, widths
    parts = [split_fields(first - blocks[row, 0], at, xp),
             split_fields(start - blocks[row, 1], at + we, xp),
             (l.astype(np.uint32), at + we + wb)]
    return xp.concatenate([v for v, _ in parts]), xp.concatenate([p for _, p in parts])


def _data_fields(owner, values, first, start, l, m, w_fp, n, xp, k):
    """The fields (uint32 values, int64 positions) of the pointers, lows and upper bits of a
    run's lists: ``owner`` run-local list indices, ``first`` and ``start`` run-local value
    offsets and bit offsets (one more entry than lists)."""
    size = int(values.size)
    lo = start[:-1] + m * w_fp
    up = lo + n * l
    x = values.astype(np.int64)
    rank = xp.arange(size, dtype=np.int64) - first[owner]
    shift = l[owner]
    low = (x & ((xp.ones(1, dtype=np.int64) << shift) - 1)).astype(np.uint32)
    low_at = lo[owner] + rank * shift
    up_at = up[owner] + (x >> shift) + rank
    del rank, shift
    parts = [(low, low_at), (xp.ones(size, dtype=np.uint32), up_at)]
    if int(m.sum()):  # forward pointers: few, one per k values of long lists
        fp_owner, fp_rank = ragged_positions(xp, xp.zeros(m.size, dtype=np.int64), m)
        target = first[fp_owner] + (fp_rank + 1) * k
        parts.append(((x[target] >> l[fp_owner]).astype(np.uint32),
                      start[fp_owner] + fp_rank * w_fp[fp_owner]))
    return xp.concatenate([v for v, _ in parts]), xp.concatenate([p for _, p in parts])


# -- the device encoder: the steps above as kernels (elias_fano.cu), one pass each -------------
KERNELS = Path(__file__).with_name("elias_fano.cu")
_BLOCK = 256
_WORDS = {4: (np.uint32, "uint32_t"), 8: (np.uint64, "uint64_t")}  # itemsize: id words, C type


def _instantiations():
    words = [ctype for _, ctype in _WORDS.values()]
    pairs = [f"{o}, {v}" for o in words for v in words]
    return ([f"ef_check<{p}>" for p in pairs] + [f"ef_codes<{p}>" for p in pairs]
            + [f"ef_entries<{v}>" for v in words] + ["ef_rows", "ef_records"])


register(KERNELS, _instantiations)


def _launch(name, items, *args, types=()):
    """Run kernel ``name`` (``types``: its template arguments) over ``items`` items."""
    expression = f"{name}<{', '.join(types)}>" if types else name
    kernel = get_kernel(KERNELS, expression, _instantiations())
    kernel((grid_size(items, _BLOCK),), (_BLOCK,), args)


def _words(ids):
    """A CuPy integer array as the kernels read it: ``(words, C type, signed)``, ``words`` a
    contiguous unsigned 32- or 64-bit view of it (a copy only when it is narrower than 32 bits
    or strided)."""
    import cupy as cp

    signed = ids.dtype.kind == "i"
    if ids.dtype.itemsize < 4:
        ids = ids.astype(np.int32 if signed else np.uint32)
    dtype, ctype = _WORDS[ids.dtype.itemsize]
    return cp.ascontiguousarray(ids).view(dtype), ctype, signed


def _device_input_ok(owner, values, num_lists, value_bound) -> bool:
    """True when one kernel pass finds nothing that :func:`_check_input` refuses (values
    bounded by ``value_bound``); False leaves it to those checks, which name the first bad
    entry (and to the shape and dtype errors, not looked at here)."""
    import cupy as cp

    if (owner.ndim != 1 or values.ndim != 1 or owner.size != values.size or not owner.size
            or owner.dtype.kind not in "iu" or values.dtype.kind not in "iu"):
        return False
    (o, o_type, o_signed), (v, v_type, v_signed) = _words(owner), _words(values)
    bad = cp.zeros(1, dtype=np.uint32)
    _launch("ef_check", o.size, o, v, np.int64(o.size), np.int32(o_signed), np.int32(v_signed),
            np.int64(num_lists), np.int64(value_bound), bad, types=(o_type, v_type))
    return not int(bad[0])


def _device_entries(owner, values, a, b, k, B):
    """:func:`_entry_numbers` on the GPU for entries ``a .. b - 1`` (``values`` from
    :func:`_words`): ``first`` and ``start``, the run-local value and bit offsets (from 0,
    ``b - a + 1`` each), and ``l`` (uint8, zero-padded to whole rows of ``B``)."""
    import cupy as cp

    count = b - a
    first = first_entries(owner, a, b + 1, cp)
    l = cp.zeros(-(-count // B) * B, dtype=np.uint8)
    sizes = cp.zeros(count + 1, dtype=np.int64)
    words, ctype, _ = values
    _launch("ef_entries", count, words, first, np.int64(count), np.int64(k), l, sizes,
            types=(ctype,))
    return first, cp.cumsum(sizes), l


def _size_run_device(blocks, owner, values, a, b, value_base, data_bits, record_bits, k, B):
    """:func:`_size_run` on the GPU (``values`` from :func:`_words`): the same rows, the same
    return, one host sync."""
    import cupy as cp

    first, start, l = _device_entries(owner, values, a, b, k, B)
    num_rows = l.size // B
    rows = blocks[a // B:a // B + num_rows]
    record_sizes = cp.full(num_rows + 1, record_bits, dtype=np.int64)
    _launch("ef_rows", num_rows, first, start, l.reshape(num_rows, B).max(axis=1),
            np.int64(b - a), np.int64(B), np.int64(value_base), np.int64(data_bits), rows,
            record_sizes)
    record_at = cp.cumsum(record_sizes)
    rows[:, 2] = record_at[:-1]
    data_end, record_end = _backend.to_host(cp.stack([start[-1], record_at[-1]])).tolist()
    return data_bits + data_end, record_end


def _write_run_device(encoder, owner, values, a, b, value_base):
    """The records of entries ``a .. b - 1`` and the codes of their lists (``owner`` and
    ``values`` the run's entries, the first of them value ``value_base``) ORed into the
    encoder's streams on the GPU: one pass over the entries, one over the values."""
    import cupy as cp

    k, B, blocks = encoder.k, encoder.block_size, encoder.blocks
    values = _words(values)
    first, start, l = _device_entries(owner, values, a, b, k, B)
    bit_base = blocks[a // B, 1:2]  # the run's first data bit, as sized (read on the device)
    _launch("ef_records", b - a, blocks, first, start, l, bit_base, np.int64(a), np.int64(b - a),
            np.int64(value_base), np.int32(B.bit_length() - 1), encoder.records)
    if int(owner.size):
        (o, o_type, _), (v, v_type, _) = _words(owner), values
        data, first_word = encoder.data, 0
        if _placement.placement_of(data) == _placement.HOST:
            # The codes OR bits with atomics, which mapped host memory cannot be trusted
            # with: they go into a zeroed device slice of the run's words (and tail words
            # for the zero ORs a field at the end may make), ORed into the host words after;
            # the words shared with the runs around are merged by that OR.
            first_word = int(blocks[a // B, 1]) // WORD_BITS
            end_bit = encoder.data_bits if b > encoder.num_vertices else int(blocks[b // B, 1])
            data = cp.zeros(stream_words(end_bit) - first_word, dtype=np.uint32)
            bit_base = bit_base - first_word * WORD_BITS
        _launch("ef_codes", o.size, o, v, np.int64(o.size), np.int64(a), first, start, l,
                bit_base, np.int64(k), data, types=(o_type, v_type))
        if data is not encoder.data:
            _placement.or_words(encoder.data, first_word, data)


# -- the graph layout ------------------------------------------------------------------------
class EliasFanoLayout(Layout):
    """Out-neighbour lists coded with Elias-Fano, bit-contiguous, with forward pointers every
    ``k`` values and two-level per-vertex offsets (module docs)."""

    name = "ef"
    build_bytes_per_vertex = 6  # measured 3.2
    buffer_names = ("blocks", "records", "data")
    edge_buffers = ("data",)

    @classmethod
    def check_params(cls, k=DEFAULT_K, block_size=DEFAULT_BLOCK_SIZE) -> dict:
        return check_params(k, block_size)

    @classmethod
    def encoder(cls, num_vertices, xp, **params):
        return EliasFanoEncoder(cls, num_vertices, xp, cls.check_params(**params))

    def lists(self) -> EliasFanoLists:
        """The codec view of this layout's buffers."""
        codec = getattr(self, "_codec", None)
        if codec is None or codec.arrays is not self.arrays:
            codec = EliasFanoLists(self.xp, self.num_vertices, self.num_edges, self.arrays,
                                   **self.params)
            self._codec = codec
        codec.num_lists, codec.num_values = self.num_vertices, self.num_edges
        return codec

    @property
    def data_bits(self) -> int:
        """Bits of the neighbour codes (pointers, lows, uppers), without padding."""
        return self.lists().data_bits

    def bound_bits(self) -> int:
        """The graph's Elias-Fano bound: sum over vertices of ``n * (2 + ceil(log2(u / n)))``."""
        return self.lists().bound_bits()

    def degrees(self):
        return self.lists().degrees()

    def decode_lists(self, vertices):
        return self.lists().decode(vertices)

    def decode_range(self, v, begin, end):
        return self.lists().decode_range(int(v), begin, end)

    def edge_starts(self, vertices):
        """The word holding each list's first bit (its entry's ``start``: the forward
        pointers, then the lows and the upper bits, all in ``data``)."""
        vertices = np.asarray(vertices, dtype=np.int64)
        blocks, records = (_backend.to_host(self.arrays[name]) for name in ("blocks", "records"))
        start = self.lists().entry_starts(np.minimum(vertices, self.num_vertices), blocks,
                                          records)
        return {"data": self._bounded_starts("data", start // 32, vertices)}

    # -- device view (formats/elias_fano.cuh) -----------------------------------------------
    @classmethod
    def device_view_types(cls):
        return ["cgc::EfView"]

    @property
    def device_chunk_size(self) -> int:
        return self.params["k"]  # decoding starts at rank 0 or at a forward pointer's rank j * k

    def view_type(self):
        return "cgc::EfView"

    def view_words(self, address):
        """``blocks`` (C order), ``records`` and ``data``, then ``k`` and ``log2(block_size)``."""
        pointers = [address(self.arrays[name]) for name in ("blocks", "records", "data")]
        return pointers + [self.params["k"], self.params["block_size"].bit_length() - 1]

    def validate(self):
        self.lists().validate(value_bound=self.num_vertices)


# -- the range encoder -------------------------------------------------------------------------
class EliasFanoEncoder(RangeEncoder):
    """The range encoder of :class:`EliasFanoLayout` (and of :class:`EliasFanoLists`).

    Ranges start at multiples of ``block_size`` (:attr:`align`), so every row of ``blocks``
    lies in one range: sizing a range fills its rows, its first row's data and record bit
    offsets being where the range before it ended; the sentinel entry ``num_lists`` goes with
    the range that ends there.  Writing a range ORs its records and codes into the two
    streams (words shared with the neighbouring ranges included), in any order.  Across
    ranges it keeps ``blocks`` (4 words per ``block_size`` lists) and two bit counts.

    With NumPy every step is whole-array work (the reference).  With CuPy each step is a
    kernel of ``elias_fano.cu`` writing the same bits: the input checks in one pass over a
    run's values, per-list numbers and rows in one pass over its lists, then the records in
    one pass over its lists and the codes in one pass over its values, every field ORed into
    its stream with atomics; nothing is allocated per value, so device runs are longer
    (``DEVICE_CHUNK_EDGES``) and budgeted builds size them by ``DEVICE_WORK_BYTES_PER_EDGE``
    (the instance's :attr:`work_bytes_per_edge`).

    ``what`` names a list in the input errors; ``value_bound`` None bounds values by the
    vertex count (the layout), else values are only checked to fit 32 bits (the codec).
    """

    def __init__(self, layout_cls, num_vertices, xp, params, what="list of vertex",
                 value_bound=None):
        if value_bound is None:
            if (isinstance(num_vertices, bool) or int(num_vertices) != num_vertices
                    or num_vertices < 0):
                raise ValueError(f"num_vertices must be a non-negative int, got "
                                 f"{num_vertices!r}")
            if num_vertices > VALUE_LIMIT:
                raise ValueError(f"num_vertices={num_vertices} is too large: ef stores vertex "
                                 f"ids below 2**32 = {VALUE_LIMIT}")
        else:
            _check_num_lists(num_vertices)
        super().__init__(layout_cls, num_vertices, xp, params)
        self.k, self.block_size = params["k"], params["block_size"]
        self.align = self.block_size
        self.what, self.value_bound = what, value_bound
        self.blocks = xp.zeros((self.num_vertices // self.block_size + 1, _ROW_COLUMNS),
                               dtype=np.int64)
        self.data_bits = self.record_bits = 0
        self.records = self.data = None
        if xp is not np:  # the kernels keep nothing per value: longer runs, a smaller figure
            self.layout_chunk_edges = DEVICE_CHUNK_EDGES
            self.work_bytes_per_edge = DEVICE_WORK_BYTES_PER_EDGE

    @classmethod
    def for_lists(cls, num_lists, xp, params, what):
        """The encoder of :class:`EliasFanoLists`: values below 2**32, whatever ``num_lists``."""
        return cls(EliasFanoLayout, num_lists, xp, params, what, VALUE_LIMIT)

    layout_chunk_edges = CHUNK_EDGES
    #: The host path's figure (NumPy temporaries); a device encoder has its own,
    #: DEVICE_WORK_BYTES_PER_EDGE.
    work_bytes_per_edge = 192  # measured 168

    def _check(self, src, dst, first_entry):
        xp, n = self.xp, self.num_vertices
        bound = n if self.value_bound is None else self.value_bound
        if xp is not np and _device_input_ok(src, dst, n, bound):
            return  # else the checks below find the bad entry, with their messages
        if self.value_bound is None and int(dst.size) and int(dst.max()) >= n:
            at = int(xp.argmax(dst >= n))
            raise ValueError(f"list of vertex {int(src[at])} holds neighbour {int(dst[at])}, "
                             f"not below num_vertices={n}")
        _check_input(src, dst, n, xp, self.what, first_entry)

    def _entry_runs(self, v0, v1, src):
        """``src`` searchable and the runs of whole rows of entries of the range: lists
        ``v0 .. v1 - 1`` and the sentinel when ``v1`` is the last list."""
        end = v1 + 1 if v1 == self.num_vertices else v1
        src = searchable(src, end)
        return src, list_chunks(src, end, self.xp, self.chunk_edges, self.block_size, v0)

    def _size(self, v0, v1, src, dst, first_edge):
        src, runs = self._entry_runs(v0, v1, src)
        for a, b, e0, e1 in runs:
            if self.xp is np:
                self.data_bits, self.record_bits = _size_run(
                    self.blocks, src[e0:e1], dst[e0:e1], a, b, first_edge + e0, self.data_bits,
                    self.record_bits, self.xp, self.k, self.block_size)
            else:
                self.data_bits, self.record_bits = _size_run_device(
                    self.blocks, src[e0:e1], _words(dst[e0:e1]), a, b, first_edge + e0,
                    self.data_bits, self.record_bits, self.k, self.block_size)

    def _nbytes(self):
        return _nbytes_of(self.blocks, self.data_bits, self.record_bits)

    def _allocate(self):
        self.records = self.xp.zeros(stream_words(self.record_bits), dtype=np.uint32)
        self.data = self._edge_zeros(stream_words(self.data_bits), np.uint32)

    def _write(self, v0, v1, src, dst, first_edge):
        xp, k, B, blocks = self.xp, self.k, self.block_size, self.blocks
        src, runs = self._entry_runs(v0, v1, src)
        for a, b, e0, e1 in runs:
            owner, values = src[e0:e1], dst[e0:e1]
            if xp is not np:
                _write_run_device(self, owner, values, a, b, first_edge + e0)
                continue
            first, n, l, m, w_fp, bits = _entry_numbers(owner, values, a, b, xp, k)
            start = _offsets_from(bits, int(blocks[a // B, 1]), xp)
            pack_into(self.records, *_record_fields(blocks, a, b, first[:-1] + (first_edge + e0),
                                                    start[:-1], l, xp, B))
            if e1 > e0:  # first is run-local: the run's entries are values 0 .. e1 - e0 - 1
                pack_into(self.data, *_data_fields(owner.astype(np.int64) - a, values, first,
                                                   start, l, m, w_fp, n, xp, k))
        return None

    def _arrays(self):
        arrays = {"blocks": self.blocks, "records": self.records, "data": self.data}
        self.blocks = self.records = self.data = None
        return arrays, {"k": self.k, "block_size": self.block_size}
