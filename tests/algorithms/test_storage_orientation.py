"""Directed graphs stored as in-lists (``store_transposed=True``): the stored edges, and BFS and
SSSP, which convert the storage to out-lists in place, against SciPy and the out-list graph."""
import numpy as np
import pandas as pd
import pytest
from graphs import check_against_scipy, random_edges, weighted_adjacency
from scipy.sparse.csgraph import dijkstra

import cugraph_compressed as cgc

LAYOUTS = sorted(cgc.FORMATS)


def build(df, layout, store_transposed):
    return cgc.CompressedGraph(directed=True, format=layout).from_pandas_edgelist(
        df, renumber=False, weight="weight", store_transposed=store_transposed)


def sorted_edges(G):
    return G.view_edge_list().sort_values(["source", "destination"]).reset_index(drop=True)


@pytest.fixture(scope="module")
def edges():
    df = random_edges(400, 2500, 90, weighted=True)  # parallel edges, self loops, isolated ids
    return df.astype({"source": np.int32, "destination": np.int32})


@pytest.mark.parametrize("layout", LAYOUTS)
def test_in_lists_hold_the_same_edges(edges, layout):
    G = build(edges, layout, True)
    assert G._in_lists
    G.validate()
    pd.testing.assert_frame_equal(sorted_edges(G), sorted_edges(build(edges, layout, False)))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_bfs_converts_in_lists_in_place(edges, layout):
    G = build(edges, layout, True)
    before = sorted_edges(G)
    result = cgc.bfs(G, start=5).sort_values("vertex").reset_index(drop=True)
    assert not G._in_lists  # converted once, and kept
    G.validate()
    pd.testing.assert_frame_equal(sorted_edges(G), before)
    check_against_scipy(edges, result, True, [5])


@pytest.mark.parametrize("layout", LAYOUTS)
def test_sssp_on_in_lists(edges, layout):
    G = build(edges, layout, True)
    n = G.number_of_vertices()
    result = cgc.sssp(G, 7).sort_values("vertex")
    expected = dijkstra(weighted_adjacency(edges, n, True), indices=7)
    dist = result["distance"].to_numpy(np.float64)
    reached = np.isfinite(expected)
    assert np.array_equal(dist < 3e38, reached)
    assert np.allclose(dist[reached], expected[reached], rtol=1e-6)
