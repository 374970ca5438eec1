"""rmat_chunks on the GPU: the kernel that writes each device chunk (``generators.cu``) gives the
host's NumPy chunks bit for bit, whatever the scale (int32 or int64 ids), probabilities, seed,
scrambling, weights, chunk size and chunk start (edges are a pure function of their index, so
only the chunk asked for is generated, however far into the stream it lies)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cugraph_compressed.generators import rmat_chunks

pytestmark = pytest.mark.gpu


def assert_device_chunks_are_host_chunks(scale, edge_factor, ks=None, **kwargs):
    """Chunks ``ks`` (default: all) of ``rmat_chunks(scale, edge_factor, **kwargs)``: the same
    columns, dtypes and bits on the device as on the host (weights compared as bits)."""
    device = rmat_chunks(scale, edge_factor, backend="device", **kwargs)
    host = rmat_chunks(scale, edge_factor, **kwargs)
    assert len(device) == len(host)
    for k in range(len(host)) if ks is None else ks:
        got, expected = device[k], host[k]
        assert type(got).__module__.startswith("cudf")
        assert list(got.columns) == list(expected.columns)
        assert [str(t) for t in got.dtypes] == [str(t) for t in expected.dtypes]
        for col in expected.columns:
            values, reference = got[col].to_numpy(), expected[col].to_numpy()
            assert values.dtype == reference.dtype, (k, col)
            assert np.array_equal(values.view(np.uint8), reference.view(np.uint8)), (k, col)


@pytest.mark.parametrize("scramble", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("scale", [1, 2, 3, 8, 13, 16])
def test_small_scales(scale, scramble, weighted):
    """Odd and even scales (the last draw used for one level or two), the whole stream."""
    assert_device_chunks_are_host_chunks(scale, 16, chunk_edges=10_000, seed=3,
                                         scramble=scramble, weighted=weighted)


@pytest.mark.parametrize("scramble", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("scale", [30, 31, 32, 33, 40])
def test_large_scales_near_the_end(scale, scramble, weighted):
    """int32 ids up to scale 31, int64 from 32: a chunk at the start and the last two (one
    full, one partial), never the whole stream."""
    assert_device_chunks_are_host_chunks(scale, 1, (0, -2, -1), chunk_edges=10_000, seed=11,
                                         scramble=scramble, weighted=weighted)


@pytest.mark.parametrize("a,b,c", [
    (0.57, 0.19, 0.19), (0.25, 0.25, 0.25), (0.45, 0.15, 0.3), (0.01, 0.01, 0.01),
    (0.97, 0.01, 0.01), (0.01, 0.97, 0.01), (0.5, 0.25, 0.25 - 2**-40),  # T3 = 2**32: no d
])
def test_unusual_probabilities(a, b, c):
    assert_device_chunks_are_host_chunks(14, 4, (0, -1), a=a, b=b, c=c, chunk_edges=30_000,
                                         seed=5, weighted=True)


@pytest.mark.parametrize("seed", [0, 1, 42, 2**63, 2**64 - 1])
def test_seeds(seed):
    assert_device_chunks_are_host_chunks(17, 2, (0, 7, -1), chunk_edges=20_000, seed=seed,
                                         weighted=True)


@pytest.mark.parametrize("scale,edge_factor", [(20, 2**13), (31, 4), (33, 2), (20, 2**44)])
def test_chunk_starts_beyond_2_pow_32(scale, edge_factor):
    """Only the chunk asked for is made; its start exceeds 2**32 (the kernel's edge index is
    64-bit), up to the last chunk of a stream of 2**64 edges."""
    chunk_edges = 9_999
    k = 2**32 // chunk_edges + 1
    assert k * chunk_edges > 2**32
    assert_device_chunks_are_host_chunks(scale, edge_factor, (k, -1), chunk_edges=chunk_edges,
                                         seed=2**64 - 1, weighted=True)


@pytest.mark.parametrize("chunk_edges", [1, 7, 255, 256, 257, 1000, 65_537, 1 << 20])
def test_chunk_sizes(chunk_edges):
    """Chunks of any size, multiples of the block size or not, and partial last chunks."""
    n = len(rmat_chunks(12, 16, chunk_edges=chunk_edges))
    assert_device_chunks_are_host_chunks(12, 16, sorted({0, 1 % n, n // 2, n - 1}),
                                         chunk_edges=chunk_edges, seed=9, weighted=True)


@st.composite
def streams(draw):
    scale = draw(st.integers(1, 40))
    edge_factor = draw(st.integers(1, 16 if scale <= 24 else 2))
    a, b, c = (draw(st.floats(0.001, 0.333)) for _ in range(3))
    chunk_edges = draw(st.integers(1, 50_000))
    n = -(-(edge_factor << scale) // chunk_edges)
    k = draw(st.integers(-n, n - 1))
    kwargs = dict(a=a, b=b, c=c, seed=draw(st.integers(0, 2**64 - 1)),
                  scramble=draw(st.booleans()), weighted=draw(st.booleans()),
                  chunk_edges=chunk_edges)
    return scale, edge_factor, k, kwargs


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=streams())
def test_any_chunk_of_any_stream(case):
    scale, edge_factor, k, kwargs = case
    assert_device_chunks_are_host_chunks(scale, edge_factor, (k,), **kwargs)
