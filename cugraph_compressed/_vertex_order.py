"""The internal vertex order of a renumbered graph: which internal id each user id gets.

* ``"sorted"`` (the default): internal id ``i`` is the ``i``-th smallest user id.
* ``"degree"``: hubs first.  Vertices are ranked by their degree in the input, largest
  first, ties by user id ascending.  The degree is that of the lists the graph stores,
  counted over the input rows: a directed graph's out-degree (in-degree when it is stored
  transposed, ``store_transposed=True``), an undirected graph's number of row ends naming
  the vertex (a self loop counts twice, as in graph theory).  Isolated vertices
  (``vertices=``) have degree 0 and come last.

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
#: What a graph gets unless asked otherwise; it may change once measurements choose.
DEFAULT = SORTED


def check_vertex_order(value) -> str:
    """``value`` as an order name; TypeError for a non-string, ValueError naming the choices."""
    if not isinstance(value, str):
        raise TypeError(f"vertex_order must be a string, one of {list(ORDERS)}, got {value!r}")
    if value not in ORDERS:
        raise ValueError(f"vertex_order must be one of {list(ORDERS)}, got {value!r}")
    return value


def check_with_renumber(vertex_order: str, renumber: bool) -> None:
    """ValueError when an order other than ``"sorted"`` is asked of a graph that keeps the
    user's ids."""
    if vertex_order != SORTED and not renumber:
        raise ValueError(
            f"vertex_order={vertex_order!r} needs renumber=True: with renumber=False the "
            "internal ids are the user's ids, so their order is the user's; pass "
            "renumber=True, or leave vertex_order at 'sorted'")


def degree_order(counts, index_dtype, xp):
    """``(internal of rank, rank of internal)``: the permutations of the degree order, from
    the degree of every vertex in sorted-id order (``counts[r]``: the vertex of rank ``r``).

    Largest degree first, ties by rank (user id ascending)."""
    n = int(counts.size)
    if n == 0:  # nothing to sort (and no sort of empty keys to rely on)
        empty = xp.zeros(0, dtype=index_dtype)
        return empty, empty.copy()
    ranks = xp.arange(n, dtype=np.int64)
    # lexsort: the last key is the primary one; NumPy's and CuPy's both take a (k, n) array.
    rank_of = xp.lexsort(xp.stack([ranks, -counts.astype(np.int64)])).astype(index_dtype)
    internal_of = xp.empty(n, dtype=index_dtype)
    internal_of[rank_of] = xp.arange(n, dtype=index_dtype)
    return internal_of, rank_of
