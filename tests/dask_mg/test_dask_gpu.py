"""The multi-worker graph on GPU workers (dask_cuda's LocalCUDACluster, dask_cudf input,
placement="device"): every algorithm and layout on one worker against single-GPU cuGraph on the
same edges, and on two workers (messages through NCCL) against single-GPU cuGraph too
(cugraph.dask needs UCXX, which a host may lack; the reference only has to be right).  The
2-GPU tests carry ``multigpu`` and are deselected on hosts with fewer GPUs
(tests/dask_mg/conftest.py); run them with ``-m multigpu``."""
import warnings

import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist

LAYOUTS = sorted(cgc.FORMATS)


def cuda_client(workers):
    """A client of ``workers`` dask_cuda workers (None without a usable GPU: the GPU gate
    skips or fails each test), shuffling by tasks as the CPU tests do."""
    from cugraph_compressed._backend import gpu_unavailable_reason

    if gpu_unavailable_reason() is not None:
        yield None
        return
    import dask
    from dask_cuda import LocalCUDACluster
    from distributed import Client

    with dask.config.set({"dataframe.shuffle.method": "tasks"}), \
            LocalCUDACluster(n_workers=workers) as cluster, Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def gpu_client():
    yield from cuda_client(1)


@pytest.fixture(scope="module")
def two_gpu_client():
    yield from cuda_client(2)


def weighted_rmat(scale, seed):
    """R-MAT edges with one row per unordered pair and the smallest of its weights (pandas):
    which of several parallel weights cuGraph keeps is unspecified, and SSSP and PageRank
    read them."""
    df = rmat_edgelist(scale, seed=seed)
    df["weight"] = np.random.default_rng(seed).integers(1, 9, len(df)).astype(np.float32)
    low = np.minimum(df["source"], df["destination"])
    high = np.maximum(df["source"], df["destination"])
    df = df.assign(source=low, destination=high)
    return df.groupby(["source", "destination"], as_index=False)["weight"].min()


def host(frame):
    return frame.compute().to_pandas().sort_values("vertex").reset_index(drop=True)


def assert_same_results(ours, theirs, start):
    """Our four results (Dask frames) against a reference's (pandas, by vertex)."""
    got = host(ours["bfs"])
    ref = theirs["bfs"]
    assert got["vertex"].tolist() == ref["vertex"].tolist()
    assert got["distance"].tolist() == ref["distance"].tolist()
    # A predecessor is one level closer (ours may pick another of equal standing).
    level = dict(zip(ref["vertex"], ref["distance"]))
    reached = got[got["predecessor"] >= 0]
    assert all(level[p] + 1 == d for p, d in zip(reached["predecessor"], reached["distance"]))

    got, ref = host(ours["sssp"]), theirs["sssp"]
    assert got["vertex"].tolist() == ref["vertex"].tolist()
    np.testing.assert_allclose(got["distance"], ref["distance"], rtol=1e-6)

    got, ref = host(ours["pagerank"]), theirs["pagerank"]
    assert got["vertex"].tolist() == ref["vertex"].tolist()
    np.testing.assert_allclose(got["pagerank"], ref["pagerank"], atol=1e-5)

    got, ref = host(ours["wcc"]), theirs["wcc"]
    partition = {frozenset(g["vertex"]) for _, g in got.groupby("labels")}
    assert partition == {frozenset(g["vertex"]) for _, g in ref.groupby("labels")}


def run_ours(G, start):
    import cugraph_compressed.dask as mg

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PageRank's store_transposed hint
        return {"bfs": mg.bfs(G, start), "sssp": mg.sssp(G, start),
                "pagerank": mg.pagerank(G), "wcc": mg.weakly_connected_components(G)}


def by_vertex(frame):
    if hasattr(frame, "compute"):
        frame = frame.compute()
    return frame.to_pandas().sort_values("vertex").reset_index(drop=True)


def cugraph_results(df, start):
    """Single-GPU cuGraph's four results (pandas, by vertex) on the undirected weighted edges
    of pandas frame ``df``."""
    import cudf
    import cugraph

    ref = cugraph.Graph(directed=False)
    ref.from_cudf_edgelist(cudf.from_pandas(df), source="source", destination="destination",
                           weight="weight")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return {"bfs": by_vertex(cugraph.bfs(ref, start)),
                "sssp": by_vertex(cugraph.sssp(ref, start)),
                "pagerank": by_vertex(cugraph.pagerank(ref)),
                "wcc": by_vertex(cugraph.weakly_connected_components(ref))}


@pytest.mark.gpu
@pytest.mark.parametrize("layout", LAYOUTS)
def test_one_gpu_worker_matches_cugraph(gpu_client, layout):
    import cudf
    import dask_cudf

    import cugraph_compressed.dask as mg

    df = weighted_rmat(11, LAYOUTS.index(layout))
    edges = cudf.from_pandas(df)
    G = mg.CompressedGraph(directed=False, format=layout)
    G.from_dask_cudf_edgelist(dask_cudf.from_cudf(edges, npartitions=3), weight="weight")
    assert G.backend == "device" and G.exchange == "dask"  # one worker: no NCCL needed
    start = int(df["source"][0])
    assert_same_results(run_ours(G, start), cugraph_results(df, start), start)


@pytest.mark.gpu
@pytest.mark.multigpu
@pytest.mark.parametrize("layout", LAYOUTS)
def test_two_gpu_workers_match_cugraph(two_gpu_client, layout):
    """Two GPU workers exchanging through NCCL, against single-GPU cuGraph on the same
    edges."""
    import cudf
    import dask_cudf

    import cugraph_compressed.dask as mg

    df = weighted_rmat(12, 10 + LAYOUTS.index(layout))
    ddf = dask_cudf.from_cudf(cudf.from_pandas(df), npartitions=4).persist()
    G = mg.CompressedGraph(directed=False, format=layout)
    G.from_dask_cudf_edgelist(ddf, weight="weight")
    assert G.backend == "device" and G.exchange == "nccl"
    assert all(f["vertices"] for f in G.partition_facts())  # both ranks hold vertices
    start = int(df["source"][0])
    assert_same_results(run_ours(G, start), cugraph_results(df, start), start)


@pytest.mark.gpu
@pytest.mark.multigpu
def test_two_gpu_workers_directed_bfs_through_nccl(two_gpu_client):
    """A directed graph from pandas partitions built on the GPUs (backend="device") on two
    workers: BFS and PageRank equal the single graph's host backend."""
    import dask.dataframe as dd

    import cugraph_compressed.dask as mg

    df = weighted_rmat(10, 3)
    G = mg.CompressedGraph(directed=True, format="cgr")
    G.from_dask_dataframe(dd.from_pandas(df, npartitions=3), weight="weight",
                          backend="device")
    assert G.exchange == "nccl"
    single = cgc.CompressedGraph(directed=True, format="cgr").from_pandas_edgelist(
        df, weight="weight")
    start = int(df["source"][0])
    got = host(mg.bfs(G, start))
    expected = cgc.bfs(single, start).sort_values("vertex").reset_index(drop=True)
    assert got["distance"].tolist() == expected["distance"].tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        got = host(mg.pagerank(G))
        expected = cgc.pagerank(single).sort_values("vertex").reset_index(drop=True)
    np.testing.assert_allclose(got["pagerank"], expected["pagerank"], atol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("placement", ["device", "host"])
def test_pandas_partitions_built_on_the_gpu(gpu_client, placement):
    """Device graphs from pandas partitions, their per-edge buffers in GPU memory or in pinned
    host memory."""
    import dask.dataframe as dd

    import cugraph_compressed.dask as mg

    df = weighted_rmat(10, 7)
    G = mg.CompressedGraph(directed=True, format="ef", placement=placement)
    G.from_dask_dataframe(dd.from_pandas(df, npartitions=2), weight="weight", backend="device")
    assert G.backend == "device" and G.placement == placement
    single = cgc.CompressedGraph(directed=True, format="ef").from_pandas_edgelist(
        df, weight="weight")
    start = int(df["source"][0])
    ours = host(mg.bfs(G, start))
    expected = cgc.bfs(single, start)
    assert isinstance(expected, pd.DataFrame)
    expected = expected.sort_values("vertex").reset_index(drop=True)
    assert ours["vertex"].tolist() == expected["vertex"].tolist()
    assert ours["distance"].tolist() == expected["distance"].tolist()
