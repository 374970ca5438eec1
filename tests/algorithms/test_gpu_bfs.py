"""GPU BFS against cuGraph itself and against the host backend (run with -m gpu on a GPU host)."""
import inspect

import numpy as np
import pandas as pd
import pytest
from graphs import (
    GPU_CASE_IDS,
    GPU_CASES,
    check_against_scipy,
    check_bfs_against_cugraph,
    compressed_graph,
    random_edges,
    start_vertex,
)

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu
DEVICE_LAYOUTS = cgc.supported()["bfs"]["device"]


def to_device(df):
    import cudf

    return cudf.from_pandas(df)


def compare_with_cugraph(df, directed, start, *, renumber=True, depth_limit=None, **layout):
    """Our device BFS equals cuGraph's distances; our predecessors are valid; both agree with
    SciPy and with our host backend.  The input is deduplicated before either library sees it."""
    import cudf
    import cugraph

    df = df.drop_duplicates(ignore_index=True)
    host_df = df.to_pandas() if hasattr(df, "to_pandas") else df
    device_df = df if hasattr(df, "to_pandas") else to_device(df)
    G = cgc.CompressedGraph(directed=directed, **layout).from_cudf_edgelist(device_df,
                                                                           renumber=renumber)
    G.validate()
    ours = cgc.bfs(G, start, depth_limit=depth_limit)
    assert isinstance(ours, cudf.DataFrame)

    reference = cugraph.Graph(directed=directed)
    reference.from_cudf_edgelist(device_df, source="source", destination="destination",
                                 renumber=renumber)
    cu_start = cudf.Series(start) if isinstance(start, list) else start
    theirs = cugraph.bfs(reference, cu_start, depth_limit=depth_limit)
    assert sorted(ours.columns) == sorted(theirs.columns)
    for column in ("vertex", "distance"):
        assert ours[column].dtype == theirs[column].dtype, column
    o = ours.to_pandas().set_index("vertex").sort_index()
    t = theirs.to_pandas().set_index("vertex").sort_index()
    assert o.index.equals(t.index)
    assert np.array_equal(o["distance"].to_numpy(), t["distance"].to_numpy())
    ids = None if renumber else np.arange(G.number_of_vertices())
    check_against_scipy(host_df, ours.to_pandas(), directed, start, depth_limit, ids=ids)

    host = cgc.CompressedGraph(directed=directed, **layout).from_pandas_edgelist(host_df,
                                                                                renumber=renumber)
    h = cgc.bfs(host, start, depth_limit=depth_limit).set_index("vertex").sort_index()
    assert np.array_equal(o["distance"].to_numpy(), h["distance"].to_numpy())
    return G


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
def test_random_graph_int32(directed, layout):
    df = random_edges(5000, 40000, 21, dtype=np.int32)
    compare_with_cugraph(df, directed, int(df["source"][0]), renumber=False, format=layout)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_multi_source_with_depth_limit(layout):
    df = random_edges(20000, 60000, 22, dtype=np.int32)
    compare_with_cugraph(df, True, [1, 2, 3, 5000], renumber=False, depth_limit=3, format=layout)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
def test_rmat_scale_18(directed, layout):
    df = rmat_edgelist(18, seed=5, backend="device")
    start = int(df["source"].iloc[0])
    compare_with_cugraph(df, directed, start, renumber=False, format=layout)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_skewed_hub_vertex(layout):
    rng = np.random.default_rng(23)
    n = 300_000
    hub = pd.DataFrame({"source": np.zeros(150_000, np.int32),
                        "destination": rng.choice(np.arange(1, n, dtype=np.int32), 150_000,
                                                  replace=False)})
    df = pd.concat([hub, random_edges(n, 400_000, 24, dtype=np.int32)], ignore_index=True)
    compare_with_cugraph(df, True, 0, renumber=False, format=layout)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("case", GPU_CASES, ids=GPU_CASE_IDS)
def test_bfs_matches_cugraph_on_shared_graphs(case, layout):
    """The graphs SSSP, PageRank and WCC are tested on (R-MAT scale 22 and real graphs among
    them): cuGraph's distances, valid predecessors, checked vectorized for every vertex."""
    name, directed = case
    result = cgc.bfs(compressed_graph(name, directed, layout), start_vertex(name))
    # our graph is freed before cuGraph's is built
    check_bfs_against_cugraph(name, directed, result)


#: Parameters that make warp items start mid-pointer (ef) and mid-segment (cgr).
WARP_PARAMS = [("ef", {"k": 3, "block_size": 2}), ("cgr", {"code": "gamma", "segment_size": 4,
                                                            "min_interval_length": 2})]


@pytest.mark.parametrize("layout, params", WARP_PARAMS, ids=[f"{f}-{p}" for f, p in WARP_PARAMS])
def test_long_lists_through_warps_with_odd_parameters(layout, params):
    """Lists of at least a warp item go through warp_for_each: a hub of 20,000 and lists of a
    few thousand, with chunk sizes that are not powers of two or are below 32."""
    rng = np.random.default_rng(29)
    n = 50_000
    hubs = pd.DataFrame({"source": np.repeat(np.arange(5, dtype=np.int32),
                                             [20_000, 3000, 1500, 1100, 1024]),
                         "destination": rng.integers(0, n, 26_624, dtype=np.int32)})
    df = pd.concat([hubs, random_edges(n, 100_000, 30, dtype=np.int32)], ignore_index=True)
    compare_with_cugraph(df, False, 0, renumber=False, format=layout, **params)


def test_non_contiguous_int64_ids_renumbered():
    base = random_edges(3000, 20000, 25)
    df = pd.DataFrame({"source": base["source"] * 7919 + 2**35,
                       "destination": base["destination"] * 7919 + 2**35})
    compare_with_cugraph(df, False, int(df["source"][3]))


def test_forced_64_bit_csr():
    df = random_edges(4000, 30000, 26, dtype=np.int32)
    G = compare_with_cugraph(df, True, 7, renumber=False, force_64bit=True)
    assert G._layout.offsets.dtype == np.int64 and G._layout.indices.dtype == np.int64


def test_string_ids():
    base = random_edges(2000, 8000, 27)
    df = pd.DataFrame({"source": "n" + base["source"].astype(str),
                       "destination": "n" + base["destination"].astype(str)})
    G = cgc.CompressedGraph(directed=False).from_cudf_edgelist(to_device(df.drop_duplicates()))
    start = df["source"][0]
    ours = cgc.bfs(G, start).to_pandas()
    fixed = ours.assign(predecessor=ours["predecessor"].where(ours["predecessor"].notna(), -1))
    check_against_scipy(df, fixed, False, start)


def test_return_predecessors_false_matches_cugraph():
    import cugraph

    df = to_device(random_edges(1000, 5000, 28, dtype=np.int32).drop_duplicates())
    G = cgc.CompressedGraph(directed=True).from_cudf_edgelist(df, renumber=False)
    reference = cugraph.Graph(directed=True)
    reference.from_cudf_edgelist(df, renumber=False)
    ours = cgc.bfs(G, 0, return_predecessors=False)
    theirs = cugraph.bfs(reference, 0, return_predecessors=False)
    assert ours["predecessor"].dtype == theirs["predecessor"].dtype
    assert ours["predecessor"].null_count == theirs["predecessor"].null_count
    assert (ours["predecessor"].fillna(-7) == theirs["predecessor"].fillna(-7)).all()


def test_errors_on_the_device():
    df = to_device(pd.DataFrame({"source": np.array([0, 1], np.int32),
                                 "destination": np.array([1, 2], np.int32)}))
    G = cgc.CompressedGraph(directed=True).from_cudf_edgelist(df, renumber=False)
    with pytest.raises(ValueError, match="start vertex 3"):
        cgc.bfs(G, 3)
    with pytest.raises(ValueError, match="renumber"):
        cgc.CompressedGraph().from_cudf_edgelist(df.astype("float32"), renumber=False)
    assert cgc.bfs(G, 0)["distance"].to_arrow().to_pylist() == [0, 1, 2]  # context still healthy


def test_plain_cugraph_graph_goes_to_cugraph():
    import cugraph

    df = to_device(pd.DataFrame({"source": np.array([0, 1], np.int32),
                                 "destination": np.array([1, 2], np.int32)}))
    reference = cugraph.Graph(directed=True)
    reference.from_cudf_edgelist(df, renumber=False)
    result = cgc.bfs(reference, 0)
    expected = cugraph.bfs(reference, 0)
    assert result.sort_values("vertex").to_pandas().reset_index(drop=True).equals(
        expected.sort_values("vertex").to_pandas().reset_index(drop=True))


def _params(fn):
    return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]


def test_signatures_match_installed_cugraph():
    import cugraph

    for name in ("bfs", "sssp", "pagerank", "weakly_connected_components", "connected_components"):
        assert _params(getattr(cgc, name)) == _params(getattr(cugraph, name)), name
    assert (_params(cgc.CompressedGraph.from_cudf_edgelist)
            == _params(cugraph.Graph.from_cudf_edgelist))
    ours = dict(_params(cgc.CompressedGraph.from_pandas_edgelist))
    for name, default in _params(cugraph.Graph.from_pandas_edgelist)[1:]:
        assert name in ours and ours[name] == default, name


# -- memory: RMM everywhere, clean errors, no leaks ---------------------------------------------
@pytest.fixture
def rmm_statistics():
    import rmm

    previous = rmm.mr.get_current_device_resource()
    rmm.statistics.enable_statistics()
    try:
        yield lambda: rmm.statistics.get_statistics().current_bytes
    finally:
        rmm.mr.set_current_device_resource(previous)


def test_graph_buffers_come_from_rmm(rmm_statistics):
    df = to_device(random_edges(10000, 80000, 29, dtype=np.int32).drop_duplicates())
    before = rmm_statistics()
    G = cgc.CompressedGraph(directed=True).from_cudf_edgelist(df, renumber=False)
    grown = rmm_statistics() - before
    assert G.nbytes <= grown <= G.nbytes + (1 << 20)


def test_repeated_bfs_leaks_nothing(rmm_statistics):
    df = to_device(random_edges(10000, 80000, 30, dtype=np.int32))
    G = cgc.CompressedGraph(directed=True).from_cudf_edgelist(df, renumber=False)
    del cgc.bfs(G, 0)["vertex"]
    before = rmm_statistics()
    for start in range(5):
        result = cgc.bfs(G, start)
        del result
    assert rmm_statistics() == before


def test_memory_limit_raises_memory_error():
    import rmm

    df = to_device(random_edges(100000, 1_000_000, 31, dtype=np.int32))
    previous = rmm.mr.get_current_device_resource()
    rmm.mr.set_current_device_resource(rmm.mr.LimitingResourceAdaptor(previous,
                                                                      allocation_limit=1 << 20))
    try:
        with pytest.raises(MemoryError):
            cgc.CompressedGraph(directed=True).from_cudf_edgelist(df, renumber=False)
    finally:
        rmm.mr.set_current_device_resource(previous)
    G = cgc.CompressedGraph(directed=True).from_cudf_edgelist(df, renumber=False)
    assert int(cgc.bfs(G, 0)["distance"].min()) == 0
