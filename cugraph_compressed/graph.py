"""``CompressedGraph``: a cuGraph-compatible graph stored in a compressed layout.

The algorithms see a graph only through :meth:`CompressedGraph.view` (a
:class:`~cugraph_compressed.graph_view.GraphView`); nothing outside this module reads the
graph's private members.  This module imports layouts, the streaming build (which also
re-orients a graph's storage), the saved-graph format (:mod:`~cugraph_compressed.saved`, also
behind pickling) and the traversal configuration, never the algorithms.
"""
from __future__ import annotations

import copy
import pickle
from types import MappingProxyType

import numpy as np

from . import _backend, _placement, _split, saved
from ._args import check_bool, check_int
from ._auto import AUTO, AutoFormat
from ._backend import DEVICE, HOST
from ._build import BuildSpec, build
from ._source import EdgeChunks, StoredEdges, backend_of
from ._vertex_order import DEFAULT as DEFAULT_VERTEX_ORDER
from ._vertex_order import check_vertex_order, resolve
from .formats import layout_class
from .formats.base import plain_csr_nbytes
from .graph_queries import GraphQueries
from .graph_view import OUT, Adjacency, GraphView
from .kernels.traversal import TraversalConfig
from .memory_budget import check_memory_budget, state_bytes_per_vertex


class CompressedGraph(GraphQueries):
    """A graph held in one of the package's layouts, on the GPU or on the host.

    Build it like ``cugraph.Graph``: ``from_cudf_edgelist`` gives a device graph (RMM memory,
    GPU kernels, cuDF results); ``from_pandas_edgelist`` gives a host graph (NumPy arrays,
    the host backend, pandas results).

    Parameters
    ----------
    directed : bool
        As ``cugraph.Graph(directed=...)``: undirected graphs are symmetrized.
    format : str
        The layout, a key of :data:`cugraph_compressed.formats.FORMATS` (``"csr"``), or
        ``"auto"``: the build sizes every candidate layout from the same sorted vertex ranges
        and encodes the smallest that fits, or a faster one within 10% of it
        (:mod:`cugraph_compressed._auto`); :attr:`format` then names it and
        :attr:`format_choice` gives every candidate's bytes and the reason.
    vertex_order : {"degree", "sorted"}, optional
        The internal vertex order of a renumbered graph (``renumber=True``, the builders'
        default).  ``"sorted"``: internal ids by user id ascending.  ``"degree"``: hubs
        first, by the degree of the stored lists counted over the input rows (a directed
        graph's out-degree, its in-degree with ``store_transposed=True``; an undirected
        graph's row ends naming the vertex; parallel edges included), ties by user id
        ascending, so the order is the same however the input is chunked.  Results are the
        same in both, in user ids and in sorted user-id order; the order changes the internal
        ids (``lookup_internal_vertex_id``, ``view_edge_list``'s undirected edge direction,
        WCC labels) and the layout's bytes.  Anything but ``"sorted"`` with
        ``renumber=False`` raises ValueError at the build.  By default (None) a renumbered
        graph is built in ``"degree"`` order, which is faster on the GPU (hubs' state shares
        cache lines; :func:`cugraph_compressed._vertex_order.resolve` gives the measurements)
        for one permutation of 4 bytes a vertex (8 with int64 ids), and a graph
        built with ``renumber=False`` keeps the user's ids (``"sorted"``).
    placement : {"device", "host", "auto"}
        Where a device graph keeps its per-edge buffers (:mod:`cugraph_compressed._placement`).
        ``"device"``: every buffer in GPU (RMM) memory.  ``"host"``: the layout's per-edge
        payload (``csr``'s neighbour ids, ``fl``'s packed neighbour words, ``ef``'s low and
        upper bits, ``cgr``'s bit stream) and the edge properties in pinned, mapped host
        memory, read by the kernels zero-copy; per-vertex arrays (offsets, Elias-Fano
        records) and every algorithm's vertex state stay in GPU memory.  The build writes the
        payload there range by range, so it is never whole on the GPU.  A host graph (built
        from pandas) has one place to be: any value is accepted and :attr:`placement` is
        ``"host"``.  ``"auto"``: the lists of the vertices below a split vertex stay in GPU
        memory, the others go to pinned memory, the split chosen so that the GPU part fits
        ``memory_budget`` (:mod:`cugraph_compressed._split`); the choice is
        :attr:`placement_choice`.  The prefix holds the hubs only with
        ``vertex_order="degree"`` (with ``"sorted"``, the lowest ids): degree order is what
        makes auto pay.
    memory_budget : int or MemoryBudget, optional
        GPU bytes the graph may keep (:mod:`cugraph_compressed.memory_budget`): its per-vertex
        arrays, the payload its placement keeps on the GPU and the per-vertex state of its
        largest algorithm.  A :class:`~cugraph_compressed.MemoryBudget` is shared by every
        graph given it.  Under ``"auto"`` it decides the split (default: the GPU's free memory
        less ``max(1 GiB, 1/16 of its memory)``); under ``"device"`` or ``"host"`` a graph that
        does not fit raises MemoryError.  Not the streaming build's working budget
        (``from_edge_chunks(memory_budget=...)``).
    **layout_params
        The layout's own parameters, e.g. ``force_64bit=True`` for ``"csr"``.  With
        ``"auto"``: ``candidates`` (layout names, default all) and ``max_nbytes`` (the most
        bytes the graph may take; default the memory where it is built less the build's
        working budget; MemoryError when no candidate fits).  The candidates use their
        default parameters.

    Notes
    -----
    Parallel edges are dropped keeping the smallest weight (cuGraph leaves the choice
    unspecified for directed graphs).  Vertex ids of any type are accepted with
    ``renumber=True``; results come back in the user's ids.  There is no limit on the number
    of edges beyond memory.
    """

    def __init__(self, directed: bool = False, format: str = "csr",
                 vertex_order: str | None = DEFAULT_VERTEX_ORDER, placement: str = "device",
                 memory_budget=None, **layout_params):
        self._directed = check_bool("directed", directed)
        # As asked (None: the default, resolved by each build) and as the build made it.
        self._asked_order = self._vertex_order = check_vertex_order(vertex_order)
        self._placement = _placement.check_placement(placement)
        self._memory_budget = check_memory_budget(memory_budget)
        self._draw = None  # (budget, token) of what this graph holds drawn from a budget
        # format="auto": the candidates; the layout class and parameters are the chosen
        # layout's once built.
        auto = isinstance(format, str) and format == AUTO
        self._auto = AutoFormat.from_params(**layout_params) if auto else None
        if self._auto is None:
            self._layout_class = layout_class(format)
            self._layout_params = self._layout_class.check_params(**layout_params)
        else:
            self._layout_class, self._layout_params = None, {}
        self._layout = None
        self._properties = {}
        self._ids = None  # VertexIds, once built
        self._columns = {}
        self._traversal = TraversalConfig()  # checked when CUGRAPH_COMPRESSED_CHECKED=1
        self._derived = (None, {})  # the layout and what the algorithms derived from it
        self.backend = None
        self.store_transposed = False
        self._in_lists = False  # the layout holds in-lists (directed graphs only)
        # passes, vertex ranges and budget of the build; "reoriented": those of a re-orientation
        self.build_stats = {}

    # -- construction ---------------------------------------------------------------------------
    def from_cudf_edgelist(self, input_df, source="source", destination="destination",
                           edge_attr=None, weight=None, edge_id=None, edge_type=None,
                           renumber=True, store_transposed=False, symmetrize=None, vertices=None):
        """Build a device graph from a cuDF edge frame (``cugraph.Graph.from_cudf_edgelist``).

        Parameters
        ----------
        input_df : cudf.DataFrame
            One row per edge.
        source, destination : str
            Names of the vertex id columns.
        edge_attr : str or list of 3 str, optional
            The weight column, or ``[weight, edge_id, edge_type]``; exclusive with the next three.
        weight, edge_id, edge_type : str, optional
            Names of the per-edge property columns.
        renumber : bool
            Map arbitrary ids to ``0 .. V-1`` internally, in the graph's ``vertex_order``;
            False uses int32/int64 ids as they are.
        store_transposed : bool
            Store in-lists (each vertex's sources) instead of out-lists, as cuGraph stores CSC:
            PageRank then pulls without atomics.  BFS and SSSP need out-lists: the first of
            them re-encodes the graph in place, through the streaming build under the budget it
            was built with (``memory_budget``), as cuGraph converts its storage for an
            algorithm.  While it runs the graph holds both structures (the old one is dropped
            once the new one is complete; a failure leaves the graph as it was), so its peak is
            both structures plus the budget.  A very large graph that needs both out-lists
            (BFS, SSSP) and in-lists (pull PageRank) is best built twice from the same chunks,
            once with ``store_transposed=True``; or accept the in-place re-orientation.
        symmetrize : bool, optional
            Defaults to True for undirected graphs; False demands symmetric input.
        vertices : Series or array-like, optional
            Every vertex of the graph, isolated ones included.

        Raises
        ------
        TypeError
            ``input_df`` is not a cuDF DataFrame.
        ValueError
            Missing columns, unsupported id dtypes, nulls, or inconsistent ``vertices``.
        RuntimeError
            The graph already holds an edge list.

        Notes
        -----
        The frame is read by the streaming build of :meth:`from_edge_chunks`, with its default
        memory budget; ``from_edge_chunks([input_df], memory_budget=...)`` sets another.
        """
        if not (_backend.is_cudf_object(input_df) and hasattr(input_df, "columns")):
            raise TypeError(
                f"input should be a cudf.DataFrame, got {type(input_df).__module__}."
                f"{type(input_df).__name__} (use from_pandas_edgelist for pandas)"
            )
        reason = _backend.gpu_unavailable_reason()
        if reason is not None:
            raise RuntimeError(f"a device graph needs a usable GPU: {reason}")
        self._load(EdgeChunks([input_df], DEVICE, single=True), source, destination, edge_attr,
                   weight, edge_id, edge_type, renumber, store_transposed, symmetrize, vertices,
                   None)
        return self

    def from_pandas_edgelist(self, pdf, source="source", destination="destination",
                             edge_attr=None, weight=None, edge_id=None, edge_type=None,
                             renumber=True, store_transposed=False, symmetrize=None, vertices=None):
        """Build a host graph from a pandas edge frame.

        Takes the same parameters as :meth:`from_cudf_edgelist`; the graph lives in host
        memory, runs on the host backend and returns pandas results.

        Parameters
        ----------
        pdf : pandas.DataFrame
            One row per edge.
        source, destination, edge_attr, weight, edge_id, edge_type, renumber, symmetrize, \
vertices
            As for :meth:`from_cudf_edgelist`.
        store_transposed : bool
            Store in-lists, as for :meth:`from_cudf_edgelist`: BFS and SSSP then re-encode the
            graph in place through the streaming build under its ``memory_budget``, holding
            both structures while it runs; where that peak does not fit, build a second graph
            from the same edges with the other orientation instead.

        Raises
        ------
        TypeError
            ``pdf`` is not a pandas DataFrame.
        """
        if not (_backend.is_pandas_object(pdf) and hasattr(pdf, "columns")):
            raise TypeError(
                "pdf input is not a pandas DataFrame, "
                f"got {type(pdf).__module__}.{type(pdf).__name__}"
            )
        self._load(EdgeChunks([pdf], self._pandas_backend(), single=True), source, destination,
                   edge_attr, weight, edge_id, edge_type, renumber, store_transposed, symmetrize,
                   vertices, None)
        return self

    def _pandas_backend(self) -> str:
        """Where :meth:`from_pandas_edgelist` builds: the host (the drop-in ``Graph`` builds on
        the GPU when one is usable, as cuGraph does)."""
        return HOST

    def from_edge_chunks(self, chunks, source="source", destination="destination",
                         edge_attr=None, weight=None, edge_id=None, edge_type=None,
                         renumber=True, store_transposed=False, symmetrize=None, vertices=None,
                         backend=None, memory_budget=None, progress=None):
        """Build the graph from many edge frames, read in passes under a memory budget.

        The result is the graph :meth:`from_cudf_edgelist` would build from the frames
        concatenated, bit for bit, whatever the chunking and the budget: parallel edges keep
        the smallest weight (ties: the earliest row, chunks in order) wherever the copies are,
        an undirected edge given both ways in different chunks gets the mean weight,
        renumbering sees every chunk's ids.  No concatenation of the chunks is ever made, so
        the input may hold more than 2**31 edges.

        Parameters
        ----------
        chunks : sequence of DataFrame, or callable
            cuDF or pandas edge frames with the same columns and dtypes (a list,
            :func:`~cugraph_compressed.generators.rmat_chunks`,
            :func:`~cugraph_compressed.io.parquet_chunks`...), or a zero-argument callable
            returning a fresh iterable of them on each call.  The build reads them several
            times, so a one-shot iterator (a generator) is refused: wrap it in a callable.
        source, destination, edge_attr, weight, edge_id, edge_type, renumber, symmetrize, \
vertices
            As for :meth:`from_cudf_edgelist`.
        store_transposed : bool
            Store in-lists, as for :meth:`from_cudf_edgelist`: BFS and SSSP then re-encode the
            graph in place through this build under ``memory_budget``, holding both structures
            while it runs.  For both BFS and pull PageRank on a very large graph, build two
            graphs from the same ``chunks``, one with ``store_transposed=True``.
        backend : {None, "device", "host"}
            None builds where the chunks live (cuDF: device, pandas: host); ``"device"``
            builds a GPU graph from host chunks, each copied to the GPU when it is read.
        memory_budget : int, optional
            Bytes of working memory: the build's peak stays within the final graph, this
            budget and O(V) vertex arrays, whatever the edge count (a single list larger than
            the budget is gathered whole).  A smaller budget means more passes over the
            chunks.  Default: 1/8 of the memory where the graph is built (GPU or host), at
            most 2 GiB.  The graph keeps it for a later re-orientation (``store_transposed``).
            It is not the GPU budget of the graph itself
            (``CompressedGraph(memory_budget=...)``, which ``placement="auto"`` splits by).
        progress : bool, optional
            Show the passes and chunks of the build on standard error.  Default: on a
            terminal, once the build has run a few seconds (``CUGRAPH_COMPRESSED_PROGRESS=0``
            or ``1`` in the environment decides instead).

        Raises
        ------
        TypeError
            ``chunks`` is one frame, a one-shot iterator, or holds something other than
            cuDF/pandas frames.
        ValueError
            A chunk breaks cuGraph's rules or differs from the first chunk (columns, dtypes),
            or a later pass gives other row counts; the message names the chunk.
        RuntimeError
            The graph already holds an edge list, or a device build has no usable GPU.
        """
        self._load(EdgeChunks(chunks, backend), source, destination, edge_attr, weight,
                   edge_id, edge_type, renumber, store_transposed, symmetrize, vertices,
                   memory_budget, progress)
        return self

    def _load(self, chunks, source, destination, edge_attr, weight, edge_id, edge_type,
              renumber, store_transposed, symmetrize, vertices, memory_budget, progress=None):
        if self._layout is not None:
            raise RuntimeError("Graph already has values: build a new CompressedGraph instead")
        spec = self._spec(source, destination, edge_attr, weight, edge_id, edge_type, renumber,
                          store_transposed, symmetrize, vertices)
        built = build(chunks, spec, memory_budget, progress=progress)
        placed = None
        if chunks.backend == DEVICE:  # a MemoryError here too leaves the graph empty
            placed = self._placed(built.layout, built.properties, built.ids, self._placement,
                                  self._memory_budget)
        # Nothing is kept before the build succeeds: a failed build leaves the graph empty.
        self._columns = built.columns
        self._ids = built.ids
        self._vertex_order = spec.vertex_order
        self.store_transposed = spec.store_transposed
        self.backend = chunks.backend
        self._layout, self._properties, self._in_lists = (built.layout, built.properties,
                                                          built.in_lists)
        self.build_stats = built.stats
        if placed is not None:
            self._commit(placed)
        if self._auto is not None:  # the chosen layout, as if it had been asked for
            self._layout_class = type(built.layout)
            self._layout_params = self._layout_class.check_params()

    def _spec(self, source, destination, edge_attr, weight, edge_id, edge_type, renumber,
              store_transposed, symmetrize, vertices) -> BuildSpec:
        renumber = check_bool("renumber", renumber)
        return BuildSpec(
            layout_class=self._layout_class, layout_params=self._layout_params, auto=self._auto,
            vertex_order=resolve(self._asked_order, renumber), directed=self._directed,
            renumber=renumber,
            store_transposed=check_bool("store_transposed", store_transposed),
            symmetrize=symmetrize, vertices=vertices,
            placement=_built_placement(self._placement),
            names={"source": source, "destination": destination, "edge_attr": edge_attr,
                   "weight": weight, "edge_id": edge_id, "edge_type": edge_type})

    # -- saving, loading, pickling ---------------------------------------------------------------
    def save(self, path) -> None:
        """Write the graph to one file, to be read back by :meth:`load`.

        The file (format: :mod:`cugraph_compressed.saved`) holds the layout's buffers, the edge
        properties, the renumber map, the column names and ``build_stats``, each buffer with a
        CRC-32; it is written under a temporary name and renamed to ``path`` once complete.
        The ``traversal`` tuning is not saved.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write (replaced if it exists; a symbolic link is followed, and the
            file it names is replaced).

        Raises
        ------
        ValueError
            The graph holds no edge list yet.
        TypeError
            Its vertex ids or a column label have a type the format cannot hold (ids: numbers,
            booleans, datetime64/timedelta64, strings, bytes, categories of these).
        OSError
            Before anything is written: ``path`` is a directory (IsADirectoryError), its
            directory is missing (FileNotFoundError), it is a file this process may not write
            (PermissionError), a link loop or not a regular file.
        """
        self._require_built()
        saved.save(path, self._saved_state())

    @classmethod
    def load(cls, path, backend=None, placement="device", memory_budget=None) -> CompressedGraph:
        """Read a graph written by :meth:`save`.

        Every buffer's checksum and the layout's invariants are checked before the graph is
        returned, so a damaged file raises instead of reaching a kernel.  Loaded on either
        backend, the buffers are bit for bit those saved.

        Parameters
        ----------
        path : str or os.PathLike
            The file.
        backend : {None, "host", "device"}
            Where the graph goes: a host graph (NumPy, pandas results) or a device graph (RMM
            memory, cuDF results); None: the backend it was saved from.
        placement : {"device", "host", "auto"}
            Where a device graph keeps its per-edge buffers (see :class:`CompressedGraph`):
            with ``"host"`` they are read from the file straight into pinned host memory,
            never whole on the GPU; with ``"auto"`` they are read so, then the prefix that
            fits ``memory_budget`` moves to the GPU.  The file does not record the placement
            it was saved from.  A host graph accepts any and is ``"host"``.
        memory_budget : int or MemoryBudget, optional
            As for :class:`CompressedGraph`.

        Returns
        -------
        CompressedGraph

        Raises
        ------
        SavedGraphError
            The file is not a saved graph, has another format version, is truncated or
            damaged, or breaks the format's or the layout's rules; the message names the file
            and the problem.
        ValueError
            ``backend`` or ``placement`` is not one of the choices.
        RuntimeError
            The graph goes to the device and no GPU is usable.
        TypeError
            The graph goes to the device and its vertex ids are bytes (cuDF has no such column).
        MemoryError
            Its per-edge buffers go to pinned host memory and cannot be pinned.
        """
        placement = _placement.check_placement(placement)
        budget = check_memory_budget(memory_budget)
        G = cls._from_saved(saved.load(path, backend, _built_placement(placement)))
        G._memory_budget = budget
        return G._place_loaded(placement)

    def _place_loaded(self, placement, split_vertex=None) -> CompressedGraph:
        """A graph just read (host-placed for ``"auto"``) put in ``placement``."""
        self._placement = placement
        if self.backend == DEVICE and (placement == _placement.AUTO
                                       or self._memory_budget is not None):
            self._commit(self._placed(self._layout, self._properties, self._ids, placement,
                                      self._memory_budget, split_vertex))
        return self

    def __reduce_ex__(self, protocol):
        # Pickles carry the saved-graph bytes (checked again when unpickled), the tuning and
        # the placement.  The class goes along, so a drop-in ``Graph`` comes back as one.
        if self._layout is None:
            return _unpickle_empty, (self._directed, self.format, self.layout_params,
                                     self._traversal, type(self), self._asked_order,
                                     self._placement)
        data = saved.dumps(self._saved_state())
        choice = self.placement_choice
        return _unpickle, (pickle.PickleBuffer(data) if protocol >= 5 else data,
                           self._traversal, type(self), self._placement,
                           None if choice is None else choice["split_vertex"])

    def __deepcopy__(self, memo):
        function, args = self.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
        return function(*args)

    def _saved_state(self) -> saved.GraphState:
        return saved.GraphState(
            backend=self.backend, directed=self._directed, store_transposed=self.store_transposed,
            in_lists=self._in_lists, layout=self._layout, properties=self._properties,
            ids=self._ids, columns=self._columns, build_stats=self.build_stats,
            vertex_order=self._vertex_order)

    @classmethod
    def _blank(cls, directed, format, layout_params, vertex_order=DEFAULT_VERTEX_ORDER,
               placement="device") -> CompressedGraph:
        """An empty graph of this class, made by ``CompressedGraph``'s constructor (a subclass's
        own, such as the drop-in ``Graph(m_graph, directed)``, takes other arguments)."""
        G = cls.__new__(cls)
        CompressedGraph.__init__(G, directed, format, vertex_order=vertex_order,
                                 placement=placement, **layout_params)
        return G

    @classmethod
    def _from_saved(cls, state: saved.GraphState) -> CompressedGraph:
        G = cls._blank(state.directed, state.layout.name, state.layout.params,
                       state.vertex_order, state.placement)
        G._layout, G._properties, G._ids = state.layout, state.properties, state.ids
        G._columns, G.build_stats = state.columns, state.build_stats
        G.backend, G.store_transposed, G._in_lists = (state.backend, state.store_transposed,
                                                      state.in_lists)
        return G

    # -- what the algorithms see ----------------------------------------------------------------
    def view(self) -> GraphView:
        """The interface the algorithms use (:mod:`cugraph_compressed.graph_view`).

        Raises
        ------
        ValueError
            The graph holds no edge list yet.
        """
        self._require_built()
        weights = self._properties.get("weight")
        return GraphView(
            backend=self.backend, directed=self._directed, num_edges=self._layout.num_edges,
            store_transposed=self.store_transposed,
            weight_dtype=None if weights is None else np.dtype(weights.dtype),
            ids=self._ids, config=self._traversal, orient=self._oriented)

    @property
    def traversal(self) -> TraversalConfig:
        """Tuning of the GPU passes over lists (``TraversalConfig``); results never depend on
        it.  Assign a new ``TraversalConfig`` to change it for the next calls."""
        return self._traversal

    @traversal.setter
    def traversal(self, config: TraversalConfig) -> None:
        if not isinstance(config, TraversalConfig):
            raise TypeError(f"traversal must be a TraversalConfig, got {type(config).__name__}")
        self._traversal = config
        if not config.directed_goes_up:  # the opt-in is off: its in-lists and their draw go
            self._drop_in_lists()

    def _oriented(self, orientation: str) -> Adjacency:
        """The layout holding out-lists (``OUT``) or whatever it holds (``ANY``), with the
        properties in its slot order.

        An undirected graph's lists are both.  A directed graph stored as in-lists
        (``store_transposed``) is re-encoded as out-lists in place, as cuGraph converts its
        storage for an algorithm: its stored edges are read back piece by piece (decoded on
        the GPU for a device graph), turned round and fed to the streaming build under the
        budget the graph was built with, into the graph's :attr:`placement` (a host-placed
        graph's new payload goes straight to pinned memory).  The peak is both structures, the
        budget and O(V)
        vertex arrays; the old structure is dropped only once the new one is complete, so a
        failure (MemoryError included) leaves the graph as it was.  A graph that must not
        hold both at once is built twice instead, one per orientation.  Under
        ``TraversalConfig.directed_bottom_up`` (with ``bottom_up_alpha``) a graph keeps its old
        in-lists (without their properties) as the in-lists beside the new out-lists where its
        memory budget has room, so BFS need not build them again; not under ``"auto"``
        placement, whose split is the new out-lists' alone (its in-lists are built into
        pinned memory when BFS asks).
        """
        layout = self._require_built()
        if orientation == OUT and self._directed and self._in_lists:
            source = StoredEdges(layout, self._properties, self.backend, True, self._traversal)
            spec = BuildSpec(layout_class=self._layout_class, layout_params=self._layout_params,
                             directed=True, renumber=False, store_transposed=False,
                             symmetrize=False, vertices=None, names={},
                             placement=_built_placement(self._placement))
            built = build(source, spec, self.build_stats.get("budget"))
            placed = None
            if self.backend == DEVICE:  # the new structure in the graph's placement
                placed = self._placed(built.layout, built.properties, self._ids,
                                      self._placement, self._memory_budget)
            self._layout, self._properties, self._in_lists = (built.layout, built.properties,
                                                              False)
            self.build_stats["reoriented"] = built.stats
            if placed is not None:
                self._commit(placed)
            if self._traversal.directed_goes_up and (self.backend == HOST
                                                     or self._placement != _placement.AUTO):
                try:
                    self._keep_in_lists(layout)
                except MemoryError:
                    pass  # no room under the budget: a BFS that needs them builds or refuses
        beside = self._in_lists_beside if self._directed and not self._in_lists else None
        return Adjacency(layout=self._layout, in_lists=self._in_lists,
                         symmetric=not self._directed,
                         properties=MappingProxyType(dict(self._properties)),
                         vertex_dtype=self.vertex_dtype, config=self._traversal,
                         in_lists_beside=beside).with_derived(self._derived_now())

    def _derived_now(self) -> dict:
        """What the algorithms derived from the layout the graph holds now (emptied when the
        structure changed: nothing derived from the old one holds)."""
        if self._derived[0] is not self._layout:
            self._derived = (self._layout, {})
        return self._derived[1]

    def _in_lists_beside(self) -> Adjacency:
        """A directed graph's in-lists beside its out-lists (``Adjacency.in_lists_beside``):
        those a re-orientation kept (``_oriented``), or built on the first call from the
        graph's own edges by the streaming build (under the working budget the graph was
        built with, into its placement, except that ``"auto"`` puts their whole payload in
        pinned memory), without edge properties, and kept until the out-lists change or the
        opt-in is turned off (:attr:`traversal`).  Their GPU bytes are drawn from the graph's
        memory budget, if it has one, which is checked before the build against the
        out-lists' GPU bytes of the same kind (per-vertex arrays, and the payload under
        ``"device"``): an ``"auto"`` graph whose split took all of its budget has no room for
        them.  A MemoryError (there or in the build) keeps nothing and leaves the graph as it
        was."""
        layout = self._require_built()
        kept = self._kept_in_lists()
        if kept is None:
            placement = _built_placement(self._placement)
            if self._draw is not None:  # a lower bound, before anything is allocated:
                budget, token = self._draw  # what the out-lists of this kind keep on the GPU
                like = _resident_nbytes(layout, {}, None)
                if placement == DEVICE:
                    like += sum(int(layout.arrays[name].nbytes) for name in layout.edge_buffers)
                budget.require(budget.held(token) + like, replacing=token)
            source = StoredEdges(layout, {}, self.backend, False, self._traversal,
                                 what="building the in-lists beside the out-lists")
            spec = BuildSpec(layout_class=self._layout_class, layout_params=self._layout_params,
                             directed=True, renumber=False, store_transposed=True,
                             symmetrize=False, vertices=None, names={}, placement=placement)
            built = build(source, spec, self.build_stats.get("budget"))
            try:
                self._keep_in_lists(built.layout)
            except MemoryError:
                del built  # not kept alive by the traceback
                raise
            kept = built.layout
        return Adjacency(layout=kept, in_lists=True, symmetric=False,
                         properties=MappingProxyType({}), vertex_dtype=self.vertex_dtype,
                         config=self._traversal)

    def _keep_in_lists(self, lists) -> None:
        """Keep ``lists``, the in-lists of the graph's out-lists, beside them; their GPU bytes
        join the graph's draw from its memory budget (MemoryError: nothing is kept)."""
        self._redraw(_device_nbytes(lists))
        self._derived_now()[_IN_LISTS] = lists

    def _drop_in_lists(self) -> None:
        """Drop the in-lists kept beside the out-lists, giving their GPU bytes back to the
        memory budget (their pinned memory goes with them)."""
        kept = self._kept_in_lists()
        if kept is not None:
            self._redraw(-_device_nbytes(kept))
            del self._derived[1][_IN_LISTS]

    def _redraw(self, change: int) -> None:
        """Change the graph's draw from its memory budget, if it has one, by ``change`` bytes
        (MemoryError: the budget has no room; nothing changes)."""
        if self._draw is not None:
            budget, token = self._draw
            self._draw = (budget, budget.draw(self, budget.held(token) + change,
                                              replacing=token))

    def _kept_in_lists(self):
        """The layout of the in-lists kept beside the out-lists, or None."""
        if self._derived[0] is not self._layout:
            return None
        return self._derived[1].get(_IN_LISTS)

    # -- description ----------------------------------------------------------------------------
    @property
    def format(self) -> str:
        """Name of the layout: ``"auto"`` until an auto graph is built, then the one chosen."""
        return AUTO if self._layout_class is None else self._layout_class.name

    @property
    def format_choice(self) -> dict | None:
        """How ``format="auto"`` chose the layout: ``chosen``, ``nbytes`` (each candidate's
        bytes as a graph, fastest layout first), ``limit`` (the most bytes allowed),
        ``excluded`` (candidates that cannot hold the graph, and why) and ``reason``.  None
        for an explicit format or before the build."""
        choice = self.build_stats.get("format_choice")
        return None if choice is None else copy.deepcopy(choice)

    @property
    def layout_params(self) -> dict:
        """The layout's parameters, defaults filled in (empty for ``"auto"`` before the
        build)."""
        return dict(self._layout_params)

    @property
    def vertex_order(self) -> str | None:
        """The internal vertex order: ``"sorted"`` or ``"degree"`` as the build made it (see
        the class parameters); before a build, the order asked for (None: the default)."""
        return self._vertex_order

    @property
    def vertex_dtype(self):
        """The dtype of vertex ids in results (int32 or int64); None before a build."""
        return None if self._ids is None else self._ids.dtype

    @property
    def renumbered(self) -> bool:
        """True when user ids were mapped to internal ids."""
        return self._ids is not None and self._ids.renumbered

    def __repr__(self) -> str:
        head = f"{type(self).__name__}(format={self.format!r}, directed={self._directed}"
        built = self._layout is not None
        if self._vertex_order != (resolve(None, self.renumbered) if built else None):
            head += f", vertex_order={self._vertex_order!r}"
        if self._layout is None:
            return f"{head}, empty)"
        edges = "edges" if self._directed else "stored_edges"  # both directions: no decode
        placement = f", placement={self.placement!r}" if self.backend == DEVICE else ""
        return (f"{head}, vertices={self._layout.num_vertices}, "
                f"{edges}={self._layout.num_edges}, nbytes={self.nbytes}, "
                f"backend={self.backend!r}{placement})")

    def is_directed(self) -> bool:
        return self._directed

    def is_weighted(self) -> bool:
        return "weight" in self._properties

    def _require_built(self):
        if self._layout is None:
            raise ValueError("the graph is empty: call from_cudf_edgelist or "
                             "from_pandas_edgelist first")
        return self._layout

    def number_of_vertices(self) -> int:
        """Number of vertices, isolated ones included."""
        return self._require_built().num_vertices

    number_of_nodes = number_of_vertices

    def number_of_edges(self, directed_edges: bool = False) -> int:
        """Number of edges: for undirected graphs each edge once (self loops once), unless
        ``directed_edges`` asks for the stored, symmetrized count, as in cuGraph."""
        layout = self._require_built()
        if self._directed or directed_edges:
            return layout.num_edges
        return self._edges_counted_once()

    def nodes(self):
        """The vertex ids, sorted, as a Series of the frame library."""
        self._require_built()
        return self._ids.all()

    @property
    def nbytes(self) -> int:
        """Bytes held by the graph: the sum of :meth:`nbytes_by_component`."""
        return sum(self.nbytes_by_component().values())

    @property
    def structure_nbytes(self) -> int:
        """Bytes of the layout's own buffers (the adjacency), without edge properties or the
        renumber map."""
        return self._require_built().nbytes

    @property
    def compression_ratio(self) -> float:
        """Bytes of a plain CSR of the same graph (32-bit column indices, the narrowest offsets
        that fit: the papers' baseline) over :attr:`structure_nbytes`; larger is better."""
        layout = self._require_built()
        return plain_csr_nbytes(layout.num_vertices, layout.num_edges) / max(layout.nbytes, 1)

    def nbytes_by_component(self) -> dict:
        """Bytes of every buffer the graph holds: the layout's, edge properties, renumber map,
        for an order other than ``"sorted"`` its permutation (``vertex_order``) and, once
        ``TraversalConfig.directed_bottom_up`` had them built or kept, a directed graph's
        in-lists beside its out-lists (``in_lists_beside``, all their buffers)."""
        sizes = dict(self._require_built().nbytes_by_component())
        sizes.update({name: int(values.nbytes) for name, values in self._properties.items()})
        if self._ids.renumbered:
            sizes["renumber_map"] = self._ids.nbytes()
        if self._ids.order_nbytes():
            sizes["vertex_order"] = self._ids.order_nbytes()
        kept = self._kept_in_lists()
        if kept is not None:
            sizes["in_lists_beside"] = int(kept.nbytes)
        return sizes

    @property
    def placement(self) -> str:
        """Where the graph's per-edge buffers are: ``"device"``, ``"host"`` or ``"auto"`` (see
        :class:`CompressedGraph`); always ``"host"`` for a host graph, and before a build the
        placement the build will use."""
        return _placement.HOST if self.backend == HOST else self._placement

    @property
    def placement_choice(self) -> dict | None:
        """How ``placement="auto"`` split the payload: ``split_vertex`` (lists below it on the
        GPU), ``num_vertices``, ``device`` and ``host`` (payload bytes on each side),
        ``properties`` (where the edge properties went), ``share`` (the payload bytes the
        budget left, None when the split was given), ``budget`` (the GPU bytes it started
        from) and ``reason``.  None for another placement, a host graph or before the
        build."""
        choice = self.build_stats.get("placement_choice")
        if choice is None or self.backend != DEVICE or self._placement != _placement.AUTO:
            return None
        return dict(choice)

    def to_placement(self, placement: str, memory_budget=None,
                     split_vertex=None) -> CompressedGraph:
        """Move the graph's per-edge buffers (the layout's payload and the edge properties)
        to ``placement``, in place, and return the graph.

        Each buffer is copied into new ones in the target memory, in pieces of
        :data:`~cugraph_compressed._placement.PIECE_BYTES` (no staging buffer), and the graph
        takes the new buffers only once every copy is done: the peak holds the per-edge
        buffers twice, once in each memory.  A failure (MemoryError when the GPU, the pinned
        allocator or the memory budget runs out) leaves the graph as it was and frees what
        was allocated for the move.  Before a build this only changes where the build will
        put the buffers.  A host graph has one place to be: the value is checked and nothing
        moves.

        Parameters
        ----------
        placement : {"device", "host", "auto"}
            The target; ``"auto"`` splits the payload at a vertex (:attr:`placement_choice`).
        memory_budget : int or MemoryBudget, optional
            The graph's GPU budget from now on (see :class:`CompressedGraph`); None keeps the
            one it has.
        split_vertex : int, optional
            With ``"auto"``: the split vertex itself, in ``[0, number_of_vertices()]`` (0:
            every list on the host, the vertex count: every list on the GPU), instead of the
            one the budget gives; a budget is still drawn from.

        Returns
        -------
        CompressedGraph
            This graph.

        Raises
        ------
        ValueError
            ``placement`` is not one of the choices, or ``split_vertex`` is out of range or
            given with another placement.
        TypeError
            ``memory_budget`` or ``split_vertex`` is not an integer (or a MemoryBudget).
        MemoryError
            The target memory or the budget cannot hold the buffers.
        """
        placement = _placement.check_placement(placement)
        budget = check_memory_budget(memory_budget)
        if split_vertex is not None and placement != _placement.AUTO:
            raise ValueError(f"split_vertex={split_vertex!r} needs placement='auto', got "
                             f"{placement!r}")
        if split_vertex is not None and self._layout is not None:
            check_int("split_vertex", split_vertex, 0, self._layout.num_vertices)
        if self._layout is None or self.backend == HOST:
            self._placement = placement
            self._memory_budget = budget or self._memory_budget
            return self
        budget = budget or self._memory_budget
        self._commit(self._placed(self._layout, self._properties, self._ids, placement,
                                  budget, split_vertex))
        self._memory_budget = budget
        return self

    def _placed(self, layout, properties, ids, placement, budget, split_vertex=None):
        """``(layout, properties, placement, choice, draw)`` of the buffers moved to
        ``placement``: the new buffers, filled, and the budget's new draw; nothing of the
        graph changes (a failure frees what was allocated).  ``_commit`` takes them."""
        resident = _resident_nbytes(layout, properties, ids)
        state = _state_per_vertex(properties, ids)
        n = layout.num_vertices
        props = sum(int(p.nbytes) for p in properties.values())
        held = self._held_from(budget)
        choice = None
        if placement == _placement.AUTO:
            choice = _auto_split(layout, props, resident, state, budget, held, split_vertex)
            split = choice["split_vertex"]
            props_to = _placement.DEVICE if choice["properties"] == "device" else _placement.HOST
            device = resident + choice["device"] + (props if props_to == DEVICE else 0)
        elif placement == DEVICE:
            device = resident + props + sum(int(layout.arrays[name].nbytes)
                                            for name in layout.edge_buffers)
        else:
            device = resident
        needed = device + n * state
        if budget is not None:  # before anything is allocated
            budget.require(needed, replacing=self._token_in(budget))
        with _backend.device_allocations():
            arrays = dict(layout.arrays)
            if placement == _placement.AUTO:
                starts = layout.edge_starts(np.asarray([split], dtype=np.int64))
                for name in layout.edge_buffers:
                    arrays[name] = _split.split_array(_split.join(arrays[name], HOST)
                                                      if isinstance(arrays[name],
                                                                    _split.SplitArray)
                                                      else arrays[name],
                                                      int(starts[name][0]))
                moved = {name: _placement.move(values, props_to)
                         for name, values in properties.items()}
            else:
                for name in layout.edge_buffers:
                    arrays[name] = _placement.move(arrays[name], placement)
                moved = {name: _placement.move(values, placement)
                         for name, values in properties.items()}
        draw = None if budget is None else (budget, needed)
        return layout.with_arrays(arrays), moved, placement, choice, draw

    def _commit(self, placed) -> None:
        """Take what :meth:`_placed` made: the buffers, the placement, the choice, the draw."""
        layout, properties, placement, choice, draw = placed
        if draw is not None:
            budget, needed = draw
            token = budget.draw(self, needed, replacing=self._token_in(budget))
            if self._draw is not None and self._draw[0] is not budget:
                self._draw[0].release(self._draw[1])  # placed under another budget now
            self._draw = (budget, token)
        self._layout, self._properties, self._placement = layout, properties, placement
        self._derived = (layout, {})  # what was derived from the moved buffers goes with them
        if choice is None:
            self.build_stats.pop("placement_choice", None)
        else:
            self.build_stats["placement_choice"] = choice

    def _token_in(self, budget):
        """This graph's draw token in ``budget`` (None when it holds none there)."""
        return self._draw[1] if self._draw is not None and self._draw[0] is budget else None

    def _held_from(self, budget) -> int:
        """Bytes this graph holds drawn from ``budget`` (0 for None)."""
        return 0 if budget is None else budget.held(self._token_in(budget))

    def nbytes_by_placement(self) -> dict:
        """Bytes of the graph's buffers (those of :meth:`nbytes_by_component`) in GPU memory
        and in host memory: ``{"device": bytes, "host": bytes}``, read from where each buffer
        is (a buffer split by ``placement="auto"`` counts on both sides).  A host-placed device
        graph holds its per-edge buffers under ``"host"`` (pinned memory) and the rest under
        ``"device"``; a host graph holds everything under ``"host"``.  The package's total of
        pinned bytes, over every graph, is ``cugraph_compressed.pinned_nbytes()``."""
        return self._nbytes_by_placement(beside=True)

    def _nbytes_by_placement(self, beside: bool) -> dict:
        """:meth:`nbytes_by_placement`, with or without the in-lists kept beside the
        out-lists (a transform of the graph compares its own bytes with the graph's lists)."""
        layout = self._require_built()
        sizes = {_placement.DEVICE: 0, _placement.HOST: 0}
        kept = self._kept_in_lists() if beside else None
        in_lists = [] if kept is None else list(kept.arrays.values())
        for array in [*layout.arrays.values(), *self._properties.values(), *in_lists]:
            if array is not None:
                for side, nbytes in _placement.nbytes_by_placement(array).items():
                    sizes[side] += nbytes
        if self._ids.renumbered:
            sizes[self.backend] += self._ids.nbytes()
        sizes[self.backend] += self._ids.order_nbytes()
        return sizes

    def state_nbytes(self) -> int:
        """GPU bytes the per-vertex state of the graph's largest algorithm takes at most:
        what a ``memory_budget`` keeps for it beside the graph (the vertex count times
        :func:`~cugraph_compressed.memory_budget.state_bytes_per_vertex`, doubled for 64-bit
        ids or edge properties)."""
        layout = self._require_built()
        return layout.num_vertices * _state_per_vertex(self._properties, self._ids)

    def validate(self) -> None:
        """Check the layout's invariants; raises ``LayoutInvariantError`` on a violation."""
        self._require_built().validate()

    def view_edge_list(self):
        """The stored edges as a frame with the user's column names and ids.

        Parallel edges are already dropped; an undirected graph lists each edge once, with
        source <= destination (in internal ids when the graph was renumbered), as cuGraph does.
        """
        layout = self._require_built()
        owner, neighbours, positions = layout.to_coo()
        if self._in_lists:
            owner, neighbours = neighbours, owner
        if not self._directed:
            keep = owner <= neighbours
            owner, neighbours, positions = owner[keep], neighbours[keep], positions[keep]
        ids = self._ids
        columns = {self._columns["source"]: ids.to_user(owner.astype(self.vertex_dtype)),
                   self._columns["destination"]: ids.to_user(neighbours.astype(self.vertex_dtype))}
        for name, values in self._properties.items():
            columns[self._columns[name]] = values[positions]
        return ids.frame(columns)


def _unpickle(data, traversal, cls=CompressedGraph, placement=_placement.DEVICE,
              split_vertex=None) -> CompressedGraph:
    G = cls._from_saved(saved.loads(data, placement=_built_placement(placement)))
    G._place_loaded(placement, split_vertex)  # an auto graph keeps its split
    G.traversal = traversal
    return G


#: Where a graph keeps the in-lists it built beside its out-lists (its derived values).
_IN_LISTS = ("bfs", "in_lists_beside")


def _built_placement(placement: str) -> str:
    """Where a build or a load puts the per-edge buffers: ``"auto"`` builds them in pinned
    memory (never whole on the GPU) and moves the prefix that fits to the GPU after."""
    return _placement.HOST if placement == _placement.AUTO else placement


def _device_nbytes(layout) -> int:
    """Bytes of ``layout``'s buffers in GPU memory."""
    return sum(_placement.nbytes_by_placement(a)[_placement.DEVICE]
               for a in layout.arrays.values() if a is not None)


def _resident_nbytes(layout, properties, ids) -> int:
    """GPU bytes a device graph keeps whatever its placement: the layout's per-vertex
    buffers, the renumber map and the vertex order's permutation."""
    per_edge = set(layout.edge_buffers)
    total = sum(int(a.nbytes) for name, a in layout.arrays.items()
                if a is not None and name not in per_edge)
    return total + (0 if ids is None else ids.nbytes() + ids.order_nbytes())


def _state_per_vertex(properties, ids) -> int:
    """GPU bytes per vertex of the largest algorithm's state on a graph with these ids and
    edge properties (:func:`~cugraph_compressed.memory_budget.state_bytes_per_vertex`)."""
    wide = ((ids is not None and np.dtype(ids.dtype).itemsize > 4)
            or any(np.dtype(p.dtype).itemsize > 4 for p in properties.values()))
    return state_bytes_per_vertex(wide)


def _auto_split(layout, props: int, resident: int, state: int, budget, held: int,
                split_vertex) -> dict:
    """The split of ``placement="auto"`` (:attr:`CompressedGraph.placement_choice`)."""
    n = layout.num_vertices
    if budget is not None:
        limit, source = budget.available + held, f"memory_budget ({budget.nbytes} bytes)"
    else:
        free, total = _backend.gpu_memory_info()
        reserve = max(_split.RESERVE_BYTES, int(total * _split.RESERVE_FRACTION))
        # what the graph holds is allocated already: the free memory does not count it
        limit, source = free - reserve + resident, (f"the GPU's free memory ({free} bytes) "
                                                    f"less a reserve of {reserve}")
    share = None
    if split_vertex is None:
        share = _split.device_share(limit, resident, n, state)
        split = _split.choose_split(layout.split_nbytes, n, share)
        reason = (f"the lists of vertices 0 .. {split - 1} fit the {share} bytes of payload "
                  f"{source} leaves beside {resident} bytes of per-vertex arrays and "
                  f"{n * state} of per-vertex state")
    else:
        split = int(split_vertex)
        reason = f"split_vertex={split} was given"
    device = int(layout.split_nbytes([split])[0])
    payload = sum(int(layout.arrays[name].nbytes) for name in layout.edge_buffers)
    to_device = split == n and (share is None or device + props <= share)
    return {"split_vertex": split, "num_vertices": n, "device": device,
            "host": payload - device, "properties": "device" if to_device else "host",
            "share": share, "budget": limit, "reason": reason}


def _unpickle_empty(directed, format, layout_params, traversal,
                    cls=CompressedGraph, vertex_order=DEFAULT_VERTEX_ORDER,
                    placement=_placement.DEVICE) -> CompressedGraph:
    G = cls._blank(directed, format, layout_params, vertex_order, placement)
    G.traversal = traversal
    return G


def estimate_nbytes(df, format="csr", source="source", destination="destination", directed=False,
                    renumber=True, weight=None, vertex_order=DEFAULT_VERTEX_ORDER,
                    **layout_params) -> int:
    """What ``nbytes`` of the graph built from ``df`` would be, without encoding it.

    Runs the streaming build of ``from_cudf_edgelist`` / ``from_pandas_edgelist`` (a cuDF frame
    on the GPU, a pandas frame on the host) up to its sizing step: the edges are validated,
    renumbered, deduplicated and symmetrized range by range, and the layout's encoder records
    the exact size of every list; no buffer of the structure is allocated.

    Parameters
    ----------
    df : cudf.DataFrame or pandas.DataFrame
        The edge frame.
    format : str
        The layout.
    source, destination, weight : str
        Column names, as for ``from_cudf_edgelist``.
    directed, renumber : bool
        As for ``CompressedGraph`` and ``from_cudf_edgelist``.
    vertex_order : {"degree", "sorted"}, optional
        As for ``CompressedGraph`` (by default, degree order when renumbered).
    **layout_params
        The layout's parameters.
    """
    backend = backend_of(df)
    if backend is None:
        raise TypeError(f"df must be a cudf or pandas DataFrame, got {type(df).__name__}")
    graph = CompressedGraph(directed=directed, format=format, vertex_order=vertex_order,
                            **layout_params)
    spec = graph._spec(source, destination, None, weight, None, None, renumber, False, None,
                       None)
    return build(EdgeChunks([df], backend, single=True), spec, size_only=True)
