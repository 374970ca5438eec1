"""``placement="auto"``: a device graph's per-edge buffers split by vertex between GPU memory
and pinned host memory.

A split vertex ``s`` keeps the lists of vertices ``0 .. s - 1`` on the GPU and the others in
pinned, mapped host memory (:mod:`._pinned`).  Every per-edge buffer of the layout (its
class's ``edge_buffers``) is cut at the element where vertex ``s``'s list starts
(:meth:`~cugraph_compressed.formats.base.Layout.edge_starts`: the word holding its first bit
for the bit-packed layouts): elements ``[0, split)`` in a device array, the rest in a pinned
one (:class:`SplitArray`).  The device views read element ``i`` from the device part when ``i
< split``, else from the host part (``cgc::EdgeBuffer``, ``kernels/common.cuh``), so a word
shared by the last device list and the first host list is read, whole, from the host part:
nothing is duplicated and no word is read wrong.

Hubs come first only when the vertex order puts them first: with ``vertex_order="degree"`` the
device prefix holds the longest lists, which most traversal work reads; with ``"sorted"`` it
holds the lowest ids, whatever their degrees.  Degree order is what makes auto placement pay.

The edge properties (weights, edge ids, edge types) are not split: they stay on the GPU when
the whole payload and they fit its share, else they go to pinned memory whole.

This module also holds the pure functions that choose the split (:func:`device_share`,
:func:`choose_split`), tested on the CPU with given sizes.
"""
from __future__ import annotations

import numpy as np

from ._backend import DEVICE, HOST, is_cupy_array

#: The split word of a buffer in one piece: ``i < NO_SPLIT`` always holds (device and host
#: placement read as they did before splits existed).
NO_SPLIT = 2**64 - 1
#: Bytes of GPU memory auto placement leaves free without a ``memory_budget``: this much, or
#: :data:`RESERVE_FRACTION` of the GPU's memory when that is more (CUDA's context, cuDF
#: results, other libraries).
RESERVE_BYTES = 1 << 30
RESERVE_FRACTION = 1 / 16
#: Candidate split vertices probed per round of :func:`choose_split`.
PROBES = 1024


class SplitArray:
    """A 1-D per-edge buffer in two parts: elements ``[0, split)`` in GPU memory (``device``)
    and ``[split, size)`` in pinned host memory (``host``), CuPy arrays of one dtype (NumPy
    ones in the CPU tests of the device views).

    Python code reads it as a 1-D array through indexing (an int, a slice, an int array) and
    ``numpy.asarray`` (a joined host copy); the kernels read the two parts where they are.
    """

    __slots__ = ("device", "host", "split")

    def __init__(self, device, host, split: int):
        if device.dtype != host.dtype or device.ndim != 1 or host.ndim != 1:
            raise ValueError("the parts of a split buffer are 1-D arrays of one dtype")
        if int(device.size) != int(split):
            raise ValueError(f"the device part has {int(device.size)} elements, expected the "
                             f"split, {int(split)}")
        self.device, self.host, self.split = device, host, int(split)

    @property
    def xp(self):
        if is_cupy_array(self.device):
            import cupy

            return cupy
        return np

    @property
    def dtype(self):
        return self.device.dtype

    @property
    def itemsize(self) -> int:
        return int(self.device.itemsize)

    @property
    def size(self) -> int:
        return self.split + int(self.host.size)

    @property
    def shape(self) -> tuple:
        return (self.size,)

    ndim = 1

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    def nbytes_by_placement(self) -> dict:
        """``{"device": bytes, "host": bytes}`` of the two parts."""
        return {DEVICE: int(self.device.nbytes), HOST: int(self.host.nbytes)}

    def __len__(self) -> int:
        return self.size

    def __array__(self, dtype=None, copy=None):
        out = np.concatenate([_numpy(self.device), _numpy(self.host)])
        return out if dtype is None else out.astype(dtype, copy=False)

    def get(self) -> np.ndarray:
        """The whole buffer as one NumPy array (a copy)."""
        return np.asarray(self)

    def __getitem__(self, key):
        xp, split, size = self.xp, self.split, self.size
        if isinstance(key, (int, np.integer)):
            i = int(key) + (size if int(key) < 0 else 0)
            if not 0 <= i < size:
                raise IndexError(f"index {int(key)} is out of bounds for a buffer of {size}")
            return self.device[i] if i < split else self.host[i - split]
        if isinstance(key, slice):
            start, stop, step = key.indices(size)
            if step != 1:
                return self[xp.arange(start, stop, step, dtype=np.int64)]
            stop = max(start, stop)
            if stop <= split:
                return self.device[start:stop]
            if start >= split:
                return self.host[start - split:stop - split]
            return xp.concatenate([self.device[start:], self.host[:stop - split]])
        index = xp.asarray(key)
        if index.dtype.kind not in "iu":
            raise IndexError(f"a split buffer is indexed by integers, got {index.dtype}")
        index = index.astype(np.int64, copy=False)
        if not self.host.size:
            return self.device[index]
        if not split:
            return self.host[index]
        low = self.device[xp.clip(index, 0, split - 1)]
        high = self.host[xp.clip(index - split, 0, int(self.host.size) - 1)]
        return xp.where(index < split, low, high)

    def min(self):
        parts = [p.min() for p in (self.device, self.host) if p.size]
        return min(parts) if parts else self.device.min()

    def max(self):
        parts = [p.max() for p in (self.device, self.host) if p.size]
        return max(parts) if parts else self.device.max()


def _numpy(array) -> np.ndarray:
    return array.get() if is_cupy_array(array) else np.asarray(array)


def device_share(budget: int, resident: int, num_vertices: int, state_per_vertex: int) -> int:
    """Bytes of per-edge payload a graph may keep on the GPU: ``budget`` less what the graph
    keeps there whatever the split (``resident``: per-vertex arrays, the renumber map) and the
    per-vertex state of its largest algorithm (``num_vertices * state_per_vertex``).

    Raises
    ------
    MemoryError
        The budget does not cover ``resident`` and the state: the graph cannot run within it
        even with its whole payload in host memory.
    """
    state = int(num_vertices) * int(state_per_vertex)
    share = int(budget) - int(resident) - state
    if share < 0:
        raise MemoryError(
            f"a GPU budget of {int(budget)} bytes cannot hold the graph's per-vertex arrays "
            f"({int(resident)} bytes under 'device') and its algorithms' per-vertex state "
            f"({state} bytes: {int(state_per_vertex)} bytes per vertex): the graph needs at "
            f"least {int(resident) + state} bytes of GPU memory")
    return share


def choose_split(bytes_at, num_vertices: int, share: int) -> int:
    """The largest split vertex ``s`` in ``[0, num_vertices]`` whose device part fits ``share``.

    Parameters
    ----------
    bytes_at : callable
        ``bytes_at(vertices)`` (a NumPy int64 array) gives the device bytes of a split at each
        (NumPy int array): non-decreasing in the vertex, 0 at vertex 0.
    num_vertices : int
        The graph's vertex count (a split there keeps everything on the GPU).
    share : int
        Bytes the device part may take.

    Returns
    -------
    int
        The split vertex: every list before it on the GPU.  The search probes
        :data:`PROBES` vertices a round, so it reads O(log(V) / log(PROBES)) small batches of
        sizes, never an array over every vertex.
    """
    n = int(num_vertices)
    if int(np.asarray(bytes_at(np.asarray([n], dtype=np.int64)))[0]) <= share:
        return n
    lo, hi = 0, n  # bytes_at(lo) <= share < bytes_at(hi)
    while hi - lo > 1:
        probes = np.unique(np.linspace(lo, hi, min(hi - lo + 1, PROBES)).astype(np.int64))
        fits = np.asarray(bytes_at(probes)) <= share
        fits[0], fits[-1] = True, False  # lo and hi, known already
        last = int(np.flatnonzero(fits)[-1])
        lo, hi = int(probes[last]), int(probes[last + 1])
    return lo


def split_array(array, split: int):
    """``array`` (a CuPy array in either memory) as a :class:`SplitArray` cut at ``split``, or
    as one plain array in GPU memory (``split == size``) or pinned memory (``split == 0``).
    Both parts are allocated before anything is copied: a MemoryError leaves nothing
    allocated."""
    from . import _placement

    size, split = int(array.size), int(split)
    if split >= size:
        return _placement.move(array, DEVICE)
    if split <= 0:
        return _placement.move(array, HOST)
    import cupy

    device = cupy.empty(split, dtype=array.dtype)
    host = _placement.empty(size - split, array.dtype, HOST, cupy)
    _placement.copy_into(device, array[:split])
    _placement.copy_into(host, array[split:])
    return SplitArray(device, host, split)


def join(array, placement: str):
    """A split buffer as one array in ``placement`` (allocated whole first, then filled from
    both parts); any other array as :func:`._placement.move` moves it."""
    from . import _placement

    if not isinstance(array, SplitArray):
        return _placement.move(array, placement)
    import cupy

    out = _placement.empty(array.size, array.dtype, placement, cupy)
    _placement.copy_into(out[:array.split], array.device)
    _placement.copy_into(out[array.split:], array.host)
    return out
