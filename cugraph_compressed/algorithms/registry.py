"""Which algorithm runs on which layout, on which backend: the one registry.

Every layout runs every algorithm on the host backend (the host versions only use a layout's
host decoder).  On the GPU every algorithm runs on every layout with a device view: the kernels
are written once against the view interface (``formats/csr.cuh`` documents it) and instantiated
per view type.  :func:`supported` lists what runs where and :func:`require` is the one check
the algorithm front ends make.
"""
from __future__ import annotations

from .._backend import HOST

ALGORITHMS = ("bfs", "sssp", "pagerank", "weakly_connected_components")



def supported() -> dict:
    """``{algorithm: {"host": [layouts], "device": [layouts]}}`` for every algorithm."""
    from ..formats import FORMATS

    device = sorted(device_layouts())
    return {name: {"host": sorted(FORMATS), "device": device} for name in ALGORITHMS}


def device_layouts(algorithm: str | None = None) -> frozenset:
    """Layouts on which ``algorithm`` (every algorithm: they share one traversal core) has GPU
    kernels: those with a device view."""
    from ._device import device_layouts as with_view

    return frozenset(with_view())


def require(algorithm: str, G) -> None:
    """NotImplementedError naming where ``algorithm`` runs when ``G`` is not such a graph."""
    if G.backend == HOST or G.format in device_layouts(algorithm):
        return
    where = sorted(device_layouts(algorithm))
    raise NotImplementedError(
        f"{algorithm} on the GPU runs on layout(s) {where} so far, not on format {G.format!r}; "
        "a host graph (from_pandas_edgelist) runs it on every layout"
    )
