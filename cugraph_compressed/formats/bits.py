"""Bit streams and the variable-length codes written in them, shared by the compressed layouts.

Each layout module keeps its own format; this module holds what they have in common: the
stream convention, the packers (host reference and GPU), the one reader of streams and the
generic codes.

Streams
-------
A bit stream is a 1-D ``uint32`` array.  Bit ``i`` of the stream is bit ``i % 32`` (least
significant first) of word ``i // 32``; a field of ``w <= 32`` bits at position ``p`` holds
bits ``p .. p + w - 1``, its least significant bit first.  A field of ``32 < w <= 64`` bits is
written and read as two: its low 32 bits at ``p`` and its high ``w - 32`` bits at ``p + 32``
(the same bits as one field).  Every stream carries ``TAIL_WORDS`` words of *tail padding*
after its last data word, so a decoder may read the 64-bit window ``words[p // 32],
words[p // 32 + 1]`` at any data position ``p`` without a bounds check, and a reader that runs
ahead (``kernels/bits.cuh``, ``BitCursor``) every word up to ``words[(p + 63) // 32]``.  The
padding's content is unspecified: decoders must give the same answer whatever it holds
(encoders write zeros).

:func:`pack_fields` is the host reference (NumPy); :func:`pack_fields_device` and
:func:`pack_fixed_device` write the same bits on the GPU with the kernels of ``bits.cu`` (one
atomic OR per touched word), so the host and device encoders of a layout can be checked bit for
bit against each other.  :func:`pack_into` ORs a run of fields into an existing stream with
either.  Packers take fields of at most 32 bits; :func:`split_fields` cuts wider
values.  :class:`BitReader` (or :func:`read_fields`) is the one reader: the host decoders and
checkers of every layout read through it, and the fixed-width layout also on CuPy arrays.

Codes
-----
``code(x)`` writes an integer ``x >= 0`` as the zeta-k code of ``y = x + 1`` (every code here
must hold 0, so 1 is added on writing and removed on reading); zeta-1 is exactly Elias gamma.
With ``L`` the bit length of ``y``, ``h = (L - 1) // k`` (so ``2**(h*k) <= y < 2**((h+1)*k)``),
``s = (h + 1) * k``, ``t = 2**(h*k)`` and ``r = y - t``:

* ``h`` zero bits, then a one bit (``h + 1`` in unary);
* if ``r < t``: ``r`` in ``s - 1`` bits; otherwise, with ``c = r + t``: ``c >> 1`` in ``s - 1``
  bits, then the bit ``c & 1``.

This is Boldi and Vigna's zeta-k code (unary ``h + 1``, then the minimal binary code of ``r``
in ``[0, 2**s - t)``) laid out for a stream read least significant bit first: a reader takes
``s - 1`` bits, compares them with ``t`` and only then decides whether one more bit belongs to
the code.  Lengths are those of zeta-k: ``h + s + (r >= t)``; gamma takes ``2 * L - 1`` bits.
Codable values: ``0 <= x <= MAX_VALUE = 2**33 - 2`` (room for a zig-zagged difference of two
32-bit ids), so a code is at most 65 bits (gamma) or 44 bits (zeta-3: ``h <= 10``,
``s <= 33``).  Writers cut a code into fields of at most 32 bits for the packers: the unary
zeros are not written (streams start zeroed); the value ``(payload << 1) | 1`` goes at bit
``p + h`` as its low 32 bits there and its remaining bits at ``p + h + 32``.

Signed differences are coded through ``zigzag(d) = 2 * d`` for ``d >= 0``, ``-2 * d - 1`` for
``d < 0`` (:func:`unzigzag` inverts it).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from .._backend import to_host
from ..kernels import get_kernel, grid_size, register

WORD_BITS = 32
TAIL_WORDS = 2
MAX_VALUE = 2**33 - 2          # largest x that code(x) holds
KERNELS = Path(__file__).with_name("bits.cu")
_BLOCK = 256
_LOW32 = 0xFFFFFFFF
_ONE = np.uint64(1)


def stream_words(total_bits: int) -> int:
    """Words of a stream holding ``total_bits`` bits, tail padding included."""
    return -(-int(total_bits) // WORD_BITS) + TAIL_WORDS


def bit_length(values, xp=np):
    """Bits needed to write each non-negative integer (0 for 0), as int64.

    Below 2**53 an integer converts to float64 exactly, so its binary exponent is the answer
    (one pass); larger values take a vectorized binary search on the highest set bit.
    """
    values = xp.asarray(values)
    if values.size == 0:
        return xp.zeros(values.shape, dtype=np.int64)
    if int(values.max()) < 2**53:
        return xp.frexp(values.astype(np.float64))[1].astype(np.int64)
    values = values.astype(np.uint64)
    length = xp.zeros(values.shape, dtype=np.int64)
    for shift in (32, 16, 8, 4, 2, 1):  # binary search on the highest set bit, vectorized
        big = values >= (np.uint64(1) << np.uint64(shift))
        length += xp.where(big, shift, 0)
        values = xp.where(big, values >> np.uint64(shift), values)
    return length + (values > 0)


# ---------------------------------------------------------------------------------- writing

def pack_fields(values, positions, total_bits: int) -> np.ndarray:
    """Host reference: a stream of ``total_bits`` bits holding ``values[i]`` at ``positions[i]``.

    Fields must not overlap and each value must fit the bits before the next field (the caller
    guarantees ``values[i] < 2**32``).  Because fields are disjoint, summing every field's share
    of each word equals OR-ing them; float64 sums of 32-bit shares are exact.
    """
    values = np.asarray(values, dtype=np.uint64)
    positions = np.asarray(positions, dtype=np.int64)
    n_words = stream_words(total_bits)
    shifted = values << (positions & 31).astype(np.uint64)
    word = positions >> 5
    low = (shifted & np.uint64(_LOW32)).astype(np.float64)
    high = (shifted >> np.uint64(32)).astype(np.float64)
    total = np.bincount(word, weights=low, minlength=n_words)
    total += np.bincount(word + 1, weights=high, minlength=n_words)[:n_words]
    return total.astype(np.uint32)


def pack_fields_device(values, positions, total_bits: int):
    """GPU encoder's packer: the same stream as :func:`pack_fields`, built on the device.

    ``values`` (uint32) and ``positions`` (int64) are CuPy arrays.
    """
    import cupy as cp

    words = cp.zeros(stream_words(total_bits), dtype=cp.uint32)
    n = int(values.size)
    if n:
        kernel = get_kernel(KERNELS, "pack_fields", _instantiations())
        kernel((grid_size(n, _BLOCK),), (_BLOCK,),
               (values.astype(cp.uint32, copy=False), positions.astype(cp.int64, copy=False),
                np.int64(n), words))
    return words


def pack_fixed_device(values, width: int, total_bits: int, first_bit: int = 0):
    """Pack ``values`` (uint32, CuPy) at ``width`` bits each from bit ``first_bit``, on the GPU,
    without materializing the positions."""
    import cupy as cp

    words = cp.zeros(stream_words(total_bits), dtype=cp.uint32)
    n = int(values.size)
    if n and width:
        kernel = get_kernel(KERNELS, "pack_fixed", _instantiations())
        kernel((grid_size(n, _BLOCK),), (_BLOCK,),
               (values.astype(cp.uint32, copy=False), np.int64(n), np.int32(width),
                np.int64(first_bit), words))
    return words


def pack_into(words, values, positions):
    """OR fields (uint32 values, int64 positions, as :func:`pack_fields` takes them) into the
    stream ``words``, in place; NumPy or CuPy arrays.

    Only the words the fields touch are packed (on the host with :func:`pack_fields`, on the
    GPU with :func:`pack_fields_device`), so an encoder that writes a long stream a run of
    lists at a time costs each run its own span, never the whole stream.  Fields holding 0
    are skipped (OR-ing them changes nothing; most per-list fields of empty lists are 0).
    """
    nonzero = values != 0
    if not bool(nonzero.all()):
        values, positions = values[nonzero], positions[nonzero]
    del nonzero
    if not int(values.size):
        return
    first = int(positions.min()) // WORD_BITS
    last = int(positions.max()) // WORD_BITS    # a field there may spill into the next word
    local = positions - first * WORD_BITS
    span_bits = (last - first + 1) * WORD_BITS
    if isinstance(words, np.ndarray):
        packed = pack_fields(values, local, span_bits)
    else:
        packed = pack_fields_device(values, local, span_bits)
    span = min(last - first + 2, words.size - first)
    words[first:first + span] |= packed[:span]


def split_fields(values, positions, xp=np):
    """Cut values of up to 64 bits into fields the packers take.

    Parameters
    ----------
    values : array of non-negative integers below ``2**64``
    positions : int64 array
        Bit position of each value.
    xp : module
        The array module of both arrays.

    Returns
    -------
    (uint32 array, int64 array)
        Field values and positions: each value's low 32 bits at its position and, when not
        zero, its high bits 32 bits further.
    """
    values = values.astype(np.uint64, copy=False)
    high = values >> np.uint64(32)
    keep = high != 0
    out_values = xp.concatenate([values & np.uint64(_LOW32), high[keep]]).astype(np.uint32)
    out_positions = xp.concatenate([positions, positions[keep] + 32])
    return out_values, out_positions


# ---------------------------------------------------------------------------------- reading

def _mask(widths, xp):
    return xp.left_shift(_ONE, widths.astype(np.uint64)) - _ONE


class BitReader:
    """Reads of one stream: the 64-bit window at any bit position, fields and codes.

    Parameters
    ----------
    words : array
        The stream, tail padding included.
    xp : module
        NumPy (the default: a CuPy stream is copied to the host) or CuPy (reads on the GPU).

    On a little-endian host every window is one gather, through an overlapping view of the
    words (words ``w`` and ``w + 1`` as one uint64); elsewhere it gathers the two words.
    Positions past the data (``last``, the first bit of the tail padding) read as if they
    were ``last``: garbage, never an IndexError, so checkers decode corrupt streams safely.
    """

    def __init__(self, words, xp=np):
        if xp is np:
            words = np.ascontiguousarray(to_host(words), dtype=np.uint32)
        self.xp = xp
        self.words = words
        self.last = max(int(words.size) - TAIL_WORDS, 0) * WORD_BITS
        self.pairs = None
        if xp is np and sys.byteorder == "little" and words.size >= 2:
            self.pairs = np.ndarray(shape=(words.size - 1,), dtype=np.uint64, buffer=words,
                                    offset=0, strides=(4,))

    def window(self, positions):
        """The 64 bits from each (int64) position on, as uint64; at least 33 of them are data
        when the position is."""
        word = positions >> 5
        if self.pairs is not None:
            pairs = self.pairs[word]
        else:
            pairs = (self.words[word].astype(np.uint64)
                     | (self.words[word + 1].astype(np.uint64) << np.uint64(32)))
        return pairs >> (positions & 31).astype(np.uint64)

    def fields(self, positions, widths):
        """Fields of ``widths`` (0 .. 64 bits; an int or an array) at ``positions``, as uint64."""
        xp = self.xp
        positions = xp.minimum(xp.asarray(positions, dtype=np.int64), self.last)
        widths = xp.asarray(widths, dtype=np.int64)
        out = self.window(positions) & _mask(xp.minimum(widths, 32), xp)
        if bool((widths > 32).any()):
            high = self.window(xp.minimum(positions + 32, self.last))
            out |= (high & _mask(xp.maximum(widths - 32, 0), xp)) << np.uint64(32)
        return out

    def codes(self, positions, k, limit=None):
        """See :func:`read_codes`."""
        xp, last = self.xp, self.last
        positions = xp.asarray(positions, dtype=np.int64)
        safe = xp.minimum(positions, last)
        window = self.window(safe)
        lowest = window & (~window + _ONE)                  # the terminating one bit, alone
        h = bit_length(lowest, xp) - 1                      # -1 when the window has no one bit
        ok = (h >= 0) & (h <= 32 // k) & (positions <= last)  # y = x + 1 < 2**33
        h = xp.where(ok, h, 0)
        s = (h + 1) * k
        t = xp.left_shift(1, h * k)
        rest = xp.minimum(safe + h + 1, last)
        bits = self.window(rest)                            # >= 33 bits: enough when s <= 33
        q = (bits & _mask(s - 1, xp)).astype(np.int64)
        extra = ((bits >> (s - 1).astype(np.uint64)) & _ONE).astype(np.int64)
        wide = s > 33
        if bool(wide.any()):
            q[wide] = self.fields(rest[wide], s[wide] - 1)
            extra[wide] = self.fields(safe[wide] + h[wide] + s[wide], 1)
        long = q >= t
        x = xp.where(long, ((q << 1) | extra) - t, q) + t - 1
        length = h + s + long
        ok &= x <= MAX_VALUE
        if limit is not None:
            ok &= positions + length <= limit
        return x, length, ok


def _reader(words, xp=np):
    return words if isinstance(words, BitReader) else BitReader(words, xp)


def read_fields(words, positions, widths, xp=np):
    """Fields of ``widths`` (0 .. 64) bits at ``positions`` of a stream, as uint64.

    ``words`` is a stream of ``xp`` (NumPy or CuPy) or a :class:`BitReader`.
    """
    return _reader(words, xp).fields(positions, widths)


# ------------------------------------------------------------------------------------ codes

def code_parts(x, k, xp=np):
    """For values ``x >= 0`` (int64 array, at most ``MAX_VALUE``): ``(h, payload_bits, payload)``
    of ``code(x)``, each int64.  The code is ``h`` zeros, a one, then ``payload_bits`` bits
    holding ``payload``; its length is ``h + 1 + payload_bits``."""
    y = x + 1
    h = (bit_length(y, xp) - 1) // k
    s = (h + 1) * k
    t = xp.left_shift(1, h * k)
    r = y - t
    long = r >= t
    c = r + t
    payload = xp.where(long, (c >> 1) | ((c & 1) << (s - 1)), r)
    return h, s - 1 + long, payload


def code_length(x, k, xp=np):
    """Bits of ``code(x)`` for each value of ``x`` (int64)."""
    y = x + 1
    h = (bit_length(y, xp) - 1) // k
    s = (h + 1) * k
    t = xp.left_shift(1, h * k)
    return h + s + (y - t >= t)


def code_fields(x, positions, k, xp=np):
    """The fields (uint32 values, int64 positions) that write ``code(x[i])`` at bit
    ``positions[i]``: at most two per code, fields of value 0 left out."""
    h, bits, payload = code_parts(x, k, xp)
    return split_fields((payload << 1) | 1, positions + h, xp)


def read_codes(words, positions, k, limit=None):
    """Decode one code at each of ``positions`` (host).

    Parameters
    ----------
    words : uint32 array or BitReader
        The stream.
    positions : int64 array
        Bit position of each code.
    k : int
        The zeta code's shrinking factor (1: gamma).
    limit : int64 array, optional
        The end of the data each code must stay within.

    Returns
    -------
    (x, length, ok)
        The values, the code lengths and a mask of codes that are well formed (unary part
        short enough for a value up to ``MAX_VALUE``) and, when ``limit`` is given, end inside
        it.  Reads past the stream's data are clamped to its end (the values are then garbage
        and ``ok`` is False for them).
    """
    return _reader(words).codes(np.asarray(positions, dtype=np.int64), k, limit)


def zigzag(d, xp=np):
    """``2 * d`` for ``d >= 0``, ``-2 * d - 1`` for ``d < 0``: signed to non-negative."""
    return xp.where(d >= 0, 2 * d, -2 * d - 1)


def unzigzag(z):
    """The inverse of :func:`zigzag`."""
    return (z >> 1) ^ -(z & 1)


def _instantiations():
    return ["pack_fields", "pack_fixed"]


register(KERNELS, _instantiations)
