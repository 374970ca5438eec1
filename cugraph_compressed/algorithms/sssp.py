"""Single-source shortest paths, cuGraph's ``sssp`` on a CompressedGraph.

Distances are computed in float64 on the host and returned in the weight dtype, as cuGraph
returns them.  Negative and NaN weights are rejected (cuGraph does not check them).
"""
from __future__ import annotations

import numpy as np

from ._common import check_graph, cugraph_module as _cugraph
from .registry import require


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
        Vertices at distance ``>= cutoff`` are reported unreachable (cuGraph's strict bound).

    Returns
    -------
    DataFrame
        Columns ``distance`` (the weight dtype; unreachable = its largest finite value),
        ``vertex`` and ``predecessor`` (-1 for the source and unreachable vertices).

    Raises
    ------
    TypeError
        No source, both ``source`` and ``indices``, or a SciPy-only argument given.
    ValueError
        A source not in the graph (named in the message), negative or NaN weights.
    RuntimeError
        The graph has no weights.
    """
    if not check_graph(G):
        return _cugraph().sssp(G, source=source, method=method, directed=directed,
                               return_predecessors=return_predecessors, unweighted=unweighted,
                               overwrite=overwrite, indices=indices, cutoff=cutoff)
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
    if not G.is_weighted():
        raise RuntimeError("'SSSP' requires the input graph to be weighted. 'BFS' should be used "
                           "instead of 'SSSP' for unweighted graphs.")
    if np.ndim(source) != 0:
        raise ValueError(f"sssp takes one source vertex, got {source!r}")
    if cutoff is not None and not float(cutoff) >= 0:
        raise ValueError(f"cutoff={cutoff!r} must be a non-negative number")
    weights = G._properties["weight"]
    check_weights(weights)
    (start,) = G._internal_ids([source], "source")
    require("sssp", G)
    dist, pred = sssp_host(G._layout, weights, int(start), cutoff)
    dtype = np.dtype(weights.dtype)
    unreachable = ~np.isfinite(dist)
    out = dist.astype(dtype)
    out[unreachable] = np.finfo(dtype).max
    return G._frame({"distance": out, "vertex": G._vertex_ids(),
                     "predecessor": G._user_ids(pred.astype(G.vertex_dtype))})


def check_weights(weights) -> None:
    """ValueError naming the first negative or NaN weight (cuGraph does not check)."""
    xp_bad = (weights < 0) | (weights != weights)
    if bool(xp_bad.any()):
        first = weights[int(xp_bad.argmax())]
        raise ValueError(f"sssp needs non-negative weights; found weight {float(first)!r} "
                         f"({int(xp_bad.sum())} negative or NaN weight(s) in all)")


def sssp_host(layout, weights, source: int, cutoff=None):
    """Label-correcting shortest paths (frontier relaxation) over the layout's host decoder.

    Returns float64 distances (inf = unreachable) and predecessors (-1 = none).
    """
    n = layout.num_vertices
    dist = np.full(n, np.inf)
    pred = np.full(n, -1, dtype=np.int64)
    dist[source] = 0.0
    limit = np.inf if cutoff is None else float(cutoff)
    frontier = np.array([source], dtype=np.int64)
    while frontier.size:
        owner, neighbours, positions = layout.decode_lists(frontier)
        candidate = dist[frontier][owner] + weights[positions].astype(np.float64)
        # Best candidate per target: order by (target, distance) and keep the first.
        order = np.lexsort((candidate, neighbours))
        neighbours, candidate, owner = neighbours[order], candidate[order], owner[order]
        first = np.ones(neighbours.size, dtype=bool)
        first[1:] = neighbours[1:] != neighbours[:-1]
        neighbours, candidate, owner = neighbours[first], candidate[first], owner[first]
        better = (candidate < dist[neighbours]) & (candidate < limit)
        dist[neighbours[better]] = candidate[better]
        pred[neighbours[better]] = frontier[owner[better]]
        frontier = neighbours[better]
    return dist, pred
