"""Where a device graph's per-edge buffers live: GPU memory or pinned, mapped host memory.

``placement="device"`` keeps every buffer in GPU (RMM) memory.  ``placement="host"`` keeps the
per-edge payload of the layout (the buffers its class names in ``edge_buffers``) and the edge
properties in pinned, mapped host memory (:mod:`._pinned`), read by the kernels zero-copy at
their mapped address; per-vertex arrays, vertex state and frontiers stay in GPU memory.
``placement="auto"`` splits the payload by vertex between the two (:mod:`._split`).  A
host graph (the host backend) has one place to be: any valid placement is accepted and the
graph reports ``"host"``.

Writes into a host-placed buffer from the GPU are plain loads and stores through the mapping
(CuPy element-wise kernels, ``cudaMemcpy`` with the kind inferred from the addresses), never
atomics: system-wide atomics over PCIe are not something to rely on.  Encoders that OR bits
with atomics write a run into a device staging slice first and OR it into the host slice
(``elias_fano``); the others already OR a run's packed words in one element-wise kernel.
"""
from __future__ import annotations

import numpy as np

from . import _pinned
from ._backend import DEVICE, HOST, is_cupy_array
from ._split import SplitArray

AUTO = "auto"
PLACEMENTS = (DEVICE, HOST, AUTO)
#: Bytes one copy of :func:`move` and :func:`write` moves at a time.
PIECE_BYTES = 1 << 26
#: cudaMemcpyDefault: the direction is inferred from the addresses (unified addressing).
_MEMCPY_DEFAULT = 4


def check_placement(placement) -> str:
    """``placement`` checked: ``"device"``, ``"host"`` or ``"auto"`` (:mod:`._split`).

    Raises
    ------
    ValueError
        Any other value.
    """
    if not isinstance(placement, str) or placement not in PLACEMENTS:
        raise ValueError(f"placement={placement!r} is not one of {list(PLACEMENTS)}")
    return placement


def placement_of(array) -> str:
    """``"host"`` for a NumPy array or a CuPy array in pinned host memory, ``"auto"`` for a
    buffer split between the two (:class:`._split.SplitArray`), else ``"device"``."""
    if isinstance(array, SplitArray):
        return AUTO
    if is_cupy_array(array) and not _pinned.is_pinned(array):
        return DEVICE
    return HOST


def nbytes_by_placement(array) -> dict:
    """``{"device": bytes, "host": bytes}`` of one buffer (a split one counts both parts)."""
    if isinstance(array, SplitArray):
        return array.nbytes_by_placement()
    sizes = {DEVICE: 0, HOST: 0}
    sizes[placement_of(array)] += int(array.nbytes)
    return sizes


def empty(shape, dtype, placement: str, xp):
    """A new array of ``xp`` in ``placement`` (NumPy: the host, whatever ``placement``)."""
    if xp is np or placement == DEVICE:
        return xp.empty(shape, dtype=dtype)
    return _pinned.empty(shape, dtype)


def zeros(shape, dtype, placement: str, xp):
    """:func:`empty`, zeroed (a pinned block is zeroed by the host: no GPU memset on it)."""
    if xp is np or placement == DEVICE:
        return xp.zeros(shape, dtype=dtype)
    return _pinned.zeros(shape, dtype)


def write(target, first: int, values) -> None:
    """``target[first:first + len(values)] = values`` (1-D), wherever ``target`` lives.

    Into pinned memory the values go as ``cudaMemcpy`` copies (kind inferred from the
    addresses) of at most :data:`PIECE_BYTES`, after a cast on the device when the dtypes
    differ; elsewhere as a plain slice assignment."""
    n = int(values.size)
    if not _pinned.is_pinned(target) or not n:
        target[first:first + n] = values
        return
    import cupy

    values = cupy.ascontiguousarray(values, dtype=target.dtype)
    _copy(target.data.ptr + first * target.itemsize, values.data.ptr, values.nbytes)


def move(array, placement: str):
    """A copy of CuPy ``array`` in ``placement`` (``"device"`` or ``"host"``; ``array`` itself
    when it is there already), copied in pieces of :data:`PIECE_BYTES`; a split buffer is
    joined.  The new buffer is allocated whole first: a MemoryError leaves nothing
    allocated."""
    if array is None or placement_of(array) == placement:
        return array
    if isinstance(array, SplitArray):
        from ._split import join

        return join(array, placement)
    import cupy

    array = cupy.ascontiguousarray(array)
    out = empty(array.shape, array.dtype, placement, cupy)
    copy_into(out, array)
    return out


def copy_into(target, values) -> None:
    """Copy contiguous CuPy array ``values`` into contiguous ``target`` of the same dtype and
    size, wherever either lives, in pieces of :data:`PIECE_BYTES`."""
    if int(values.nbytes):
        _copy(target.data.ptr, values.data.ptr, int(values.nbytes))


def _copy(dst: int, src: int, nbytes: int) -> None:
    """Copy ``nbytes`` between two addresses of the unified space, piece by piece on the
    current stream, and wait for it (the host may read or free either side next)."""
    import cupy

    stream = cupy.cuda.get_current_stream()
    cupy.cuda.Device().synchronize()  # what wrote the source on other streams is done
    for start in range(0, nbytes, PIECE_BYTES):
        cupy.cuda.runtime.memcpyAsync(dst + start, src + start, min(PIECE_BYTES, nbytes - start),
                                      _MEMCPY_DEFAULT, stream.ptr)
    stream.synchronize()


def or_words(target, first_word: int, part) -> None:
    """OR the words of device array ``part`` into ``target`` from word ``first_word`` on (the
    words past ``target``'s end left out): one element-wise kernel, plain loads and stores
    whether ``target`` is in GPU or pinned memory, so a run merges into the words it shares
    with its neighbours whatever order runs come in."""
    span = min(int(part.size), int(target.size) - first_word)
    if span > 0:
        target[first_word:first_word + span] |= part[:span]
