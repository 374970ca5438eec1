"""Graph layouts, one module each, all behind :class:`~cugraph_compressed.formats.base.Layout`.

``FORMATS`` maps each format name accepted by ``CompressedGraph(format=...)`` to its class.
A layout is ``<name>.py`` (its range encoder, host decoder and invariants, written in the
module docstring and checked by ``validate()``; ``encode`` and the size estimate are
``base.py``'s, on the range encoder) and ``<name>.cuh`` (its device view, the
interface documented in ``csr.cuh``); adding one takes a line here and an include in
``views.cuh``, and every algorithm kernel is then instantiated for it.  ``bits.py`` holds the
bit streams and codes the layouts share, ``base.py`` the interface and the invariant errors.
"""
from . import bits  # noqa: F401  (registers the bit-stream kernels)
from .base import Layout, LayoutInvariantError
from .cgr import CGRLayout
from .csr import CSRLayout
from .elias_fano import EliasFanoLayout
from .fixed_length import FixedLengthLayout

FORMATS = {cls.name: cls for cls in (CSRLayout, EliasFanoLayout, CGRLayout, FixedLengthLayout)}


def layout_class(name: str):
    """The layout class registered under ``name``; ValueError naming the choices otherwise."""
    try:
        return FORMATS[name]
    except (KeyError, TypeError):
        raise ValueError(f"format={name!r} is not a known layout; choose one of "
                         f"{sorted(FORMATS)}") from None


__all__ = ["FORMATS", "Layout", "LayoutInvariantError", "CSRLayout", "EliasFanoLayout", "CGRLayout",
           "FixedLengthLayout", "layout_class"]
