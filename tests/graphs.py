"""Test graphs and independent references (SciPy, and cuGraph on the GPU), shared by the test
modules."""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse import csgraph


def random_edges(num_vertices, num_edges, seed, dtype=np.int64, weighted=False):
    """A random edge frame with self loops and parallel edges left in on purpose."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "source": rng.integers(0, num_vertices, num_edges).astype(dtype),
        "destination": rng.integers(0, num_vertices, num_edges).astype(dtype),
    })
    if weighted:
        df["weight"] = rng.random(num_edges).astype(np.float32) + np.float32(0.01)
    return df


def call_peak(call):
    """The RMM peak bytes of ``call()`` (on the GPU) above what was held before it, counted on
    a second call, after a first one that loads the kernels."""
    import rmm

    previous = rmm.mr.get_current_device_resource()
    rmm.statistics.enable_statistics()
    try:
        call()
        rmm.statistics.push_statistics()
        result = call()
        peak = rmm.statistics.pop_statistics().peak_bytes
        del result
    finally:
        rmm.mr.set_current_device_resource(previous)
    return peak


#: Vertices of :func:`reorientation_edges` (ids above its largest are isolated).
REORIENTATION_VERTICES = 40_500


def reorientation_edges():
    """Edges for the re-orientation tests: random ones with self loops, parallel edges (weight
    ties among them) and isolated ids, plus two hubs whose in-lists outgrow two pieces of the
    re-orientation at small budgets (MIN_RUN = 4096 rows): one from 12,000 scattered sources,
    one from a run of 8,292 consecutive ones (CGR intervals cut across pieces).  Columns ``w``
    (float32), ``eid`` (int64), ``et`` (int32) beside the int64 ids."""
    rng = np.random.default_rng(5)
    scattered = pd.DataFrame({"source": rng.permutation(np.arange(0, 40_000, 3))[:12_000],
                              "destination": 7})
    run = pd.DataFrame({"source": np.arange(20_000, 28_292), "destination": 11})
    loops = pd.DataFrame({"source": [3, 3, 9], "destination": [3, 3, 9]})
    df = random_edges(40_000, 15_000, 5)
    df = pd.concat([df, scattered, run, loops, df.iloc[:500]], ignore_index=True)
    df = df.astype({"source": np.int64, "destination": np.int64})
    df["w"] = rng.integers(1, 50, len(df)).astype(np.float32)
    df["eid"] = np.arange(len(df), dtype=np.int64)
    df["et"] = rng.integers(0, 4, len(df)).astype(np.int32)
    return df


#: Layout parameters of the re-orientation tests: each layout's defaults and one other set.
REORIENTATION_PARAMS = {
    "csr": [{}, {"force_64bit": True}], "ef": [{}, {"k": 2, "block_size": 4}],
    "cgr": [{}, {"code": "gamma", "min_interval_length": 2, "segment_size": 2}],
    "fl": [{}, {"index_width": 16, "offset_width": 32}]}
REORIENTATION_CASES = [(fmt, p) for fmt, ps in REORIENTATION_PARAMS.items() for p in ps]
#: Edge properties read, and a budget that cuts :func:`reorientation_edges` into several vertex
#: ranges and its stored edges into several pieces (MIN_RUN rows each at these budgets).
REORIENTATION_PROPERTIES = {"none": ({}, 200_000), "weight": ({"weight": "w"}, 700_000),
                            "all": ({"edge_attr": ["w", "eid", "et"]}, 1_000_000)}
#: Tiny graphs of the re-orientation tests: (sources, destinations, vertices or None).
SMALL_GRAPHS = {"no vertices": ([], [], None), "isolated only": ([], [], [0, 1, 2]),
                "self loops": ([0, 4, 2], [0, 4, 2], list(range(6))),
                "one edge": ([5], [2], None)}


def small_graph(case):
    """``(frame, build kwargs)`` of :data:`SMALL_GRAPHS` ``case``: int32 ids, float64 ``w``."""
    src, dst, vertices = SMALL_GRAPHS[case]
    df = pd.DataFrame({"source": np.asarray(src, np.int32),
                       "destination": np.asarray(dst, np.int32),
                       "w": np.arange(len(src), dtype=np.float64) + 0.5})
    kwargs = dict(renumber=False, weight="w",
                  vertices=None if vertices is None else pd.Series(vertices, dtype=np.int32))
    return df, kwargs


def host_array(array):
    """A NumPy copy of a NumPy or CuPy array."""
    return array.get() if hasattr(array, "get") else np.asarray(array)


def assert_same_graph(G, H):
    """Graph ``G`` (either backend) holds out-list graph ``H``'s buffers and properties: same
    names, order, dtypes and bits."""
    assert not G._in_lists and not H._in_lists
    assert G._layout.num_vertices == H._layout.num_vertices
    assert G._layout.num_edges == H._layout.num_edges
    assert list(G._layout.arrays) == list(H._layout.arrays)
    for name, array in H._layout.arrays.items():
        got = host_array(G._layout.arrays[name])
        assert got.dtype == array.dtype and np.array_equal(got, array), name
    assert list(G._properties) == list(H._properties)
    for name, values in H._properties.items():
        got = host_array(G._properties[name])
        assert got.dtype == values.dtype and np.array_equal(got, values), name


def sorted_lists_graph(n, seed, density, dtype, hub_chance=0.4, max_run=12):
    """Sorted, distinct edges over ``n`` vertices: scattered edges, a hub adjacent to every
    vertex with probability ``hub_chance``, and up to three runs of consecutive ids (at most
    ``max_run - 1`` long: cgr intervals); many lists stay empty."""
    rng = np.random.default_rng(seed)
    if n == 0:
        return np.zeros(0, dtype), np.zeros(0, dtype)
    m = int(rng.integers(0, density * n + 1))
    src, dst = [rng.integers(0, n, m)], [rng.integers(0, n, m)]
    if rng.random() < hub_chance:
        src.append(np.full(n, rng.integers(0, n)))
        dst.append(np.arange(n))
    for _ in range(int(rng.integers(0, 4))):
        start = int(rng.integers(0, n))
        run = np.arange(start, min(n, start + int(rng.integers(1, max_run))))
        src.append(np.full(run.size, rng.integers(0, n)))
        dst.append(run)
    key = np.unique(np.concatenate(src).astype(np.int64) * n + np.concatenate(dst))
    return (key // n).astype(dtype), (key % n).astype(dtype)


#: Entries every Elias-Fano encoder (host or device) refuses, and the error naming them.
EF_BAD_LISTS = [
    ([0, 0], [3, 3], 5, "list of vertex 0 holds value 3 twice"),
    ([2, 2], [4, 1], 5, "list of vertex 2 is not sorted: value 1 follows 4"),
    ([3, 1], [0, 0], 5, "not sorted by list: list of vertex 1 comes after list of vertex 3"),
    ([0], [5], 5, "list of vertex 0 holds neighbour 5, not below num_vertices=5"),
    ([0], [-1], 5, "list of vertex 0 holds value -1"),
    ([7], [0], 5, "list of vertex 7 is out of range"),
    ([-1], [0], 5, "list of vertex -1 is out of range"),
]


def adjacency(src, dst, num_vertices, directed):
    """0/1 SciPy CSR adjacency of the distinct edges (both directions when undirected)."""
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    if not directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    a = sp.coo_matrix((np.ones(src.size), (src, dst)), shape=(num_vertices, num_vertices)).tocsr()
    a.data[:] = 1.0
    return a


def weighted_adjacency(df, num_vertices, directed):
    """SciPy CSR of the edge frame's weights after our dedup rule (smallest weight per pair;
    an undirected edge given both ways gets the mean of the two smallest)."""
    edges = df.groupby(["source", "destination"], as_index=False)["weight"].min()
    src, dst, w = (edges[c].to_numpy() for c in ("source", "destination", "weight"))
    w = w.astype(np.float64)
    if not directed:
        table = pd.DataFrame({"u": np.concatenate([src, dst]), "v": np.concatenate([dst, src]),
                              "w": np.concatenate([w, w]),
                              "given": np.r_[np.ones(src.size), np.zeros(src.size)]})
        table = table[(table["given"] == 1) | (table["u"] != table["v"])]
        mean = table.groupby(["u", "v"], as_index=False)["w"].mean()
        src, dst, w = mean["u"].to_numpy(), mean["v"].to_numpy(), mean["w"].to_numpy()
    a = sp.csr_matrix((w, (src, dst)), shape=(num_vertices, num_vertices))
    a.sort_indices()
    return a


def reference_bfs(a, sources, depth_limit=None):
    """Hop distances from the nearest source (float, inf = unreachable), by SciPy."""
    dist = csgraph.shortest_path(a, unweighted=True, directed=True, indices=np.unique(sources))
    dist = np.atleast_2d(dist).min(axis=0)
    if depth_limit is not None:
        dist[dist > depth_limit] = np.inf
    return dist


def check_bfs_result(dist, pred, a, sources, depth_limit, sentinel):
    """Distances equal SciPy's; every predecessor is an in-edge one hop closer to a source."""
    expected = reference_bfs(a, sources, depth_limit)
    reached = np.isfinite(expected)
    assert np.array_equal(dist[reached], expected[reached].astype(np.int64))
    assert np.all(dist[~reached] == sentinel)
    assert np.all(pred[~reached] == -1)
    sources = np.unique(sources)
    assert np.all(pred[sources] == -1) and np.all(dist[sources] == 0)
    others = np.flatnonzero(reached)
    others = others[~np.isin(others, sources)]
    p = pred[others]
    assert np.all(p >= 0)
    assert np.all(np.asarray(a[p, others]).ravel() > 0), "predecessor is not an in-edge"
    assert np.array_equal(dist[p] + 1, dist[others])


def check_against_scipy(df, result, directed, sources, depth_limit=None, vertices=None, ids=None):
    """Map user ids to 0..n-1 independently (sorted distinct ids) and compare with SciPy."""
    if ids is None:
        parts = [df["source"].to_numpy(), df["destination"].to_numpy()]
        if vertices is not None:
            parts.append(np.asarray(vertices))
        ids = np.unique(np.concatenate(parts))
    position = pd.Index(ids)
    a = adjacency(position.get_indexer(df["source"]), position.get_indexer(df["destination"]),
                  len(ids), directed)
    assert len(result) == len(ids)
    order = position.get_indexer(result["vertex"])
    assert np.array_equal(np.sort(order), np.arange(len(ids)))
    dist = np.empty(len(ids), np.int64)
    dist[order] = result["distance"].to_numpy()
    raw_pred = result["predecessor"]
    has_pred = raw_pred.to_numpy() != -1
    pred = np.full(len(ids), -1, np.int64)
    pred[order[has_pred]] = position.get_indexer(raw_pred[has_pred])
    sentinel = np.iinfo(result["distance"].dtype).max
    check_bfs_result(dist, pred, a, position.get_indexer(np.atleast_1d(sources)), depth_limit,
                     sentinel)


def device_rmat_sorted(scale, seed=42):
    """Sorted, deduplicated R-MAT edges on the GPU (CuPy ``src``, ``dst``) and ``2**scale``:
    what a layout encoder receives from ``from_cudf_edgelist``."""
    import cupy as cp

    from cugraph_compressed._edgelist import sort_and_dedup
    from cugraph_compressed.generators import rmat_edgelist

    df = rmat_edgelist(scale, seed=seed, backend="device")
    src, dst = df["source"].values, df["destination"].values
    del df
    src, dst, _ = sort_and_dedup(src, dst, {}, 2**scale, cp)
    return src, dst, 2**scale


def bits_of(words, first_bit, count):
    """Bits ``first_bit .. first_bit + count - 1`` of a host stream, as a stream of their own."""
    from cugraph_compressed.formats.bits import read_fields, stream_words

    k = np.arange(-(-count // 32), dtype=np.int64)
    widths = np.minimum(32, count - 32 * k)
    out = np.zeros(stream_words(count), np.uint32)
    out[:k.size] = read_fields(words, first_bit + 32 * k, widths).astype(np.uint32)
    return out


def scale_22_layout(fmt):
    """A directed R-MAT 22 graph built on the GPU in layout ``fmt``: its layout and the
    deduplicated edge frame it was built from (one list per edge checked)."""
    import cugraph_compressed as cgc
    from cugraph_compressed.generators import rmat_edgelist

    df = rmat_edgelist(22, seed=9, backend="device")
    layout = cgc.CompressedGraph(format=fmt, directed=True).from_cudf_edgelist(
        df, renumber=False)._layout
    dedup = df.drop_duplicates()
    assert layout.num_edges == len(dedup)
    return layout, dedup


def decoded_range(layout, a, b, count):
    """The ``count`` neighbours of vertices ``a .. b - 1`` decoded on the GPU, on the host: a
    single vertex through decode_range, several through decode_lists."""
    import cupy as cp

    if b == a + 1:
        return layout.decode_range(a, 0, count).get()
    return layout.decode_lists(cp.arange(a, b))[1].get()


def sampled_lists(dedup, n):
    """Vertex ranges ``[a, b)`` of a deduplicated cuDF edge frame over ``n`` vertices (its head,
    middle, tail and its largest list) with their edges on the host, sorted:
    ``(a, b, src, dst)`` each, ``src`` and ``dst`` int64."""
    import cupy as cp

    hub = int(cp.argmax(cp.bincount(dedup["source"].values, minlength=n)))
    for a, b in [(0, 2000), (n // 2 - 1000, n // 2 + 1000), (n - 2000, n), (hub, hub + 1)]:
        part = dedup[(dedup["source"] >= a) & (dedup["source"] < b)].to_pandas()
        part = part.sort_values(["source", "destination"])
        yield a, b, part["source"].to_numpy(np.int64), part["destination"].to_numpy(np.int64)



# -- the graphs every GPU algorithm and layout is compared with cuGraph on -----------------------
#: random; R-MAT scale 18 and 22; a hub of degree 120,000; three real graphs from networkx.
GPU_GRAPHS = ("random", "rmat18", "hub", "rmat22", "lesmis", "karate", "florentine")
GPU_CASES = [(name, directed) for name in GPU_GRAPHS for directed in (True, False)]
GPU_CASE_IDS = [f"{name}-{'dir' if directed else 'undir'}" for name, directed in GPU_CASES]
NETWORKX_GRAPHS = {"lesmis": "les_miserables_graph", "karate": "karate_club_graph",
                   "florentine": "florentine_families_graph"}
#: cuGraph's PageRank settings in the comparisons: at tol=1e-8 float32 PageRank can sit on its
#: rounding floor without meeting the L1 rule (cuGraph does on undirected graphs); both
#: libraries then run to max_iter and are compared all the same.
PAGERANK_ARGS = {"tol": 1e-8, "max_iter": 500, "fail_on_nonconvergence": False}


def one_direction_per_pair(df):
    """The frame without self loops, with one row per unordered pair (the first given), sorted
    by (source, destination): the same edges to a directed and an undirected graph, no parallel
    edges, and no pair whose two directions disagree on the weight (which one cuGraph keeps is
    unspecified).  The same code runs on pandas and cuDF frames."""
    df = df[df["source"] != df["destination"]]
    s, d = df["source"], df["destination"]
    df = df.assign(lo=s.where(s < d, d), hi=d.where(s < d, s)).drop_duplicates(["lo", "hi"])
    return df.drop(columns=["lo", "hi"]).sort_values(["source", "destination"], ignore_index=True)


def _networkx_frame(name):
    """A networkx graph's edges with its nodes numbered in their order; weight 1 where absent."""
    import networkx as nx

    g = getattr(nx, NETWORKX_GRAPHS[name])()
    ids = {node: i for i, node in enumerate(g.nodes)}
    edges = list(g.edges(data="weight", default=1.0))
    return pd.DataFrame({"source": np.array([ids[u] for u, _, _ in edges], np.int32),
                         "destination": np.array([ids[v] for _, v, _ in edges], np.int32),
                         "weight": np.array([w for _, _, w in edges], np.float32)})


def _generated_frame(name):
    """A GPU_GRAPHS graph's edges as generated (on the host), before deduplication."""
    from cugraph_compressed.generators import rmat_edgelist

    if name in NETWORKX_GRAPHS:
        return _networkx_frame(name)
    if name == "random":
        return random_edges(20_000, 120_000, 80, dtype=np.int32)
    if name == "rmat18":
        return rmat_edgelist(18, seed=81)
    if name == "hub":
        # Vertex 0's 120,000 edges come first, so deduplication keeps them as its out-edges.
        hub = pd.DataFrame({"source": np.zeros(120_000, np.int32),
                            "destination": np.arange(1, 120_001, dtype=np.int32)})
        return pd.concat([hub, random_edges(150_000, 300_000, 82, dtype=np.int32)],
                         ignore_index=True)
    raise ValueError(f"unknown test graph {name!r}")


def device_frame(name, thin=1):
    """cuDF frame of a GPU_GRAPHS graph (built once per process): one_direction_per_pair of
    its edges, int32 ids, float32 weights (a real graph's own, else uniform in [0.05, 1.05));
    with ``thin``, every thin-th row of that.  Deduplication runs on the GPU for every graph,
    and R-MAT scale 22 (67M edges) is generated there too: on the host that takes each test
    process seconds."""
    return _device_frame(name, thin)


@functools.lru_cache(maxsize=None)
def _device_frame(name, thin):
    import cudf
    import cupy as cp

    if thin != 1:
        df = _device_frame(name, 1)
        return df.take(cp.arange(0, len(df), thin)).reset_index(drop=True)
    if name == "rmat22":
        from cugraph_compressed.generators import rmat_edgelist

        df = rmat_edgelist(22, seed=84, backend="device")
    else:
        df = cudf.from_pandas(_generated_frame(name))
    df = one_direction_per_pair(df)
    if "weight" not in df.columns:
        uniform = cp.random.RandomState(len(df)).random_sample(len(df), dtype=cp.float32)
        df["weight"] = uniform + cp.float32(0.05)
    cp.get_default_memory_pool().free_all_blocks()
    return df


@functools.lru_cache(maxsize=None)
def host_frame(name):
    """device_frame(name) as a pandas frame."""
    return _device_frame(name, 1).to_pandas()


def num_vertices(name, thin=1):
    """max id + 1: the vertex count of a renumber=False graph of the frame."""
    return _num_vertices(name, thin)


@functools.lru_cache(maxsize=None)
def _num_vertices(name, thin):
    df = _device_frame(name, thin)
    return int(max(df["source"].max(), df["destination"].max())) + 1


@functools.lru_cache(maxsize=None)
def start_vertex(name):
    """The vertex with the most out-edges in the frame: BFS and SSSP from it reach far."""
    import cupy as cp

    return int(cp.argmax(cp.bincount(device_frame(name)["source"].values)))


class EdgeIndex:
    """Edges sorted by (source, destination) as keys ``source * n + destination``, to look up
    many (u, v) pairs at once with a binary search (``xp``: NumPy, or CuPy on the device)."""

    def __init__(self, src, dst, weight, n, xp):
        keys = xp.asarray(src).astype(xp.int64)
        keys *= n
        keys += xp.asarray(dst)
        if keys.size > 1 and not bool((keys[1:] > keys[:-1]).all()):
            raise ValueError("EdgeIndex needs edges sorted by (source, destination), each once")
        self.keys, self.weight, self.n, self.xp = keys, xp.asarray(weight), n, xp

    def _find(self, u, v):
        xp = self.xp
        query = u.astype(xp.int64) * self.n + v
        at = xp.minimum(xp.searchsorted(self.keys, query), self.keys.size - 1)
        return self.keys[at] == query, at

    def weights(self, u, v, directed):
        """w(u, v) of each pair as a host float64 array, NaN where the graph has no edge u -> v
        (an undirected graph's edge {u, v} may be stored either way round)."""
        xp = self.xp
        u, v = xp.asarray(u), xp.asarray(v)
        found, at = self._find(u, v)
        w = xp.where(found, self.weight[at].astype(xp.float64), xp.nan)
        if not directed:
            found, at = self._find(v, u)
            w = xp.where(found, self.weight[at].astype(xp.float64), w)
        return w.get() if hasattr(w, "get") else w


@functools.lru_cache(maxsize=None)
def edge_index(name):
    """The EdgeIndex of a GPU_GRAPHS frame, on the device (built once per process)."""
    import cupy as cp

    df = device_frame(name)
    index = EdgeIndex(df["source"].values, df["destination"].values, df["weight"].values,
                      num_vertices(name), cp)
    cp.get_default_memory_pool().free_all_blocks()
    return index


def compressed_graph(name, directed, layout, thin=1, **kwargs):
    """Our weighted graph of a GPU_GRAPHS frame, built from the device frame as cuGraph's is."""
    import cugraph_compressed as cgc

    return cgc.CompressedGraph(directed=directed, format=layout).from_cudf_edgelist(
        device_frame(name, thin).copy(deep=False), renumber=False, weight="weight", **kwargs)


def cugraph_graph(name, directed, thin=1, **kwargs):
    """cuGraph's weighted graph of the same frame."""
    import cugraph

    G = cugraph.Graph(directed=directed)
    G.from_cudf_edgelist(device_frame(name, thin).copy(deep=False), source="source",
                         destination="destination", weight="weight", renumber=False, **kwargs)
    return G


def by_vertex(frame, n):
    """A result frame's columns as host arrays indexed by vertex id; its vertices must be
    exactly 0 .. n - 1 (a renumber=False graph of ``n`` vertices)."""
    df = frame.sort_values("vertex")
    df = df.to_pandas() if hasattr(df, "to_pandas") else df
    assert np.array_equal(df["vertex"].to_numpy(), np.arange(n)), "not every vertex once"
    return {column: df[column].to_numpy() for column in df.columns}


def warned_store_transposed(caught):
    """Whether the recorded warnings hold PageRank's UserWarning about store_transposed."""
    return any(issubclass(w.category, UserWarning) and "store_transposed" in str(w.message)
               for w in caught)


def cugraph_result(name, directed, algorithm, store_transposed=False, thin=1):
    """cuGraph's own result on a GPU_GRAPHS graph, computed once per process: its column
    names, its columns by vertex id (see by_vertex) and, for PageRank, whether it warned
    about store_transposed.  BFS and SSSP start at start_vertex(name)."""
    return _cugraph_result(name, directed, algorithm, store_transposed, thin)


@functools.lru_cache(maxsize=None)
def _cugraph_result(name, directed, algorithm, store_transposed, thin):
    import cugraph

    G = cugraph_graph(name, directed, thin, store_transposed=store_transposed)
    warned = None
    if algorithm == "bfs":
        frame = cugraph.bfs(G, start_vertex(name))
    elif algorithm == "sssp":
        frame = cugraph.sssp(G, start_vertex(name))
    elif algorithm == "pagerank":
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame, _ = cugraph.pagerank(G, **PAGERANK_ARGS)
        warned = warned_store_transposed(caught)
        # cuGraph iterates in the weight dtype: on the undirected hub graph its float32 scores
        # stall about 1e-5 (L1) from the fixed point, and whether it then reports convergence,
        # and which stalled vector it returns, varies between runs.  Its float64 run of the
        # same graph converges and is the reference (we accumulate in float64 too); the
        # float32 frame keeps the columns and dtype.
        scores = _cugraph_float64_pagerank(name, directed, store_transposed, thin)
        frame = frame.sort_values("vertex")
        frame["pagerank"] = scores.astype(frame["pagerank"].dtype)
    elif algorithm == "wcc":
        frame = cugraph.weakly_connected_components(G)
    else:
        raise ValueError(algorithm)
    del G
    return {"columns": list(frame.columns), "warned": warned,
            **by_vertex(frame, num_vertices(name, thin))}


def _cugraph_float64_pagerank(name, directed, store_transposed, thin):
    """cuGraph's PageRank of the graph with its weights in float64, sorted by vertex; it must
    converge."""
    import cugraph

    df = device_frame(name, thin).copy(deep=True)
    df["weight"] = df["weight"].astype(np.float64)
    G = cugraph.Graph(directed=directed)
    G.from_cudf_edgelist(df, source="source", destination="destination", weight="weight",
                         renumber=False, store_transposed=store_transposed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame, converged = cugraph.pagerank(G, **PAGERANK_ARGS)
    assert converged, f"cuGraph's float64 PageRank of {name} did not converge either"
    return frame.sort_values("vertex")["pagerank"].values


def predecessor_edges(name, directed, pred, unreached):
    """The predecessor checks BFS and SSSP share: -1 at the start and at unreached vertices,
    an in-edge p -> v at every other vertex v.  Returns (p, v, w(p, v)) of those edges, for
    the caller's distance relation."""
    start = start_vertex(name)
    assert pred[start] == -1
    assert np.all(pred[unreached] == -1)
    others = np.flatnonzero(~unreached)
    others = others[others != start]
    p = pred[others]
    assert np.all(p >= 0)
    w = edge_index(name).weights(p, others, directed)
    assert not np.isnan(w).any(), "a predecessor is not an in-edge"
    return p, others, w


def check_bfs_against_cugraph(name, directed, result):
    """Our BFS from start_vertex(name): cuGraph's columns and dtypes, its distances exactly,
    and every reached vertex but the start has a predecessor p with an edge p -> v and
    dist[p] + 1 == dist[v] (all vertices checked, vectorized on the device)."""
    ref = cugraph_result(name, directed, "bfs")
    assert sorted(result.columns) == sorted(ref["columns"])
    mine = by_vertex(result, num_vertices(name))
    for column in ("vertex", "distance"):
        assert mine[column].dtype == ref[column].dtype, column
    dist, pred, start = mine["distance"], mine["predecessor"], start_vertex(name)
    assert np.array_equal(dist, ref["distance"])
    assert dist[start] == 0
    p, others, _ = predecessor_edges(name, directed, pred, dist == np.iinfo(dist.dtype).max)
    assert np.array_equal(dist[p].astype(np.int64) + 1, dist[others])


def check_sssp_against_cugraph(name, directed, result):
    """Our SSSP from start_vertex(name): cuGraph's columns and dtypes, its distances within
    float tolerance, and every reached vertex but the source has a predecessor p with an
    edge p -> v and dist[p] + w(p, v) == dist[v] within tolerance (all vertices checked)."""
    ref = cugraph_result(name, directed, "sssp")
    assert list(result.columns) == ref["columns"]
    mine = by_vertex(result, num_vertices(name))
    assert mine["distance"].dtype == ref["distance"].dtype
    d, r = mine["distance"].astype(np.float64), ref["distance"].astype(np.float64)
    unreached = r >= 3e38  # cuGraph's float32 max: unreachable
    assert np.array_equal(d >= 3e38, unreached)
    assert np.allclose(d[~unreached], r[~unreached], rtol=1e-5, atol=1e-6)
    assert d[start_vertex(name)] == 0
    p, others, w = predecessor_edges(name, directed, mine["predecessor"], unreached)
    assert np.all(np.abs(d[p] + w - d[others]) <= 1e-5 * np.maximum(1.0, d[others]))


# -- saved graphs ---------------------------------------------------------------------------------
def assert_identical_graphs(G, H):
    """``H`` holds everything ``G`` holds (either backend each): the layout's buffers (names,
    order, dtypes, shapes, bits), counts and state, the properties, the vertex ids (the renumber
    map's values and dtype, the vertex order and its permutations), the column names, the
    flags and ``build_stats``."""
    assert (H.format, H.layout_params, H.is_directed()) == (G.format, G.layout_params,
                                                           G.is_directed())
    assert (H.store_transposed, H._in_lists) == (G.store_transposed, G._in_lists)
    assert H._layout.num_vertices == G._layout.num_vertices
    assert H._layout.num_edges == G._layout.num_edges
    assert H._layout.saved_state() == G._layout.saved_state()
    assert H._layout.property_order is None and G._layout.property_order is None
    for mine, theirs in ((H._layout.arrays, G._layout.arrays), (H._properties, G._properties)):
        assert list(mine) == list(theirs)
        for name, array in theirs.items():
            got, want = host_array(mine[name]), host_array(array)
            assert got.dtype == want.dtype and got.shape == want.shape, name
            assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), name
    assert H.vertex_dtype == G.vertex_dtype and H.renumbered == G.renumbered
    mine, theirs = H.nodes(), G.nodes()
    mine = mine.to_pandas() if hasattr(mine, "to_pandas") else mine
    theirs = theirs.to_pandas() if hasattr(theirs, "to_pandas") else theirs
    if H.backend == G.backend:
        pd.testing.assert_series_equal(mine, theirs)
    else:  # cuDF holds strings as object columns
        assert mine.tolist() == theirs.tolist()
    assert H._columns == G._columns
    assert H.build_stats == G.build_stats
    assert H.vertex_order == G.vertex_order
    mine, theirs = H._ids.internal_of, G._ids.internal_of
    assert (mine is None) == (theirs is None)
    if theirs is not None:
        got, want = host_array(mine), host_array(theirs)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def saved_parts(path):
    """A saved graph read by hand, as its format's documentation says: ``(header, buffers)``
    with ``buffers`` the raw bytes of each buffer by name."""
    import json
    import struct

    data = path.read_bytes()
    _, _, _, size = struct.unpack_from("<8sIIQ", data)
    header = json.loads(data[24:24 + size])
    buffers = {b["name"]: data[b["offset"]:b["offset"] + b["nbytes"]] for b in header["buffers"]}
    return header, buffers


def write_saved(path, header, buffers, version=2, fix_checksums=True):
    """Write a saved graph by hand: ``header`` (its offsets, ``file_bytes`` and, with
    ``fix_checksums``, its buffers' CRC-32 recomputed) and the bytes of ``buffers``."""
    import json
    import struct
    import zlib

    def align(x):
        return -(-x // 64) * 64

    entries = header["buffers"]
    if fix_checksums:
        for entry in entries:
            entry["crc32"] = f"{zlib.crc32(buffers[entry['name']]):08x}"
    start = 64
    while True:
        offset = end = start
        for entry in entries:
            entry["offset"], end = offset, offset + len(buffers[entry["name"]])
            offset = align(end)
        header["file_bytes"] = end
        text = json.dumps(header).encode()
        if align(24 + len(text)) <= start:
            break
        start = align(24 + len(text))
    out = bytearray(header["file_bytes"])
    out[:24 + len(text)] = struct.pack("<8sIIQ", b"\x89CGC\r\n\x1a\n", version, zlib.crc32(text),
                                       len(text)) + text
    for entry in entries:
        data = buffers[entry["name"]]
        out[entry["offset"]:entry["offset"] + len(data)] = data
    path.write_bytes(bytes(out))
