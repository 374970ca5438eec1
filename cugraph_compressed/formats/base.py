"""The interface every layout implements, on the host (NumPy) and on the device (CuPy).

A layout holds the out-neighbour lists of vertices ``0 .. num_vertices - 1`` (the in-lists when
the graph is stored transposed).  Lists are given to the encoder sorted and free of duplicates.

Contract of every layout:

* ``encode(src, dst, num_vertices, xp, **params)`` takes edges sorted by (src, dst) without
  parallel edges and encodes them with NumPy (``xp is numpy``: the host reference encoder) or on
  the GPU (``xp is cupy``: the GPU encoder).  Both produce bit-identical buffers.
* Edge properties (weights, edge ids, edge types) are stored by the graph *aligned with the
  layout's decode order*: the ``k``-th neighbour of ``v`` as decoded owns property slot
  ``first_edge(v) + k`` with ``first_edge(v)`` the number of edges of the vertices before
  ``v``.  A layout whose decode order is not the sorted order sets ``property_order`` after
  encoding: slot ``i`` holds the properties of sorted edge ``property_order[i]``.
* ``decode_lists`` (whole lists) and ``decode_range`` (a range of one list, started mid-list
  the layout's way) are the host decoders; they accept a layout held in either array module.
* ``nbytes_by_component`` sums the real buffers; ``estimate_nbytes`` predicts ``nbytes``
  without encoding.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._backend import to_host


class LayoutInvariantError(ValueError):
    """A layout's buffers break one of the invariants its module documents."""


def invariant_error(layout: str, rule, detail: str) -> LayoutInvariantError:
    """The error for broken invariant ``rule`` (its number in the module docstring of the
    layout named ``layout``): ``"<layout> invariant <rule> broken: <detail>"``."""
    return LayoutInvariantError(f"{layout} invariant {rule} broken: {detail}")


class Layout:
    """Base class of the graph layouts; see :mod:`cugraph_compressed.formats`."""

    name: ClassVar[str]
    #: Peak bytes per vertex of a build with ``renumber=False``, beyond its edges (the
    #: parser's checks, offsets, per-list entries, the encoder's scratch, the layout itself):
    #: the larger of the host measures of ``benchmarks/build_memory.py`` (two edges, 10**6 and
    #: 10**7 vertices), with a margin.  The edge-list parser refuses a vertex count whose build
    #: cannot fit in memory at all.
    build_bytes_per_vertex: ClassVar[int] = 16

    def __init__(self, xp, num_vertices: int, num_edges: int, arrays: dict, params: dict):
        self.xp = xp
        self.num_vertices = int(num_vertices)
        self.num_edges = int(num_edges)
        self.arrays = arrays
        self.params = params
        self.property_order = None  # None: properties in sorted edge order

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def check_params(cls, **params) -> dict:
        """Validate and complete the layout's keyword parameters (defaults filled in)."""
        raise NotImplementedError

    @classmethod
    def encode(cls, src, dst, num_vertices: int, xp, **params) -> "Layout":
        """Encode edges already sorted by (src, dst) and free of parallel edges."""
        raise NotImplementedError

    @classmethod
    def estimate_nbytes(cls, src, dst, num_vertices: int, xp, **params) -> int:
        """``nbytes`` of the encoding of these (sorted, deduplicated) edges, without encoding."""
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

    def decode_range(self, v: int, begin: int, end: int):
        """Neighbours ``begin .. end - 1`` (ranks in decode order) of the list of ``v``, int64.

        Layouts override this to start decoding mid-list; this fallback decodes the whole list.
        """
        _, neighbours, _ = self.decode_lists(self.xp.asarray([v], dtype=np.int64))
        return neighbours[begin:end]

    def to_coo(self):
        """All edges as ``(owner, neighbour, position)`` arrays in decode order."""
        xp = self.xp
        return self.decode_lists(xp.arange(self.num_vertices, dtype=np.int64))

    # -- device view ------------------------------------------------------------------------
    @classmethod
    def device_view_types(cls) -> list:
        """C++ types of this layout's device view (``formats/<layout>.cuh``), one per buffer
        dtype combination; empty while the layout has no device view."""
        return []

    def view_type(self) -> str:
        """The C++ type of this layout's device view: one of :meth:`device_view_types`."""
        raise NotImplementedError(f"layout {self.name!r} has no device view yet")

    def view_words(self, address) -> list:
        """The view's own argument words as ints, in the order its ``load`` reads them (``WORDS``
        of them): buffer addresses (``address(array)``) and scalars."""
        raise NotImplementedError(f"layout {self.name!r} has no device view yet")

    def device_words(self, address) -> list:
        """The view's whole argument block: :meth:`view_words`, then what a checked build
        (``kernels/common.cuh``) bounds its reads with: the vertex and edge counts and, per
        word, the length of its buffer in elements (0 for a scalar)."""
        words = self.view_words(lambda array: _Buffer(address(array), array.size))
        return ([w.address if isinstance(w, _Buffer) else w for w in words]
                + [self.num_vertices, self.num_edges]
                + [w.size if isinstance(w, _Buffer) else 0 for w in words])

    @property
    def device_chunk_size(self) -> int:
        """Ranks a device decoder starts at cheaply: multiples of it (1 = random access)."""
        return 1

    def device_view(self):
        """``(view type, argument block)`` for the GPU kernels: the argument block is a CuPy
        uint64 array holding :meth:`device_words` of the layout's device buffers."""
        import cupy as cp

        return self.view_type(), cp.asarray(self.device_words(lambda a: a.data.ptr),
                                            dtype=cp.uint64)

    def validate(self) -> None:
        """Raise :class:`LayoutInvariantError` on any broken invariant of the layout."""
        raise NotImplementedError


@dataclass(frozen=True)
class _Buffer:
    """A buffer's word in :meth:`Layout.device_words`: its address and its length."""

    address: object
    size: int


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


#: Lists per run of an encoder: about 1/64 of them, at least MIN_CHUNK_LISTS on the host and
#: MIN_DEVICE_CHUNK_LISTS on the GPU, at most MAX_CHUNK_LISTS (see list_chunks).  On the GPU a
#: run costs tens of kernel launches and allocations whatever its size (about 50 ms a run for
#: cgr, 20 for ef, at R-MAT 22 without an RMM pool: benchmarks/profile_build.py), while the
#: temporaries of a run of 2**20 lists (at most about 160 bytes a list, for ef) are small
#: next to GPU memory; on the host short runs cost nothing.
MIN_CHUNK_LISTS = 1 << 14
MIN_DEVICE_CHUNK_LISTS = 1 << 20
MAX_CHUNK_LISTS = 1 << 22


def searchable(owner, num_lists: int):
    """``owner`` in an integer dtype that holds ``num_lists + 1``, the largest needle of
    :func:`first_entries` (a copy only when its own dtype does not, or when it is empty and
    not integer)."""
    if owner.dtype.kind not in "iu" or num_lists + 1 > np.iinfo(owner.dtype).max:
        return owner.astype(np.int64)
    return owner


def first_entries(owner, begin: int, end: int, xp):
    """For lists ``begin .. end - 1``: the number of entries of sorted ``owner`` (list ids, in
    a dtype from :func:`searchable`) owned by the lists before each, int64.

    A binary search per list, so no array spans all lists: offsets of any run of lists cost
    the run alone (``bincount`` + ``cumsum`` would cost two int64 arrays over every list).
    """
    needles = xp.arange(begin, end, dtype=owner.dtype)
    return xp.searchsorted(owner, needles, side="left").astype(np.int64, copy=False)


def list_chunks(owner, num_lists: int, xp, max_edges: int, align: int = 1):
    """Runs of whole lists an encoder works on one at a time, so that its temporaries are
    bounded by the run, not by the graph.

    Parameters
    ----------
    owner : array
        Sorted list ids (from :func:`searchable`), one per entry.
    num_lists : int
        Lists ``0 .. num_lists - 1``.
    xp : module
        The array module of ``owner``.
    max_edges : int
        Entries a run aims at: runs are cut about every ``max_edges`` entries (a longer list
        is a run of its own, with the lists up to the next cut).
    align : int
        Every run but the last starts and ends at a multiple of ``align``.

    Returns
    -------
    list of (v0, v1, e0, e1)
        Lists ``v0 .. v1 - 1`` and their entries ``e0 .. e1 - 1``, covering all lists in order
        with runs of about 1/64 of the lists (at least ``MIN_CHUNK_LISTS``, or on the GPU
        ``MIN_DEVICE_CHUNK_LISTS``, and at most ``MAX_CHUNK_LISTS``); one empty run when there
        are no lists.
    """
    least = MIN_CHUNK_LISTS if xp is np else MIN_DEVICE_CHUNK_LISTS
    per = min(max(num_lists // 64, least), MAX_CHUNK_LISTS)
    per = -(-per // align) * align
    cuts = [np.arange(0, num_lists, per, dtype=np.int64), np.asarray([num_lists])]
    m = int(owner.size)
    if m > max_edges:
        at = to_host(owner[max_edges::max_edges]).astype(np.int64)
        cuts.append(at // align * align)
    bounds = np.unique(np.concatenate(cuts))
    if bounds.size < 2:
        bounds = np.asarray([0, 0])
    edges = to_host(xp.searchsorted(owner, xp.asarray(bounds, dtype=owner.dtype)))
    bounds, edges = bounds.tolist(), [int(e) for e in edges]
    return [(bounds[i], bounds[i + 1], edges[i], edges[i + 1]) for i in range(len(bounds) - 1)]


def plain_csr_nbytes(num_vertices: int, num_edges: int) -> int:
    """Bytes of the papers' baseline CSR: 32-bit column indices and the narrowest offsets
    (32 or 64 bits) that hold ``num_edges``."""
    offset_bytes = 4 if num_edges < 2**32 else 8
    return 4 * int(num_edges) + offset_bytes * (int(num_vertices) + 1)
