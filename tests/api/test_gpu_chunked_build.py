"""The streaming build on the GPU: the buffers of the host build (which the CPU tests prove equal
to the host reference encoder's) for every chunking, budget and chunk location; a build that
runs out of memory leaves no graph and no allocation behind."""
import gc

import numpy as np
import pytest

import cugraph_compressed as cgc
from cugraph_compressed.formats import FORMATS
from cugraph_compressed.generators import rmat_chunks

pytestmark = pytest.mark.gpu


def assert_same_buffers(G, H):
    assert G._layout.num_vertices == H._layout.num_vertices
    assert sorted(G._layout.arrays) == sorted(H._layout.arrays)
    for name, array in H._layout.arrays.items():
        got = G._layout.arrays[name]
        got = got.get() if hasattr(got, "get") else got
        assert got.dtype == array.dtype and np.array_equal(got, array), name
    for name, values in H._properties.items():
        assert np.array_equal(G._properties[name].get(), values), name
    assert np.array_equal(G.nodes().to_numpy(), H.nodes().to_numpy())


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("directed", [True, False])
def test_device_chunks_give_the_host_buffers(fmt, directed):
    host = rmat_chunks(12, 8, chunk_edges=10_000, seed=11, weighted=True)
    device = rmat_chunks(12, 8, chunk_edges=10_000, seed=11, weighted=True, backend="device")
    H = cgc.CompressedGraph(directed=directed, format=fmt).from_edge_chunks(host,
                                                                              weight="weight")
    for chunks, budget in ((device, None), (device, 1 << 20), (host, 1 << 20)):
        G = cgc.CompressedGraph(directed=directed, format=fmt)
        G.from_edge_chunks(chunks, weight="weight", backend="device", memory_budget=budget)
        assert G.backend == "device"
        assert_same_buffers(G, H)
        if budget is not None:
            assert G.build_stats["ranges"] > 1


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("renumber", [True, False])
def test_unweighted_device_chunks_give_the_host_buffers(fmt, directed, renumber):
    # Unweighted edges take the keyed gather: one kernel per piece on the device.
    host = rmat_chunks(12, 8, chunk_edges=10_000, seed=12)
    device = rmat_chunks(12, 8, chunk_edges=10_000, seed=12, backend="device")
    H = cgc.CompressedGraph(directed=directed, format=fmt).from_edge_chunks(host,
                                                                              renumber=renumber)
    for budget in (None, 1 << 18, 1 << 16):
        G = cgc.CompressedGraph(directed=directed, format=fmt)
        G.from_edge_chunks(device, renumber=renumber, memory_budget=budget)
        assert_same_buffers(G, H)
        if budget is not None:
            assert G.build_stats["ranges"] > 1


@pytest.mark.parametrize("weighted", [False, True])  # the keyed and the property gather
def test_device_range_with_more_edges_than_counted_is_refused(weighted):
    from test_chunked_build import swapped_after_counting

    from cugraph_compressed._source import ChunkError

    chunks = list(rmat_chunks(10, 16, chunk_edges=4000, seed=8, weighted=weighted,
                              backend="device"))
    G = cgc.CompressedGraph(directed=True, format="csr")
    with pytest.raises(ChunkError, match="more edges on a later pass"):
        G.from_edge_chunks(swapped_after_counting(chunks), memory_budget=1 << 16,
                           weight="weight" if weighted else None)
    with pytest.raises(ValueError, match="empty"):
        G.number_of_edges()


@pytest.mark.parametrize("type_dtype", [np.int16, np.int8])
@pytest.mark.parametrize("directed", [True, False])
def test_device_ranges_keep_the_earliest_of_equal_rows(directed, type_dtype):
    """Parallel edges of equal weight spread over chunks: every chunking and budget of the
    device build keeps the first row's edge id and type, as the host build of the frames does
    (the property gather copies rows in input order; its int64 ids and int16 or int8 types
    take the 8-, 2- and 1-byte copies).  The budgets give ranges of pieces of one block
    (1 << 16) and of several (1 << 20).  Undirected: the edges given both ways, as edge ids
    cannot be symmetrized."""
    import cudf
    import pandas as pd

    rng = np.random.default_rng(3)
    rows = 30_000
    df = pd.DataFrame({"source": rng.integers(0, 400, rows),
                       "destination": rng.integers(0, 400, rows),
                       "weight": rng.integers(0, 3, rows).astype(np.float32),
                       "edge_id": np.arange(rows, dtype=np.int64) * 7,
                       "edge_type": rng.integers(0, 50, rows).astype(type_dtype)})
    columns = dict(weight="weight", edge_id="edge_id", edge_type="edge_type")
    if not directed:
        swapped = df.rename(columns={"source": "destination", "destination": "source"})
        df = pd.concat([df, swapped], ignore_index=True)
        columns["symmetrize"] = False
    H = cgc.CompressedGraph(directed=directed, format="csr").from_edge_chunks([df], **columns)
    frames = [cudf.from_pandas(df.iloc[i:i + 7_000]) for i in range(0, len(df), 7_000)]
    for budget in (None, 1 << 16, 1 << 20):
        G = cgc.CompressedGraph(directed=directed, format="csr")
        G.from_edge_chunks(frames, memory_budget=budget, **columns)
        assert_same_buffers(G, H)
        if budget is not None:
            assert G.build_stats["ranges"] > 1


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_one_frame_device_build_is_the_host_build(fmt):
    import cudf

    host = rmat_chunks(16, 16, chunk_edges=1 << 20, seed=2)
    df = host[0]
    H = cgc.CompressedGraph(directed=True, format=fmt).from_pandas_edgelist(df)
    G = cgc.CompressedGraph(directed=True, format=fmt).from_cudf_edgelist(cudf.from_pandas(df))
    assert_same_buffers(G, H)
    assert cgc.estimate_nbytes(cudf.from_pandas(df), format=fmt, directed=True) == G.nbytes


def test_out_of_memory_leaves_no_graph_and_no_allocation():
    import rmm

    chunks = rmat_chunks(16, 16, chunk_edges=1 << 16, seed=4, backend="device")
    frames = list(chunks)  # in GPU memory before the limit is set
    previous = rmm.mr.get_current_device_resource()
    limited = rmm.mr.LimitingResourceAdaptor(previous, allocation_limit=2 << 20)
    rmm.mr.set_current_device_resource(limited)
    try:
        # A small build first: what the first build caches for good (kernel argument blocks,
        # library workspaces) is not a leak of the failed one.
        cgc.CompressedGraph(directed=False, format="ef").from_edge_chunks([frames[0].iloc[:100]])
        gc.collect()
        before = limited.get_allocated_bytes()
        G = cgc.CompressedGraph(directed=False, format="ef")
        for _ in range(2):  # and failing twice holds no more than failing once
            try:
                G.from_edge_chunks(frames, memory_budget=1 << 20)
            except MemoryError:
                pass
            else:
                raise AssertionError("the build fit under a 2 MiB limit")
            gc.collect()
            assert limited.get_allocated_bytes() == before
        with pytest.raises(ValueError, match="empty"):
            G.number_of_vertices()
    finally:
        rmm.mr.set_current_device_resource(previous)
    G.from_edge_chunks(frames)  # the process can build again
    reference = cgc.CompressedGraph(directed=False, format="ef").from_edge_chunks(
        rmat_chunks(16, 16, chunk_edges=1 << 16, seed=4))
    assert_same_buffers(G, reference)
