"""Graph500 R-MAT edge lists, generated on the host (NumPy) or on the device (cuGraph).

R-MAT places each of ``edge_factor * 2**scale`` edges in the ``2**scale x 2**scale`` adjacency
matrix by descending ``scale`` levels; at every level it picks one quadrant: top-left with
probability ``a`` (source bit 0, destination bit 0), top-right ``b`` (0, 1), bottom-left ``c``
(1, 0) or bottom-right ``d = 1 - a - b - c`` (1, 1).  The levels are independent, so the bits of
an edge's ids are drawn most significant first.  Duplicate edges and self loops are kept, as in
Graph500 and ``cugraph.generators.rmat``: graph builders drop them.

Host stream (deterministic for a given ``seed``; edge placement and scrambling use only raw PCG64
output, which NumPy keeps stable across versions): instead of one draw per level, one 64-bit
draw settles ``_LEVELS_PER_DRAW`` levels at once by sampling the joint outcome of those levels
(``4**k`` cells, each the product of its per-level quadrant probabilities) with Walker's alias
method: the top ``2k`` bits pick a cell, the low 32 bits accept it or take its alias.  This is
exact up to 2**-32 per cell, finer than the float32 uniforms cuGraph compares against.  Edges
are made in chunks of ``_CHUNK_EDGES`` so temporary memory stays bounded; the chunk size is
part of the stream's definition.

Scrambling applies a seeded bijection of ``[0, 2**scale)`` (:func:`scramble_vertex_ids`) so
vertex ids no longer correlate with degree.  The device branch uses cuGraph's own generator and
its own (seed-independent) scrambling, so host and device graphs differ for the same seed.
"""

import functools
import numbers
import sys

import numpy as np

__all__ = ["check_arguments", "rmat_edgelist", "scramble_vertex_ids"]

_MAX_SCALE = 40
_LEVELS_PER_DRAW = 8           # 4**8 = 65536 alias cells: 384 KiB of tables, cached
_CHUNK_EDGES = 1 << 20
_SCRAMBLE_ROUNDS = 4
# Independent sub-streams of one seed: edge placement, weights, vertex-id permutation.
_STREAM_EDGES, _STREAM_WEIGHTS, _STREAM_SCRAMBLE = 0, 1, 2


def rmat_edgelist(scale, edge_factor=16, *, a=0.57, b=0.19, c=0.19, seed=42, scramble=True,
                  weighted=False, backend="host"):
    """Generate a Graph500 R-MAT edge list.

    Parameters
    ----------
    scale : int
        Vertex ids lie in ``[0, 2**scale)``; 1 to 40.
    edge_factor : int, default 16
        Number of generated edges per vertex: ``num_edges = edge_factor * 2**scale``; at least 1.
    a, b, c : float, default 0.57, 0.19, 0.19
        Probabilities of the top-left, top-right and bottom-left quadrants at every level; each
        in [0, 1] and ``a + b + c <= 1`` (the bottom-right quadrant gets the rest).
    seed : int, default 42
        Non-negative seed; the same seed gives the same edge list (per backend).
    scramble : bool, default True
        Permute vertex ids with a seeded bijection so that ids do not reveal degrees.
    weighted : bool, default False
        Add a ``weight`` column, float32, uniform in (0, 1].
    backend : {"host", "device"}, default "host"
        ``"host"`` generates with NumPy and returns a pandas DataFrame; ``"device"`` calls
        ``cugraph.generators.rmat`` and returns a cuDF DataFrame (needs ``scale <= 30`` and
        fewer than ``2**31 - 1`` edges, the limits of cuGraph's int32 ids and of a cuDF column).

    Returns
    -------
    pandas.DataFrame or cudf.DataFrame
        Columns ``source`` and ``destination`` (int32 when ``2**scale <= 2**31``, else int64),
        plus ``weight`` when `weighted`.  Duplicates and self loops are included.

    Raises
    ------
    ValueError
        If an argument is out of range; the message names the value and the bound.

    Examples
    --------
    >>> df = rmat_edgelist(10, seed=1)
    >>> len(df), str(df["source"].dtype)
    (16384, 'int32')
    """
    scale, edge_factor, a, b, c, seed = check_arguments(scale, edge_factor, a, b, c, seed, backend)
    num_edges = edge_factor << scale
    if backend == "device":
        return _device_rmat(scale, num_edges, a, b, c, seed, bool(scramble), bool(weighted))
    return _host_rmat(scale, num_edges, a, b, c, seed, bool(scramble), bool(weighted))


def scramble_vertex_ids(ids, scale, *, seed=42):
    """Apply the seeded vertex-id permutation that :func:`rmat_edgelist` uses on the host.

    The map is a bijection of ``[0, 2**scale)``: a few rounds of multiplying by an odd constant
    and adding a constant (both modulo ``2**scale``) followed by a right xor-shift, each step
    invertible on ``scale``-bit integers.

    Parameters
    ----------
    ids : array_like of int
        Vertex ids in ``[0, 2**scale)``.
    scale : int
        Number of id bits, 1 to 40.
    seed : int, default 42
        Non-negative seed; the same seed as given to :func:`rmat_edgelist`.

    Returns
    -------
    numpy.ndarray
        The permuted ids, uint64, same shape as `ids`.
    """
    scale = _check_int("scale", scale, 1, _MAX_SCALE)
    seed = _check_int("seed", seed, 0, None)
    ids = np.asarray(ids)
    x = ids.astype(np.uint64)                       # a copy: scrambled in place below
    if ids.size and (ids.min() < 0 or x.max() >> np.uint64(scale)):
        raise ValueError(f"scramble_vertex_ids: ids must lie in [0, 2**{scale}); "
                         f"got values in [{ids.min()}, {ids.max()}]")
    _scramble(x, scale, _scramble_keys(seed))
    return x


# ----------------------------------------------------------------------------- validation

def _check_int(name, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < lo or (hi is not None and value > hi):
        bound = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return value


def check_arguments(scale, edge_factor, a, b, c, seed, backend):
    """Check :func:`rmat_edgelist`'s arguments without generating anything.

    Returns
    -------
    tuple
        ``(scale, edge_factor, a, b, c, seed)`` as ints and floats.

    Raises
    ------
    ValueError
        If an argument is out of range; the message names the value and the bound.
    """
    scale = _check_int("scale", scale, 1, _MAX_SCALE)
    edge_factor = _check_int("edge_factor", edge_factor, 1, None)
    seed = _check_int("seed", seed, 0, None)
    probs = []
    for name, p in (("a", a), ("b", b), ("c", c)):
        if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0.0 <= p <= 1.0:
            raise ValueError(f"{name} must be a probability in [0, 1], got {p!r}")
        probs.append(float(p))
    # A little slack so that e.g. a=0.6, b=0.3, c=0.1 is not refused for float rounding.
    if sum(probs) > 1.0 + 1e-9:
        raise ValueError(f"a + b + c must be <= 1, got {probs[0]} + {probs[1]} + {probs[2]} "
                         f"= {sum(probs)}")
    if backend not in ("host", "device"):
        raise ValueError(f"backend must be 'host' or 'device', got {backend!r}")
    return (scale, edge_factor, *probs, seed)


def _id_dtype(scale):
    return np.dtype(np.int32) if scale <= 31 else np.dtype(np.int64)


# ----------------------------------------------------------------------------- host

def _host_rmat(scale, num_edges, a, b, c, seed, scramble, weighted):
    import pandas as pd

    dtype = _id_dtype(scale)
    acc = np.uint32 if scale <= 32 else np.uint64     # narrow accumulators: half the traffic
    src_out = np.empty(num_edges, dtype=dtype)
    dst_out = np.empty(num_edges, dtype=dtype)
    steps = [_LEVELS_PER_DRAW] * (scale // _LEVELS_PER_DRAW)
    if scale % _LEVELS_PER_DRAW:
        steps.append(scale % _LEVELS_PER_DRAW)
    tables = {k: _alias_table(a, b, c, k) for k in set(steps)}
    bitgen = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(_STREAM_EDGES,)))
    width = np.iinfo(acc).max
    keys = ([(acc(int(m) & width), acc(int(d) & width)) for m, d in _scramble_keys(seed)]
            if scramble else None)
    # Bits 48..63 and 0..31 of each raw draw, read through views rather than shifts.
    top16, low32 = (3, 0) if sys.byteorder == "little" else (0, 1)

    for start in range(0, num_edges, _CHUNK_EDGES):
        m = min(_CHUNK_EDGES, num_edges - start)
        src = np.zeros(m, dtype=acc)
        dst = np.zeros(m, dtype=acc)
        for k in steps:
            threshold, alias = tables[k]
            raw = bitgen.random_raw(m)
            cell = raw.view(np.uint16)[top16::4]
            if k < _LEVELS_PER_DRAW:
                cell = cell >> np.uint16(16 - 2 * k)          # the top 2k bits choose a cell
            keep = raw.view(np.uint32)[low32::2] < threshold[cell]
            cell = np.where(keep, cell, alias[cell])          # ... or its alias
            # cell = (source bits << k) | destination bits, most significant level first
            src <<= acc(k)
            src |= cell >> np.uint16(k)
            dst <<= acc(k)
            dst |= cell & np.uint16((1 << k) - 1)
        if keys is not None:
            _scramble(src, scale, keys)
            _scramble(dst, scale, keys)
        src_out[start:start + m] = src
        dst_out[start:start + m] = dst

    columns = {"source": src_out, "destination": dst_out}
    if weighted:
        rng = np.random.Generator(
            np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(_STREAM_WEIGHTS,))))
        weight = rng.random(num_edges, dtype=np.float32)   # [0, 1) on a 2**-24 grid
        np.subtract(np.float32(1), weight, out=weight)      # exact: (0, 1]
        columns["weight"] = weight
    return pd.DataFrame(columns, copy=False)


@functools.lru_cache(maxsize=8)
def _alias_table(a, b, c, k):
    """Walker alias table over the joint outcome of k R-MAT levels.

    Cell ``(s << k) | t`` (s, t k-bit source / destination fragments) has probability
    ``prod_j P[s_j, t_j]`` with ``P = [[a, b], [c, d]]``.  Returns (threshold, alias), uint32
    and uint16: draw a cell i uniformly and a 32-bit u; keep i when u < threshold[i], else take
    alias[i].
    """
    d = max(0.0, 1.0 - a - b - c)
    level = np.array([[a, b], [c, d]], dtype=np.float64)
    joint = np.ones((1, 1))
    for _ in range(k):
        joint = np.kron(joint, level)                 # appends one level as the new low bit
    n = joint.size
    scaled = (joint.ravel() * (n / joint.sum())).tolist()   # mean 1; lists: fast scalar access
    threshold = np.ones(n, dtype=np.float64)
    alias = np.arange(n, dtype=np.uint16)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    # Vose's pairing: each under-full cell is topped up by one over-full cell.
    while small and large:
        lo, hi = small.pop(), large.pop()
        threshold[lo] = scaled[lo]
        alias[lo] = hi
        scaled[hi] -= 1.0 - scaled[lo]
        (small if scaled[hi] < 1.0 else large).append(hi)
    # Leftovers differ from 1 only by rounding: they keep themselves (threshold 1, alias self,
    # so capping their threshold at 2**32 - 1 changes nothing; elsewhere it is a 2**-32 shift).
    threshold = np.minimum(np.round(threshold * 2.0**32), 2.0**32 - 1).astype(np.uint32)
    return threshold, alias


def _scramble_keys(seed):
    rng = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(_STREAM_SCRAMBLE,)))
    raw = rng.random_raw(2 * _SCRAMBLE_ROUNDS)
    return [(raw[2 * r] | np.uint64(1), raw[2 * r + 1]) for r in range(_SCRAMBLE_ROUNDS)]


def _scramble(x, scale, keys):
    """Permute scale-bit ids in place (x: uint32 or uint64 array, keys of the same dtype)."""
    # Every step is a bijection of scale-bit integers: multiplying by an odd number and adding
    # modulo 2**scale (unsigned arithmetic wraps modulo 2**32 or 2**64, multiples of 2**scale),
    # and x ^= x >> s with s >= 1 (the top s bits are unchanged, so the rest can be peeled back).
    t = x.dtype.type
    mask = t((1 << scale) - 1)
    shift = t(max(1, (scale + 1) // 2))
    for mul, add in keys:
        x *= mul
        x += add
        x &= mask
        x ^= x >> shift
    return x


# ----------------------------------------------------------------------------- device

def _device_rmat(scale, num_edges, a, b, c, seed, scramble, weighted):
    # cuGraph's C API picks int32 ids whenever num_edges < 2**31 - 1 and then requires
    # 2**scale <= 2**31 - 1; a cuDF column holds fewer than 2**31 rows anyway.
    if scale > 30:
        raise ValueError(f"backend='device' supports scale <= 30 (cuGraph int32 ids), got {scale}")
    if num_edges >= 2**31 - 1:
        raise ValueError(f"backend='device' supports fewer than 2**31 - 1 edges (one cuDF "
                         f"column), got {num_edges}")
    import cupy
    from cugraph.generators import rmat

    if a + b + c > 1.0:  # within check_arguments' rounding slack; cuGraph has none
        c = max(0.0, 1.0 - a - b)
    df = rmat(scale, int(num_edges), a=a, b=b, c=c, seed=int(seed), clip_and_flip=False,
              scramble_vertex_ids=scramble, create_using=None)   # None: return the edge frame
    df = df.rename(columns={"src": "source", "dst": "destination"})
    df["source"] = df["source"].astype("int32")
    df["destination"] = df["destination"].astype("int32")
    if weighted:
        u = cupy.random.RandomState(seed).random_sample(num_edges, dtype=cupy.float32)
        df["weight"] = cupy.float32(1) - u                   # [0, 1) -> (0, 1]
    return df
