"""Graph layouts, one module each, all behind :class:`~cugraph_compressed.formats.base.Layout`.

``FORMATS`` maps each format name accepted by ``CompressedGraph(format=...)`` to its class.
"""
from . import _bits  # noqa: F401  (registers the bit-stream kernels)
from .base import Layout, LayoutInvariantError
from .csr import CSRLayout

FORMATS = {CSRLayout.name: CSRLayout}


def layout_class(name: str):
    """The layout class registered under ``name``; ValueError naming the choices otherwise."""
    try:
        return FORMATS[name]
    except (KeyError, TypeError):
        raise ValueError(f"format={name!r} is not a known layout; choose one of {sorted(FORMATS)}") from None


__all__ = ["FORMATS", "Layout", "LayoutInvariantError", "CSRLayout", "layout_class"]
