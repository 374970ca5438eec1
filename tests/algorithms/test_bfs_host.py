"""Host BFS against SciPy on varied graphs, through the public API."""
import numpy as np
import pandas as pd
import pytest
from graphs import check_against_scipy, random_edges

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist

LAYOUTS = sorted(cgc.FORMATS)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_graphs(directed, seed, layout):
    df = random_edges(300, 900, seed)
    G = cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(df,
                                                                                  renumber=False)
    sources = int(df["source"].iloc[0])
    result = cgc.bfs(G, start=sources)
    check_against_scipy(df, result, directed, sources, ids=np.arange(G.number_of_vertices()))
    assert list(result.columns) == ["vertex", "distance", "predecessor"]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
def test_rmat_scale_12(directed, layout):
    df = rmat_edgelist(12, seed=3)
    G = cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(df,
                                                                                  renumber=False)
    start = int(df["source"].iloc[0])
    result = cgc.bfs(G, start)
    check_against_scipy(df, result, directed, start, ids=np.arange(G.number_of_vertices()))
    assert result["distance"].dtype == np.int32  # the generator's ids are int32


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("depth_limit", [1, 2, 3])
def test_multi_source_and_depth_limit(depth_limit, layout):
    df = random_edges(500, 1200, 7)
    G = cgc.CompressedGraph(directed=True, format=layout).from_pandas_edgelist(df, renumber=False)
    sources = [3, 17, 17, 400]
    result = cgc.bfs(G, start=sources, depth_limit=depth_limit)
    check_against_scipy(df, result, True, sources, depth_limit,
                        ids=np.arange(G.number_of_vertices()))
    assert result["distance"].max() == np.iinfo(np.int64).max


@pytest.mark.parametrize("limit", [None, 0, -3])
def test_depth_limit_zero_or_negative_means_unlimited(limit):
    df = pd.DataFrame({"source": [0, 1, 2], "destination": [1, 2, 3]})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, renumber=False)
    assert cgc.bfs(G, 0, depth_limit=limit)["distance"].tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_isolated_vertices_and_gaps(layout):
    # renumber=False: ids 0..9 with gaps become isolated vertices.
    df = pd.DataFrame({"source": np.array([0, 2, 9], np.int32),
                       "destination": np.array([2, 9, 0], np.int32)})
    G = cgc.CompressedGraph(directed=True, format=layout).from_pandas_edgelist(df, renumber=False)
    result = cgc.bfs(G, 2)
    assert G.number_of_vertices() == 10
    check_against_scipy(df, result, True, 2, ids=np.arange(10))
    unreached = result["distance"] == np.iinfo(np.int32).max
    assert sorted(result["vertex"][unreached]) == [1, 3, 4, 5, 6, 7, 8]


def test_vertices_adds_isolated_vertices():
    df = pd.DataFrame({"source": [10, 20], "destination": [20, 30]})
    vertices = pd.Series([5, 10, 20, 30, 40])
    G = cgc.CompressedGraph().from_pandas_edgelist(df, vertices=vertices)
    result = cgc.bfs(G, 30)
    assert G.number_of_vertices() == 5
    check_against_scipy(df, result, False, 30, vertices=vertices)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_self_loops_and_multi_edges(layout):
    df = pd.DataFrame({"source": [0, 0, 0, 1, 1, 2], "destination": [0, 1, 1, 1, 2, 0]})
    for directed in (True, False):
        G = cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(
            df, renumber=False)
        check_against_scipy(df, cgc.bfs(G, 0), directed, 0, ids=np.arange(3))


def test_non_contiguous_int64_ids():
    base = random_edges(200, 700, 11)
    df = pd.DataFrame({"source": base["source"] * 1_000_003 + 2**40,
                       "destination": base["destination"] * 1_000_003 + 2**40})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df)
    start = int(df["source"].iloc[5])
    result = cgc.bfs(G, start)
    assert result["vertex"].dtype == np.int64 and result["distance"].dtype == np.int64
    check_against_scipy(df, result, True, start)


def test_string_ids():
    base = random_edges(100, 300, 12)
    df = pd.DataFrame({"source": "v" + base["source"].astype(str),
                       "destination": "v" + base["destination"].astype(str)})
    G = cgc.CompressedGraph(directed=False).from_pandas_edgelist(df)
    result = cgc.bfs(G, "v5" if "v5" in set(df["source"]) else df["source"].iloc[0])
    assert result["distance"].dtype == np.int32
    start = result["vertex"][result["distance"] == 0].iloc[0]
    reached = result["predecessor"].notna()
    fixed = result.assign(predecessor=result["predecessor"].where(reached, -1))
    check_against_scipy(df, fixed, False, start)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_forced_64_bit_layout(dtype):
    df = random_edges(250, 800, 13, dtype=dtype)
    G = cgc.CompressedGraph(directed=True, format="csr", force_64bit=True).from_pandas_edgelist(
        df, renumber=False)
    assert G._layout.offsets.dtype == np.int64 and G._layout.indices.dtype == np.int64
    result = cgc.bfs(G, 1)
    assert result["distance"].dtype == dtype
    check_against_scipy(df, result, True, 1, ids=np.arange(G.number_of_vertices()))


def test_empty_edge_list_with_vertices():
    df = pd.DataFrame({"source": np.array([], np.int32), "destination": np.array([], np.int32)})
    G = cgc.CompressedGraph().from_pandas_edgelist(df, vertices=np.array([4, 7], np.int32))
    result = cgc.bfs(G, 7)
    assert G.number_of_edges() == 0
    assert result.set_index("vertex")["distance"].to_dict() == {4: np.iinfo(np.int32).max, 7: 0}


def test_empty_graph_has_no_vertex_to_start_from():
    df = pd.DataFrame({"source": np.array([], np.int64), "destination": np.array([], np.int64)})
    G = cgc.CompressedGraph().from_pandas_edgelist(df, renumber=False)
    assert G.number_of_vertices() == 0
    with pytest.raises(ValueError, match="start vertex 0"):
        cgc.bfs(G, 0)


def test_return_predecessors_false_gives_null_predecessors():
    df = random_edges(50, 200, 14)
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, renumber=False)
    with_pred = cgc.bfs(G, 0)
    without = cgc.bfs(G, 0, return_predecessors=False)
    assert without["predecessor"].isna().all()
    assert without["predecessor"].dtype == "Int64"
    assert without["distance"].equals(with_pred["distance"])


def test_uint64_ids_above_2_53_come_back_exact():
    """Predecessors keep the id dtype (nullable where a start has none): ids above 2**53 are
    not rounded through float64, and each can be fed back as a start."""
    big = np.uint64(2**63 + 12345)
    ids = big + np.arange(3, dtype=np.uint64)
    df = pd.DataFrame({"source": ids[:2], "destination": ids[1:], "weight": [1.0, 2.0]})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, weight="weight")
    for result in (cgc.bfs(G, int(big)), cgc.sssp(G, int(big))):
        pred = result.set_index("vertex")["predecessor"]
        assert str(pred.dtype) == "UInt64"
        assert pred.isna().tolist() == [True, False, False]
        assert pred[ids[2]] == ids[1] and pred[ids[1]] == ids[0]
    again = cgc.bfs(G, cgc.bfs(G, int(big))["predecessor"].iloc[2])
    assert again.set_index("vertex")["distance"][ids[2]] == 1
