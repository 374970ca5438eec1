"""The cgr GPU encoder: bit for bit the host reference's buffers, and decodes back to its input.

The helpers take plain NumPy/CuPy arrays, so they also run where cuDF is missing (e.g.
``python -c "import test_gpu_format_cgr as t; t.compare_encoders(...)"`` on a CuPy-only host).
"""
import numpy as np
import pytest

import cugraph_compressed as cgc
from cugraph_compressed.formats import CGRLayout, cgr
from cugraph_compressed.formats.bits import TAIL_WORDS, read_fields
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu

PARAMS = [{}, dict(code="gamma", segment_size=4, min_interval_length=2)]


def assert_same_buffers(device_layout, host_layout):
    import cupy as cp

    assert device_layout.arrays.keys() == host_layout.arrays.keys()
    for name, expected in host_layout.arrays.items():
        got = device_layout.arrays[name]
        assert isinstance(got, cp.ndarray), name
        got = cp.asnumpy(got)
        assert got.dtype == expected.dtype and got.shape == expected.shape, name
        assert np.array_equal(got, expected), (f"{name} differs first at "
                                               f"{int(np.argmax(got != expected))}")


def unique_sorted_edges(src, dst):
    """Host arrays of the distinct edges sorted by (source, destination)."""
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    key = np.unique((src << 32) | dst)
    return key >> 32, key & 0xFFFFFFFF


def compare_encoders(src, dst, num_vertices, **params):
    """Encode sorted, distinct host edges on the host and on the GPU; equal buffers, equal
    property order and an exact estimate.  Returns both layouts."""
    import cupy as cp

    host = CGRLayout.encode(src, dst, num_vertices, np, **params)
    src_d, dst_d = cp.asarray(src), cp.asarray(dst)
    device = CGRLayout.encode(src_d, dst_d, num_vertices, cp, **params)
    assert_same_buffers(device, host)
    if host.property_order is None:
        assert device.property_order is None
    else:
        assert np.array_equal(cp.asnumpy(device.property_order), host.property_order)
    assert CGRLayout.estimate_nbytes(src_d, dst_d, num_vertices, cp, **params) == host.nbytes
    return host, device


def assert_decodes_to(layout, src, dst):
    """The layout (device arrays) decodes back to the sorted edges (src, dst)."""
    import cupy as cp

    owner, nbrs, positions = (cp.asnumpy(a) for a in layout.to_coo())
    assert np.array_equal(positions, np.arange(src.size))
    order = np.lexsort((nbrs, owner))
    assert np.array_equal(owner[order], src) and np.array_equal(nbrs[order], dst)


def bits_at(words, start, nbits):
    """``nbits`` bits of a host stream from bit ``start``, as 32-bit chunks (uint64)."""
    chunks = np.arange(-(-int(nbits) // 32), dtype=np.int64)
    return read_fields(words, int(start) + 32 * chunks, np.minimum(32, int(nbits) - 32 * chunks))


def check_sampled_ranges(layout, src_d, dst_d, ranges):
    """Host-encode only the lists of vertices ``a .. b - 1`` for each ``(a, b)`` in ``ranges``
    and compare with the device layout: list sizes in bits and edges, and the bits themselves.
    ``src_d``/``dst_d`` are the device edge list the layout was built from (any order,
    duplicates allowed)."""
    import cupy as cp

    params = layout.params
    codec = CGRLayout.codec(**params)
    a_ = layout.arrays
    first_bit = cgr.join_offsets(cp.asnumpy(a_["bit_offsets"]),
                                 cp.asnumpy(a_["bit_offsets_high"]))
    first_edge = cgr.join_offsets(cp.asnumpy(a_["edge_offsets"]),
                                  cp.asnumpy(a_["edge_offsets_high"]))
    stream = a_["stream"]
    for a, b in ranges:
        keep = (src_d >= a) & (src_d < b)
        src, dst = unique_sorted_edges(cp.asnumpy(src_d[keep]), cp.asnumpy(dst_d[keep]))
        refs = np.arange(a, b, dtype=np.int64)
        words, bits, _ = codec.encode(src - a, dst, refs, np)
        assert np.array_equal(np.diff(first_edge[a:b + 1]), np.bincount(src - a, minlength=b - a))
        assert np.array_equal(np.diff(first_bit[a:b + 1]), np.diff(bits)), (a, b)
        b0, b1 = int(first_bit[a]), int(first_bit[b])
        w0, w1 = b0 // 32, -(-b1 // 32) + TAIL_WORDS
        device_words = cp.asnumpy(stream[w0:w1])
        assert np.array_equal(bits_at(device_words, b0 - 32 * w0, b1 - b0),
                              bits_at(words, 0, b1 - b0)), (a, b)


@pytest.mark.parametrize("params", PARAMS)
def test_gpu_encoder_matches_host_scale_18(params):
    df = rmat_edgelist(18, backend="device")
    G = cgc.CompressedGraph(format="cgr", directed=True, **params).from_cudf_edgelist(
        df, renumber=False)
    H = cgc.CompressedGraph(format="cgr", directed=True, **params).from_pandas_edgelist(
        df.to_pandas(), renumber=False)
    assert_same_buffers(G._layout, H._layout)
    G.validate()
    src, dst = unique_sorted_edges(df["source"].values.get(), df["destination"].values.get())
    assert_decodes_to(G._layout, src, dst)
    compare_encoders(src, dst, G.number_of_vertices(), **params)


def test_gpu_encoder_matches_host_on_sampled_ranges_scale_22():
    import cupy as cp

    df = rmat_edgelist(22, backend="device")
    G = cgc.CompressedGraph(format="cgr", directed=True).from_cudf_edgelist(df, renumber=False)
    n = G.number_of_vertices()
    degrees = G._layout.degrees()
    hub = int(cp.argmax(cp.asarray(degrees)))
    ranges = [(0, 2048), (n // 2, n // 2 + 2048), (n - 2048, n), (hub, hub + 1)]
    check_sampled_ranges(G._layout, df["source"].values, df["destination"].values, ranges)


def test_gpu_weighted_graph_keeps_weights_aligned():
    import cudf

    df = rmat_edgelist(12, backend="device", weighted=True)
    G = cgc.CompressedGraph(format="cgr", directed=True).from_cudf_edgelist(df, renumber=False,
                                                                           weight="weight")
    H = cgc.CompressedGraph(format="cgr", directed=True).from_pandas_edgelist(
        df.to_pandas(), renumber=False, weight="weight")
    got, expected = G.view_edge_list().to_pandas(), H.view_edge_list()
    assert isinstance(G.view_edge_list(), cudf.DataFrame)
    assert got.equals(expected)
