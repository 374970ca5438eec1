"""UDT and graph combing on the host backend: the split structure against the transforms'
definitions (a queue per list, groups per list) and every algorithm on the split graph against
SciPy and NetworkX on the original graph, on every layout, directed and undirected."""
import pickle
from collections import deque

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from graphs import SMALL_GRAPHS, small_graph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from transform_checks import build, check_all, hub_edges, random_hub_edges, reference_pagerank

import cugraph_compressed as cgc
from cugraph_compressed.graph_view import ANY
from cugraph_compressed.transforms import Transform, TransformedGraph, comb, udt

LAYOUTS = sorted(cgc.FORMATS)
#: (transform, its arguments): UDT at degree bounds 2 to 5, and two combings.
TRANSFORMS = [(udt, {"degree_bound": k}) for k in (2, 3, 4, 5)] + [
    (comb, {"threshold": 3, "width": 2}), (comb, {"threshold": 0, "width": 5})]
TRANSFORM_IDS = [f"{t.__name__}-{'-'.join(map(str, a.values()))}" for t, a in TRANSFORMS]


def stored(G):
    """A graph's stored lists: ``{owner: [neighbours in stored order]}`` and the
    ``(owner, neighbour) -> weight`` of every stored edge."""
    adjacency = G.view().adjacency(ANY)
    owner, neighbour, slot = adjacency.layout.to_coo()
    lists = {}
    for o, v in zip(owner.tolist(), neighbour.tolist()):
        lists.setdefault(o, []).append(v)
    weights = adjacency.weights
    w = {} if weights is None else dict(zip(zip(owner.tolist(), neighbour.tolist()),
                                            weights[slot].tolist()))
    return lists, w, adjacency.layout.num_vertices


def expected_split(lists, n, transform, args):
    """The split edges by the transforms' own definitions: UDT pops ``K`` queued items under a
    new vertex, which joins the queue, while more than ``K`` remain; comb hangs groups of
    ``width`` neighbours under new vertices.  New vertices are numbered from ``n`` on, list
    after list in order, each list's in creation order."""
    edges, fresh = set(), n
    for v in sorted(lists):
        neighbours = lists[v]
        if transform is udt:
            k = args["degree_bound"]
            queue = deque(neighbours)
            while len(queue) > k:
                edges |= {(fresh, queue.popleft()) for _ in range(k)}
                queue.append(fresh)
                fresh += 1
            edges |= {(v, u) for u in queue}
        elif len(neighbours) > args["threshold"]:
            width = args["width"]
            for i in range(0, len(neighbours), width):
                edges.add((v, fresh))
                edges |= {(fresh, u) for u in neighbours[i:i + width]}
                fresh += 1
        else:
            edges |= {(v, u) for u in neighbours}
    return edges, fresh - n


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["dir", "undir"])
@pytest.mark.parametrize("transform, args", TRANSFORMS, ids=TRANSFORM_IDS)
def test_split_structure_follows_the_definition(transform, args, directed, layout):
    G = build(hub_edges(3), directed, layout)
    lists, weights, n = stored(G)
    T = transform(G, **args)
    assert isinstance(T, TransformedGraph) and T.format == G.format
    assert T.layout_params == G.layout_params and T.backend == "host"
    split, split_weights, total = stored(T)
    edges, added = expected_split(lists, n, transform, args)
    assert {(o, v) for o, vs in split.items() for v in vs} == edges
    record = T.transform
    assert record == Transform(kind=transform.__name__, params=args, lists="out",
                               original_vertices=n, added_vertices=added, added_edges=added,
                               added_bytes=T.nbytes - G.nbytes,
                               added_bytes_by_placement={"device": 0,
                                                         "host": T.nbytes - G.nbytes})
    assert total == n + added and added > 0
    assert T.nbytes == sum(T.nbytes_by_component().values())
    assert T.nbytes_by_component()["synthetic_roots"] == added * 4
    if transform is udt:
        assert max(len(vs) for vs in split.values()) <= args["degree_bound"]
    # New edges weigh 0; an edge into an original vertex keeps the weight of the original
    # edge from the root of its tree.
    parent = {v: o for o, vs in split.items() for v in vs if v >= n}

    def root(v):
        while v >= n:
            v = parent[v]
        return v

    for (o, v), w in split_weights.items():
        assert w == (0.0 if v >= n else weights[(root(o), v)])
    assert T.number_of_vertices() == G.number_of_vertices() == n
    assert T.number_of_edges() == G.number_of_edges()
    assert T.number_of_edges(directed_edges=True) == G.number_of_edges(directed_edges=True)
    assert T.nodes().tolist() == G.nodes().tolist()
    assert T.is_directed() == directed and T.is_weighted()
    assert bool(record.is_synthetic(n)) and not bool(record.is_synthetic(n - 1))


@pytest.mark.filterwarnings("ignore:Pagerank expects")
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["dir", "undir"])
@pytest.mark.parametrize("transform, args", TRANSFORMS, ids=TRANSFORM_IDS)
def test_algorithms_equal_the_original(transform, args, directed, layout):
    df = hub_edges(7)
    G = build(df, directed, layout)
    check_all(df, G, transform(G, **args), directed, start=1)


@pytest.mark.filterwarnings("ignore:Pagerank expects")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), n=st.integers(2, 60), m=st.integers(0, 200),
       hub=st.integers(0, 40), directed=st.booleans(), layout=st.sampled_from(LAYOUTS),
       which=st.integers(0, len(TRANSFORMS) - 1), depth=st.sampled_from([None, 1, 2, 3]))
def test_random_graphs_equal_the_original(seed, n, m, hub, directed, layout, which, depth):
    df = random_hub_edges(seed, n, m, hub)
    G = build(df, directed, layout)
    transform, args = TRANSFORMS[which]
    check_all(df, G, transform(G, **args), directed, start=0, depth_limit=depth)


@pytest.mark.filterwarnings("ignore:Pagerank expects")
@pytest.mark.parametrize("layout", ["csr", "fl"])
def test_hub_of_degree_100000_in_pieces(layout):
    """A hub of 10**5 out- and in-neighbours, built and split under a budget small enough that
    the split graph is written in several vertex ranges from several pieces."""
    n = 100_001
    spokes = np.arange(1, n)
    df = pd.DataFrame({"source": np.r_[np.zeros(n - 1, np.int64), spokes, [5, 7]],
                       "destination": np.r_[spokes, np.zeros(n - 1, np.int64), [7, 9]]})
    df["weight"] = np.float32(1.0) + (df["destination"].to_numpy() % 7).astype(np.float32)
    G = cgc.CompressedGraph(directed=True, format=layout).from_edge_chunks(
        [df], renumber=False, weight="weight", memory_budget=1 << 22)
    T = udt(G, degree_bound=2)
    assert T.build_stats["ranges"] > 1 and T.build_stats["pieces"] > 1
    assert T.transform.added_vertices == n - 1 - 2  # the hub's tree: d - 2 vertices
    result = cgc.bfs(T, 5).sort_values("vertex")
    expected = cgc.bfs(G, 5).sort_values("vertex")
    assert np.array_equal(result["distance"], expected["distance"])
    assert np.array_equal(result["predecessor"].to_numpy()[[0, 99, 7, 9]], [5, 0, 5, 7])
    paths = cgc.sssp(T, 0).sort_values("vertex")["distance"].to_numpy()
    assert np.array_equal(paths, cgc.sssp(G, 0).sort_values("vertex")["distance"].to_numpy())
    # A star: the iteration swings between the hub and the spokes for a while.
    (mine, done), (theirs, also) = (cgc.pagerank(g, tol=1e-10, fail_on_nonconvergence=False)
                                    for g in (T, G))
    assert done == also
    assert np.abs(mine.sort_values("vertex")["pagerank"].to_numpy(np.float64)
                  - theirs.sort_values("vertex")["pagerank"].to_numpy(np.float64)).sum() <= 1e-6


@pytest.mark.filterwarnings("ignore:Pagerank expects")
def test_multiple_starts_and_user_ids():
    """Renumbered string ids: results come back in them, equal to the original's."""
    df = hub_edges(5)
    names = {v: f"v{v:03d}" for v in range(120)}
    named = df.assign(source=df["source"].map(names), destination=df["destination"].map(names))
    G = cgc.CompressedGraph(directed=True, format="cgr").from_pandas_edgelist(
        named, weight="weight")
    T = comb(G, threshold=2, width=3)
    starts = ["v001", "v050"]
    mine = cgc.bfs(T, starts, depth_limit=2).sort_values("vertex").reset_index(drop=True)
    theirs = cgc.bfs(G, starts, depth_limit=2).sort_values("vertex").reset_index(drop=True)
    assert mine["vertex"].tolist() == theirs["vertex"].tolist()
    assert np.array_equal(mine["distance"], theirs["distance"])
    paths = cgc.sssp(T, "v001").sort_values("vertex")
    assert np.allclose(paths["distance"], cgc.sssp(G, "v001").sort_values("vertex")["distance"])
    expected = cgc.sssp(G, "v001").sort_values("vertex")["predecessor"]
    assert paths["predecessor"].isna().tolist() == expected.isna().tolist()
    assert set(paths["predecessor"].dropna()) <= set(names.values())
    assert T.has_node("v001") and not T.has_node("nope")


@pytest.mark.filterwarnings("ignore:Pagerank expects")
@pytest.mark.parametrize("case", sorted(SMALL_GRAPHS))
def test_small_graphs(case):
    df, kwargs = small_graph(case)
    for directed in (True, False):
        G = cgc.CompressedGraph(directed=directed).from_pandas_edgelist(df, **kwargs)
        T = udt(G, degree_bound=2)
        assert T.transform.added_vertices == 0 and T.number_of_vertices() == len(G.nodes())
        if len(G.nodes()):
            start = int(G.nodes()[0])
            assert np.array_equal(cgc.bfs(T, start)["distance"], cgc.bfs(G, start)["distance"])
            assert np.array_equal(cgc.sssp(T, start)["distance"],
                                  cgc.sssp(G, start)["distance"])
        assert np.allclose(cgc.pagerank(T)["pagerank"], cgc.pagerank(G)["pagerank"])
        if not directed:
            assert np.array_equal(cgc.weakly_connected_components(T)["labels"],
                                  cgc.weakly_connected_components(G)["labels"])


def test_transposed_graph_splits_in_lists():
    """A directed graph stored transposed has its in-lists split: PageRank (pull over split
    in-lists) keeps its scores, BFS and SSSP refuse the graph."""
    df = hub_edges(9)
    G = build(df, True, "fl", store_transposed=True)
    T = udt(G, degree_bound=3)
    assert T.transform.lists == "in" and T.transform.added_vertices > 0
    expected = reference_pagerank(df, True, G.number_of_vertices())
    scores = cgc.pagerank(T, tol=1e-10).sort_values("vertex")["pagerank"].to_numpy(np.float64)
    assert np.abs(scores - expected).sum() <= 1e-6
    for call in (lambda: cgc.bfs(T, 1), lambda: cgc.sssp(T, 1)):
        with pytest.raises(ValueError, match="needs out-lists.*store_transposed=False"):
            call()
    assert G.store_transposed and cgc.bfs(G, 1) is not None  # the original is untouched


def test_bad_arguments_and_refused_queries():
    df = hub_edges(1)
    G = build(df, False, "csr")
    with pytest.raises(ValueError, match=r"degree_bound must be in \[2, 2\*\*62\], got 1"):
        udt(G, degree_bound=1)
    with pytest.raises(TypeError, match="degree_bound must be an integer"):
        udt(G, degree_bound=2.5)
    with pytest.raises(ValueError, match=r"width must be in \[1, 2\*\*62\], got 0"):
        comb(G, threshold=4, width=0)
    with pytest.raises(ValueError, match=r"threshold must be in \[0, 2\*\*62\], got -1"):
        comb(G, threshold=-1, width=2)
    for big in (2**62 + 1, 2**64):  # past int64's arithmetic on degrees: named, not crashed
        with pytest.raises(ValueError, match=rf"degree_bound must be .*, got {big}"):
            udt(G, degree_bound=big)
        with pytest.raises(ValueError, match=rf"width must be .*, got {big}"):
            comb(G, threshold=4, width=big)
    assert udt(G, degree_bound=2**62).transform.added_vertices == 0  # every list fits
    assert comb(G, threshold=2**62, width=2).transform.added_vertices == 0
    with pytest.raises(TypeError, match="takes a CompressedGraph"):
        udt(nx.Graph(), degree_bound=2)
    with pytest.raises(NotImplementedError, match="load is not defined on a transformed graph"):
        TransformedGraph.load("any.cgc")
    with pytest.raises(ValueError, match="empty"):
        udt(cgc.CompressedGraph(), degree_bound=2)
    T = udt(G, degree_bound=2)
    with pytest.raises(TypeError, match="already a udt graph"):
        comb(T, threshold=1, width=2)
    for query in (T.view_edge_list, T.degrees, lambda: T.neighbors(1), T.to_cugraph,
                  lambda: T.has_edge(1, 2), lambda: T.save("x"), T.in_degree, T.out_degree,
                  T.degree):
        with pytest.raises(NotImplementedError, match="not defined on a udt graph"):
            query()
    with pytest.raises(TypeError, match="cannot pickle a udt graph"):
        pickle.dumps(T)
    assert "udt" in repr(T) and "synthetic" in repr(T)


@pytest.mark.filterwarnings("ignore:Pagerank expects")
@pytest.mark.parametrize("layout", LAYOUTS)
def test_ids_widen_where_synthetic_vertices_pass_the_32_bit_bound(layout, monkeypatch):
    """With the bound on 32-bit ids lowered to 150 for the split (the original graph keeps
    int32 ids: 120 vertices), the split graph's internal ids are int64 while results keep the
    original vertex dtype and values."""
    df = hub_edges(13).astype({"source": np.int32, "destination": np.int32})
    G = build(df, False, layout)
    monkeypatch.setattr("cugraph_compressed._idset.INT32_MAX", 150)
    T = udt(G, degree_bound=2)
    monkeypatch.undo()
    assert G.number_of_vertices() + T.transform.added_vertices > 150
    assert T.view().adjacency(ANY).vertex_dtype == np.int64 and G.vertex_dtype == np.int32
    assert T.nbytes_by_component()["synthetic_roots"] == 8 * T.transform.added_vertices
    for call in (lambda g: cgc.bfs(g, [1, 5], depth_limit=3), lambda g: cgc.sssp(g, 1),
                 cgc.weakly_connected_components):
        mine, theirs = call(T), call(G)
        for column in mine.columns:
            assert mine[column].dtype == theirs[column].dtype, column
        assert np.allclose(mine.iloc[:, 1], theirs.iloc[:, 1])
    mine, theirs = (cgc.pagerank(g, tol=1e-10)["pagerank"].to_numpy(np.float64) for g in (T, G))
    assert np.abs(mine - theirs).sum() <= 1e-6


@pytest.mark.filterwarnings("ignore:Pagerank expects")
def test_auto_format_graph_keeps_its_chosen_layout():
    df = hub_edges(2)
    G = cgc.CompressedGraph(directed=True, format="auto").from_pandas_edgelist(
        df, renumber=False, weight="weight")
    T = comb(G, threshold=4, width=4)
    assert T.format == G.format != "auto" and T.layout_params == G.layout_params
    check_all(df, G, T, True, start=1)


@pytest.mark.parametrize("transform, args", TRANSFORMS[:1] + TRANSFORMS[-1:],
                         ids=TRANSFORM_IDS[:1] + TRANSFORM_IDS[-1:])
def test_added_bytes_leave_out_the_in_lists_kept_beside(transform, args):
    """A graph stored transposed, re-oriented for BFS under directed_bottom_up, keeps its old
    in-lists beside its new out-lists; a transform splits the out-lists, so its added bytes
    are against the graph without those in-lists."""
    G = build(hub_edges(5), True, "ef", store_transposed=True)
    G.traversal = cgc.TraversalConfig(directed_bottom_up=True)
    cgc.bfs(G, 1)
    beside = G.nbytes_by_component()["in_lists_beside"]
    assert beside > 0
    T = transform(G, **args)
    assert T.transform.added_bytes == T.nbytes - (G.nbytes - beside)
    assert T.transform.added_bytes_by_placement == {"device": 0,
                                                    "host": T.nbytes - (G.nbytes - beside)}
