"""Measuring harness: cuGraph and every compressed layout, on one R-MAT graph, side by side.

Shared by ``python -m cugraph_compressed`` and ``benchmarks/run.py``.  For each scale one
weighted R-MAT edge frame is generated (on the device when a GPU and RAPIDS are usable, else on
the host) and every contender is built from that same frame with ``renumber=False``, one
contender at a time (the previous one is freed first so they never compete for memory).

Every contender builds at most two graphs per directedness, each once, and times every
algorithm that uses it (:data:`GRAPH_OF`):

* ``weighted``: ``weight="weight"``, ``store_transposed=False``; BFS, SSSP and (undirected
  graphs only) weakly connected components;
* ``transposed``: no weights, ``store_transposed=True``; PageRank.

Per graph built:

* encode: one warm-up build, then the median of ``encode_repeats`` synchronized builds;
* size: ``G.nbytes`` for our layouts, and for every contender on the device the RMM bytes that
  building it left allocated (RMM statistics, edge frame still alive);
* algorithms: one warm-up call, then ``repeats`` synchronized calls, per source for BFS and
  SSSP (the sources are drawn once per graph with a fixed seed among vertices of out-degree
  >= 1 and shared by all contenders).  Each result is summarized in a few numbers (vertices
  reached and sum of distances; PageRank's sum, maximum and L1 distance to the first
  contender's vector; component counts) so that contenders can be checked against each other.

GTEPS (BFS and SSSP) is the number of directed edges of the graph (after dropping parallel
edges; both directions of an undirected edge) divided by the median time.
"""

import datetime
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from .formats.base import plain_csr_nbytes

__all__ = ["ALGORITHMS", "GRAPH_OF", "run_benchmark", "format_table", "write_json",
           "default_json_path", "failed"]

ALGORITHMS = ("bfs", "sssp", "pagerank", "wcc")
CUGRAPH = "cugraph"
OURS = "cugraph_compressed"

#: The graph each algorithm runs on, and how that graph is built (for cuGraph and ours alike).
GRAPH_OF = {"bfs": "weighted", "sssp": "weighted", "wcc": "weighted", "pagerank": "transposed"}
GRAPHS = {"weighted": {"weight": "weight", "store_transposed": False},
          "transposed": {"weight": None, "store_transposed": True}}
#: Names in ``cugraph_compressed.algorithms.registry``.
REGISTRY_NAME = {"bfs": "bfs", "sssp": "sssp", "pagerank": "pagerank",
                 "wcc": "weakly_connected_components"}
PER_SOURCE = ("bfs", "sssp")      # timed once per source; the others once per call
SSSP_RTOL = 1e-4                  # relative tolerance on an SSSP distance sum
PAGERANK_L1 = 1e-4                # largest L1 distance to the first contender's PageRank vector

NOTE_NO_KERNELS = "no GPU kernels for this layout yet: size and encode time only"
NOTE_DIRECTED_WCC = "skipped: weakly connected components need an undirected graph"


def run_benchmark(scales, *, directed=True, algorithms=ALGORITHMS, formats=None, repeats=5,
                  encode_repeats=3, num_sources=4, edge_factor=16, seed=42, backend="auto",
                  with_cugraph=True, git_commit=None, log=None, checkpoint=None):
    """Generate R-MAT graphs and measure every contender on each.

    Parameters
    ----------
    scales : iterable of int
        R-MAT scales (``2**scale`` vertex ids, ``edge_factor * 2**scale`` generated edges).
    directed : bool or iterable of bool, default True
        Directedness of the graphs built; several values reuse each generated edge frame.
        ``wcc`` runs on undirected graphs only (directed runs record a skipped row).
    algorithms : iterable of str, default ("bfs", "sssp", "pagerank", "wcc")
        Names from :data:`ALGORITHMS`.
    formats : iterable of str, optional
        Layout names from ``cugraph_compressed.formats.FORMATS``; all of them when None.
    repeats : int, default 5
        Timed calls per source for BFS and SSSP, timed calls for PageRank and WCC (after one
        warm-up call); at least 1.
    encode_repeats : int, default 3
        Timed builds per graph (after one warm-up build); at least 1.
    num_sources : int, default 4
        Start vertices per graph (fewer if the graph has fewer candidates).
    edge_factor : int, default 16
        Generated edges per vertex id.
    seed : int, default 42
        Seed of the generator (edges and weights) and of the source draw.
    backend : {"auto", "device", "host"}, default "auto"
        Where to run; "auto" picks the device when ``cugraph_compressed._backend.gpu_available()``.
    with_cugraph : bool, default True
        Include cuGraph itself as a contender (device backend only, when importable).
    git_commit : str, optional
        Commit to record; else the ``GIT_COMMIT`` environment variable, else ``git rev-parse``.
    log : callable, optional
        Progress lines are passed to it; default: print to stderr.
    checkpoint : callable, optional
        Called with the record after each graph's results are in (so a run cut short by a
        time limit still leaves the graphs it finished).

    Returns
    -------
    dict
        The result record (see ``benchmarks/README.md``): ``device``, ``backend``,
        ``versions``, ``git_commit``, ``timestamp``, ``settings``, ``graphs`` (one per scale and
        directedness) and ``results`` (one per graph, algorithm and contender, in that order).
    """
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    scales = [int(s) for s in scales]
    if isinstance(directed, (bool, int)):
        directions = [bool(directed)]
    else:
        directions = [bool(d) for d in directed]
    algorithms = list(dict.fromkeys(algorithms))
    unknown = sorted(set(algorithms) - set(ALGORITHMS))
    if unknown:
        raise ValueError(f"unknown algorithm(s) {unknown}; available: {list(ALGORITHMS)}")
    if repeats < 1 or encode_repeats < 1 or num_sources < 1:
        raise ValueError(f"repeats ({repeats}), encode_repeats ({encode_repeats}) and "
                         f"num_sources ({num_sources}) must be >= 1")
    backend, why_host = _pick_backend(backend)
    formats = _pick_formats(formats)
    env = _Env(backend)
    cugraph_ok = with_cugraph and backend == "device" and env.cugraph is not None
    log(f"backend: {backend}" + (f" ({why_host})" if why_host else "")
        + f"; contenders: {([CUGRAPH] if cugraph_ok else []) + [f'{OURS}:{f}' for f in formats]}"
        + f"; algorithms: {algorithms}")

    record = {
        "device": env.device_name(),
        "backend": backend,
        "host_reason": why_host,
        "versions": _versions(),
        "git_commit": _git_commit(git_commit),
        "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "settings": {"repeats": repeats, "encode_repeats": encode_repeats,
                     "num_sources": num_sources, "algorithms": algorithms, "formats": formats,
                     "graphs": {name: dict(kw) for name, kw in GRAPHS.items()},
                     "sssp_rtol": SSSP_RTOL, "pagerank_l1": PAGERANK_L1},
        "graphs": [],
        "results": [],
    }
    from .generators import rmat_edgelist

    for scale in scales:
        log(f"scale {scale}: generating {edge_factor << scale:,} weighted edges on the "
            f"{env.gen_backend}")
        t0 = time.perf_counter()
        df = rmat_edgelist(scale, edge_factor, seed=seed, weighted=True, backend=env.gen_backend)
        if backend == "device" and env.gen_backend == "host":
            df = env.cudf.from_pandas(df)
        env.sync()
        generate_s = time.perf_counter() - t0
        generated = len(df)
        df = simple_edges(df)
        for is_directed in directions:
            graph, sources = _describe_graph(env, df, scale, edge_factor, seed, is_directed,
                                             num_sources)
            graph["generated_edges"] = generated
            graph["generate_s"] = round(generate_s, 3)
            graph["generator"] = ("cugraph.generators.rmat" if env.gen_backend == "device"
                                  else "cugraph_compressed.generators.rmat_edgelist")
            record["graphs"].append(graph)
            log(f"  {'directed' if is_directed else 'undirected'}: {graph['vertices']:,} "
                f"vertices, {graph['edges']:,} directed edges; sources {sources}")
            contenders = [(CUGRAPH, "native")] if cugraph_ok else []
            contenders += [(OURS, f) for f in formats]
            first = {}  # algorithm -> the first contender's result: what the others must match
            results = []
            for name, fmt in contenders:
                log(f"  {name} [{fmt}]")
                results += _measure(env, df, graph, name, fmt, algorithms, sources, repeats,
                                    encode_repeats, first, log)
            del first
            # Grouped by algorithm, contenders in their order: the rows to compare are adjacent.
            results.sort(key=lambda r: algorithms.index(r["algorithm"]))
            record["results"].extend(results)
            if checkpoint is not None:
                checkpoint(record)
        del df
        env.free()
    return record


def failed(record):
    """Results whose check is ``MISMATCH`` or ``error``: what makes the command lines exit 1."""
    return [r for r in record["results"] if r.get("check") in ("MISMATCH", "error")]


# ----------------------------------------------------------------------------- environment

class _Env:
    """What the chosen backend needs: array module, synchronization, memory statistics."""

    def __init__(self, backend):
        self.backend = backend
        self.cudf = self.cupy = self.cugraph = self.rmm = None
        self.gen_backend = "host"
        if backend == "device":
            import cudf
            import cupy
            import rmm
            import rmm.statistics

            self.cudf, self.cupy, self.rmm = cudf, cupy, rmm
            # Before anything is allocated, so the adaptor sees every allocation it is told of.
            rmm.statistics.enable_statistics()
            try:
                import cugraph
                import cugraph.generators  # noqa: F401  (needs dask_cudf too)

                self.cugraph = cugraph
                self.gen_backend = "device"
            except Exception:
                self.cugraph = None

    def sync(self):
        if self.cupy is not None:
            self.cupy.cuda.runtime.deviceSynchronize()

    def free(self):
        gc.collect()
        if self.cupy is not None:
            self.sync()
            self.cupy.get_default_memory_pool().free_all_blocks()

    def rmm_push(self):
        if self.rmm is not None:
            self.rmm.statistics.push_statistics()

    def rmm_pop(self):
        """Bytes still allocated since the matching push, and their peak; (None, None) on host."""
        if self.rmm is None:
            return None, None
        counters = self.rmm.statistics.pop_statistics()
        return int(counters.current_bytes), int(counters.peak_bytes)

    def device_name(self):
        if self.cupy is not None:
            props = self.cupy.cuda.runtime.getDeviceProperties(self.cupy.cuda.Device().id)
            name = props["name"]
            return name.decode() if isinstance(name, bytes) else str(name)
        cpu = platform.processor() or platform.machine()
        return f"CPU {cpu} ({os.cpu_count()} cores)"

    def column(self, df, name):
        """A column as an array of the backend's array module (no host copy on the device)."""
        return df[name].values if self.backend == "device" else df[name].to_numpy()

    @property
    def xp(self):
        return self.cupy if self.cupy is not None else np


def _pick_backend(backend):
    from . import _backend

    if backend not in ("auto", "device", "host"):
        raise ValueError(f"backend must be 'auto', 'device' or 'host', got {backend!r}")
    reason = _backend.gpu_unavailable_reason()
    if backend == "device" and reason:
        raise RuntimeError(f"backend='device' requested but the GPU is not usable: {reason}")
    if backend == "auto":
        backend = "host" if reason else "device"
    return backend, (reason if backend == "host" else None)


def _pick_formats(formats):
    from .formats import FORMATS

    if formats is None:
        return list(FORMATS)
    formats = list(formats)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(f"unknown format(s) {unknown}; available: {sorted(FORMATS)}")
    return formats


# ----------------------------------------------------------------------------- graph facts

def simple_edges(df):
    """The frame without parallel edges, keeping the smallest weight of each (source,
    destination) pair.  Which weight cuGraph keeps of parallel edges is unspecified, so every
    contender gets this frame: then all of them build the same weighted graph."""
    return (df.sort_values("weight")
              .drop_duplicates(subset=["source", "destination"], keep="first")
              .reset_index(drop=True))


def _describe_graph(env, df, scale, edge_factor, seed, directed, num_sources):
    """Vertex and directed-edge counts computed from the frame itself, and the sources."""
    xp = env.xp
    src = env.column(df, "source")
    dst = env.column(df, "destination")
    num_vertices = int(max(int(src.max()), int(dst.max()))) + 1 if len(src) else 0
    bits = max(1, num_vertices.bit_length())
    # Count distinct (lo, hi) keys by sorting in place: one int64 copy of the edge list.
    lo, hi = (src, dst) if directed else (xp.minimum(src, dst), xp.maximum(src, dst))
    keys = lo.astype(xp.int64)
    keys <<= bits
    keys |= hi
    del lo, hi
    keys.sort()
    distinct = int((keys[1:] != keys[:-1]).sum()) + 1 if keys.size else 0
    del keys
    if directed:
        edges = distinct
    else:  # each unordered pair is two directed edges, a self loop one
        loops = int(xp.unique(src[src == dst]).size)
        edges = 2 * (distinct - loops) + loops
    out_degree = xp.bincount(src, minlength=num_vertices)
    any_degree = out_degree + xp.bincount(dst, minlength=num_vertices)
    with_edges = int(xp.count_nonzero(any_degree))
    degree = out_degree if directed else any_degree
    del out_degree, any_degree
    candidates = np.asarray(_to_host(xp.nonzero(degree)[0]))
    del degree
    env.free()
    rng = np.random.default_rng(seed)
    count = min(num_sources, candidates.size)
    sources = [int(v) for v in rng.choice(candidates, size=count, replace=False)]
    graph = {"scale": scale, "edge_factor": edge_factor, "seed": seed, "directed": directed,
             "vertices": num_vertices, "vertices_with_edges": with_edges, "edges": edges,
             "input_edges": int(len(src)), "sources": sources}
    return graph, sources


def _to_host(array):
    return array.get() if type(array).__module__.startswith("cupy") else array


# ----------------------------------------------------------------------------- measuring

def _builder(env, name, fmt, directed, kind):
    """A function building one contender's graph of kind ``kind`` (see :data:`GRAPHS`)."""
    kw = {k: v for k, v in GRAPHS[kind].items() if v is not None}
    if name == CUGRAPH:
        cugraph = env.cugraph

        def build(df):
            G = cugraph.Graph(directed=directed)
            G.from_cudf_edgelist(df, source="source", destination="destination", renumber=False,
                                 **kw)
            return G
    else:
        from . import CompressedGraph

        def build(df):
            G = CompressedGraph(directed=directed, format=fmt)
            load = G.from_cudf_edgelist if env.backend == "device" else G.from_pandas_edgelist
            load(df, source="source", destination="destination", renumber=False, **kw)
            return G
    return build


def _algorithm(env, name, algorithm):
    """The call to time: ``fn(G, source)`` for BFS and SSSP, ``fn(G)`` for the others."""
    if name == CUGRAPH:
        lib = env.cugraph
    else:
        import cugraph_compressed as lib
    if algorithm == "bfs":
        return lambda G, s: lib.bfs(G, start=s)
    if algorithm == "sssp":
        return lambda G, s: lib.sssp(G, source=s)
    if algorithm == "pagerank":
        return lambda G: lib.pagerank(G)
    if algorithm == "wcc":
        return lambda G: lib.weakly_connected_components(G)
    raise ValueError(f"unknown algorithm {algorithm!r}")


def _runs_here(env, name, fmt, algorithm):
    """False where our algorithm has no kernels for the layout yet (device backend)."""
    if name == CUGRAPH or env.backend != "device":
        return True
    from .algorithms.registry import device_layouts

    return fmt in device_layouts(REGISTRY_NAME[algorithm])


def _timed(env, fn, *args):
    env.sync()
    t0 = time.perf_counter()
    out = fn(*args)
    env.sync()
    return out, time.perf_counter() - t0


def _row(env, graph, name, fmt, algorithm, kind, **fields):
    """One result with every key present (None where not measured)."""
    row = {
        "scale": graph["scale"], "directed": graph["directed"], "contender": name, "format": fmt,
        "backend": env.backend, "algorithm": algorithm, "graph": kind, "edges": graph["edges"],
        "sources": None, "ms": None, "ms_min": None, "ms_max": None, "warmup_ms": None,
        "runs": 0, "gteps": None, "structure_bytes": None, "bytes_per_edge": None,
        "components": None, "rmm_bytes": None, "rmm_peak_bytes": None, "compression_ratio": None,
        "plain_csr_bytes": None, "encode_ms": None, "encode_warmup_ms": None,
        "encode_edges_per_s": None, "reported_edges": None, "summary": None, "check": "n/a",
        "checked_against": None, "note": None,
    }
    row.update(fields)
    return row


def _error(exc):
    text = f"{type(exc).__name__}: {exc}".strip()
    return text if len(text) <= 300 else text[:297] + "..."


def _measure(env, df, graph, name, fmt, algorithms, sources, repeats, encode_repeats, first,
             log):
    """Every result of one contender on one graph: each graph kind it needs built once."""
    rows = []
    for kind in GRAPHS:
        wanted = [a for a in algorithms if GRAPH_OF[a] == kind]
        skipped = [a for a in wanted if a == "wcc" and graph["directed"]]
        rows += [_row(env, graph, name, fmt, a, kind, note=NOTE_DIRECTED_WCC) for a in skipped]
        wanted = [a for a in wanted if a not in skipped]
        if wanted:
            rows += _measure_graph(env, df, graph, name, fmt, kind, wanted, sources, repeats,
                                   encode_repeats, first, log)
    return rows


def _measure_graph(env, df, graph, name, fmt, kind, algorithms, sources, repeats,
                   encode_repeats, first, log):
    env.free()
    build = _builder(env, name, fmt, graph["directed"], kind)
    G = None
    try:
        env.rmm_push()
        try:
            G, warm_s = _timed(env, build, df)   # warm-up build; its memory is what we report
        finally:
            rmm_bytes, rmm_peak = env.rmm_pop()
        encode_s = []
        for _ in range(encode_repeats):
            G = None
            env.free()
            G, t = _timed(env, build, df)
            encode_s.append(t)
    except Exception as exc:  # e.g. out of memory: record it, go on with the next contender
        note = f"build failed: {_error(exc)}"
        log(f"    {kind} graph: {note}")
        G = None
        env.free()
        return [_row(env, graph, name, fmt, a, kind, check="error", note=note)
                for a in algorithms]
    if name == CUGRAPH:
        nbytes, components = rmm_bytes, None
    else:
        nbytes, components = int(G.nbytes), {k: int(v) for k, v in G.nbytes_by_component().items()}
    encode_med = statistics.median(encode_s)
    common = {
        "structure_bytes": nbytes, "bytes_per_edge": _ratio(nbytes, graph["edges"]),
        "components": components, "rmm_bytes": rmm_bytes, "rmm_peak_bytes": rmm_peak,
        "encode_ms": encode_med * 1e3, "encode_warmup_ms": warm_s * 1e3,
        "encode_edges_per_s": graph["input_edges"] / encode_med if encode_med else None,
    }
    if name != CUGRAPH:
        common["compression_ratio"] = float(G.compression_ratio)
        common["plain_csr_bytes"] = int(plain_csr_nbytes(G.number_of_vertices(),
                                                         G.number_of_edges(True)))
    label = f"{name}:{fmt}"
    results = []
    for algorithm in algorithms:
        if not _runs_here(env, name, fmt, algorithm):
            results.append(_row(env, graph, name, fmt, algorithm, kind, **common,
                                note=NOTE_NO_KERNELS))
            continue
        per_source = algorithm in PER_SOURCE
        try:
            timing, summaries, payload = _time_algorithm(env, _algorithm(env, name, algorithm),
                                                         G, graph, algorithm, sources, repeats)
        except Exception as exc:
            note = f"failed: {_error(exc)}"
            log(f"    {algorithm}: {note}")
            results.append(_row(env, graph, name, fmt, algorithm, kind, **common,
                                sources=sources if per_source else None, check="error",
                                note=note))
            continue
        summary = summaries if per_source else summaries[0]
        ref = first.setdefault(algorithm, (label, summary, payload))
        ok = _agrees(algorithm, ref, summary, payload)
        del payload
        med = timing["ms"] / 1e3
        results.append(_row(
            env, graph, name, fmt, algorithm, kind, **common, **timing,
            sources=sources if per_source else None,
            gteps=graph["edges"] / med / 1e9 if per_source and med else None,
            summary=summary, check="ok" if ok else "MISMATCH", checked_against=ref[0]))
        log(f"    {algorithm}: {timing['ms']:.3f} ms ({results[-1]['check']})")
    try:  # only recorded (after timing: cuGraph may build and cache an edge list for it)
        reported_edges = int(G.number_of_edges())
    except Exception:
        reported_edges = None
    for r in results:
        r["reported_edges"] = reported_edges
    G = None
    env.free()
    return results


def _time_algorithm(env, run, G, graph, algorithm, sources, repeats):
    """One warm-up call, then ``repeats`` timed calls (per source for BFS and SSSP).

    Returns the timing fields, one summary per source (or one for the whole run) and the
    payload kept for the check (PageRank's vector, else None).
    """
    calls = [(s,) for s in sources] if algorithm in PER_SOURCE else [()]
    out, warm = _timed(env, run, G, *calls[0])
    del out
    times, summaries, payload = [], [], None
    for args in calls:
        for r in range(repeats):
            out, t = _timed(env, run, G, *args)
            times.append(t)
            if r == 0:
                summary, payload = _summarize(algorithm, out, graph)
                summaries.append(summary)
            del out
    timing = {"ms": statistics.median(times) * 1e3, "ms_min": min(times) * 1e3,
              "ms_max": max(times) * 1e3, "warmup_ms": warm * 1e3, "runs": len(times)}
    return timing, summaries, payload


def _host_column(frame, name):
    column = frame[name]
    return column.to_numpy() if hasattr(column, "to_numpy") else np.asarray(column)


def _summarize(algorithm, frame, graph):
    """A few numbers that every correct contender reproduces, and the payload for the check."""
    if algorithm in PER_SOURCE:
        distance = _host_column(frame, "distance")
        if np.issubdtype(distance.dtype, np.integer):
            reached = distance != np.iinfo(distance.dtype).max
        else:
            reached = distance < np.finfo(distance.dtype).max
        total = float(distance[reached].sum(dtype=np.float64))
        return {"reached": int(reached.sum()), "distance_sum": total}, None
    vertex = _host_column(frame, "vertex").astype(np.int64)
    if algorithm == "pagerank":
        scores = np.zeros(graph["vertices"])   # by vertex id: contenders may order rows apart
        scores[vertex] = _host_column(frame, "pagerank").astype(np.float64)
        return {"sum": float(scores.sum()), "max": float(scores.max(initial=0.0))}, scores
    if algorithm == "wcc":
        _, sizes = np.unique(_host_column(frame, "labels"), return_counts=True)
        # Components among vertices that have an edge: the same whether or not a contender
        # lists the ids that no edge touches (each of those is a component of its own).
        untouched = vertex.size - graph["vertices_with_edges"]
        return {"components": int(sizes.size), "vertices": int(vertex.size),
                "largest": int(sizes.max(initial=0)),
                "components_with_edges": int(sizes.size) - untouched}, None
    raise ValueError(f"unknown algorithm {algorithm!r}")


def _agrees(algorithm, ref, summary, payload):
    """Whether a result matches the first contender's (``ref``: label, summary, payload).

    BFS: every source reaches the same vertices with the same distance sum.  SSSP: the same
    vertices, distance sums within :data:`SSSP_RTOL`.  PageRank: L1 distance between the vectors
    below :data:`PAGERANK_L1` (stored in the summary as ``l1_vs_first``).  WCC: the same number
    of components among the vertices that have edges, and the same largest component.
    """
    _, ref_summary, ref_payload = ref
    if algorithm == "bfs":
        return summary == ref_summary
    if algorithm == "sssp":
        return len(summary) == len(ref_summary) and all(
            a["reached"] == b["reached"]
            and math.isclose(a["distance_sum"], b["distance_sum"], rel_tol=SSSP_RTOL)
            for a, b in zip(summary, ref_summary))
    if algorithm == "pagerank":
        if payload.shape != ref_payload.shape:
            summary["l1_vs_first"] = None
            return False
        l1 = float(np.abs(payload - ref_payload).sum())
        summary["l1_vs_first"] = l1
        return l1 < PAGERANK_L1
    if algorithm == "wcc":
        return (summary["components_with_edges"] == ref_summary["components_with_edges"]
                and summary["largest"] == ref_summary["largest"])
    raise ValueError(f"unknown algorithm {algorithm!r}")


def _ratio(a, b):
    return a / b if a is not None and b else None


# ----------------------------------------------------------------------------- provenance

def _versions():
    import importlib
    import importlib.util

    versions = {}
    for module in ("cugraph_compressed", "cugraph", "cudf", "rmm", "cupy", "numpy", "pandas"):
        version = None
        if module in sys.modules or importlib.util.find_spec(module) is not None:
            try:
                version = getattr(importlib.import_module(module), "__version__", None)
            except Exception:
                version = None
        if version is None and module == "cugraph_compressed":
            try:
                from importlib.metadata import version as dist_version

                version = dist_version("cugraph-compressed")
            except Exception:
                version = None
        versions[module] = None if version is None else str(version)
    versions["python"] = platform.python_version()
    return versions


def _git_commit(explicit=None):
    if explicit:
        return explicit
    if os.environ.get("GIT_COMMIT"):
        return os.environ["GIT_COMMIT"]
    root = Path(__file__).resolve().parents[1]
    if (root / ".git").exists():
        try:
            out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                                 capture_output=True, text=True, timeout=10)
            if out.returncode == 0 and out.stdout.strip():
                return out.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return "unknown"


# ----------------------------------------------------------------------------- reporting

def format_table(record):
    """A plain-text table, one row per graph, algorithm and contender, then the notes.

    Parameters
    ----------
    record : dict
        What :func:`run_benchmark` returned.

    Returns
    -------
    str
        Columns: scale, dir, alg, graph (the graph kind it ran on: weighted or transposed),
        contender, format, ms (median), GTEPS (BFS and SSSP), x vs cuGraph (cuGraph's time /
        this time: above 1 is faster), bytes/edge, bytes vs cuGraph (this graph's bytes /
        cuGraph's), CSR/bytes (compression ratio: a plain 32-bit CSR's bytes / the layout's),
        encode ms, encode Medges/s, check.  Rows with a note (skipped, no kernels, errors) are
        listed under the table with it.
    """
    head = ["scale", "dir", "alg", "graph", "contender", "format", "ms", "GTEPS",
            "x vs cuGraph", "bytes/edge", "bytes vs cuGraph", "CSR/bytes", "encode ms",
            "enc Medge/s", "check"]
    baseline = {(r["scale"], r["directed"], r["algorithm"]): r
                for r in record["results"] if r["contender"] == CUGRAPH}
    rows, notes = [], {}
    for r in record["results"]:
        base = baseline.get((r["scale"], r["directed"], r["algorithm"]))
        speed = _ratio(base["ms"], r["ms"]) if base and base["ms"] and r["ms"] else None
        size = (_ratio(r["structure_bytes"], base["structure_bytes"])
                if base and r["structure_bytes"] is not None else None)
        rate = r["encode_edges_per_s"]
        rows.append([str(r["scale"]), "dir" if r["directed"] else "undir", r["algorithm"],
                     r.get("graph") or "-", r["contender"], r["format"], _fmt(r["ms"], ".3f"),
                     _fmt(r["gteps"], ".3f"), _fmt(speed, ".2f", "x"),
                     _fmt(r["bytes_per_edge"], ".2f"), _fmt(size, ".2f", "x"),
                     _fmt(r.get("compression_ratio"), ".2f"), _fmt(r["encode_ms"], ".1f"),
                     _fmt(rate and rate / 1e6, ".1f"), r.get("check", "")])
        if r.get("note"):
            where = (f"{r['scale']} {'dir' if r['directed'] else 'undir'} {r['algorithm']}",
                     r["format"])
            notes.setdefault(r["note"], {}).setdefault(where[0], []).append(where[1])
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(head, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows]
    for note, places in notes.items():
        lines.append(f"note: {note}: " + "; ".join(f"{where} ({', '.join(fmts)})"
                                                 for where, fmts in places.items()))
    return "\n".join(lines)


def _fmt(value, spec, suffix=""):
    return "-" if value is None else f"{value:{spec}}{suffix}"


def write_json(record, path):
    """Write the record as indented JSON, creating parent directories; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2) + "\n")
    return path


def default_json_path(record, directory="benchmarks/results"):
    """``<directory>/<device slug>-<UTC date>.json`` for a record."""
    slug = "".join(ch if ch.isalnum() else "-" for ch in record["device"].lower())
    slug = "-".join(part for part in slug.split("-") if part)
    return Path(directory) / f"{slug}-{record['timestamp'][:10]}.json"
