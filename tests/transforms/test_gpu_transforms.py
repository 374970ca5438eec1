"""UDT and graph combing of device graphs, on every layout with a device view: the split graph
is the host build's bit for bit, and BFS, SSSP, PageRank and WCC on it equal cuGraph on the
original graph (graphs.GPU_GRAPHS: random, a hub of degree 120,000, karate)."""
import dataclasses

import numpy as np
import pytest
from graphs import (
    PAGERANK_ARGS,
    assert_same_graph,
    by_vertex,
    compressed_graph,
    cugraph_result,
    host_frame,
    num_vertices,
    start_vertex,
)
from transform_checks import check_against_cugraph

import cugraph_compressed as cgc
from cugraph_compressed.transforms import comb, udt

pytestmark = pytest.mark.gpu
DEVICE_LAYOUTS = cgc.supported()["bfs"]["device"]
TRANSFORMS = [(udt, {"degree_bound": 2}), (udt, {"degree_bound": 5}),
              (comb, {"threshold": 8, "width": 4})]
TRANSFORM_IDS = [f"{t.__name__}-{'-'.join(map(str, a.values()))}" for t, a in TRANSFORMS]
GRAPHS = ("random", "hub", "karate")
CASES = [(name, directed) for name in GRAPHS for directed in (True, False)]
CASE_IDS = [f"{name}-{'dir' if directed else 'undir'}" for name, directed in CASES]


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("transform, args", TRANSFORMS, ids=TRANSFORM_IDS)
def test_algorithms_match_cugraph_on_the_original(transform, args, case, layout):
    name, directed = case
    T = transform(compressed_graph(name, directed, layout), **args)
    assert T.backend == "device" and T.transform.added_vertices > 0
    assert T.number_of_vertices() == num_vertices(name)
    check_against_cugraph(T, name, directed)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["dir", "undir"])
@pytest.mark.parametrize("transform, args", TRANSFORMS, ids=TRANSFORM_IDS)
def test_device_split_equals_the_host_split(transform, args, directed, layout):
    """The device build of the split graph holds the host build's buffers, and its BFS with
    several starts and a depth limit (shortest paths over 0/1 costs on the GPU, levels closed
    over synthetic vertices on the host) gives the host's distances."""
    df = host_frame("random")
    host = cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(
        df, renumber=False, weight="weight")
    device = compressed_graph("random", directed, layout)
    T, H = transform(device, **args), transform(host, **args)
    assert_same_graph(T, H)
    # The same record, but where the bytes are: all on the host for a host graph.
    assert dataclasses.replace(T.transform, added_bytes_by_placement=None) == \
        dataclasses.replace(H.transform, added_bytes_by_placement=None)
    assert H.transform.added_bytes_by_placement == {"device": 0, "host": H.transform.added_bytes}
    starts = [start_vertex("random"), 3, 17]
    for limit in (None, 1, 3):
        mine = cgc.bfs(T, starts, depth_limit=limit).to_pandas().sort_values("vertex")
        theirs = cgc.bfs(H, starts, depth_limit=limit).sort_values("vertex")
        assert np.array_equal(mine["distance"].to_numpy(), theirs["distance"].to_numpy())


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_split_of_in_lists_runs_pagerank_like_cugraph(layout):
    name = "hub"
    T = udt(compressed_graph(name, True, layout, store_transposed=True), degree_bound=3)
    assert T.transform.lists == "in"
    ref = cugraph_result(name, True, "pagerank", store_transposed=True)
    result, _ = cgc.pagerank(T, **PAGERANK_ARGS)
    mine = by_vertex(result, num_vertices(name))
    assert np.abs(mine["pagerank"].astype(np.float64)
                  - ref["pagerank"].astype(np.float64)).sum() < 1e-5
    with pytest.raises(ValueError, match="needs out-lists"):
        cgc.bfs(T, start_vertex(name))


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("transform, args", TRANSFORMS, ids=TRANSFORM_IDS)
def test_int64_ids_wider_than_the_split_graph(transform, args, layout):
    """int64 user ids kept as they are (renumber=False) on a split graph whose own ids fit
    int32: BFS on it gives the untransformed graph's distances, in int64, with int64's maximum
    for the unreachable vertices (an island the start cannot reach)."""
    import cudf
    import pandas as pd

    df = host_frame("random")
    n = int(max(df["source"].max(), df["destination"].max())) + 1
    island = pd.DataFrame({"source": [n + 1], "destination": [n + 2], "weight": [1.0]})
    df = cudf.from_pandas(pd.concat([df, island], ignore_index=True).astype(
        {"source": np.int64, "destination": np.int64}))
    G = cgc.CompressedGraph(directed=True, format=layout).from_cudf_edgelist(
        df, renumber=False, weight="weight")
    T = transform(G, **args)
    start = start_vertex("random")
    mine = cgc.bfs(T, start).to_pandas().sort_values("vertex")
    theirs = cgc.bfs(G, start).to_pandas().sort_values("vertex")
    assert mine["distance"].dtype == np.int64
    assert (theirs["distance"] == np.iinfo(np.int64).max).any()
    assert np.array_equal(mine["distance"].to_numpy(), theirs["distance"].to_numpy())
