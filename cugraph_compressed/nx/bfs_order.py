"""NetworkX's breadth-first order, rebuilt from the levels the package's BFS computes.

NetworkX's ``bfs_edges`` visits the parents of a level in the order it discovered them and
each parent's neighbours in adjacency order, so a vertex of level ``L + 1`` is discovered from
the first (in that order) of its neighbours on level ``L``, and the level's discovery order is
the sort of those edges by (position of the parent on its level, position of the child in the
parent's list).  The package's BFS gives every vertex's level; the edges that climb one level
are then read from the stored lists (with NetworkX's list positions, kept as edge ids where
sorting lost them) and sorted level by level, which is all NetworkX's order takes.
"""
from __future__ import annotations

import numpy as np

from .. import _backend
from .._build import default_budget, piece_rows
from .._source import StoredEdges
from ..algorithms.registry import ALGORITHMS
from ..graph_view import OUT


def bfs_levels(view, source: int, depth_limit):
    """Every vertex's hop count from ``source`` (-1: not reached within ``depth_limit``,
    None: no limit), int64 on the graph's backend."""
    sources = np.array([source], dtype=view.vertex_dtype)
    dist, _ = ALGORITHMS["bfs"].run(view, sources, depth_limit)
    levels = dist.astype(np.int64)
    levels[dist == np.iinfo(dist.dtype).max] = -1
    return levels


def discovery_order(view, levels, budget=None, vertex_key=None):
    """The vertices NetworkX's BFS discovers (all reached ones but the source), in its order,
    and the vertex each is discovered from.

    Parameters
    ----------
    view : GraphView
        The graph searched (its out-lists).
    levels : array
        :func:`bfs_levels` of the search.
    budget : int, optional
        Bytes of working memory the stored edges are read under (default: the backend's).
    vertex_key : numpy.ndarray, optional
        A sort key per vertex to order each parent's neighbours by (``sort_neighbors=sorted``:
        the label's rank); default NetworkX's adjacency order.

    Returns
    -------
    (children, parents) : tuple of numpy.ndarray
        int64 internal ids.
    """
    source, target, key = _climbing_edges(view, levels, budget, vertex_key)
    host_levels = _backend.to_host(levels)
    level = host_levels[source]
    order = np.argsort(level, kind="stable")
    source, target, key, level = source[order], target[order], key[order], level[order]
    top = int(host_levels.max()) if host_levels.size else 0
    bounds = np.searchsorted(level, np.arange(top + 1))
    position = np.zeros(host_levels.size, dtype=np.int64)  # of each vertex on its level
    children, parents = [], []
    for depth in range(top):
        lo, hi = bounds[depth], bounds[depth + 1]
        s, t = source[lo:hi], target[lo:hi]
        first_seen = np.lexsort((key[lo:hi], position[s]))
        t, s = t[first_seen], s[first_seen]
        _, first = np.unique(t, return_index=True)
        first.sort()
        found = t[first]
        position[found] = np.arange(found.size)
        children.append(found)
        parents.append(s[first])
    if not children:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(children), np.concatenate(parents)


def _climbing_edges(view, levels, budget, vertex_key):
    """``(source, target, key)`` host arrays of the stored edges from a reached vertex to one
    a level further, read piece by piece on the graph's backend; ``key`` orders a parent's
    neighbours as NetworkX lists them."""
    adjacency = view.adjacency(OUT)
    ranks = adjacency.properties.get("edge_id") if vertex_key is None else None
    properties = {} if ranks is None else {"rank": ranks}
    edges = StoredEdges(adjacency.layout, properties, view.backend, adjacency.in_lists,
                        adjacency.config, what="ordering a breadth-first search")
    xp = _backend.array_module(view.backend)
    with _backend.allocations(view.backend):
        key_of = None if vertex_key is None else xp.asarray(vertex_key)
    rows = piece_rows(budget or default_budget(view.backend))
    parts = []
    with _backend.allocations(view.backend):
        for piece in edges.pieces(rows, np.int64):
            src, dst = piece.src, piece.dst
            keep = (levels[src] >= 0) & (levels[dst] == levels[src] + 1)
            src, dst = src[keep], dst[keep]
            if key_of is not None:
                key = key_of[dst]
            elif ranks is not None:
                key = piece.properties["rank"][keep]
            else:  # every list is in node order, which sorting kept
                key = dst
            parts.append(tuple(_backend.to_host(a).astype(np.int64) for a in (src, dst, key)))
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    return tuple(np.concatenate(column) for column in zip(*parts))
