"""Reading a NetworkX graph into the edge rows a :class:`~cugraph_compressed.CompressedGraph`
is built from.

Nodes are numbered by their position in ``list(G)``, so labels of any hashable type (mixed
ones included) become ids ``0 .. N-1`` and the graph is built without renumbering.  The rows
are every stored direction of every edge, read from NetworkX's adjacency dicts in their
order: an undirected edge gives two rows (a self loop one), so the lists the build encodes
are exactly NetworkX's adjacency lists, sorted.

What NetworkX's order depends on is kept as edge properties, only where sorting loses it:

* ``rank``: the position of the row's neighbour in its owner's adjacency list (needed by
  ``bfs_edges`` when some list is not in node order);
* ``pred_rank`` (directed graphs): the position of the row's owner in its neighbour's
  predecessor list (``bfs_edges(reverse=True)``).

Parallel edges of a multigraph become one row per node pair, weighing the smallest of their
weights (Dijkstra's reading); PageRank sums them instead, so multigraphs with parallel edges
also carry each pair's summed weight and its number of edges.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

#: Integer weights above this lose precision as float64, which distances are computed in.
EXACT_INT = 2**53


@dataclass
class EdgeRows:
    """The rows of one graph, NetworkX's adjacency order, ids are positions in ``labels``.

    Attributes
    ----------
    labels : list
        The nodes, in ``list(G)`` order.
    src, dst : numpy.ndarray
        int64 owner and neighbour of each row.
    rank, pred_rank : numpy.ndarray or None
        int32 positions in the owner's list and in the neighbour's predecessor list; None
        where every list is in node order (sorting then keeps NetworkX's order).
    weight : numpy.ndarray or None
        float64 weight of each row (smallest of a pair's parallel edges); None without a
        weight attribute.
    weight_sum, multiplicity : numpy.ndarray or None
        float64 summed weight (1 per edge without an attribute) and int32 count of each
        pair's parallel edges; None unless the graph has parallel edges.
    int_weights : bool
        Every weight read is an int (or bool): shortest path lengths are then ints.
    """

    labels: list
    src: np.ndarray
    dst: np.ndarray
    rank: np.ndarray | None
    pred_rank: np.ndarray | None
    weight: np.ndarray | None
    weight_sum: np.ndarray | None
    multiplicity: np.ndarray | None
    int_weights: bool


def read_edges(G, weight=None, default=1) -> EdgeRows:
    """The :class:`EdgeRows` of NetworkX graph ``G``.

    Parameters
    ----------
    G : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph (or a view of one)
    weight : hashable, optional
        The edge attribute holding weights; None reads none.
    default : number
        The weight of an edge without the attribute (NetworkX's default is 1).

    Raises
    ------
    NotImplementedError
        A weight that is not a real number, or an integer weight beyond 2**53 (float64, which
        distances are computed in, would round it).  NetworkX then runs the call itself.
    """
    labels = list(G)
    index = {label: i for i, label in enumerate(labels)}
    # ``adjacency()`` hands out NetworkX's own dicts (``G.adj`` wraps each in a view, which
    # costs a call per entry).
    successors = dict(G.adjacency())
    lists = [successors[label] for label in labels]
    src, dst, rank = _rows(index, lists)
    pred_rank = None
    if G.is_directed():
        predecessors = dict(G.reverse(copy=False).adjacency())
        pred_lists = [predecessors[label] for label in labels]
        owner, neighbour, position = _rows(index, pred_lists)
        if position is not None:  # align the predecessor positions with the rows
            pred_rank = _aligned(len(labels), (owner, neighbour), (dst, src), position)
    weights = weight_sum = multiplicity = None
    int_weights = True
    if G.is_multigraph():
        counts = np.fromiter((len(keys) for nbrs in lists for keys in nbrs.values()),
                             dtype=np.int64, count=src.size)
        parallel = bool((counts > 1).any())
        flat = None
        if weight is not None:
            flat, int_weights = _numbers(
                [d.get(weight, default) for nbrs in lists for keys in nbrs.values()
                 for d in keys.values()], weight)
        elif parallel:
            flat = np.ones(int(counts.sum()))
        starts = np.cumsum(counts) - counts
        if weight is not None:  # reduceat takes no empty input: a graph without edges
            weights = np.minimum.reduceat(flat, starts) if counts.size else flat
        if parallel:
            weight_sum = np.add.reduceat(flat, starts)
            multiplicity = counts.astype(np.int32)
    elif weight is not None:
        weights, int_weights = _numbers(
            [d.get(weight, default) for nbrs in lists for d in nbrs.values()], weight)
    return EdgeRows(labels=labels, src=src, dst=dst, rank=rank, pred_rank=pred_rank,
                    weight=weights, weight_sum=weight_sum, multiplicity=multiplicity,
                    int_weights=int_weights)


def _rows(index, lists):
    """``(owner, neighbour, position)`` of every entry of ``lists`` (dicts keyed by node), in
    their order; ``position`` is None when each list is in increasing node order."""
    degrees = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    total = int(degrees.sum())
    neighbour = np.fromiter((index[v] for nbrs in lists for v in nbrs), dtype=np.int64,
                            count=total)
    owner = np.repeat(np.arange(len(lists), dtype=np.int64), degrees)
    same_list = owner[1:] == owner[:-1]
    if not (same_list & (neighbour[1:] <= neighbour[:-1])).any():
        return owner, neighbour, None
    starts = np.cumsum(degrees) - degrees
    position = np.arange(total, dtype=np.int64) - np.repeat(starts, degrees)
    return owner, neighbour, position.astype(np.int32)


def _aligned(n: int, pairs, wanted, values):
    """``values`` (one per pair of ``pairs``) in the order of ``wanted``, the same pairs."""
    keys = pairs[0] * n + pairs[1]
    order = np.argsort(keys)
    at = np.searchsorted(keys[order], wanted[0] * n + wanted[1])
    return values[order[at]]


def _numbers(values: list, weight):
    """``values`` as float64, and whether all were ints; NotImplementedError for anything
    NetworkX would not add as a real number the way float64 does."""
    array = np.asarray(values) if values else np.zeros(0, dtype=np.int64)
    kind = array.dtype.kind
    if kind == "O":  # Python ints beyond int64, or mixed types
        bad = next((v for v in values if not isinstance(v, numbers.Real)), None)
        if bad is not None:
            raise NotImplementedError(
                f"edge attribute {weight!r} holds {bad!r}, which is not a real number")
        ints = all(isinstance(v, numbers.Integral) for v in values)
        if ints and max(abs(int(v)) for v in values) > EXACT_INT:
            raise _inexact(weight)
        return array.astype(np.float64), ints
    if kind in "biu":
        if array.size and max(abs(int(array.min())), abs(int(array.max()))) > EXACT_INT:
            raise _inexact(weight)
        return array.astype(np.float64), True
    if kind == "f":
        return array.astype(np.float64), False
    raise NotImplementedError(f"edge attribute {weight!r} holds {values[0]!r} "
                              f"({array.dtype}), which is not a real number")


def _inexact(weight):
    return NotImplementedError(f"edge attribute {weight!r} holds integers beyond 2**53, "
                               "which float64 distances would round")
