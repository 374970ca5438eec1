"""The lists of a frontier decoded on the GPU, for a worker holding a device graph.

The layouts' ``decode_lists`` are host decoders: on a device layout (cgr, ef, fl) each call
copies the whole layout to the host and decodes there, O(E) per round however small the
frontier.  :class:`FrontierDecoder` decodes through the layout's device view instead, with
the traversal kernel that decodes a window of property slots
(:class:`~cugraph_compressed.kernels.traversal.SlotDecoder`): per round, only the frontier's
lists are read, on the GPU, in windows of at most :data:`WINDOW_SLOTS` slots.
"""
from __future__ import annotations

import numpy as np

from ..formats.base import ragged_positions

#: Property slots decoded per kernel launch: bounds the window buffer (8 bytes a slot).
WINDOW_SLOTS = 1 << 24


class FrontierDecoder:
    """``decode_lists`` of a device layout, run on the GPU.

    Built once per worker graph: it holds the degrees' prefix sum (O(the worker's
    vertices)) and the layout's device view.
    """

    def __init__(self, layout):
        from ..kernels.traversal import TRAVERSE, SlotDecoder

        self.slots = SlotDecoder(layout)
        self.kernel = self.slots.run.kernel(TRAVERSE, "decode_slots")

    def __call__(self, vertices):
        """``(owner, neighbours, positions)`` of the lists of ``vertices`` (CuPy, ascending
        local ids), as :meth:`~cugraph_compressed.formats.base.Layout.decode_lists`: int64
        CuPy arrays, positions ascending."""
        run, ends, item_size = self.slots.run, self.slots.ends, self.slots.item_size
        cp = run.cp
        vertices = cp.asarray(vertices, dtype=np.int64)
        if not vertices.size:
            empty = cp.zeros(0, dtype=np.int64)
            return empty, empty.copy(), empty.copy()
        stops = ends[vertices]
        starts = cp.where(vertices > 0, ends[cp.maximum(vertices - 1, 0)], 0)
        owner, positions = ragged_positions(cp, starts, stops - starts)
        neighbours = cp.empty(positions.size, dtype=np.int64)
        if not positions.size:
            return owner, neighbours, positions
        # The frontier ascends, so do its slots: each window holds a run of them.
        first, last = int(positions[0]), int(positions[-1]) + 1
        for w0 in range(first, last, WINDOW_SLOTS):
            w1 = min(w0 + WINDOW_SLOTS, last)
            p0, p1 = (int(x) for x in cp.searchsorted(
                positions, cp.asarray([w0, w1], dtype=np.int64)))
            if p0 == p1:
                continue
            # The frontier's lists meeting the window: stop after w0 and start before w1.
            i0 = int(cp.searchsorted(stops, cp.asarray([w0], dtype=np.int64), side="right")[0])
            i1 = int(cp.searchsorted(starts, cp.asarray([w1], dtype=np.int64))[0])
            lists = vertices[i0:i1].astype(run.vertex_dtype)
            window = cp.full(w1 - w0, -1, dtype=np.int64)
            scan, total = run.items(lists, lists.size, item_size)
            run.launch(self.kernel, lists, lists.size, scan, total, item_size, np.int64(w0),
                       np.int64(w1), window)
            neighbours[p0:p1] = window[positions[p0:p1] - w0]
        return owner, neighbours, positions
