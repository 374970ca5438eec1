"""cuGraph's ``Graph`` queries on a compressed graph: degrees, neighbours, membership, the
renumbering helpers, and the hand-over to cuGraph.

:class:`GraphQueries` is a base class of :class:`~cugraph_compressed.CompressedGraph`.  It reads
the graph through :meth:`~cugraph_compressed.CompressedGraph.view` (an ``ANY`` adjacency, so a
query never re-encodes a graph), and answers on every layout, orientation and backend:

* a stored list's length is the layout's degree (``Layout.degrees``, O(V));
* the other direction of a directed graph (in-degrees of out-lists; out-degrees and
  out-neighbours of in-lists, ``store_transposed``) takes one pass over the stored edges,
  decoded a window of property slots at a time (on the GPU for a device graph, as the
  re-orientation reads them): the work is O(E), the memory a window and O(V) counts;
* one vertex's list is decoded window by window, so a hub never costs more than a window.

Windows hold :func:`~cugraph_compressed._build.piece_rows` edges of the budget the graph was
built with.  Degrees are cuGraph's: an undirected graph's in- and out-degree are both its
list lengths (a self loop counts once in each) and ``degree`` is their sum; the degree columns
have the vertex dtype, as cuGraph's edge type follows it.
"""
from __future__ import annotations

import numpy as np

from . import _backend
from ._args import check_bool
from ._backend import DEVICE, HOST
from ._build import default_budget, piece_rows
from ._ids import as_series
from ._source import StoredEdges, slot_decoder, stored_degrees
from .graph_view import ANY

#: The frame columns of each degree query, in cuGraph's order for ids it does not renumber
#: (renumbered ids put ``vertex`` first, as cuGraph's unrenumbering does).
DEGREE_COLUMNS = {"in_degree": ("degree",), "out_degree": ("degree",), "degree": ("degree",),
                  "degrees": ("in_degree", "out_degree")}


class GraphQueries:
    """cuGraph's degree, neighbour, membership and renumbering methods of ``Graph``, and
    :meth:`to_cugraph` (see the module docstring)."""

    # -- degrees ------------------------------------------------------------------------------
    def in_degree(self, vertex_subset=None):
        """Each vertex's in-degree, as ``cugraph.Graph.in_degree``.

        Parameters
        ----------
        vertex_subset : Series, array-like or scalar, optional
            User ids of the vertices to report, in that order (duplicates kept); every vertex
            when None.

        Returns
        -------
        DataFrame
            ``degree`` (the vertex dtype) and ``vertex`` (user ids); ``vertex`` comes first for
            ids cuGraph renumbers (not int32/int64), as in cuGraph.  pandas for a host graph,
            cuDF for a device graph.  Rows follow the vertices (sorted ids) or the subset.

        Raises
        ------
        ValueError
            A vertex of the subset is not in the graph (named), or the graph is empty.
        """
        return _degree_frame(self, vertex_subset, "in_degree")

    def out_degree(self, vertex_subset=None):
        """Each vertex's out-degree, as ``cugraph.Graph.out_degree``; parameters, columns and
        errors as :meth:`in_degree`."""
        return _degree_frame(self, vertex_subset, "out_degree")

    def degree(self, vertex_subset=None):
        """In-degree plus out-degree, as ``cugraph.Graph.degree``: twice the number of
        neighbours on an undirected graph (each edge is stored both ways), as in cuGraph.
        Parameters, columns and errors as :meth:`in_degree`."""
        return _degree_frame(self, vertex_subset, "degree")

    def degrees(self, vertex_subset=None):
        """In- and out-degrees in one frame, as ``cugraph.Graph.degrees``: columns
        ``in_degree``, ``out_degree`` and ``vertex`` (first for ids cuGraph renumbers).
        Parameters and errors as :meth:`in_degree`."""
        return _degree_frame(self, vertex_subset, "degrees")

    # -- neighbours and membership ------------------------------------------------------------
    def neighbors(self, n):
        """The out-neighbours of vertex ``n`` (every neighbour on an undirected graph), as
        ``cugraph.Graph.neighbors``.

        Parameters
        ----------
        n : scalar
            A user id.

        Returns
        -------
        Series
            User ids, sorted (by internal id, which is the id, for graphs that were not
            renumbered), named ``dst`` (``0`` for ids cuGraph renumbers), as cuGraph names it;
            empty when ``n`` is not a vertex, as in cuGraph.
        """
        view = self.view()
        u = _one_vertex(view, n, "neighbors")
        adj = view.adjacency(ANY)
        xp = _backend.array_module(view.backend)
        with _device(view):
            if u < 0:
                found = xp.zeros(0, dtype=np.int64)
            elif adj.in_lists:  # out-neighbours of in-lists: every list that holds u
                found = _concat(xp, [piece.dst[piece.src == u]
                                     for piece in _pieces(self, view, adj, "neighbors")])
            else:
                found = _concat(xp, list(_list_windows(self, view, adj, u, "neighbors")))
            found = view.ids.sorted_users(found.astype(view.vertex_dtype))
        series = as_series(found, view.backend)
        series.name = "dst" if view.ids.native else "0"
        return series

    def has_node(self, n) -> bool:
        """True when ``n`` (one user id) is a vertex of the graph, isolated ones included."""
        view = self.view()
        return _one_vertex(view, n, "has_node") >= 0

    def has_edge(self, u, v) -> bool:
        """True when the graph holds the edge ``u -> v`` (either way on an undirected graph);
        False when either is not a vertex.  Decodes one list, window by window."""
        view = self.view()
        iu, iv = _one_vertex(view, u, "has_edge"), _one_vertex(view, v, "has_edge")
        if iu < 0 or iv < 0:
            return False
        adj = view.adjacency(ANY)
        owner, target = (iv, iu) if adj.in_lists else (iu, iv)
        with _device(view):
            return any(bool((window == target).any())
                       for window in _list_windows(self, view, adj, owner, "has_edge"))

    def _edges_counted_once(self) -> int:
        """An undirected graph's edges, each once (its stored edges with source >= destination,
        a self loop once), counted window by window."""
        view = self.view()
        adj = view.adjacency(ANY)
        with _device(view):
            return sum(int((piece.src >= piece.dst).sum())
                       for piece in _pieces(self, view, adj, "counting edges"))

    # -- renumbering --------------------------------------------------------------------------
    def lookup_internal_vertex_id(self, df, column_name=None):
        """Internal ids of user ids, as ``cugraph.Graph.lookup_internal_vertex_id``.

        Parameters
        ----------
        df : Series or DataFrame
            The user ids (a list or array is taken too).
        column_name : str, optional
            The column of ``df`` holding them, when ``df`` is a frame.

        Returns
        -------
        Series
            Internal ids in ``0 .. V - 1`` (the vertex dtype), in the input's order; null for
            ids that are not vertices (a nullable ``Int32``/``Int64`` Series on the host).
            Unrenumbered graphs' internal ids are the user ids.
        """
        view = self.view()
        found = view.ids.lookup(_id_column(view, df, column_name, "column_name"))
        return _nullable_ids(view, found)

    def add_internal_vertex_id(self, df, internal_column_name, external_column_name, drop=True,
                               preserve_order=False):
        """``df`` with a first column of internal ids, as
        ``cugraph.Graph.add_internal_vertex_id``.

        Parameters
        ----------
        df : DataFrame or Series
            A Series is taken as a frame with its ids in column ``"0"`` (kept).
        internal_column_name : str
            The new column (null for ids that are not vertices).
        external_column_name : str or list of one str
            The column of user ids.
        drop : bool
            Drop the user-id column.
        preserve_order : bool
            Accepted for cuGraph's signature: rows always keep their order.

        Returns
        -------
        DataFrame
            A new frame of the graph's library (the input is not changed), index reset.
        """
        view = self.view()
        drop = check_bool("drop", drop)
        check_bool("preserve_order", preserve_order)
        if _is_series(df):
            df, external_column_name, drop = as_series(df, view.backend).to_frame("0"), "0", False
        frame = _frame_of(view, df)
        label = _label(external_column_name, "external_column_name")
        if label not in frame.columns:
            raise KeyError(f"external_column_name {label!r} is not a column of df "
                           f"({list(frame.columns)})")
        internal = _nullable_ids(view, view.ids.lookup(frame[label]))
        out = frame.drop(columns=[label]) if drop else frame.copy()
        if internal_column_name in out.columns:
            raise ValueError(f"df already has a column {internal_column_name!r}")
        out.insert(0, internal_column_name, internal)
        return out

    def unrenumber(self, df, column_name, preserve_order=False, get_column_names=False):
        """``df`` with the internal ids of ``column_name`` replaced by user ids, as
        ``cugraph.Graph.unrenumber``: the column moves to the front, as cuGraph returns it.

        Parameters
        ----------
        df : DataFrame
        column_name : str
            Its column of internal ids (integers below the vertex count; a negative one, as a
            missing predecessor, becomes -1, or null for ids that cannot hold -1).
        preserve_order : bool
            Accepted for cuGraph's signature: rows always keep their order.
        get_column_names : bool
            Also return the user-id column's name.

        Returns
        -------
        DataFrame, or (DataFrame, str) with ``get_column_names``
            A new frame of the graph's library, index reset.

        Raises
        ------
        ValueError
            The column holds nulls, non-integers or an id not below the vertex count (named).
        """
        view = self.view()
        check_bool("preserve_order", preserve_order)
        get_column_names = check_bool("get_column_names", get_column_names)
        frame = _frame_of(view, df)
        label = _label(column_name, "column_name")
        if label not in frame.columns:
            raise KeyError(f"column_name {label!r} is not a column of df ({list(frame.columns)})")
        column = frame[label]
        if int(column.isna().sum()) or _backend.numpy_dtype(column).kind not in "iu":
            raise ValueError(f"column {label!r} must hold internal vertex ids (integers, no "
                             f"nulls), got dtype {column.dtype}")
        xp = _backend.array_module(view.backend)
        internal = xp.asarray(column.to_numpy() if xp is np else column.values).astype(np.int64)
        too_large = internal >= view.num_vertices
        if bool(too_large.any()):
            value = int(internal[int(xp.argmax(too_large))])
            ids = (f"they are 0 .. {view.num_vertices - 1}" if view.num_vertices
                   else "the graph has no vertices")
            raise ValueError(f"column {label!r} holds {value}, which is not an internal vertex "
                             f"id: {ids}")
        out = frame.drop(columns=[label])
        out.insert(0, label, as_series(view.ids.to_user(internal.astype(view.vertex_dtype)),
                                       view.backend))
        return (out, label) if get_column_names else out

    # -- cuGraph ------------------------------------------------------------------------------
    def to_cugraph(self):
        """A plain ``cugraph.Graph`` of this graph, for cuGraph's other algorithms.

        Same directedness, edges (parallel edges already dropped, an undirected graph's in
        both directions with ``symmetrize=False``, so edge ids and types go over too), edge
        properties under their column names, user ids and vertices (isolated ones included),
        ``renumber`` as this graph was built and ``store_transposed``.  A host graph's edges
        are copied to the GPU.  It holds cuGraph's own (uncompressed) structure beside this one.

        Raises
        ------
        ImportError
            cuGraph is not importable here.
        """
        cugraph, reason = _backend.import_cugraph()
        if cugraph is None:
            raise ImportError(f"to_cugraph needs cuGraph, which is not importable here ({reason})")
        view = self.view()
        columns = dict(self._columns)  # the user's column name of each edge column
        src, dst = columns.pop("source"), columns.pop("destination")
        edges = self.view_edge_list()
        vertices = self.nodes()
        if not view.directed:
            back = edges[edges[src] != edges[dst]].rename(columns={src: dst, dst: src})
            lib = _backend.frame_library(view.backend)
            edges = lib.concat([edges, back[list(edges.columns)]], ignore_index=True)
        if view.backend == HOST:
            import cudf

            edges, vertices = cudf.from_pandas(edges), cudf.from_pandas(vertices)
        G = cugraph.Graph(directed=view.directed)
        G.from_cudf_edgelist(edges, source=src, destination=dst, weight=columns.get("weight"),
                             edge_id=columns.get("edge_id"), edge_type=columns.get("edge_type"),
                             renumber=self.renumbered, store_transposed=view.store_transposed,
                             symmetrize=None if view.directed else False, vertices=vertices)
        return G


# ------------------------------------------------------------------------------- helpers

def _device(view):
    """Device work allocates from the current RMM resource, as the algorithms do."""
    return _backend.allocations(view.backend)


def _window(graph, view) -> int:
    """Edges decoded at once: a piece of the budget the graph was built with."""
    budget = graph.build_stats.get("budget") or default_budget(view.backend)
    return piece_rows(budget)


def _pieces(graph, view, adj, what):
    """One pass over the stored edges, ``(src, dst)`` in the graph's direction."""
    source = StoredEdges(adj.layout, {}, view.backend, adj.in_lists, adj.config, what=what)
    index = np.int32 if adj.num_vertices <= np.iinfo(np.int32).max else np.int64
    return source.pieces(_window(graph, view), index, properties=False)


def _list_windows(graph, view, adj, u: int, what):
    """The stored list of internal vertex ``u``, window by window (decode order)."""
    layout = adj.layout
    degrees = stored_degrees(layout, view.backend, adj.config)
    first, count = int(degrees[:u].sum()), int(degrees[u])
    if not count:
        return
    decode = slot_decoder(layout, view.backend, adj.config, what)
    step = _window(graph, view)
    for begin in range(first, first + count, step):
        _, neighbour = decode(begin, min(begin + step, first + count))
        yield neighbour


def _concat(xp, parts):
    return xp.concatenate(parts) if parts else xp.zeros(0, dtype=np.int64)


def _degree_arrays(graph, view, want_in: bool, want_out: bool):
    """``(in, out)`` int64 degrees of every vertex (None where not wanted)."""
    adj = view.adjacency(ANY)
    xp = _backend.array_module(view.backend)
    stored = stored_degrees(adj.layout, view.backend, adj.config)
    if adj.symmetric:
        return stored, stored
    in_, out = (stored, None) if adj.in_lists else (None, stored)
    other = "src" if adj.in_lists else "dst"  # the endpoint the lists do not group by
    if (want_in and in_ is None) or (want_out and out is None):
        counts = xp.zeros(adj.num_vertices, dtype=np.int64)
        for piece in _pieces(graph, view, adj, "counting degrees"):
            counts += xp.bincount(getattr(piece, other), minlength=adj.num_vertices)
        in_, out = (in_, counts) if adj.in_lists else (counts, out)
    return in_, out


def _degree_frame(graph, vertex_subset, kind: str):
    view = graph.view()
    ids, xp = view.ids, _backend.array_module(view.backend)
    internal = None
    if vertex_subset is not None:
        if not _backend.is_scalar(vertex_subset) and len(vertex_subset) == 0:
            internal = xp.zeros(0, dtype=view.vertex_dtype)
        else:
            internal = ids.to_internal(vertex_subset, "vertex_subset")
    with _device(view):
        in_, out = _degree_arrays(graph, view, kind != "out_degree", kind != "in_degree")
        if kind == "degree":
            values = (in_ + out,)
        elif kind == "degrees":
            values = (in_, out)
        else:
            values = (in_ if kind == "in_degree" else out,)
        columns = {}
        for name, array in zip(DEGREE_COLUMNS[kind], values):
            if internal is not None:
                array = array[internal]
            columns[name] = _in_vertex_dtype(array, view.vertex_dtype)
    if internal is None:  # every vertex, in the rows' order of every result
        return ids.vertex_frame(columns, vertex_at=len(columns) if ids.native else 0)
    vertex = ids.to_user(internal)
    if ids.native:
        return ids.frame({**columns, "vertex": vertex})
    return ids.frame({"vertex": vertex, **columns})


def _in_vertex_dtype(counts, dtype):
    """Counts in the vertex dtype, as cuGraph's degrees; int64 where they would overflow it."""
    if counts.size and int(counts.max()) > np.iinfo(dtype).max:
        return counts
    return counts.astype(dtype)


def _one_vertex(view, n, what: str) -> int:
    """The internal id of one user id, -1 when it is not a vertex; TypeError for a list."""
    if not _backend.is_scalar(n):
        raise TypeError(f"{what} takes one vertex id, got {type(n).__name__}")
    return int(view.ids.lookup(n)[0])


def _is_series(obj) -> bool:
    return hasattr(obj, "isna") and not hasattr(obj, "columns")


def _frame_of(view, df):
    """``df`` as a frame of the graph's library, index reset (a copy)."""
    if not hasattr(df, "columns"):
        raise TypeError(f"df must be a pandas or cuDF DataFrame, got {type(df).__name__}")
    if view.backend == HOST and _backend.is_cudf_object(df):
        df = df.to_pandas()
    elif view.backend == DEVICE and _backend.is_pandas_object(df):
        import cudf

        df = cudf.from_pandas(df)
    return df.reset_index(drop=True)


def _label(name, what: str):
    """One column label (a list of one is taken, as cuGraph takes column lists)."""
    if isinstance(name, (list, tuple)):
        if len(name) != 1:
            raise ValueError(f"{what} names {len(name)} columns; vertices named by several "
                             "columns are not supported")
        name = name[0]
    return name


def _id_column(view, df, column_name, what: str):
    """The user ids of ``df``: itself (Series, list, array) or its column ``column_name``."""
    if not hasattr(df, "columns"):
        return df
    if column_name is None:
        raise ValueError(f"df is a DataFrame: give {what}, the column holding the vertex ids")
    frame = _frame_of(view, df)
    label = _label(column_name, what)
    if label not in frame.columns:
        raise KeyError(f"{what} {label!r} is not a column of df ({list(frame.columns)})")
    return frame[label]


def _nullable_ids(view, found):
    """Internal ids (vertex dtype) as a Series, null where ``found`` is -1."""
    missing = found < 0
    values = found.astype(view.vertex_dtype)
    if view.backend == HOST:
        import pandas as pd

        if bool(missing.any()):
            return pd.Series(pd.arrays.IntegerArray(values, missing))
        return pd.Series(values)
    lib = _backend.frame_library(view.backend)
    series = lib.Series(values)
    return series.where(lib.Series(~missing)) if bool(missing.any()) else series
