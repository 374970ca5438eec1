"""Pinned, mapped host memory: the one place the package allocates, frees and counts it.

A host-placed graph keeps its per-edge buffers here (:mod:`._placement`).  Each buffer is one
block from ``cudaHostAlloc`` with ``cudaHostAllocMapped | cudaHostAllocPortable``: page-locked,
visible to every device, and (with unified addressing, which every 64-bit CUDA platform has)
readable by kernels at its own address, so the CuPy array wrapping it goes to every existing
kernel and CuPy operation unchanged (zero-copy reads over the bus).  Never managed (UVM)
memory, never CuPy's pinned memory pool (it keeps freed blocks for reuse).

A block is freed when the last array referencing it goes (``weakref.finalize`` on its owner,
which CuPy's memory object holds), so dropping a graph gives its pinned memory back at once;
:func:`pinned_bytes` counts what the package holds.  CuPy is imported only when a block is
allocated.
"""
from __future__ import annotations

import threading
import weakref

import numpy as np

from ._backend import is_cupy_array

#: cudaHostAllocPortable | cudaHostAllocMapped (CUDA's values).
_HOST_ALLOC_PORTABLE = 1
_HOST_ALLOC_MAPPED = 2

_lock = threading.Lock()
_held = [0]  # bytes of every live block


def pinned_bytes() -> int:
    """Bytes of pinned host memory the package holds now, over every graph (every live
    block)."""
    with _lock:
        return _held[0]


def _count(nbytes: int) -> None:
    with _lock:
        _held[0] += nbytes


def _free(ptr: int, nbytes: int) -> None:
    import cupy

    try:
        cupy.cuda.runtime.freeHost(ptr)
    finally:
        _count(-nbytes)


class PinnedBlock:
    """One block of pinned, mapped host memory; freed when the object goes.

    Parameters
    ----------
    nbytes : int
        The block's size (a zero-byte request takes one byte: CUDA refuses zero).

    Raises
    ------
    MemoryError
        CUDA could not pin that much; the message gives the bytes asked and those the
        package holds already.
    """

    __slots__ = ("ptr", "device_ptr", "nbytes", "_finalizer", "__weakref__")

    def __init__(self, nbytes: int):
        import cupy

        runtime = cupy.cuda.runtime
        nbytes = max(int(nbytes), 1)
        try:
            ptr = runtime.hostAlloc(nbytes, _HOST_ALLOC_MAPPED | _HOST_ALLOC_PORTABLE)
        except runtime.CUDARuntimeError as exc:
            raise MemoryError(
                f"could not pin {nbytes} bytes of host memory ({exc}); cugraph_compressed "
                f"holds {pinned_bytes()} pinned bytes already") from None
        _count(nbytes)
        self._finalizer = weakref.finalize(self, _free, ptr, nbytes)
        self.ptr, self.nbytes = ptr, nbytes
        try:  # with unified addressing the device sees the block at the same address
            self.device_ptr = int(runtime.pointerGetAttributes(ptr).devicePointer) or ptr
        except Exception:
            self.device_ptr = ptr

    def host_array(self) -> np.ndarray:
        """The whole block as a uint8 NumPy array (which keeps the block alive)."""
        return np.asarray(_HostBytes(self))


class _HostBytes:
    """The host side of a block for NumPy: the array made from it keeps it, and so the
    block, alive."""

    def __init__(self, block: PinnedBlock):
        self.block = block
        self.__array_interface__ = {"data": (block.ptr, False), "shape": (block.nbytes,),
                                    "typestr": "|u1", "version": 3}


def empty(shape, dtype):
    """A CuPy array of ``shape`` and ``dtype`` in a new pinned, mapped block (contents
    undefined).  MemoryError when the block cannot be pinned."""
    import cupy

    dtype = np.dtype(dtype)
    shape = (int(shape),) if np.isscalar(shape) else tuple(int(s) for s in shape)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    block = PinnedBlock(nbytes)
    device = cupy.cuda.Device().id
    memory = cupy.cuda.UnownedMemory(block.device_ptr, block.nbytes, block, device)
    return cupy.ndarray(shape, dtype, cupy.cuda.MemoryPointer(memory, 0))


def zeros(shape, dtype):
    """:func:`empty`, zeroed by the host (no GPU memset on host memory)."""
    array = empty(shape, dtype)
    host_view(array)[...] = 0
    return array


def block_of(array):
    """The :class:`PinnedBlock` a CuPy array lives in, or None when it is not in one (or is
    not a CuPy array)."""
    if not is_cupy_array(array):
        return None
    data = getattr(array, "data", None)
    memory = getattr(data, "mem", None)
    owner = getattr(memory, "_owner", None)
    return owner if isinstance(owner, PinnedBlock) else None


def is_pinned(array) -> bool:
    """True when ``array`` is a CuPy array in a block of this module."""
    return block_of(array) is not None


def host_view(array) -> np.ndarray:
    """A NumPy view of a contiguous CuPy array in a pinned block (host reads and writes go
    straight to the block)."""
    block = block_of(array)
    if block is None or not array.flags.c_contiguous:
        raise ValueError("host_view needs a contiguous array in a pinned block")
    offset = int(array.data.ptr) - block.device_ptr
    whole = block.host_array()
    return whole[offset:offset + array.nbytes].view(array.dtype).reshape(array.shape)
