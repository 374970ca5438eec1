"""SSSP, PageRank and weakly connected components on the GPU, on every layout with a device
view, against cuGraph itself on the graphs of graphs.GPU_GRAPHS (random, R-MAT scale 18 and 22,
a hub of degree 120,000, three real graphs), directed and undirected, inputs deduplicated before
both libraries see them."""
import warnings

import numpy as np
import pandas as pd
import pytest
from graphs import (
    GPU_CASE_IDS,
    GPU_CASES,
    GPU_GRAPHS,
    PAGERANK_ARGS,
    by_vertex,
    check_bfs_against_cugraph,
    check_sssp_against_cugraph,
    compressed_graph,
    cugraph_graph,
    cugraph_result,
    host_frame,
    num_vertices,
    random_edges,
    start_vertex,
    warned_store_transposed,
)

import cugraph_compressed as cgc
from cugraph_compressed.algorithms.components import weakly_connected_components
from cugraph_compressed.algorithms.pagerank import pagerank
from cugraph_compressed.algorithms.sssp import sssp
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu
DEVICE_LAYOUTS = cgc.supported()["sssp"]["device"]


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("case", GPU_CASES, ids=GPU_CASE_IDS)
def test_sssp_matches_cugraph(case, layout):
    name, directed = case
    result = sssp(compressed_graph(name, directed, layout), start_vertex(name))
    # our graph is freed before cuGraph's is built
    check_sssp_against_cugraph(name, directed, result)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("store_transposed", [False, True], ids=["default", "transposed"])
@pytest.mark.parametrize("case", GPU_CASES, ids=GPU_CASE_IDS)
def test_pagerank_matches_cugraph(case, store_transposed, layout):
    """Both libraries' graphs built with the same store_transposed (True is what cuGraph
    recommends for PageRank); PAGERANK_ARGS says why max_iter is 500."""
    name, directed = case
    ref = cugraph_result(name, directed, "pagerank", store_transposed=store_transposed)
    G = compressed_graph(name, directed, layout, store_transposed=store_transposed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result, _ = pagerank(G, **PAGERANK_ARGS)
    assert warned_store_transposed(caught) == ref["warned"]  # cuGraph warns without it
    assert list(result.columns) == ref["columns"]
    mine = by_vertex(result, num_vertices(name))
    assert mine["pagerank"].dtype == ref["pagerank"].dtype
    assert np.abs(mine["pagerank"].astype(np.float64)
                  - ref["pagerank"].astype(np.float64)).sum() < 1e-5


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_personalized_pagerank_matches_cugraph(layout):
    import cudf
    import cugraph

    ours = compressed_graph("hub", True, layout, store_transposed=True)
    theirs = cugraph_graph("hub", True, store_transposed=True)
    pers = cudf.DataFrame({"vertex": np.array([3, 70, 900], np.int32),
                           "values": np.array([1.0, 2.0, 0.5], np.float32)})
    mine, _ = pagerank(ours, personalization=pers, **PAGERANK_ARGS)
    ref, _ = cugraph.pagerank(theirs, personalization=pers, **PAGERANK_ARGS)
    mine, ref = mine.to_pandas().sort_values("vertex"), ref.to_pandas().sort_values("vertex")
    assert np.abs(mine["pagerank"].to_numpy(np.float64)
                  - ref["pagerank"].to_numpy(np.float64)).sum() < 1e-5


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("thin", [1, 8], ids=["all", "every8th"])
@pytest.mark.parametrize("name", GPU_GRAPHS)
def test_wcc_partition_matches_cugraph(name, thin, layout):
    """Undirected only (cuGraph refuses directed input); every 8th edge leaves many components."""
    ref = cugraph_result(name, False, "wcc", thin=thin)
    result = weakly_connected_components(compressed_graph(name, False, layout, thin=thin))
    assert sorted(result.columns) == sorted(ref["columns"])
    mine = by_vertex(result, num_vertices(name, thin))
    assert mine["labels"].dtype == ref["labels"].dtype
    pairs = pd.DataFrame({"a": mine["labels"], "b": ref["labels"]}).drop_duplicates()
    assert pairs["a"].is_unique and pairs["b"].is_unique
    assert thin == 1 or pairs.shape[0] > 1


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_transposed_graph_runs_bfs_and_sssp_like_cugraph(layout):
    """A graph built for PageRank (store_transposed=True, directed) still answers BFS and SSSP
    like cuGraph's graph built the default way, and PageRank afterwards like cuGraph's
    transposed graph."""
    name, directed = "rmat18", True
    G = compressed_graph(name, directed, layout, store_transposed=True)
    check_bfs_against_cugraph(name, directed, cgc.bfs(G, start_vertex(name)))
    result, _ = pagerank(G, **PAGERANK_ARGS)
    ref = cugraph_result(name, directed, "pagerank", store_transposed=True)
    mine = by_vertex(result, num_vertices(name))
    assert np.abs(mine["pagerank"].astype(np.float64)
                  - ref["pagerank"].astype(np.float64)).sum() < 1e-5
    G = compressed_graph(name, directed, layout, store_transposed=True)
    check_sssp_against_cugraph(name, directed, sssp(G, start_vertex(name)))


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_device_results_equal_host_oracle(layout):
    df = host_frame("random")
    host = cgc.CompressedGraph(directed=False, format=layout).from_pandas_edgelist(
        df, renumber=False, weight="weight", store_transposed=True)
    dev = compressed_graph("random", False, layout, store_transposed=True)
    assert np.allclose(sssp(dev, 5).to_pandas()["distance"], sssp(host, 5)["distance"], rtol=1e-5)
    assert np.abs(pagerank(dev, tol=1e-9).to_pandas()["pagerank"]
                  - pagerank(host, tol=1e-9)["pagerank"]).sum() < 1e-5
    assert np.array_equal(weakly_connected_components(dev).to_pandas()["labels"],
                          weakly_connected_components(host)["labels"])


#: Parameters that make warp items start mid-pointer (ef) and mid-segment (cgr).
WARP_PARAMS = [("csr", {}), ("ef", {"k": 3, "block_size": 2}),
               ("cgr", {"code": "gamma", "segment_size": 4, "min_interval_length": 2})]


@pytest.mark.parametrize("layout, params", WARP_PARAMS, ids=[f"{f}-{p}" for f, p in WARP_PARAMS])
@pytest.mark.parametrize("store_transposed", [False, True], ids=["default", "transposed"])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("warp_item_ranks", [None, 1024], ids=["threads", "warps"])
def test_long_lists_through_warps_equal_host_oracle(layout, params, store_transposed, directed,
                                                    warp_item_ranks):
    """SSSP (relaxation and predecessor passes), PageRank (pull and push) and WCC send lists of
    at least a warp item through warps: out- and in-hubs of 20,000 to 1,024 neighbours beside
    many short lists, with chunk sizes that are not powers of two or are below 32.  With
    ``warp_item_ranks`` None the same lists go through the per-thread kernels alone."""
    import cudf

    rng = np.random.default_rng(31)
    n, degrees = 30_000, [20_000, 3000, 1500, 1100, 1024]
    hubs = np.repeat(np.arange(5, dtype=np.int32), degrees)
    others = rng.integers(0, n, 2 * hubs.size, dtype=np.int32)
    # Vertices 0-4 have long out-lists, 5-9 long in-lists (what a transposed graph pulls over).
    long_lists = pd.DataFrame({"source": np.r_[hubs, others[hubs.size:]],
                               "destination": np.r_[others[:hubs.size], hubs + 5]})
    long_lists["weight"] = rng.random(len(long_lists)).astype(np.float32) + np.float32(0.01)
    df = pd.concat([long_lists, random_edges(n, 60_000, 31, dtype=np.int32, weighted=True)],
                   ignore_index=True)
    df = df.drop_duplicates(["source", "destination"])

    def build(frame, load):
        G = cgc.CompressedGraph(directed=directed, format=layout, **params)
        return getattr(G, load)(frame, renumber=False, weight="weight",
                                store_transposed=store_transposed)

    host, dev = build(df, "from_pandas_edgelist"), build(cudf.from_pandas(df), "from_cudf_edgelist")
    dev.traversal = cgc.TraversalConfig(warp_item_ranks=warp_item_ranks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # store_transposed=False warns
        mine, ref = sssp(dev, 0).to_pandas(), sssp(host, 0)
        assert np.allclose(mine["distance"], ref["distance"], rtol=1e-5)
        reached = (mine["predecessor"] >= 0).to_numpy()
        assert np.array_equal(reached, (ref["predecessor"] >= 0).to_numpy())
        assert np.abs(pagerank(dev, tol=1e-9).to_pandas()["pagerank"]
                      - pagerank(host, tol=1e-9)["pagerank"]).sum() < 1e-5
    if not directed:
        assert np.array_equal(weakly_connected_components(dev).to_pandas()["labels"],
                              weakly_connected_components(host)["labels"])


#: Layout parameters that make device decoding start mid-list often (small forward-pointer
#: strides and segments) or read unaligned fields, besides each layout's defaults.
VIEW_PARAMS = {"csr": [{"force_64bit": True}], "ef": [{"k": 3, "block_size": 2}, {"k": 16}],
               "fl": [{"index_width": 21, "offset_width": 27}],
               "cgr": [{"segment_size": 4, "min_interval_length": 2}]}
VIEW_CASES = [(layout, params) for layout in DEVICE_LAYOUTS
              for params in [{}] + VIEW_PARAMS.get(layout, [])]


@pytest.mark.parametrize("layout, params", VIEW_CASES, ids=[f"{l}-{p}" for l, p in VIEW_CASES])
@pytest.mark.parametrize("directed", [True, False])
def test_device_view_decodes_every_list(layout, params, directed):
    """SlotDecoder (the re-orientation's GPU decoder) gives the host decoder's owner and
    neighbour at every slot: all edges at once, and windows that cut lists at one or both ends
    (the hub's list of 5000), as the host ``Layout.decode_slots`` does."""
    import cudf

    from cugraph_compressed.kernels.traversal import SlotDecoder

    hub = pd.DataFrame({"source": np.full(5000, 7, np.int32),
                        "destination": np.arange(5000, dtype=np.int32) * 13})
    df = pd.concat([rmat_edgelist(16, seed=83), hub], ignore_index=True)  # long lists, isolated ids
    G = cgc.CompressedGraph(directed=directed, format=layout, **params).from_cudf_edgelist(
        cudf.from_pandas(df), renumber=False)
    owner, expected, positions = (np.asarray(a.get() if hasattr(a, "get") else a)
                                  for a in G._layout.to_coo())
    by_slot = np.empty_like(owner), np.empty_like(expected)
    by_slot[0][positions], by_slot[1][positions] = owner, expected
    decode = SlotDecoder(G._layout)
    m = G._layout.num_edges
    hub_first = int(G._layout.degrees()[:7].sum())
    windows = [(0, m), (0, 1), (m - 1, m), (hub_first + 3, hub_first + 4000), (1000, 1000)]
    windows += [(b, min(b + 4096, m)) for b in range(0, m, 70_001)]
    for begin, end in windows:
        owners, decoded = (a.get() for a in decode(begin, end))
        assert np.array_equal(owners, by_slot[0][begin:end]), (begin, end)
        assert np.array_equal(decoded, by_slot[1][begin:end]), (begin, end)
