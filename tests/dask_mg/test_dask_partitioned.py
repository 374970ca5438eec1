"""The multi-worker graph (cugraph_compressed.dask) on a LocalCluster of host workers: every
algorithm and layout on 1-4 workers against the single graph's host backend and NetworkX, on
graphs whose hubs, isolated vertices and ids straddle the range cuts; what each worker holds;
the errors of the front doors."""
import logging
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed._backend import gpu_unavailable_reason

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
mg = pytest.importorskip("cugraph_compressed.dask")

LAYOUTS = sorted(cgc.FORMATS)
#: Id stride: ids are multiples of it, so with renumber=False the ids in between are isolated.
STRIDE = 3


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=4, threads_per_worker=1, processes=False,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    with dask.config.set({"dataframe.shuffle.method": "tasks"}), \
            distributed.Client(cluster) as c:
        yield c
    cluster.close()


def workers(client, k):
    return sorted(client.scheduler_info()["workers"])[:k]


def edge_frame(seed=0):
    """Random edges with self loops, parallel edges (weight ties among them), two hubs (one
    out, one in) and a few small components; ids are multiples of STRIDE."""
    rng = np.random.default_rng(seed)
    n = 300
    parts = [rng.integers(0, n, (700, 2)),
             np.column_stack([np.full(120, 7), rng.integers(0, n, 120)]),     # out-hub
             np.column_stack([rng.integers(0, n, 90), np.full(90, 211)]),     # in-hub
             np.array([[400, 401], [401, 402], [410, 410], [420, 421]]),      # small parts
             np.array([[3, 3], [5, 5]])]
    pairs = np.concatenate(parts)
    pairs = np.concatenate([pairs, pairs[:60]])  # parallel edges
    df = pd.DataFrame({"source": pairs[:, 0] * STRIDE, "destination": pairs[:, 1] * STRIDE})
    df["weight"] = rng.integers(1, 20, len(df)).astype(np.float32) / 4
    return df


def dask_frame(df, partitions=3):
    return dd.from_pandas(df, npartitions=partitions, sort=False)


def build(client, df, k, directed, layout="csr", **kwargs):
    G = mg.CompressedGraph(directed=directed, format=layout)
    kwargs.setdefault("weight", "weight")
    return G.from_dask_dataframe(dask_frame(df), workers=workers(client, k), **kwargs)


def computed(ddf):
    return ddf.compute().reset_index(drop=True)


def stored_weights(df, directed):
    """``{(source, destination): weight}`` of the graph built from ``df``: parallel edges keep
    the smallest weight; an undirected edge given both ways gets the mean of the two (pandas)."""
    forward = df.groupby(["source", "destination"])["weight"].min()
    if directed:
        return forward.to_dict()
    backward = forward.copy()
    backward.index = backward.index.swaplevel()
    both = pd.concat([forward, backward], axis=1, keys=["f", "b"])
    mean = ((both["f"] + both["b"]) / np.float32(2)).astype(np.float32)
    return mean.fillna(both["f"]).fillna(both["b"]).to_dict()


def check_predecessors(weights, result, hops):
    """Every reached vertex with a predecessor is one hop (BFS) or one edge's weight (SSSP)
    further than it along an edge of the graph."""
    unreachable = (np.iinfo(result["distance"].dtype).max if hops
                   else np.finfo(result["distance"].dtype).max)
    dist = dict(zip(result["vertex"], result["distance"]))
    has = result[result["predecessor"].notna() & (result["predecessor"] != -1)
                 & (result["distance"] < unreachable)]
    assert len(has)
    for v, p in zip(has["vertex"], has["predecessor"]):
        assert (p, v) in weights
        step = 1 if hops else np.float32(weights[(p, v)])
        assert dist[v] == pytest.approx(dist[p] + step, rel=1e-6)


#: (layout, directed, workers, with PageRank): every layout both ways, 1-4 workers each way;
#: PageRank (the most rounds) once per layout, on few workers, directed and undirected.
CASES = [("csr", True, 1, True), ("csr", False, 2, False), ("ef", True, 3, False),
         ("ef", False, 4, False), ("fl", True, 2, True), ("fl", False, 3, False),
         ("cgr", True, 4, False), ("cgr", False, 1, True)]


@pytest.mark.parametrize("layout,directed,k,with_pagerank", CASES,
                         ids=[f"{c[0]}-{'directed' if c[1] else 'undirected'}-{c[2]}"
                              for c in CASES])
def test_every_algorithm_matches_the_single_graph(client, layout, directed, k, with_pagerank):
    df = edge_frame(LAYOUTS.index(layout))
    G = build(client, df, k, directed, layout, renumber=False)
    single = cgc.CompressedGraph(directed=directed, format=layout).from_pandas_edgelist(
        df, weight="weight", renumber=False)
    assert G.number_of_vertices() == single.number_of_vertices()
    assert G.number_of_edges() == single.number_of_edges()
    assert len(G.vertex_ranges) == k and G.vertex_dtype == single.vertex_dtype
    assert G.exchange == "dask" and G.backend == "host"  # messages through Dask

    start = 7 * STRIDE  # the out-hub
    bfs = computed(mg.bfs(G, start))
    expected = cgc.bfs(single, start)
    pd.testing.assert_frame_equal(bfs[["vertex", "distance"]], expected[["vertex", "distance"]])
    weights = stored_weights(df, directed)
    check_predecessors(weights, bfs, hops=True)

    sssp = computed(mg.sssp(G, start))
    expected = cgc.sssp(single, start)
    pd.testing.assert_frame_equal(sssp[["vertex", "distance"]],
                                  expected[["vertex", "distance"]])
    check_predecessors(weights, sssp, hops=False)
    assert ((sssp["predecessor"] == -1) == (expected["predecessor"] == -1)).all()

    if with_pagerank:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # store_transposed
            ranks = computed(mg.pagerank(G))
            expected = cgc.pagerank(single)
        assert ranks["vertex"].tolist() == expected["vertex"].tolist()
        assert ranks["pagerank"].dtype == expected["pagerank"].dtype
        np.testing.assert_allclose(ranks["pagerank"], expected["pagerank"], rtol=1e-6,
                                   atol=1e-9)

    if not directed:
        labels = computed(mg.weakly_connected_components(G))
        pd.testing.assert_frame_equal(labels, cgc.weakly_connected_components(single))


def test_string_ids_against_networkx(client):
    df = edge_frame(5)
    df = df.assign(source="v" + df["source"].astype(str),
                   destination="v" + df["destination"].astype(str))
    G = build(client, df, 2, directed=False, layout="ef")
    single = cgc.CompressedGraph(directed=False, format="ef").from_pandas_edgelist(
        df, weight="weight")
    weights = stored_weights(df, directed=False)
    g = nx.Graph()
    g.add_weighted_edges_from((s, d, float(w)) for (s, d), w in weights.items())
    assert G.number_of_vertices() == g.number_of_nodes() == single.number_of_vertices()

    bfs = computed(mg.bfs(G, "v21"))
    assert dict(zip(bfs["vertex"], bfs["distance"])) == {
        v: nx.single_source_shortest_path_length(g, "v21").get(v, np.iinfo(np.int32).max)
        for v in g}
    assert bfs["vertex"].tolist() == cgc.bfs(single, "v21")["vertex"].tolist()
    check_predecessors(weights, bfs, hops=True)

    sssp = computed(mg.sssp(G, "v21"))
    lengths = nx.single_source_dijkstra_path_length(g, "v21")
    reached = sssp[sssp["distance"] < np.finfo(np.float32).max]
    assert dict(zip(reached["vertex"], reached["distance"])) == pytest.approx(lengths)

    labels = computed(mg.weakly_connected_components(G))
    ours = {frozenset(group["vertex"]) for _, group in labels.groupby("labels")}
    assert ours == {frozenset(c) for c in nx.connected_components(g)}

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ranks = computed(mg.pagerank(G, tol=1e-6))
    reference = nx.pagerank(g, tol=1e-10)
    assert max(abs(r - reference[v]) for v, r in zip(ranks["vertex"], ranks["pagerank"])) < 1e-6


def test_multi_source_depth_limited_bfs(client):
    df = edge_frame(2)
    G = build(client, df, 3, directed=True, layout="cgr", renumber=False)
    single = cgc.CompressedGraph(directed=True, format="cgr").from_pandas_edgelist(
        df, weight="weight", renumber=False)
    starts = [0, 211 * STRIDE, 400 * STRIDE, 0]
    for limit in (1, 2):
        got = computed(mg.bfs(G, starts, depth_limit=limit))
        expected = cgc.bfs(single, starts, depth_limit=limit)
        pd.testing.assert_frame_equal(got[["vertex", "distance"]],
                                      expected[["vertex", "distance"]])
    cut = computed(mg.sssp(G, 7 * STRIDE, cutoff=3.0))
    pd.testing.assert_frame_equal(cut[["vertex", "distance"]],
                                  cgc.sssp(single, 7 * STRIDE, cutoff=3.0)[["vertex", "distance"]])


def test_pagerank_inputs(client):
    """Personalization, start vector and out-weights as the single graph takes them (pandas or
    Dask frames), on 2 workers."""
    df = edge_frame(3)
    G = build(client, df, 2, directed=True, layout="ef", store_transposed=True)
    single = cgc.CompressedGraph(directed=True, format="ef").from_pandas_edgelist(
        df, weight="weight", store_transposed=True)
    vertices = single.nodes()
    rng = np.random.default_rng(1)
    personalization = pd.DataFrame({"vertex": vertices[::7], "values": rng.random(
        len(vertices[::7]))})
    nstart = pd.DataFrame({"vertex": vertices, "values": rng.random(len(vertices))})
    sums = single.view_edge_list().groupby("source")["weight"].sum()
    out_weight = pd.DataFrame({"vertex": sums.index, "sums": sums.to_numpy() * 2})
    for kwargs in ({"personalization": dd.from_pandas(personalization, npartitions=2)},
                   {"nstart": nstart, "max_iter": 200},
                   {"precomputed_vertex_out_weight": out_weight}):
        ours = computed(mg.pagerank(G, **kwargs))
        local = {k: v.compute() if hasattr(v, "npartitions") else v for k, v in kwargs.items()}
        expected = cgc.pagerank(single, **local)
        np.testing.assert_allclose(ours["pagerank"], expected["pagerank"], rtol=1e-6,
                                   atol=1e-9)
    ranks, converged = mg.pagerank(G, max_iter=2, fail_on_nonconvergence=False)
    assert converged is False and len(ranks.compute()) == G.number_of_vertices()
    with pytest.raises(cgc.FailedToConvergeError):
        mg.pagerank(G, max_iter=2)


@pytest.mark.parametrize("renumber", [True, False])
def test_more_workers_than_vertices(client, renumber):
    df = pd.DataFrame({"source": [5, 9], "destination": [9, 5], "weight": [1.0, 3.0]})
    G = build(client, df, 4, directed=False, layout="fl", renumber=renumber)
    single = cgc.CompressedGraph(directed=False, format="fl").from_pandas_edgelist(
        df, weight="weight", renumber=renumber)
    assert 0 in [v1 - v0 for v0, v1 in G.vertex_ranges]  # empty ranges
    pd.testing.assert_frame_equal(computed(mg.bfs(G, 9)), cgc.bfs(single, 9))
    pd.testing.assert_frame_equal(computed(mg.sssp(G, 9)), cgc.sssp(single, 9)[
        ["vertex", "distance", "predecessor"]])
    pd.testing.assert_frame_equal(computed(mg.weakly_connected_components(G)),
                                  cgc.weakly_connected_components(single))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        pd.testing.assert_frame_equal(computed(mg.pagerank(G)), cgc.pagerank(single))


def test_graph_without_edges(client):
    df = pd.DataFrame({"source": np.zeros(0, np.int64), "destination": np.zeros(0, np.int64)})
    G = build(client, df, 2, directed=True, weight=None)
    single = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df)
    assert G.number_of_vertices() == G.number_of_edges() == 0
    assert G.vertex_dtype == single.vertex_dtype
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert len(mg.pagerank(G).compute()) == 0
    with pytest.raises(ValueError, match="the graph has no vertices"):
        mg.bfs(G, 0)


def test_each_worker_holds_only_its_partition(client, monkeypatch):
    from cugraph_compressed.generators import rmat_edgelist

    df = rmat_edgelist(11, seed=4)
    df["weight"] = np.float32(1.5)
    k = 4
    # Buckets of 256 vertices: the cuts are placed by the second, per-vertex pass.
    monkeypatch.setattr("cugraph_compressed.dask.graph.BUCKETS_PER_WORKER", 2)
    G = build(client, df, k, directed=True, layout="ef")
    single = cgc.CompressedGraph(directed=True, format="ef").from_pandas_edgelist(
        df, weight="weight")
    facts = G.partition_facts()
    assert sorted(f["worker"] for f in facts) == workers(client, k)
    # The cuts are those of exact per-vertex edge counts (rows per source, in internal ids).
    from cugraph_compressed.dask.partition import cut_ranges

    ids = np.unique(np.concatenate([df["source"], df["destination"]]))
    counts = np.bincount(np.searchsorted(ids, df["source"]), minlength=ids.size)
    exact = cut_ranges(counts, ids.size, 1, k, {b: counts[b:b + 1] for b in range(ids.size)})
    assert [v0 for v0, _ in G.vertex_ranges] + [ids.size] == exact
    edges = [f["stored_edges"] for f in facts]
    assert sum(edges) == single.number_of_edges()
    # Balanced by edges: no range holds more than its share and one list.
    degrees = df.drop_duplicates(["source", "destination"]).groupby("source").size()
    assert max(edges) <= sum(edges) / k + degrees.max()

    keys = [future.key for future in G.workers.partitions]

    def measured(dask_worker):
        """The ranks of this graph's partitions in this worker's memory and their bytes,
        measured there."""
        return [(rank, p.nbytes, p.graph.number_of_vertices(), p.size,
                 p.graph.number_of_edges())
                for rank, p in ((keys.index(key), dask_worker.data[key])
                                for key in keys if key in dask_worker.data)]

    per_worker = client.run(measured, workers=workers(client, k))
    # Each rank's partition is in its own worker's memory, and nowhere else.
    assert {w: [h[0] for h in held] for w, held in per_worker.items()} == {
        f["worker"]: [rank] for rank, f in enumerate(facts)}
    held = [per_worker[f["worker"]][0][1:] for f in facts]
    assert sum(nbytes for nbytes, *_ in held) == G.nbytes
    for (nbytes, vertices, owned, stored), fact in zip(held, facts):
        # Lists of the range and its remote neighbours only: nothing over all V vertices.
        assert vertices <= owned + stored
        # The single graph's bytes per stored edge and per vertex, with slack for the
        # neighbours' entries and the local renumber map.
        share = single.nbytes * stored / max(single.number_of_edges(), 1)
        assert nbytes <= 3 * share + 16 * vertices + 4096
    assert G.nbytes < 3 * single.nbytes


def test_cuts_put_hubs_alone():
    from cugraph_compressed.dask.partition import cut_buckets, cut_ranges

    counts = np.array([1, 1, 50, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.int64)  # a hub at 2
    width = 4
    histogram = counts.reshape(-1, width).sum(axis=1)
    fine = {b: counts[b * width:(b + 1) * width] for b in cut_buckets(histogram, 3)}
    cuts = cut_ranges(histogram, counts.size, width, 3, fine)
    assert cuts[0] == 0 and cuts[-1] == counts.size and cuts == sorted(cuts)
    assert cuts[1] in (2, 3)  # the hub's range holds it and little else
    exact = cut_ranges(counts, counts.size, 1, 3, {b: counts[b:b + 1] for b in range(12)})
    assert exact == cuts


def test_errors_match_the_single_graph(client):
    df = edge_frame(1)
    G = build(client, df, 2, directed=True, renumber=False)
    single = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, weight="weight",
                                                                     renumber=False)
    for call, single_call in [(lambda: mg.bfs(G, 10**6), lambda: cgc.bfs(single, 10**6)),
                              (lambda: mg.sssp(G, -1), lambda: cgc.sssp(single, -1))]:
        with pytest.raises(ValueError) as ours:
            call()
        with pytest.raises(ValueError) as theirs:
            single_call()
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError, match="must be undirected"):
        mg.weakly_connected_components(G)
    with pytest.raises(TypeError, match="depth_limit"):
        mg.bfs(G, 0, depth_limit=1.5)
    with pytest.raises(RuntimeError, match="alpha"), pytest.warns(UserWarning,
                                                                  match="store_transposed"):
        mg.pagerank(G, alpha=2)
    twice = pd.DataFrame({"vertex": [3, 3], "values": [1.0, 2.0]})
    for call in (mg.pagerank, cgc.pagerank):
        with pytest.raises(ValueError, match="personalization lists vertex 3 more than once"), \
                pytest.warns(UserWarning, match="store_transposed"):
            call(G if call is mg.pagerank else single, personalization=twice)

    unweighted = build(client, df, 1, directed=False, weight=None)
    with pytest.raises(RuntimeError, match="requires the input graph to be weighted"):
        mg.sssp(unweighted, 0)
    strings = df.assign(source=df["source"].astype(str) + "x",
                        destination=df["destination"].astype(str) + "x")
    renumbered = build(client, strings, 2, directed=True)
    with pytest.raises(ValueError, match="start vertex 'nope' is not in the graph"):
        mg.bfs(renumbered, ["0x", "nope"])
    negative = df.assign(weight=df["weight"] - 1)
    with pytest.raises(ValueError, match="non-negative weights"):
        mg.sssp(build(client, negative, 2, directed=True, renumber=False), 0)
    # A vertex whose out-edges' weights sum past float64 would pass on no score at all.
    huge = pd.DataFrame({"source": [0, 1, 1], "destination": [1, 0, 2],
                         "weight": [1.0, 1.7e308, 1.7e308]})
    single = cgc.CompressedGraph(directed=True).from_pandas_edgelist(huge, weight="weight")
    for call, graph in ((mg.pagerank, build(client, huge, 2, directed=True)),
                        (cgc.pagerank, single)):
        with pytest.raises(ValueError, match="out-weight .* is infinite"), \
                pytest.warns(UserWarning, match="store_transposed"):
            call(graph)


def test_other_names_go_to_cugraph_dask():
    try:
        import cugraph.dask as cugraph_dask
    except Exception:
        with pytest.raises(AttributeError, match="cugraph.dask, which the others are"):
            mg.katz_centrality  # noqa: B018
    else:
        assert mg.katz_centrality is cugraph_dask.katz_centrality
    assert cgc.dask is mg and mg.bfs.__module__ == "cugraph_compressed.dask.bfs"


def test_bad_input(client):
    df = edge_frame(1)
    G = mg.CompressedGraph()
    with pytest.raises(TypeError, match="dask.dataframe.DataFrame"):
        G.from_dask_dataframe(df)
    with pytest.raises(ValueError, match="placement"):
        mg.CompressedGraph(placement="gpu")
    with pytest.raises(NotImplementedError, match="vertex_order"):
        mg.CompressedGraph(vertex_order="degree")
    with pytest.raises(ValueError, match="backend='tpu' is not one of"):
        G.from_dask_dataframe(dask_frame(df), backend="tpu")
    with pytest.raises(ValueError, match="not a known layout"):
        mg.CompressedGraph(format="zip")
    with pytest.raises(ValueError, match="the graph is empty"):
        mg.bfs(G, 0)
    with pytest.raises(TypeError, match="CompressedGraph"):
        mg.bfs(cgc.CompressedGraph().from_pandas_edgelist(df), 0)
    with pytest.raises(ValueError, match="columns \\['nope'\\]"):
        G.from_dask_dataframe(dask_frame(df), destination="nope")
    with pytest.raises(NotImplementedError, match="edge ids"):
        G.from_dask_dataframe(dask_frame(df.assign(eid=1)), edge_id="eid")
    with pytest.raises(ValueError, match="workers"):
        G.from_dask_dataframe(dask_frame(df), workers=["tcp://nowhere:1"])
    with pytest.raises(ValueError, match="renumber=False vertex ids must be int32"):
        G.from_dask_dataframe(dask_frame(df.astype({"source": str, "destination": str})),
                              renumber=False)
    with pytest.raises(ValueError, match="vertex id -3 is negative"):
        G.from_dask_dataframe(dask_frame(df.assign(source=df["source"] - df["source"].min() - 3)),
                              renumber=False)
    nulls = df.astype({"source": "Int64"})
    nulls.loc[5, "source"] = pd.NA
    with pytest.raises(ValueError, match="source holds 1 null value"):
        G.from_dask_dataframe(dask_frame(nulls), workers=workers(client, 1))
    if gpu_unavailable_reason() is not None:
        with pytest.raises(RuntimeError, match="needs a usable GPU on every worker"):
            mg.CompressedGraph().from_dask_dataframe(dask_frame(df), backend="device")
    built = build(client, df, 1, directed=False)
    with pytest.raises(RuntimeError, match="already has values"):
        built.from_dask_dataframe(dask_frame(df))
