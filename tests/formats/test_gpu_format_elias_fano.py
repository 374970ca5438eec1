"""The ef layout on the GPU: the device encoder (the kernels of formats/elias_fano.cu) writes the
host reference's bits, whatever the ranges, runs and write order, checks its input as the host
does, allocates nothing per edge, decodes back, and meets the size requirement at R-MAT scale
24 (run with -m gpu)."""

from unittest import mock

import numpy as np
import pytest
from graphs import (
    EF_BAD_LISTS,
    bits_of,
    decoded_range,
    device_rmat_sorted,
    sampled_lists,
    scale_22_layout,
    sorted_lists_graph,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import cugraph_compressed as cgc
from cugraph_compressed.formats import EliasFanoLayout, base
from cugraph_compressed.formats.base import encode_ranges, plain_csr_nbytes
from cugraph_compressed.formats.elias_fano import (
    DEVICE_WORK_BYTES_PER_EDGE,
    EliasFanoEncoder,
    EliasFanoLists,
    ef_bound_bits,
)
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu

BUFFERS = ("blocks", "records", "data")


def both_encodings(df, directed=True, **params):
    """The device graph of a cuDF frame and the host graph of the same frame, ids as given."""
    device = cgc.CompressedGraph(format="ef", directed=directed, **params).from_cudf_edgelist(
        df, renumber=False)
    host = cgc.CompressedGraph(format="ef", directed=directed, **params).from_pandas_edgelist(
        df.to_pandas(), renumber=False)
    return device, host


def assert_same_buffers(d, h):
    import cupy as cp

    for name in BUFFERS:
        assert isinstance(d.arrays[name], cp.ndarray), name
        got = d.arrays[name].get()
        assert got.dtype == h.arrays[name].dtype and got.shape == h.arrays[name].shape, name
        assert np.array_equal(got, h.arrays[name]), name


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("params", [{}, dict(k=16), dict(k=1, block_size=1), dict(block_size=1024)])
def test_scale_18_bit_identical_to_host(directed, params):
    import cupy as cp

    df = rmat_edgelist(18, seed=5, backend="device")
    device, host = both_encodings(df, directed, **params)
    d, h = device._layout, host._layout
    assert d.xp is cp and (d.num_vertices, d.num_edges) == (h.num_vertices, h.num_edges)
    assert_same_buffers(d, h)
    assert device.nbytes == host.nbytes
    estimate = cgc.estimate_nbytes(df, format="ef", directed=directed, renumber=False, **params)
    assert estimate == device.nbytes
    device.validate()  # host checks over the CuPy buffers
    owner, nbrs, positions = d.to_coo()
    assert isinstance(nbrs, cp.ndarray)
    h_owner, h_nbrs, h_positions = h.to_coo()
    assert np.array_equal(owner.get(), h_owner) and np.array_equal(nbrs.get(), h_nbrs)
    assert np.array_equal(positions.get(), h_positions)
    if directed:  # decode-back equals the deduplicated input
        expected = df.drop_duplicates().sort_values(["source", "destination"]).to_pandas()
        assert np.array_equal(h_owner, expected["source"].to_numpy())
        assert np.array_equal(h_nbrs, expected["destination"].to_numpy())
    assert np.array_equal(d.degrees().get(), h.degrees())
    v = int(np.argmax(h.degrees()))
    assert np.array_equal(d.decode_range(v, 5, 50).get(), h.decode_range(v, 5, 50))
    assert d.data_bits == h.data_bits
    if not params:  # the paper's k = 512: forward pointers cost little next to the EF bound
        assert d.data_bits <= 1.05 * h.bound_bits()


def test_scale_22_sampled_ranges():
    """Entries and bits of a few vertex ranges against a host encoding of just those lists."""
    L, dedup = scale_22_layout("ef")
    n, m = L.num_vertices, L.num_edges
    codec = L.lists()
    _, _, data = codec._host()
    first, start, l = codec._entries(np.arange(n + 1))
    assert first[0] == 0 and first[-1] == m and start[-1] == L.data_bits

    for a, b, src, dst in sampled_lists(dedup, n):
        alone = EliasFanoLists.encode(src - a, dst, b - a, np, **L.params)
        h_first, h_start, h_l = alone._entries(np.arange(b - a + 1))
        assert np.array_equal(first[a:b + 1] - first[a], h_first), (a, b)
        assert np.array_equal(start[a:b + 1] - start[a], h_start), (a, b)
        assert np.array_equal(l[a:b], h_l[:-1]), (a, b)
        assert np.array_equal(bits_of(data, int(start[a]), alone.data_bits),
                              bits_of(alone.arrays["data"], 0, alone.data_bits)), (a, b)
        got = decoded_range(L, a, b, int(first[b] - first[a]))
        assert np.array_equal(got, dst), (a, b)


def test_device_codec_matches_host_on_extreme_lists():
    import cupy as cp

    lists = [[], [0], [2**32 - 1], [0, 2**32 - 1], list(range(2**32 - 700, 2**32)), [],
             list(range(0, 2**32, 2**22)), [5], list(range(1000)), [2**31 - 1]]
    owner = np.repeat(np.arange(len(lists)), [len(x) for x in lists])
    values = np.array([v for x in lists for v in x], np.uint32)
    for params in ({}, dict(k=3, block_size=2), dict(k=1, block_size=1)):
        h = EliasFanoLists.encode(owner, values, len(lists), np, **params)
        d = EliasFanoLists.encode(cp.asarray(owner), cp.asarray(values), len(lists), cp, **params)
        assert_same_buffers(d, h)
        d.validate()
        assert d.decode(np.arange(len(lists)))[1].get().tolist() == [v for x in lists for v in x]
        assert EliasFanoLists.estimate_nbytes(cp.asarray(owner), cp.asarray(values), len(lists), cp,
                                              **params) == sum(a.nbytes for a in h.arrays.values())


def test_device_encoder_rejects_bad_input():
    import cupy as cp

    with pytest.raises(ValueError, match="list of vertex 0 holds value 1 twice"):
        EliasFanoLayout.encode(cp.zeros(2, cp.int32), cp.asarray([1, 1], cp.int32), 5, cp)
    with pytest.raises(ValueError, match="list of vertex 1 is not sorted: value 2 follows 3"):
        EliasFanoLayout.encode(cp.ones(2, cp.int32), cp.asarray([3, 2], cp.int32), 5, cp)
    with pytest.raises(ValueError, match="holds neighbour 9, not below num_vertices=5"):
        EliasFanoLayout.encode(cp.zeros(1, cp.int32), cp.asarray([9], cp.int32), 5, cp)


def test_scale_24_size():
    """Sorted, deduplicated R-MAT scale 24 edges: data within 5% of the Elias-Fano bound, the
    whole layout well under a plain 32-bit CSR, and the estimate exact.  (Encode speed is
    measured by benchmarks/run.py, side by side with cuGraph.)"""
    import cupy as cp

    src, dst, n = device_rmat_sorted(24)
    layout = EliasFanoLayout.encode(src, dst, n, cp)
    bound = ef_bound_bits(src, dst, n, cp)
    per_edge = layout.nbytes / src.size
    csr = plain_csr_nbytes(n, int(src.size)) / src.size
    print(f"ef, R-MAT scale 24, {src.size} edges: {per_edge:.3f} bytes/edge (plain CSR {csr:.3f}); "
          f"data {layout.data_bits} bits = {layout.data_bits / bound:.4f} x the EF bound")
    assert layout.data_bits <= 1.05 * bound
    assert per_edge < 0.75 * csr
    assert layout.nbytes == EliasFanoLayout.estimate_nbytes(src, dst, n, cp)


# -- the device encoder's kernels against the host encoder, bit for bit ------------------------
def encode_in_ranges(xp, src, dst, n, params, bounds, write_order, max_run_edges=None,
                     min_lists=None):
    """Size the ranges cut at ``bounds`` in order, write them in ``write_order`` (runs of at
    most ``max_run_edges`` edges and, on the GPU, ``min_lists`` lists when given); returns
    the layout and the encoder's nbytes before allocating."""
    encoder = EliasFanoLayout.encoder(n, xp, **params)
    encoder.max_run_edges = max_run_edges
    edges = np.searchsorted(src, bounds).tolist()
    ranges = [(bounds[i], bounds[i + 1], edges[i], edges[i + 1]) for i in range(len(bounds) - 1)]
    src, dst = xp.asarray(src), xp.asarray(dst)
    least = min_lists or base.MIN_DEVICE_CHUNK_LISTS
    with mock.patch.object(base, "MIN_DEVICE_CHUNK_LISTS", least):
        for v0, v1, e0, e1 in ranges:
            assert encoder.size(v0, v1, src[e0:e1], dst[e0:e1]) == e1 - e0
        nbytes = encoder.nbytes
        encoder.allocate()
        for i in write_order:
            v0, v1, e0, e1 = ranges[i]
            assert encoder.write(v0, v1, src[e0:e1], dst[e0:e1]) is None
    return encoder.finish(), nbytes


def assert_device_matches_host(src, dst, n, params, bounds=None, write_order=None, **runs):
    """The device encoder, driven range by range, writes the host encoder's buffers."""
    import cupy as cp

    host = EliasFanoLayout.encode(src, dst, n, np, **params)
    bounds = [0, n] if bounds is None else bounds
    order = range(len(bounds) - 1) if write_order is None else write_order
    device, nbytes = encode_in_ranges(cp, src, dst, n, params, bounds, order, **runs)
    assert_same_buffers(device, host)
    assert nbytes == device.nbytes == host.nbytes
    return device


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(0, 300), seed=st.integers(0, 2**32 - 1),
       density=st.sampled_from([0, 1, 3, 20]), dtype=st.sampled_from([np.int32, np.int64,
                                                                        np.uint32]),
       k=st.sampled_from([1, 2, 3, 7, 512]), block_size=st.sampled_from([1, 2, 4, 64]),
       max_run_edges=st.sampled_from([None, 1, 9, 100]), min_lists=st.sampled_from([None, 1, 5]))
def test_device_encoder_random_graphs(data, n, seed, density, dtype, k, block_size,
                                      max_run_edges, min_lists):
    """Random graphs cut into ranges (aligned to block_size, some empty), runs forced small,
    ranges written in any order: neighbouring ranges and runs share words of both streams."""
    src, dst = sorted_lists_graph(n, seed, density, dtype, hub_chance=0.5, max_run=40)
    inner = data.draw(st.lists(st.integers(0, n), max_size=10))
    bounds = [0] + sorted(c // block_size * block_size for c in inner) + [n]
    order = data.draw(st.permutations(range(len(bounds) - 1)))
    assert_device_matches_host(src, dst, n, dict(k=k, block_size=block_size), bounds, order,
                               max_run_edges=max_run_edges, min_lists=min_lists)


@pytest.mark.parametrize("k", [1, 2, 3, 16, 512])
@pytest.mark.parametrize("block_size", [1, 4, 64])
def test_device_encoder_degrees_around_k(k, block_size):
    """Lists of 0, 1, k - 1, k, k + 1, 2k, 2k + 1 values and a long list with many forward
    pointers, low values and values up to 2**32 - 1, a row of lists per range, written last
    to first."""
    degrees = [0, 1, max(k - 1, 0), k, k + 1, 2 * k, 2 * k + 1, 0, 40 * k + 3, 1]
    rng = np.random.default_rng(k * block_size)
    lists_ = []
    for i, d in enumerate(degrees):
        top = 2**32 if i % 2 else 2**16 + 3 * d
        lists_.append(np.sort(rng.choice(np.arange(top - 4 * d - 1, top), d, replace=False)))
    owner = np.repeat(np.arange(len(lists_)), degrees).astype(np.int64)
    values = np.concatenate(lists_).astype(np.int64)
    n = len(lists_)
    for dtype in (np.int64, np.uint32, np.uint64):
        h = EliasFanoLists.encode(owner, values.astype(dtype), n, np, k=k, block_size=block_size)
        bounds = list(range(0, n, block_size)) + [n]
        device, nbytes = encode_in_lists_ranges(owner, values.astype(dtype), n, k, block_size,
                                                bounds)
        assert_same_buffers(device, h)
        assert nbytes == sum(array.nbytes for array in h.arrays.values())
        device.validate()


def encode_in_lists_ranges(owner, values, num_lists, k, block_size, bounds):
    """The codec's encoder (values below 2**32) on the GPU over the ranges cut at ``bounds``,
    written last to first, runs of at most 5 values."""
    import cupy as cp

    encoder = EliasFanoEncoder.for_lists(num_lists, cp, dict(k=k, block_size=block_size), "list")
    encoder.max_run_edges = 5
    edges = np.searchsorted(owner, bounds).tolist()
    ranges = [(bounds[i], bounds[i + 1], edges[i], edges[i + 1]) for i in range(len(bounds) - 1)]
    owner_d, values_d = cp.asarray(owner), cp.asarray(values)
    for v0, v1, e0, e1 in ranges:
        encoder.size(v0, v1, owner_d[e0:e1], values_d[e0:e1])
    nbytes = encoder.nbytes
    encoder.allocate()
    for v0, v1, e0, e1 in reversed(ranges):
        encoder.write(v0, v1, owner_d[e0:e1], values_d[e0:e1])
    layout = encoder.finish()
    return EliasFanoLists(cp, num_lists, layout.num_edges, layout.arrays, **layout.params), nbytes


@pytest.mark.parametrize("order", ["reversed", "shuffled"])
@pytest.mark.parametrize("params", [{}, dict(k=4, block_size=8)])
def test_device_encoder_many_ranges_any_write_order(order, params):
    """An R-MAT graph in ranges of a few rows each, runs of at most 100 edges and 8 lists,
    written back to front or shuffled."""
    df = rmat_edgelist(12, seed=3).drop_duplicates().sort_values(["source", "destination"])
    src, dst = df["source"].to_numpy(), df["destination"].to_numpy()
    n = 2**12
    step = 2 * params.get("block_size", 64)
    bounds = list(range(0, n, step)) + [n]
    write = list(range(len(bounds) - 1))[::-1]
    if order == "shuffled":
        write = np.random.default_rng(0).permutation(len(bounds) - 1).tolist()
    assert_device_matches_host(src, dst, n, params, bounds, write, max_run_edges=100,
                               min_lists=8)


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64, np.uint32])
def test_device_encoder_strided_and_narrow_ids(dtype):
    """Ids narrower than 32 bits and strided columns reach the kernels as copies."""
    import cupy as cp

    src, dst = sorted_lists_graph(200, 7, 8, dtype, hub_chance=0.5, max_run=40)
    pairs = cp.asarray(np.stack([src, dst], axis=1))
    host = EliasFanoLayout.encode(src, dst, 200, np, k=3, block_size=4)
    device = EliasFanoLayout.encode(pairs[:, 0], pairs[:, 1], 200, cp, k=3, block_size=4)
    assert_same_buffers(device, host)


@pytest.mark.parametrize("src, dst, n, message", EF_BAD_LISTS)
@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64])
def test_device_checks_name_the_entry_the_host_names(src, dst, n, message, dtype):
    import cupy as cp

    for xp in (np, cp):
        with pytest.raises(ValueError, match=message):
            EliasFanoLayout.encode(xp.asarray(src, dtype), xp.asarray(dst, dtype), n, xp)


def test_device_checks_cover_every_entry_and_the_codec_bound():
    import cupy as cp

    encoder = EliasFanoLayout.encoder(10, cp)
    encoder.max_run_edges = 3  # checked in steps of 3 entries, overlapping by one
    with pytest.raises(ValueError, match="holds value 4 twice"):
        encoder.size(0, 10, cp.asarray([0, 0, 0, 1, 1, 2, 2]), cp.asarray([1, 2, 3, 4, 4, 5, 6]))
    with pytest.raises(ValueError, match=r"list 1 holds value 4294967296, outside"):
        EliasFanoLists.encode(cp.asarray([0, 1]), cp.asarray([1, 2**32]), 2, cp)
    with pytest.raises(ValueError, match=r"holds value 18446744073709551615"):
        EliasFanoLists.encode(cp.asarray([0, 1], cp.uint64), cp.asarray([1, 2**64 - 1], cp.uint64),
                              2, cp)
    with pytest.raises(ValueError, match="list ids must lie in"):
        EliasFanoLists.encode(cp.asarray([0, 2**64 - 1], cp.uint64), cp.asarray([1, 2], cp.uint64),
                              2, cp)


def test_device_encoder_allocates_nothing_per_edge():
    """Runs of 10**6 edges: the device encoder's peak allocations beyond the layout stay
    within its declared work_bytes_per_edge (what a budgeted build sizes runs by) and, for
    contiguous 32-bit ids, under one byte per edge (only per-list numbers are allocated)."""
    import cupy as cp
    from cupy.cuda import memory_hook

    class Peak(memory_hook.MemoryHook):
        name = "Peak"
        live = peak = 0

        def malloc_postprocess(self, **kwargs):
            self.live += kwargs["mem_size"]
            self.peak = max(self.peak, self.live)

        def free_postprocess(self, **kwargs):
            self.live -= kwargs["mem_size"]

    rng = np.random.default_rng(3)
    n = 3000
    key = np.unique(rng.integers(0, n * n, 3_000_000))
    src = cp.asarray((key // n).astype(np.int32))
    dst = cp.asarray((key % n).astype(np.int32))
    run = 10**6
    pool = cp.cuda.MemoryPool()  # its own pool, so the hook sees every allocation
    with cp.cuda.using_allocator(pool.malloc), Peak() as hook:
        encoder = EliasFanoLayout.encoder(n, cp)
        encoder.max_run_edges = run
        layout = encode_ranges(encoder, src, dst)
        cp.cuda.Device().synchronize()
    extra = hook.peak - layout.nbytes
    declared = encoder.work_bytes_per_edge
    del layout, encoder  # before the pool they came from
    assert declared == DEVICE_WORK_BYTES_PER_EDGE
    assert extra <= declared * run
    assert extra < run, f"{extra / run:.2f} bytes per edge"
