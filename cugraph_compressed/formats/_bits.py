"""Bit streams shared by the compressed layouts.

A bit stream is a 1-D ``uint32`` array.  Bit ``i`` of the stream is bit ``i % 32`` (least
significant first) of word ``i // 32``; a field of ``w <= 32`` bits at position ``p`` holds
bits ``p .. p + w - 1``, its least significant bit first.  Every stream carries
``TAIL_WORDS`` words of *tail padding* after its last data word, so a decoder may read the
64-bit window ``words[p // 32], words[p // 32 + 1]`` at any data position ``p`` without a bounds
check.  The padding's content is unspecified: decoders must give the same answer whatever it
holds (encoders write zeros).

:func:`pack_fields` is the host reference (NumPy); :func:`pack_fields_device` writes the same
bits on the GPU with the kernels of ``bits.cu`` (one atomic OR per touched word), so the host
and device encoders of a layout can be checked bit for bit against each other.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..kernels import get_kernel, grid_size, register

WORD_BITS = 32
TAIL_WORDS = 2
KERNELS = Path(__file__).with_name("bits.cu")
_BLOCK = 256


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
    low = (shifted & np.uint64(0xFFFFFFFF)).astype(np.float64)
    high = (shifted >> np.uint64(32)).astype(np.float64)
    total = np.bincount(word, weights=low, minlength=n_words)
    total += np.bincount(word + 1, weights=high, minlength=n_words)[:n_words]
    return total.astype(np.uint32)


def read_fields(words, positions, widths, xp=np):
    """Read fields of ``widths`` (<= 32) bits at ``positions`` from a stream, as uint64."""
    positions = xp.asarray(positions).astype(np.int64)
    word = positions >> 5
    window = words[word].astype(np.uint64) | (words[word + 1].astype(np.uint64) << np.uint64(32))
    widths = xp.asarray(widths).astype(np.uint64)
    mask = (np.uint64(1) << widths) - np.uint64(1)
    return (window >> (positions & 31).astype(np.uint64)) & mask


def pack_fields_device(values, positions, total_bits: int):
    """GPU encoder's packer: the same stream as :func:`pack_fields`, built on the device.

    ``values`` (uint32) and ``positions`` (int64) are CuPy arrays.
    """
    import cupy as cp

    words = cp.zeros(stream_words(total_bits), dtype=cp.uint32)
    n = int(values.size)
    if n:
        kernel = get_kernel(KERNELS, "pack_fields", _instantiations())
        kernel((grid_size(n, _BLOCK),), (_BLOCK,), (values.astype(cp.uint32, copy=False),
                                    positions.astype(cp.int64, copy=False), np.int64(n), words))
    return words


def pack_fixed_device(values, width: int, total_bits: int, first_bit: int = 0):
    """Pack ``values`` (uint32, CuPy) at ``width`` bits each from bit ``first_bit``, on the GPU,
    without materializing the positions."""
    import cupy as cp

    words = cp.zeros(stream_words(total_bits), dtype=cp.uint32)
    n = int(values.size)
    if n and width:
        kernel = get_kernel(KERNELS, "pack_fixed", _instantiations())
        kernel((grid_size(n, _BLOCK),), (_BLOCK,), (values.astype(cp.uint32, copy=False), np.int64(n),
                                    np.int32(width), np.int64(first_bit), words))
    return words


def _instantiations():
    return ["pack_fields", "pack_fixed"]


register(KERNELS, _instantiations)
