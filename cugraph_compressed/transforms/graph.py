"""A split graph: :class:`TransformedGraph` and its :class:`Transform` record.

The graph is a :class:`~cugraph_compressed.CompressedGraph` of the same layout and parameters
whose stored lists hold the original vertices ``0 .. N - 1`` and the synthetic ones after
them.  It is built by the streaming build from :class:`~.split_edges.SplitEdges`, piece by
piece, under the original graph's working budget; ids are 64-bit where ``N`` plus the
synthetic vertices passes 2**31.  What it answers:

* the algorithms (``bfs``, ``sssp``, ``pagerank``, ``weakly_connected_components``,
  ``connected_components``) return the original vertices' results (:mod:`.algorithms`);
* ``number_of_vertices()``, ``nodes()``, ``has_node()``, ``number_of_edges()`` and the
  renumbering helpers describe the original graph (user ids are the original ones; synthetic
  vertices have none);
* ``nbytes`` / ``nbytes_by_component()`` are the bytes the split graph holds (its layout, its
  weights, the renumber map it shares with the original, ``synthetic_roots``), and
  ``transform.added_bytes`` their difference to the original graph's ``nbytes`` (less any
  in-lists it keeps beside its out-lists);
* edge and neighbourhood queries (``view_edge_list``, degrees, ``neighbors``, ``has_edge``,
  ``to_cugraph``) and saving or pickling raise: ask the original graph.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType

from .._build import BuildSpec, build
from ..graph import CompressedGraph
from ..graph_view import ANY, Adjacency, GraphView
from .algorithms import SplitRuns
from .split_edges import SplitEdges, SplitPlan


@dataclass(frozen=True)
class Transform:
    """What a transform did to a graph (``TransformedGraph.transform``).

    Attributes
    ----------
    kind : {"udt", "comb", "virtual"}
    params : dict
        ``{"degree_bound": K}`` for UDT, ``{"threshold": T, "width": W}`` for comb,
        ``{"part_size": P, "coalesce": bool, "strided": bool, "ranks_per_part": S}`` for the
        virtual split (:mod:`.virtual`).
    lists : {"out", "in"}
        The lists split: out-lists, or in-lists for a directed graph stored transposed (an
        undirected graph's lists are both; they count as out-lists).
    original_vertices : int
        ``N``: internal ids ``0 .. N - 1`` are the original vertices, the others synthetic.
    added_vertices, added_edges : int
        Synthetic vertices, and the edges into them (one each, weight 0); for the virtual
        split, the virtual vertices beyond one per list, and no edge.
    added_bytes : int
        The split graph's ``nbytes`` less the original's, without the in-lists the original
        keeps beside its out-lists (edge ids and types are not carried over, so this can be
        negative for a graph that had them).
    added_bytes_by_placement : dict
        The same difference per placement, ``{"device": bytes, "host": bytes}``
        (``nbytes_by_placement``): a transform keeps the original graph's placement, so the
        per-edge buffers of a host-placed graph's transform are in pinned host memory too.
    """

    kind: str
    params: dict
    lists: str
    original_vertices: int
    added_vertices: int
    added_edges: int
    added_bytes: int
    added_bytes_by_placement: dict

    def is_synthetic(self, vertices):
        """True for internal ids of synthetic vertices (a NumPy or CuPy array, or an int)."""
        return vertices >= self.original_vertices


class TransformedGraph(CompressedGraph):
    """A graph whose stored lists are split by a transform (module docstring).

    Made by :func:`~cugraph_compressed.transforms.udt` and
    :func:`~cugraph_compressed.transforms.comb`, not directly.

    Parameters
    ----------
    original : CompressedGraph
        The built graph to split (left as it is).
    plan : SplitPlan
        The transform.
    params : dict
        The user's parameters, for the record.
    """

    def __init__(self, original: CompressedGraph, plan: SplitPlan, params: dict):
        view = original.view()
        adjacency = view.adjacency(ANY)  # the lists as stored: nothing is re-encoded
        super().__init__(directed=view.directed, format=original.format,
                         placement=original.placement, **original.layout_params)
        source = SplitEdges(adjacency.layout, adjacency.properties, view.backend, view.config,
                            plan)
        spec = BuildSpec(layout_class=self._layout_class, layout_params=self._layout_params,
                         directed=True, renumber=False, store_transposed=False,
                         symmetrize=False, vertices=None, names={},
                         placement=original.placement)
        built = build(source, spec, original.build_stats.get("budget"))
        self._layout, self._properties = built.layout, built.properties
        self._ids = view.ids  # user ids and results: the original vertices
        self._columns = {}
        self._traversal = original.traversal
        self.backend, self.store_transposed = view.backend, view.store_transposed
        self._in_lists = adjacency.in_lists
        self._internal_dtype = built.ids.dtype
        self._edges = (original.number_of_edges(), original.number_of_edges(True))
        self.build_stats = dict(built.stats)
        self._runs = SplitRuns(kind=plan.kind, n=source.original_vertices,
                               roots=source.roots.astype(self._internal_dtype),
                               in_lists=adjacency.in_lists, directed=view.directed,
                               vertex_dtype=view.vertex_dtype, backend=view.backend)
        del source
        # Against the original's lists and properties: in-lists it keeps beside its
        # out-lists (directed_bottom_up) are not what the split replaces.
        added = _difference(self.nbytes_by_placement(),
                            original._nbytes_by_placement(beside=False))
        self.transform = Transform(
            kind=plan.kind, params=dict(params), lists="in" if adjacency.in_lists else "out",
            original_vertices=self._runs.n, added_vertices=int(self._runs.roots.size),
            added_edges=int(self._runs.roots.size), added_bytes=sum(added.values()),
            added_bytes_by_placement=added)

    # -- what the algorithms see ----------------------------------------------------------------
    def view(self) -> GraphView:
        """The original graph's view, whose ``transform`` runs the algorithms on the split
        lists (:mod:`.algorithms`)."""
        return dataclasses.replace(super().view(), transform=self._runs)

    def _oriented(self, orientation: str) -> Adjacency:
        # The split lists as stored, whatever is asked: re-orienting would undo the split
        # (the algorithms that need out-lists refuse a split of in-lists first).
        return Adjacency(layout=self._layout, in_lists=self._in_lists, symmetric=False,
                         properties=MappingProxyType(dict(self._properties)),
                         vertex_dtype=self._internal_dtype, config=self._traversal)

    # -- description ----------------------------------------------------------------------------
    def number_of_vertices(self) -> int:
        """Original vertices (synthetic ones: ``transform.added_vertices``)."""
        return self._ids.n

    number_of_nodes = number_of_vertices

    def number_of_edges(self, directed_edges: bool = False) -> int:
        """The original graph's edge count, as ``CompressedGraph.number_of_edges`` counts it
        (the split graph stores ``transform.added_edges`` more)."""
        return self._edges[1] if directed_edges else self._edges[0]

    def nbytes_by_component(self) -> dict:
        """The split graph's buffers (its layout's, its weights, the renumber map) and
        ``synthetic_roots``, each synthetic vertex's root."""
        sizes = super().nbytes_by_component()
        sizes["synthetic_roots"] = int(self._runs.roots.nbytes)
        return sizes

    def nbytes_by_placement(self) -> dict:
        """The split graph's buffers by where they are; ``synthetic_roots`` (per vertex)
        with the backend's arrays."""
        sizes = super().nbytes_by_placement()
        sizes[self.backend] += int(self._runs.roots.nbytes)
        return sizes

    def __repr__(self) -> str:
        t = self.transform
        return (f"{type(self).__name__}({t.kind}, {t.params}, format={self.format!r}, "
                f"vertices={t.original_vertices} + {t.added_vertices} synthetic, "
                f"stored_edges={self._layout.num_edges}, nbytes={self.nbytes}, "
                f"backend={self.backend!r})")

    # -- refused --------------------------------------------------------------------------------
    def _refuse(self, what: str):
        raise NotImplementedError(
            f"{what} is not defined on a {self.transform.kind} graph (its lists hold synthetic "
            "vertices): ask the original graph")

    def view_edge_list(self):
        self._refuse("view_edge_list")

    def in_degree(self, vertex_subset=None):
        self._refuse("in_degree")

    def out_degree(self, vertex_subset=None):
        self._refuse("out_degree")

    def degree(self, vertex_subset=None):
        self._refuse("degree")

    def degrees(self, vertex_subset=None):
        self._refuse("degrees")

    def neighbors(self, n):
        self._refuse("neighbors")

    def has_edge(self, u, v) -> bool:
        self._refuse("has_edge")

    def to_cugraph(self):
        self._refuse("to_cugraph")

    def save(self, path) -> None:
        self._refuse("save")

    @classmethod
    def load(cls, path, *args, **kwargs):
        raise NotImplementedError("load is not defined on a transformed graph: load the "
                                  "original graph with CompressedGraph.load and transform it")

    def __reduce_ex__(self, protocol):
        raise TypeError(f"cannot pickle a {self.transform.kind} graph: pickle the original "
                        "graph and transform it again after loading")



def _difference(split: dict, original: dict) -> dict:
    return {place: split[place] - original[place] for place in split}
