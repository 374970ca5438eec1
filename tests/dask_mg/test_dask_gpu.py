"""The multi-worker graph on GPU workers (dask_cuda's LocalCUDACluster, dask_cudf input,
placement="device") against cuGraph on the same edges."""
import warnings

import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist

LAYOUTS = sorted(cgc.FORMATS)


@pytest.fixture(scope="module")
def gpu_client():
    from cugraph_compressed._backend import gpu_unavailable_reason

    if gpu_unavailable_reason() is not None:
        yield None  # the GPU gate skips (or fails) each test
        return
    from dask_cuda import LocalCUDACluster
    from distributed import Client

    with LocalCUDACluster(n_workers=1) as cluster, Client(cluster) as client:
        yield client


def weighted_rmat(scale, seed):
    df = rmat_edgelist(scale, seed=seed)
    df["weight"] = np.random.default_rng(seed).integers(1, 9, len(df)).astype(np.float32)
    return df


def host(frame):
    return frame.compute().to_pandas().sort_values("vertex").reset_index(drop=True)


@pytest.mark.gpu
@pytest.mark.parametrize("layout", LAYOUTS)
def test_one_gpu_worker_matches_cugraph(gpu_client, layout):
    import cudf
    import cugraph
    import dask_cudf

    import cugraph_compressed.dask as mg

    df = weighted_rmat(11, LAYOUTS.index(layout))
    edges = cudf.from_pandas(df)
    G = mg.CompressedGraph(directed=False, format=layout)
    G.from_dask_cudf_edgelist(dask_cudf.from_cudf(edges, npartitions=3), weight="weight")
    assert G.backend == "device" and G.exchange == "dask"  # one worker: no NCCL needed
    ref = cugraph.Graph(directed=False)
    ref.from_cudf_edgelist(edges, source="source", destination="destination",
                           weight="weight")
    start = int(df["source"][0])

    ours = host(mg.bfs(G, start))
    theirs = cugraph.bfs(ref, start).to_pandas().sort_values("vertex").reset_index(drop=True)
    assert ours["vertex"].tolist() == theirs["vertex"].tolist()
    assert ours["distance"].tolist() == theirs["distance"].tolist()

    ours = host(mg.sssp(G, start))
    theirs = cugraph.sssp(ref, start).to_pandas().sort_values("vertex").reset_index(drop=True)
    np.testing.assert_allclose(ours["distance"], theirs["distance"], rtol=1e-6)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = host(mg.pagerank(G))
        theirs = cugraph.pagerank(ref).to_pandas().sort_values("vertex").reset_index(drop=True)
    np.testing.assert_allclose(ours["pagerank"], theirs["pagerank"], atol=1e-5)

    ours = host(mg.weakly_connected_components(G))
    theirs = cugraph.weakly_connected_components(ref).to_pandas()
    partition = {frozenset(g["vertex"]) for _, g in ours.groupby("labels")}
    assert partition == {frozenset(g["vertex"]) for _, g in theirs.groupby("labels")}


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
    assert ours["distance"].tolist() == expected["distance"].tolist()
    assert isinstance(expected, pd.DataFrame)
