"""SSSP at the edge of the weight dtype's range, and its cutoff, on both backends.

A path counts only while its length, in the weight dtype, is below ``finfo(dtype).max`` (cuGraph's
"unreachable" distance) and below the cutoff rounded to the weight dtype: apart from the source,
a vertex's predecessor is -1 exactly when its distance is that maximum.  The expected values are
reasoned by hand on small graphs, or come from SciPy's Dijkstra in float64.  The device cases run
on a GPU host (marker ``gpu``).
"""
import numpy as np
import pandas as pd
import pytest
from graphs import weighted_adjacency
from scipy.sparse import csgraph

import cugraph_compressed as cgc
from cugraph_compressed.algorithms.sssp import sssp

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")  # overflow is no warning
BACKENDS = ([pytest.param("host", layout, id=f"host-{layout}")
             for layout in cgc.supported()["sssp"]["host"]]
            + [pytest.param("device", layout, id=f"device-{layout}", marks=pytest.mark.gpu)
               for layout in cgc.supported()["sssp"]["device"]])
F32 = np.finfo(np.float32).max
F64 = np.finfo(np.float64).max


def run_sssp(backend, layout, edges, dtype, source=0, directed=True, **kwargs):
    """(distance, predecessor) by vertex of sssp on ``edges`` (rows ``(u, v, w)``), ids kept."""
    df = pd.DataFrame({"source": np.array([e[0] for e in edges], np.int32),
                       "destination": np.array([e[1] for e in edges], np.int32),
                       "weight": np.array([e[2] for e in edges], dtype)})
    G = cgc.CompressedGraph(directed=directed, format=layout)
    if backend == "device":
        import cudf

        G.from_cudf_edgelist(cudf.from_pandas(df), renumber=False, weight="weight")
    else:
        G.from_pandas_edgelist(df, renumber=False, weight="weight")
    result = sssp(G, source, **kwargs)
    if backend == "device":
        result = result.to_pandas()
    result = result.sort_values("vertex")
    assert result["distance"].dtype == dtype
    return result["distance"].to_numpy(), result["predecessor"].to_numpy()


def check_consistent(dist, pred, source):
    """Apart from the source, unreachable (finfo.max) exactly where the predecessor is -1."""
    others = np.arange(dist.size) != source
    assert np.array_equal((dist == np.finfo(dist.dtype).max)[others], (pred == -1)[others])


@pytest.mark.parametrize("backend, layout", BACKENDS)
def test_overflowing_path_does_not_count(backend, layout):
    """3e38 + 3e38 overflows float32: 2 is reached only that way, so it is unreachable; 4 is
    reached both that way and by a finite path of 2e38, which wins."""
    edges = [(0, 1, 3e38), (1, 2, 3e38), (0, 3, 1e38), (3, 4, 1e38), (1, 4, 3e38)]
    dist, pred = run_sssp(backend, layout, edges, np.float32)
    assert dist.tolist() == [0, np.float32(3e38), F32, np.float32(1e38),
                             np.float32(1e38) + np.float32(1e38)]
    assert pred.tolist() == [-1, 0, -1, 0, 3]


@pytest.mark.parametrize("backend, layout", BACKENDS)
def test_length_equal_to_the_largest_value_is_not_held(backend, layout):
    """A distance of finfo.max exactly would read as unreachable: it is not taken, neither over
    one edge (0 -> 1) nor as a sum (max/2 + max/2 to 3); the next float below it is (0 -> 4)."""
    below = np.nextafter(F32, np.float32(0))
    edges = [(0, 1, F32), (0, 2, F32 / 2), (2, 3, F32 / 2), (0, 4, below)]
    dist, pred = run_sssp(backend, layout, edges, np.float32)
    assert dist.tolist() == [0, F32, F32 / 2, F32, below]
    assert pred.tolist() == [-1, -1, 0, -1, 0]


@pytest.mark.parametrize("backend, layout", BACKENDS)
def test_float64_overflow_and_largest_value(backend, layout):
    """float64 weights: 1e308 + 1e308 is inf and finfo.max exactly is the sentinel; neither
    path counts."""
    edges = [(0, 1, 1e308), (1, 2, 1e308), (0, 3, F64), (0, 4, 5.0)]
    dist, pred = run_sssp(backend, layout, edges, np.float64)
    assert dist.tolist() == [0, 1e308, F64, F64, 5.0]
    assert pred.tolist() == [-1, 0, -1, -1, 0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("backend, layout", BACKENDS)
def test_infinite_weight_is_no_path(backend, layout, dtype):
    """An edge of weight inf reaches nothing (cuGraph: inf is not below finfo.max)."""
    edges = [(0, 1, np.inf), (0, 2, 1.0), (2, 3, np.inf), (2, 1, 2.0)]
    dist, pred = run_sssp(backend, layout, edges, dtype)
    big = np.finfo(dtype).max
    assert dist.tolist() == [0, 3.0, 1.0, big]
    assert pred.tolist() == [-1, 2, 0, -1]


@pytest.mark.parametrize("cutoff", [None, np.inf, 1e39, float(F32)],
                         ids=["none", "inf", "above-float32", "float32-max"])
@pytest.mark.parametrize("backend, layout", BACKENDS)
def test_cutoff_at_or_above_the_largest_value(backend, layout, cutoff):
    """A cutoff beyond float32's range bounds nothing more than no cutoff: the overflowing
    path still does not count."""
    edges = [(0, 1, 3e38), (1, 2, 3e38), (0, 3, 2.0)]
    dist, pred = run_sssp(backend, layout, edges, np.float32, cutoff=cutoff)
    assert dist.tolist() == [0, np.float32(3e38), F32, 2.0]
    assert pred.tolist() == [-1, 0, -1, 0]


@pytest.mark.parametrize("backend, layout", BACKENDS)
def test_cutoff_is_rounded_to_the_weight_dtype(backend, layout):
    """The float64 just above float32(0.1) rounds to float32(0.1), as cuGraph rounds its cutoff
    to the weight type: a vertex at float32(0.1) is then not below it."""
    tenth = float(np.float32(0.1))
    cutoff = np.nextafter(tenth, 1.0)
    assert np.float32(cutoff) == np.float32(0.1)
    edges = [(0, 1, 0.1), (0, 2, 0.05)]
    dist, pred = run_sssp(backend, layout, edges, np.float32, cutoff=cutoff)
    assert dist.tolist() == [0, F32, np.float32(0.05)]
    assert pred.tolist() == [-1, -1, 0]
    dist, pred = run_sssp(backend, layout, edges, np.float64, cutoff=cutoff)
    assert dist.tolist() == [0, 0.1, 0.05]  # float64 0.1 is below it
    assert pred.tolist() == [-1, 0, 0]


@pytest.mark.parametrize("cutoff", [-1.0, np.nan, -np.inf])
@pytest.mark.parametrize("backend, layout", BACKENDS[:1] + BACKENDS[-1:])
def test_negative_or_nan_cutoff_is_rejected(backend, layout, cutoff):
    with pytest.raises(ValueError, match="cutoff"):
        run_sssp(backend, layout, [(0, 1, 1.0)], np.float32, cutoff=cutoff)


@pytest.mark.parametrize("dtype, scale", [(np.float32, 1.5e38), (np.float64, 8e307)],
                         ids=["float32", "float64"])
@pytest.mark.parametrize("directed", [True, False], ids=["directed", "undirected"])
@pytest.mark.parametrize("backend, layout", BACKENDS)
def test_random_weights_near_the_top_of_the_range(backend, layout, directed, dtype, scale):
    """Weights of up to a fraction of finfo.max, so that many shortest paths leave the weight
    dtype's range: SciPy's float64 Dijkstra is the reference, a vertex being unreachable when
    its true distance is not below finfo.max (float64 sums overflow to inf in SciPy too)."""
    rng = np.random.default_rng(61)
    n, m = 400, 800
    df = pd.DataFrame({"source": rng.integers(0, n, m), "destination": rng.integers(0, n, m),
                       "weight": (rng.random(m) * scale).astype(dtype)})
    dist, pred = run_sssp(backend, layout, list(df.itertuples(index=False)), dtype,
                          directed=directed)
    a = weighted_adjacency(df, n, directed)
    expected = csgraph.dijkstra(a, directed=True, indices=0)
    big = np.finfo(dtype).max
    # Sums within rounding of finfo.max may fall either way; none is expected with this seed.
    near = np.abs(expected - big) <= 1e-5 * big
    assert not near.any()
    reached = expected < big
    linked = np.isfinite(csgraph.shortest_path(a, unweighted=True, directed=True, indices=0))
    assert reached.sum() > 1 and (linked & ~reached).any()  # the bound cuts some paths
    check_consistent(dist, pred, 0)
    assert np.all(dist[~reached] == big)
    assert np.allclose(dist[reached].astype(np.float64), expected[reached], rtol=1e-5)
    others = np.flatnonzero(reached & (np.arange(n) != 0))
    p = pred[others]
    w = np.asarray(a[p, others]).ravel()
    assert np.allclose(dist[p].astype(np.float64) + w, dist[others], rtol=1e-5)
