"""Measuring harness: cuGraph and every compressed layout, on one R-MAT graph, side by side.

Shared by ``python -m cugraph_compressed`` and ``benchmarks/run.py``.  For each scale one R-MAT
edge frame is generated (on the device when a GPU and RAPIDS are usable, else on the host) and
every contender is built from that same frame with ``renumber=False``, one contender at a time
(the previous one is freed first so they never compete for memory).  Per contender:

* encode: one warm-up build, then the median of ``encode_repeats`` synchronized builds;
* size: ``G.nbytes`` for our layouts, and for every contender on the device the RMM bytes that
  building it left allocated (RMM statistics, edge frame still alive);
* algorithms: one warm-up call, then ``repeats`` synchronized calls per source; the sources are
  drawn once per graph with a fixed seed among vertices of out-degree >= 1 and shared by all
  contenders; each result is summarized (vertices reached, sum of distances) so that contenders
  can be checked against each other.

GTEPS is the number of directed edges of the graph (after dropping parallel edges; both
directions of an undirected edge) divided by the median time.
"""

import datetime
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from .formats.base import plain_csr_nbytes

__all__ = ["ALGORITHMS", "run_benchmark", "format_table", "write_json", "default_json_path"]

ALGORITHMS = ("bfs",)
CUGRAPH = "cugraph"
OURS = "cugraph_compressed"


def run_benchmark(scales, *, directed=True, algorithms=ALGORITHMS, formats=None, repeats=5,
                  encode_repeats=3, num_sources=4, edge_factor=16, seed=42, backend="auto",
                  with_cugraph=True, git_commit=None, log=None):
    """Generate R-MAT graphs and measure every contender on each.

    Parameters
    ----------
    scales : iterable of int
        R-MAT scales (``2**scale`` vertex ids, ``edge_factor * 2**scale`` generated edges).
    directed : bool or iterable of bool, default True
        Directedness of the graphs built; several values reuse each generated edge frame.
    algorithms : iterable of str, default ("bfs",)
        Names from :data:`ALGORITHMS`.
    formats : iterable of str, optional
        Layout names from ``cugraph_compressed.formats.FORMATS``; all of them when None.
    repeats : int, default 5
        Timed calls per source for each algorithm (after one warm-up call); at least 1.
    encode_repeats : int, default 3
        Timed builds per contender (after one warm-up build); at least 1.
    num_sources : int, default 4
        Start vertices per graph (fewer if the graph has fewer candidates).
    edge_factor : int, default 16
        Generated edges per vertex id.
    seed : int, default 42
        Seed of the generator and of the source draw.
    backend : {"auto", "device", "host"}, default "auto"
        Where to run; "auto" picks the device when ``cugraph_compressed._backend.gpu_available()``.
    with_cugraph : bool, default True
        Include cuGraph itself as a contender (device backend only, when importable).
    git_commit : str, optional
        Commit to record; else the ``GIT_COMMIT`` environment variable, else ``git rev-parse``.
    log : callable, optional
        Progress lines are passed to it; default: print to stderr.

    Returns
    -------
    dict
        The result record (see ``benchmarks/README.md``): ``device``, ``backend``,
        ``versions``, ``git_commit``, ``timestamp``, ``settings``, ``graphs`` (one per scale and
        directedness) and ``results`` (one per graph, contender and algorithm).
    """
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    scales = [int(s) for s in scales]
    if isinstance(directed, (bool, int)):
        directions = [bool(directed)]
    else:
        directions = [bool(d) for d in directed]
    algorithms = list(algorithms)
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
        + f"; contenders: {([CUGRAPH] if cugraph_ok else []) + [f'{OURS}:{f}' for f in formats]}")

    record = {
        "device": env.device_name(),
        "backend": backend,
        "host_reason": why_host,
        "versions": _versions(),
        "git_commit": _git_commit(git_commit),
        "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "settings": {"repeats": repeats, "encode_repeats": encode_repeats,
                     "num_sources": num_sources, "algorithms": algorithms, "formats": formats},
        "graphs": [],
        "results": [],
    }
    from .generators import rmat_edgelist

    for scale in scales:
        log(f"scale {scale}: generating {edge_factor << scale:,} edges on the {env.gen_backend}")
        t0 = time.perf_counter()
        df = rmat_edgelist(scale, edge_factor, seed=seed, backend=env.gen_backend)
        if backend == "device" and env.gen_backend == "host":
            df = env.cudf.from_pandas(df)
        env.sync()
        generate_s = time.perf_counter() - t0
        for is_directed in directions:
            graph, sources = _describe_graph(env, df, scale, edge_factor, seed, is_directed,
                                             num_sources)
            graph["generate_s"] = round(generate_s, 3)
            graph["generator"] = ("cugraph.generators.rmat" if env.gen_backend == "device"
                                  else "cugraph_compressed.generators.rmat_edgelist")
            record["graphs"].append(graph)
            log(f"  {'directed' if is_directed else 'undirected'}: {graph['vertices']:,} "
                f"vertices, {graph['edges']:,} directed edges; sources {sources}")
            contenders = [(CUGRAPH, "native")] if cugraph_ok else []
            contenders += [(OURS, f) for f in formats]
            for name, fmt in contenders:
                log(f"  {name} [{fmt}]")
                results = _measure(env, df, graph, name, fmt, algorithms, sources, repeats,
                                   encode_repeats)
                record["results"].extend(results)
        del df
        env.free()
    _cross_check(record["results"])
    return record


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

def _describe_graph(env, df, scale, edge_factor, seed, directed, num_sources):
    """Vertex and directed-edge counts computed from the frame itself, and the BFS sources."""
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
    degree = xp.bincount(src, minlength=num_vertices)
    if not directed:
        degree = degree + xp.bincount(dst, minlength=num_vertices)
    candidates = np.asarray(_to_host(xp.nonzero(degree)[0]))
    del degree
    env.free()
    rng = np.random.default_rng(seed)
    count = min(num_sources, candidates.size)
    sources = [int(v) for v in rng.choice(candidates, size=count, replace=False)]
    graph = {"scale": scale, "edge_factor": edge_factor, "seed": seed, "directed": directed,
             "vertices": num_vertices, "edges": edges, "generated_edges": int(len(src)),
             "sources": sources}
    return graph, sources


def _to_host(array):
    return array.get() if type(array).__module__.startswith("cupy") else array


# ----------------------------------------------------------------------------- measuring

def _builder(env, name, fmt, directed):
    if name == CUGRAPH:
        cugraph = env.cugraph

        def build(df):
            G = cugraph.Graph(directed=directed)
            G.from_cudf_edgelist(df, source="source", destination="destination", renumber=False)
            return G
    else:
        from . import CompressedGraph

        def build(df):
            G = CompressedGraph(directed=directed, format=fmt)
            load = G.from_cudf_edgelist if env.backend == "device" else G.from_pandas_edgelist
            load(df, source="source", destination="destination", renumber=False)
            return G
    return build


def _algorithm(env, name, algorithm):
    if algorithm == "bfs":
        if name == CUGRAPH:
            return lambda G, s: env.cugraph.bfs(G, start=s)
        from . import bfs

        return lambda G, s: bfs(G, start=s)
    raise ValueError(f"unknown algorithm {algorithm!r}")


def _runs_here(env, name, fmt, algorithm):
    """False where our algorithm has no kernels for the layout yet (device backend)."""
    if name == CUGRAPH or env.backend != "device":
        return True
    from .algorithms.registry import device_layouts

    return fmt in device_layouts(algorithm)


def _timed(env, fn, *args):
    env.sync()
    t0 = time.perf_counter()
    out = fn(*args)
    env.sync()
    return out, time.perf_counter() - t0


def _measure(env, df, graph, name, fmt, algorithms, sources, repeats, encode_repeats):
    env.free()
    build = _builder(env, name, fmt, graph["directed"])
    env.rmm_push()
    G, warm_s = _timed(env, build, df)            # warm-up build; its memory is what we report
    rmm_bytes, rmm_peak = env.rmm_pop()
    encode_s = []
    for _ in range(encode_repeats):
        del G
        env.free()
        G, t = _timed(env, build, df)
        encode_s.append(t)
    if name == CUGRAPH:
        nbytes, components = rmm_bytes, None
    else:
        nbytes, components = int(G.nbytes), {k: int(v) for k, v in G.nbytes_by_component().items()}
    encode_med = statistics.median(encode_s)
    common = {
        "scale": graph["scale"], "directed": graph["directed"], "contender": name, "format": fmt,
        "backend": env.backend, "edges": graph["edges"],
        "structure_bytes": nbytes, "bytes_per_edge": _ratio(nbytes, graph["edges"]),
        "components": components, "rmm_bytes": rmm_bytes, "rmm_peak_bytes": rmm_peak,
        "encode_ms": encode_med * 1e3, "encode_warmup_ms": warm_s * 1e3,
        "encode_edges_per_s": graph["generated_edges"] / encode_med if encode_med else None,
    }
    if name != CUGRAPH:
        common["compression_ratio"] = float(G.compression_ratio)
        common["plain_csr_bytes"] = int(plain_csr_nbytes(G.number_of_vertices(), G.number_of_edges(True)))
    results = []
    for algorithm in algorithms:
        if not _runs_here(env, name, fmt, algorithm):
            results.append({**common, "algorithm": algorithm, "sources": sources, "ms": None,
                            "gteps": None, "summary": None, "note": "not available on this backend"})
            continue
        run = _algorithm(env, name, algorithm)
        out, warm = _timed(env, run, G, sources[0])
        del out
        times, summaries = [], []
        for s in sources:
            for r in range(repeats):
                out, t = _timed(env, run, G, s)
                times.append(t)
                if r == 0:
                    summaries.append(_summarize(out))
                del out
        med = statistics.median(times)
        results.append({**common, "algorithm": algorithm, "sources": sources,
                        "ms": med * 1e3, "ms_min": min(times) * 1e3, "ms_max": max(times) * 1e3,
                        "warmup_ms": warm * 1e3, "runs": len(times),
                        "gteps": graph["edges"] / med / 1e9 if med else None,
                        "summary": summaries})
    try:  # only recorded (after timing: cuGraph may build and cache an edge list for it)
        reported_edges = int(G.number_of_edges())
    except Exception:
        reported_edges = None
    for r in results:
        r["reported_edges"] = reported_edges
    del G
    env.free()
    return results


def _summarize(frame):
    """Reached vertices and the sum of their distances: equal for every correct contender."""
    distance = frame["distance"].to_numpy()
    if np.issubdtype(distance.dtype, np.integer):
        reached = distance != np.iinfo(distance.dtype).max
    else:
        reached = distance < np.finfo(distance.dtype).max
    total = float(distance[reached].sum(dtype=np.float64))
    return {"reached": int(reached.sum()), "distance_sum": total}


def _cross_check(results):
    """Mark each result "ok" or "MISMATCH" against the first contender on the same graph."""
    first = {}
    for r in results:
        if r["summary"] is None:
            r["check"] = "n/a"
            continue
        key = (r["scale"], r["directed"], r["algorithm"])
        ref = first.setdefault(key, r)
        r["check"] = "ok" if r["summary"] == ref["summary"] else "MISMATCH"
        r["checked_against"] = f"{ref['contender']}:{ref['format']}"


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
    """A plain-text table, one row per graph, contender and algorithm.

    Parameters
    ----------
    record : dict
        What :func:`run_benchmark` returned.

    Returns
    -------
    str
        Columns: scale, dir, contender, format, algorithm, ms (median), GTEPS, x vs cuGraph
        (cuGraph's time / this time: above 1 is faster), bytes/edge, bytes vs cuGraph (this
        structure's bytes / cuGraph's), CSR/bytes (compression ratio: a plain 32-bit CSR's
        bytes / the layout's), encode ms, encode Medges/s, check.
    """
    head = ["scale", "dir", "contender", "format", "alg", "ms", "GTEPS", "x vs cuGraph",
            "bytes/edge", "bytes vs cuGraph", "CSR/bytes", "encode ms", "enc Medge/s", "check"]
    baseline = {(r["scale"], r["directed"], r["algorithm"]): r
                for r in record["results"] if r["contender"] == CUGRAPH}
    rows = []
    for r in record["results"]:
        base = baseline.get((r["scale"], r["directed"], r["algorithm"]))
        speed = _ratio(base["ms"], r["ms"]) if base and r["ms"] else None
        size = _ratio(r["structure_bytes"], base["structure_bytes"]) if base else None
        rows.append([str(r["scale"]), "dir" if r["directed"] else "undir", r["contender"],
                     r["format"], r["algorithm"], _fmt(r["ms"], ".3f"), _fmt(r["gteps"], ".3f"),
                     _fmt(speed, ".2f", "x"), _fmt(r["bytes_per_edge"], ".2f"),
                     _fmt(size, ".2f", "x"), _fmt(r.get("compression_ratio"), ".2f"),
                     _fmt(r["encode_ms"], ".1f"),
                     _fmt(r["encode_edges_per_s"] and r["encode_edges_per_s"] / 1e6, ".1f"),
                     r.get("check", "")])
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(head, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows]
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
