"""Which algorithm runs on which layout, on which backend: the one registry.

Every layout runs every algorithm on the host backend (the host versions only use a layout's
host decoder).  On the GPU an algorithm runs on the layouts whose device view its kernels are
instantiated for; :func:`supported` lists them and :func:`require` is the one check the
algorithm front ends make.
"""
from __future__ import annotations

from .._backend import HOST

ALGORITHMS = ("bfs", "sssp", "pagerank", "weakly_connected_components")

# algorithm -> layouts with device kernels
_DEVICE = {"bfs": {"csr"}}


def supported() -> dict:
    """``{algorithm: {"host": [layouts], "device": [layouts]}}`` for every algorithm."""
    from ..formats import FORMATS

    return {name: {"host": sorted(FORMATS), "device": sorted(_DEVICE.get(name, ()))}
            for name in ALGORITHMS}


def device_layouts(algorithm: str) -> frozenset:
    """Layouts on which ``algorithm`` has GPU kernels."""
    return frozenset(_DEVICE.get(algorithm, ()))


def require(algorithm: str, G) -> None:
    """NotImplementedError naming where ``algorithm`` runs when ``G`` is not such a graph."""
    if G.backend == HOST or G.format in _DEVICE.get(algorithm, ()):
        return
    where = sorted(_DEVICE.get(algorithm, ()))
    raise NotImplementedError(
        f"{algorithm} on the GPU runs on layout(s) {where} so far, not on format {G.format!r}; "
        "a host graph (from_pandas_edgelist) runs it on every layout"
    )
