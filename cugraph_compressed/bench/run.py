"""The measuring loop: every contender on one R-MAT graph per scale and directedness, one
contender at a time, each graph kind it needs built once and every algorithm timed on it.

For each scale one weighted R-MAT edge frame is generated (on the device when a GPU and RAPIDS
are usable, else on the host) and every contender is built from that same frame with
``renumber=True`` (cuGraph's default and fastest path; a cuGraph ``renumber=False`` row on
request), one contender at a time (the previous one is freed first so they never compete for
memory), every device allocation of either side from one RMM pool.  Per graph built
(:mod:`.specs` says which):

* encode: one warm-up build, then the median of ``encode_repeats`` synchronized builds (none
  with 0: the graph of the warm-up build is timed, its build time is ``encode_warmup_ms``); an
  auto contender's build includes its move to ``placement="auto"`` (:func:`.specs.place_auto`),
  and its rows record what auto chose (``auto_placement``: :func:`.specs.auto_fields`);
* size: ``G.nbytes`` for our layouts, and for every contender on the device the RMM bytes that
  building it left allocated (RMM statistics, edge frame still alive);
* algorithms: one warm-up call, then ``repeats`` synchronized calls, per source for algorithms
  that take one (the sources are drawn once per graph with a fixed seed among vertices of
  out-degree >= 1 and shared by all contenders).  Each result is summarized and checked against
  the first contender's (:mod:`.checks`).

GTEPS (per-source algorithms) is the number of directed edges of the graph (after dropping
parallel edges; both directions of an undirected edge) divided by the median time.
"""

import datetime
import statistics
import sys
import time
from dataclasses import dataclass, field

from .._args import check_bool, check_optional_bool
from .._placement import check_placement
from .._progress import Progress
from .._vertex_order import check_vertex_order
from ..formats.base import plain_csr_nbytes
from . import environment, reads
from .checks import PAGERANK_L1, SSSP_RTOL, agrees, summarize
from .environment import Environment, pick_backend, versions
from .graphs import describe_graph, generate, simple_edges
from .report import ratio, result_row
from .specs import (
    AUTO_SHARE,
    CUGRAPH,
    GRAPHS,
    NOTE_NO_KERNELS,
    SPECS,
    auto_fields,
    check_auto_share,
    contenders,
    pick_formats,
    pick_specs,
)
from .timing import time_builds, time_calls


def run_benchmark(scales, *, directed=True, algorithms=tuple(SPECS), formats=None, repeats=5,
                  encode_repeats=3, num_sources=4, edge_factor=16, seed=42, backend="auto",
                  cugraph_renumber_false=False, vertex_order="degree", placements=("device",),
                  auto_share=AUTO_SHARE, directed_bottom_up=False, with_cugraph=True,
                  count_reads=True,
                  time_limit_s=None, git_commit=None, log=None, checkpoint=None,
                  progress=False):
    """Generate R-MAT graphs and measure every contender on each.

    Parameters
    ----------
    scales : iterable of int
        R-MAT scales (``2**scale`` vertex ids, ``edge_factor * 2**scale`` generated edges).
    directed : bool or iterable of bool, default True
        Directedness of the graphs built; several values reuse each generated edge frame.
        Algorithms for undirected graphs only (``wcc``) record a skipped row on directed ones.
    algorithms : iterable of str, default all
        Record names from :data:`~cugraph_compressed.bench.specs.SPECS` (the registry's
        ``short`` names: bfs, sssp, pagerank, wcc).
    formats : iterable of str, optional
        Layout names from ``cugraph_compressed.formats.FORMATS``; all of them when None.
    repeats : int, default 5
        Timed calls per source for per-source algorithms, timed calls for the others (after
        one warm-up call); at least 1.
    encode_repeats : int, default 3
        Timed builds per graph (after one warm-up build); 0: the warm-up build alone.
    num_sources : int, default 4
        Start vertices per graph (fewer if the graph has fewer candidates).
    edge_factor : int, default 16
        Generated edges per vertex id.
    seed : int, default 42
        Seed of the generator (edges and weights) and of the source draw.
    backend : {"auto", "device", "host"}, default "auto"
        Where to run; "auto" picks the device when it is usable (:func:`.pick_backend`).
    cugraph_renumber_false : bool, default False
        Also time cuGraph built with ``renumber=False`` (no degree ordering, no
        degree-segmented kernels), a row beside the baseline.
    vertex_order : {"sorted", "degree"}, default "degree"
        ``CompressedGraph(vertex_order=...)`` of every layout's graph in ``"device"`` and
        ``"host"`` placement (``"auto"`` is always in ``"degree"`` order); recorded in
        ``settings``.
    placements : sequence of {"device", "host", "auto"}, default ("device",)
        Each layout is measured once per placement (``CompressedGraph(placement=...)``), in
        order; every row records its ``placement``, and ``settings`` the list.  An
        ``"auto"`` graph is built in ``"host"`` placement and moved to ``"auto"`` under a
        budget leaving room for ``auto_share`` of its per-edge bytes on the GPU
        (:class:`~cugraph_compressed.bench.specs.Contender`); the move is part of its build
        time.
    auto_share : float, default 0.5
        Strictly between 0 and 1: the share of an ``"auto"`` graph's per-edge bytes (payload
        and edge properties) its budget leaves room for on the GPU; recorded in ``settings``
        and, with what auto chose, in each auto row's ``auto_placement``.
    directed_bottom_up : bool, default False
        Also time each layout's BFS on directed graphs with
        ``TraversalConfig(directed_bottom_up=True)``, a ``+bottom-up`` row after the layout's
        own (:class:`~cugraph_compressed.bench.specs.Contender`): its build includes the
        in-lists kept beside the out-lists, so its build time, peak and bytes count both.
    with_cugraph : bool, default True
        Include cuGraph itself as a contender (device backend only, when importable).
    count_reads : bool, default True
        Count what each of our runs reads of the per-edge buffers (:mod:`.reads`: 128-byte
        lines, bytes, the zero-copy bound and time over it), once per graph, layout,
        algorithm and source, shared by the placements of a layout, outside the timed calls.
    time_limit_s : float, optional
        Once this many seconds have passed since the call began, no further graph is built
        and no further algorithm timed: their rows say so in their note (so one invocation
        ends within a command's time limit, whatever the graph costs).
    git_commit : str, optional
        Commit to record; else the ``GIT_COMMIT`` environment variable, else ``git rev-parse``.
    log : callable, optional
        Log lines (each contender, time and failure) are passed to it; default: print to
        stderr.
    checkpoint : callable, optional
        Called with the record after each graph's results are in (so a run cut short by a
        time limit still leaves the graphs it finished).
    progress : bool or None, default False
        Show the step under way (generating, building, timing) on one line of standard
        error; None: on a terminal only.

    Returns
    -------
    dict
        The result record (see ``benchmarks/README.md``): ``device``, ``backend``,
        ``versions``, ``git_commit``, ``timestamp``, ``settings``, ``graphs`` (one per scale and
        directedness) and ``results`` (one per graph, algorithm and contender, in that order).
    """
    scales = [int(s) for s in scales]
    if isinstance(directed, (bool, int)):
        directions = [bool(directed)]
    else:
        directions = [bool(d) for d in directed]
    specs = pick_specs(algorithms)
    algorithms = [spec.name for spec in specs]
    progress = check_optional_bool("progress", progress)
    if encode_repeats < 0:
        raise ValueError(f"encode_repeats ({encode_repeats}) must be >= 0")
    if repeats < 1 or num_sources < 1:
        raise ValueError(f"repeats ({repeats}), encode_repeats ({encode_repeats}) and "
                         f"num_sources ({num_sources}) must be >= 1")
    auto_share = check_auto_share(auto_share)
    backend, why_host = pick_backend(backend)
    formats = pick_formats(formats)
    env = Environment(backend)
    cugraph_ok = with_cugraph and backend == "device" and env.cugraph is not None
    check_vertex_order(vertex_order)
    placements = [check_placement(p) for p in placements]
    count_reads = check_bool("count_reads", count_reads)
    if time_limit_s is not None and not time_limit_s > 0:
        raise ValueError(f"time_limit_s={time_limit_s!r} must be None or a number > 0")
    deadline = None if time_limit_s is None else time.monotonic() + float(time_limit_s)
    if not placements:
        raise ValueError("placements must name at least one placement")
    directed_bottom_up = check_bool("directed_bottom_up", directed_bottom_up)
    sides = contenders(formats, cugraph_ok, cugraph_renumber_false, vertex_order, placements,
                       auto_share, directed_bottom_up)
    log = _Log(log, progress, len(scales) * (1 + sum(
        _steps_per_contender(c, specs, d) for c in sides for d in directions)))
    log(f"backend: {backend}" + (f" ({why_host})" if why_host else "")
        + f"; contenders: {[CUGRAPH if c.is_cugraph else c.label for c in sides]}"
        + f"; algorithms: {algorithms}")

    record = {
        "device": env.device_name(),
        "backend": backend,
        "host_reason": why_host,
        "versions": versions(),
        "git_commit": environment.git_commit(git_commit),
        "timestamp": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "settings": {"repeats": repeats, "encode_repeats": encode_repeats,
                     "num_sources": num_sources, "algorithms": algorithms, "formats": formats,
                     "graphs": {name: dict(kw) for name, kw in GRAPHS.items()},
                     "sssp_rtol": SSSP_RTOL, "pagerank_l1": PAGERANK_L1,
                     "renumber": True, "vertex_order": vertex_order,
                     "placements": placements, "auto_share": auto_share,
                     "directed_bottom_up": directed_bottom_up,
                     "count_reads": count_reads,
                     "time_limit_s": time_limit_s,
                     "reads_rates": {"lines_per_s": reads.LINES_PER_S,
                                     "bytes_per_s": reads.BYTES_PER_S},
                     "rmm_pool": env.rmm_pool},
        "graphs": [],
        "results": [],
    }
    try:
        for scale in scales:
            log(f"scale {scale}: generating {edge_factor << scale:,} weighted edges on the "
                f"{env.gen_backend}")
            log.step(f"R-MAT {scale}: generating {edge_factor << scale:,} edges")
            df, generate_s, generator = generate(env, scale, edge_factor, seed)
            generated = len(df)
            df = simple_edges(df)
            for is_directed in directions:
                graph, sources = describe_graph(env, df, scale, edge_factor, seed, is_directed,
                                                num_sources)
                graph["generated_edges"] = generated
                graph["generate_s"] = round(generate_s, 3)
                graph["generator"] = generator
                record["graphs"].append(graph)
                log(f"  {'directed' if is_directed else 'undirected'}: {graph['vertices']:,} "
                    f"vertex ids, {graph['edges']:,} stored edges; sources {sources}")
                record["results"].extend(measure_graph(
                    env, df, graph, sides, specs, sources, repeats=repeats,
                    encode_repeats=encode_repeats, count_reads=count_reads, deadline=deadline,
                    log=log))
                if checkpoint is not None:
                    checkpoint(record)
            del df
            env.free()
    finally:
        log.close()
    return record


def measure_graph(env, df, graph, sides, specs, sources, *, repeats=5, encode_repeats=3,
                  count_reads=True, deadline=None, log=None):
    """Every contender on one graph, one after the other, as :func:`run_benchmark` measures
    them: each graph kind a contender needs built once, every algorithm in ``specs`` timed on
    it and checked against the first contender's result.

    Parameters
    ----------
    env : Environment
        The backend (:class:`~cugraph_compressed.bench.environment.Environment`).
    df : DataFrame
        The edge frame every contender is built from (:func:`.graphs.simple_edges`).
    graph : dict
        Its record entry, from :func:`.graphs.describe_graph`.
    sides : list of Contender
        From :func:`.specs.contenders`; the first is the reference.
    specs : list of Spec
        The algorithms (:data:`.specs.SPECS` values).
    sources : list of int
        Start vertices of the per-source algorithms.
    repeats, encode_repeats, count_reads
        As in :func:`run_benchmark`.
    deadline : float, optional
        ``time.monotonic()`` after which nothing more is started (those rows say so).
    log : callable, optional
        Gets each progress line; default: print to stderr.

    Returns
    -------
    list of dict
        Result rows (:func:`.report.result_row`), grouped by algorithm in the order of
        ``specs``, contenders in their order within each.
    """
    if not isinstance(log, _Log):
        log = _Log(log, False,
                   sum(_steps_per_contender(c, specs, graph["directed"]) for c in sides))
    shared = _Shared(counted={} if count_reads else None, deadline=deadline)
    results = []
    for contender in sides:
        log(f"  {contender.name} [{contender.title}]")
        results += _measure(env, df, graph, contender, specs, sources, repeats, encode_repeats,
                            shared, log)
    del shared
    reads.add_csr_ratios(results)
    # Grouped by algorithm, contenders in their order: rows to compare are adjacent.
    names = [spec.name for spec in specs]
    results.sort(key=lambda r: names.index(r["algorithm"]))
    return results


#: The note of rows not measured because the run's time limit had passed.
NOTE_TIME_LIMIT = "skipped: the run's time limit had passed"


@dataclass
class _Shared:
    """What the contenders of one graph share.

    Attributes
    ----------
    first : dict
        Algorithm -> the first contender's (label, summary, payload): what others must match.
    counted : dict or None
        (layout, vertex order, algorithm) -> reads per source (:mod:`.reads`), shared by the
        layout's placements in that order, or the text of a failed count; None when reads are
        not counted.
    deadline : float or None
        ``time.monotonic()`` after which nothing more is started.
    """

    first: dict = field(default_factory=dict)
    counted: dict | None = None
    deadline: float | None = None

    def late(self):
        return self.deadline is not None and time.monotonic() > self.deadline


class _Log:
    """Where a run reports: its lines (``log(line)``) and its numbered steps
    (``log.step(what)``), shown by :class:`~cugraph_compressed._progress.Progress`."""

    def __init__(self, lines, progress, steps):
        self.lines = lines or (lambda line: print(line, file=sys.stderr, flush=True))
        # Steps are few and long: each shown at once, as it starts.
        self.bar = Progress(progress, label="measuring", unit="step", delay=0.0, interval=0.0)
        self.steps, self.done = steps, 0

    def __call__(self, line):
        self.lines(line)

    def step(self, what):
        self.bar.step(what, self.done, self.steps)
        self.done += 1

    def close(self):
        self.bar.close()


def _steps_per_contender(contender, specs, directed):
    """Builds (one per graph kind used) and algorithm runs of one contender on one graph."""
    runs = [spec for spec in specs
            if not spec.skip_note(directed) and not contender.skip_note(spec, directed)]
    return len({spec.graph for spec in runs}) + len(runs)


def _where(graph, contender):
    return (f"R-MAT {graph['scale']} {'directed' if graph['directed'] else 'undirected'}, "
            f"{contender.title}")


def _count(counter, *args):
    """``counter(*args)``, or what went wrong as text: a count that fails (out of memory) costs
    the row its read fields, not its times."""
    try:
        return counter(*args)
    except Exception as exc:
        return f"read count failed: {_error(exc)}"


def _error(exc):
    text = f"{type(exc).__name__}: {exc}".strip()
    return text if len(text) <= 300 else text[:297] + "..."


def _measure(env, df, graph, contender, specs, sources, repeats, encode_repeats, shared, log):
    """Every result of one contender on one graph: each graph kind it needs built once."""
    rows = []
    for kind in GRAPHS:
        wanted = []
        for spec in specs:
            if spec.graph != kind:
                continue
            note = (spec.skip_note(graph["directed"])
                    or contender.skip_note(spec, graph["directed"]))
            if note:
                rows.append(result_row(env.backend, graph, contender, spec.name, kind,
                                       note=note))
            else:
                wanted.append(spec)
        if wanted:
            rows += _measure_graph(env, df, graph, contender, kind, wanted, sources, repeats,
                                   encode_repeats, shared, log)
    return rows


def _measure_graph(env, df, graph, contender, kind, specs, sources, repeats, encode_repeats,
                   shared, log):
    """Build one graph of one contender, then time every algorithm in ``specs`` on it."""
    if shared.late():
        return [result_row(env.backend, graph, contender, spec.name, kind,
                           note=NOTE_TIME_LIMIT) for spec in specs]
    env.free()
    log.step(f"{_where(graph, contender)}: building {kind} graph")
    build = contender.builder(env, graph["directed"], kind)
    try:
        G, warm_s, encode_s, rmm_bytes, rmm_peak = time_builds(env, build, df, encode_repeats)
        note = None
    except Exception as exc:  # e.g. out of memory: record it, go on with the next contender
        note = f"build failed: {_error(exc)}"
    if note:  # out of the except block: its traceback no longer holds the partial graphs
        log(f"    {kind} graph: {note}")
        env.free()
        return [result_row(env.backend, graph, contender, spec.name, kind, check="error",
                           note=note) for spec in specs]
    if contender.is_cugraph:
        nbytes, components = rmm_bytes, None
    else:
        nbytes = int(G.nbytes)
        components = {k: int(v) for k, v in G.nbytes_by_component().items()}
    encode_med = statistics.median(encode_s) if encode_s else None
    common = {
        "structure_bytes": nbytes, "bytes_per_edge": ratio(nbytes, graph["edges"]),
        "components": components, "rmm_bytes": rmm_bytes, "rmm_peak_bytes": rmm_peak,
        "encode_ms": encode_med and encode_med * 1e3, "encode_warmup_ms": warm_s * 1e3,
        "encode_edges_per_s": graph["input_edges"] / encode_med if encode_med else None,
    }
    if contender.placement == "auto":
        common["auto_placement"] = auto_fields(contender.auto_share, contender.vertex_order,
                                               G.placement_choice, G.nbytes_by_placement())
    if not contender.is_cugraph:
        common["compression_ratio"] = float(G.compression_ratio)
        common["plain_csr_bytes"] = int(plain_csr_nbytes(G.number_of_vertices(),
                                                         G.number_of_edges(True)))
    results = [_measure_algorithm(env, G, graph, contender, kind, spec, sources, repeats, shared,
                                  common, log) for spec in specs]
    try:  # only recorded (after timing: cuGraph may build and cache an edge list for it)
        reported_edges = int(G.number_of_edges())
    except Exception:
        reported_edges = None
    for r in results:
        r["reported_edges"] = reported_edges
    G = None
    env.free()
    return results


def _measure_algorithm(env, G, graph, contender, kind, spec, sources, repeats, shared, common,
                       log):
    """The result row of one algorithm on one contender's graph, checked against the first
    contender's, with its reads (:mod:`.reads`) when they are counted and the contender is
    ours."""
    first, counted = shared.first, shared.counted
    def row(**fields):
        return result_row(env.backend, graph, contender, spec.name, kind, **common, **fields)

    log.step(f"{_where(graph, contender)}: timing {spec.name}")
    if not contender.has_kernels(env):
        return row(note=NOTE_NO_KERNELS)
    if shared.late():
        return row(note=NOTE_TIME_LIMIT)
    calls = [(s,) for s in sources] if spec.per_source else [()]
    recorded_sources = sources if spec.per_source else None
    key = (contender.format, contender.vertex_order, contender.directed_bottom_up, spec.name)
    counter = None
    if counted is not None and not contender.is_cugraph and key not in counted:
        counter = _count(lambda graph: reads.RunReads(graph, spec.algorithm), G)
        if isinstance(counter, str):  # the graph's extents could not be counted
            log(f"    {spec.name}: {counter}")
            counted[key], counter = counter, None

    def inspect(out, *args):  # the first timed result of each source: checked, reads counted
        return summarize(out, graph) + ((_count(counter, out, *args),) if counter is not None
                                        else ())

    try:
        timing, outcomes = time_calls(env, contender.call(env, spec), G, calls, repeats,
                                      inspect)
    except Exception as exc:
        note = f"failed: {_error(exc)}"
        log(f"    {spec.name}: {note}")
        return row(sources=recorded_sources, check="error", note=note)
    column = outcomes[0][0]
    summaries = [outcome[1] for outcome in outcomes]
    payload = outcomes[-1][2]
    if counter is not None:
        counted[key] = [outcome[3] for outcome in outcomes]
        failure = next((r for r in counted[key] if isinstance(r, str)), None)
        if failure:
            log(f"    {spec.name}: {failure}")
            counted[key] = failure
    del outcomes
    summary = summaries if spec.per_source else summaries[0]
    ref = first.setdefault(spec.name, (contender.label, summary, payload))
    ok = agrees(column, ref, summary, payload)
    del payload
    med = timing["ms"] / 1e3
    if counted is not None and isinstance(counted.get(key), str):
        common = {**common, "reads_model": counted[key]}
    elif counted is not None and key in counted:
        common = {**common, **reads.row_fields(counted[key], timing["ms"],
                                               reads.MODELS[spec.name])}
    result = row(**timing, sources=recorded_sources,
                 gteps=graph["edges"] / med / 1e9 if spec.per_source and med else None,
                 summary=summary, check="ok" if ok else "MISMATCH", checked_against=ref[0])
    log(f"    {spec.name}: {timing['ms']:.3f} ms ({result['check']})")
    return result
