"""The R-MAT generators: distribution, id range, dtypes, determinism, scrambling, validation;
for the counter-based chunks also independence from the chunking and the documented stream
(host/device bit identity: test_gpu_generators.py)."""

import math
import pickle

import numpy as np
import pytest

from cugraph_compressed.generators import rmat_chunks, rmat_edgelist, scramble_vertex_ids


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



# ----------------------------------------------------------------------------- rmat_chunks

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _ref_mix(x):
    x ^= x >> 30
    x = x * 0xBF58476D1CE4E5B9 & M64
    x ^= x >> 27
    x = x * 0x94D049BB133111EB & M64
    return x ^ (x >> 31)


def _ref_keys(seed):
    return [_ref_mix((seed + (n + 1) * GOLDEN) & M64) for n in range(5)]


def _ref_feistel(x, scale, keys, inverse=False):
    """The documented 4-round Feistel network, in Python integers (or its inverse)."""
    rbits = (scale + 1) // 2
    rmask, lmask = (1 << rbits) - 1, (1 << (scale - rbits)) - 1
    left, right = x >> rbits, x & rmask
    rounds = list(enumerate(keys[1:5]))
    for r, key in reversed(rounds) if inverse else rounds:
        if r % 2 == 0:
            right ^= _ref_mix(left ^ key) & rmask
        else:
            left ^= _ref_mix(right ^ key) & lmask
    return left << rbits | right


def _ref_edge(i, scale, a=0.57, b=0.19, c=0.19, seed=42, scramble=True):
    """Edge i of rmat_chunks, straight from its docstring, in Python integers."""
    keys = _ref_keys(seed)
    e = _ref_mix((i * GOLDEN & M64) ^ keys[0])
    draws = [_ref_mix((e + (j + 1) * GOLDEN) & M64) for j in range((scale + 1) // 2 + 1)]
    cuts = [round(p * 2**32) for p in (a, a + b, a + b + c)]
    src = dst = 0
    for level in range(scale):
        h = draws[level // 2]
        u = h >> 32 if level % 2 == 0 else h & 0xFFFFFFFF
        quadrant = sum(u >= t for t in cuts)                 # 0 .. 3: (0,0) (0,1) (1,0) (1,1)
        src, dst = src << 1 | quadrant >> 1, dst << 1 | quadrant & 1
    if scramble:
        src, dst = _ref_feistel(src, scale, keys), _ref_feistel(dst, scale, keys)
    weight = ((draws[(scale + 1) // 2] >> 40) + 1) / 2**24
    return src, dst, weight


def _whole(chunks):
    import pandas as pd

    return pd.concat(list(chunks), ignore_index=True)


def test_chunks_shape_and_attributes():
    chunks = rmat_chunks(10, 3, chunk_edges=1000, weighted=True)
    assert (len(chunks), chunks.num_edges, chunks.num_vertices, chunks.chunk_edges) == \
        (4, 3072, 1024, 1000)
    assert [len(df) for df in chunks] == [1000, 1000, 1000, 72]
    df = chunks[0]
    assert list(df.columns) == ["source", "destination", "weight"]
    assert [str(t) for t in df.dtypes] == ["int32", "int32", "float32"]
    assert list(rmat_chunks(3)[0].columns) == ["source", "destination"]
    assert len(rmat_chunks(3, chunk_edges=10**9)) == 1


@pytest.mark.parametrize("scramble", [True, False])
def test_chunks_do_not_depend_on_the_chunking(scramble):
    scale, edge_factor = 7, 5
    total = edge_factor << scale
    reference = rmat_chunks(scale, edge_factor, seed=3, scramble=scramble, weighted=True,
                            chunk_edges=total)[0]
    assert len(reference) == total
    for chunk_edges in (1, 7, 1000, total - 1, total):
        chunks = rmat_chunks(scale, edge_factor, seed=3, scramble=scramble, weighted=True,
                             chunk_edges=chunk_edges)
        assert len(chunks) == -(-total // chunk_edges)
        assert _whole(chunks).equals(reference), chunk_edges


def test_chunk_access_is_repeatable_and_list_like():
    chunks = rmat_chunks(9, seed=5, weighted=True, chunk_edges=1000)
    n = len(chunks)
    assert n == 9
    third = chunks[3]
    assert chunks[3].equals(third)
    assert chunks[5].equals(chunks[5 - n]) and chunks[-1].equals(chunks[n - 1])
    assert chunks[np.int64(3)].equals(third)
    assert list(chunks)[3].equals(third)
    # Out of order, after other chunks: the same edges.
    chunks[8], chunks[0]
    assert chunks[3].equals(third)
    for k in (n, -n - 1, 10**6):
        with pytest.raises(IndexError, match=f"chunk index {k} out of range for {n} chunks"):
            chunks[k]
    with pytest.raises(TypeError):
        chunks[1.0]
    # The object is its arguments: cheap to pickle, and the copy makes the same chunks.
    copy = pickle.loads(pickle.dumps(chunks))
    assert len(pickle.dumps(chunks)) < 1000
    assert copy[3].equals(third)


@pytest.mark.parametrize("scale,scramble", [(1, True), (5, True), (13, False), (13, True),
                                            (32, True), (40, False)])
def test_edges_are_the_documented_stream(scale, scramble):
    """An independent Python-integer implementation of the docstring gives the same edges."""
    chunk_edges = 97
    chunks = rmat_chunks(scale, 3, a=0.45, b=0.15, c=0.3, seed=2**64 - 7, scramble=scramble,
                         weighted=True, chunk_edges=chunk_edges)
    for k in sorted({0, min(1, len(chunks) - 1), len(chunks) // 3, len(chunks) - 1}):
        df = chunks[k]
        first = k * chunk_edges
        for row in (0, 1, len(df) - 1):
            expected = _ref_edge(first + row, scale, 0.45, 0.15, 0.3, 2**64 - 7, scramble)
            got = (int(df["source"].iat[row]), int(df["destination"].iat[row]),
                   float(df["weight"].iat[row]))
            assert got == expected, (k, row)


def test_int64_ids_above_2_pow_31_and_far_chunks():
    assert str(rmat_chunks(31, 1, chunk_edges=5)[-1]["source"].dtype) == "int32"
    chunks = rmat_chunks(40, 1, chunk_edges=1000)            # 2**40 edges, never all made
    assert chunks.num_edges == 1 << 40 and len(chunks) == -(-(1 << 40) // 1000)
    for k in (0, 123456789, -1):
        df = chunks[k]
        assert str(df["source"].dtype) == "int64" and str(df["destination"].dtype) == "int64"
        for col in ("source", "destination"):
            assert df[col].min() >= 0 and df[col].max() < 1 << 40
    assert len(chunks[-1]) == (1 << 40) % 1000
    # Ids use all 40 bits (the top level is drawn too).
    assert (chunks[5]["source"] >= 1 << 39).any()


def test_weights():
    plain = rmat_chunks(12, 4, seed=3)[0]
    df = rmat_chunks(12, 4, seed=3, weighted=True)[0]
    w = df["weight"].to_numpy()
    assert w.dtype == np.float32
    assert w.min() > 0 and w.max() <= 1
    assert np.all(w * 2**24 == np.round(w * 2**24))        # on the 2**-24 grid
    assert abs(float(w.mean()) - 0.5) < 5 * np.sqrt(1 / 12 / len(w))
    assert len(np.unique(w)) > 0.9 * len(w)
    assert df[["source", "destination"]].equals(plain)      # weights do not move the edges


def test_seeds_give_different_streams():
    x = rmat_chunks(11, 2, seed=0, weighted=True)[0]
    y = rmat_chunks(11, 2, seed=1, weighted=True)[0]
    assert (x["source"] != y["source"]).mean() > 0.9
    assert (x["weight"] != y["weight"]).mean() > 0.9


@pytest.mark.parametrize("a,b,c", [(0.57, 0.19, 0.19), (0.25, 0.25, 0.25), (0.45, 0.15, 0.3)])
def test_chunk_quadrants_match_the_probabilities(a, b, c):
    """Unscrambled, every bit of (source, destination) falls in quadrant (s, t) with the
    given probability, the top bit (first level) included, within 5 binomial sigmas."""
    scale = 13
    df = _whole(rmat_chunks(scale, 16, a=a, b=b, c=c, seed=9, scramble=False,
                            chunk_edges=50000))
    src, dst = df["source"].to_numpy(), df["destination"].to_numpy()
    expected = np.array([a, b, c, 1 - a - b - c])
    tolerance = 5 * np.sqrt(expected * (1 - expected) / len(src))
    for bit in range(scale):
        quadrant = ((src >> bit) & 1) * 2 + ((dst >> bit) & 1)
        freq = np.bincount(quadrant, minlength=4) / len(src)
        assert np.all(np.abs(freq - expected) <= tolerance), (bit, freq)


def test_chunk_cell_distribution_matches_rmat():
    """The levels are independent: every cell's frequency is the product over its bits."""
    scipy_stats = pytest.importorskip("scipy.stats")
    scale, a, b, c = 4, 0.57, 0.19, 0.19
    df = rmat_chunks(scale, 8192, a=a, b=b, c=c, seed=11, scramble=False)[0]
    n = 1 << scale
    observed = np.bincount(df["source"].to_numpy() * n + df["destination"].to_numpy(),
                           minlength=n * n)
    expected = _cell_probabilities(scale, a, b, c).ravel() * len(df)
    _, pvalue = scipy_stats.chisquare(observed, expected)
    assert pvalue > 1e-4


def test_chunk_scrambling_relabels_vertices_and_keeps_the_skew():
    scale = 14
    n = 1 << scale
    plain = rmat_chunks(scale, 16, seed=1, scramble=False)[0]
    scrambled = rmat_chunks(scale, 16, seed=1)[0]
    for col in ("source", "destination"):
        ids = scrambled[col].to_numpy()
        assert ids.min() >= 0 and ids.max() < n
        d0 = np.bincount(plain[col], minlength=n)
        d1 = np.bincount(ids, minlength=n)
        assert np.array_equal(np.sort(d0), np.sort(d1))      # a bijection relabels vertices
        assert not np.array_equal(d0, d1)
        assert d1.max() > 50 * d1.mean()                       # a heavy tail ...
        assert (d1 == 0).mean() > 0.1                          # ... and many idle ids
    # Unscrambled, the hubs are the ids with few one bits (a > d); scrambled, they are not.
    def popcount_of_hubs(df):
        hubs = np.argsort(np.bincount(df["source"], minlength=n))[-32:]
        return np.mean([bin(v).count("1") for v in hubs])

    assert popcount_of_hubs(plain) < 2.5
    assert popcount_of_hubs(scrambled) > 5          # 7 on average for random 14-bit ids
    # The same relabelling for sources and destinations: self loops stay self loops.
    assert np.array_equal(plain["source"] == plain["destination"],
                          scrambled["source"] == scrambled["destination"])


@pytest.mark.parametrize("scale", range(1, 17))
def test_feistel_is_a_bijection_exhaustively(scale):
    from cugraph_compressed.generators import _feistel

    keys = _ref_keys(12)
    ids = np.arange(1 << scale, dtype=np.uint64)
    perm = _feistel(ids, scale, keys[1:])
    assert np.array_equal(np.sort(perm), ids)
    if scale >= 4:
        assert (perm != ids).mean() > 0.5


@pytest.mark.parametrize("scale", [17, 24, 31, 32, 33, 39, 40])
def test_feistel_inverts(scale):
    from cugraph_compressed.generators import _feistel

    keys = _ref_keys(5)
    rng = np.random.default_rng(scale)
    ids = np.concatenate([rng.integers(0, 1 << scale, 300, dtype=np.uint64),
                          np.array([0, (1 << scale) - 1], dtype=np.uint64)])
    perm = _feistel(ids, scale, keys[1:])
    assert int(perm.max()) < 1 << scale
    assert [_ref_feistel(int(v), scale, keys, inverse=True) for v in perm] == \
        [int(v) for v in ids]


@pytest.mark.parametrize("kwargs,error,match", [
    ({"scale": 2.0}, TypeError, r"scale must be an integer, got 2.0"),
    ({"scale": "4"}, TypeError, r"scale must be an integer, got '4'"),
    ({"scale": True}, TypeError, r"scale must be an integer, got True"),
    ({"scale": 0}, ValueError, r"scale must be in \[1, 40\], got 0"),
    ({"scale": 41}, ValueError, r"scale must be in \[1, 40\], got 41"),
    ({"scale": 4, "edge_factor": 0}, ValueError, r"edge_factor must be >= 1, got 0"),
    ({"scale": 4, "edge_factor": 1.5}, TypeError, r"edge_factor must be an integer"),
    ({"scale": 4, "a": 0.0}, ValueError, r"a must be a probability in \(0, 1\), got 0.0"),
    ({"scale": 4, "b": 1.0}, ValueError, r"b must be a probability in \(0, 1\), got 1.0"),
    ({"scale": 4, "c": float("nan")}, ValueError, r"c must be a probability in \(0, 1\), got nan"),
    ({"scale": 4, "a": "0.5"}, TypeError, r"a must be a real number, got '0.5'"),
    ({"scale": 4, "a": 0.6, "b": 0.3, "c": 0.2}, ValueError, r"a \+ b \+ c must be < 1"),
    ({"scale": 4, "a": 0.5, "b": 0.25, "c": 0.25}, ValueError, r"a \+ b \+ c must be < 1"),
    ({"scale": 4, "seed": -1}, ValueError, r"seed must be in \[0, 18446744073709551615\]"),
    ({"scale": 4, "seed": 2**64}, ValueError, r"seed must be in \[0, 18446744073709551615\]"),
    ({"scale": 4, "chunk_edges": 0}, ValueError, r"chunk_edges must be >= 1, got 0"),
    ({"scale": 4, "chunk_edges": None}, TypeError, r"chunk_edges must be an integer"),
    ({"scale": 4, "backend": "gpu"}, ValueError, r"backend must be 'host' or 'device'"),
    ({"scale": 28, "chunk_edges": 2**31, "backend": "device"}, ValueError,
     r"fewer than 2\*\*31 rows"),
])
def test_chunk_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        rmat_chunks(**kwargs)


def test_chunk_arguments_accept_numpy_scalars():
    chunks = rmat_chunks(np.int64(6), np.int32(2), a=np.float32(0.5), seed=np.uint64(2**63),
                         chunk_edges=np.int16(100))
    assert (len(chunks), len(chunks[0])) == (2, 100)
