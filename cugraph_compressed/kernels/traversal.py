"""Launching the traversal core (``traverse.cuh``) from Python: the one place that knows the
kernel protocol (view argument block, item counts, prefix sum, tile grid), and its tuning
knobs (:class:`TraversalConfig`).

Kernels are instantiated per layout view type (``Layout.device_view_types()``), vertex type
and, where weights take part, weight type; a run compiles only the instantiations for its own
types (:class:`Module`; NVRTC, cached on disk) and CI compiles them all.  This module sits
below both the graph (whose edges are decoded here when it re-orients its storage) and the
algorithms.
"""
from __future__ import annotations

import math
import os
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .._args import check_number
from . import CHECKED, get_kernel, grid_size, register, resident_blocks, take_faults

HERE = Path(__file__).parent
#: cgc::BLOCK and cgc::WARP (common.cuh), cgc::ITEMS (traverse.cuh); a test reads them there.
BLOCK, ITEMS, WARP = 256, 4, 32
WARPS = BLOCK // WARP
ALL_DEGREES = (0, np.iinfo(np.int64).max)
VERTEX_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
WEIGHT_TYPES = {np.dtype(np.float32): "float", np.dtype(np.float64): "double"}


def view_types():
    """C++ types of every layout view that has device kernels."""
    from ..formats import FORMATS

    return [t for cls in FORMATS.values() for t in cls.device_view_types()]


def instantiations(template, *, weights=False, view=True):
    """Every ``template`` instantiation: per view type (if ``view``), vertex type and, with
    ``weights``, weight type.  ``template`` is a format string with {view}, {vertex}, {weight}."""
    names = []
    for vertex in VERTEX_TYPES.values():
        for weight in (WEIGHT_TYPES.values() if weights else [None]):
            for view_type in (view_types() if view else [None]):
                names.append(template.format(view=view_type, vertex=vertex, weight=weight))
    return list(dict.fromkeys(names))  # once each: a template may not use every placeholder


class Module:
    """One kernel source and the templates it defines.

    ``source`` is the ``.cu`` path (an algorithm passes ``Path(__file__).with_name(...)``);
    ``templates`` maps a short name to (format string, uses weights, uses a view) or
    (format string, uses weights, uses a view, group).

    A call compiles only what its run can launch (:meth:`names_for`): the templates of its
    group (all of them when none is named) instantiated for its own view, vertex and weight
    types.  One module of every instantiation would take NVRTC minutes on first use (a view
    type per layout, two vertex and two weight types); CI still compiles them all at once
    (:meth:`all_names`, ``tests/native``)."""

    def __init__(self, source, templates):
        self.source = Path(source)
        self.templates = templates
        register(self.source, self.all_names)

    def all_names(self):
        return [n for fmt, w, v, *_ in self.templates.values()
                for n in instantiations(fmt, weights=w, view=v)]

    def names_for(self, name, view=None, vertex=None, weight=None):
        """The instantiations compiled together with template ``name`` for these C++ types:
        each template of its group whose placeholders the types fill (one needing a type not
        given is left out), the requested one first."""
        group = self.templates[name][3:]
        names = []
        for fmt, weights, uses_view, *other in self.templates.values():
            lacking = ((weights and weight is None) or (uses_view and view is None)
                       or ("{vertex}" in fmt and vertex is None))
            if other != list(group) or lacking:
                continue
            names.append(fmt.format(view=view, vertex=vertex, weight=weight))
        expr = self.templates[name][0].format(view=view, vertex=vertex, weight=weight)
        return list(dict.fromkeys([expr, *names]))

    def kernel(self, name, *, view=None, vertex=None, weight=None, checked=False,
               host_reads=False):
        """One instantiation of template ``name``, compiled with :meth:`names_for`'s set;
        ``checked``: from the checked build (``kernels/common.cuh``), ``host_reads``: from
        the host-reads build (``kernels/traverse.cuh``), which only kernels reading a layout
        view differ in.  Each build is its own module, compiled when first asked for."""
        vertex = VERTEX_TYPES.get(np.dtype(vertex)) if vertex is not None else None
        weight = WEIGHT_TYPES.get(np.dtype(weight)) if weight is not None else None
        names = self.names_for(name, view, vertex, weight)
        defines = (CHECKED,) * bool(checked) + (HOST_READS,) * bool(host_reads)
        return get_kernel(self.source, names[0], names, defines=defines)


#: Set to 1 to make ``TraversalConfig.checked`` default to True in this process.
CHECKED_ENV = "CUGRAPH_COMPRESSED_CHECKED"
#: Set to 0 to make ``TraversalConfig.host_reads`` default to False in this process.
HOST_READS_ENV = "CUGRAPH_COMPRESSED_HOST_READS"
#: Set to an int (or ``none``) to make ``TraversalConfig.host_sort_frontiers_from`` default to it.
HOST_SORT_ENV = "CUGRAPH_COMPRESSED_HOST_SORT_FROM"
#: The define of host-reads builds (``kernels/traverse.cuh``).
HOST_READS = "CGC_HOST_READS"
#: Lists of a host-placed graph at least this long go to warp items (when a layout has any).
HOST_WARP_DEGREE = WARP


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{name}={value!r} must be 0 or 1")
    return default if value == "" else value == "1"


def _checked_default() -> bool:
    return _flag(CHECKED_ENV, False)


def _host_reads_default() -> bool:
    return _flag(HOST_READS_ENV, True)


#: Frontiers of host-placed graphs from this many vertices up are sorted: BFS and SSSP at R-MAT
#: 24 on the H100 took 0.58-0.88x the time with it on ef, fl and cgr and the same on csr
#: (benchmarks/results/tuning/h100-scale24-host-sort-frontiers-995879b.json).
HOST_SORT_FROM = 4096


def _host_sort_default():
    value = os.environ.get(HOST_SORT_ENV, "")
    if value == "":
        return HOST_SORT_FROM
    if value == "none":
        return None
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{HOST_SORT_ENV}={value!r} must be an int >= 1, 'none' or empty"
                         ) from None


@dataclass(frozen=True)
class TraversalConfig:
    """How the device kernels pass over lists; a graph's is ``CompressedGraph.traversal``.

    Parameters
    ----------
    warp_item_ranks : int, None or "auto"
        Ranks of a warp item, at least (:func:`warp_item_size`): 32 per lane, so a warp's step
        amortises its owner search and list header over 32 ranks a lane, and a CGR item of
        32-residual segments gives each lane one segment.  Lists that fill one warp item go
        through warps (:func:`list_passes`); None: every list goes through the per-thread
        kernels.  ``"auto"`` (the default): :data:`AUTO_WARP_ITEM_RANKS`, 128 for ``csr``
        and ``fl`` (whose one-rank thread items need no warps but in PageRank's product, of
        32-rank items: lists of 32 ranks or more read coalesced by warps there) and 1024 for
        ``ef`` and ``cgr``, as measured at R-MAT 24 on an H100
        (``benchmarks/results/tuning/h100-scale24-pagerank-warp-item-ranks-708140e.json``).
    warp_list_ranks : int, None or "auto"
        Lists of at least this many ranks go to the warp launch (:func:`list_passes`), the
        shorter ones to thread items; only layouts whose thread items are longer than one
        rank have a warp launch.  None: lists that fill one warp item (:func:`warp_item_size`).
        ``"auto"`` (the default): :data:`AUTO_WARP_LIST_RANKS`, 32 for ``ef``, whose thread
        item is a whole forward-pointer stride (k = 512 ranks): a thread that decodes a list
        of a few hundred ranks alone keeps the other 31 lanes of its warp waiting on it, where
        a warp decodes that list in a few steps of 32 ranks; 32 for ``csr`` and ``fl`` (in
        PageRank's product, their only pass with a warp launch); 128 for ``cgr`` (as
        measured: see :data:`AUTO_WARP_LIST_RANKS`).
    sort_frontiers_from : int or None
        Frontiers at least this long are sorted by vertex id before they are expanded, so the
        threads of a warp read neighbouring list headers and write neighbouring results.
        None: never sorted (it costs more than it gains on most layouts:
        ``benchmarks/tuning.py`` measures both ways beside cuGraph).
    checked : bool
        Decode with the checked kernels: no read leaves a layout buffer, no decode loop runs
        past its list, and a list that breaks what the decoders rely on (its extent, its
        neighbours' range and order, its codes) raises
        :class:`~cugraph_compressed.LayoutInvariantError` after the run instead of reading
        out of bounds.  Costs time (``benchmarks/tuning.py --knob checked``); meant for layouts
        that may be corrupted.  A corruption that keeps every read in bounds and every list
        increasing and in range decodes as a valid, different graph: only
        ``CompressedGraph.validate()`` compares everything.  Defaults to False, or to True
        when the environment sets ``CUGRAPH_COMPRESSED_CHECKED=1``.
    bottom_up_alpha : float or None
        Direction-optimizing BFS on undirected graphs (Beamer's switch): a top-down level turns
        bottom-up when its frontier's edges exceed the unexplored edges divided by this
        number, so larger values switch earlier.  None: BFS stays top-down.  Directed graphs
        are searched top-down unless ``directed_bottom_up``.
    bottom_up_beta : float
        A bottom-up BFS level turns back top-down when its frontier is smaller than the
        previous one and holds at most ``num_vertices / bottom_up_beta`` vertices; larger
        values stay bottom-up longer.
    directed_bottom_up : bool
        Direction-optimizing BFS on directed graphs too (an opt-in, off by default): a
        bottom-up level scans each unvisited vertex's in-list, so the graph builds its
        in-lists from its own edges on the first such BFS (the streaming build, without edge
        properties; a graph stored transposed keeps the in-lists it is re-oriented from) and
        keeps them beside its out-lists until those change or a configuration without
        ``directed_bottom_up`` is assigned (which gives them back): a second structure in
        memory, counted by ``CompressedGraph.nbytes``
        (``nbytes_by_component()["in_lists_beside"]``) and drawn from its memory budget.
        Needs ``bottom_up_alpha``; no effect on undirected graphs (their lists are both), on
        transformed graphs (their BFS is their own) or on the host backend, whose BFS is
        top-down.
    host_reads : bool
        On a graph whose per-edge buffers are in pinned host memory (``placement="host"``),
        run the host-reads build of the kernels (``kernels/traverse.cuh``): warps read lists
        in 128-byte-aligned, coalesced requests (EMOGI's scheme: ``csr`` and ``fl`` lists in
        aligned groups of 32 slots, ``ef``'s upper bits in whole lines), and lists of at least
        32 ranks of the layouts with warp decoders go to warps.  Results are the same either
        way.  Defaults to True, or to False when the environment sets
        ``CUGRAPH_COMPRESSED_HOST_READS=0`` (to time both).  No effect on GPU-placed graphs.
    host_sort_frontiers_from : int or None
        ``sort_frontiers_from`` for host-placed graphs (BFS's and SSSP's frontiers sorted by
        vertex, so neighbouring lists share 128-byte lines, as EFG orders its frontier out of
        core).  Defaults to 4096 (``benchmarks/tuning.py`` measured it), or to the
        environment's ``CUGRAPH_COMPRESSED_HOST_SORT_FROM`` (an int, or ``none``: never).
    """

    warp_item_ranks: int | None | str = "auto"
    warp_list_ranks: int | None | str = "auto"
    sort_frontiers_from: int | None = None
    checked: bool = field(default_factory=_checked_default)
    bottom_up_alpha: float | None = 15.0
    bottom_up_beta: float = 18.0
    directed_bottom_up: bool = False
    host_reads: bool = field(default_factory=_host_reads_default)
    host_sort_frontiers_from: int | None = field(default_factory=_host_sort_default)

    @property
    def directed_goes_up(self) -> bool:
        """BFS on a directed graph may run bottom-up levels (over its in-lists beside):
        ``directed_bottom_up`` with Beamer's switch on (``bottom_up_alpha`` set)."""
        return self.directed_bottom_up and self.bottom_up_alpha is not None

    def __post_init__(self):
        for name in ("checked", "host_reads", "directed_bottom_up"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"TraversalConfig.{name}={getattr(self, name)!r} must be a bool")
        for name in ("bottom_up_alpha", "bottom_up_beta"):
            value = getattr(self, name)
            if value is None and name == "bottom_up_alpha":
                continue
            number = check_number(f"TraversalConfig.{name}", value)
            if not 0 < number < math.inf:
                raise ValueError(f"TraversalConfig.{name}={value!r} must be a finite number > 0"
                                 + (" or None" if name == "bottom_up_alpha" else ""))
        auto = ("warp_item_ranks", "warp_list_ranks")  # the knobs that take "auto"
        for name in (*auto, "sort_frontiers_from", "host_sort_frontiers_from"):
            value = getattr(self, name)
            if name in auto and isinstance(value, str) and value == "auto":
                continue
            if value is not None and (isinstance(value, bool)
                                      or not isinstance(value, (int, np.integer)) or value < 1):
                raise ValueError(f"TraversalConfig.{name}={value!r} must be None or an int >= 1"
                                 + (' or "auto"' if name in auto else ""))


DEFAULT_CONFIG = TraversalConfig(checked=False)


@contextmanager
def checked_run(layout, config: TraversalConfig, what: str):
    """Run device work on ``layout`` under ``config``: with ``config.checked``, faults the
    checked kernels record (``kernels/common.cuh``) raise LayoutInvariantError, also when the
    work failed because of them (the work's exception is chained)."""
    if not config.checked:
        yield
        return
    take_faults()  # anything left from an earlier failure is not this run's
    try:
        yield
    except Exception as exc:
        if fault := take_faults():
            raise _fault_error(layout, what, fault) from exc
        raise
    if fault := take_faults():
        raise _fault_error(layout, what, fault)


#: The FAULT_* bits of kernels/common.cuh, as the error names them.
FAULTS = {1: "a read past the end of a buffer", 2: "a list extent outside [0, num_edges]",
          4: "a neighbour outside [0, num_vertices)", 8: "a list that is not strictly increasing",
          16: "a code, pointer or count that no valid list holds"}


def _fault_error(layout, what, fault):
    from ..formats import LayoutInvariantError

    kinds, vertex = fault
    met = "; ".join(text for bit, text in FAULTS.items() if kinds & bit)
    where = "" if vertex is None else f", first at the list of vertex {vertex}"
    return LayoutInvariantError(
        f"the {layout.name!r} layout is corrupted: {what} met {met}{where} while decoding "
        "(checked kernels); CompressedGraph.validate() names the broken invariant")

TRAVERSE = Module(HERE / "traverse.cu", {
    "count_items": ("count_items<{view}, {vertex}>", False, True),
    "decode_slots": ("decode_slots<{view}, {vertex}>", False, True),
    "scan_reduce": ("scan_items_reduce<{view}, {vertex}>", False, True),
    "scan_spine": ("scan_items_spine", False, False),
    "scan_finish": ("scan_items_finish<{view}, {vertex}>", False, True),
})
#: Blocks of a device-sized item scan (traverse.cuh, scan_items_*): each owns 1/SCAN_BLOCKS of
#: the vertex set.
SCAN_BLOCKS = 512


def host_placed(layout) -> bool:
    """Whether any per-edge buffer of ``layout`` (``edge_buffers``) is wholly or partly in
    pinned host memory (read by the kernels zero-copy; a host-backend layout's NumPy buffers
    are not)."""
    from .._pinned import is_pinned
    from .._split import SplitArray

    return any(isinstance(a, SplitArray) or is_pinned(a)
               for a in (layout.arrays.get(name) for name in layout.edge_buffers)
               if a is not None)


class Traversal:
    """A layout's device view plus the item bookkeeping of one algorithm run, under one
    :class:`TraversalConfig`; a host-placed layout's kernels come from the host-reads build
    when ``config.host_reads``."""

    def __init__(self, layout, vertex_dtype, config: TraversalConfig = DEFAULT_CONFIG):
        import cupy as cp

        self.cp = cp
        self.layout = layout
        self.config = config
        self.host = host_placed(layout)
        self.host_reads = self.host and config.host_reads
        self.view_type, self.view = layout.device_view()
        self.vertex_dtype = np.dtype(vertex_dtype)
        self.n = layout.num_vertices
        self._dummy = cp.zeros(1, dtype=self.vertex_dtype)

    def kernel(self, module: Module, name: str, weight=None):
        """``module``'s kernel ``name`` for this run's view and vertex type (and ``weight``),
        checked or not as the config says."""
        return module.kernel(name, view=self.view_type, vertex=self.vertex_dtype, weight=weight,
                             checked=self.config.checked, host_reads=self.host_reads)

    def _counts(self, vertices, count, item_size, degrees):
        """Item counts (int64) of ``vertices[:count]`` (None: all vertices) for one pass."""
        counts = self.cp.empty(count, dtype=self.cp.int64)
        every = vertices is None
        self.kernel(TRAVERSE, "count_items")(
            (grid_size(count, BLOCK),), (BLOCK,),
            (self.view, self._dummy if every else vertices, np.int32(every), np.int64(count),
             np.int64(item_size), np.int64(degrees[0]), np.int64(degrees[1]), counts))
        return counts

    def items(self, vertices, count, item_size, degrees=ALL_DEGREES):
        """Inclusive prefix sum (int64) of the item counts of ``vertices[:count]`` (None: all
        vertices) and the total number of items; only lists whose degree lies in
        ``[degrees[0], degrees[1])`` get items.  The counts live only inside this call: a run
        keeps no per-vertex bookkeeping besides the scans its caller holds."""
        if count == 0:
            return self.cp.zeros(0, dtype=self.cp.int64), 0
        scan = self.cp.cumsum(self._counts(vertices, count, item_size, degrees))
        return scan, int(scan[-1])

    def members(self, item_size, degrees):
        """The vertices (this run's vertex dtype, ascending) whose lists get items in a pass
        over all vertices with ``item_size`` and ``degrees``: a pass that meets few lists (the
        long ones) then holds a scan over those only."""
        if self.n == 0:
            return self.cp.zeros(0, dtype=self.vertex_dtype)
        counts = self._counts(None, self.n, item_size, degrees)
        return self.cp.flatnonzero(counts).astype(self.vertex_dtype)

    def launch(self, kernel, vertices, count, scan, total, item_size, *args, per_warp=False):
        """Launch an item kernel: (view, vertices, scan, n, total, item_size, *args); one item
        per thread (for_each_item) or, with ``per_warp``, per warp (for_each_warp_item)."""
        if total == 0:
            return
        tiles = -(-total // ((WARPS if per_warp else BLOCK) * ITEMS))
        vertices = self._dummy if vertices is None else vertices
        kernel((tiles,), (BLOCK,), (self.view, vertices, scan, np.int64(count), np.int64(total),
                                    np.int64(item_size), *args))

    def passes(self, thread_ranks: int = 1):
        """:func:`list_passes` of this run's layout under its config."""
        return list_passes(self.layout, self.config, thread_ranks, self.host_reads)

    def over_lists(self, kernels, vertices, count, *args, thread_ranks: int = 1):
        """One pass over the lists of ``vertices[:count]`` (None: all vertices): for each
        launch of :meth:`passes`, count the items, then launch the matching kernel of
        ``kernels`` (the per-thread one, then the per-warp one) with ``*args``."""
        for kernel, (item_size, degrees, per_warp) in zip(kernels, self.passes(thread_ranks)):
            scan, total = self.items(vertices, count, item_size, degrees)
            self.launch(kernel, vertices, count, scan, total, item_size, *args,
                        per_warp=per_warp)

    @property
    def sort_from(self):
        """The frontier length from which frontiers are sorted (``config.sort_frontiers_from``,
        ``config.host_sort_frontiers_from`` for a host-placed layout), None: never."""
        config = self.config
        return config.host_sort_frontiers_from if self.host else config.sort_frontiers_from

    def order_frontier(self, frontier, count: int) -> None:
        """Sort ``frontier[:count]`` in place when it is long enough (:attr:`sort_from`)."""
        limit = self.sort_from
        if limit is not None and count >= limit:
            frontier[:count] = self.cp.sort(frontier[:count])

    def grid(self, n):
        return (grid_size(n, BLOCK),), (BLOCK,)


class SizedPasses:
    """Passes over the lists of a vertex set whose size stays in device memory: the item scan
    and the item kernels read it there (``traverse.cuh``: scan_items_*,
    for_each_list_item_tiles), so a driver enqueues pass after pass without reading a size on
    the host, each launch on a fixed grid.

    Holds an int64 scan of ``capacity`` entries (the largest vertex set) for the run.
    An item kernel takes ``(view, vertices, size, gate, scan, total, item_size, *args)`` and
    does nothing while ``gate[0]`` is not 0; so do the scan's steps but the first pass's
    reduction, which always runs (it may also add the set's degrees to a counter).
    """

    def __init__(self, run: Traversal, capacity: int, thread_ranks: int = 1):
        cp = run.cp
        self.run = run
        self.passes = run.passes(thread_ranks)
        self.scan = cp.empty(max(int(capacity), 1), dtype=cp.int64)
        self.sums = cp.empty(SCAN_BLOCKS + 1, dtype=cp.int64)  # block prefixes, then the total
        self.total = self.sums[SCAN_BLOCKS:]
        self.always = cp.zeros(1, dtype=cp.uint64)  # a gate that is always open
        self.no_edges = cp.zeros(1, dtype=cp.uint64)  # where unwanted degree sums go
        self.reduce, self.finish = (run.kernel(TRAVERSE, name)
                                    for name in ("scan_reduce", "scan_finish"))
        self.spine = TRAVERSE.kernel("scan_spine")
        self._grids = {}  # kernel -> its resident blocks

    def tiles(self, kernel) -> int:
        """The fixed grid of ``kernel``'s passes: as many blocks as the GPU holds at once
        (``resident_blocks``), so the tile loop runs in one wave."""
        grid = self._grids.get(kernel)
        if grid is None:
            grid = self._grids[kernel] = resident_blocks(kernel, BLOCK)
        return grid

    def __call__(self, kernels, vertices, size, gate, *args, edges=None, after_first=None):
        """Enqueue one pass over the lists of ``vertices[:size[0]]`` (``size``: a device
        word) per launch of :meth:`Traversal.passes`, running ``kernels`` (per thread, per
        warp) with ``*args`` unless ``gate[0]`` is not 0.  ``edges``: a device word that the
        first pass's reduction adds the set's degrees to; ``after_first()`` is enqueued right
        after that reduction (it may set the gate)."""
        run = self.run
        for index, (kernel, (item_size, degrees, per_warp)) in enumerate(zip(kernels,
                                                                             self.passes)):
            shape = (np.int64(item_size), np.int64(degrees[0]), np.int64(degrees[1]))
            first = index == 0
            self.reduce((SCAN_BLOCKS,), (BLOCK,), (
                run.view, vertices, size, self.always if first else gate, *shape, self.sums,
                edges if first and edges is not None else self.no_edges))
            if first and after_first is not None:
                after_first()
            self.spine((1,), (BLOCK,), (gate, self.sums, np.int64(SCAN_BLOCKS)))
            self.finish((SCAN_BLOCKS,), (BLOCK,), (run.view, vertices, size, gate, *shape,
                                                   self.sums, self.scan))
            kernel((self.tiles(kernel),), (BLOCK,), (run.view, vertices, size, gate, self.scan,
                                             self.total, np.int64(item_size), *args))


class LaggedCounts:
    """Frontier sizes copied to pinned host memory after each level (BFS) or round (SSSP) and
    read one level late: the host waits for level L's size only once level L + 1 is enqueued,
    so the device always has a level queued while the host looks (it runs at most one level
    past an empty frontier, whose kernels read the size 0 and return)."""

    def __init__(self, cp):
        import cupyx

        self.cp = cp
        self.host = cupyx.empty_pinned(2, dtype=np.uint64)
        self.events = [cp.cuda.Event(block=False, disable_timing=True) for _ in range(2)]

    def send(self, level: int, size) -> None:
        """Copy device word ``size`` (level ``level``'s output) to the host without waiting."""
        slot, runtime = level % 2, self.cp.cuda.runtime
        stream = self.cp.cuda.get_current_stream()
        runtime.memcpyAsync(self.host.ctypes.data + 8 * slot, size.data.ptr, 8,
                            runtime.memcpyDeviceToHost, stream.ptr)
        self.events[slot].record(stream)

    def receive(self, level: int) -> int:
        """The size sent by level ``level``, once it is on the host."""
        slot = level % 2
        self.events[slot].synchronize()
        return int(self.host[slot])


def layout_item_size(layout, ranks: int = 1, multiple_of: int = 1) -> int:
    """Ranks per work item: at least ``ranks``, a multiple of the view's chunk size and of
    ``multiple_of``."""
    step = math.lcm(max(1, int(layout.device_chunk_size)), multiple_of)
    return -(-max(ranks, 1) // step) * step


#: ``warp_item_ranks="auto"``: by whether the view's every rank is a start (chunk size 1:
#: csr, fl) or not (ef, cgr).
AUTO_WARP_ITEM_RANKS = {True: 128, False: 1024}


def warp_item_size(layout, config: TraversalConfig = DEFAULT_CONFIG) -> int:
    """Ranks per warp item (for_each_warp_item): at least ``config.warp_item_ranks`` (for
    ``"auto"``, :data:`AUTO_WARP_ITEM_RANKS`), a multiple of 32 and of the view's chunk
    size."""
    ranks = config.warp_item_ranks
    if ranks == "auto":
        ranks = AUTO_WARP_ITEM_RANKS[int(layout.device_chunk_size) <= 1]
    return layout_item_size(layout, ranks, WARP)


#: ``warp_list_ranks="auto"``, by layout name; a layout not named here sends lists that fill a
#: warp item to warps.  Measured at R-MAT 24 on an H100 (``benchmarks/tuning.py --knob
#: warp_list_ranks``): in sorted order (``renumber=False``,
#: ``benchmarks/results/tuning/h100-scale24-warp-list-ranks-fbf9086.json``) ``ef`` at 32 beats
#: one warp item (1024) and 128 on BFS, SSSP, PageRank and WCC; ``cgr`` at 128 beats 1024 on
#: all four, where 32 slows its PageRank by a third.  In degree order
#: (``h100-scale24-warp-list-ranks-degree-ceb63ab.json``) ``csr`` and ``fl`` at 32 take
#: PageRank 12-14% under one warp item (128; their only pass with a warp launch), as cuGraph
#: cuts its thread-per-vertex segment at 32; ``ef`` and ``cgr`` keep their cuts (64 and 256
#: differ from them by less than the runs' spread).
AUTO_WARP_LIST_RANKS = {"csr": 32, "fl": 32, "ef": 32, "cgr": 128}


def warp_list_cut(layout, config: TraversalConfig = DEFAULT_CONFIG) -> int:
    """The degree from which lists go to the warp launch (``config.warp_list_ranks``; for
    ``"auto"``, :data:`AUTO_WARP_LIST_RANKS`; None: one warp item, ``warp_item_size``)."""
    ranks = config.warp_list_ranks
    if ranks == "auto":
        ranks = AUTO_WARP_LIST_RANKS.get(layout.name)
    return warp_item_size(layout, config) if ranks is None else int(ranks)


def list_passes(layout, config: TraversalConfig, thread_ranks: int = 1, host_reads=False):
    """The launches of one pass over lists, as (item size, degree range, one item per warp).

    A thread's item is at least ``thread_ranks`` ranks and a whole number of the view's
    chunks.  Where that is more than one rank, lists of at least ``warp_list_cut`` ranks go
    to a second launch of warp items (``warp_item_size`` ranks; a shorter list is one item),
    whose lanes decode them together: coalesced reads and 32 ranks a step instead of one
    thread's long sequential decode (EF, CGR), and one atomic per warp item instead of one per
    thread item (pull PageRank).  Items of one rank (CSR, FL) are already balanced, and a warp
    launch costs them more than it saves (``benchmarks/tuning.py``).
    ``config.warp_item_ranks`` None: one launch, per thread.  ``host_reads`` (a host-placed
    layout's host-reads build): lists of at least :data:`HOST_WARP_DEGREE` ranks go to warps
    too, whose loads are line-aligned requests."""
    per_thread = layout_item_size(layout, thread_ranks)
    if config.warp_item_ranks is None or per_thread == 1:
        return [(per_thread, ALL_DEGREES, False)]
    long_list = warp_item_size(layout, config)
    cut = warp_list_cut(layout, config)
    if host_reads:
        cut = min(cut, HOST_WARP_DEGREE)
    return [(per_thread, (0, cut), False), (long_list, (cut, ALL_DEGREES[1]), True)]


class SlotDecoder:
    """A layout's edges, window after window of property slots, decoded on the GPU through its
    device view: the device side of :meth:`~cugraph_compressed.formats.base.Layout.decode_slots`.

    Holds the degrees' prefix sum (O(V)); a window costs its own edges and the lists it meets.
    """

    def __init__(self, layout, config: TraversalConfig = DEFAULT_CONFIG):
        n = layout.num_vertices
        # The plain build: its one-rank items are the degrees (host reads pad them to groups).
        self.run = Traversal(layout, np.int32 if n <= np.iinfo(np.int32).max else np.int64,
                             replace(config, host_reads=False))
        self.ends, _ = self.run.items(None, n, 1)  # items of one rank: the degrees' prefix sum
        self.item_size = layout_item_size(layout)

    def __call__(self, begin: int, end: int):
        """``(owner, neighbour)`` of the edges at slots ``begin .. end - 1``: int64 CuPy arrays,
        slot ``begin + i`` at index ``i``."""
        run, cp = self.run, self.run.cp
        owner = cp.searchsorted(self.ends, cp.arange(begin, end, dtype=cp.int64), side="right")
        neighbour = cp.full(end - begin, -1, dtype=cp.int64)
        if end > begin:
            u0, u1 = int(owner[0]), int(owner[-1])  # the lists holding the window
            vertices = cp.arange(u0, u1 + 1, dtype=run.vertex_dtype)
            scan, total = run.items(vertices, vertices.size, self.item_size)
            run.launch(run.kernel(TRAVERSE, "decode_slots"), vertices, vertices.size, scan,
                       total, self.item_size, np.int64(begin), np.int64(end), neighbour)
        return owner, neighbour
