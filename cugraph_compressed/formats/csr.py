"""``csr``: compressed sparse rows, the uncompressed baseline layout.

Buffers
-------
``offsets``
    ``num_vertices + 1`` entries, int32 while ``num_edges <= 2**31 - 1`` else int64 (always int64
    with ``force_64bit=True``).  List ``v`` is ``indices[offsets[v]:offsets[v + 1]]``.
``indices``
    ``num_edges`` neighbour ids, int32 while ``num_vertices <= 2**31 - 1`` else int64 (always
    int64 with ``force_64bit=True``).

Invariants (checked by :meth:`CSRLayout.validate`)
--------------------------------------------------
1. ``offsets`` and ``indices`` are 1-D arrays of the dtypes given above;
   ``offsets`` has ``num_vertices + 1`` entries, ``offsets[0] == 0`` and
   ``offsets[-1] == len(indices) == num_edges``.
2. ``offsets`` is non-decreasing.
3. Every index lies in ``[0, num_vertices)``.
4. Every list is strictly increasing (sorted, no parallel edges).

No padding: decoding reads exactly the entries named above.  The property slot of the ``k``-th
neighbour of ``v`` is ``offsets[v] + k``.
"""
from __future__ import annotations

import numpy as np

from .. import _placement
from .base import (
    Layout,
    RangeEncoder,
    entry_windows,
    first_entries,
    invariant_error,
    list_windows,
    ragged_positions,
    searchable,
)

INT32_MAX = np.iinfo(np.int32).max
_CTYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}


class CSRLayout(Layout):
    """Compressed sparse rows with 32-bit ids and offsets wherever they fit."""

    name = "csr"
    build_bytes_per_vertex = 8  # measured 4.2
    buffer_names = ("offsets", "indices")
    edge_buffers = ("indices",)

    @classmethod
    def check_params(cls, force_64bit=False) -> dict:
        if not isinstance(force_64bit, (bool, np.bool_)):
            raise TypeError(f"force_64bit must be a bool, got {force_64bit!r}")
        return {"force_64bit": bool(force_64bit)}

    @classmethod
    def encoder(cls, num_vertices, xp, **params):
        return CSREncoder(cls, num_vertices, xp, cls.check_params(**params))

    @property
    def offsets(self):
        return self.arrays["offsets"]

    @property
    def indices(self):
        return self.arrays["indices"]

    def degrees(self):
        offsets = self.offsets.astype(np.int64, copy=False)
        return offsets[1:] - offsets[:-1]

    def decode_lists(self, vertices):
        xp = self.xp
        vertices = xp.asarray(vertices, dtype=np.int64)
        offsets = self.offsets.astype(np.int64, copy=False)
        starts = offsets[vertices]
        owner, positions = ragged_positions(xp, starts, offsets[vertices + 1] - starts)
        return owner, self.indices[positions].astype(np.int64, copy=False), positions

    def decode_range(self, v, begin, end):
        """Neighbours ``begin .. end - 1`` of ``v``, read directly at ``offsets[v] + begin``."""
        start, stop = (int(x) for x in self.offsets[v:v + 2])
        return self.indices[start + begin:min(start + end, stop)].astype(np.int64)

    def edge_starts(self, vertices):
        vertices = np.asarray(vertices, dtype=np.int64)
        at = self.xp.asarray(np.minimum(vertices, self.num_vertices))
        return {"indices": self._bounded_starts("indices", self.offsets[at], vertices)}

    @classmethod
    def device_view_types(cls):
        return [f"cgc::CsrView<{v}, {o}>" for v in _CTYPES.values() for o in _CTYPES.values()]

    def view_type(self):
        return f"cgc::CsrView<{_CTYPES[self.indices.dtype]}, {_CTYPES[self.offsets.dtype]}>"

    def view_words(self, address):
        return [address(self.offsets), address(self.indices)]

    def validate(self):
        """Raise :class:`LayoutInvariantError` on the first broken invariant (module docs).

        Runs on the layout's own array module, in windows (:func:`base.entry_windows` of
        offsets, :func:`base.list_windows` of whole lists): its temporaries are at most about
        12 bytes per offset of a window of ``VALIDATE_WINDOW_LISTS`` and 4 bytes per index of
        a window of ``VALIDATE_WINDOW`` (or of the longest list, when longer).
        """
        xp, offsets, indices = self.xp, self.offsets, self.indices
        n, m = self.num_vertices, self.num_edges
        wide = self.params.get("force_64bit", False)
        for array, what, count in ((offsets, "offsets", m), (indices, "indices", n)):
            dtype = np.dtype(np.int64 if wide or count > INT32_MAX else np.int32)
            if array.ndim != 1 or array.dtype != dtype:
                raise invariant_error("csr", "1", f"{what} is {array.dtype} with {array.ndim} "
                                      f"dimensions, expected 1-D {dtype}")
        if offsets.size != n + 1:
            raise invariant_error("csr", "1", f"offsets has {offsets.size} entries, expected "
                                  f"num_vertices + 1 = {n + 1}")
        if int(offsets[0]) != 0 or int(offsets[-1]) != m or indices.size != m:
            raise invariant_error("csr", "1", f"offsets[0]={int(offsets[0])}, "
                                  f"offsets[-1]={int(offsets[-1])}, len(indices)={indices.size}, "
                                  f"expected 0, {m}, {m}")
        for a, b in entry_windows(n, xp):  # offsets a .. b: steps after vertices a .. b - 1
            down = offsets[a + 1:b + 1] < offsets[a:b]
            if bool(down.any()):
                bad = a + int(xp.argmax(down))
                raise invariant_error("csr", "2", f"offsets decreases after vertex {bad}: "
                                      f"{int(offsets[bad])} > {int(offsets[bad + 1])}")
        if not m:
            return
        low, high = int(indices.min()), int(indices.max())  # reductions: no temporaries
        if low < 0 or high >= n:
            raise invariant_error("csr", "3", f"index range [{low}, {high}] leaves [0, {n})")

        def offsets_of(a, b):
            return offsets[a:b + 1].astype(np.int64)

        for v0, v1, first in list_windows(offsets_of, n, xp):
            e0, e1 = int(first[0]), int(first[-1])
            if e1 - e0 < 2:
                continue
            values = indices[e0:e1]
            bad = values[1:] <= values[:-1]
            starts = first[1:-1]
            bad[starts[(starts > e0) & (starts < e1)] - e0 - 1] = False  # lists' first entries
            if bool(bad.any()):
                at = e0 + int(xp.argmax(bad))
                v = int(xp.searchsorted(first, xp.asarray([at], dtype=np.int64),
                                        side="right")[0]) - 1 + v0
                raise invariant_error("csr", "4", f"list of vertex {v} is not "
                                      "strictly increasing at position "
                                      f"{at + 1 - int(offsets[v])}")


class CSREncoder(RangeEncoder):
    """:class:`CSRLayout`'s range encoder: the offsets dtype is known once every range is sized
    (it depends on the edge count), so both arrays are allocated then; a range writes its
    offsets (``num_vertices + 1`` entries: the range's last one is the next range's first, the
    same number) and its neighbour ids.  No input checks, as the whole-graph encoder never
    had: the edge-list parser hands sorted, valid edges."""

    work_bytes_per_edge = 8  # measured 0.7

    def __init__(self, layout_cls, num_vertices, xp, params):
        super().__init__(layout_cls, num_vertices, xp, params)
        wide = params["force_64bit"] or self.num_vertices > INT32_MAX
        self.index_dtype = np.int64 if wide else np.int32

    def _offset_dtype(self):
        wide = self.params["force_64bit"] or self.num_edges > INT32_MAX
        return np.int64 if wide else np.int32

    def _size(self, v0, v1, src, dst, first_edge):
        pass  # the edge count is all a range adds

    def _nbytes(self):
        return (np.dtype(self._offset_dtype()).itemsize * (self.num_vertices + 1)
                + np.dtype(self.index_dtype).itemsize * self.num_edges)

    def _allocate(self):
        xp = self.xp
        self.offsets = xp.zeros(self.num_vertices + 1, dtype=self._offset_dtype())
        self.indices = self._edge_zeros(self.num_edges, self.index_dtype)

    def _write(self, v0, v1, src, dst, first_edge):
        src = searchable(src, v1)
        for w0, w1, e0, e1 in self.runs(v0, v1, src):
            self.offsets[w0:w1 + 1] = first_entries(src, w0, w1 + 1, self.xp) + first_edge
        _placement.write(self.indices, first_edge, dst)
        return None

    def _arrays(self):
        arrays = {"offsets": self.offsets, "indices": self.indices}
        self.offsets = self.indices = None
        return arrays, dict(self.params)
