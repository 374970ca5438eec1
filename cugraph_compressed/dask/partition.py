"""A worker's share of a multi-worker graph: the lists of one range of internal vertex ids.

Vertices are numbered ``0 .. V-1`` globally (the ranks of the sorted user ids, as in the
single graph) and cut into contiguous ranges, one per worker, balanced by edge counts
(:func:`cut_ranges`).  A worker's :class:`Partition` holds the out-lists of its range as an
ordinary directed :class:`~cugraph_compressed.CompressedGraph`, built by the package's
streaming build from the edges the shuffle brought it, renumbered over the ids it meets: its
own range and the remote neighbours ("ghosts", whose lists are empty).  That renumbering keeps
the global order, so every list decodes in the order the single graph decodes it, and the
worker holds O(its edges + its vertices), never an array over all ``V`` vertices.
"""
from __future__ import annotations

import numpy as np

from .. import _backend
from .._edgelist import INT32_MAX, merge_directions, sort_and_dedup
from .._ids import VertexIds
from ..graph import CompressedGraph
from ..graph_view import OUT

#: Buckets per worker of the coarse edge histogram that places the range cuts; each cut is
#: then placed exactly inside its bucket from per-vertex counts of that bucket alone.
BUCKETS_PER_WORKER = 4096

# Column names of the shuffled edge frames (global internal ids).
SRC, DST, WEIGHT, BACKWARD, PART = "src", "dst", "weight", "backward", "part"


def index_dtype(num_vertices: int) -> np.dtype:
    """Dtype of global internal ids in the shuffled frames: int32 wherever they fit."""
    return np.dtype(np.int32 if num_vertices <= INT32_MAX else np.int64)


def array_module_of(frame):
    """NumPy for a pandas frame or Series, CuPy for a cuDF one."""
    return _backend.array_module(_backend.DEVICE if _backend.is_cudf_object(frame)
                                 else _backend.HOST)


def values(series, xp):
    """A column's values as an array of ``xp``."""
    return xp.asarray(series.to_numpy() if xp is np else series.values)


def stable_argsort(xp, values):
    """A stable argsort in NumPy or CuPy (whose sorts are stable radix sorts, and which takes
    no ``kind``)."""
    return xp.argsort(values, kind="stable") if xp is np else xp.argsort(values)


# -- vertex ranges balanced by edges ------------------------------------------------------------
def owner_histogram(frame, directed: bool, num_vertices: int, width: int, lo: int = 0,
                    hi: int | None = None):
    """Edges per list owner in one edge frame (internal ids in ``SRC``/``DST``), in buckets of
    ``width`` vertices, counting owners in ``[lo, hi)`` only (default: all): a NumPy int64
    array of ``ceil((hi - lo) / width)`` counts.  An undirected edge counts for both ends."""
    xp = array_module_of(frame)
    hi = num_vertices if hi is None else hi
    size = -(-(hi - lo) // width)
    counts = xp.zeros(size, dtype=np.int64)
    ends = [SRC] if directed else [SRC, DST]
    for column in ends:
        owner = values(frame[column], xp).astype(np.int64)
        owner = owner[(owner >= lo) & (owner < hi)]
        counts += xp.bincount((owner - lo) // width, minlength=size)
    return _backend.to_host(counts)


def cut_buckets(histogram, parts: int) -> list:
    """The buckets of ``histogram`` (edges per bucket of vertices) holding the ``parts - 1``
    cuts of :func:`cut_ranges`: only their per-vertex counts are needed."""
    before = np.concatenate([[0], np.cumsum(histogram)])
    total = int(before[-1])
    buckets = set()
    for t in range(1, parts):
        bucket = int(np.searchsorted(before, total * t / parts, side="right")) - 1
        if 0 <= bucket < len(histogram):
            buckets.add(bucket)
    return sorted(buckets)


def cut_ranges(histogram, num_vertices: int, width: int, parts: int, fine: dict) -> list:
    """Range starts ``[0, c1, ..., V]`` (``parts + 1`` of them) putting about ``E / parts``
    edges in each range, from a coarse ``histogram`` (edges per bucket of ``width`` vertices)
    and ``fine``, the exact per-vertex counts of the buckets :func:`cut_buckets` names, so
    that nothing spans all vertices.  A vertex is never split: a hub holding more than a
    share of the edges makes its range longer and the next ones shorter or empty.
    """
    before = np.concatenate([[0], np.cumsum(histogram)])
    total = int(before[-1])
    cuts = [0]
    for t in range(1, parts):
        target = total * t / parts
        bucket = int(np.searchsorted(before, target, side="right")) - 1
        cut = num_vertices
        if 0 <= bucket < len(histogram):
            prefix = before[bucket] + np.concatenate([[0], np.cumsum(fine[bucket])])
            at = int(np.searchsorted(prefix, target))  # first vertex boundary reaching it
            at = min(at, len(prefix) - 1)
            if at and target - prefix[at - 1] < prefix[at] - target:
                at -= 1  # the boundary before it is closer to an even share
            cut = min(bucket * width + at, num_vertices)
        cuts.append(max(cut, cuts[-1]))
    cuts.append(num_vertices)
    return cuts


def with_owners(frame, cuts, directed: bool):
    """The edges of one frame as ``SRC -> DST`` rows keyed by the rank owning ``SRC``
    (``PART``): as given for a directed graph; for an undirected one each edge also reversed,
    marked ``BACKWARD``, so that both ends' lists receive it."""
    xp = array_module_of(frame)
    if not directed:
        lib = _backend.frame_library(_backend.DEVICE if _backend.is_cudf_object(frame)
                                     else _backend.HOST)
        back = frame.rename(columns={SRC: DST, DST: SRC})[list(frame.columns)]
        frame = lib.concat([frame.assign(**{BACKWARD: False}), back.assign(**{BACKWARD: True})],
                           ignore_index=True)
    owner = values(frame[SRC], xp)
    part = xp.searchsorted(xp.asarray(cuts[1:-1], dtype=owner.dtype), owner, side="right")
    return frame.assign(**{PART: part.astype(np.int32)})


# -- the worker's share ------------------------------------------------------------------------
class Partition:
    """The out-lists of internal vertices ``v0 .. v1 - 1``, held by one worker.

    Attributes
    ----------
    rank, v0, v1 : int
        The worker's place and its vertex range.
    cuts : numpy.ndarray
        Every rank's range start, and ``V`` last: the owner of vertex ``v`` is
        ``searchsorted(cuts, v, "right") - 1``.
    graph : CompressedGraph
        The range's lists (directed, renumbered over the ids met).
    global_ids : array
        Global internal id of each of ``graph``'s vertices (sorted).
    first : int
        ``graph``'s id of ``v0``: owned vertex ``v`` is local vertex ``v - v0 + first``.
    ids : VertexIds or None
        User ids of the owned vertices (the range's slice of the renumber map), None when the
        graph is not renumbered (user id = internal id).
    vertex_dtype : numpy.dtype
        The dtype of vertex ids in results.
    """

    def __init__(self, rank, cuts, graph, ids, vertex_dtype, self_loops=0):
        self.rank = rank
        self.self_loops = int(self_loops)  # of an undirected graph (0 for a directed one)
        self.cuts = np.asarray(cuts, dtype=np.int64)
        self.v0, self.v1 = int(cuts[rank]), int(cuts[rank + 1])
        self.graph = graph
        self.backend = graph.backend
        self.xp = _backend.array_module(self.backend)
        self.global_ids = values(graph.nodes(), self.xp)  # the graph's own map, not a copy
        # CuPy searches only for arrays, not Python scalars.
        self.first = int(self.xp.searchsorted(
            self.global_ids, self.xp.asarray([self.v0], dtype=self.global_ids.dtype))[0])
        self.adjacency = graph.view().adjacency(OUT)
        self.ids = ids
        self.vertex_dtype = np.dtype(vertex_dtype)
        self._decoder = None  # a device graph's FrontierDecoder (decode), once used

    @property
    def size(self) -> int:
        """Vertices owned."""
        return self.v1 - self.v0

    @property
    def parts(self) -> int:
        return self.cuts.size - 1

    @property
    def nbytes(self) -> int:
        """Bytes the worker holds for the graph: its lists, weights, local renumber map and
        its slice of the user ids."""
        return self.graph.nbytes + (0 if self.ids is None else self.ids.nbytes())

    def owner(self, vertices):
        """Rank owning each global internal id."""
        xp = self.xp
        return xp.searchsorted(xp.asarray(self.cuts), vertices, side="right") - 1

    def decode(self, vertices):
        """The out-lists of owned vertices (global ids): ``(index into vertices, global
        neighbour, property slot)``, in the single graph's decode order."""
        local = vertices - self.v0 + self.first
        if self.backend == _backend.DEVICE:
            owner, neighbours, positions = self._device_decoder()(local)
        else:
            owner, neighbours, positions = self.adjacency.layout.decode_lists(local)
        return owner, self.global_ids[neighbours], positions

    def _device_decoder(self):
        """The GPU decoder of this graph's lists, made on first use and kept: the layouts'
        own ``decode_lists`` decode on the host, copying the whole layout there each call."""
        if self._decoder is None:
            from .device_decode import FrontierDecoder

            self._decoder = FrontierDecoder(self.adjacency.layout)
        return self._decoder

    def __getstate__(self):
        # The decoder holds a device view and kernels: made again where the copy lands.
        return {**self.__dict__, "_decoder": None}

    def settled(self, vertices, test, *columns):
        """Mask of the entries of ``vertices`` (global ids) that this rank owns and for which
        ``test(local ids, *their entries of columns)`` holds: proposals its own next step
        would drop, so they need not be sorted, routed and merged (with one worker: every
        proposal it would drop)."""
        xp = self.xp
        mine = xp.flatnonzero((vertices >= self.v0) & (vertices < self.v1))
        mask = xp.zeros(vertices.size, dtype=bool)
        mask[mine] = test(vertices[mine] - self.v0, *(c[mine] for c in columns))
        return mask

    def route(self, vertices, *columns):
        """``columns`` (arrays aligned with ``vertices``, global ids) split by the vertices'
        owners: a list of ``parts`` tuples ``(vertices, *columns)``."""
        xp = self.xp
        order = stable_argsort(xp, vertices)
        vertices = vertices[order]
        columns = [c[order] for c in columns]
        bounds = _backend.to_host(xp.searchsorted(vertices, xp.asarray(self.cuts)))
        return [(vertices[a:b], *(c[a:b] for c in columns))
                for a, b in zip(bounds[:-1], bounds[1:])]

    def vertex_frame(self, columns: dict):
        """A result frame of the owned vertices: ``vertex`` (user ids) then ``columns``."""
        lib = _backend.frame_library(self.backend)
        if self.ids is not None:
            return self.ids.vertex_frame(columns)
        vertex = self.xp.arange(self.v0, self.v1, dtype=self.vertex_dtype)
        return lib.DataFrame({"vertex": vertex, **{k: _series(v, lib) for k, v in
                                                   columns.items()}})

    def user_ids(self, vertices):
        """User ids (a Series) of owned vertices given as global internal ids."""
        local = (vertices - self.v0).astype(self.vertex_dtype)
        return self.ids.to_user(local)


def _series(values, lib):
    return values if hasattr(values, "isna") else lib.Series(values)


def build_partition(rank, cuts, frame, spec: dict, user_ids=None) -> Partition:
    """:func:`_build_partition` with device arrays allocated from RMM, as every build."""
    device = spec["backend"] == _backend.DEVICE or _backend.is_cudf_object(frame)
    with _backend.allocations(_backend.DEVICE if device else _backend.HOST):
        return _build_partition(rank, cuts, frame, spec, user_ids)


def _build_partition(rank, cuts, frame, spec: dict, user_ids=None) -> Partition:
    """Build rank ``rank``'s :class:`Partition` from the shuffled edges it owns (``SRC`` in its
    range; ``frame`` None when none came) on the worker that will hold it.

    ``spec``: ``directed``, ``format``, ``layout_params``, ``placement``, ``backend``
    (where the graph is built, as ``from_edge_chunks(backend=...)``), ``weighted``,
    ``weight_dtype`` (the single graph's: :func:`~.._edgelist.weight_dtype` of the column),
    ``num_vertices``, ``vertex_dtype``, ``renumbered``.  Parallel edges keep the smallest
    weight and an undirected edge given both ways gets the mean weight, through the same
    helpers as the single graph's build, so both hold the same lists and weights.
    """
    n = spec["num_vertices"]
    v0, v1 = int(cuts[rank]), int(cuts[rank + 1])
    dtype = index_dtype(n)
    weighted = spec["weighted"]
    columns = [SRC, DST] + ([WEIGHT] if weighted else [])
    lib = _backend.frame_library(_backend.DEVICE if _backend.is_cudf_object(frame)
                                 else _backend.HOST) if frame is not None else None
    if frame is None or not len(frame):
        import pandas as pd

        lib = lib or pd
        frame = lib.DataFrame({c: np.zeros(0, dtype=spec["weight_dtype"] if c == WEIGHT
                                           else dtype) for c in columns})
    xp = array_module_of(frame)
    src, dst = values(frame[SRC], xp).astype(dtype), values(frame[DST], xp).astype(dtype)
    props = {}
    if weighted:
        props[WEIGHT] = values(frame[WEIGHT], xp).astype(spec["weight_dtype"])
    self_loops = 0  # an undirected graph counts its edges with them
    if not spec["directed"]:
        backward = values(frame[BACKWARD], xp).astype(bool) if BACKWARD in frame.columns \
            else xp.zeros(src.size, dtype=bool)
        halves = [sort_and_dedup(src[side], dst[side], {k: p[side] for k, p in props.items()},
                                 n, xp) for side in (~backward, backward)]
        src, dst, props = merge_directions(*halves, n, xp)
        self_loops = int((src == dst).sum())
    edges = lib.DataFrame({SRC: src, DST: dst, **props})
    # The graph's vertices: the range (isolated ones included) and the remote neighbours.
    ghosts = xp.unique(dst[(dst < v0) | (dst >= v1)])
    vertices = xp.concatenate([xp.arange(v0, v1, dtype=dtype), ghosts.astype(dtype)])
    # Sorted order: the partition's local ids are its global ids' order (ranges, ghosts).
    graph = CompressedGraph(directed=True, format=spec["format"], placement=spec["placement"],
                            vertex_order="sorted", **spec["layout_params"])
    graph.from_edge_chunks([edges], source=SRC, destination=DST,
                           weight=WEIGHT if weighted else None, renumber=True,
                           vertices=lib.Series(vertices), backend=spec["backend"])
    ids = None
    if user_ids is not None:
        if spec["backend"] == _backend.DEVICE and _backend.is_pandas_object(user_ids):
            user_ids = _backend.frame_library(_backend.DEVICE).from_pandas(user_ids)
        elif spec["backend"] == _backend.HOST and _backend.is_cudf_object(user_ids):
            user_ids = user_ids.to_pandas()
        ids = VertexIds(spec["backend"], v1 - v0, spec["vertex_dtype"],
                        user_ids.reset_index(drop=True))
    return Partition(rank, cuts, graph, ids, spec["vertex_dtype"], self_loops)
