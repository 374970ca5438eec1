"""The ef layout on the GPU: the device encoder writes the host reference's bits, decodes back,
and meets the size requirement at R-MAT scale 24 (run with -m gpu)."""

import numpy as np
import pytest
from graphs import bits_of, decoded_range, device_rmat_sorted, sampled_lists, scale_22_layout

import cugraph_compressed as cgc
from cugraph_compressed.formats import EliasFanoLayout
from cugraph_compressed.formats.base import plain_csr_nbytes
from cugraph_compressed.formats.elias_fano import EliasFanoLists, ef_bound_bits
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
