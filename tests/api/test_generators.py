"""The R-MAT generator: distribution, id range, dtypes, determinism, scrambling, validation."""

import math

import numpy as np
import pytest

from cugraph_compressed.generators import rmat_edgelist, scramble_vertex_ids


def _cell_probabilities(scale, a, b, c):
    """P(source = s, destination = t) for every cell, one level (bit) at a time."""
    d = 1.0 - a - b - c
    quadrant = {(0, 0): a, (0, 1): b, (1, 0): c, (1, 1): d}
    n = 1 << scale
    p = np.empty((n, n))
    for s in range(n):
        for t in range(n):
            p[s, t] = math.prod(quadrant[(s >> j) & 1, (t >> j) & 1] for j in range(scale))
    return p


def _unscramble(y, scale, keys):
    """Invert the documented rounds (multiply-add, then x ^= x >> shift) independently."""
    mask = (1 << scale) - 1
    shift = max(1, (scale + 1) // 2)
    y = [int(v) for v in y]
    for mul, add in reversed(keys):
        inv = pow(int(mul) & mask | 1, -1, 1 << scale) if scale else 0
        out = []
        for v in y:
            x = v
            for _ in range(scale // shift + 1):  # fixed point of x = v ^ (x >> shift)
                x = v ^ (x >> shift)
            out.append(((x - int(add)) * inv) & mask)
        y = out
    return np.array(y, dtype=np.uint64)


@pytest.mark.parametrize("scale", [1, 2, 5, 10, 13])
def test_shape_dtype_and_range(scale):
    df = rmat_edgelist(scale, 4, seed=7)
    assert list(df.columns) == ["source", "destination"]
    assert len(df) == 4 << scale
    for col in ("source", "destination"):
        values = df[col].to_numpy()
        assert values.dtype == np.int32
        assert values.min() >= 0 and values.max() < 1 << scale


def test_weighted_column():
    plain = rmat_edgelist(12, seed=3)
    df = rmat_edgelist(12, seed=3, weighted=True)
    w = df["weight"].to_numpy()
    assert list(df.columns) == ["source", "destination", "weight"]
    assert w.dtype == np.float32
    assert w.min() > 0 and w.max() <= 1
    assert abs(float(w.mean()) - 0.5) < 0.01
    assert len(np.unique(w)) > len(w) // 2
    # Weights come from their own stream: the structure does not change.
    assert np.array_equal(df["source"], plain["source"])
    assert np.array_equal(df["destination"], plain["destination"])


def test_deterministic_by_seed():
    x = rmat_edgelist(11, seed=5, weighted=True)
    y = rmat_edgelist(11, seed=5, weighted=True)
    z = rmat_edgelist(11, seed=6, weighted=True)
    assert x.equals(y)
    assert not np.array_equal(x["source"], z["source"])
    assert not np.array_equal(x["weight"], z["weight"])


def test_cell_distribution_matches_rmat():
    """Unscrambled, every cell's frequency matches the product of its quadrant probabilities."""
    scipy_stats = pytest.importorskip("scipy.stats")
    scale, a, b, c = 4, 0.57, 0.19, 0.19
    df = rmat_edgelist(scale, 8192, a=a, b=b, c=c, seed=11, scramble=False)
    n = 1 << scale
    observed = np.bincount(df["source"].to_numpy() * n + df["destination"].to_numpy(),
                           minlength=n * n)
    expected = _cell_probabilities(scale, a, b, c).ravel() * len(df)
    assert expected.sum() == pytest.approx(len(df))
    _, pvalue = scipy_stats.chisquare(observed, expected)
    assert pvalue > 1e-4


@pytest.mark.parametrize("a,b,c", [(0.57, 0.19, 0.19), (0.25, 0.25, 0.25), (0.45, 0.15, 0.3)])
def test_every_level_picks_quadrants_with_the_given_probabilities(a, b, c):
    scale = 13   # spans a full 8-level draw and a 5-level remainder
    df = rmat_edgelist(scale, 16, a=a, b=b, c=c, seed=2, scramble=False)
    src, dst = df["source"].to_numpy(), df["destination"].to_numpy()
    expected = np.array([a, b, c, 1 - a - b - c])
    tolerance = 5 * np.sqrt(expected * (1 - expected) / len(src)) + 1e-12
    for bit in range(scale):
        quadrant = ((src >> bit) & 1) * 2 + ((dst >> bit) & 1)
        freq = np.bincount(quadrant, minlength=4) / len(src)
        assert np.all(np.abs(freq - expected) <= tolerance), (bit, freq)


def test_degenerate_probabilities():
    df = rmat_edgelist(9, 2, a=1.0, b=0.0, c=0.0, scramble=False)
    assert (df["source"] == 0).all() and (df["destination"] == 0).all()
    df = rmat_edgelist(9, 2, a=0.0, b=0.0, c=0.0, scramble=False)   # d = 1
    assert (df["source"] == 511).all() and (df["destination"] == 511).all()
    df = rmat_edgelist(10, 4, a=0.5, b=0.25, c=0.25, scramble=False)  # d = 0
    assert not (df["source"].to_numpy() & df["destination"].to_numpy()).any()


def test_degree_skew():
    scale = 14
    df = rmat_edgelist(scale, 16, seed=1)
    degree = np.bincount(df["source"].to_numpy(), minlength=1 << scale)
    assert degree.mean() == 16
    assert degree.max() > 50 * degree.mean()          # a heavy tail ...
    assert (degree == 0).mean() > 0.1                 # ... and many vertices without out-edges


def test_scramble_is_the_documented_permutation():
    scale, seed = 12, 9
    plain = rmat_edgelist(scale, 4, seed=seed, scramble=False)
    scrambled = rmat_edgelist(scale, 4, seed=seed)
    perm = scramble_vertex_ids(np.arange(1 << scale), scale, seed=seed)
    assert np.array_equal(scrambled["source"], perm[plain["source"].to_numpy()])
    assert np.array_equal(scrambled["destination"], perm[plain["destination"].to_numpy()])
    # Scrambling only relabels vertices: the degree multiset is unchanged.
    d0 = np.bincount(plain["source"], minlength=1 << scale)
    d1 = np.bincount(scrambled["source"], minlength=1 << scale)
    assert np.array_equal(np.sort(d0), np.sort(d1))
    assert not np.array_equal(d0, d1)


@pytest.mark.parametrize("scale", [1, 2, 3, 8, 16])
def test_scramble_is_a_bijection(scale):
    ids = np.arange(1 << scale)
    perm = scramble_vertex_ids(ids, scale, seed=4)
    assert perm.max() < 1 << scale
    assert np.array_equal(np.sort(perm), ids.astype(np.uint64))


@pytest.mark.parametrize("scale", [5, 17, 31, 32, 33, 40])
def test_scramble_inverts(scale):
    from cugraph_compressed.generators import _scramble_keys

    rng = np.random.default_rng(scale)
    ids = np.unique(np.concatenate([rng.integers(0, 1 << scale, 200, dtype=np.uint64),
                                    np.array([0, (1 << scale) - 1], dtype=np.uint64)]))
    perm = scramble_vertex_ids(ids, scale, seed=13)
    assert perm.max() < 1 << scale
    assert len(np.unique(perm)) == len(ids)
    assert np.array_equal(_unscramble(perm, scale, _scramble_keys(13)), ids)
    assert not np.array_equal(perm, scramble_vertex_ids(ids, scale, seed=14))


def test_id_dtype_switches_above_2_pow_31():
    from cugraph_compressed.generators import _id_dtype

    assert _id_dtype(31) == np.int32
    assert _id_dtype(32) == np.int64


@pytest.mark.parametrize("kwargs,match", [
    ({"scale": 0}, r"scale must be in \[1, 40\], got 0"),
    ({"scale": 41}, r"scale must be in \[1, 40\], got 41"),
    ({"scale": 2.5}, r"scale must be an integer, got 2.5"),
    ({"scale": True}, r"scale must be an integer, got True"),
    ({"scale": 4, "edge_factor": 0}, r"edge_factor must be >= 1, got 0"),
    ({"scale": 4, "a": -0.1}, r"a must be a probability in \[0, 1\], got -0.1"),
    ({"scale": 4, "b": 1.5}, r"b must be a probability in \[0, 1\], got 1.5"),
    ({"scale": 4, "c": float("nan")}, r"c must be a probability in \[0, 1\], got nan"),
    ({"scale": 4, "a": 0.6, "b": 0.3, "c": 0.2}, r"a \+ b \+ c must be <= 1"),
    ({"scale": 4, "seed": -1}, r"seed must be >= 0, got -1"),
    ({"scale": 4, "backend": "gpu"}, r"backend must be 'host' or 'device', got 'gpu'"),
])
def test_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rmat_edgelist(**kwargs)


def test_probabilities_summing_to_one_with_rounding_are_accepted():
    df = rmat_edgelist(3, a=0.6, b=0.3, c=0.1)   # 0.6 + 0.3 + 0.1 = 1.0000000000000002
    assert len(df) == 16 * 8


def test_numpy_integers_accepted():
    df = rmat_edgelist(np.int64(6), np.int32(2), seed=np.uint8(3))
    assert len(df) == 2 << 6


def test_scramble_vertex_ids_rejects_out_of_range():
    with pytest.raises(ValueError, match=r"\[0, 2\*\*4\)"):
        scramble_vertex_ids([0, 16], 4)


@pytest.mark.gpu  # conftest skips (or fails, on GPU hosts) without cuDF, cuGraph and RMM
def test_device_generator():
    df = rmat_edgelist(12, 8, seed=3, weighted=True, backend="device")
    assert type(df).__module__.startswith("cudf")
    assert list(df.columns) == ["source", "destination", "weight"]
    assert len(df) == 8 << 12
    assert str(df["source"].dtype) == "int32" and str(df["destination"].dtype) == "int32"
    assert str(df["weight"].dtype) == "float32"
    host = df.to_pandas()
    assert host["source"].min() >= 0 and host["destination"].max() < 1 << 12
    assert host["weight"].min() > 0 and host["weight"].max() <= 1
    again = rmat_edgelist(12, 8, seed=3, weighted=True, backend="device").to_pandas()
    assert host.equals(again)
    degree = np.bincount(host["source"], minlength=1 << 12)
    assert degree.max() > 20 * degree.mean()
    with pytest.raises(ValueError, match="scale <= 30"):
        rmat_edgelist(31, 1, backend="device")
