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

:func:`rmat_chunks` is the generator for streaming builds and graphs larger than memory: a
counter-based stream in which every edge is a pure function of its index, generated chunk by
chunk, lazily, with the same bits from NumPy on the host and, on the device, from one CUDA
kernel per chunk (``generators.cu``) that computes each edge in registers.  Its edges follow
the same distribution but are not those of :func:`rmat_edgelist`.
"""

import dataclasses
import functools
import numbers
import operator
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ._args import check_int
from .kernels import get_kernel, grid_size, register

__all__ = ["RMATChunks", "check_arguments", "rmat_chunks", "rmat_edgelist",
           "scramble_vertex_ids"]

_MAX_SCALE = 40
_LEVELS_PER_DRAW = 8           # 4**8 = 65536 alias cells: 384 KiB of tables, cached
_CHUNK_EDGES = 1 << 20
_SCRAMBLE_ROUNDS = 4
# Independent sub-streams of one seed: edge placement, weights, vertex-id permutation.
_STREAM_EDGES, _STREAM_WEIGHTS, _STREAM_SCRAMBLE = 0, 1, 2
# rmat_chunks' counter-based stream (specified in its docstring).
_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15              # SplitMix64's increment
_MIX = ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB), (31, None))
_FEISTEL_ROUNDS = 4
_HOST_BLOCK = 1 << 15                     # host edges per pass: temporaries stay in cache
_KERNELS = Path(__file__).with_name("generators.cu")   # the device's counter-based stream
_KERNEL_IDS = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}   # per _id_dtype
_BLOCK = 256                              # rmat::BLOCK in generators.cu


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
    scale = check_int("scale", scale, 1, _MAX_SCALE, not_int=ValueError)
    seed = check_int("seed", seed, 0, not_int=ValueError)
    ids = np.asarray(ids)
    x = ids.astype(np.uint64)                       # a copy: scrambled in place below
    if ids.size and (ids.min() < 0 or x.max() >> np.uint64(scale)):
        raise ValueError(f"scramble_vertex_ids: ids must lie in [0, 2**{scale}); "
                         f"got values in [{ids.min()}, {ids.max()}]")
    _scramble(x, scale, _scramble_keys(seed))
    return x


def rmat_chunks(scale, edge_factor=16, *, a=0.57, b=0.19, c=0.19, seed=42, scramble=True,
                weighted=False, chunk_edges=2**24, backend="host"):
    """A Graph500 R-MAT edge list as a lazy sequence of chunks, for streaming builds.

    Every edge is a pure function of the arguments (other than `chunk_edges` and `backend`) and its
    index ``i`` in ``[0, edge_factor * 2**scale)``: a counter-based hash of ``(seed, i)``, not
    a sequential random stream.  So chunk ``k`` regenerates exactly the same edges every time
    it is asked for (a build may read its input several times without storing it), the edges
    do not depend on how they are cut into chunks, and NumPy and the device's CUDA kernel
    compute the same bits (only wrapping uint64 multiply, add, xor and shifts, integer
    comparisons, and exact integer to float conversions).  Nothing is generated until a chunk
    is asked for; the returned object holds only the arguments, so it is cheap to pickle and
    send to workers.

    The stream, in uint64 arithmetic modulo ``2**64`` (so that it can be reproduced elsewhere):

    - ``mix(x)`` is SplitMix64's finaliser: ``x ^= x >> 30; x *= 0xBF58476D1CE4E5B9;
      x ^= x >> 27; x *= 0x94D049BB133111EB; x ^= x >> 31``; ``G = 0x9E3779B97F4A7C15``.
    - Keys ``k[n] = mix(seed + (n + 1) * G)``, ``n = 0 .. 4`` (SplitMix64 seeded with `seed`):
      ``k[0]`` for the edges, ``k[1] .. k[4]`` for the scrambling rounds.
    - Edge ``i`` has the key ``e = mix((i * G) ^ k[0])`` and the draws
      ``h[j] = mix(e + (j + 1) * G)``, ``j = 0, 1, ...``.
    - Level ``l = 0 .. scale - 1`` sets bit ``scale - 1 - l`` of the source and destination
      ids (the most significant first).  It reads the 32-bit ``u``: the high half of
      ``h[l // 2]`` for even ``l``, the low half for odd ``l``, and picks the quadrant
      ``(0, 0)`` if ``u < T1``, else ``(0, 1)`` if ``u < T2``, else ``(1, 0)`` if ``u < T3``,
      else ``(1, 1)``, where ``T1, T2, T3 = round(p * 2**32)`` for ``p = a, a + b, a + b + c``
      (in float64).  The quadrant probabilities are thus rounded to multiples of ``2**-32``,
      finer than the float32 uniforms cuGraph compares against.
    - The weight, if `weighted`, is ``((h[ceil(scale / 2)] >> 40) + 1) * 2**-24``: float32 in
      ``(0, 1]``, exact, from a draw the ids do not use (the ids do not depend on `weighted`).
    - If `scramble`, both ids then go through a 4-round Feistel network on ``scale`` bits,
      which is a bijection of ``[0, 2**scale)`` for any round function: with ``R`` the low
      ``ceil(scale / 2)`` bits and ``L`` the high ``floor(scale / 2)`` bits, rounds
      ``r = 1, 3`` do ``R ^= mix(L ^ k[r])`` and rounds ``r = 2, 4`` do ``L ^= mix(R ^ k[r])``,
      each truncated to the width of the half it changes; the id is then ``L * 2**len(R) + R``.
      Hubs are thus spread over the id range, and the degree multiset does not change.

    Parameters
    ----------
    scale : int
        Vertex ids lie in ``[0, 2**scale)``; 1 to 40.
    edge_factor : int, default 16
        Edges per vertex id: ``num_edges = edge_factor * 2**scale``; at least 1.
    a, b, c : float, default 0.57, 0.19, 0.19
        Probabilities of the quadrants (0, 0), (0, 1) and (1, 0) (source bit, destination bit)
        at every level; each in (0, 1) and ``a + b + c < 1`` (``d = 1 - a - b - c``).
    seed : int, default 42
        In ``[0, 2**64)``.
    scramble : bool, default True
        Relabel vertex ids by the seeded Feistel bijection above, so hubs are not small ids.
    weighted : bool, default False
        Add a float32 ``weight`` column, uniform in (0, 1] on a grid of ``2**-24``.
    chunk_edges : int, default 2**24
        Edges per chunk (the last chunk may be shorter); at least 1.  With
        ``backend="device"`` a chunk must have fewer than ``2**31`` rows (one cuDF column).
    backend : {"host", "device"}, default "host"
        ``"host"``: chunks are pandas DataFrames computed with NumPy; ``"device"``: cuDF
        DataFrames computed on the current device by one CUDA kernel launch per chunk, which
        writes the columns directly (no host round trip, no temporaries).

    Returns
    -------
    RMATChunks
        A sequence: ``len(chunks)`` chunks, ``chunks[k]`` (negative ``k`` counts from the
        end, ``IndexError`` past it), iteration in order.  Chunk ``k`` holds edges
        ``k * chunk_edges`` to ``min((k + 1) * chunk_edges, num_edges) - 1`` in order, with
        columns ``source`` and ``destination`` (int32 when ``2**scale <= 2**31``, else int64)
        and ``weight`` (float32) when `weighted`.

    Raises
    ------
    TypeError
        If `scale`, `edge_factor`, `seed` or `chunk_edges` is not an integer, or a
        probability is not a real number.
    ValueError
        If an argument is out of range (the message names the value and the bound), or
        `backend` is unknown.

    Notes
    -----
    Guaranteed: the edges above, whatever the chunking, the backend, the process or the
    order in which chunks are asked for.  Not guaranteed: that they are the edges of
    :func:`rmat_edgelist` or ``cugraph.generators.rmat`` (other generators; the distribution
    is the same), or that the edges are distinct: duplicates and self loops are kept, as in
    Graph500.  The hash is a statistical mixer, not a cryptographic one.

    Examples
    --------
    >>> chunks = rmat_chunks(10, chunk_edges=5000, seed=1)
    >>> len(chunks), chunks.num_edges, len(chunks[-1]), str(chunks[0]["source"].dtype)
    (4, 16384, 1384, 'int32')
    """
    scale = check_int("scale", scale, 1, _MAX_SCALE)
    edge_factor = check_int("edge_factor", edge_factor, 1)
    seed = check_int("seed", seed, 0, _MASK64)
    chunk_edges = check_int("chunk_edges", chunk_edges, 1)
    probs = []
    for name, p in (("a", a), ("b", b), ("c", c)):
        if isinstance(p, bool) or not isinstance(p, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {p!r}")
        if not 0.0 < p < 1.0:
            raise ValueError(f"{name} must be a probability in (0, 1), got {p!r}")
        probs.append(float(p))
    if not sum(probs) < 1.0:
        raise ValueError(f"a + b + c must be < 1, got {probs[0]} + {probs[1]} + {probs[2]} "
                         f"= {sum(probs)}")
    if backend not in ("host", "device"):
        raise ValueError(f"backend must be 'host' or 'device', got {backend!r}")
    num_edges = edge_factor << scale
    if backend == "device" and min(chunk_edges, num_edges) >= 2**31:
        raise ValueError(f"backend='device' needs chunks of fewer than 2**31 rows (one cuDF "
                         f"column), got chunk_edges={chunk_edges}")
    return RMATChunks(scale, edge_factor, *probs, seed, bool(scramble), bool(weighted),
                      chunk_edges, backend)


@dataclasses.dataclass(frozen=True)
class RMATChunks:
    """The lazy sequence of edge frames that :func:`rmat_chunks` returns (and checks).

    It holds only the arguments, plus the derived ``num_edges`` (``edge_factor * 2**scale``)
    and ``num_vertices`` (``2**scale``); ``chunks[k]`` generates chunk ``k`` afresh on every
    call, so nothing but the arguments is kept or pickled.
    """

    scale: int
    edge_factor: int
    a: float
    b: float
    c: float
    seed: int
    scramble: bool
    weighted: bool
    chunk_edges: int
    backend: str

    @property
    def num_vertices(self):
        return 1 << self.scale

    @property
    def num_edges(self):
        return self.edge_factor << self.scale

    def __len__(self):
        return -(-self.num_edges // self.chunk_edges)

    def __getitem__(self, k):
        n = len(self)
        k = operator.index(k)
        if not -n <= k < n:
            raise IndexError(f"chunk index {k} out of range for {n} chunks")
        start = (k % n) * self.chunk_edges
        stop = min(start + self.chunk_edges, self.num_edges)
        stream = _Stream.of(self.scale, self.a, self.b, self.c, self.seed, self.scramble,
                            self.weighted)
        if self.backend == "device":
            return _device_chunk(stream, start, stop)
        return _host_chunk(stream, start, stop)

    def __iter__(self):
        for k in range(len(self)):
            yield self[k]


# ----------------------------------------------------------------------------- validation

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
    scale = check_int("scale", scale, 1, _MAX_SCALE, not_int=ValueError)
    edge_factor = check_int("edge_factor", edge_factor, 1, not_int=ValueError)
    seed = check_int("seed", seed, 0, not_int=ValueError)
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


# ----------------------------------------------------------------------------- counter-based

class _Stream(NamedTuple):
    """What the counter-based stream needs, derived once from rmat_chunks' arguments."""

    scale: int
    edge_key: int
    round_keys: tuple
    cuts: tuple          # T1, T2, T3: 32-bit quadrant thresholds
    scramble: bool
    weighted: bool

    @staticmethod
    @functools.lru_cache(maxsize=16)
    def of(scale, a, b, c, seed, scramble, weighted):
        # SplitMix64 seeded with `seed`; NumPy here, so the keys are the same for every backend.
        counters = np.arange(1, 2 + _FEISTEL_ROUNDS, dtype=np.uint64) * np.uint64(_GOLDEN)
        counters += np.uint64(seed)
        keys = [int(k) for k in _mix(counters)]
        cuts = tuple(int(round(p * 2.0**32)) for p in (a, a + b, a + b + c))
        return _Stream(scale, keys[0], tuple(keys[1:]), cuts, scramble, weighted)


def _mix(x):
    """SplitMix64's finaliser, in place on a uint64 NumPy array (wraps mod 2**64)."""
    for shift, multiplier in _MIX:
        x ^= x >> np.uint64(shift)
        if multiplier is not None:
            x *= np.uint64(multiplier)
    return x


def _counter_edges(stream, start, stop):
    """Edges start .. stop-1 of the stream: (source, destination, weight or None), uint64 ids.

    The host's generator, and the reference that the device's kernel (``generators.cu``)
    matches bit for bit: NumPy, one level at a time over a block of edges.
    """
    scale = stream.scale
    key = np.arange(stop - start, dtype=np.uint64)
    key += np.uint64(start)                    # edge indices, added in integers
    key *= np.uint64(_GOLDEN)
    key ^= np.uint64(stream.edge_key)
    _mix(key)
    src = np.zeros_like(key)
    dst = np.zeros_like(key)
    draw = np.empty_like(key)
    u = np.empty_like(key)
    t1, t2, t3 = (np.uint64(t) for t in stream.cuts)
    low32 = np.uint64(0xFFFFFFFF)
    one = np.uint64(1)
    for level in range(scale):
        if level % 2 == 0:
            np.add(key, np.uint64((level // 2 + 1) * _GOLDEN & _MASK64), out=draw)
            _mix(draw)
            np.right_shift(draw, np.uint64(32), out=u)
        else:
            np.bitwise_and(draw, low32, out=u)
        # Quadrants in the order (0,0) (0,1) (1,0) (1,1) on [0, 2**32): the source bit is
        # u >= T2, the destination bit is 1 in the second and fourth: (u>=T1)^(u>=T2)^(u>=T3).
        above2 = u >= t2
        dst_bit = u >= t1
        dst_bit ^= above2
        dst_bit ^= u >= t3
        src <<= one
        src |= above2
        dst <<= one
        dst |= dst_bit
    weight = None
    if stream.weighted:
        np.add(key, np.uint64(((scale + 1) // 2 + 1) * _GOLDEN & _MASK64), out=draw)
        _mix(draw)
        draw >>= np.uint64(40)
        draw += one
        weight = draw.astype(np.float32)      # at most 2**24: exact
        weight *= np.float32(2.0**-24)        # a power of two: exact
    if stream.scramble:
        src = _feistel(src, scale, stream.round_keys)
        dst = _feistel(dst, scale, stream.round_keys)
    return src, dst, weight


def _feistel(x, scale, keys):
    """The Feistel bijection of [0, 2**scale) of rmat_chunks' docstring (uint64 array x)."""
    right_bits = (scale + 1) // 2
    right_mask = np.uint64((1 << right_bits) - 1)
    left_mask = np.uint64((1 << (scale - right_bits)) - 1)
    right = x & right_mask
    left = x >> np.uint64(right_bits)
    for r, key in enumerate(keys):
        # Each round xors one half with a function of the other: undone by the same round.
        if r % 2 == 0:
            right ^= _mix(left ^ np.uint64(key)) & right_mask
        else:
            left ^= _mix(right ^ np.uint64(key)) & left_mask
    left <<= np.uint64(right_bits)
    left |= right
    return left


def _host_chunk(stream, start, stop):
    import pandas as pd

    dtype = _id_dtype(stream.scale)
    m = stop - start
    columns = {"source": np.empty(m, dtype=dtype), "destination": np.empty(m, dtype=dtype)}
    if stream.weighted:
        columns["weight"] = np.empty(m, dtype=np.float32)
    for lo in range(start, stop, _HOST_BLOCK):
        hi = min(lo + _HOST_BLOCK, stop)
        parts = _counter_edges(stream, lo, hi)
        for out, part in zip(columns.values(), parts):
            out[lo - start:hi - start] = part     # ids < 2**scale: the cast is exact
    return pd.DataFrame(columns, copy=False)


def _device_chunk(stream, start, stop):
    """One launch of ``rmat_edges`` (``generators.cu``) writes the chunk's final columns."""
    import cudf
    import cupy

    dtype = _id_dtype(stream.scale)
    m = stop - start
    src = cupy.empty(m, dtype=dtype)
    dst = cupy.empty(m, dtype=dtype)
    weight = cupy.empty(m if stream.weighted else 0, dtype=cupy.float32)  # unread if empty
    kernel = get_kernel(_KERNELS, f"rmat_edges<{_KERNEL_IDS[dtype]}>", _instantiations())
    keys = (stream.edge_key, *stream.round_keys, *stream.cuts)
    kernel((grid_size(m, _BLOCK),), (_BLOCK,),
           (np.uint64(start), np.int64(m), *(np.uint64(k) for k in keys),
            np.int32(stream.scale), np.int32(stream.scramble), np.int32(stream.weighted),
            src, dst, weight))
    # A finished chunk: a consumer on another stream may read it at once, and timing the
    # generator (benchmarks/streaming_build.py) times the kernel, not its launch.
    cupy.cuda.get_current_stream().synchronize()
    columns = {"source": src, "destination": dst}
    if stream.weighted:
        columns["weight"] = weight
    # cuDF wraps CuPy arrays through the CUDA array interface without copying (the frame keeps
    # them alive); weights are never NaN, so nan_as_null=False spares a scan of them.
    return cudf.DataFrame(columns, nan_as_null=False)


def _instantiations():
    return [f"rmat_edges<{name}>" for name in _KERNEL_IDS.values()]


register(_KERNELS, _instantiations)
