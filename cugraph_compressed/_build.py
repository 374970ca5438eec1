"""The streaming build: edge frames in, one layout out, in passes under a memory budget.

Every graph is built here, from one frame or from many chunks, on the host or on the GPU:

1. **Scan.**  One pass over the chunks: their columns and dtypes are checked, their rows
   counted and their vertex ids gathered (:class:`~._idset.IdSet`), which fixes the vertex
   count and the renumber map.  ``vertex_order="degree"`` then counts every vertex's edges
   in one more pass and orders the internal ids by them (:mod:`._vertex_order`).
2. **Ranges.**  When the edges do not fit the working budget at once, a second pass counts
   each vertex's edges (upper bounds: parallel edges and both directions of an undirected edge
   are not merged yet; the degree order's counts when it has them) and cuts the vertices into
   ranges whose edges fit it.
3. **Sizes.**  For each range, one pass keeps the edges whose list lies in it (both directions
   of an undirected edge), sorts and deduplicates them (ranges are sized so that this takes
   the whole budget) and hands them to the layout's :class:`~.formats.base.RangeEncoder`,
   which records the exact size of every list, in runs sized to what the sorted edges leave
   of the budget.  With ``format="auto"`` every candidate layout's encoder sizes the same
   edges (ranges aligned for all of them), and :mod:`._auto` then chooses the one that goes
   on to step 4.
4. **Write.**  The final buffers are allocated once; each range is gathered again (the last
   one is kept from step 3) and written into its slice, properties included.  With
   ``placement="host"`` (:mod:`._placement`) the per-edge buffers and the properties are
   allocated in pinned host memory and each run is written through the mapping (staged in a
   device slice of the run where the layout's kernels use atomics), so the payload is never
   whole on the GPU: the device peak stays the budget plus O(V).

The same passes re-orient a graph stored transposed (:class:`~._source.StoredEdges`): its own
edges, read back piece by piece in internal ids, need no scan, only steps 2 to 4.

Working memory is the budget plus O(V) vertex arrays (the id set, the counts, the layout's own
per-vertex buffers) beside the final structure, whatever the edge count; a list longer than the
budget is a range of its own.  Parallel edges keep the smallest weight (ties: the earliest row,
chunks in order), an undirected edge given both ways gets the mean weight, wherever the copies
are: the result is the same for every chunking and every budget.
"""
from __future__ import annotations

import math
from contextlib import ExitStack
from dataclasses import dataclass, field

import numpy as np

from . import _backend, _placement
from ._args import check_bool, check_int
from ._auto import AutoFormat, choose
from ._backend import DEVICE, HOST
from ._edgelist import (
    INT32_MAX,
    check_id_series,
    check_symmetrize,
    check_vertex_memory,
    check_vertices,
    column_values,
    gather_pairs_device,
    merge_directions,
    pack_pairs,
    range_rows_device,
    range_rows_fit,
    range_rows_scratch,
    sort_and_dedup,
    sorted_unique,
    unpack_pairs,
    weight_dtype,
)
from ._ids import VertexIds
from ._idset import IdSet, UnknownIds
from ._progress import Progress
from ._source import ChunkError, EdgeChunks, StoredEdges, pieces
from ._vertex_order import DEGREE, SORTED, degree_order

#: The default working budget: this fraction of the memory where the graph is built (the GPU's
#: for a device build, the machine's for a host build), at most ``DEFAULT_BUDGET_CAP`` bytes:
#: beyond it more memory saves few passes, while users build graphs to save memory.  Not the
#: free memory: an RMM pool holds memory the driver counts as used, and the same build should
#: take the same passes wherever it runs.
DEFAULT_BUDGET_FRACTION = 1 / 8
DEFAULT_BUDGET_CAP = 2 << 30
#: Rows of a piece and edges of an encoder run, at least: each costs a few kernel launches
#: whatever its size, and a budget too small for this many (under a megabyte beyond it) would
#: spend its time launching them.
MIN_RUN = 1 << 12

#: Working bytes per edge of a range without properties, beyond its two ids: its 64-bit (list,
#: neighbour) key and an 8-byte temporary while the key is unpacked into the ids.  Beside the
#: key, the sort's scratch (8) and the deduplication's mask, its 32-bit scan (CuPy's boolean
#: indexing) and the kept keys (1 + 4 + 8) stay within what unpacking adds (8 + 8 or more).
KEY_BYTES_PER_EDGE = 16
#: Working bytes per row of a piece: its internal ids (searches return int64), range masks and
#: keys.
PIECE_BYTES_PER_ROW = 48


def default_budget(backend: str) -> int:
    """:data:`DEFAULT_BUDGET_FRACTION` of the backend's memory, at most
    :data:`DEFAULT_BUDGET_CAP`."""
    return min(int(_backend.total_memory(backend) * DEFAULT_BUDGET_FRACTION),
               DEFAULT_BUDGET_CAP)


def piece_rows(budget: int) -> int:
    """Rows of a piece under ``budget``: a quarter of it, at least :data:`MIN_RUN` rows."""
    return max(MIN_RUN, budget // 4 // PIECE_BYTES_PER_ROW)


def check_budget(memory_budget) -> int | None:
    """None, or the budget in bytes as an int; TypeError / ValueError naming a bad one."""
    return None if memory_budget is None else check_int("memory_budget", memory_budget, 1)


def cut_ranges(ends, n: int, per_range: int, align: int, xp):
    """``(v0, v1, edges)`` ranges covering vertices [0, n): each ends at a multiple of
    ``align`` or at n and holds at most ``per_range`` of the counted edges (``ends``: their
    inclusive prefix sum per vertex), but a range of ``align`` vertices whose lists alone hold
    more.  Where the rest fits a range it is one, whatever its alignment: rounding its end down
    left the last ``n % align`` vertices a range (and two passes over the input) of their own."""
    ranges, v0, before = [], 0, 0
    while v0 < n:
        reach = int(xp.searchsorted(ends, before + per_range, side="right"))
        v1 = n if reach >= n else reach // align * align
        if v1 <= v0:  # a list beyond the budget: a range of its own
            v1 = min(v0 + align, n)
        upto = int(ends[v1 - 1])
        ranges.append((v0, v1, upto - before))
        v0, before = v1, upto
    return ranges or [(0, 0, 0)]


@dataclass
class BuildSpec:
    """What to build: the layout (or, with ``auto``, the candidates to choose from) and
    cuGraph's build arguments."""

    layout_class: type | None
    layout_params: dict
    directed: bool
    renumber: bool
    store_transposed: bool
    symmetrize: object
    vertices: object
    names: dict  # source, destination, edge_attr, weight, edge_id, edge_type
    auto: AutoFormat | None = None  # format="auto": layout_class is None
    vertex_order: str = SORTED  # checked against renumber by the graph
    placement: str = DEVICE  # where a device build puts the per-edge buffers

    def layouts(self) -> dict:
        """``{name: (layout class, parameters)}``: the layout, or every candidate of auto."""
        if self.auto is None:
            return {self.layout_class.name: (self.layout_class, self.layout_params)}
        return {name: (cls, cls.check_params()) for name, cls in self.auto.layouts().items()}


@dataclass
class Built:
    """A finished build: the layout, the properties in its slot order, the ids, the columns."""

    layout: object
    properties: dict
    ids: VertexIds
    columns: dict
    in_lists: bool
    stats: dict = field(default_factory=dict)


def build(source: EdgeChunks | StoredEdges, spec: BuildSpec, memory_budget=None,
          size_only: bool = False, progress=None):
    """Build ``spec`` from ``source``: a :class:`Built`, or with ``size_only`` the ``nbytes``
    the graph would have (the sizing step alone, nothing allocated for the structure).
    ``progress``: None (on a terminal, after a few seconds), True or False.

    ``source`` is the user's chunks, or a graph's own edges (:class:`StoredEdges`) for a
    ``spec`` that is directed, without renumbering or symmetrization."""
    if progress is not None:
        progress = check_bool("progress", progress)
    kind = _StoredBuild if isinstance(source, StoredEdges) else _Build
    return kind(source, spec, check_budget(memory_budget), Progress(progress)).run(size_only)


class _Build:
    """One build: the passes of the module docstring, over ``source``, for ``spec``."""

    def __init__(self, source, spec, budget, progress):
        self.source, self.spec, self.budget = source, spec, budget
        self.progress = progress
        self.stage = "reading ids"
        self.xp = self.lib = None
        self.ids = None
        self.counts = None  # edges per list (internal ids, with repeats), once counted
        self.order = None  # the degree order: the internal id of each rank
        self.stats = {"passes": 0}

    # -- passes -------------------------------------------------------------------------------
    def _frames(self):
        self.stats["passes"] += 1
        chunks = None if self.source.rows is None else len(self.source.rows)
        for i, frame in self.source.frames():
            self.progress.step(f"pass {self.stats['passes']} ({self.stage})", i, chunks)
            yield i, frame

    def _pieces(self, properties=True):
        """One pass over the input as pieces, ids as arrays of internal ids (and the
        properties, unless ``properties`` is False)."""
        for i, frame in self._frames():
            for piece in pieces(frame, i, self.source.columns, self.piece_rows, self.xp,
                                self.ids.numeric, properties):
                try:
                    piece.src = self.ids.internal(piece.src)
                    piece.dst = self.ids.internal(piece.dst)
                except UnknownIds as unknown:
                    raise ChunkError(
                        f"chunk {i} holds {unknown.count} vertex id(s) the first pass did not "
                        f"meet, such as {unknown.first!r}: the chunks must give the same edges "
                        "on every pass") from None
                yield piece

    def run(self, size_only):
        with ExitStack() as self._context:  # RMM allocations once the backend is the device
            self._context.callback(self.progress.close)
            self._scan()
            return self._encode(size_only)

    # -- 1. scan ------------------------------------------------------------------------------
    def _setup(self, backend):
        """The backend is known: its modules, RMM allocations on the device, the budget."""
        if backend == DEVICE:
            reason = _backend.gpu_unavailable_reason()
            if reason is not None:
                raise RuntimeError(f"a device graph needs a usable GPU: {reason}")
            self._context.enter_context(_backend.device_allocations())
        self.xp, self.lib = _backend.array_module(backend), _backend.frame_library(backend)
        if self.budget is None:
            self.budget = default_budget(backend)
        self.piece_rows = piece_rows(self.budget)
        self.stats["budget"] = self.budget

    def _start(self, i, frame):
        """At the first chunk: the backend, the columns and the budget are now known."""
        spec, source = self.spec, self.source
        self._setup(source.backend)
        source.resolve(frame, i, **spec.names)
        self.symmetrize = check_symmetrize(spec.directed, spec.symmetrize, source.columns[2])

    def _scan(self):
        spec, source = self.spec, self.source
        vertices = None
        total = 0
        for i, frame in self._frames():
            if i == 0:
                self._start(i, frame)
            source.check(i, frame, spec.renumber)
            if self.ids is None and len(frame):
                vertices = self._vertices()
                self._new_ids(vertices)
            for piece in pieces(frame, i, source.columns, self.piece_rows, self.xp,
                                self.ids is not None and self.ids.numeric, properties=False):
                self.ids.add(piece.src, source.where(i))
                self.ids.add(piece.dst, source.where(i))
            total += len(frame)
        if self.xp is None:
            raise ValueError("chunks holds no edge frames: give at least one (it may be empty)")
        if self.ids is None:  # every chunk was empty
            vertices = self._vertices()
            self._new_ids(vertices)
        distinct = None
        if vertices is not None:
            self.ids.add(column_values(vertices, self.xp) if self.ids.numeric else vertices)
            distinct = self.ids.last_distinct if spec.renumber else None
        n = self.ids.finish()
        self.index_dtype = self.ids.index_dtype
        if spec.vertex_order == DEGREE:
            self.stage = "counting degrees for the vertex order"
            by_rank = self._list_counts()
            self.order, rank_of = degree_order(by_rank, self.index_dtype, self.xp)
            self.ids.reorder(self.order)
            self.counts = by_rank[rank_of]  # the range split needs no pass of its own
            del rank_of
        if not spec.renumber:  # auto sizes every candidate: their encoders live side by side
            per_vertex = sum(cls.build_bytes_per_vertex for cls, _ in spec.layouts().values())
            check_vertex_memory(n, per_vertex, source.backend)
        if vertices is not None:
            check_vertices(n, spec.renumber, vertices, self.xp, distinct)
        self.rows = total
        self.vertex_dtype = np.dtype(np.int64 if self.wide or n > INT32_MAX else np.int32)

    def _vertices(self):
        """``vertices=`` as a checked Series of the build's library, or None."""
        vertices = self.spec.vertices
        if vertices is None:
            return None
        lib = self.lib
        if hasattr(vertices, "columns"):
            raise TypeError(f"vertices must be a Series or a 1-D array-like of vertex ids, got "
                            f"a {type(vertices).__name__}; pass one of its columns")
        if self.source.backend == DEVICE and _backend.is_pandas_object(vertices):
            vertices = lib.from_pandas(vertices)
        elif self.source.backend == HOST and _backend.is_cudf_object(vertices):
            vertices = vertices.to_pandas()
        if not isinstance(vertices, lib.Series):  # lists, arrays, an Index, iterators
            vertices = lib.Series(vertices)
        if not len(vertices) and vertices.dtype == object:
            # No id and no dtype of its own (an empty list): the source column's, as an empty
            # Series of the edges' dtype would have.
            dtypes = self.source.dtypes or {}
            vertices = lib.Series([], dtype=dtypes.get(self.source.columns[0],
                                                       np.dtype(np.int32)))
        check_id_series(vertices, "vertices", self.spec.renumber)
        return vertices.reset_index(drop=True)

    def _new_ids(self, vertices):
        """The id set, from the first chunk's dtypes (cuGraph's rules for the vertex dtype)."""
        source = self.source
        dtypes = source.dtypes or {}
        src_label, dst_label, props = source.columns
        id_dtypes = [dtypes.get(src_label, np.dtype(np.int32)),
                     dtypes.get(dst_label, np.dtype(np.int32))]
        if vertices is not None:
            id_dtypes.append(_backend.numpy_dtype(vertices))
        native = all(d in (np.int32, np.int64) for d in id_dtypes)
        if len({str(d) for d in id_dtypes}) > 1 and not native:
            raise ValueError(
                "source, destination and vertices have different dtypes "
                f"{[str(d) for d in id_dtypes]}; give them one dtype")
        if native:  # int32/int64 ids keep their dtype (mixed widths widen, as in cuGraph)
            self.wide = any(d == np.int64 for d in id_dtypes)
        else:  # others: int64 when any column read is int64, as in cuGraph
            self.wide = any(dtypes.get(c) == np.int64
                            for c in [src_label, dst_label, *props.values()])
        numeric = all(d.kind in "iuf" for d in id_dtypes)
        common = np.result_type(*id_dtypes) if numeric else None
        self.ids = IdSet(self.spec.renumber, numeric, common, self.xp, self.lib)

    # -- 2. ranges ----------------------------------------------------------------------------
    def _property_dtypes(self) -> dict:
        # Rows or not, a frame says its properties' dtypes (a float64 weight stays float64 on a
        # graph without edges); ids of an edgeless input take their defaults (an empty list's
        # column is float64 or object to pandas, which says nothing of the ids).
        dtypes = self.source.dtypes or self.source.first_dtypes or {}
        out = {}
        for name, label in self.source.columns[2].items():
            dtype = dtypes.get(label, np.dtype(np.float32 if name == "weight" else np.int32))
            out[name] = weight_dtype(dtype) if name == "weight" else np.dtype(dtype)
        return out

    def _row_bytes(self) -> int:
        """Bytes of a range's edge once sorted: its two ids and its properties."""
        return 2 * self.index_dtype.itemsize + sum(d.itemsize for d in self.prop_dtypes.values())

    def _bytes_per_edge(self) -> int:
        """Working bytes per edge of a range while it is gathered, sorted and deduplicated."""
        if self._keyed():
            return KEY_BYTES_PER_EDGE + self._row_bytes()
        return 3 * self._row_bytes() + 40  # the gathered rows, sorted copies, int64 orders

    def _range_edges_max(self) -> int:
        """The edges a range gathers at most (a longer list is a range of its own), from the
        whole budget: its gathering and sort are done before the encoders' runs start, and the
        gathered rows (a third of the budget at most) leave room for the piece being read (a
        quarter)."""
        return max(1, self.budget // self._bytes_per_edge())

    def _held_bytes_per_edge(self) -> int:
        """Bytes per edge of a range while its encoder runs: the sorted edges, the encoder's
        int64 slot order and a property permuted by it."""
        widest = max((d.itemsize for d in self.prop_dtypes.values()), default=0)
        return self._row_bytes() + 8 + widest

    def _keyed(self) -> bool:
        """Edges without properties sort as packed 64-bit keys (ids below 2**32)."""
        return not self.prop_dtypes and self.ids.num_vertices <= 2**32

    def _ranges(self, align: int):
        """``(v0, v1, capacity)``: vertex ranges covering every vertex and the upper bound on
        their gathered edges."""
        n = self.ids.num_vertices
        per_range = self._range_edges_max()
        factor = 1 if self.spec.directed else 2
        counts, self.counts = self.counts, None  # not kept through the encoding
        if self.rows * factor <= per_range:
            return [(0, n, self.rows * factor)]
        xp = self.xp
        if counts is None:
            self.stage = "counting edges per vertex"
            counts = self._list_counts()
        ends = xp.cumsum(counts)
        del counts
        return cut_ranges(ends, n, per_range, align, xp)

    def _list_counts(self):
        """One pass: every list's edges in the input (int64, by the ids ``_pieces`` gives),
        parallel edges included; an undirected row counts at both ends."""
        xp, n = self.xp, self.ids.num_vertices
        counts = xp.zeros(n, dtype=np.int64)
        for piece in self._pieces(properties=False):
            owner, neighbour = self._oriented(piece)
            counts += xp.bincount(owner, minlength=n)
            if not self.spec.directed:
                counts += xp.bincount(neighbour, minlength=n)
        return counts

    def _oriented(self, piece):
        """``(list owner, neighbour)`` of a piece's edges: in-lists are stored transposed."""
        if self.spec.directed and self.spec.store_transposed:
            return piece.dst, piece.src
        return piece.src, piece.dst

    # -- 3. and 4. sizes, then the write ------------------------------------------------------
    def _encode(self, size_only):
        spec, xp = self.spec, self.xp
        self.prop_dtypes = self._property_dtypes()
        n = self.ids.num_vertices
        encoders, excluded = self._encoders(n)
        ranges = self._ranges(math.lcm(*(e.align for e in encoders.values())))
        self.stats["ranges"] = len(ranges)
        firsts, kept, num_edges = [], None, 0  # firsts: each range's first property slot
        for r, (v0, v1, capacity) in enumerate(ranges):
            self.stage = f"sizing vertex range {r + 1}/{len(ranges)}"
            edges = self._range_edges(v0, v1, capacity)
            firsts.append(num_edges)
            for encoder in encoders.values():  # format="auto": every candidate, same edges
                count = encoder.size(v0, v1, edges[0], edges[1])
            num_edges += count
            if r == len(ranges) - 1 and not size_only:
                kept = edges
            del edges
        prop_bytes = sum(num_edges * d.itemsize for d in self.prop_dtypes.values())
        ids = VertexIds(self.source.backend, n, self.vertex_dtype, self.ids.renumber_map,
                        self.order)
        extra = prop_bytes + ids.nbytes() + ids.order_nbytes()
        if spec.auto is not None:
            limit = spec.auto.max_nbytes
            if limit is None:
                limit = max(_backend.total_memory(self.source.backend) - self.budget, 0)
            choice = choose({name: e.nbytes + extra for name, e in encoders.items()}, limit,
                            excluded)
            self.stats["format_choice"] = choice.as_dict()
            encoders = {choice.chosen: encoders[choice.chosen]}  # the others' state is freed
        (encoder,) = encoders.values()
        del encoders
        if size_only:
            return int(encoder.nbytes + extra)
        encoder.allocate()
        properties = {name: _placement.empty(num_edges, d, spec.placement, xp)
                      for name, d in self.prop_dtypes.items()}
        order = list(range(len(ranges)))
        order = order[-1:] + order[:-1]  # the kept range first: its edges are freed soonest
        for r in order:
            v0, v1, capacity = ranges[r]
            self.stage = f"writing vertex range {r + 1}/{len(ranges)}"
            edges = kept if r == len(ranges) - 1 else self._range_edges(v0, v1, capacity)
            kept = None
            src, dst, props = edges
            del edges
            slots = encoder.write(v0, v1, src, dst)
            first = firsts[r]
            for name, values in props.items():
                if slots is not None:
                    values = values[slots]
                _placement.write(properties[name], first, values)
            del src, dst, props, slots
        layout = encoder.finish()
        columns = {"source": self.source.columns[0], "destination": self.source.columns[1],
                   **self.source.columns[2]}
        in_lists = spec.directed and spec.store_transposed
        return Built(layout, properties, ids, columns, in_lists, self.stats)

    def _encoders(self, n):
        """``({name: range encoder}, {name: why excluded})``: the layout's encoder, or one per
        candidate of ``format="auto"`` (a candidate that cannot hold ``n`` vertices is left
        out, with the reason), each running within the budget."""
        encoders, excluded = {}, {}
        run_bytes = self.budget - self._range_edges_max() * self._held_bytes_per_edge()
        for name, (cls, params) in self.spec.layouts().items():
            try:
                encoder = cls.encoder(n, self.xp, **params)
            except ValueError as exc:
                if self.spec.auto is None:
                    raise
                excluded[name] = str(exc)
                continue
            # A range's gathering and sort take the whole budget, then free all but the sorted
            # edges: the runs over them take what is left.
            encoder.max_run_edges = max(MIN_RUN, run_bytes // encoder.work_bytes_per_edge)
            encoder.placement = self.spec.placement
            encoders[name] = encoder
        if not encoders:
            raise ValueError("format='auto': no candidate layout can hold this graph: "
                             + "; ".join(f"{name}: {why}" for name, why in excluded.items()))
        return encoders, excluded

    def _range_edges(self, v0, v1, capacity):
        """The edges of lists ``v0 .. v1 - 1``: ``(src, dst, properties)`` sorted by (src, dst),
        deduplicated and (undirected) symmetrized, as the whole graph would have them."""
        if self._keyed():
            return self._keyed_edges(v0, v1, capacity)
        return self._property_edges(v0, v1, capacity)

    def _gathered(self, v0, v1):
        """Per piece: the ``(owner, neighbour, properties, backward)`` parts whose owner is in
        the range; ``backward`` parts are undirected edges given towards the range."""
        whole = v0 == 0 and v1 == self.ids.num_vertices
        for piece in self._pieces():
            for o, nb, backward in self._parts(piece):
                props = piece.properties
                if not whole:
                    # One index array for every column: a boolean mask per column would read
                    # its count back from the GPU once per column.
                    at = self.xp.flatnonzero((o >= v0) & (o < v1))
                    o, nb = o[at], nb[at]
                    props = {k: v[at] for k, v in props.items()}
                yield o, nb, props, backward

    def _parts(self, piece):
        """A piece's ``(owner, neighbour, backward)`` parts: its edges as given and, for an
        undirected graph, the same edges seen from their other end (``backward``)."""
        owner, neighbour = self._oriented(piece)
        parts = [(owner, neighbour, False)]
        if not self.spec.directed:
            parts.append((neighbour, owner, True))
        return parts

    def _split(self, backward: bool) -> bool:
        """Whether backward parts are kept apart: undirected edges are deduplicated per
        direction before the directions merge (weights) or are compared (symmetrize=False)."""
        return backward and not self.spec.directed and not (self.symmetrize and self._keyed())

    def _keyed_edges(self, v0, v1, capacity):
        xp = self.xp
        keys = xp.empty(capacity, dtype=np.uint64)
        if xp is not np and not self._split(True):  # one fused kernel per piece on the GPU
            count = xp.zeros(1, dtype=np.uint64)
            for piece in self._pieces(properties=False):
                owner, neighbour = self._oriented(piece)
                gather_pairs_device(owner, neighbour, v0, v1, not self.spec.directed, keys,
                                    count)
            filled = int(count.get()[0])
            if filled > capacity:
                raise _more_edges_than_counted()
            forward = sorted_unique(keys[:filled], xp)
            del keys  # before unpacking: the buffer is the range's largest array
            src, dst = unpack_pairs(forward, self.index_dtype)
            return src, dst, {}
        front, back = 0, capacity  # forward keys fill from the front, kept-apart ones from the back
        for o, nb, _, backward in self._gathered(v0, v1):
            k = pack_pairs(o, nb)
            if front + k.size > back:
                raise _more_edges_than_counted()
            if self._split(backward):
                keys[back - k.size:back] = k
                back -= k.size
            else:
                keys[front:front + k.size] = k
                front += k.size
            del k
        forward = sorted_unique(keys[:front], xp)
        backward = sorted_unique(keys[back:], xp) if self._split(True) else None
        del keys
        if backward is not None:  # symmetrize=False: the input must hold both directions
            if forward.size != backward.size or not bool((forward == backward).all()):
                raise _not_symmetric()
            del backward
        src, dst = unpack_pairs(forward, self.index_dtype)
        return src, dst, {}

    def _property_edges(self, v0, v1, capacity):
        xp, n = self.xp, self.ids.num_vertices
        owner = xp.empty(capacity, dtype=self.index_dtype)
        neighbour = xp.empty(capacity, dtype=self.index_dtype)
        props = {name: xp.empty(capacity, dtype=d) for name, d in self.prop_dtypes.items()}
        fill = (self._range_rows_device if xp is not np and range_rows_fit(self.prop_dtypes)
                else self._range_rows)
        front, back = fill(v0, v1, owner, neighbour, props)
        forward = sort_and_dedup(owner[:front], neighbour[:front],
                                 {k: v[:front] for k, v in props.items()}, n, xp)
        if self.spec.directed:
            return forward
        backward = sort_and_dedup(owner[back:], neighbour[back:],
                                  {k: v[back:] for k, v in props.items()}, n, xp)
        del owner, neighbour, props
        if self.symmetrize:
            return merge_directions(forward, backward, n, xp)
        same = (forward[0].size == backward[0].size and bool((forward[0] == backward[0]).all())
                and bool((forward[1] == backward[1]).all()))
        if not same:
            raise _not_symmetric()
        return forward

    def _range_rows(self, v0, v1, owner, neighbour, props):
        """Fill the range's buffers with the rows of lists ``v0 .. v1 - 1``: forward parts
        from the front in input order, each piece's backward part (undirected edges given
        towards the range) just below the last one's at the back.  ``(front, back)``: the
        forward rows are ``[0, front)``, the backward ones ``[back, capacity)``."""
        front, back = 0, int(owner.size)
        for o, nb, p, backward in self._gathered(v0, v1):
            size = int(o.size)
            if front + size > back:
                raise _more_edges_than_counted()
            if backward:
                at = slice(back - size, back)
                back -= size
            else:
                at = slice(front, front + size)
                front += size
            owner[at], neighbour[at] = o, nb
            for name, values in p.items():
                props[name][at] = values
        return front, back

    def _range_rows_device(self, v0, v1, owner, neighbour, props):
        """:meth:`_range_rows` on the GPU, the same rows in the same slots: a few launches per
        piece part and one read of the cursor per range (``_edgelist.range_rows_device``),
        where the array version read a count back, allocated and gathered per column for
        every part."""
        xp = self.xp
        cursor = xp.asarray([0, int(owner.size)], dtype=np.int64)
        scratch = xp.empty(0, dtype=np.int64)
        for piece in self._pieces():
            for o, nb, backward in self._parts(piece):
                need = range_rows_scratch(o.size)
                if scratch.size < need:
                    scratch = xp.empty(need, dtype=np.int64)
                range_rows_device(o, nb, piece.properties, v0, v1, backward, owner, neighbour,
                                  props, cursor, scratch)
        front, back = (int(x) for x in cursor.get())
        if front > back:
            raise _more_edges_than_counted()
        return front, back


class _StoredBuild(_Build):
    """A build from a graph's own edges (:class:`StoredEdges`): ids are internal already and
    the edges deduplicated, so there is no scan and nothing to check; ranges, sizes and writes
    are the build's own, pieces come from the source."""

    def _scan(self):
        source = self.source
        self._setup(source.backend)
        self.symmetrize = False
        n = source.num_vertices
        self.ids = IdSet(False, True, np.int64, self.xp, self.lib)
        if n:  # ids 0 .. n - 1 as they are: the count is the largest one plus one
            self.ids.add(self.xp.asarray([n - 1]))
        self.ids.finish()
        self.rows = source.num_edges
        self.index_dtype = self.vertex_dtype = self.ids.index_dtype
        self.stats["pieces"] = -(-self.rows // self.piece_rows)

    def _pieces(self, properties=True):
        self.stats["passes"] += 1
        for piece in self.source.pieces(self.piece_rows, self.index_dtype, properties):
            self.progress.step(f"pass {self.stats['passes']} ({self.stage})", piece.chunk,
                               self.stats["pieces"])
            yield piece


def _more_edges_than_counted():
    return ChunkError("the chunks gave more edges on a later pass than on the first: they must "
                      "be the same on every pass")


def _not_symmetric():
    return ValueError(
        "the graph is undirected with symmetrize=False, but the edge list is not symmetric; "
        "give every edge in both directions or leave symmetrize at its default")

