"""What a build costs per vertex: a few small words, whatever the layout, and the same bits
whatever runs of lists the encoders work on."""
import time
import tracemalloc

import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed import _idset
from cugraph_compressed.formats import FORMATS, base, cgr, elias_fano

N = 10**6
#: Peak bytes per vertex a build may take.  The layouts themselves hold at most 8 (cgr's two
#: uint32 offset arrays), the renumber map 8, and the builds measure at most about 17
#: (benchmarks/build_memory.py); before, they took 50 (csr) to 317 (ef).  48 leaves room for
#: the runs' scratch at this size (up to 2**14 lists each) without letting an array of a few
#: int64 words per vertex back in.
BOUND = 48


@pytest.mark.parametrize("renumber", [False, True])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_isolated_vertices_cost_a_few_bytes_each(fmt, directed, renumber):
    """Two edges and 10**6 vertices (``vertices=``): the peak traced memory of the whole
    build, parsing included (with ``renumber=True`` the 8-byte renumber map too), stays below
    ``BOUND`` bytes per vertex and, with ``renumber=False``, below the layout's declared
    ``build_bytes_per_vertex`` (which the parser uses then to refuse builds that cannot fit),
    and the build takes well under
    a second per 10**6 vertices (10 s: a margin for slow hosts, still far below any work
    quadratic in the runs)."""
    df = pd.DataFrame({"source": np.array([0, 1]), "destination": np.array([1, 2])})
    vertices = pd.Series(np.arange(N))
    tracemalloc.start()
    try:
        start = time.perf_counter()
        graph = cgc.CompressedGraph(directed=directed, format=fmt).from_pandas_edgelist(
            df, renumber=renumber, vertices=vertices)
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert graph.number_of_vertices() == N
    per_vertex = peak / N
    assert per_vertex < BOUND, f"{fmt}: {per_vertex:.1f} bytes per vertex"
    if not renumber:  # the case the declared figure guards
        assert per_vertex <= FORMATS[fmt].build_bytes_per_vertex, f"{fmt}: {per_vertex:.1f}"
    assert seconds < 10, f"{fmt}: {seconds:.1f} s"


@pytest.mark.parametrize("order", ["sorted", "degree"])
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_spread_ids_take_their_table_within_the_bound(fmt, order):
    """Renumbered ids spread over 4 times their count: the id table (int32, 16 bytes per
    vertex, the most ``_idset`` allows) and the rest of the build stay below ``BOUND`` bytes per
    vertex, and every id gets its rank."""
    ids = np.arange(N, dtype=np.int64) * 4 - 7
    assert 4 * (int(ids[-1]) - int(ids[0]) + 1) <= _idset.TABLE_BYTES_PER_VERTEX * N
    df = pd.DataFrame({"source": ids[[0, 1]], "destination": ids[[N - 1, 2]]})
    vertices = pd.Series(ids)
    tracemalloc.start()
    try:
        graph = cgc.CompressedGraph(directed=True, format=fmt, vertex_order=order)
        graph.from_pandas_edgelist(df, vertices=vertices)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Degree order also holds the int64 degree counts and, while ranking, an int64 key and
    # an int64 result per vertex; the id table is renumbered in place (_idset.REORDER_SLICE).
    bound = BOUND if order == "sorted" else BOUND + 3 * 8
    assert peak / N < bound, f"{fmt}: {peak / N:.1f} bytes per vertex"
    # In degree order too: the two sources (out-degree 1) are the two smallest ids.
    assert graph.lookup_internal_vertex_id(vertices).tolist() == list(range(N))
    edges = graph.view_edge_list()
    assert sorted(zip(edges["source"], edges["destination"])) == [(-7, 4 * N - 11), (-3, 1)]


def graph_edges(seed=5):
    """Sorted, distinct edges over 3000 vertices: a hub adjacent to every vertex, runs of
    consecutive ids, scattered lists and many empty ones."""
    rng = np.random.default_rng(seed)
    n = 3000
    src = np.concatenate([np.zeros(n, np.int64), np.repeat(np.arange(10, 400, 13), 40),
                          rng.integers(0, n, 2000)])
    dst = np.concatenate([np.arange(n), (np.arange(40) + np.repeat(np.arange(10, 400, 13), 40)
                                         .reshape(-1, 40) * 7).ravel() % n,
                          rng.integers(0, n, 2000)])
    key = np.unique(src * n + dst)
    return key // n, key % n, n


@pytest.mark.parametrize("fmt, params", [
    ("csr", {}), ("fl", {}), ("ef", {}), ("ef", {"k": 3, "block_size": 4}),
    ("ef", {"k": 1, "block_size": 1}), ("cgr", {}),
    ("cgr", {"segment_size": 2, "min_interval_length": 2, "code": "gamma"})])
def test_runs_of_any_size_write_the_same_bits(fmt, params, monkeypatch):
    """Encoders work on runs of lists; runs of a few lists and edges write the buffers (and
    property order) that one run does."""
    src, dst, n = graph_edges()
    cls = FORMATS[fmt]
    whole = cls.encode(src, dst, n, np, **params)
    monkeypatch.setattr(base, "MIN_CHUNK_LISTS", 5)
    monkeypatch.setattr(elias_fano, "CHUNK_EDGES", 17)
    monkeypatch.setattr(cgr, "CHUNK_EDGES", 17)
    runs = cls.encode(src, dst, n, np, **params)
    assert len(base.list_chunks(src, n, np, 17)) > 100
    for name, array in whole.arrays.items():
        assert np.array_equal(runs.arrays[name], array), name
    if whole.property_order is None:
        assert runs.property_order is None
    else:
        assert np.array_equal(runs.property_order, whole.property_order)
    assert cls.estimate_nbytes(src, dst, n, np, **params) == whole.nbytes
    runs.validate()


def test_list_chunks_cover_every_list_once_aligned():
    src, _, n = graph_edges()
    chunks = base.list_chunks(src, n, np, max_edges=100, align=64)
    assert chunks[0][:1] == (0,) and chunks[-1][1] == n
    for (v0, v1, e0, e1), (w0, _, f0, _) in zip(chunks, chunks[1:]):
        assert v1 == w0 and e1 == f0 and v0 % 64 == 0 and v1 % 64 == 0
    for v0, v1, e0, e1 in chunks:
        assert e0 == np.searchsorted(src, v0) and e1 == np.searchsorted(src, v1)
    assert base.list_chunks(np.zeros(0, np.int64), 0, np, 10) == [(0, 0, 0, 0)]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_runs_stay_within_the_declared_bytes_per_edge(fmt):
    """A run's temporaries stay within the encoder's ``work_bytes_per_edge`` (what a build
    with a memory budget sizes its runs by), on lists with runs of consecutive ids, hubs and
    scattered entries."""
    src, dst, n = graph_edges()
    rng = np.random.default_rng(3)
    more = np.unique(rng.integers(0, n, 600_000) * n + rng.integers(0, n, 600_000))
    key = np.union1d(src * n + dst, more)
    src, dst = (key // n).astype(np.int32), (key % n).astype(np.int32)
    encoder = FORMATS[fmt].encoder(n, np)
    encoder.max_run_edges = run = 100_000  # and the host packers' fixed-size pieces
    tracemalloc.start()
    try:
        layout = base.encode_ranges(encoder, src, dst)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    order = 0 if layout.property_order is None else layout.property_order.nbytes
    assert peak - layout.nbytes - order <= encoder.work_bytes_per_edge * run
