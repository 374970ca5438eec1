"""The virtual split and the transforms of host-placed graphs on the GPU: every algorithm on
every layout, strided and contiguous parts, part sizes from 1 to above the largest degree,
against cuGraph on the untransformed graph (graphs.GPU_GRAPHS: random, a hub of degree
120,000, karate) and against the host reference (the same graph built from pandas); a
transform of a host-placed graph keeps its per-edge buffers in pinned host memory."""

import numpy as np
import pytest
from graphs import (
    compressed_graph,
    device_frame,
    host_frame,
    start_vertex,
)
from transform_checks import check_against_cugraph

import cugraph_compressed as cgc
from cugraph_compressed.transforms import comb, udt, virtual_split

pytestmark = [pytest.mark.gpu, pytest.mark.filterwarnings("ignore:Pagerank expects")]
DEVICE_LAYOUTS = cgc.supported()["bfs"]["device"]
GRAPHS = ("random", "hub", "karate")
CASES = [(name, directed) for name in GRAPHS for directed in (True, False)]
CASE_IDS = [f"{name}-{'dir' if directed else 'undir'}" for name, directed in CASES]
#: (part size, coalesce); 10**6 is above every list of GPU_GRAPHS (the hub has 120,000).
SPLITS = [(1, True), (8, True), (8, False), (10**6, True)]


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("part_size, coalesce", SPLITS)
def test_virtual_split_matches_cugraph_on_the_original(part_size, coalesce, case, layout):
    name, directed = case
    V = virtual_split(compressed_graph(name, directed, layout), part_size=part_size,
                      coalesce=coalesce)
    assert V.backend == "device" and V.transform.added_bytes == 0
    assert V.transform.params["strided"] == (coalesce and layout != "cgr")
    check_against_cugraph(V, name, directed)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["dir", "undir"])
@pytest.mark.parametrize("part_size, coalesce", [(3, True), (3, False)])
def test_virtual_split_equals_the_host_reference(part_size, coalesce, directed, layout):
    """Distances, WCC labels (smallest vertex of each component) and PageRank of the device
    passes equal the host's over the same parts, several starts and depth limits included."""
    df = host_frame("random")
    H = virtual_split(cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(
        df, renumber=False, weight="weight"), part_size=part_size, coalesce=coalesce)
    D = virtual_split(compressed_graph("random", directed, layout), part_size=part_size,
                      coalesce=coalesce)
    assert D.transform.added_vertices == H.transform.added_vertices
    starts = [start_vertex("random"), 3, 17]
    for limit in (None, 1, 3):
        mine = cgc.bfs(D, starts, depth_limit=limit).to_pandas().sort_values("vertex")
        theirs = cgc.bfs(H, starts, depth_limit=limit).sort_values("vertex")
        assert np.array_equal(mine["distance"].to_numpy(), theirs["distance"].to_numpy())
    mine = cgc.sssp(D, starts[0]).to_pandas().sort_values("vertex")["distance"].to_numpy()
    theirs = cgc.sssp(H, starts[0]).sort_values("vertex")["distance"].to_numpy()
    assert np.allclose(mine, theirs, rtol=1e-5)
    mine = cgc.pagerank(D, tol=1e-10).to_pandas().sort_values("vertex")["pagerank"]
    theirs = cgc.pagerank(H, tol=1e-10).sort_values("vertex")["pagerank"]
    assert np.abs(mine.to_numpy(np.float64) - theirs.to_numpy(np.float64)).sum() <= 1e-6
    if not directed:
        mine = cgc.weakly_connected_components(D).to_pandas().sort_values("vertex")
        theirs = cgc.weakly_connected_components(H).sort_values("vertex")
        assert np.array_equal(mine["labels"].to_numpy(), theirs["labels"].to_numpy())


def host_placed(name, directed, layout):
    G = cgc.CompressedGraph(directed=directed, format=layout, placement="host")
    return G.from_cudf_edgelist(device_frame(name).copy(deep=False), renumber=False,
                                weight="weight")


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["dir", "undir"])
@pytest.mark.parametrize("transform, args", [(udt, {"degree_bound": 4}),
                                             (comb, {"threshold": 8, "width": 4}),
                                             (virtual_split, {"part_size": 8})],
                         ids=["udt", "comb", "virtual"])
def test_transform_of_a_host_placed_graph_stays_host_placed(transform, args, directed, layout):
    """The transform's per-edge buffers are in pinned host memory as the original's are, its
    added bytes are reported per placement, and its algorithms answer as cuGraph does."""
    name = "hub"
    G = host_placed(name, directed, layout)
    T = transform(G, **args)
    assert T.placement == "host" and T.backend == "device"
    placed = T.nbytes_by_placement()
    assert placed["host"] > 0
    record = T.transform
    assert sum(record.added_bytes_by_placement.values()) == record.added_bytes
    original = G.nbytes_by_placement()
    assert record.added_bytes_by_placement == {p: placed[p] - original[p] for p in placed}
    if transform is virtual_split:
        assert placed == original
    else:  # the synthetic edges' payload went to the host, their roots to the GPU
        assert record.added_bytes_by_placement["host"] > 0
    check_against_cugraph(T, name, directed)


def test_a_virtual_split_leaves_the_original_its_budget_draw():
    """A virtual split shares the original's buffers and none of its memory-budget draw.  Of
    an original stored transposed, it is re-oriented for BFS into out-lists of its own, drawn
    under a token of its own and given back when it goes, while the original's draw stays as
    it was; its BFS over virtual vertices stays top-down and keeps no in-lists beside, even
    with directed_bottom_up."""
    import gc

    budget = cgc.MemoryBudget(1 << 36)
    G = cgc.CompressedGraph(directed=True, format="ef", memory_budget=budget)
    G.from_cudf_edgelist(device_frame("random").copy(deep=False), renumber=False,
                         weight="weight", store_transposed=True)
    used = budget.used
    assert budget.draws() == [used] and used > 0
    V = virtual_split(G, part_size=8)
    assert budget.draws() == [used]
    V.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    start = start_vertex("random")
    got = cgc.bfs(V, start).to_pandas().sort_values("vertex").reset_index(drop=True)
    assert not V._in_lists and G._in_lists  # V holds out-lists of its own now
    assert "reoriented" in V.build_stats and "reoriented" not in G.build_stats
    assert "in_lists_beside" not in V.nbytes_by_component()
    draws = budget.draws()
    assert len(draws) == 2 and used in draws
    plain = compressed_graph("random", True, "ef")
    want = cgc.bfs(plain, start).to_pandas().sort_values("vertex").reset_index(drop=True)
    assert np.array_equal(got["distance"].to_numpy(), want["distance"].to_numpy())
    del V, got
    gc.collect()
    assert budget.draws() == [used]
