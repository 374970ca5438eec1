"""Checks and constants shared by the algorithm front ends."""
from __future__ import annotations

import numpy as np


def check_graph(G) -> bool:
    """True for a built CompressedGraph; False for anything to hand to cuGraph instead.

    A CompressedGraph with no edge list loaded yet raises ValueError.
    """
    from ..graph import CompressedGraph

    if not isinstance(G, CompressedGraph):
        return False
    if G._layout is None:
        raise ValueError("the CompressedGraph is empty: call from_cudf_edgelist or from_pandas_edgelist first")
    return True


def vertex_sentinel(dtype):
    """Distance of an unreachable vertex: the largest value of the vertex dtype (cuGraph's)."""
    return np.iinfo(np.dtype(dtype)).max


def cugraph_module():
    """cuGraph itself, for graphs that are not ours; TypeError when it is not installed."""
    try:
        import cugraph
    except ImportError as exc:
        raise TypeError(
            "this function takes a CompressedGraph; other graph types go to cuGraph, "
            f"which is not importable here ({exc})"
        ) from None
    return cugraph
