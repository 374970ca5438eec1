"""The fl layout on the GPU: the device encoder writes the host reference's bits, decodes back,
and stays under a plain CSR at R-MAT scale 24 (run with -m gpu on a GPU host)."""

import numpy as np
import pytest
from graphs import bits_of, decoded_range, device_rmat_sorted, sampled_lists, scale_22_layout

import cugraph_compressed as cgc
from cugraph_compressed.formats import FixedLengthLayout
from cugraph_compressed.formats import fixed_length as fl
from cugraph_compressed.formats.base import plain_csr_nbytes
from cugraph_compressed.formats.bits import stream_words
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu


def both_encodings(df, **params):
    """The device graph of a cuDF frame and the host graph of the same frame, directed, ids as
    given."""
    device = cgc.CompressedGraph(format="fl", directed=True, **params).from_cudf_edgelist(
        df, renumber=False)
    host = cgc.CompressedGraph(format="fl", directed=True, **params).from_pandas_edgelist(
        df.to_pandas(), renumber=False)
    return device, host


@pytest.mark.parametrize("params", [{}, dict(align_slack=0.0), dict(align_slack=1.0),
                                    dict(index_width=21, offset_width=24),
                                    dict(index_width=32, offset_width=40)])
def test_scale_18_bit_identical_to_host(params):
    import cupy as cp

    df = rmat_edgelist(18, seed=5, backend="device")
    device, host = both_encodings(df, **params)
    d, h = device._layout, host._layout
    assert isinstance(d.arrays["indices"], cp.ndarray) and d.xp is cp
    assert (d.num_vertices, d.num_edges) == (h.num_vertices, h.num_edges)
    assert (d.offset_width, d.index_width) == (h.offset_width, h.index_width)
    for name in ("offsets", "indices"):
        assert d.arrays[name].dtype == np.uint32
        assert np.array_equal(d.arrays[name].get(), h.arrays[name]), name
    assert device.nbytes == host.nbytes
    assert (cgc.estimate_nbytes(df, format="fl", directed=True, renumber=False, **params)
            == device.nbytes)
    device.validate()  # on the CuPy buffers
    owner, nbrs, positions = d.to_coo()
    assert isinstance(nbrs, cp.ndarray)
    h_owner, h_nbrs, h_positions = h.to_coo()
    assert np.array_equal(owner.get(), h_owner) and np.array_equal(nbrs.get(), h_nbrs)
    assert np.array_equal(positions.get(), h_positions)
    # decode-back equals the deduplicated input
    expected = df.drop_duplicates().sort_values(["source", "destination"]).to_pandas()
    assert np.array_equal(h_owner, expected["source"].to_numpy())
    assert np.array_equal(h_nbrs, expected["destination"].to_numpy())
    assert np.array_equal(d.degrees().get(), h.degrees())
    v = int(np.argmax(h.degrees()))
    assert np.array_equal(d.decode_range(v, 5, 50).get(), h.decode_range(v, 5, 50))


def test_scale_22_sampled_ranges():
    """Bits of a few vertex ranges against a host encoding of just those lists."""
    L, dedup = scale_22_layout("fl")
    n, m = L.num_vertices, L.num_edges
    largest = int(dedup["destination"].max())
    assert L.index_width == fl.auto_width(largest.bit_length())
    assert L.offset_width == fl.auto_width(m.bit_length())
    offset_words, index_words = L.arrays["offsets"].get(), L.arrays["indices"].get()
    assert offset_words.size == stream_words((n + 1) * L.offset_width)
    assert index_words.size == stream_words(m * L.index_width)
    offsets = fl.read_range(offset_words, 0, n + 1, L.offset_width, np).astype(np.int64)
    assert offsets[0] == 0 and offsets[-1] == m

    for a, b, src, dst in sampled_lists(dedup, n):
        before = int((dedup["source"] < a).sum())
        # per-vertex entries: the offsets of a .. b
        expected = before + np.concatenate([[0], np.cumsum(np.bincount(src - a, minlength=b - a))])
        assert np.array_equal(offsets[a:b + 1], expected), (a, b)
        assert np.array_equal(
            bits_of(offset_words, a * L.offset_width, (b - a + 1) * L.offset_width),
            fl.pack_fixed(expected, L.offset_width, np)), (a, b)
        # the lists' bits
        start, stop = int(expected[0]), int(expected[-1])
        assert np.array_equal(
            bits_of(index_words, start * L.index_width, (stop - start) * L.index_width),
            fl.pack_fixed(dst, L.index_width, np)), (a, b)
        assert np.array_equal(decoded_range(L, a, b, stop - start), dst), (a, b)

    # GPU decode-back of everything equals the sorted, deduplicated input
    owner, nbrs, _ = L.to_coo()
    expected = dedup.sort_values(["source", "destination"])
    assert bool((owner == expected["source"].values).all())
    assert bool((nbrs == expected["destination"].values).all())


def test_scale_24_size():
    """Sorted, deduplicated R-MAT scale 24 edges: under a plain 32-bit CSR, estimate exact.
    (Encode speed is measured by benchmarks/run.py, side by side with cuGraph.)"""
    import cupy as cp

    src, dst, n = device_rmat_sorted(24)
    layout = FixedLengthLayout.encode(src, dst, n, cp)
    assert layout.nbytes < plain_csr_nbytes(n, int(src.size))
    assert layout.nbytes == FixedLengthLayout.estimate_nbytes(src, dst, n, cp)


@pytest.mark.parametrize("width", [None, *range(0, 65)])
def test_device_codec_matches_host_at_every_width(width):
    """Small lists at every width (0 .. 64, 33+ in two halves) and the extreme values."""
    import cupy as cp

    rng = np.random.default_rng(width or 0)
    top = 2**63 - 1 if width is None else min(2**width, 2**63) - 1
    values = np.unique(np.concatenate([rng.integers(0, top, 200, dtype=np.int64, endpoint=True),
                                       [0, top]]))
    owner = np.sort(rng.integers(0, 7, values.size))
    order = np.lexsort((values, owner))
    owner, values = owner[order], values[order]
    keep = np.concatenate([[True], (owner[1:] != owner[:-1]) | (values[1:] != values[:-1])])
    owner, values = owner[keep], values[keep]
    host = fl.FixedWidthLists.encode(owner, values, 9, np, index_width=width)
    device = fl.FixedWidthLists.encode(cp.asarray(owner), cp.asarray(values), 9, cp,
                                       index_width=width)
    assert (device.offset_width, device.index_width) == (host.offset_width, host.index_width)
    for name in ("offsets", "indices"):
        assert np.array_equal(device.arrays[name].get(), host.arrays[name]), name
    o, v, p = device.decode(cp.arange(9))
    assert np.array_equal(o.get(), owner) and np.array_equal(v.get(), values)
    assert np.array_equal(device.decode_range(int(owner[0]), 1, 4).get(),
                          host.decode_range(int(owner[0]), 1, 4))


@pytest.mark.parametrize("src, dst, match", [
    ([0, 0], [1, 1], "list 0 holds value 1 twice"),
    ([1, 0], [0, 1], "not sorted by list"),
    ([0, 1], [1, 3], "value 3 in list 1 is not below num_vertices=3"),
])
def test_device_encoder_rejects_bad_input(src, dst, match):
    import cupy as cp

    with pytest.raises(ValueError, match=match):
        FixedLengthLayout.encode(cp.asarray(src, dtype=cp.int32), cp.asarray(dst, dtype=cp.int32),
                                 3, cp)


def test_device_empty_and_tiny_graphs():
    import cupy as cp

    for src, dst, n in (([], [], 0), ([], [], 4), ([0, 1, 2], [0, 0, 0], 3), ([2], [5], 6)):
        s, d = np.asarray(src, np.int32), np.asarray(dst, np.int32)
        host = FixedLengthLayout.encode(s, d, n, np)
        device = FixedLengthLayout.encode(cp.asarray(s), cp.asarray(d), n, cp)
        device.validate()
        for name in ("offsets", "indices"):
            assert np.array_equal(device.arrays[name].get(), host.arrays[name])
        assert np.array_equal(device.to_coo()[1].get(), d)
