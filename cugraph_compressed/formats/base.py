"""The interface every layout implements, on the host (NumPy) and on the device (CuPy).

A layout holds the out-neighbour lists of vertices ``0 .. num_vertices - 1`` (the in-lists when
the graph is stored transposed).  Lists are sorted and free of duplicates.  Edge properties
(weights, edge ids, edge types) are stored by the graph, *aligned with the layout's decode
order*: the ``k``-th neighbour of ``v`` as decoded owns property slot ``position(v, k)``.

The same Python code serves both backends: the layout's arrays live in the array module ``xp``
it was encoded with, and every method works on either.
"""
from __future__ import annotations

from typing import ClassVar

import numpy as np


class LayoutInvariantError(ValueError):
    """A layout's buffers break one of the invariants its module documents."""


class Layout:
    """Base class of the graph layouts; see :mod:`cugraph_compressed.formats`."""

    name: ClassVar[str]

    def __init__(self, xp, num_vertices: int, num_edges: int, arrays: dict, params: dict):
        self.xp = xp
        self.num_vertices = int(num_vertices)
        self.num_edges = int(num_edges)
        self.arrays = arrays
        self.params = params

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def check_params(cls, **params) -> dict:
        """Validate and complete the layout's keyword parameters (defaults filled in)."""
        raise NotImplementedError

    @classmethod
    def encode(cls, src, dst, num_vertices: int, xp, **params) -> "Layout":
        """Encode edges already sorted by (src, dst) and free of parallel edges."""
        raise NotImplementedError

    # -- size ---------------------------------------------------------------------------------
    def nbytes_by_component(self) -> dict:
        """Bytes of each buffer of the structure, by name."""
        return {name: int(array.nbytes) for name, array in self.arrays.items()}

    @property
    def nbytes(self) -> int:
        """Bytes of the structure: the sum over its buffers."""
        return sum(self.nbytes_by_component().values())

    # -- decoding -----------------------------------------------------------------------------
    def degrees(self):
        """Length of every list, int64."""
        raise NotImplementedError

    def decode_lists(self, vertices):
        """Decode the lists of ``vertices``.

        Returns ``(owner, neighbours, positions)``: for each decoded edge, the index into
        ``vertices`` of its list's owner, the neighbour id (int64) and its property slot.
        """
        raise NotImplementedError

    def to_coo(self):
        """All edges as ``(owner, neighbour, position)`` arrays in decode order."""
        xp = self.xp
        return self.decode_lists(xp.arange(self.num_vertices, dtype=np.int64))

    def validate(self) -> None:
        """Raise :class:`LayoutInvariantError` on any broken invariant of the layout."""
        raise NotImplementedError


def ragged_positions(xp, starts, lengths):
    """Expand lists given by ``starts``/``lengths`` into (owner, position) per element.

    ``owner[i]`` indexes the list element ``i`` belongs to; ``position[i]`` is
    ``starts[owner] + rank of i within its list``.  Shared by every layout's host decoder.
    """
    lengths = lengths.astype(np.int64, copy=False)
    ends = xp.cumsum(lengths)
    total = int(ends[-1]) if ends.size else 0
    index = xp.arange(total, dtype=np.int64)
    owner = xp.searchsorted(ends, index, side="right")
    rank = index - (ends - lengths)[owner]
    return owner, starts.astype(np.int64, copy=False)[owner] + rank
