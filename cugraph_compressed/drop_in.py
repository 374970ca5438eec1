"""``Graph``: cuGraph's graph class on a compressed layout, for ``import cugraph_compressed as
cugraph``.

``Graph(m_graph=None, directed=False)`` takes cuGraph's constructor arguments and builds a
:class:`~cugraph_compressed.CompressedGraph` with ``format="auto"``.  As in cuGraph,
``from_pandas_edgelist`` builds on the GPU when one is usable (``_backend.gpu_available``: a
CUDA device, CuPy, cuDF and RMM), and a host graph otherwise; ``CompressedGraph`` keeps its own
rule (the frame type decides).  Every other name of the swapped module goes to cuGraph itself
(the package's ``__getattr__``), and :meth:`~cugraph_compressed.CompressedGraph.to_cugraph`
hands a graph to cuGraph's other algorithms.
"""
from __future__ import annotations

from . import _backend
from ._backend import DEVICE, HOST
from .graph import CompressedGraph


class Graph(CompressedGraph):
    """A graph built like ``cugraph.Graph``, stored in the smallest fitting layout.

    Parameters
    ----------
    m_graph : cugraph.MultiGraph, optional
        Build from a cuGraph multigraph's edge list (parallel edges dropped), as cuGraph does.
    directed : bool
        As ``cugraph.Graph(directed=...)``: undirected graphs are symmetrized.

    Notes
    -----
    ``format="auto"`` (:attr:`format_choice` says which layout and why).  The methods of
    ``CompressedGraph`` are cuGraph's (building, sizes, degrees, neighbours, renumbering
    helpers, ``view_edge_list``); any other ``cugraph.Graph`` method is reached through
    :meth:`to_cugraph`.

    Raises
    ------
    TypeError
        ``m_graph`` is not a ``cugraph.MultiGraph``.
    """

    def __init__(self, m_graph=None, directed=False):
        super().__init__(directed=directed, format="auto")
        if m_graph is not None:
            self._from_multigraph(m_graph)

    def _from_multigraph(self, m_graph):
        cugraph, _ = _backend.import_cugraph()
        multigraph = getattr(cugraph, "MultiGraph", None)
        if multigraph is None or not isinstance(m_graph, multigraph):
            raise TypeError(f"m_graph can only be an instance of a cugraph.MultiGraph, got "
                            f"{type(m_graph)}")
        edges = m_graph.view_edge_list()
        weight = m_graph.weight_column if m_graph.is_weighted() else None
        if weight is not None:  # view_edge_list names the weights its own way
            edges = edges.rename(columns={"weight": weight})
        build = (self.from_cudf_edgelist if _backend.is_cudf_object(edges)
                 else self.from_pandas_edgelist)
        build(edges.reset_index(drop=True), source=m_graph.source_columns,
              destination=m_graph.destination_columns, weight=weight)

    def _pandas_backend(self) -> str:
        return DEVICE if _backend.gpu_available() else HOST

    def from_pandas_edgelist(self, pdf, source="source", destination="destination",
                             edge_attr=None, weight=None, edge_id=None, edge_type=None,
                             renumber=True, store_transposed=False, symmetrize=None, vertices=None):
        """Build the graph from a pandas edge frame: on the GPU when one is usable (a device
        graph, cuDF results, as ``cugraph.Graph.from_pandas_edgelist``), else on the host.

        Parameters and errors are those of ``CompressedGraph.from_cudf_edgelist``; ``pdf``
        must be a pandas DataFrame (TypeError otherwise).
        """
        return super().from_pandas_edgelist(
            pdf, source=source, destination=destination, edge_attr=edge_attr, weight=weight,
            edge_id=edge_id, edge_type=edge_type, renumber=renumber,
            store_transposed=store_transposed, symmetrize=symmetrize, vertices=vertices)

    def is_renumbered(self) -> bool:
        """True when user ids were mapped to internal ids (``renumber=True``)."""
        return self.renumbered

    def is_multigraph(self) -> bool:
        """False: parallel edges are dropped, as in cuGraph's ``Graph``."""
        return False

    def edges(self):
        """The stored edges' source and destination columns (``view_edge_list`` without edge
        properties), as ``cugraph.Graph.edges``."""
        frame = self.view_edge_list()
        return frame[list(frame.columns[:2])]

    def __getattr__(self, name):
        # Only names no class in the hierarchy defines get here.
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(
            f"'Graph' object has no attribute {name!r}: cugraph_compressed's Graph answers "
            "cuGraph's building, size, degree, neighbour and renumbering calls; for other "
            "cugraph.Graph methods use G.to_cugraph(), a plain cugraph.Graph of the same graph")
