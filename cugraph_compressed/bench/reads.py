"""What a run reads of a graph's per-edge buffers: 128-byte lines touched and bytes read,
counted from the graph's structure and what the run visited, and the zero-copy bound they set.

Out of core the per-edge buffers (the layout's ``edge_buffers`` and the edge properties) are
read over PCIe, where a scattered 128-byte line costs about as much as 2.6 KB of a long run:
the measured rates are :data:`LINES_PER_S` scattered lines and :data:`BYTES_PER_S` in long
runs.  A run's bound is ``max(lines / LINES_PER_S, bytes / BYTES_PER_S)``.

The model
---------
* **A list's extent** is the byte range of the payload its decoder loads (:func:`list_extents`):
  ``csr`` the list's indices; ``fl`` the 4-byte words holding its fields and the word after the
  last one (``read_bits`` loads two words); ``ef`` the words of its entry (forward pointers,
  lows, upper bits); ``cgr`` the words of its codes and the word after (a code is read as a
  64-bit window).  SSSP also reads the weights at the list's slots, a second buffer.
* **A pass** is one sweep of the kernels over a vertex set: a BFS level, a PageRank iteration,
  WCC's hooking pass.  ``lines`` is the size of the union of the lines covering every extent the
  pass reads (lists that share a line share it once: what a perfect cache or a sorted frontier
  gets); ``line_requests`` counts each list's lines on its own (one warp per list, as EMOGI
  reads: two lists in one line are two requests).  ``bytes`` sums the extents.
* **BFS** (exact): a top-down level reads the whole list of every frontier vertex (the vertices
  at distance L); a bottom-up level (undirected graphs, and directed ones with
  ``TraversalConfig.directed_bottom_up``; Beamer's switch replayed from the frontier sizes and
  degrees exactly as ``bfs_decide`` takes it) reads the in-list of every unvisited vertex (an
  undirected graph's own list, a directed graph's in-lists beside its out-lists) up to its
  first neighbour at distance L, found in the layout's own decode order (the whole list when it
  has none).  The read prefix of ``k`` ranks is exact for
  ``csr`` and ``fl``; for ``ef`` and ``cgr`` it is the extent's ``k / degree`` share, rounded
  up to a word (their codes are not of one width).
* **PageRank** (exact): every list, once per iteration, times the iterations of the run.
* **WCC** (exact): every list once (the hooking pass; compression reads per-vertex state only).
* **SSSP** (a traced run): a round relaxes the whole list and weights of every vertex of its
  frontier, so each round is a pass over its frontier's lists; the frontiers come from one more
  run from the same source (given with the result) that records them
  (``sssp.traced_rounds``), as the timed runs do not.
  On the GPU the rounds' contents depend on the order of the relaxations' atomics, so the
  count is exact for the traced run, and the timed runs' rounds may differ (by how much is
  not measured).  A vertex relaxed in several rounds is counted in each.  Plus the final
  predecessor pass over every list when the run does not pack predecessors (``sssp.packs``).

Counting is vectorized in the array module of the layout (CuPy on a device graph), computed
once per graph and run outside the timed calls; bottom-up levels decode the lists once more in
windows of slots (on the GPU through the layout's device view).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._backend import to_host

LINE_BYTES = 128
#: Scattered 128-byte zero-copy reads per second, measured (DESIGN.md section 6).
LINES_PER_S = 49e6
#: Zero-copy bytes per second in runs of >= 2 KB, measured.
BYTES_PER_S = 51e9
#: The issue's target for a host-placed run: its time over its bound.
TARGET = 1.5
#: Slots decoded per window when a bottom-up level needs each list's first hit.
WINDOW_SLOTS = 1 << 26
#: The row fields this module adds, None when not counted.
FIELDS = ("reads_model", "lines", "line_requests", "read_bytes", "lines_per_s", "read_gb_per_s",
          "bound_ms", "time_over_bound", "lines_vs_csr")


@dataclass
class Extents:
    """Per vertex, the byte range ``[begin, end)`` of its list's payload (``begin == end`` for
    an empty list), in the array module ``xp``.

    ``prefix(vertices, ranks)`` gives the end of the first ``ranks`` ranks' extent.
    """

    xp: object
    begin: object
    end: object
    degree: object
    first_edge: object
    #: Bits per rank of a fixed-width payload (csr, fl); None: read prefixes are proportional.
    rank_bits: int | None
    #: Words loaded past a field's last word (fl, cgr: 1).
    lookahead_words: int

    def prefix_end(self, vertices, ranks):
        """End byte of the extent of the first ``ranks`` (>= 1) ranks of each vertex's list."""
        xp = self.xp
        if self.rank_bits is not None:
            stop_bit = (self.first_edge[vertices] + ranks) * self.rank_bits
            return _word_end(stop_bit, self.lookahead_words, xp)
        begin, end = self.begin[vertices], self.end[vertices]
        degree = xp.maximum(self.degree[vertices], 1)
        share = -(-(end - begin) * ranks // degree)
        return xp.minimum(end, begin + (share + 3) // 4 * 4)


def _word_end(stop_bit, lookahead, xp):
    """End byte of the words holding bits up to ``stop_bit`` (exclusive), plus ``lookahead``."""
    return ((stop_bit + 31) // 32 + lookahead) * 4


def _bit_extents(xp, start_bit, stop_bit, lookahead):
    """Byte ranges of bit ranges (whole words; empty ranges stay empty)."""
    begin = start_bit // 32 * 4
    end = xp.where(stop_bit > start_bit, _word_end(stop_bit, lookahead, xp), begin)
    return begin, end


def list_extents(layout, xp=None) -> Extents:
    """The payload extent of every list of ``layout`` (see the module docstring).

    Parameters
    ----------
    layout : Layout
        A ``csr``, ``fl``, ``ef`` or ``cgr`` layout, in either array module.
    xp : module, optional
        Where the extents are held; the layout's array module when None.

    Returns
    -------
    Extents

    Raises
    ------
    ValueError
        A layout this model does not know.
    """
    xp = layout.xp if xp is None else xp
    n = layout.num_vertices
    name = layout.name
    degree = xp.asarray(layout.degrees(), dtype=np.int64)
    first = xp.zeros(n + 1, dtype=np.int64)
    first[1:] = xp.cumsum(degree)
    first_edge = first[:-1]
    if name == "csr":
        size = int(layout.indices.dtype.itemsize)
        return Extents(xp, first[:-1] * size, first[1:] * size, degree, first_edge, 8 * size, 0)
    if name == "fl":
        width = int(layout.index_width)
        begin, end = _bit_extents(xp, first[:-1] * width, first[1:] * width, 1)
        return Extents(xp, begin, end, degree, first_edge, width, 1)
    if name == "ef":
        start, stop = layout.lists().bit_ranges(np.arange(n, dtype=np.int64))
        begin, end = _bit_extents(np, start, stop, 0)
        return Extents(xp, xp.asarray(begin), xp.asarray(end), degree, first_edge, None, 0)
    if name == "cgr":
        a = layout.arrays
        from ..formats.cgr import join_offsets

        bits = join_offsets(to_host(a["bit_offsets"]), to_host(a["bit_offsets_high"]))
        bits = np.asarray(bits, dtype=np.int64)
        begin, end = _bit_extents(np, bits[:-1], bits[1:], 1)
        return Extents(xp, xp.asarray(begin), xp.asarray(end), degree, first_edge, None, 1)
    raise ValueError(f"no read model for layout {name!r}: known are csr, fl, ef and cgr")


def weight_extents(extents: Extents, itemsize: int) -> Extents:
    """The extents of an edge property of ``itemsize`` bytes at each list's slots."""
    first = extents.first_edge
    return Extents(extents.xp, first * itemsize, (first + extents.degree) * itemsize,
                   extents.degree, first, 8 * itemsize, 0)


@dataclass
class Reads:
    """Lines and bytes of per-edge buffers read: ``lines`` (union per pass), ``line_requests``
    (each list's lines on their own) and ``bytes``; ``passes`` sweeps."""

    lines: int = 0
    line_requests: int = 0
    bytes: int = 0
    passes: int = 0

    def __add__(self, other):
        return Reads(self.lines + other.lines, self.line_requests + other.line_requests,
                     self.bytes + other.bytes, self.passes + other.passes)

    def times(self, k: int):
        return Reads(self.lines * k, self.line_requests * k, self.bytes * k, self.passes * k)


def count_ranges(begin, end, xp) -> Reads:
    """One pass reading the byte ranges ``[begin, end)``: the union of their 128-byte lines,
    each range's lines counted on its own, and the bytes.  Any order, overlaps allowed."""
    keep = end > begin
    begin, end = begin[keep], end[keep]
    if not int(begin.size):
        return Reads(passes=1)
    first = begin // LINE_BYTES
    stop = (end - 1) // LINE_BYTES + 1  # one past the last line
    requests = int((stop - first).sum())
    # Union of the line intervals [first, stop): a sweep over +1 / -1 events.
    at = xp.concatenate([first, stop])
    step = xp.concatenate([xp.ones_like(first), -xp.ones_like(stop)])
    order = xp.argsort(at)  # ties are zero-length steps: their order does not matter
    at, step = at[order], step[order]
    depth = xp.cumsum(step)
    covered = int(((at[1:] - at[:-1]) * (depth[:-1] > 0)).sum())
    return Reads(covered, requests, int((end - begin).sum()), 1)


def pass_reads(extents: Extents, vertices, ranks=None, weights: Extents | None = None) -> Reads:
    """One pass over the lists of ``vertices`` (whole lists, or the first ``ranks`` of each),
    plus their weights when ``weights`` is given (a second buffer: its own lines)."""
    xp = extents.xp
    begin = extents.begin[vertices]
    end = extents.end[vertices] if ranks is None else extents.prefix_end(vertices, ranks)
    reads = count_ranges(begin, end, xp)
    if weights is not None:
        wend = weights.end[vertices] if ranks is None else weights.prefix_end(vertices, ranks)
        extra = count_ranges(weights.begin[vertices], wend, xp)
        reads = Reads(reads.lines + extra.lines, reads.line_requests + extra.line_requests,
                      reads.bytes + extra.bytes, reads.passes)
    return reads


def every_list(extents: Extents) -> Reads:
    """One pass over every list."""
    xp = extents.xp
    return pass_reads(extents, xp.arange(int(extents.degree.size), dtype=np.int64))


def bfs_levels(dist, degree, num_edges, can_go_up, alpha, beta, xp):
    """The direction of every BFS level as ``bfs_decide`` takes it, from the distances.

    Parameters
    ----------
    dist : array of int64
        Hop distance of every vertex, -1 where unreached.
    degree : array of int64
        List lengths.
    num_edges : int
        Stored edges (the unexplored edges at the start).
    can_go_up : bool
        The run has in-lists to scan (an undirected graph, or a directed one with its in-lists
        beside): bottom-up levels are possible.
    alpha, beta : float or None
        ``TraversalConfig.bottom_up_alpha`` (None: top-down only) and ``bottom_up_beta``.
    xp : module

    Returns
    -------
    list of bool
        Per level L (frontier = vertices at distance L), True when it runs bottom-up.
    """
    n = int(dist.size)
    reached = dist >= 0
    if not bool(reached.any()):
        return []
    levels = int(dist.max()) + 1
    sizes = to_host(xp.bincount(dist[reached], minlength=levels)).astype(np.int64)
    edges = to_host(xp.bincount(dist[reached], weights=degree[reached].astype(np.float64),
                                minlength=levels))
    enabled = can_go_up and alpha is not None
    alpha = float(alpha) if enabled else 1.0
    bottom_up, unexplored, previous, out = False, int(num_edges), 0, []
    for level in range(levels):
        frontier, frontier_edges = int(sizes[level]), int(round(edges[level]))
        if not bottom_up:
            if enabled and frontier_edges * alpha > unexplored:
                bottom_up = True
            else:
                unexplored -= min(frontier_edges, unexplored)
        elif frontier < previous and frontier * float(beta) <= n:
            bottom_up = False
        previous = frontier
        out.append(bottom_up)
    return out


def _windows(layout, config, window):
    """``(first slot, owner, neighbour)`` of the layout's edges, window after window, decoded
    on the GPU through the device view for a device layout, by the host decoders otherwise."""
    e = layout.num_edges
    if layout.xp is np:
        ends = np.cumsum(layout.degrees())
        for begin in range(0, e, window):
            owner, neighbour = layout.decode_slots(begin, min(e, begin + window), ends)
            yield begin, owner, neighbour
        return
    from ..kernels.traversal import SlotDecoder

    decode = SlotDecoder(layout, config)
    for begin in range(0, e, window):
        owner, neighbour = decode(begin, min(e, begin + window))
        yield begin, owner, neighbour


def first_hits(adjacency, extents, dist, levels, window=WINDOW_SLOTS):
    """Per bottom-up level L, the ranks each vertex unvisited at L reads: up to and including
    its first neighbour (in decode order) at distance L, else its whole list.

    Returns
    -------
    dict of int -> (vertices, ranks)
    """
    xp = extents.xp
    unvisited = {L: xp.flatnonzero((dist > L) | (dist < 0)) for L in levels}
    big = np.iinfo(np.int64).max
    hit = {L: xp.full(int(dist.size), big, dtype=np.int64) for L in levels}
    for begin, owner, neighbour in _windows(adjacency.layout, adjacency.config, window):
        owner, neighbour = xp.asarray(owner), xp.asarray(neighbour)
        slots = xp.arange(begin, begin + int(owner.size), dtype=np.int64)
        d_owner, d_neighbour = dist[owner], dist[neighbour]
        for L in levels:
            mask = ((d_owner > L) | (d_owner < 0)) & (d_neighbour == L)
            o, s = owner[mask], slots[mask]
            if not int(o.size):
                continue
            # Slots increase in a window, so each owner's first hit is its first entry here.
            lead = xp.ones(int(o.size), dtype=bool)
            lead[1:] = o[1:] != o[:-1]
            o, s = o[lead], s[lead]
            fresh = hit[L][o] == big  # an earlier window already found it otherwise
            hit[L][o[fresh]] = s[fresh]
    out = {}
    for L in levels:
        v = unvisited[L]
        h = hit[L][v]
        ranks = xp.where(h == big, extents.degree[v], h - extents.first_edge[v] + 1)
        keep = ranks > 0
        out[L] = (v[keep], ranks[keep])
    return out


def bfs_reads(adjacency, extents, dist) -> Reads:
    """The reads of one BFS run whose hop distances are ``dist`` (int64, -1 unreached)."""
    xp = extents.xp
    config = adjacency.config
    in_lists = adjacency.bottom_up_lists()
    directions = bfs_levels(dist, extents.degree, adjacency.layout.num_edges,
                            in_lists is not None, config.bottom_up_alpha,
                            config.bottom_up_beta, xp)
    up = [L for L, b in enumerate(directions) if b]
    up_extents = extents if in_lists is adjacency or not up else list_extents(in_lists.layout)
    prefixes = first_hits(in_lists, up_extents, dist, up) if up else {}
    total = Reads()
    for L, bottom in enumerate(directions):
        if bottom:
            vertices, ranks = prefixes[L]
            total = total + pass_reads(up_extents, vertices, ranks)
        else:
            total = total + pass_reads(extents, xp.flatnonzero(dist == L))
    return total


def sssp_reads(adjacency, extents, rounds) -> Reads:
    """The reads of one SSSP run whose rounds relaxed the frontiers ``rounds`` (arrays of
    internal ids, ``sssp.traced_rounds``): a pass over each round's lists and weights, plus a
    pass over every list when predecessors are named afterwards."""
    from ..algorithms.sssp import packs

    xp = extents.xp
    weights = adjacency.weights
    wext = weight_extents(extents, int(np.dtype(weights.dtype).itemsize))
    total = Reads()
    for frontier in rounds:
        total = total + pass_reads(extents, xp.asarray(frontier, dtype=np.int64), weights=wext)
    if not packs(weights.dtype, adjacency.vertex_dtype):
        total = total + pass_reads(extents, xp.arange(int(extents.degree.size), dtype=np.int64),
                                   weights=wext)
    return total


#: How exact each algorithm's count is.
MODELS = {"bfs": "exact", "pagerank": "exact", "wcc": "exact", "sssp": "traced run"}


def internal_values(view, n, frame, column, fill):
    """``frame[column]`` by internal vertex (array module of the graph's ``view``; ``n``
    vertices), ``fill`` where the frame has no row."""
    from .._backend import array_module

    xp = array_module(view.backend)
    ids = xp.asarray(view.ids.to_internal(frame["vertex"], "vertex"), dtype=np.int64)
    values = frame[column]
    values = xp.asarray(values.values if hasattr(values, "values") else values)
    out = xp.full(n, fill, dtype=values.dtype)
    out[ids] = values
    return out


class RunReads:
    """The read counter of one graph: its extents (computed once) and the reads of each run.

    Parameters
    ----------
    G : CompressedGraph
        A built graph (either backend).
    algorithm : Algorithm
        The registry entry of the runs counted (its orientation picks the lists).
    """

    def __init__(self, G, algorithm):
        self.view = G.view()
        self.algorithm = algorithm
        self.adjacency = self.view.adjacency(algorithm.orientation)
        self.extents = list_extents(self.adjacency.layout)

    def __call__(self, frame, source=None) -> Reads:
        """The reads of the run that returned ``frame``; ``source``: the run's start vertex
        (user id), which SSSP's count runs from again."""
        name = self.algorithm.short
        n = self.adjacency.layout.num_vertices
        if name == "bfs":
            dist = internal_values(self.view, n, frame, "distance", -1).astype(np.int64)
            sentinel = np.iinfo(np.dtype(frame["distance"].dtype)).max
            dist[dist == sentinel] = -1
            return bfs_reads(self.adjacency, self.extents, dist)
        if name == "sssp":
            from ..algorithms.sssp import traced_rounds

            if source is None:
                raise ValueError("SSSP's reads replay the run from its source: pass source=")
            start = self.view.ids.to_internal_one(source, "source")
            return sssp_reads(self.adjacency, self.extents, traced_rounds(self.view, start))
        if name == "pagerank":
            from ..algorithms.pagerank import LAST_RUN

            return every_list(self.extents).times(int(LAST_RUN.get("iterations", 0)))
        if name == "wcc":
            return every_list(self.extents)
        raise ValueError(f"no read model for algorithm {name!r}")


def row_fields(reads, ms, model):
    """The row fields of :data:`FIELDS` (but ``lines_vs_csr``) from the mean reads per run
    (a list of :class:`Reads`, one per source) and the median time in ms."""
    if not reads:
        return {}
    lines = sum(r.lines for r in reads) / len(reads)
    requests = sum(r.line_requests for r in reads) / len(reads)
    nbytes = sum(r.bytes for r in reads) / len(reads)
    seconds = ms / 1e3 if ms else None
    bound = max(lines / LINES_PER_S, nbytes / BYTES_PER_S)
    return {"reads_model": model, "lines": lines, "line_requests": requests,
            "read_bytes": nbytes,
            "lines_per_s": lines / seconds if seconds else None,
            "read_gb_per_s": nbytes / seconds / 1e9 if seconds else None,
            "bound_ms": bound * 1e3,
            "time_over_bound": seconds / bound if seconds and bound else None}


def add_csr_ratios(results):
    """Set ``lines_vs_csr`` on the rows of one graph: lines / the csr row's lines of the same
    algorithm, placement and BFS direction rule (``directed_bottom_up``; csr itself 1.0)."""
    def key(r):
        return r["algorithm"], r["placement"], bool(r.get("directed_bottom_up"))

    csr = {key(r): r["lines"] for r in results if r.get("format") == "csr" and r.get("lines")}
    for r in results:
        base = csr.get(key(r))
        if base and r.get("lines") is not None:
            r["lines_vs_csr"] = r["lines"] / base
