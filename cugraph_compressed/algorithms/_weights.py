"""Checks of edge weights that cost no per-edge memory on the GPU.

A host-placed graph's weights are in pinned host memory and an algorithm may hold per-vertex
state only on the GPU: a mask as long as the weights (``weights < 0``) would be a per-edge
temporary on every call.  On the GPU the bad weights are counted by one reduction kernel that
reads each weight once and allocates nothing per edge; only when some are bad is the first one
looked for, in bounded pieces.
"""
from __future__ import annotations

import functools

from .._backend import is_cupy_array

#: Weights per piece of the search for the first bad weight (the error path only).
PIECE = 1 << 20


def _bad(weights, negative: bool):
    """Mask of NaN weights, and of negative ones when ``negative``."""
    bad = weights != weights
    if negative:
        bad |= weights < 0
    return bad


@functools.cache
def _count_kernel(negative: bool):
    import cupy as cp

    test = "(w != w || w < 0)" if negative else "(w != w)"
    return cp.ReductionKernel("T w", "int64 count", f"{test} ? 1 : 0", "a + b", "count = a", "0",
                              f"cgc_bad_weights_{int(negative)}", reduce_type="long long")


def bad_weights(weights, negative: bool = False):
    """``(count, first)``: how many weights are NaN (or negative, with ``negative``) and the
    index of the first, or ``(0, None)``.

    NumPy arrays are checked with whole-array masks; CuPy arrays (in GPU or pinned host
    memory) by a reduction kernel that allocates nothing per weight, the first bad weight
    then found piece by piece (:data:`PIECE` weights at a time)."""
    if not is_cupy_array(weights):
        bad = _bad(weights, negative)
        count = int(bad.sum())
        return count, (int(bad.argmax()) if count else None)
    count = int(_count_kernel(negative)(weights))
    if not count:
        return 0, None
    for start in range(0, int(weights.size), PIECE):
        bad = _bad(weights[start:start + PIECE], negative)
        if bool(bad.any()):
            return count, start + int(bad.argmax())
    return count, None  # not reached: the count found one


def graph_bad_weights(adjacency, negative: bool = False):
    """:func:`bad_weights` of the adjacency's weights, counted once per graph: a graph is
    immutable once built, so the answer is kept with its other derived values
    (``Adjacency.derive``) and later calls of SSSP or PageRank skip the pass over the
    weights."""
    return adjacency.derive(("bad_weights", negative),
                            lambda: bad_weights(adjacency.weights, negative))
