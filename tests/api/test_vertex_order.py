"""``vertex_order="degree"`` on the host: internal ids are pandas' degree ranking of the input
(largest first, ties by id), results equal the sorted order's and SciPy's, in sorted user-id
rows, and the order survives saving, loading (version 1 files too), pickling and
re-orientation; bad arguments and damaged files raise."""
import copy
import pickle
import struct

import numpy as np
import pandas as pd
import pytest
from graphs import assert_identical_graphs, check_against_scipy, saved_parts, write_saved

import cugraph_compressed as cgc
from cugraph_compressed import SavedGraphError

pytestmark = pytest.mark.filterwarnings("ignore:Pagerank expects")  # out-lists warn, as cuGraph
LAYOUTS = sorted(cgc.FORMATS)


def edges(seed=7, n=300, m=2000, strings=False):
    """Random edges with a hub, parallel edges, self loops and degree ties; float32 weights."""
    rng = np.random.default_rng(seed)
    src = np.where(rng.random(m) < 0.2, 5, rng.integers(0, n, m))
    dst = rng.integers(0, n, m)
    df = pd.DataFrame({"source": (src * 7 + 3).astype(np.int64),  # ids with gaps
                       "destination": (dst * 7 + 3).astype(np.int64),
                       "weight": rng.integers(1, 9, m).astype(np.float32)})
    if strings:
        df[["source", "destination"]] = df[["source", "destination"]].map(lambda i: f"v{i:05d}")
    return df


def degree_ranking(df, directed, transposed=False, vertices=()):
    """The user ids in degree order, by pandas: each row counts for the owner of the list it
    is stored in (both ends of an undirected row), largest first, ties by id ascending."""
    ids = pd.concat([df["source"], df["destination"], pd.Series(list(vertices), dtype=object)])
    ids = np.sort(ids.astype(object).unique())
    owner = df["destination"] if transposed else df["source"]
    ends = owner if directed else pd.concat([df["source"], df["destination"]])
    degree = ends.value_counts().reindex(ids, fill_value=0).to_numpy()
    frame = pd.DataFrame({"id": ids, "degree": degree})
    return frame.sort_values(["degree", "id"], ascending=[False, True])["id"].tolist()


def build(df, directed, fmt="csr", order="degree", **kwargs):
    G = cgc.CompressedGraph(directed=directed, format=fmt, vertex_order=order)
    return G.from_pandas_edgelist(df, weight="weight", **kwargs)


def partition(frame):
    """WCC labels as a set of vertex sets (labels themselves are internal ids)."""
    return {frozenset(group) for group in frame.groupby("labels")["vertex"].apply(list)}


# -- the order ----------------------------------------------------------------------------------
@pytest.mark.parametrize("directed, transposed", [(True, False), (True, True), (False, False)])
@pytest.mark.parametrize("strings", [False, True])
def test_internal_ids_are_the_pandas_degree_ranking(directed, transposed, strings):
    df = edges(strings=strings)
    extra = ["zzz"] if strings else [10**6]  # an isolated vertex: degree 0, last
    G = cgc.CompressedGraph(directed=directed, vertex_order="degree")
    ranking = degree_ranking(df, directed, transposed, extra)
    G.from_pandas_edgelist(df, store_transposed=transposed,
                           vertices=pd.Series(sorted(ranking), dtype=df["source"].dtype))
    assert ranking[-1] == extra[0] and G.vertex_order == "degree"
    internal = G.lookup_internal_vertex_id(pd.Series(ranking))
    assert internal.tolist() == list(range(len(ranking)))
    assert G.nodes().tolist() == sorted(ranking)  # results keep sorted user ids
    frame = G.unrenumber(pd.DataFrame({"i": np.arange(len(ranking))}), "i")
    assert frame["i"].tolist() == ranking


def test_degree_counts_rows_with_their_repeats():
    # 0 has two distinct out-neighbours given five times, 1 has three given once each: the
    # input degree (5 > 3) puts 0 first, the deduplicated one would put 1 first.
    df = pd.DataFrame({"source": [0, 0, 0, 0, 0, 1, 1, 1],
                       "destination": [2, 2, 2, 2, 3, 2, 3, 4], "weight": 1.0})
    G = build(df, directed=True)
    assert G.lookup_internal_vertex_id([0, 1, 2, 3, 4]).tolist() == [0, 1, 2, 3, 4]
    G = build(df.assign(source=df["source"].map({0: 1, 1: 0})), directed=True)
    assert G.lookup_internal_vertex_id([1, 0]).tolist() == [0, 1]


# -- results ------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
def test_results_equal_the_sorted_order(fmt, directed):
    df = edges(strings=not directed)
    start = df["source"].iloc[3]
    D, S = build(df, directed, fmt), build(df, directed, fmt, order="sorted")
    assert D.number_of_edges() == S.number_of_edges()
    for call in (lambda G: cgc.bfs(G, start), lambda G: cgc.bfs(G, [start, df["source"].iloc[9]],
                                                                depth_limit=2),
                 lambda G: cgc.sssp(G, start)):
        mine, sorted_ = call(D), call(S)
        assert list(mine.columns) == list(sorted_.columns)
        pd.testing.assert_series_equal(mine["vertex"], sorted_["vertex"])
        pd.testing.assert_series_equal(mine["distance"], sorted_["distance"])
    check_against_scipy(df, cgc.bfs(D, start), directed, start)
    picked = pd.unique(df["destination"])[:3]
    personalization = pd.DataFrame({"vertex": picked, "values": [1.0, 2.0, 0.5]})
    for kwargs in ({}, {"personalization": personalization}):
        mine, sorted_ = cgc.pagerank(D, tol=1e-10, **kwargs), cgc.pagerank(S, tol=1e-10, **kwargs)
        pd.testing.assert_series_equal(mine["vertex"], sorted_["vertex"])
        np.testing.assert_allclose(mine["pagerank"], sorted_["pagerank"], rtol=1e-4, atol=1e-7)
    if not directed:
        assert partition(cgc.weakly_connected_components(D)) == \
            partition(cgc.weakly_connected_components(S))
    stored = D.view_edge_list()
    expected = S.view_edge_list()
    key = ["source", "destination"]
    if not directed:  # each edge once, its direction set by the internal ids
        for frame in (stored, expected):
            low = frame[key].min(axis=1)
            frame["destination"] = frame[key].max(axis=1)
            frame["source"] = low
    pd.testing.assert_frame_equal(stored.sort_values(key, ignore_index=True),
                                  expected.sort_values(key, ignore_index=True))


def test_predecessors_are_valid_in_user_ids():
    df = edges()
    start = int(df["source"].iloc[0])
    frame = cgc.sssp(build(df, True, "ef"), start)
    weights = df.groupby(["source", "destination"])["weight"].min()
    reached = frame[(frame["predecessor"] != -1)]
    distance = frame.set_index("vertex")["distance"]
    for v, d, p in reached[["vertex", "distance", "predecessor"]].itertuples(index=False):
        assert np.isclose(distance[p] + weights[(p, v)], d)


def test_store_transposed_graph_keeps_its_order_when_reoriented():
    df = edges()
    G = build(df, True, "cgr", store_transposed=True)
    ranking = degree_ranking(df, True, transposed=True)
    start = int(df["source"].iloc[0])
    mine, expected = cgc.bfs(G, start), cgc.bfs(build(df, True, "cgr"), start)
    pd.testing.assert_frame_equal(mine[["vertex", "distance"]], expected[["vertex", "distance"]])
    check_against_scipy(df, mine, True, start)
    assert not G._in_lists  # re-encoded as out-lists, ids unchanged
    assert G.lookup_internal_vertex_id(pd.Series(ranking)).tolist() == list(range(len(ranking)))


def test_degree_order_through_read_edgelist_and_auto(tmp_path):
    df = edges()
    path = tmp_path / "edges.csv"
    df.to_csv(path, index=False)
    G = cgc.read_edgelist(path, directed=True, layout="fl", vertex_order="degree",
                          backend="host", chunk_bytes=4096)
    assert G.vertex_order == "degree"
    assert G.lookup_internal_vertex_id(pd.Series(degree_ranking(df, True))).tolist() == \
        list(range(G.number_of_vertices()))
    A = cgc.CompressedGraph(directed=False, format="auto", vertex_order="degree")
    A.from_pandas_edgelist(df, weight="weight")
    assert A.nbytes == min(A.format_choice["nbytes"].values()) or A.format_choice["reason"]
    assert cgc.estimate_nbytes(df, format=A.format, directed=False, weight="weight",
                               vertex_order="degree") == A.nbytes


def test_nbytes_count_the_order():
    df = edges()
    D, S = build(df, False, "ef"), build(df, False, "ef", order="sorted")
    n = D.number_of_vertices()
    parts = D.nbytes_by_component()
    assert parts["vertex_order"] == n * 4 and "vertex_order" not in S.nbytes_by_component()
    assert parts["renumber_map"] == S.nbytes_by_component()["renumber_map"]
    assert cgc.estimate_nbytes(df, format="ef", weight="weight", vertex_order="degree") == \
        D.nbytes
    # repr names the order where it is not the default's.
    assert "vertex_order" not in repr(D) and "vertex_order='sorted'" in repr(S)


# -- arguments ----------------------------------------------------------------------------------
def test_bad_vertex_orders():
    with pytest.raises(TypeError, match="vertex_order must be a string.*got 1"):
        cgc.CompressedGraph(vertex_order=1)
    with pytest.raises(ValueError, match="vertex_order must be one of \\['sorted', 'degree'\\], "
                                         "got 'hubs'"):
        cgc.CompressedGraph(vertex_order="hubs")
    df = edges()
    G = cgc.CompressedGraph(vertex_order="degree")
    for call in (lambda: G.from_pandas_edgelist(df, renumber=False),
                 lambda: G.from_edge_chunks([df], renumber=False),
                 lambda: cgc.estimate_nbytes(df, renumber=False, vertex_order="degree")):
        with pytest.raises(ValueError, match="vertex_order='degree' needs renumber=True: with "
                                             "renumber=False the internal ids are the user's"):
            call()
    with pytest.raises(ValueError, match="the graph is empty"):
        G.view()
    cgc.CompressedGraph(vertex_order="sorted").from_pandas_edgelist(df, renumber=False)


def test_the_default_order_is_degree_when_renumbered_and_the_ids_when_not():
    df = edges()
    assert cgc.CompressedGraph().vertex_order is None  # resolved by the build
    G = cgc.CompressedGraph().from_pandas_edgelist(df, weight="weight")
    D = build(df, False, "csr", order="degree")
    assert G.vertex_order == "degree" and "vertex_order" not in repr(G)
    assert G.lookup_internal_vertex_id(G.nodes()).tolist() == \
        D.lookup_internal_vertex_id(D.nodes()).tolist()
    K = cgc.CompressedGraph().from_pandas_edgelist(df, weight="weight", renumber=False)
    assert K.vertex_order == "sorted" and not K.renumbered
    assert "vertex_order" not in repr(K)
    H = pickle.loads(pickle.dumps(cgc.CompressedGraph()))  # an empty graph keeps the default
    assert H.vertex_order is None
    assert H.from_pandas_edgelist(df).vertex_order == "degree"


def test_empty_and_edgeless_graphs():
    empty = pd.DataFrame({"source": pd.Series([], dtype=np.int64),
                          "destination": pd.Series([], dtype=np.int64)})
    G = cgc.CompressedGraph(vertex_order="degree").from_pandas_edgelist(empty)
    assert G.number_of_vertices() == 0 and G.lookup_internal_vertex_id([4]).isna().all()
    H = pickle.loads(pickle.dumps(G))
    assert H.vertex_order == "degree" and H.number_of_vertices() == 0
    G = cgc.CompressedGraph(vertex_order="degree").from_pandas_edgelist(
        empty, vertices=pd.Series([9, 2, 5]))
    assert G.lookup_internal_vertex_id([2, 5, 9]).tolist() == [0, 1, 2]  # ties: by id
    assert cgc.bfs(G, 5)["distance"].tolist() == [np.iinfo(np.int64).max, 0,
                                                  np.iinfo(np.int64).max]


# -- saving and pickling ------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", LAYOUTS)
def test_saved_and_pickled_graphs_keep_the_order(tmp_path, fmt):
    df = edges(strings=True)
    G = build(df, False, fmt)
    G.save(tmp_path / "g.cgc")
    copies = [cgc.CompressedGraph.load(tmp_path / "g.cgc"), pickle.loads(pickle.dumps(G)),
              copy.deepcopy(G)]
    start = df["source"].iloc[0]
    for H in copies:
        assert_identical_graphs(G, H)
        pd.testing.assert_frame_equal(cgc.bfs(H, start), cgc.bfs(G, start))
        assert partition(cgc.weakly_connected_components(H)) == \
            partition(cgc.weakly_connected_components(G))
    header, _ = saved_parts(tmp_path / "g.cgc")
    assert header["vertex_order"]["name"] == "degree"
    empty = pickle.loads(pickle.dumps(cgc.CompressedGraph(format=fmt, vertex_order="degree")))
    assert empty.vertex_order == "degree"


def test_version_1_files_still_load(tmp_path):
    df = edges()
    G = build(df, True, "ef", order="sorted")
    G.save(tmp_path / "g.cgc")
    header, buffers = saved_parts(tmp_path / "g.cgc")
    assert header.pop("vertex_order") is None
    write_saved(tmp_path / "v1.cgc", header, buffers, version=1)
    assert struct.unpack_from("<I", (tmp_path / "v1.cgc").read_bytes(), 8) == (1,)
    H = cgc.CompressedGraph.load(tmp_path / "v1.cgc")
    assert_identical_graphs(G, H)
    header["vertex_order"] = None  # a field version 1 does not have
    write_saved(tmp_path / "v1.cgc", header, buffers, version=1)
    with pytest.raises(SavedGraphError, match="fields this version does not know: "
                                              "\\['vertex_order'\\]"):
        cgc.CompressedGraph.load(tmp_path / "v1.cgc")


def _permutation_damage(h, b):
    data = bytearray(b["vertex_order/internal_of"])
    data[0:4] = data[4:8]  # a repeated internal id
    b["vertex_order/internal_of"] = bytes(data)


def _order_without_map(h, b):
    h["renumber_map"] = None
    h["buffers"] = [e for e in h["buffers"] if not e["name"].startswith("renumber_map")]


def _drop_order(h, b):
    del h["vertex_order"]


def _set_order(key, value):
    def mutate(h, b):
        h["vertex_order"][key] = value
    return mutate


@pytest.mark.parametrize("mutate, match", [
    (_permutation_damage, "internal_of names a int32 buffer of shape \\(301,\\) that is not a "
                          "permutation of 0 .. 300"),
    (_order_without_map, "vertex_order is given for a graph without a renumber map"),
    (_set_order("name", "random"), "vertex_order.name is 'random', not one of \\['degree'\\]"),
    (_set_order("extra", 1), "vertex_order holds fields this version does not know"),
    (_drop_order, "header field header.vertex_order is missing"),
])
def test_damaged_orders_raise(tmp_path, mutate, match):
    df = edges()
    ids = pd.concat([df["source"], df["destination"], pd.Series([99_999])]).unique()
    build(df, True, "csr", vertices=pd.Series(ids)).save(tmp_path / "g.cgc")
    header, buffers = saved_parts(tmp_path / "g.cgc")
    buffers = dict(buffers)
    mutate(header, buffers)
    write_saved(tmp_path / "g.cgc", header, buffers)
    with pytest.raises(SavedGraphError, match=match):
        cgc.CompressedGraph.load(tmp_path / "g.cgc")


def test_the_degree_pass_serves_the_range_split():
    """The order costs one counting pass, which a build over several vertex ranges reuses."""
    chunks = [edges(seed=s) for s in range(4)]
    for budget, extra in ((10**9, 1), (20_000, 0)):
        passes = {}
        for order in ("sorted", "degree"):
            G = cgc.CompressedGraph(directed=False, format="ef", vertex_order=order)
            G.from_edge_chunks(chunks, memory_budget=budget)
            passes[order] = G.build_stats["passes"]
        assert (G.build_stats["ranges"] > 1) == (extra == 0)
        assert passes["degree"] == passes["sorted"] + extra
