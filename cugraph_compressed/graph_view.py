"""What an algorithm sees of a graph: :class:`GraphView` and :class:`Adjacency`.

The algorithms reach a :class:`~cugraph_compressed.CompressedGraph` only through these two
frozen records, made by ``CompressedGraph.view()``:

* :class:`GraphView`: how the graph was built (backend, directedness, storage), its vertex ids
  (:class:`~cugraph_compressed._ids.VertexIds`: user ids in and out, result frames) and the
  tuning of its passes over lists (:class:`~cugraph_compressed.kernels.traversal.TraversalConfig`).
  Making one is cheap: nothing is decoded or re-encoded.
* :class:`Adjacency`, from ``view.adjacency(orientation)``: the layout holding the lists the
  algorithm asked for, and the edge properties aligned with that layout's property slots, taken
  together.  A directed graph stored the other way round is re-encoded in place first, by the
  streaming build (the graph keeps one orientation), so an algorithm asks for its adjacency
  once, after its argument checks, and never reads properties from anywhere else.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable

import numpy as np

from ._ids import VertexIds
from .kernels.traversal import TraversalConfig

#: Orientations an algorithm may ask for: out-lists (BFS, SSSP) or whatever the graph holds
#: (PageRank pulls over in-lists and pushes over out-lists; WCC on symmetric lists).
OUT = "out"
ANY = "any"


@dataclass(frozen=True)
class Adjacency:
    """A layout in one orientation and the edge properties in its slot order.

    Attributes
    ----------
    layout : Layout
        The lists (a :class:`~cugraph_compressed.formats.base.Layout`).
    in_lists : bool
        The lists are each vertex's sources (a directed graph stored transposed).
    symmetric : bool
        The graph is undirected: each list is both the in- and the out-list.
    properties : Mapping
        ``{"weight" | "edge_id" | "edge_type": array}``, slot ``i`` of the layout's decode
        order at index ``i``.
    vertex_dtype : numpy.dtype
        The dtype of vertex ids in results (int32 or int64).
    config : TraversalConfig
        Tuning of the device passes over lists.
    in_lists_beside : callable, optional
        Set on a directed graph's out-lists: returns the graph's in-lists (an
        :class:`Adjacency` without properties), which the graph builds from its own edges on
        the first call (or kept from a re-orientation) and keeps beside its out-lists while
        it holds them (counted by
        ``CompressedGraph.nbytes``; bottom-up BFS levels with
        ``TraversalConfig.directed_bottom_up``); it returns None where the graph keeps none
        (a virtual split, whose BFS is top-down).  None on in-lists and symmetric lists.
    derived : dict
        Values computed from these lists and properties (:meth:`derive`): the graph's own
        (:meth:`with_derived`), kept while it holds this layout and dropped with it (a rebuild
        or a re-orientation); an adjacency made from another by ``dataclasses.replace`` (other
        properties) starts an empty one of its own.
    """

    layout: object
    in_lists: bool
    symmetric: bool
    properties: MappingProxyType
    vertex_dtype: np.dtype
    config: TraversalConfig
    in_lists_beside: Callable[[], Adjacency] | None = field(default=None, compare=False,
                                                             repr=False)
    derived: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    def bottom_up_lists(self) -> Adjacency | None:
        """The lists a bottom-up BFS level scans, or None when BFS stays top-down: these
        lists on an undirected graph, the in-lists beside a directed graph's out-lists with
        ``TraversalConfig.directed_goes_up`` (built on the first call), under Beamer's switch
        (``bottom_up_alpha`` set)."""
        if self.config.bottom_up_alpha is None:
            return None
        if self.symmetric:
            return self
        if self.config.directed_goes_up and self.in_lists_beside is not None:
            return self.in_lists_beside()
        return None

    def with_derived(self, derived: dict) -> Adjacency:
        """This adjacency holding ``derived`` (the graph's dict for its current layout)."""
        object.__setattr__(self, "derived", derived)  # frozen: set once, by the graph
        return self

    def derive(self, key, compute):
        """``compute()``, computed once per layout the graph holds and kept under ``key``: a
        graph is immutable once built, so what depends only on its lists and properties
        (PageRank's out-weights) need not be computed per call."""
        if key not in self.derived:
            self.derived[key] = compute()
        return self.derived[key]

    @property
    def num_vertices(self) -> int:
        return self.layout.num_vertices

    @property
    def weights(self):
        """The weights in slot order, or None for an unweighted graph."""
        return self.properties.get("weight")


@dataclass(frozen=True)
class GraphView:
    """The interface between a graph and the algorithms (see the module docstring).

    Attributes
    ----------
    backend : str
        ``"host"`` or ``"device"``.
    directed : bool
    num_edges : int
        Stored (directed) edges: both directions of an undirected edge.
    store_transposed : bool
        As given at the build (PageRank warns without it, as cuGraph does).
    weight_dtype : numpy.dtype or None
        None for an unweighted graph.
    ids : VertexIds
        Translation between user and internal ids; builds the result frames.
    config : TraversalConfig
    transform : object, optional
        Set on a transformed graph (:mod:`cugraph_compressed.transforms`): its
        ``implementations(name)`` gives the algorithms that answer on the original vertices.
    """

    backend: str
    directed: bool
    num_edges: int
    store_transposed: bool
    weight_dtype: np.dtype | None
    ids: VertexIds
    config: TraversalConfig
    orient: Callable[[str], Adjacency]
    transform: object = None

    @property
    def num_vertices(self) -> int:
        return self.ids.n

    @property
    def vertex_dtype(self) -> np.dtype:
        return self.ids.dtype

    @property
    def weighted(self) -> bool:
        return self.weight_dtype is not None

    def adjacency(self, orientation: str) -> Adjacency:
        """The graph's lists in ``orientation`` (:data:`OUT` or :data:`ANY`) with its edge
        properties aligned to them; re-encodes a directed graph stored the other way round."""
        if orientation not in (OUT, ANY):
            raise ValueError(f"orientation must be {OUT!r} or {ANY!r}, got {orientation!r}")
        return self.orient(orientation)
