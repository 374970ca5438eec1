"""Single-source shortest paths, cuGraph's ``sssp`` on a CompressedGraph.

Distances come back in the weight dtype, as cuGraph returns them (the host oracle computes in
float64, the GPU in the weight dtype, as cuGraph does).  Negative and NaN weights are rejected
(cuGraph does not check them).  A path counts only while its length, in the weight dtype, is
below both the cutoff and the weight dtype's largest finite value (:func:`distance_bound`), as
in cuGraph, whose relaxation drops a candidate that is not below min(current distance, cutoff)
with every distance starting at that largest value.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .._args import check_number
from .._backend import is_scalar
from ..graph_view import OUT
from ..kernels.traversal import BLOCK, LaggedCounts, Module, SizedPasses, Traversal
from ._weights import graph_bad_weights
from .registry import ALGORITHMS, front_door


def check_weights(adjacency) -> None:
    """ValueError naming the first negative or NaN weight (cuGraph does not check)."""
    weights = adjacency.weights
    count, first = graph_bad_weights(adjacency, negative=True)
    if count:
        raise ValueError(f"sssp needs non-negative weights; found weight "
                         f"{float(weights[first])!r} ({count} negative or NaN weight(s) in all)")


def distance_bound(cutoff, dtype: np.dtype):
    """The exclusive bound on distances, in the weight dtype: ``cutoff`` rounded to it (cuGraph
    passes its cutoff to C++ as the weight type), but never above the dtype's largest finite
    value.

    Bounding by that value leaves no reached distance equal to the "unreachable" sentinel, nor
    overflowed to inf: a path whose length does not fit the weight dtype does not count.
    """
    largest = np.finfo(dtype).max
    return dtype.type(largest if cutoff is None else min(float(cutoff), float(largest)))


def sssp_host(adjacency, source: int, cutoff=None, rounds=None):
    """Label-correcting shortest paths (frontier relaxation) over the host decoder of the
    out-lists.

    Returns distances in the weight dtype (computed in float64; inf = unreachable) and
    predecessors (-1 = none).  An edge is relaxed only when its candidate distance, rounded to
    the weight dtype, is below :func:`distance_bound`, as the GPU compares it: float32 lengths
    beyond float32's range are dropped although float64 holds them.  ``rounds``: a list that
    receives each round's frontier (:func:`traced_rounds`).
    """
    layout, weights = adjacency.layout, adjacency.weights
    n = layout.num_vertices
    dist = np.full(n, np.inf)
    pred = np.full(n, -1, dtype=np.int64)
    dist[source] = 0.0
    limit = distance_bound(cutoff, weights.dtype)
    frontier = np.array([source], dtype=np.int64)
    best = np.full(n, np.inf)              # scratch, reset after each round where it was used
    slot = np.empty(n, dtype=np.int64)
    improved = np.zeros(n, dtype=bool)
    while frontier.size:
        if rounds is not None:  # each round's frontier is a new array, never written after
            rounds.append(frontier)
        owner, neighbours, positions = layout.decode_lists(frontier)
        # float64 weights may overflow to inf and float32 lengths round to inf in the cast: both
        # are paths too long to count, not errors.
        with np.errstate(over="ignore"):
            candidate = dist[frontier][owner] + weights[positions].astype(np.float64)
            held = candidate.astype(weights.dtype) < limit
        owner, neighbours, candidate = owner[held], neighbours[held], candidate[held]
        # Best candidate per target; every step below costs O(edges of the frontier), not O(n).
        np.minimum.at(best, neighbours, candidate)
        edge = np.arange(neighbours.size)
        slot[neighbours] = edge
        targets = neighbours[slot[neighbours] == edge]  # each target once, without sorting
        gain = best[targets]
        targets = targets[gain < dist[targets]]
        improved[targets] = True
        wins = improved[neighbours] & (candidate == best[neighbours])
        pred[neighbours[wins]] = frontier[owner[wins]]  # any winning edge of a tie will do
        dist[targets] = best[targets]
        improved[targets] = False
        best[neighbours] = np.inf
        frontier = targets
    return dist.astype(weights.dtype), pred


MODULE = Module(Path(__file__).with_name("sssp.cu"), {
    "relax": ("sssp_relax<{view}, {vertex}, {weight}, false>", True, True),
    "relax_warps": ("sssp_relax<{view}, {vertex}, {weight}, true>", True, True),
    "relax_packed": ("sssp_relax_packed<{view}, false>", False, True),
    "relax_warps_packed": ("sssp_relax_packed<{view}, true>", False, True),
    "promote": ("sssp_promote<{vertex}, {weight}>", True, False),
    "promote_packed": ("sssp_promote_packed", False, False),
    "unqueue": ("sssp_unqueue<{vertex}>", False, False),
    "predecessors": ("sssp_predecessors<{view}, {vertex}, {weight}, false>", True, True),
    "predecessors_warps": ("sssp_predecessors<{view}, {vertex}, {weight}, true>", True, True),
})
BUCKET_EDGES = 4  # the near pile spans about this many mean edge weights per mean degree


def bucket_width(weights, num_vertices: int) -> float:
    """Near-far's split step: ``BUCKET_EDGES`` mean weights over the mean degree.

    Narrower piles relax fewer edges more than once but take more rounds; on R-MAT graphs with
    uniform weights this width relaxes about a fifth fewer edges than Bellman-Ford's frontier
    for three times its rounds.  No positive weight: a single pile (Bellman-Ford).
    """
    mean = float(weights.mean()) if weights.size else 0.0
    if not mean > 0:
        return np.inf
    return BUCKET_EDGES * mean / max(1.0, weights.size / max(num_vertices, 1))


def packs(weight_dtype, vertex_dtype) -> bool:
    """Whether a relaxation records (distance, predecessor) in one 64-bit word: float32
    weights and int32 vertex ids."""
    return np.dtype(weight_dtype) == np.float32 and np.dtype(vertex_dtype) == np.int32


def sssp_device(adjacency, source: int, cutoff, rounds=None):
    """Near-far shortest paths on the GPU in the weight dtype over the out-lists; returns
    (dist with inf for unreachable, pred).

    Each round relaxes the near frontier in the launches of ``list_passes``, as BFS's levels
    do, with the frontier's size and item scan in device memory (``SizedPasses``): rounds are
    enqueued without reading a size on the host, which reads each round's size one round late
    (``LaggedCounts``) to see the near pile run dry.  Moving on to the next pile reads the far
    pile's size and least distance on the host (the next split depends on them).

    Predecessors: with float32 weights and int32 ids each vertex's distance and predecessor
    share one 64-bit word, lowered by one atomic minimum (the smaller distance, and the
    smaller predecessor among equal ones), so the relaxation records them.  Other weight and
    id types keep the distances alone and name the predecessors in a final pass over every
    list (some u with dist[u] + w(u, v) == dist[v]).

    ``rounds``: a list that receives a host copy of each round's frontier
    (:func:`traced_rounds`); such a run reads every round's size on the host before relaxing
    it."""
    import cupy as cp

    layout, weights = adjacency.layout, adjacency.weights
    wtype = np.dtype(weights.dtype)
    vtype = adjacency.vertex_dtype
    run = Traversal(layout, vtype, adjacency.config)
    n = layout.num_vertices
    packed = packs(wtype, vtype)
    if packed:
        # Distance bits above the predecessor; no predecessor is all ones (-1 as int32).
        infinity = np.uint64(np.float32(np.inf).view(np.uint32)) << np.uint64(32)
        dist = cp.full(n, infinity | np.uint64(0xFFFFFFFF), dtype=cp.uint64)
        dist[source] = np.uint64(0xFFFFFFFF)
    else:
        dist = cp.full(n, np.inf, dtype=wtype)
        dist[source] = 0
    words = (n + 31) // 32
    queued = cp.zeros(words, dtype=cp.uint32)
    far = cp.zeros(words, dtype=cp.uint32)
    queues = [cp.full(max(n, 1), source, dtype=vtype), cp.empty(max(n, 1), dtype=vtype)]
    sizes = cp.ones(2, dtype=cp.uint64)  # each pile's first frontier: queues[0][:1]
    least = cp.empty(1, dtype=wtype)
    limit = distance_bound(cutoff, wtype)
    with np.errstate(over="ignore"):  # a width beyond the weight dtype: one pile
        width = wtype.type(bucket_width(weights, n))
    suffix = "_packed" if packed else ""
    relax = [run.kernel(MODULE, name + suffix, weight=wtype)
             for name in ("relax", "relax_warps")]
    promote = MODULE.kernel("promote" + suffix, vertex=vtype, weight=wtype)
    unqueue = MODULE.kernel("unqueue", vertex=vtype)
    passes = SizedPasses(run, n)
    counts = LaggedCounts(cp)
    sort = run.sort_from is not None
    sized = sort or rounds is not None  # rounds wait for their size on the host

    def promoted(lo, hi):
        """Far vertices with lo <= dist < hi into queues[0] (round 0's frontier); their count
        and the least distance left in the far pile (inf when it is empty)."""
        sizes[0:1].fill(0)
        least.fill(np.inf)
        promote(*run.grid(words), (far, np.int64(words), dist, lo, hi, queued, queues[0],
                                   sizes[0:1], least))
        return int(sizes[0:1].get()[0]), wtype.type(least.get()[0])

    split = width
    count = 1
    while count:
        # The near pile's rounds: round r relaxes queues[r % 2] into the other one.
        round_ = 0
        while True:
            frontier, following = queues[round_ % 2], queues[(round_ + 1) % 2]
            size, next_size = sizes[round_ % 2:][:1], sizes[(round_ + 1) % 2:][:1]
            if sized:
                count = int(size.get()[0])
                if not count:
                    break
                if sort:
                    run.order_frontier(frontier, count)
                if rounds is not None:  # kept in host memory: the GPU holds vertex state only
                    rounds.append(frontier[:count].get())
            unqueue((passes.tiles(unqueue),), (BLOCK,), (frontier, size, queued))
            next_size.fill(0)
            passes(relax, frontier, size, passes.always, weights, limit, split, dist, queued,
                   far, following, next_size)
            counts.send(round_, next_size)
            round_ += 1
            if round_ >= 2 and not counts.receive(round_ - 2):
                break  # round `round_ - 1` had nothing to relax
        # The near pile is empty: the next one spans [split, split + width), or starts at the
        # least far distance when that window is empty.  Near the top of the weight dtype a
        # bound may round to inf: that pile then takes every distance left.
        with np.errstate(over="ignore"):
            count, least_far = promoted(split, split + width)
            if not count and least_far < np.inf:
                hi = max(least_far + width, np.nextafter(least_far, wtype.type(np.inf)))
                count, _ = promoted(split + width, hi)
                split = hi
            else:
                split = split + width
    if packed:
        pred = (dist & np.uint64(0xFFFFFFFF)).astype(cp.uint32).view(cp.int32)
        pred[source] = -1  # a zero-weight cycle back to the source may have named one
        dist = (dist >> np.uint64(32)).astype(cp.uint32).view(cp.float32)
        return dist, pred
    pred = cp.full(n, -1, dtype=vtype)
    predecessors = [run.kernel(MODULE, name, weight=wtype)
                    for name in ("predecessors", "predecessors_warps")]
    run.over_lists(predecessors, None, n, weights, dist, wtype.type(np.inf), np.int64(source),
                   pred)
    return dist, pred


def traced_rounds(view, source: int, cutoff=None) -> list:
    """The frontiers of one SSSP run from internal vertex ``source`` on the graph of ``view``
    (a ``GraphView``), on its backend: one NumPy array of internal ids per round, in the order
    the rounds ran, the vertices whose lists the round relaxed (what ``bench.reads`` counts).
    On the GPU which round holds which vertex depends on the order of the relaxations'
    atomics, so two runs can differ."""
    if view.transform is not None:  # its implementations answer on the original vertices
        raise NotImplementedError("SSSP's rounds are traced on untransformed graphs only")
    rounds = []
    ALGORITHM.run(view, source, cutoff, rounds=rounds)
    return rounds


def check_arguments(weighted: bool, source, cutoff) -> None:
    """SSSP's checks of the graph's weights, the source and the cutoff, with cuGraph's error
    types; every SSSP front door calls it."""
    if not weighted:
        raise RuntimeError("'SSSP' requires the input graph to be weighted. 'BFS' should be used "
                           "instead of 'SSSP' for unweighted graphs.")
    if not is_scalar(source):
        raise ValueError(f"sssp takes one source vertex, got {source!r}")
    if cutoff is not None and not check_number("cutoff", cutoff) >= 0:
        raise ValueError(f"cutoff={cutoff!r} must be a non-negative number")


@front_door("sssp", host=sssp_host, device=sssp_device, orientation=OUT, check=check_weights,
            source=True)
def sssp(G, source=None, method=None, directed=None, return_predecessors=None, unweighted=None,
         overwrite=None, indices=None, cutoff=None):
    """Shortest path distances from ``source`` over non-negative edge weights.

    Parameters
    ----------
    G : CompressedGraph or cugraph.Graph
        A weighted graph; anything that is not a CompressedGraph goes to cuGraph.
    source : vertex id
        The start vertex (user ids); ``indices`` is an alias.
    method, directed, return_predecessors, unweighted, overwrite : None
        SciPy-compatibility arguments that cuGraph only honours for matrix inputs.
    indices : vertex id, optional
        Alias of ``source``.
    cutoff : float, optional
        Vertices at distance ``>= cutoff`` are reported unreachable (cuGraph's strict bound),
        compared in the weight dtype with the cutoff rounded to it, as cuGraph rounds it.  A
        cutoff of ``inf``, or at or above the weight dtype's largest finite value, bounds
        nothing beyond what no cutoff bounds (see Notes).

    Returns
    -------
    DataFrame
        Columns ``distance`` (the weight dtype; unreachable = its largest finite value),
        ``vertex`` and ``predecessor`` (-1 for the source and unreachable vertices).  Apart from
        the source, a vertex's predecessor is -1 exactly when its distance is the unreachable
        value.

    Raises
    ------
    TypeError
        No source, both ``source`` and ``indices``, or a SciPy-only argument given.
    ValueError
        A source not in the graph (named in the message), negative or NaN weights, a negative
        or NaN cutoff.
    RuntimeError
        The graph has no weights.

    Notes
    -----
    A path counts only while its length, in the weight dtype, is below that dtype's largest
    finite value ``numpy.finfo(dtype).max``, which is cuGraph's "unreachable" distance.  A
    longer path (one that overflows to inf, as float32 ``3e38 + 3e38`` does, one through an
    edge of infinite weight, or one whose length is that largest value exactly) is never taken:
    a shorter finite path wins, and a vertex that only such paths reach is unreachable
    (distance ``finfo.max``, predecessor -1).  This is cuGraph's rule too: its relaxation
    (``pred_op_t`` in ``cpp/src/traversal/sssp_impl.cuh``) drops a candidate that is not below
    ``min(current distance, cutoff)``, and every distance starts at ``finfo.max``.  Both
    backends decide in the weight dtype: the GPU computes in it; the host computes in float64
    but drops a candidate whose value rounded to the weight dtype is not below the bound, so a
    float32 overflow is detected there too.

    Predecessors on the GPU: with float32 weights and int32 vertex ids the relaxation records
    them (one 64-bit atomic minimum over distance and predecessor: among equal distances the
    smallest predecessor id wins, so they do not change from run to run); other weight and id
    types name them in a separate pass after the distances are final.  Either way a vertex's
    predecessor ``u`` has ``distance[u] + weight(u, v) == distance[v]`` in the weight dtype.
    """
    # Argument errors are cuGraph's, type for type and in its order.
    if method not in (None, "auto"):
        raise ValueError(f"only 'auto' is currently accepted for method, got {method!r}")
    if isinstance(indices, list):
        raise ValueError("indices currently cannot be a list-like type")
    if source is not None and indices is not None:
        raise TypeError("cannot specify both 'source' and 'indices'")
    if source is None and indices is None:
        raise TypeError("must specify 'source' or 'indices', but not both")
    for name, value in (("directed", directed), ("return_predecessors", return_predecessors),
                        ("unweighted", unweighted), ("overwrite", overwrite)):
        if value is not None:
            raise TypeError(f"'{name}' cannot be specified for a Graph-type input")
    source = indices if source is None else source
    check_arguments(G.weighted, source, cutoff)
    start = G.ids.to_internal_one(source, "source")
    dist, pred = ALGORITHM.run(G, start, cutoff)
    dist[dist == np.inf] = np.finfo(dist.dtype).max  # cuGraph's "unreachable"
    return G.ids.vertex_frame({"distance": dist, "predecessor": pred.astype(G.vertex_dtype)},
                              vertex_at=1, ids=("predecessor",))


ALGORITHM = ALGORITHMS["sssp"]
