"""GPU SSSP predecessors: recorded by the relaxation (float32 weights, int32 ids) or named
afterwards (float64 weights), against SciPy on every layout (run with -m gpu on a GPU host)."""
import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu
DEVICE_LAYOUTS = cgc.supported()["sssp"]["device"]


def weighted_edges(dtype):
    """An R-MAT graph, one weight per (source, destination), small integers and zeros among
    them so that equal distances (ties between predecessors) are common."""
    df = rmat_edgelist(11, seed=9).drop_duplicates(["source", "destination"], ignore_index=True)
    rng = np.random.default_rng(3)
    df["weight"] = rng.integers(0, 6, len(df)).astype(dtype)
    return df


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_predecessors_are_valid_and_distances_exact(layout, dtype):
    import cudf

    df = weighted_edges(dtype)
    n = int(max(df["source"].max(), df["destination"].max())) + 1
    G = cgc.CompressedGraph(directed=True, format=layout).from_cudf_edgelist(
        cudf.from_pandas(df), renumber=False, weight="weight")
    source = int(df["source"].iloc[0])
    r = cgc.sssp(G, source).to_pandas().sort_values("vertex")
    dist = r["distance"].to_numpy()
    pred = r["predecessor"].to_numpy().astype(np.int64)
    matrix = csr_matrix((df["weight"].astype(np.float64) + 0.0, (df["source"],
                                                                  df["destination"])),
                        shape=(n, n))
    matrix.data[matrix.data == 0] = 1e-300  # scipy drops explicit zeros: keep those edges
    want = dijkstra(matrix, indices=source)
    reached = np.isfinite(want)
    assert np.array_equal(dist[reached], want[reached].round().astype(dtype))
    assert (dist[~reached] == np.finfo(dtype).max).all() and (pred[~reached] == -1).all()
    assert pred[source] == -1
    weight = dict(zip(zip(df["source"].tolist(), df["destination"].tolist()), df["weight"]))
    inner = np.flatnonzero(reached & (np.arange(n) != source))
    for v in inner.tolist():
        u = int(pred[v])
        assert (u, v) in weight and dtype(dist[u] + weight[(u, v)]) == dist[v]
    if dtype == np.float32:  # recorded by one atomic minimum: the least qualifying predecessor
        ends = df["destination"].to_numpy()
        for v in inner[:200].tolist():
            sources = df["source"].to_numpy()[ends == v]
            weights = df["weight"].to_numpy()[ends == v]
            fits = sources[(dist[sources] + weights).astype(dtype) == dist[v]]
            assert pred[v] == fits.min()


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_traced_rounds_relax_every_reached_vertex(layout):
    """The rounds a traced GPU run records (what the benchmark's SSSP read count replays):
    the source first, then frontiers of distinct reached vertices, every reached vertex in at
    least one."""
    import cudf

    from cugraph_compressed.algorithms import ALGORITHMS
    from cugraph_compressed.algorithms.sssp import traced_rounds
    from cugraph_compressed.bench import reads

    df = weighted_edges(np.float32)
    G = cgc.CompressedGraph(directed=True, format=layout).from_cudf_edgelist(
        cudf.from_pandas(df), renumber=False, weight="weight")
    source = int(df["source"].iloc[0])
    out = cgc.sssp(G, source)
    dist = out.to_pandas().sort_values("vertex")["distance"].to_numpy()
    reached = np.flatnonzero(dist < np.finfo(np.float32).max)
    rounds = traced_rounds(G.view(), source)
    assert rounds[0].tolist() == [source]
    assert all(np.unique(r).size == r.size and np.isin(r, reached).all() for r in rounds)
    assert np.array_equal(np.unique(np.concatenate(rounds)), reached)
    # A count over recorded rounds: per round, the bytes of its lists and of their weights
    # (float32: 4 bytes an edge), from the extents and degrees alone.
    adjacency = G.view().adjacency("out")
    ext = reads.list_extents(adjacency.layout)
    begin, end, degree = (ext.begin.get(), ext.end.get(), ext.degree.get())
    counted = reads.sssp_reads(adjacency, ext, rounds)
    assert counted.passes == len(rounds)  # float32 weights, int32 ids: no predecessor pass
    assert counted.bytes == sum(int((end[r] - begin[r]).sum() + 4 * degree[r].sum())
                                for r in rounds)
    # The count of a timed run replays a traced run of its own from the source it is given:
    # at least every reached list and its weights once.
    got = reads.RunReads(G, ALGORITHMS["sssp"])(out, source)
    once = reads.pass_reads(ext, ext.xp.asarray(reached),
                            weights=reads.weight_extents(ext, 4))
    assert got.lines >= once.lines and got.bytes >= once.bytes
