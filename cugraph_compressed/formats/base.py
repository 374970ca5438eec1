"""The interface every layout implements, on the host (NumPy) and on the device (CuPy).

A layout holds the out-neighbour lists of vertices ``0 .. num_vertices - 1`` (the in-lists when
the graph is stored transposed).  Lists are given to the encoder sorted and free of duplicates.

Contract of every layout:

* ``encoder(num_vertices, xp, **params)`` returns the layout's :class:`RangeEncoder`, which
  builds the layout from vertex ranges of edges in two sweeps (sizes, then bits), and
  ``encode(src, dst, num_vertices, xp, **params)`` (written once, here, on top of it) takes
  edges sorted by (src, dst) without parallel edges and encodes them with NumPy (``xp is
  numpy``: the host reference encoder) or on the GPU (``xp is cupy``: the GPU encoder).  Both
  produce bit-identical buffers, whatever ranges the edges come in.
* Edge properties (weights, edge ids, edge types) are stored by the graph *aligned with the
  layout's decode order*: the ``k``-th neighbour of ``v`` as decoded owns property slot
  ``first_edge(v) + k`` with ``first_edge(v)`` the number of edges of the vertices before
  ``v``.  A layout whose decode order is not the sorted order sets ``property_order`` after
  encoding: slot ``i`` holds the properties of sorted edge ``property_order[i]``.
* ``decode_lists`` (whole lists) and ``decode_range`` (a range of one list, started mid-list
  the layout's way) are the host decoders; they accept a layout held in either array module.
  ``decode_slots`` (a window of property slots) is written once, here, on top of them.
* ``nbytes_by_component`` sums the real buffers; ``estimate_nbytes`` predicts ``nbytes``
  without encoding (the encoder's first sweep alone).
* ``edge_buffers`` names those of its buffers that grow with the edges (the payload): a
  host-placed graph keeps them in pinned host memory, so a GPU encoder allocates them with
  ``RangeEncoder._edge_zeros`` and writes them without atomics (:mod:`.._placement`).
* ``buffer_names`` names the buffers of ``arrays``; a layout is rebuilt from them, its counts,
  its ``params`` and :meth:`Layout.saved_state` (a saved graph, :mod:`cugraph_compressed.saved`)
  and then checked by ``validate()``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .. import _placement
from .._backend import DEVICE, to_host
from .._split import NO_SPLIT, SplitArray


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
    #: The keys of ``arrays``, in the order the encoder gives them.
    buffer_names: ClassVar[tuple] = ()
    #: The buffers of ``buffer_names`` that grow with the edges (the payload a host-placed
    #: graph keeps in pinned host memory, :mod:`cugraph_compressed._placement`); the others
    #: are per-vertex and stay with the vertex state.
    edge_buffers: ClassVar[tuple] = ()

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
    def encoder(cls, num_vertices: int, xp, **params) -> "RangeEncoder":
        """The layout's range encoder.

        Parameters
        ----------
        num_vertices : int
            Lists ``0 .. num_vertices - 1``.
        xp : module
            NumPy (host reference) or CuPy (GPU encoder).
        **params
            The layout's parameters, checked and completed by :meth:`check_params`.

        Returns
        -------
        RangeEncoder
            Ready for the first :meth:`RangeEncoder.size`.
        """
        raise NotImplementedError

    @classmethod
    def encode(cls, src, dst, num_vertices: int, xp, **params) -> "Layout":
        """Encode edges already sorted by (src, dst) and free of parallel edges.

        The edges are cut into runs of whole lists (:func:`list_chunks`, at the encoder's
        ``chunk_edges`` and ``align``), sized, then written, by the layout's
        :meth:`encoder`; ``property_order`` is set when the decode order is not the sorted
        order.  Raises ValueError, naming the list and value, on input that is not sorted,
        has parallel edges or ids out of range (as far as the layout checks its input).
        """
        return encode_ranges(cls.encoder(num_vertices, xp, **params), src, dst)

    @classmethod
    def estimate_nbytes(cls, src, dst, num_vertices: int, xp, **params) -> int:
        """``nbytes`` of the encoding of these (sorted, deduplicated) edges: the encoder's
        sizing sweep alone, no buffer of the layout is allocated."""
        return encode_ranges(cls.encoder(num_vertices, xp, **params), src, dst,
                             size_only=True)

    def saved_state(self) -> dict:
        """What the constructor takes beyond the counts, ``arrays`` and ``params``, as keyword
        arguments holding JSON values: a saved graph stores it to rebuild the layout (empty
        unless the layout overrides it)."""
        return {}

    def with_arrays(self, arrays: dict) -> "Layout":
        """The same layout over other buffers of the same contents (e.g. moved to another
        placement): a new object, so nothing cached over the old buffers is reused."""
        layout = type(self)(self.xp, self.num_vertices, self.num_edges, arrays,
                            dict(self.params), **self.saved_state())
        layout.property_order = self.property_order
        return layout

    # -- size ---------------------------------------------------------------------------------
    def nbytes_by_component(self) -> dict:
        """Bytes of each buffer of the structure, by name."""
        return {name: int(array.nbytes) for name, array in self.arrays.items()}

    @property
    def nbytes(self) -> int:
        """Bytes of the structure: the sum over its buffers."""
        return sum(self.nbytes_by_component().values())

    # -- auto placement (cugraph_compressed._split) -------------------------------------------
    def edge_starts(self, vertices) -> dict:
        """Where a split at each of ``vertices`` cuts the per-edge buffers.

        Parameters
        ----------
        vertices : NumPy int array
            Split vertices in ``[0, num_vertices]``.

        Returns
        -------
        dict
            ``{name: int64 NumPy array}`` for each of ``edge_buffers``: the element holding
            the first entry (bit) of each vertex's list, ``0`` for vertex 0 and the buffer's
            size for ``num_vertices``; a split there keeps elements before it on the GPU.
        """
        raise NotImplementedError

    def _bounded_starts(self, name: str, starts, vertices) -> np.ndarray:
        """``starts`` (int64) clipped to buffer ``name``'s size, which vertex
        ``num_vertices`` gets."""
        size = int(self.arrays[name].size)
        starts = np.minimum(np.asarray(to_host(starts), dtype=np.int64), size)
        return np.where(np.asarray(vertices) >= self.num_vertices, size, starts)

    def split_nbytes(self, vertices) -> np.ndarray:
        """Bytes of the per-edge buffers a split at each of ``vertices`` keeps on the GPU."""
        vertices = np.asarray(vertices, dtype=np.int64)
        total = np.zeros(vertices.size, dtype=np.int64)
        for name, starts in self.edge_starts(vertices).items():
            total += starts * int(self.arrays[name].itemsize)
        return total

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

    def decode_slots(self, begin: int, end: int, ends=None):
        """The edges at property slots ``begin .. end - 1``, host decoders.

        The lists wholly inside the window go through :meth:`decode_lists`, the one or two
        it cuts through :meth:`decode_range`, so the work and the temporaries follow the
        window, however long the lists it touches.

        Parameters
        ----------
        begin, end : int
            The window, ``0 <= begin <= end <= num_edges``.
        ends : array, optional
            The inclusive prefix sum of :meth:`degrees` (computed when None; a caller reading
            many windows computes it once).

        Returns
        -------
        (owner, neighbour)
            int64 arrays of ``end - begin`` entries, slot ``begin + i`` at index ``i``.
        """
        xp = self.xp
        if ends is None:
            ends = xp.cumsum(self.degrees())
        owner = xp.searchsorted(ends, xp.arange(begin, end, dtype=np.int64), side="right")
        neighbour = xp.empty(end - begin, dtype=np.int64)
        if end <= begin:
            return owner, neighbour
        u0, u1 = int(owner[0]), int(owner[-1])

        def first(u):  # the slot of list u's first edge
            return int(ends[u - 1]) if u else 0

        lo = u0 if first(u0) == begin else u0 + 1  # the lists wholly inside: lo .. hi - 1
        hi = u1 + 1 if int(ends[u1]) == end else u1
        if lo > hi:  # one list, cut at both ends
            neighbour[:] = self.decode_range(u0, begin - first(u0), end - first(u0))
            return owner, neighbour
        if lo > u0:
            neighbour[:first(lo) - begin] = self.decode_range(u0, begin - first(u0),
                                                              first(lo) - first(u0))
        if hi > lo:
            _, values, slots = self.decode_lists(xp.arange(lo, hi, dtype=np.int64))
            neighbour[slots - begin] = values
        if hi <= u1:
            neighbour[first(u1) - begin:] = self.decode_range(u1, 0, end - first(u1))
        return owner, neighbour

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
        """The view's whole argument block: :meth:`view_words`; then what a checked build
        (``kernels/common.cuh``) bounds its reads with: the vertex and edge counts and, per
        word, the length of its buffer in elements (0 for a scalar); then, per word, the split
        of a per-edge buffer (its first element in host memory, ``NO_SPLIT`` when it is in one
        piece) and the address of its host part (the buffer's own address when in one piece,
        0 for a scalar), which ``cgc::edge_buffer`` reads.

        A buffer split by ``placement="auto"`` (:class:`cugraph_compressed._split.SplitArray`)
        gives its device part's address as its word and its host part's address after the
        splits; the view reads element ``i`` from the device part when ``i < split``."""
        def wrap(array):
            if isinstance(array, SplitArray):
                return _Buffer(address(array.device), array.size, array.split,
                               address(array.host))
            where = address(array)
            return _Buffer(where, array.size, NO_SPLIT, where)

        words = self.view_words(wrap)
        buffers = [w if isinstance(w, _Buffer) else None for w in words]
        return ([w if b is None else b.address for w, b in zip(words, buffers)]
                + [self.num_vertices, self.num_edges]
                + [0 if b is None else b.size for b in buffers]
                + [0 if b is None else b.split for b in buffers]
                + [0 if b is None else b.host for b in buffers])

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
    """A buffer's words in :meth:`Layout.device_words`: its (device part's) address, its
    length, its split and its host part's address."""

    address: object
    size: int
    split: int
    host: object


def ragged_positions(xp, starts, lengths):
    """Expand lists given by ``starts``/``lengths`` into (owner, position) per element.

    ``owner[i]`` indexes the list element ``i`` belongs to; ``position[i]`` is
    ``starts[owner] + rank of i within its list``.  Shared by every layout's host decoder.
    """
    lengths = lengths.astype(np.int64, copy=False)
    ends = xp.cumsum(lengths)
    total = int(ends[-1]) if ends.size else 0
    # owner: the running sum of the jumps from one non-empty list to the next, placed at the
    # first element of each (a linear pass, where a binary search per element is not).
    owner = xp.zeros(total, dtype=np.int64)
    if total:
        full = xp.flatnonzero(lengths)
        owner[0] = full[0]
        owner[(ends - lengths)[full[1:]]] = full[1:] - full[:-1]
        owner = xp.cumsum(owner)
    rank = xp.arange(total, dtype=np.int64) - (ends - lengths)[owner]
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


def list_chunks(owner, num_lists: int, xp, max_edges: int, align: int = 1, first: int = 0):
    """Runs of whole lists an encoder works on one at a time, so that its temporaries are
    bounded by the run, not by the graph.

    Parameters
    ----------
    owner : array
        Sorted list ids (from :func:`searchable`), one per entry, in ``[first, num_lists)``.
    num_lists : int
        Lists ``first .. num_lists - 1``.
    xp : module
        The array module of ``owner``.
    max_edges : int
        Entries a run aims at: runs are cut about every ``max_edges`` entries (a longer list
        is a run of its own, with the lists up to the next cut).
    align : int
        Every run but the last starts and ends at a multiple of ``align`` (``first`` must be
        one).
    first : int
        The first list (0: all lists).

    Returns
    -------
    list of (v0, v1, e0, e1)
        Lists ``v0 .. v1 - 1`` and their entries ``e0 .. e1 - 1`` (indices into ``owner``),
        covering lists ``first .. num_lists - 1`` in order with runs of about 1/64 of them (at
        least ``MIN_CHUNK_LISTS``, or on the GPU ``MIN_DEVICE_CHUNK_LISTS``, and at most
        ``MAX_CHUNK_LISTS``); one empty run when there are no lists.
    """
    least = MIN_CHUNK_LISTS if xp is np else MIN_DEVICE_CHUNK_LISTS
    per = min(max((num_lists - first) // 64, least), MAX_CHUNK_LISTS)
    per = -(-per // align) * align
    cuts = [np.arange(first, num_lists, per, dtype=np.int64), np.asarray([num_lists])]
    m = int(owner.size)
    if m > max_edges:
        at = to_host(owner[max_edges::max_edges]).astype(np.int64)
        cuts.append(np.clip(at // align * align, first, num_lists))
    bounds = np.unique(np.concatenate(cuts))
    if bounds.size < 2:
        bounds = np.asarray([first, first])
    edges = to_host(xp.searchsorted(owner, xp.asarray(bounds, dtype=owner.dtype)))
    bounds, edges = bounds.tolist(), [int(e) for e in edges]
    return [(bounds[i], bounds[i + 1], edges[i], edges[i + 1]) for i in range(len(bounds) - 1)]


def covering_runs(owner, num_lists: int, xp, max_edges: int, align: int = 1, first: int = 0):
    """:func:`list_chunks`, with every entry of ``owner`` in exactly one run even when the
    input is not sorted or holds ids outside the lists: the first run starts at entry 0, the
    last ends at the last entry and the runs' entries never go back, so the encoder's checks
    see every entry (and name the bad one)."""
    m = int(owner.size)
    runs = list_chunks(searchable(owner, num_lists), num_lists, xp, max_edges, align, first)
    out, e0 = [], 0
    for i, (v0, v1, _, e1) in enumerate(runs):
        e1 = m if i == len(runs) - 1 else min(max(e1, e0), m)
        out.append((v0, v1, e0, e1))
        e0 = e1
    return out


class RangeEncoder:
    """Builds one layout from vertex ranges of edges: :meth:`size` every range in vertex
    order, :meth:`allocate`, then :meth:`write` every range (any order), then :meth:`finish`.

    A range ``[v0, v1)`` holds the lists of vertices ``v0 .. v1 - 1``: ``src`` (their ids,
    non-decreasing, any integer dtype) and ``dst`` (strictly increasing within a list).  The
    ranges sized cover ``[0, num_vertices)`` in order (empty ranges and lists are legal); every
    boundary but ``num_vertices`` is a multiple of :attr:`align`.  Across ranges the encoder
    keeps O(``num_vertices``) numbers and the final buffers; a range's temporaries are bounded
    by the range (runs of at most about :attr:`chunk_edges` edges, whole lists, inside it).

    Layouts subclass it: ``_check`` (the input checks, on runs of entries), ``_size`` and
    ``_write`` (one range), ``_nbytes``, ``_allocate`` and ``_arrays``.

    Parameters
    ----------
    layout_cls : type
        The :class:`Layout` built.
    num_vertices : int
        Lists ``0 .. num_vertices - 1``.
    xp : module
        NumPy (host reference) or CuPy (GPU encoder): both write the same bits.
    params : dict
        The layout's parameters, as its ``check_params`` completes them.
    """

    #: Every range boundary but ``num_vertices`` is a multiple of it.
    align: int = 1

    def __init__(self, layout_cls, num_vertices: int, xp, params: dict):
        self.layout_cls = layout_cls
        self.num_vertices = int(num_vertices)
        self.xp = xp
        self.params = params
        #: Edges sized so far: after the last :meth:`size`, the layout's.
        self.num_edges = 0
        self._sized = 0             # the next range starts at this vertex
        self._ranges = {}           # v0 -> (v1, first edge) of every range of lists sized
        self._written = set()
        self._allocated = False
        self._final_nbytes = None   # kept by finish(), which frees what _nbytes reads
        #: Edges per run at most, beside the layout's own bound (a budget sets it).
        self.max_run_edges = None
        #: Where a GPU encoder allocates the layout's per-edge buffers (``edge_buffers``):
        #: ``"host"`` puts them in pinned host memory (:mod:`cugraph_compressed._placement`),
        #: written a run at a time without atomics, so the payload is never whole on the GPU.
        self.placement = DEVICE

    #: The layout's own bound on the edges of a run (None: runs need none).
    layout_chunk_edges = None
    #: Bytes of temporaries per edge of a run, at most (measured on the host,
    #: ``tests/formats/test_build_memory.py``): a build with a memory budget cuts runs to it.
    work_bytes_per_edge = 16

    @property
    def chunk_edges(self):
        """Edges per run inside a range (whole lists): the layout's bound, lowered to
        :attr:`max_run_edges` when set; None when runs need no edge bound."""
        bounds = [b for b in (self.layout_chunk_edges, self.max_run_edges) if b is not None]
        return min(bounds) if bounds else None

    # -- the protocol -----------------------------------------------------------------------
    def size(self, v0: int, v1: int, src, dst) -> int:
        """Check the edges of lists ``v0 .. v1 - 1`` and record their sizes.

        Raises ValueError, naming the list and value (entries numbered from the first edge
        of the graph), on input the layout refuses, and when the range does not continue the
        ranges before it or holds an edge of a list outside it.

        Returns
        -------
        int
            The number of edges of the range.
        """
        xp, v0, v1 = self.xp, int(v0), int(v1)
        if self._allocated:
            raise ValueError("size() after allocate(): every range is sized first")
        if v0 != self._sized or not v0 <= v1 <= self.num_vertices:
            raise ValueError(f"range [{v0}, {v1}) does not continue the ranges sized so far: "
                             f"the next starts at vertex {self._sized} and none ends past "
                             f"num_vertices={self.num_vertices}")
        if v1 != self.num_vertices and v1 % self.align:
            raise ValueError(f"range [{v0}, {v1}) ends at a vertex that is not a multiple of "
                             f"{self.align} (this layout's alignment)")
        src, dst = xp.asarray(src), xp.asarray(dst)
        e0 = self.num_edges
        if src.ndim != 1 or src.shape != dst.shape:
            self._check(src, dst, e0)  # the layout's own message
            raise ValueError(f"source and destination ids must be 1-D arrays of one length, got "
                             f"shapes {tuple(src.shape)} and {tuple(dst.shape)}")
        m = int(src.size)
        step = self.chunk_edges or m
        for i in range(0, max(m, 1), max(step, 1)):  # one entry of overlap: steps are checked
            self._check(src[i:i + step + 1], dst[i:i + step + 1], e0 + i)
        if m and (int(src[0]) < v0 or int(src[-1]) >= v1):
            bad = int(src[0]) if int(src[0]) < v0 else int(src[-1])
            raise ValueError(f"list of vertex {bad} is outside the range [{v0}, {v1}) of lists "
                             "given with it (edges must be sorted by source vertex)")
        if v1 > v0:
            self._ranges[v0] = (v1, e0)
            self._size(v0, v1, src, dst, e0)
        self._sized = v1
        self.num_edges += m
        return m

    def _complete(self, what):
        if self._sized != self.num_vertices:
            raise ValueError(f"{what} needs every range sized: lists {self._sized} .. "
                             f"{self.num_vertices - 1} are not")

    @property
    def nbytes(self) -> int:
        """Exact ``nbytes`` of the layout, known once every range is sized."""
        self._complete("nbytes")
        return self._final_nbytes if self._final_nbytes is not None else int(self._nbytes())

    def allocate(self) -> None:
        """Allocate the layout's buffers, once, after the last :meth:`size`."""
        self._complete("allocate()")
        if self._allocated:
            raise ValueError("allocate() was called already")
        self._allocated = True
        self._allocate()

    def write(self, v0: int, v1: int, src, dst):
        """Write the bits of a range sized before (the same lists and edges), in any order.

        Returns
        -------
        None or int64 array
            None when the range decodes in sorted order, else its range-local permutation
            ``order``: decode slot ``first_edge(v0) + i`` holds the properties of the range's
            sorted edge ``order[i]``.
        """
        xp, v0, v1 = self.xp, int(v0), int(v1)
        if not self._allocated:
            raise ValueError("write() before allocate()")
        src, dst = xp.asarray(src), xp.asarray(dst)
        if v1 == v0 and not int(src.size):
            return None
        v1_sized, e0 = self._ranges.get(v0, (None, None))
        e1 = self._ranges.get(v1, (None, self.num_edges))[1]
        if v1_sized != v1 or int(src.size) != e1 - e0 or int(dst.size) != e1 - e0:
            raise ValueError(f"range [{v0}, {v1}) with {int(src.size)} edges is not a range "
                             "sized before")
        self._written.add(v0)
        return self._write(v0, v1, src, dst, e0)

    def finish(self) -> Layout:
        """The layout (``property_order`` None), once every range is written; frees the
        encoder's build state."""
        if not self._allocated or len(self._written) != len(self._ranges):
            raise ValueError(f"finish() needs every range written: {len(self._written)} of "
                             f"{len(self._ranges)} are")
        self._final_nbytes = int(self._nbytes())
        layout = self.layout_cls(self.xp, self.num_vertices, self.num_edges, *self._arrays())
        self._ranges, self._written = {}, set()
        return layout

    # -- what a layout implements -----------------------------------------------------------
    def _check(self, src, dst, first_entry: int) -> None:
        """Raise ValueError on bad entries (``first_entry`` is the first one's number)."""

    def _size(self, v0, v1, src, dst, first_edge) -> None:
        raise NotImplementedError

    def _nbytes(self) -> int:
        raise NotImplementedError

    def _allocate(self) -> None:
        raise NotImplementedError

    def _edge_zeros(self, size: int, dtype):
        """A zeroed per-edge buffer in the encoder's :attr:`placement` (NumPy: host memory)."""
        return _placement.zeros(size, dtype, self.placement, self.xp)

    def _write(self, v0, v1, src, dst, first_edge):
        raise NotImplementedError

    def _arrays(self) -> tuple:
        """The layout constructor's arguments after the counts: ``(arrays, params, ...)``."""
        raise NotImplementedError

    def runs(self, v0: int, v1: int, src):
        """Runs of whole lists ``v0 .. v1 - 1`` inside a range, each at most about
        :attr:`chunk_edges` edges: ``(w0, w1, e0, e1)``, entries counted from the range's
        first (its ``src``)."""
        chunk = self.chunk_edges
        return list_chunks(searchable(src, v1), v1, self.xp,
                           int(src.size) + 1 if chunk is None else chunk, self.align, v0)


def encode_ranges(encoder: RangeEncoder, src, dst, size_only: bool = False):
    """Drive a range encoder over a whole sorted edge list: what :meth:`Layout.encode` and
    :meth:`Layout.estimate_nbytes` (and the list codecs) run.

    Parameters
    ----------
    encoder : RangeEncoder
        A fresh encoder.
    src, dst : arrays of ``encoder.xp``
        Edges sorted by (src, dst), no parallel edges.  They are cut into runs of whole lists
        (:func:`covering_runs`, at the encoder's ``chunk_edges`` and ``align``), all sized,
        then allocated and written.
    size_only : bool
        Stop after sizing.

    Returns
    -------
    Layout or int
        The layout, its ``property_order`` assembled from the runs' orders (None when every
        run decodes in sorted order); with ``size_only``, ``encoder.nbytes``.
    """
    xp, n = encoder.xp, encoder.num_vertices
    src, dst = xp.asarray(src), xp.asarray(dst)
    if src.ndim != 1 or src.shape != dst.shape:
        encoder.size(0, n, src, dst)  # raises, with the layout's message
    chunk = encoder.chunk_edges
    runs = covering_runs(src, n, xp, int(src.size) + 1 if chunk is None else chunk,
                         encoder.align)
    for v0, v1, e0, e1 in runs:
        encoder.size(v0, v1, src[e0:e1], dst[e0:e1])
    if size_only:
        return encoder.nbytes
    encoder.allocate()
    orders = [encoder.write(v0, v1, src[e0:e1], dst[e0:e1]) for v0, v1, e0, e1 in runs]
    layout = encoder.finish()
    if any(order is not None for order in orders):
        layout.property_order = xp.arange(encoder.num_edges, dtype=np.int64)
        for (_, _, e0, e1), order in zip(runs, orders):
            if order is not None:
                layout.property_order[e0:e1] = order + e0
    return layout


#: Entries (edges, values) a window of :func:`list_windows` holds at most, unless one list is
#: longer (it is then a window of its own), and lists a window of lists spans at most: the
#: temporaries of a layout's ``validate()`` follow these two numbers, not the graph's size.
#: The host's windows are shorter: there the temporaries of a short window stay in the caches.
VALIDATE_WINDOW = 1 << 24
VALIDATE_WINDOW_LISTS = 1 << 20
HOST_VALIDATE_WINDOW = 1 << 18
HOST_VALIDATE_WINDOW_LISTS = 1 << 16


def _window(xp, lists: bool) -> int:
    if xp is np:
        return HOST_VALIDATE_WINDOW_LISTS if lists else HOST_VALIDATE_WINDOW
    return VALIDATE_WINDOW_LISTS if lists else VALIDATE_WINDOW


def list_windows(offsets_of, num_lists: int, xp, max_entries=None, max_lists=None):
    """Windows of whole lists, in list order, for work whose temporaries must stay bounded.

    Parameters
    ----------
    offsets_of : callable
        ``offsets_of(a, b)``: the int64 entry offsets of lists ``a .. b`` (``b - a + 1``
        numbers, ``xp`` array, non-decreasing: the caller has checked them).
    num_lists : int
        Lists ``0 .. num_lists - 1``.
    xp : module
        The array module of the offsets.
    max_entries, max_lists : int, optional
        A window's entries (default :data:`VALIDATE_WINDOW`, :data:`HOST_VALIDATE_WINDOW` on
        the host; one longer list is a window of its own) and lists (default
        :data:`VALIDATE_WINDOW_LISTS`, :data:`HOST_VALIDATE_WINDOW_LISTS` on the host).

    Yields
    ------
    (v0, v1, first)
        Lists ``v0 .. v1 - 1`` and their offsets ``first`` (``v1 - v0 + 1`` numbers, a view
        of what ``offsets_of`` returned); none when there are no lists.
    """
    max_entries = _window(xp, False) if max_entries is None else int(max_entries)
    max_lists = _window(xp, True) if max_lists is None else int(max_lists)
    for b0 in range(0, num_lists, max_lists):
        b1 = min(b0 + max_lists, num_lists)
        first = offsets_of(b0, b1)
        i, count = 0, b1 - b0
        while i < count:
            # The last list that starts within max_entries of list i's start ends the window.
            cap = xp.asarray([int(first[i]) + max_entries], dtype=np.int64)
            j = int(xp.searchsorted(first, cap, side="right")[0]) - 1
            j = min(max(j, i + 1), count)
            yield b0 + i, b0 + j, first[i:j + 1]
            i = j


def entry_windows(count: int, xp, max_entries=None, align: int = 1):
    """``(a, b)`` runs covering ``0 .. count - 1`` in order, each at most ``max_entries``
    (default: the lists of a window of :func:`list_windows` on ``xp``) rounded up to a
    multiple of ``align``, every run but the last starting and ending at a multiple of it."""
    step = _window(xp, True) if max_entries is None else int(max_entries)
    step = max(-(-step // align) * align, align)
    return [(a, min(a + step, count)) for a in range(0, count, step)]


class FirstBroken:
    """The first broken invariant of a ``validate()`` that runs its checks window by window.

    Checks are numbered (``step``, any comparable key, e.g. ``(rule, check)``) in the order a
    whole-graph validation runs them, each over every list before the next.  Windows are
    scanned in list order and a window runs its checks in step order, stopping at its first
    failure: the error kept is the one of the lowest step and, for it, of the first window,
    which is the one the whole-graph order meets first.  Checks of the whole graph (an end
    count, a buffer size) are recorded the same way, before or after the windows.
    """

    def __init__(self):
        self.step = None
        self.error = None

    def done(self, step) -> bool:
        """True when a failure at ``step`` or before is known: a window need not run ``step``
        nor any later check."""
        return self.step is not None and self.step <= step

    def fail(self, step, error) -> bool:
        """Keep ``error`` (a :class:`LayoutInvariantError`) unless one of an earlier or the
        same step is known; returns True, so ``return found.fail(...)`` ends a window."""
        if not self.done(step):
            self.step, self.error = step, error
        return True

    def raise_first(self) -> None:
        """Raise the error kept, if any."""
        if self.error is not None:
            raise self.error


def popcount(words, xp):
    """Ones in each word of an unsigned 32-bit array, int64 (``xp.bitwise_count`` where the
    array module has it, else the same count with shifts and masks)."""
    count = getattr(xp, "bitwise_count", None)
    if count is not None:
        return count(words).astype(np.int64)
    x = words.astype(np.uint32, copy=False)
    x = x - ((x >> np.uint32(1)) & np.uint32(0x55555555))
    x = (x & np.uint32(0x33333333)) + ((x >> np.uint32(2)) & np.uint32(0x33333333))
    x = (x + (x >> np.uint32(4))) & np.uint32(0x0F0F0F0F)
    return ((x * np.uint32(0x01010101)) >> np.uint32(24)).astype(np.int64)


def plain_csr_nbytes(num_vertices: int, num_edges: int) -> int:
    """Bytes of the papers' baseline CSR: 32-bit column indices and the narrowest offsets
    (32 or 64 bits) that hold ``num_edges``."""
    offset_bytes = 4 if num_edges < 2**32 else 8
    return 4 * int(num_edges) + offset_bytes * (int(num_vertices) + 1)
