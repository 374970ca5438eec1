"""Re-orientation on the GPU: a directed device graph stored as in-lists, re-encoded as out-lists
by BFS/SSSP through the streaming build (its stored edges decoded on the GPU a window of slots
at a time, ``kernels/traversal.py`` SlotDecoder), holds the buffers of the host graph built
directly as out-lists (which the CPU tests prove equal to the host re-orientation; both in the
sorted vertex order, where the two orientations number vertices alike), for every
layout, property set and budget; BFS and SSSP on it match the host; running out of GPU memory
midway leaves the graph as it was and no allocation behind."""
import gc

import numpy as np
import pandas as pd
import pytest
from graphs import (
    REORIENTATION_CASES,
    REORIENTATION_PARAMS,
    REORIENTATION_PROPERTIES,
    REORIENTATION_VERTICES,
    SMALL_GRAPHS,
    assert_same_graph,
    host_array,
    random_edges,
    reorientation_edges,
    small_graph,
)

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_chunks

pytestmark = pytest.mark.gpu


def sorted_graph(fmt, **params):
    """An empty directed graph in the sorted vertex order, the order in which a re-oriented
    graph and one built directly as out-lists number their vertices alike."""
    return cgc.CompressedGraph(directed=True, format=fmt, vertex_order="sorted", **params)


@pytest.fixture(scope="module")
def hubs():
    return reorientation_edges()


@pytest.mark.parametrize("props", sorted(REORIENTATION_PROPERTIES))
@pytest.mark.parametrize("fmt, params", REORIENTATION_CASES,
                         ids=[f"{f}-{p}" for f, p in REORIENTATION_CASES])
def test_device_reorientation_is_the_host_out_list_build(hubs, fmt, params, props):
    columns, small = REORIENTATION_PROPERTIES[props]
    vertices = pd.Series(np.arange(REORIENTATION_VERTICES))
    H = sorted_graph(fmt, **params).from_edge_chunks(
        [hubs], renumber=False, vertices=vertices, **columns)
    for budget, checked in ((None, False), (small, False), (small, True)):
        G = sorted_graph(fmt, **params).from_edge_chunks(
            [hubs], backend="device", renumber=False, vertices=vertices, store_transposed=True,
            memory_budget=budget, **columns)
        G.traversal = cgc.TraversalConfig(checked=checked)
        assert G.backend == "device" and G._in_lists
        assert not G.view().adjacency("out").in_lists
        assert_same_graph(G, H)
        stats = G.build_stats["reoriented"]
        assert stats["budget"] == G.build_stats["budget"]
        if budget is not None:
            assert stats["ranges"] > 1 and stats["pieces"] > 2


@pytest.mark.parametrize("fmt", sorted(REORIENTATION_PARAMS))
@pytest.mark.parametrize("case", sorted(SMALL_GRAPHS))
def test_small_graphs(fmt, case):
    df, kwargs = small_graph(case)
    G = sorted_graph(fmt).from_edge_chunks(
        [df], backend="device", store_transposed=True, **kwargs)
    H = sorted_graph(fmt).from_pandas_edgelist(df, **kwargs)
    G.view().adjacency("out")
    assert_same_graph(G, H)


@pytest.mark.parametrize("fmt", sorted(REORIENTATION_PARAMS))
def test_bfs_and_sssp_after_reorientation_match_the_host(fmt):
    edges = random_edges(3000, 40_000, 17, weighted=True)
    G = sorted_graph(fmt).from_edge_chunks(
        [edges], backend="device", renumber=False, weight="weight", store_transposed=True,
        memory_budget=100_000)
    H = sorted_graph(fmt).from_pandas_edgelist(
        edges, renumber=False, weight="weight")
    got = cgc.bfs(G, start=5).to_pandas().sort_values("vertex").reset_index(drop=True)
    assert G.build_stats["reoriented"]["ranges"] > 1
    want = cgc.bfs(H, start=5).sort_values("vertex").reset_index(drop=True)
    assert np.array_equal(got["distance"], want["distance"])
    got = cgc.sssp(G, 5).to_pandas().sort_values("vertex")
    want = cgc.sssp(H, 5).sort_values("vertex")
    assert np.allclose(got["distance"], want["distance"], rtol=1e-6)


@pytest.mark.parametrize("share", [4, 1])
def test_out_of_memory_midway_leaves_the_graph_as_it_was(share):
    """Under an RMM limit of a quarter of the graph's bytes (it fails in a first pass) or of
    the graph's bytes (the new structure and a range's edges cannot both fit) the
    re-orientation runs out of memory: the graph keeps its in-lists, buffers and properties,
    PageRank gives what it gave, no allocation is left behind (twice in a row), and with the
    limit lifted BFS re-orients it."""
    import rmm

    chunks = rmat_chunks(14, 8, chunk_edges=1 << 14, seed=4, weighted=True)
    G = sorted_graph("ef").from_edge_chunks(
        chunks, backend="device", renumber=False, weight="weight", store_transposed=True,
        memory_budget=1 << 20)
    limit = G.nbytes // share
    arrays = {name: host_array(a) for name, a in G._layout.arrays.items()}
    weights = host_array(G._properties["weight"])
    ranks = cgc.pagerank(G).to_pandas()
    # A small re-orientation first: what the first one caches for good (compiled kernels,
    # argument blocks, library workspaces) is not a leak of the failed one.
    small = sorted_graph("ef").from_edge_chunks(
        [random_edges(50, 200, 1)], backend="device", renumber=False, store_transposed=True)
    cgc.bfs(small, start=0)
    previous = rmm.mr.get_current_device_resource()
    limited = rmm.mr.LimitingResourceAdaptor(previous, allocation_limit=limit)
    rmm.mr.set_current_device_resource(limited)
    try:
        gc.collect()
        before = limited.get_allocated_bytes()
        for _ in range(2):
            try:
                cgc.bfs(G, start=5)
            except MemoryError:
                pass
            else:
                raise AssertionError(f"the re-orientation fit under {limit} bytes")
            gc.collect()
            assert limited.get_allocated_bytes() == before
    finally:
        rmm.mr.set_current_device_resource(previous)
    assert G._in_lists and "reoriented" not in G.build_stats
    for name, array in arrays.items():
        assert np.array_equal(host_array(G._layout.arrays[name]), array), name
    assert np.array_equal(host_array(G._properties["weight"]), weights)
    pd.testing.assert_frame_equal(cgc.pagerank(G).to_pandas(), ranks)
    result = cgc.bfs(G, start=5).to_pandas().sort_values("vertex").reset_index(drop=True)
    assert not G._in_lists
    H = sorted_graph("ef").from_edge_chunks(
        chunks, renumber=False, weight="weight")
    expected = cgc.bfs(H, start=5).sort_values("vertex").reset_index(drop=True)
    assert np.array_equal(result["distance"], expected["distance"])
