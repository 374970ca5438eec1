"""``cugraph_compressed.dask.CompressedGraph``: a compressed graph partitioned across the
workers of a Dask cluster, as ``cugraph.Graph`` is by ``from_dask_cudf_edgelist``.

The build (every step a Dask computation; no step gathers the edges or the ids on one process):

1. **Ids.**  With ``renumber=True`` the sorted distinct ids and their ranks
   (:mod:`.renumber`); the edges are joined with them.  With ``renumber=False`` the ids are
   used as they are (``V`` = the largest + 1).
2. **Ranges.**  A coarse histogram of edges per list owner (an undirected edge counts for both
   ends), then exact counts of the few vertex buckets the cuts fall in, cut ``0 .. V-1`` into
   one contiguous range per worker with about the same number of edges
   (:func:`.partition.cut_ranges`).
3. **Shuffle.**  Every edge is keyed by the rank owning its source (undirected: both ways) and
   the frame is shuffled by that key with ``set_index``, one output partition per rank, each
   computed on the worker of its rank.
4. **Build.**  Each worker builds its range's lists with the package's streaming build
   (:func:`.partition.build_partition`) and keeps them: the graph holds a future per rank,
   pinned to its worker.
"""
from __future__ import annotations

import math
import weakref

import numpy as np

from .. import _backend
from .._args import check_bool
from .._backend import DEVICE, HOST
from .._edgelist import (
    INT32_MAX,
    check_id_series,
    check_property_series,
    edge_columns,
    weight_dtype,
)
from ..graph import CompressedGraph as _SingleGraph
from . import nccl as _nccl
from . import renumber as _renumber
from .exchange import Workers
from .partition import (
    BUCKETS_PER_WORKER,
    DST,
    PART,
    SRC,
    WEIGHT,
    build_partition,
    cut_buckets,
    cut_ranges,
    index_dtype,
    owner_histogram,
    with_owners,
)


class CompressedGraph:
    """A graph in one of the package's layouts, its vertex ranges held by Dask workers.

    Parameters
    ----------
    directed : bool
        As ``cugraph.Graph(directed=...)``: undirected graphs are symmetrized.
    format : str
        The layout of every worker's lists: a key of
        :data:`cugraph_compressed.formats.FORMATS`, or ``"auto"`` (each worker chooses for its
        own lists).
    placement : {"device", "host"}
        Where each worker's device graph keeps its per-edge buffers, as
        ``cugraph_compressed.CompressedGraph(placement=...)``: GPU memory, or pinned, mapped
        host memory read zero-copy.  Host graphs (from pandas partitions) accept either.
    **layout_params
        The layout's own parameters, as for :class:`cugraph_compressed.CompressedGraph`.

    Notes
    -----
    Each worker holds the out-lists of one contiguous range of internal vertex ids, renumbered
    over the ids it meets so that it holds nothing of size ``V``: a device graph (cuDF
    partitions, or ``backend="device"``; :attr:`backend`) on its GPU, or a host graph.  GPU
    workers exchange the algorithms' messages through NCCL where every worker can
    (:attr:`exchange`), else through Dask.  The algorithms of
    :mod:`cugraph_compressed.dask` run over the ranges in synchronous rounds and return Dask
    DataFrames.  Edge ids and edge types are not kept (no multi-worker algorithm reads them).
    """

    def __init__(self, directed: bool = False, format: str = "csr", placement: str = DEVICE,
                 **layout_params):
        self._directed = check_bool("directed", directed)
        if "vertex_order" in layout_params:  # the ranges need the sorted order of the ids
            raise NotImplementedError("vertex_order is not supported by the multi-worker "
                                      "graph: its vertices are numbered in sorted id order")
        # The single graph checks the layout, its parameters and the placement, as each
        # worker's build will.
        _SingleGraph(directed=True, format=format, placement=placement, **layout_params)
        self._format, self._layout_params = format, dict(layout_params)
        self.placement = placement
        self.backend = None  # where the workers' graphs live, once built
        self.store_transposed = False
        self._workers = None
        self._facts = {}

    # -- construction ---------------------------------------------------------------------------
    def from_dask_cudf_edgelist(self, input_ddf, source="source", destination="destination",
                                edge_attr=None, weight=None, edge_id=None, edge_type=None,
                                renumber=True, store_transposed=False, workers=None):
        """Build from a dask_cudf edge frame (``cugraph.Graph.from_dask_cudf_edgelist``).

        Parameters
        ----------
        input_ddf : dask_cudf.DataFrame
            One row per edge, in any number of partitions.
        source, destination : str
            Names of the vertex id columns.
        edge_attr : str, optional
            The weight column (exclusive with ``weight``).
        weight : str, optional
            The weight column.
        edge_id, edge_type : None
            Not supported by the multi-worker graph (NotImplementedError).
        renumber : bool
            Map arbitrary ids to ``0 .. V-1`` (ranks of the sorted ids); False uses int32/int64
            ids as they are.
        store_transposed : bool
            Kept for cuGraph's PageRank warning; the workers hold out-lists either way (PageRank
            pushes over them).
        workers : list of str, optional
            Addresses of the workers to hold the ranges, in rank order (default: every worker
            of the default client).

        Returns
        -------
        CompressedGraph
            ``self``.

        Raises
        ------
        TypeError
            ``input_ddf`` is not a Dask DataFrame of cuDF partitions.
        ValueError
            Missing columns, unsupported id dtypes, nulls, negative ids with
            ``renumber=False``, unknown workers.
        NotImplementedError
            ``edge_id``, ``edge_type`` or a three-column ``edge_attr``.
        RuntimeError
            The graph already holds an edge list, or a worker has no usable GPU.
        """
        if not (_is_dask_frame(input_ddf) and _backend.is_cudf_object(input_ddf._meta)):
            raise TypeError(f"input_ddf should be a dask_cudf.DataFrame, got "
                            f"{_describe(input_ddf)} (use from_dask_dataframe for pandas "
                            "partitions)")
        return self._load(input_ddf, source, destination, edge_attr, weight, edge_id,
                          edge_type, renumber, store_transposed, workers, DEVICE)

    def from_dask_dataframe(self, ddf, source="source", destination="destination",
                            edge_attr=None, weight=None, edge_id=None, edge_type=None,
                            renumber=True, store_transposed=False, workers=None, backend=None):
        """Build from a Dask DataFrame of pandas partitions.

        Takes the parameters of :meth:`from_dask_cudf_edgelist`, and:

        Parameters
        ----------
        backend : {None, "host", "device"}
            None or ``"host"``: each worker builds a host graph (NumPy, the host backend; no
            GPU needed); ``"device"``: a device graph on its GPU, from its host partitions
            (as ``CompressedGraph.from_edge_chunks(backend="device")``).

        Raises
        ------
        TypeError
            ``ddf`` is not a Dask DataFrame of pandas partitions.
        ValueError
            ``backend`` is not one of the choices.
        """
        if not (_is_dask_frame(ddf) and _backend.is_pandas_object(ddf._meta)):
            raise TypeError(f"ddf should be a dask.dataframe.DataFrame of pandas partitions, "
                            f"got {_describe(ddf)} (use from_dask_cudf_edgelist for cuDF)")
        if backend not in (None, HOST, DEVICE):
            raise ValueError(f"backend={backend!r} is not one of None, 'host', 'device'")
        return self._load(ddf, source, destination, edge_attr, weight, edge_id, edge_type,
                          renumber, store_transposed, workers, backend or HOST)

    def _load(self, ddf, source, destination, edge_attr, weight, edge_id, edge_type, renumber,
              store_transposed, workers, backend):
        from distributed import default_client

        if self._workers is not None:
            raise RuntimeError("Graph already has values: build a new CompressedGraph instead")
        renumber = check_bool("renumber", renumber)
        self.store_transposed = check_bool("store_transposed", store_transposed)
        source, destination, props = edge_columns(ddf._meta, source, destination, edge_attr,
                                                  weight, edge_id, edge_type)
        if set(props) - {"weight"}:
            raise NotImplementedError(
                f"edge ids and edge types ({sorted(set(props) - {'weight'})}) are not kept by "
                "the multi-worker graph; give only a weight column")
        client = default_client()
        addresses = _worker_addresses(client, workers)
        if backend == DEVICE:
            _check_gpus(client, addresses)
        frame, vertex_dtype = _edge_frame(ddf, source, destination, props, renumber)
        k = len(addresses)
        frame, n, id_parts, lengths = _numbered(client, frame, renumber, k)
        frame = client.persist(frame)  # read by the histograms and the shuffle
        cuts = self._cut(client, frame, n, k)
        owned = _shuffled(client, frame, cuts, self._directed, addresses)
        weighted = "weight" in props
        spec = {"directed": self._directed, "format": self._format,
                "layout_params": self._layout_params, "placement": self.placement,
                "backend": backend,
                "weighted": weighted, "num_vertices": n, "renumbered": renumber,
                "weight_dtype": (weight_dtype(ddf._meta[props["weight"]].dtype) if weighted
                                 else None),
                "vertex_dtype": np.dtype(np.int32) if n == 0 else vertex_dtype(n)}
        partitions = [client.submit(build_partition, r, cuts, owned[r], spec,
                                    _user_slice(client, id_parts, lengths, cuts, r, address),
                                    workers=[address], allow_other_workers=False, pure=False)
                      for r, address in enumerate(addresses)]
        held = Workers(client, addresses, partitions)
        facts = held.gather(held.each(_facts))  # waits for every build
        if backend == DEVICE and k > 1 and all(held.gather(held.each(_nccl_available))):
            held.nccl = _nccl.Session(held)  # GPU to GPU, not through Dask
            weakref.finalize(self, _nccl.release, client, held.addresses, held.nccl.token)
        self._workers, self.backend = held, backend
        self._facts = {"num_vertices": n, "cuts": cuts, "renumbered": renumber,
                       "weighted": weighted, "vertex_dtype": spec["vertex_dtype"],
                       "weight_dtype": spec["weight_dtype"], "per_rank": facts}
        return self

    def _cut(self, client, frame, n, k):
        """The vertex range starts of :func:`cut_ranges`, from two passes of histograms."""
        import dask

        width = max(1, math.ceil(n / (BUCKETS_PER_WORKER * k)))
        parts = frame.to_delayed()
        hist = dask.delayed(_summed)([dask.delayed(owner_histogram)(p, self._directed, n, width)
                                      for p in parts])
        (histogram,) = dask.compute(hist)
        if width == 1:  # the histogram counts every vertex already
            return cut_ranges(histogram, n, 1, k, {b: histogram[b:b + 1]
                                                   for b in cut_buckets(histogram, k)})
        fine = {}
        for bucket in cut_buckets(histogram, k):
            lo, hi = bucket * width, min(n, (bucket + 1) * width)
            fine[bucket] = dask.delayed(_summed)(
                [dask.delayed(owner_histogram)(p, self._directed, n, 1, lo, hi) for p in parts])
        (fine,) = dask.compute(fine)
        return cut_ranges(histogram, n, width, k, fine)

    # -- description ----------------------------------------------------------------------------
    def _require_built(self) -> Workers:
        if self._workers is None:
            raise ValueError("the graph is empty: call from_dask_dataframe or "
                             "from_dask_cudf_edgelist first")
        return self._workers

    def _fact(self, name: str):
        """A fact of the build; ValueError before it."""
        self._require_built()
        return self._facts[name]

    @property
    def workers(self) -> Workers:
        """The workers holding the ranges (:class:`~.exchange.Workers`)."""
        return self._require_built()

    @property
    def exchange(self) -> str:
        """How the algorithms' messages travel between workers: ``"nccl"`` (GPU workers whose
        processes all have CuPy with NCCL) or ``"dask"`` (Dask's own communication)."""
        return self._require_built().exchange

    @property
    def vertex_ranges(self) -> list:
        """``[(v0, v1)]`` per rank: the internal vertex ids whose lists each worker holds."""
        cuts = self._fact("cuts")
        return [(cuts[r], cuts[r + 1]) for r in range(len(cuts) - 1)]

    @property
    def format(self) -> str:
        """The layout asked for (``"auto"``: see :meth:`partition_facts` for each worker's)."""
        return self._format

    def partition_facts(self) -> list:
        """Per rank: ``worker``, ``vertices`` (owned), ``stored_edges``, ``self_loops``
        (undirected graphs; 0 for directed ones), ``format`` and ``nbytes`` (the bytes that
        worker holds for the graph)."""
        return [dict(fact) for fact in self._fact("per_rank")]

    @property
    def nbytes(self) -> int:
        """Bytes held for the graph, over every worker."""
        return sum(fact["nbytes"] for fact in self.partition_facts())

    def is_directed(self) -> bool:
        """True for a directed graph."""
        return self._directed

    def is_weighted(self) -> bool:
        """True when the graph was built with a weight column."""
        return self._fact("weighted")

    @property
    def renumbered(self) -> bool:
        """True when user ids were mapped to internal ids."""
        return self._fact("renumbered")

    @property
    def vertex_dtype(self) -> np.dtype:
        """The dtype of vertex ids in results (int32 or int64)."""
        return self._fact("vertex_dtype")

    @property
    def weight_dtype(self):
        """The dtype weights are stored in; None for an unweighted graph."""
        return self._fact("weight_dtype")

    def number_of_vertices(self) -> int:
        """Number of vertices, isolated ones included."""
        return self._fact("num_vertices")

    number_of_nodes = number_of_vertices

    def number_of_edges(self, directed_edges: bool = False) -> int:
        """Number of edges: for undirected graphs each edge once (self loops once), unless
        ``directed_edges`` asks for the stored, symmetrized count, as in cuGraph."""
        facts = self.partition_facts()
        stored = sum(f["stored_edges"] for f in facts)
        if self._directed or directed_edges:
            return stored
        return (stored + sum(f["self_loops"] for f in facts)) // 2

    def __repr__(self) -> str:
        head = (f"{type(self).__module__.rsplit('.', 1)[0]}.CompressedGraph(format="
                f"{self._format!r}, directed={self._directed}")
        if self._workers is None:
            return f"{head}, empty)"
        return (f"{head}, vertices={self.number_of_vertices()}, "
                f"workers={self._workers.size}, nbytes={self.nbytes}, backend={self.backend!r})")


def _check_gpus(client, addresses) -> None:
    """RuntimeError, before any work, when a worker has no usable GPU for a device build."""
    reasons = client.run(_backend.gpu_unavailable_reason, workers=addresses)
    unusable = {w: r for w, r in reasons.items() if r is not None}
    if unusable:
        worker, reason = next(iter(sorted(unusable.items())))
        raise RuntimeError(
            f"a device graph (dask_cudf input, or backend='device') needs a usable GPU on every "
            f"worker; {len(unusable)} of {len(addresses)} have none ({worker}: {reason}); build "
            "host graphs from pandas partitions on host workers")


def _edge_frame(ddf, source, destination, props, renumber):
    """The edge columns as ``SRC``, ``DST`` (and ``WEIGHT``), every partition checked by the
    single graph's rules when computed; and the rule giving the result vertex dtype from the
    vertex count."""
    meta = ddf._meta
    for column, what in ((source, "source"), (destination, "destination")):
        check_id_series(meta[column], what, renumber)
    weighted = "weight" in props
    if weighted:
        check_property_series(meta[props["weight"]], "weight")
    id_dtypes = [_backend.numpy_dtype(meta[source]), _backend.numpy_dtype(meta[destination])]
    native = all(d in (np.int32, np.int64) for d in id_dtypes)
    if id_dtypes[0] != id_dtypes[1] and not native:
        raise ValueError("source and destination have different dtypes "
                         f"{[str(d) for d in id_dtypes]}; give them one dtype")
    columns = {source: SRC, destination: DST}
    if weighted:
        columns[props["weight"]] = WEIGHT
    frame = ddf[list(columns)].rename(columns=columns)
    frame = frame.map_partitions(_checked, renumber, weighted, meta=frame._meta)
    if native and id_dtypes[0] != id_dtypes[1]:  # mixed widths widen, as in cuGraph
        frame = frame.astype({SRC: np.int64, DST: np.int64})
    return frame, lambda n: _vertex_dtype(id_dtypes, meta, source, destination, props, n)


def _numbered(client, frame, renumber: bool, parts: int):
    """``(frame in internal ids, V, sorted id partitions, their lengths)``; the id partitions
    are None without renumbering."""
    if renumber:
        id_parts, divisions, lengths = _renumber.sorted_ids(client, frame, parts)
        n = sum(lengths)
        mapping = _renumber.id_map(client, id_parts, divisions, lengths, _id_meta(frame),
                                   index_dtype(n))
        return _renumber.internal_edges(frame, mapping), n, id_parts, lengths
    low, high = client.compute([frame[[SRC, DST]].min().min(), frame[[SRC, DST]].max().max()],
                               sync=True)
    if not _is_missing(low) and int(low) < 0:
        raise ValueError(f"vertex id {int(low)} is negative; with renumber=False ids must be "
                         ">= 0 (pass renumber=True to map arbitrary ids)")
    n = 0 if _is_missing(high) else int(high) + 1
    return frame.astype({SRC: index_dtype(n), DST: index_dtype(n)}), n, None, None


def _shuffled(client, frame, cuts, directed: bool, addresses):
    """Per rank, a future of the edges whose lists it holds (undirected: both ways), computed
    by a Dask shuffle on that rank's worker."""
    keyed = frame.map_partitions(with_owners, cuts, directed,
                                 meta=with_owners(frame._meta, cuts, directed))
    parts = keyed.set_index(PART, divisions=list(range(len(addresses) + 1))).to_delayed()
    return [client.compute(part, workers=[address]) for part, address in zip(parts, addresses)]


def _user_slice(client, id_parts, lengths, cuts, rank: int, address: str):
    """A future, on ``address``, of the user ids of rank ``rank``'s range (None without
    renumbering)."""
    if id_parts is None:
        return None
    v0, v1 = cuts[rank], cuts[rank + 1]
    wanted, offsets = _renumber.overlapping(lengths, v0, v1)
    return client.submit(_id_slice, [id_parts[i] for i in wanted] or id_parts[:1],
                         [int(offsets[i]) for i in wanted] or [0], v0, v1,
                         workers=[address], pure=False)


def _facts(partition) -> dict:
    return {"worker": _worker_address(), "vertices": partition.size,
            "stored_edges": partition.graph.number_of_edges(),
            "self_loops": partition.self_loops, "format": partition.graph.format,
            "nbytes": partition.nbytes}


def _nccl_available(partition) -> bool:
    return _nccl.available()


def _worker_address() -> str:
    from distributed import get_worker

    return get_worker().address


def _summed(arrays):
    return sum(arrays[1:], arrays[0].copy())


def _id_slice(parts, offsets, v0, v1):
    return _renumber.id_slice(parts, offsets, v0, v1)


def _checked(frame, renumber: bool, weighted: bool):
    """One partition after the single graph's column checks (nulls, dtypes)."""
    check_id_series(frame[SRC], "source", renumber)
    check_id_series(frame[DST], "destination", renumber)
    if weighted:
        check_property_series(frame[WEIGHT], "weight")
    return frame


def _id_meta(frame):
    """An empty frame indexed by id, as the sorted distinct ids are."""
    return frame._meta[[SRC]].rename(columns={SRC: "id"}).set_index("id")


def _vertex_dtype(id_dtypes, meta, source, destination, props, n) -> np.dtype:
    """The dtype of vertex ids in results, by the single graph's rule (``_build._new_ids``):
    int32/int64 ids keep theirs (mixed widths widen), other ids give int64 when any column read
    is int64; int64 whenever ``V`` exceeds int32.  (A graph without edges reads no dtype and
    has int32 ids, as the single graph.)"""
    if all(d in (np.int32, np.int64) for d in id_dtypes):
        wide = any(d == np.int64 for d in id_dtypes)
    else:
        read = [source, destination, *props.values()]
        wide = any(_backend.numpy_dtype(meta[c]) == np.int64 for c in read)
    return np.dtype(np.int64 if wide or n > INT32_MAX else np.int32)


def _is_dask_frame(obj) -> bool:
    try:
        import dask.dataframe as dd
    except ImportError:
        return False
    return isinstance(obj, dd.DataFrame)


def _describe(obj) -> str:
    return f"{type(obj).__module__}.{type(obj).__name__}"


def _is_missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _worker_addresses(client, workers) -> list:
    """The workers to hold the ranges, in rank order; ValueError naming an unknown one."""
    known = sorted(client.scheduler_info()["workers"])
    if workers is None:
        if not known:
            raise ValueError("the Dask client has no workers")
        return known
    workers = list(workers)
    unknown = [w for w in workers if w not in known]
    if unknown or not workers or len(set(workers)) != len(workers):
        raise ValueError(f"workers={workers!r} must be distinct addresses of the client's "
                         f"workers {known!r}")
    return workers


def _lookup(partition, values):
    """Global internal ids of user ids found in this rank's range, -1 elsewhere (NumPy)."""
    local = _backend.to_host(partition.ids.lookup(values))
    return np.where(local >= 0, local + partition.v0, -1)


def to_internal(G: CompressedGraph, values, what: str) -> np.ndarray:
    """Global internal ids (int64 NumPy array) of user ids, asking the rank that holds each
    one's slice of the renumber map; ValueError naming the first that is not a vertex, as the
    single graph's front doors raise it."""
    from .._ids import VertexIds, as_series

    workers = G.workers
    n = G.number_of_vertices()
    if not G.renumbered:
        return _backend.to_host(VertexIds(HOST, n, G.vertex_dtype).to_internal(values, what)
                                ).astype(np.int64)
    series = as_series([values] if _backend.is_scalar(values) else values, HOST)
    if len(series) == 0:
        raise ValueError(f"{what} is empty: give at least one vertex")
    found = np.max(workers.gather(workers.each(_lookup, series)), axis=0)
    if (found < 0).any():
        first = series.iloc[int(np.argmax(found < 0))]
        first = first.item() if hasattr(first, "item") else first
        bound = "(the graph has no vertices)" if n == 0 else f"(it has {n} vertices)"
        raise ValueError(f"one or more vertices are invalid: {what} vertex {first!r} is not in "
                         f"the graph {bound}")
    return found.astype(np.int64)


def seed(G, vertices, *columns):
    """Per rank, the inbox of a first round: ``(vertices, *columns)`` owned by that rank."""
    cuts = np.asarray([v0 for v0, _ in G.vertex_ranges] + [G.number_of_vertices()],
                      dtype=np.int64)
    bounds = np.searchsorted(vertices, cuts)
    return [[(vertices[a:b], *(c[a:b] for c in columns))] for a, b in
            zip(bounds[:-1], bounds[1:])]


def check_graph(G) -> CompressedGraph:
    if not isinstance(G, CompressedGraph):
        raise TypeError(f"input_graph must be a cugraph_compressed.dask.CompressedGraph, got "
                        f"{type(G).__module__}.{type(G).__name__}")
    G.workers  # noqa: B018  (ValueError for a graph with no edge list)
    return G


def result_frame(workers, parts):
    """The Dask DataFrame of the per-rank result frames (each on its worker)."""
    meta = workers.gather(workers.submit(0, _empty, parts[0]))
    return workers.frame(parts, meta)


def _empty(frame):
    return frame.iloc[:0]
