"""``BackendGraph``: a NetworkX graph converted for the ``cugraph_compressed`` backend.

It holds the node labels (node ``i`` is ``labels[i]``) and a
:class:`~cugraph_compressed.CompressedGraph` over ids ``0 .. N-1`` whose edge properties are
those of :mod:`.convert` (weight, NetworkX's list positions), plus for a multigraph with
parallel edges a second graph of the summed weights and edge counts that PageRank reads.  A
directed graph's reverse, for ``bfs_edges(reverse=True)``, is built from the graph's own stored
edges the first time it is asked for.
"""
from __future__ import annotations

import dataclasses
from types import MappingProxyType

import networkx as nx
import numpy as np
import pandas as pd

from _cugraph_compressed_nx import BACKENDS, FORMATS, NAME

from .. import _backend
from .._backend import DEVICE, HOST
from ..graph import CompressedGraph
from ..graph_view import GraphView
from .convert import EdgeRows, read_edges


class BackendGraph:
    """A NetworkX graph as the ``cugraph_compressed`` backend computes on it.

    NetworkX makes one when a call is dispatched to the backend (``backend="cugraph_compressed"``
    or ``nx.config.backend_priority``); :func:`from_networkx` makes one to pass to several
    calls without converting each time.  Node and edge attributes other than the weight are not
    kept.

    Attributes
    ----------
    labels : list
        The nodes, in NetworkX's order; internal id ``i`` is ``labels[i]``.
    graph : CompressedGraph
        The edges (each stored direction of an undirected edge), over internal ids; weights are
        a pair's smallest when parallel edges were merged.
    weight : hashable or None
        The edge attribute the weights came from (None: the graph has no weights).
    int_weights : bool
        Every weight read was an int: shortest path lengths come back as ints.
    """

    __networkx_backend__ = NAME

    def __init__(self, rows: EdgeRows, *, directed: bool, multigraph: bool, weight,
                 format: str, backend: str):
        self.labels = rows.labels
        self._index = {label: i for i, label in enumerate(rows.labels)}
        self._directed, self._multigraph = bool(directed), bool(multigraph)
        self.weight = weight
        self.int_weights = rows.int_weights
        n = len(rows.labels)
        properties = {"weight": rows.weight, "rank": rows.rank, "pred_rank": rows.pred_rank}
        self.graph = _build(directed, rows.src, rows.dst, n, properties, format, backend)
        # Why Dijkstra (finite, non-negative weights) and PageRank (finite ones) cannot use the
        # weights; NetworkX then runs the call.
        self._dijkstra_problem = _weight_problem(rows.weight, negative=True)
        summed = rows.weight if rows.weight_sum is None else rows.weight_sum
        self._pagerank_problem = _weight_problem(summed if weight is not None else None,
                                                 negative=False)
        self._sums = None  # PageRank's graph of a multigraph with parallel edges
        if rows.multiplicity is not None:
            self._sums = _build(directed, rows.src, rows.dst, n,
                                {"weight": rows.weight_sum, "rank": rows.multiplicity},
                                format, backend)
        self._reverse = None
        self._label_ranks = None

    # -- what NetworkX asks of a backend graph ------------------------------------------------
    def is_directed(self) -> bool:
        return self._directed

    def is_multigraph(self) -> bool:
        return self._multigraph

    def __len__(self) -> int:
        return len(self.labels)

    number_of_nodes = __len__

    def __iter__(self):
        return iter(self.labels)

    def __contains__(self, node) -> bool:
        try:
            return node in self._index
        except TypeError:  # unhashable: not a node, as NetworkX answers
            return False

    def __repr__(self) -> str:
        kind = ("Multi" if self._multigraph else "") + ("DiGraph" if self._directed else "Graph")
        return f"BackendGraph({kind}, nodes={len(self)}, graph={self.graph!r})"

    # -- what the algorithms use ----------------------------------------------------------------
    def index(self, node) -> int:
        """The internal id of ``node``; KeyError when it is not a node, TypeError when it is
        unhashable."""
        return self._index[node]

    @property
    def backend(self) -> str:
        """``"host"`` or ``"device"``: where the graph lives and the algorithms run."""
        return self.graph.backend

    def label_ranks(self) -> np.ndarray:
        """Each node's position among the labels sorted (``sort_neighbors=sorted`` orders
        every list by it).

        Raises
        ------
        NotImplementedError
            The labels are not totally ordered by ``<`` (mixed types, NaN): sorting each list
            on its own, as NetworkX does, may then differ from one global order.
        """
        if self._label_ranks is None:
            labels = self.labels
            try:
                order = sorted(range(len(labels)), key=labels.__getitem__)
                total = all(labels[a] < labels[b] for a, b in zip(order, order[1:]))
            except TypeError:
                total = False
            if not total:
                raise NotImplementedError("the node labels are not totally ordered, so "
                                          "sort_neighbors=sorted runs in NetworkX")
            ranks = np.empty(len(labels), dtype=np.int64)
            ranks[order] = np.arange(len(labels))
            self._label_ranks = ranks
        return self._label_ranks

    def reverse_graph(self) -> CompressedGraph:
        """A directed graph's edges turned round, with NetworkX's predecessor-list positions
        as their ranks: ``bfs_edges(reverse=True)`` searches it.  Built once, from the stored
        edges, on the graph's backend, in its layout and its placement."""
        if not self._directed:
            raise ValueError("only a directed graph has a reverse")
        if self._reverse is None:
            edges = self.graph.view_edge_list()
            columns = {"src": edges["dst"], "dst": edges["src"]}
            if "pred_rank" in edges.columns:
                columns["rank"] = edges["pred_rank"]
            frame = type(edges)(columns)
            self._reverse = CompressedGraph(directed=True, format=self.graph.format,
                                            placement=self.graph.placement)
            self._reverse.from_edge_chunks(
                [frame], source="src", destination="dst",
                edge_id="rank" if "rank" in columns else None, renumber=False,
                vertices=np.arange(len(self), dtype=_id_dtype(len(self))),
                backend=self.backend)
        return self._reverse

    def weighted_view(self, weight, *, summed: bool) -> GraphView:
        """The graph's view with float64 weights as NetworkX reads attribute ``weight``:
        the stored ones, or 1 per edge (``weight=None``).  ``summed`` (PageRank) adds up
        parallel edges instead of taking the smallest.

        Raises
        ------
        NotImplementedError
            ``weight`` names an attribute other than the one the graph was converted with.
        """
        if weight is not None and weight != self.weight:
            raise NotImplementedError(
                f"this graph was converted with weights from edge attribute {self.weight!r}, "
                f"not {weight!r}; convert it again (NetworkX does when it dispatches)")
        graph = self._sums if summed and self._sums is not None else self.graph
        view = graph.view()
        if weight is not None:
            return view
        xp = _backend.array_module(view.backend)
        if graph is self._sums:  # each parallel edge counts once: the pair's edge count
            return _with_weights(view, lambda adj: adj.properties["edge_id"].astype(np.float64))
        return _with_weights(view, lambda adj: xp.ones(adj.layout.num_edges, dtype=np.float64))

    def weight_problem(self, weight, *, summed: bool) -> str | None:
        """Why the weights of ``weight`` cannot be used, or None: Dijkstra needs them finite
        and non-negative, PageRank (``summed``) finite."""
        if weight is None:
            return None
        return self._pagerank_problem if summed else self._dijkstra_problem

    def to_networkx(self):
        """A NetworkX graph of the same class with the nodes (in their order), the edges and
        the weight attribute; adjacency lists may be in another order than the original's.

        Raises
        ------
        NotImplementedError
            The graph was a multigraph: its parallel edges were merged.
        """
        if self._multigraph:
            raise NotImplementedError("a converted multigraph keeps one edge per node pair; "
                                      "it cannot be turned back into the multigraph")
        edges = self.graph.view_edge_list()
        edges = edges.to_pandas() if _backend.is_cudf_object(edges) else edges
        src, dst = edges["src"].to_numpy(), edges["dst"].to_numpy()
        key = edges["rank"].to_numpy() if "rank" in edges.columns else dst
        order = np.lexsort((key, src))
        out = nx.DiGraph() if self._directed else nx.Graph()
        out.add_nodes_from(self.labels)
        labels = self.labels
        if "weight" in edges.columns:
            w = edges["weight"].to_numpy()[order]
            w = w.astype(np.int64) if self.int_weights else w
            out.add_weighted_edges_from(
                ((labels[u], labels[v], x.item()) for u, v, x in zip(src[order], dst[order], w)),
                weight=self.weight)
        else:
            out.add_edges_from((labels[u], labels[v]) for u, v in zip(src[order], dst[order]))
        return out


def from_networkx(G, weight=None, *, default=1, format=None, backend=None) -> BackendGraph:
    """Convert NetworkX graph ``G`` for the ``cugraph_compressed`` backend.

    The result can be passed to any dispatched NetworkX function the backend implements
    (``nx.pagerank(H)``), several times, without converting again.

    Parameters
    ----------
    G : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph
    weight : hashable, optional
        The edge attribute to keep as weights (edges without it weigh ``default``); None keeps
        none.  Weighted calls (``pagerank``, ``single_source_dijkstra_path_length``) need the
        attribute they name.
    default : number
        The weight of an edge without the attribute.
    format : str, optional
        The layout; default ``nx.config.backends.cugraph_compressed.format``.
    backend : {"auto", "host", "device"}, optional
        Where the graph lives; default the backend config's ``backend`` (``"auto"``: the GPU
        when one is usable).

    Returns
    -------
    BackendGraph

    Raises
    ------
    TypeError
        ``G`` is not a NetworkX graph.
    ValueError
        ``format`` or ``backend`` is not one of the choices.
    RuntimeError
        ``backend="device"`` and no GPU is usable.
    NotImplementedError
        A weight that is not a real number, or an integer weight beyond 2**53.
    """
    if not isinstance(G, nx.Graph):
        raise TypeError(f"G must be a NetworkX graph, got {type(G).__name__}")
    config = _config()
    format = config["format"] if format is None else format
    backend = config["backend"] if backend is None else backend
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(map(repr, FORMATS))}; "
                         f"got {format!r}")
    where = _where(backend)
    rows = read_edges(G, weight, default)
    return BackendGraph(rows, directed=G.is_directed(), multigraph=G.is_multigraph(),
                        weight=weight, format=format, backend=where)


def _config() -> dict:
    """The backend's NetworkX config (``nx.config.backends.cugraph_compressed``), or its
    defaults where NetworkX has not loaded the backend's entry points."""
    config = getattr(nx.config.backends, NAME, None)
    return {"format": "auto", "backend": "auto", **(dict(config) if config is not None else {})}


def _where(backend) -> str:
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}; "
                         f"got {backend!r}")
    if backend == "auto":
        return DEVICE if _backend.gpu_available() else HOST
    if backend == DEVICE:
        reason = _backend.gpu_unavailable_reason()
        if reason is not None:
            raise RuntimeError(f"backend='device' needs a usable GPU: {reason}")
    return backend


def _id_dtype(n: int):
    return np.int32 if n <= np.iinfo(np.int32).max else np.int64


def _build(directed, src, dst, n, properties, format, backend) -> CompressedGraph:
    """A CompressedGraph of rows ``src -> dst`` over ids ``0 .. n-1`` with the given
    properties (``weight``, and ``rank`` / ``pred_rank`` stored as edge id / edge type)."""
    dtype = _id_dtype(n)
    columns = {"src": src.astype(dtype), "dst": dst.astype(dtype)}
    columns.update({name: values for name, values in properties.items() if values is not None})
    graph = CompressedGraph(directed=directed, format=format)
    # Undirected rows already hold both directions, each with its own ranks.
    graph.from_edge_chunks(
        [pd.DataFrame(columns)], source="src", destination="dst",
        weight="weight" if "weight" in columns else None,
        edge_id="rank" if "rank" in columns else None,
        edge_type="pred_rank" if "pred_rank" in columns else None,
        renumber=False, symmetrize=None if directed else False,
        vertices=np.arange(n, dtype=dtype), backend=backend)
    return graph


def _weight_problem(weights, negative: bool) -> str | None:
    if weights is None or not weights.size:
        return None
    if np.isnan(weights).any():
        return "some weights are NaN"
    if negative and (weights < 0).any():
        return "some weights are negative"
    if np.isinf(weights).any():
        return "some weights are infinite"
    return None


def _with_weights(view: GraphView, weights) -> GraphView:
    """``view`` whose adjacencies carry ``weights(adjacency)`` as their weights (slot
    order), and float64 as the weight dtype."""
    def orient(orientation):
        adj = view.adjacency(orientation)
        with _backend.allocations(view.backend):  # from RMM, as the algorithms' arrays
            properties = dict(adj.properties, weight=weights(adj))
        return dataclasses.replace(adj, properties=MappingProxyType(properties))

    return dataclasses.replace(view, weight_dtype=np.dtype(np.float64), orient=orient)
