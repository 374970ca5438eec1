"""``vertex_order="degree"`` on the GPU: a device graph holds the host graph's buffers and
permutations bit for bit (which the CPU tests prove equal to the reference encoder's on the
pandas-relabelled edges) for every chunking, budget and chunk location; its algorithms answer
as cuGraph does on the same edges, in sorted user-id rows; saving keeps the order across
backends."""
import numpy as np
import pandas as pd
import pytest
from graphs import PAGERANK_ARGS, assert_identical_graphs, host_array

import cugraph_compressed as cgc
from cugraph_compressed.formats import FORMATS
from cugraph_compressed.generators import rmat_chunks, rmat_edgelist

pytestmark = [pytest.mark.gpu, pytest.mark.filterwarnings("ignore:Pagerank expects")]
KINDS = {"directed": (True, False), "transposed": (True, True), "undirected": (False, False)}


def assert_same_degree_graph(G, H):
    """Device graph ``G`` holds host graph ``H``'s layout, properties and vertex order."""
    assert G.backend == "device" and H.backend == "host" and G.vertex_order == "degree"
    for mine, theirs in ((G._layout.arrays, H._layout.arrays), (G._properties, H._properties)):
        assert list(mine) == list(theirs)
        for name, array in theirs.items():
            got = host_array(mine[name])
            assert got.dtype == array.dtype and np.array_equal(got, array), name
    got, want = host_array(G._ids.internal_of), H._ids.internal_of
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert np.array_equal(G.nodes().to_numpy(), H.nodes().to_numpy())


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("kind", KINDS)
def test_device_degree_order_is_the_host_one(fmt, kind):
    directed, transposed = KINDS[kind]
    host = rmat_chunks(12, 8, chunk_edges=10_000, seed=13, weighted=True)
    device = rmat_chunks(12, 8, chunk_edges=10_000, seed=13, weighted=True, backend="device")
    H = cgc.CompressedGraph(directed=directed, format=fmt, vertex_order="degree")
    H.from_edge_chunks(host, weight="weight", store_transposed=transposed)
    for chunks, budget in ((device, None), (device, 1 << 20), (host, 1 << 20)):
        G = cgc.CompressedGraph(directed=directed, format=fmt, vertex_order="degree")
        G.from_edge_chunks(chunks, weight="weight", store_transposed=transposed,
                           backend="device", memory_budget=budget)
        assert_same_degree_graph(G, H)
        if budget is not None:
            assert G.build_stats["ranges"] > 1


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_unweighted_device_degree_order_is_the_host_one(fmt):
    # Unweighted edges take the keyed gather: one kernel per piece on the device.
    host = rmat_chunks(12, 8, chunk_edges=10_000, seed=14)
    device = rmat_chunks(12, 8, chunk_edges=10_000, seed=14, backend="device")
    H = cgc.CompressedGraph(directed=False, format=fmt, vertex_order="degree")
    H.from_edge_chunks(host)
    for budget in (None, 1 << 16):
        G = cgc.CompressedGraph(directed=False, format=fmt, vertex_order="degree")
        G.from_edge_chunks(device, memory_budget=budget)
        assert_same_degree_graph(G, H)


def deduplicated_edges():
    """R-MAT 14 with one row per (source, destination), the smallest weight kept: which
    weight cuGraph keeps of parallel edges is unspecified."""
    import cudf

    df = rmat_edgelist(14, seed=5, weighted=True)
    df = df.sort_values(["source", "destination", "weight"]).drop_duplicates(
        ["source", "destination"], ignore_index=True)
    return cudf.from_pandas(df)


def frames(mine, theirs):
    """Both result frames as pandas, rows by vertex."""
    mine, theirs = mine.to_pandas(), theirs.to_pandas()
    assert mine["vertex"].is_monotonic_increasing  # sorted user ids, whatever the order
    return mine, theirs.sort_values("vertex", ignore_index=True)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("directed", [True, False])
def test_degree_ordered_device_graph_answers_as_cugraph(fmt, directed):
    import cugraph

    edges = deduplicated_edges()
    ours = cgc.CompressedGraph(directed=directed, format=fmt, vertex_order="degree")
    ours.from_cudf_edgelist(edges, weight="weight")
    theirs = cugraph.Graph(directed=directed)
    theirs.from_cudf_edgelist(edges, weight="weight")
    start = int(edges["source"].iloc[0])
    mine, ref = frames(cgc.bfs(ours, start), cugraph.bfs(theirs, start))
    assert np.array_equal(mine["vertex"], ref["vertex"])
    assert np.array_equal(mine["distance"], ref["distance"])
    distance = mine.set_index("vertex")["distance"]
    reached = mine[mine["predecessor"] != -1]
    assert np.array_equal(distance[reached["predecessor"]].to_numpy() + 1,
                          reached["distance"].to_numpy())
    mine, ref = frames(cgc.sssp(ours, start), cugraph.sssp(theirs, start))
    np.testing.assert_allclose(mine["distance"], ref["distance"], rtol=1e-5)
    if not directed:
        mine, ref = frames(cgc.weakly_connected_components(ours),
                           cugraph.weakly_connected_components(theirs))
        ours_sets = {frozenset(g) for g in mine.groupby("labels")["vertex"].apply(list)}
        ref_sets = {frozenset(g) for g in ref.groupby("labels")["vertex"].apply(list)}
        assert ours_sets == ref_sets
    unweighted = edges[["source", "destination"]]
    ours = cgc.CompressedGraph(directed=directed, format=fmt, vertex_order="degree")
    ours.from_cudf_edgelist(unweighted, store_transposed=True)
    theirs = cugraph.Graph(directed=directed)
    theirs.from_cudf_edgelist(unweighted, store_transposed=True)
    (mine, _), (ref, _) = cgc.pagerank(ours, **PAGERANK_ARGS), cugraph.pagerank(theirs,
                                                                               **PAGERANK_ARGS)
    mine, ref = frames(mine, ref)
    assert np.array_equal(mine["vertex"], ref["vertex"])
    assert np.abs(mine["pagerank"].to_numpy(np.float64)
                  - ref["pagerank"].to_numpy(np.float64)).sum() < 1e-5


def test_saved_device_graph_keeps_its_order(tmp_path):
    edges = deduplicated_edges()
    G = cgc.CompressedGraph(directed=False, format="ef", vertex_order="degree")
    G.from_cudf_edgelist(edges, weight="weight")
    G.save(tmp_path / "g.cgc")
    for backend in ("host", "device"):
        H = cgc.CompressedGraph.load(tmp_path / "g.cgc", backend=backend)
        assert_identical_graphs(G, H)
        start = int(edges["source"].iloc[0])
        mine, want = cgc.bfs(H, start), cgc.bfs(G, start).to_pandas()
        mine = mine.to_pandas() if hasattr(mine, "to_pandas") else mine
        pd.testing.assert_series_equal(mine["distance"], want["distance"])
    assert np.array_equal(host_array(H._ids.internal_of), host_array(G._ids.internal_of))
