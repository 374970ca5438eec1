"""What is measured: one :class:`Spec` per registered algorithm (the graph it is timed on,
per source or not, the call) and the contenders (cuGraph and every layout), all derived from
the algorithm registry and ``cugraph_compressed.formats.FORMATS``.

Every contender builds at most two graphs per directedness (:data:`GRAPHS`), each once, and
times every algorithm that uses it: PageRank (``transposed`` in the registry) on an unweighted
graph stored transposed, every other algorithm on the weighted graph (weights are built even
for those that do not need them, so that one graph serves all of them).
"""

from dataclasses import dataclass, replace

from ..algorithms import ALGORITHMS as REGISTRY
from ..algorithms.registry import Algorithm, device_layouts

CUGRAPH = "cugraph"
OURS = "cugraph_compressed"

#: How each graph kind is built, for cuGraph and ours alike (with the contender's ``renumber``).
GRAPHS = {"weighted": {"weight": "weight", "store_transposed": False},
          "transposed": {"weight": None, "store_transposed": True}}

NOTE_NO_KERNELS = "no GPU kernels for this layout yet: size and encode time only"
#: The default share of an auto contender's per-edge bytes given to it in GPU memory.
AUTO_SHARE = 0.5
#: The format of cuGraph's ``renumber=False`` row.
NO_RENUMBER = "native-renumber-false"


@dataclass(frozen=True)
class Spec:
    """How one algorithm is measured.

    Attributes
    ----------
    algorithm : Algorithm
        Its registry entry.
    """

    algorithm: Algorithm

    @property
    def name(self):
        """The algorithm's name in records (``Algorithm.short``: ``wcc``)."""
        return self.algorithm.short

    @property
    def graph(self):
        """The kind of graph it is timed on, a key of :data:`GRAPHS`."""
        return "transposed" if self.algorithm.transposed else "weighted"

    @property
    def per_source(self):
        """Timed once per source (it takes a start vertex), else once per call."""
        return self.algorithm.source

    def skip_note(self, directed):
        """Why it does not run on a graph of this directedness, or None when it does."""
        if self.algorithm.undirected and directed:
            return f"skipped: {self.algorithm.name.replace('_', ' ')} need an undirected graph"
        return None


#: Record name -> Spec, in registration order.
SPECS = {entry.short: Spec(entry) for entry in REGISTRY.values()}


def pick_formats(formats):
    """The layouts to measure.

    Parameters
    ----------
    formats : iterable of str or None
        Names from ``cugraph_compressed.formats.FORMATS``; all of them when None.

    Returns
    -------
    list of str

    Raises
    ------
    ValueError
        For a name that is not a layout.
    """
    from ..formats import FORMATS

    if formats is None:
        return list(FORMATS)
    formats = list(formats)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(f"unknown format(s) {unknown}; available: {sorted(FORMATS)}")
    return formats


def pick_specs(names):
    """The specs of the algorithms named, duplicates dropped, in that order.

    Parameters
    ----------
    names : iterable of str
        Record names (keys of :data:`SPECS`).

    Returns
    -------
    list of Spec

    Raises
    ------
    ValueError
        For a name not in :data:`SPECS`.
    """
    names = list(dict.fromkeys(names))
    unknown = sorted(set(names) - set(SPECS))
    if unknown:
        raise ValueError(f"unknown algorithm(s) {unknown}; available: {list(SPECS)}")
    return [SPECS[n] for n in names]


@dataclass(frozen=True)
class Contender:
    """One side of the comparison: cuGraph, or this package with one layout.

    Attributes
    ----------
    name : str
        :data:`CUGRAPH` or :data:`OURS`.
    format : str
        ``"native"`` for cuGraph (:data:`NO_RENUMBER` for its ``renumber=False`` row), else the
        layout's name.
    renumber : bool
        Builds with ``renumber=True``: cuGraph's default and fastest path (degree ordering,
        degree-segmented kernels), and ours.  cuGraph with False is a row on request only.
    vertex_order : str
        Our graphs' ``CompressedGraph(vertex_order=...)`` (cuGraph orders its own);
        always ``"degree"`` for ``placement="auto"`` (:func:`contenders`).
    placement : str
        Our graphs' placement: ``"device"``, ``"host"`` (per-edge buffers in pinned host
        memory, read zero-copy) or ``"auto"``: built with ``placement="host"``, so that the
        payload is never whole on the GPU, then moved by :func:`place_auto`, which keeps about
        ``auto_share`` of the per-edge bytes on the GPU (hubs first: degree order is what
        makes auto pay); the build time includes the move.  cuGraph's graphs are in GPU
        memory.
    auto_share : float or None
        With ``placement="auto"``: the share of the per-edge bytes its memory budget leaves
        room for on the GPU (:func:`auto_budget`); None otherwise.
    directed_bottom_up : bool
        Ours with ``TraversalConfig(directed_bottom_up=True)``: BFS on a directed graph goes
        bottom-up over in-lists kept beside the out-lists, which its build makes too (so the
        build's time, peak and bytes include them).  Such a contender times BFS on directed
        graphs only (:meth:`skip_note`).
    """

    name: str
    format: str
    renumber: bool = True
    vertex_order: str = "degree"
    placement: str = "device"
    auto_share: float | None = None
    directed_bottom_up: bool = False

    @property
    def label(self):
        """``name:format`` (``name:format@host`` for a host-placed graph,
        ``name:format+bottom-up`` with ``directed_bottom_up``), what other contenders' results
        name as ``checked_against``."""
        return f"{self.name}:{self.format}{self._variant}"

    @property
    def _variant(self):
        """What tells this graph of a layout from others of the same layout."""
        where = "" if self.placement == "device" else f"@{self.placement}"
        return where + ("+bottom-up" if self.directed_bottom_up else "")

    @property
    def is_cugraph(self):
        return self.name == CUGRAPH

    @property
    def title(self):
        """How tables and plots name it: ``cuGraph`` (``cuGraph renumber=False``), the
        layout's name, or for another implementation its name and layout (``efg (ef)``)."""
        if self.name not in (CUGRAPH, OURS):
            return f"{self.name} ({self.format})"
        if not self.is_cugraph:
            return f"{self.format}{self._variant}"
        return "cuGraph" if self.renumber else "cuGraph renumber=False"

    def skip_note(self, spec, directed):
        """Why this contender does not time ``spec`` on a graph of this directedness (a
        ``directed_bottom_up`` contender times BFS on directed graphs only), or None."""
        if self.directed_bottom_up and (spec.name != "bfs" or not directed):
            return "skipped: the directed bottom-up contender times BFS on directed graphs only"
        return None

    def builder(self, env, directed, kind):
        """A function building this contender's graph of kind ``kind`` from an edge frame.

        Parameters
        ----------
        env : Environment
            Supplies cuGraph, and picks cuDF or pandas input for ours.
        directed : bool
            Directedness of the graph.
        kind : str
            A key of :data:`GRAPHS`.

        Returns
        -------
        callable
            ``build(df) -> graph``, with the contender's ``renumber``.
        """
        kw = {k: v for k, v in GRAPHS[kind].items() if v is not None}
        renumber = self.renumber
        if self.is_cugraph:
            cugraph = env.cugraph

            def build(df):
                G = cugraph.Graph(directed=directed)
                G.from_cudf_edgelist(df, source="source", destination="destination",
                                     renumber=renumber, **kw)
                return G
        else:
            from ..graph import CompressedGraph
            from ..graph_view import OUT
            from ..kernels.traversal import TraversalConfig

            fmt, order, placement = self.format, self.vertex_order, self.placement
            share, bottom_up = self.auto_share, self.directed_bottom_up

            def build(df):
                G = CompressedGraph(directed=directed, format=fmt, vertex_order=order,
                                    placement="host" if placement == "auto" else placement)
                load = (G.from_cudf_edgelist if env.backend == "device"
                        else G.from_pandas_edgelist)
                load(df, source="source", destination="destination", renumber=renumber, **kw)
                G = place_auto(G, share) if placement == "auto" else G
                if bottom_up:  # the in-lists are built now, as part of the graph's build
                    G.traversal = TraversalConfig(directed_bottom_up=True)
                    G.view().adjacency(OUT).bottom_up_lists()
                return G
        return build

    def call(self, env, spec):
        """The call to time: ``fn(G, source)`` for per-source algorithms, else ``fn(G)``.

        cuGraph's function of the same name for cuGraph, ours otherwise; both take the start
        vertex second.  ``Algorithm.benchmark_args`` are passed as keywords.
        """
        if self.is_cugraph:
            function = getattr(env.cugraph, spec.algorithm.name)
        else:
            function = spec.algorithm.function
        kwargs = dict(spec.algorithm.benchmark_args)
        return lambda G, *source: function(G, *source, **kwargs)

    def has_kernels(self, env):
        """False where our algorithms have no kernels for the layout yet (device backend)."""
        if self.is_cugraph or env.backend != "device":
            return True
        return self.format in device_layouts()


def check_auto_share(auto_share):
    """``auto_share`` as a float, checked: the share of an auto contender's per-edge bytes kept
    on the GPU.

    Raises
    ------
    ValueError
        Anything but a number strictly between 0 and 1.
    """
    if (isinstance(auto_share, bool) or not isinstance(auto_share, (int, float))
            or not 0 < auto_share < 1):
        raise ValueError(f"auto_share={auto_share!r} must be a number with 0 < auto_share < 1")
    return float(auto_share)


def auto_budget(device_bytes, host_bytes, state_bytes, auto_share):
    """The ``memory_budget`` an auto contender's graph is moved to ``placement="auto"`` with.

    Parameters
    ----------
    device_bytes, host_bytes : int
        ``nbytes_by_placement()`` of the graph in host placement: what it keeps on the GPU
        whatever the split (per-vertex arrays, renumber map, vertex order) and its per-edge
        bytes (the layout's payload and the edge properties).
    state_bytes : int
        The per-vertex state of its largest algorithm (``CompressedGraph.state_nbytes()``).
    auto_share : float
        The share of ``host_bytes`` the budget leaves room for.

    Returns
    -------
    int
        ``device_bytes + state_bytes + floor(auto_share * host_bytes)``: auto then keeps on the
        GPU the longest prefix of lists whose payload fits that share, and the edge
        properties only where the whole payload and they fit it.
    """
    return int(device_bytes) + int(state_bytes) + int(auto_share * int(host_bytes))


def place_auto(G, auto_share):
    """Move a graph built with ``placement="host"`` to ``placement="auto"`` under the budget
    :func:`auto_budget` gives it (a host graph stays where it is), and return it."""
    sizes = G.nbytes_by_placement()
    budget = auto_budget(sizes["device"], sizes["host"], G.state_nbytes(), auto_share)
    return G.to_placement("auto", memory_budget=budget)


def auto_fields(auto_share, vertex_order, choice, sizes):
    """What an auto contender's row records of its graph (``auto_placement``).

    Parameters
    ----------
    auto_share : float
        The contender's share (:func:`auto_budget`).
    vertex_order : str
        Its graph's vertex order.
    choice : dict or None
        The graph's ``placement_choice`` (None for a host graph: nothing was split).
    sizes : dict
        The graph's ``nbytes_by_placement()`` after the move.

    Returns
    -------
    dict
        ``auto_share`` and ``vertex_order``; ``memory_budget`` (the bytes it was
        moved with), ``split_vertex`` and ``num_vertices``, ``payload_device_bytes`` and
        ``payload_host_bytes`` (the layout's per-edge payload on each side), ``properties``
        (where the edge properties went), all None without a choice; ``device_bytes`` and
        ``host_bytes`` (the whole graph on each side) and ``per_edge_device_fraction`` (the
        share of the per-edge bytes, payload and edge properties, in GPU memory; None without
        a choice).
    """
    fields = {"auto_share": auto_share, "vertex_order": vertex_order, "memory_budget": None,
              "split_vertex": None, "num_vertices": None, "payload_device_bytes": None,
              "payload_host_bytes": None, "properties": None,
              "device_bytes": int(sizes["device"]), "host_bytes": int(sizes["host"]),
              "per_edge_device_fraction": None}
    if choice is None:
        return fields
    fields.update(memory_budget=int(choice["budget"]), split_vertex=int(choice["split_vertex"]),
                  num_vertices=int(choice["num_vertices"]),
                  payload_device_bytes=int(choice["device"]),
                  payload_host_bytes=int(choice["host"]), properties=choice["properties"])
    # A device graph's host bytes are per-edge bytes; properties on the GPU means all are.
    on_device, host = int(choice["device"]), int(sizes["host"])
    if choice["properties"] == "device" or not host:
        fields["per_edge_device_fraction"] = 1.0
    else:
        fields["per_edge_device_fraction"] = on_device / (on_device + host)
    return fields


def contenders(formats, with_cugraph, cugraph_renumber_false=False, vertex_order="degree",
               placements=("device",), auto_share=AUTO_SHARE, directed_bottom_up=False):
    """Everything measured side by side, in the order measured.

    Parameters
    ----------
    formats : list of str
        Layouts (:func:`pick_formats`).
    with_cugraph : bool
        Put cuGraph first, built with ``renumber=True``: the baseline every ratio is taken
        against and the reference the layouts are checked against.
    cugraph_renumber_false : bool
        Also cuGraph built with ``renumber=False`` (format :data:`NO_RENUMBER`), after it.
    vertex_order : str
        The vertex order of every layout's graph (``"sorted"`` or ``"degree"``) but those in
        ``"auto"`` placement, always in ``"degree"`` order.
    placements : sequence of str
        Each layout is a contender once per placement (``"device"``, ``"host"``, ``"auto"``),
        in order.
    auto_share : float
        The ``auto_share`` of the ``"auto"`` contenders, checked (:func:`check_auto_share`).
    directed_bottom_up : bool
        Each of ours again right after itself with ``directed_bottom_up``: its BFS on
        directed graphs over in-lists kept beside the out-lists.  Not for ``"auto"``
        placement, whose budget (:func:`auto_budget`) is sized before the in-lists exist.

    Returns
    -------
    list of Contender
    """
    sides = [Contender(CUGRAPH, "native")] if with_cugraph else []
    if with_cugraph and cugraph_renumber_false:
        sides.append(Contender(CUGRAPH, NO_RENUMBER, renumber=False))
    for f in formats:
        for p in placements:
            ours = (Contender(OURS, f, vertex_order=vertex_order, placement=p) if p != "auto"
                    else Contender(OURS, f, vertex_order="degree", placement=p,
                                   auto_share=auto_share))
            sides.append(ours)
            if directed_bottom_up and p != "auto":  # auto's budget holds no room for them
                sides.append(replace(ours, directed_bottom_up=True))
    return sides
