"""The internal vertex order of a renumbered graph: which internal id each user id gets.

* ``"sorted"``: internal id ``i`` is the ``i``-th smallest user id.
* ``"degree"`` (the default of a renumbered graph): hubs first.  Vertices are ranked by
  their degree in the input, largest first, ties by user id ascending.  The degree is that
  of the lists the graph stores, counted over the input rows: a directed graph's out-degree
  (in-degree when it is stored transposed, ``store_transposed=True``), an undirected
  graph's number of row ends naming the vertex (a self loop counts twice, as in graph
  theory).  Isolated vertices (``vertices=``) have degree 0 and come last.

The degree counts rows, parallel edges and both given directions of an undirected edge
included, rather than the deduplicated lists.  Both are independent of how the input is
chunked; the row count is the one the streaming build can know before the ids are fixed at
the cost of a counting pass (the pass a build over several vertex ranges makes anyway),
while deduplicated degrees would need every range sorted and deduplicated once more before
any edge can be encoded.  The order only places vertices for locality: any order gives the
same results in user ids.
"""
from __future__ import annotations

import numpy as np

SORTED = "sorted"
DEGREE = "degree"
ORDERS = (SORTED, DEGREE)
#: What a graph gets unless asked otherwise: resolved at the build (:func:`resolve`).
DEFAULT = None


def check_vertex_order(value):
    """``value`` as an order name, or None (the default, :func:`resolve`); TypeError for a
    non-string, ValueError naming the choices."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"vertex_order must be a string, one of {list(ORDERS)}, got {value!r}")
    if value not in ORDERS:
        raise ValueError(f"vertex_order must be one of {list(ORDERS)}, got {value!r}")
    return value


def resolve(vertex_order, renumber: bool) -> str:
    """The order a build uses: ``vertex_order`` as asked (checked against ``renumber``), or
    for the default (None) ``"degree"`` when the build renumbers and ``"sorted"`` when it
    keeps the user's ids.  ValueError when an order other than ``"sorted"`` is asked of a
    build that keeps the user's ids.

    Degree order is the default because it is faster on the GPU: hubs' state shares cache
    lines, so at R-MAT 26 on an H100 PageRank's product over ``csr`` took 13 ms an iteration
    in degree order against 25 ms in sorted order, and BFS's expansion at R-MAT 24 5 ms
    against 8 (``benchmarks/results/vertex-order``).  It costs one int32 (int64) permutation,
    4 (8) bytes a vertex."""
    if vertex_order is None:
        return DEGREE if renumber else SORTED
    if vertex_order != SORTED and not renumber:
        raise ValueError(
            f"vertex_order={vertex_order!r} needs renumber=True: with renumber=False the "
            "internal ids are the user's ids, so their order is the user's; pass "
            "renumber=True, or leave vertex_order unset")
    return vertex_order


def degree_order(counts, index_dtype, xp):
    """``(internal of rank, rank of internal)``: the permutations of the degree order, from
    the degree of every vertex in sorted-id order (``counts[r]``: the vertex of rank ``r``).

    Largest degree first, ties by rank (user id ascending)."""
    n = int(counts.size)
    if n == 0:  # nothing to sort (and no sort of empty keys to rely on)
        empty = xp.zeros(0, dtype=index_dtype)
        return empty, empty.copy()
    # A stable sort of the negated degrees keeps ties by rank; one key array, where a
    # lexsort over (rank, degree) held three.
    rank_of = xp.argsort(-counts.astype(np.int64), kind="stable").astype(index_dtype)
    internal_of = xp.empty(n, dtype=index_dtype)
    internal_of[rank_of] = xp.arange(n, dtype=index_dtype)
    return internal_of, rank_of
