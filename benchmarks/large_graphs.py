#!/usr/bin/env python3
"""Graphs cuGraph cannot hold, on one GPU: build from regenerated R-MAT chunks, run BFS,
PageRank and (undirected) WCC, and check every result without trusting the product.

Nothing is stored between steps: the edges are ``generators.rmat_chunks`` on the GPU, made
again chunk by chunk for every pass of the build and every check.  Per layout it records the
build (peak RMM bytes from right before the call to right after it, the returned graph
included; seconds; structure bytes; passes and vertex ranges), then per algorithm its
second-call seconds and its own peak (bytes above what was held before the call, per vertex),
then drops the graph and checks the results with ``benchmarks/rmat_checks.py`` (plain CuPy,
written apart from the product): BFS by distances and predecessors over every edge, WCC by
labels over every edge and a union-find component count, PageRank by its L1 residual.  The
results wait on the host meanwhile; the checks number the vertices of the first result 0 ..
n-1 in id order (with ``--renumber`` ids without edges are no vertices), map every regenerated
edge into that numbering and count the ends that fall outside it as a failure of every check.

Everything runs on one RMM pool under a statistics adaptor (CuPy allocates from it too).

Out of core (``--placement host``): the streaming build writes the per-edge buffers straight
to pinned host memory, so the graph is never whole on the GPU.  ``--gpu-cap BYTES`` puts an
RMM limiting adaptor under the statistics one: everything our build and runs allocate on the
GPU (per-vertex arrays and state, frontiers, the generator's chunks, the build's working
memory) must fit the cap, or the step records its out of memory; the record gives the
structure's bytes over the cap (the target is >= 2).  The checks run after the graph is gone,
uncapped (they are the harness, not the product).  Uncapped host placement is the "largest
R-MAT the host can pin" mode: before building, the pinned bytes are estimated from measured
bytes per input edge (:data:`BYTES_PER_INPUT_EDGE`) and a build that cannot fit the host's
available memory (less :data:`HOST_RESERVE`) is refused with a MemoryError; a pin that fails
anyway raises MemoryError from the package.  Either is recorded, never a hang.

``--time-limit`` (default 500 s) starts no further algorithm or check after that many seconds
(recorded as skipped), so an invocation ends within a 540 s command.  Measured budgets (H100,
from ``results/large-graphs``): R-MAT 28 undirected ``ef`` builds in 14-23 s (device), BFS
0.3 s, WCC 0.3 s, PageRank 5-6 s on the device, checks 10-17 s.

    python benchmarks/large_graphs.py --scale 28 --formats ef fl --json out.json
    python benchmarks/large_graphs.py --scale 28 --undirected --formats ef
    # structure >= 2x the GPU share: ef R-MAT 28 undirected is 21.6 GB, capped at 10 GB;
    # renumbered, so the per-vertex state counts the vertices with edges (about half the ids);
    # with --budget 2e9 the build had not ended after 560 s on an H100 (commit 3f6dabb): every
    # vertex range of the build is one more pass over the input, so take the largest budget the
    # cap leaves room for
    python benchmarks/large_graphs.py --scale 28 --undirected --formats ef --placement host \
        --renumber --gpu-cap 10e9 --budget 6e9 --chunk-edges 67108864 --json out.json
    # the largest the host can pin (ef R-MAT 30 undirected: 88.7 GB pinned, 4.6 GB on the
    # GPU); each vertex range is two more passes over the regenerated input (sizing,
    # writing), so the build's time grows as edges^2 / budget: R-MAT 28 with --budget 6e9
    # took 283 s in 101 passes.  The budget holds about 24 bytes per counted edge end of a
    # range (per-vertex arrays come on top): R-MAT 30's 34.4 G counted ends (34.0 G stored)
    # took 18 ranges, 37 passes, 175 s at 48e9 on an H100 (GPU peak 54.4 GB); with the
    # checks the run passes a 10-minute command, so start it in the background (setsid) and
    # poll
    python benchmarks/large_graphs.py --scale 30 --undirected --formats ef --placement host \
        --algorithms bfs wcc pagerank --budget 48e9 --chunk-edges 268435456 \
        --time-limit 850 --json out.json
"""
import argparse
import gc
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import rmat_checks  # noqa: E402

from cugraph_compressed import (  # noqa: E402
    CompressedGraph,
    bfs,
    pagerank,
    weakly_connected_components,
)
from cugraph_compressed._backend import HOST, available_memory  # noqa: E402
from cugraph_compressed._placement import check_placement  # noqa: E402
from cugraph_compressed.generators import rmat_chunks  # noqa: E402

TOL = 1e-5        # cuGraph's default PageRank tolerance
ALPHA = 0.85
#: Structure bytes per input edge, measured on the H100 (results/large-graphs R-MAT 30 ef
#: undirected and R-MAT 28 ef and fl, results/streaming-build R-MAT 26 csr and cgr), by
#: (layout, undirected): an estimate of the pinned bytes of a host-placed graph (its
#: per-vertex arrays stay on the GPU).  ef's is R-MAT 30 undirected's pinned part (5.16; the
#: whole graph 5.43); R-MAT 28's whole graph took 5.02, and its low bits widen with the
#: vertex-id range.
BYTES_PER_INPUT_EDGE = {("ef", True): 5.17, ("fl", True): 7.16, ("csr", True): 8.09,
                        ("cgr", True): 6.03, ("ef", False): 2.76, ("fl", False): 3.72,
                        ("csr", False): 4.19, ("cgr", False): 3.13}
#: Host memory left to everything else when pinning (the process, the OS, page cache).
HOST_RESERVE = 8 << 30
ALGORITHMS = ("bfs", "pagerank", "wcc")


class Deadline:
    """Seconds since the start, against the invocation's time limit."""

    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def passed(self):
        return time.monotonic() > self.end


class Memory:
    """The RMM resources: the pool, the optional limiting adaptor (the cap) and the statistics
    adaptor on top; :meth:`uncapped` swaps the cap out for the checks."""

    def __init__(self, cap):
        import cupy
        import rmm
        from rmm.allocators.cupy import rmm_cupy_allocator

        rmm.reinitialize(pool_allocator=True)
        self.pool = rmm.mr.get_current_device_resource()
        if cap is not None:
            limited = rmm.mr.LimitingResourceAdaptor(self.pool, allocation_limit=int(cap))
            rmm.mr.set_current_device_resource(limited)
        rmm.statistics.enable_statistics()
        self.measured = rmm.mr.get_current_device_resource()
        cupy.cuda.set_allocator(rmm_cupy_allocator)

    def capped(self):
        import rmm

        rmm.mr.set_current_device_resource(self.measured)

    def uncapped(self):
        import rmm

        rmm.mr.set_current_device_resource(self.pool)


def host_available():
    """Bytes of host memory available now (the package's reading of ``MemAvailable``)."""
    return available_memory(HOST)


def refuse_unpinnable(fmt, args, input_edges):
    """MemoryError when a host-placed graph's estimated pinned bytes exceed what the host has
    available less :data:`HOST_RESERVE`; returns the estimate."""
    estimate = int(BYTES_PER_INPUT_EDGE[fmt, args.undirected] * input_edges)
    available = host_available()
    if estimate > available - HOST_RESERVE:
        raise MemoryError(
            f"refused before pinning: {fmt} R-MAT {args.scale} "
            f"{'undirected' if args.undirected else 'directed'} needs about {estimate / 1e9:.1f}"
            f" GB of pinned host memory, the host has {available / 1e9:.1f} GB available "
            f"and keeps {HOST_RESERVE / 2**30:.0f} GiB for everything else")
    return estimate


def synced(call):
    """``(result, seconds, peak bytes above what was held before)`` of ``call()``."""
    import cupy
    import rmm

    cupy.cuda.runtime.deviceSynchronize()
    rmm.statistics.push_statistics()
    start = time.perf_counter()
    result = call()
    cupy.cuda.runtime.deviceSynchronize()
    seconds = time.perf_counter() - start
    stats = rmm.statistics.pop_statistics()
    return result, seconds, int(stats.peak_bytes)


def host_columns(frame, *columns):
    """``vertex`` and ``columns`` of a result frame as NumPy arrays (nulls as -1): results
    wait on the host, so they take no GPU memory while the graph is alive (a capped run)."""
    out = []
    for name in ("vertex",) + columns:
        series = frame[name].fillna(-1) if frame[name].has_nulls else frame[name]
        out.append(series.values.get())
    return tuple(out)


class Compact:
    """The graph's vertices (a result's ``vertex`` column) numbered 0 .. n-1 in id order, so
    the checks run on dense arrays of the vertices alone whether the graph was renumbered
    (isolated ids are no vertices) or not (every id is one).  Edge ends that are no vertex of
    the result are counted in ``missing``, not mapped.  ``xp``: CuPy (the checks' module) or
    NumPy.

    Where every id below ``span`` is a vertex (a graph built without renumbering) the
    numbering is the ids themselves: no sorted ids and no rank table are kept (8.6 GB each
    at 2^30 ids, beside the checks' own arrays)."""

    def __init__(self, vertices, span, xp=None):
        if xp is None:
            import cupy as xp
        self.xp = xp
        ids = xp.sort(xp.asarray(vertices, dtype=np.int64))
        self.n = int(ids.size)
        self.identity = self._every_id(ids, span)
        self.ids = None if self.identity else ids
        self.rank_of = None
        if not self.identity:
            self.rank_of = xp.full(span, -1, dtype=np.int64)
            self.rank_of[ids] = xp.arange(self.n, dtype=np.int64)
        self.missing = 0

    @staticmethod
    def _every_id(ids, span):
        """Whether sorted ``ids`` are exactly 0 .. span - 1."""
        return (int(ids.size) == span and (span == 0 or (int(ids[0]) == 0
                and int(ids[-1]) == span - 1 and bool((ids[1:] != ids[:-1]).all()))))

    def same_vertices(self, vertices):
        xp = self.xp
        vertices = xp.sort(xp.asarray(vertices, dtype=np.int64))
        if self.identity:
            return self._every_id(vertices, self.n)
        return vertices.shape == self.ids.shape and bool((vertices == self.ids).all())

    def rank(self, ids):
        """The compact numbers of ``ids`` (vertices of the result)."""
        return ids if self.identity else self.rank_of[ids]

    def dense(self, vertices, values, fill):
        """``values`` (by vertex id) as a dense array over the compact numbering."""
        xp = self.xp
        values = xp.asarray(values)
        out = xp.full(self.n, fill, dtype=values.dtype)
        out[self.rank(xp.asarray(vertices, dtype=np.int64))] = values
        return out

    def edges(self, pairs):
        """``pairs()`` (fresh ``(u, v)`` id arrays, chunk by chunk) in the compact numbering,
        the ends outside it counted in ``missing`` and their edges dropped."""
        def regenerate():
            for u, v in pairs():
                if self.identity:
                    keep = (u >= 0) & (u < self.n) & (v >= 0) & (v < self.n)
                else:
                    u, v = self.rank_of[u], self.rank_of[v]
                    keep = (u >= 0) & (v >= 0)
                lost = int((~keep).sum())
                self.missing += lost
                yield (u[keep], v[keep]) if lost else (u, v)
        return regenerate


def run_layout(fmt, args, chunks, record, deadline):
    """Build, then run every algorithm twice; returns the BFS source and the results (dense
    arrays by vertex id).  The graph goes when this returns, before the checks."""
    directed = not args.undirected
    G = CompressedGraph(directed=directed, format=fmt, placement=args.placement)
    _, seconds, peak = synced(lambda: G.from_edge_chunks(chunks, renumber=args.renumber,
                                                         memory_budget=args.budget))
    n = G.number_of_vertices()
    record.update(build_seconds=seconds, build_peak_bytes=peak, graph_bytes=G.nbytes,
                  vertices=n, stored_edges=G.number_of_edges(True), **G.build_stats)
    record["bytes_by_placement"] = {k: int(v) for k, v in G.nbytes_by_placement().items()}
    if args.gpu_cap:
        record["structure_over_cap"] = G.nbytes / args.gpu_cap
    print(f"{fmt}: build {seconds:.1f} s, peak {peak / 1e9:.2f} GB, graph "
          f"{G.nbytes / 1e9:.2f} GB, {record['stored_edges']} edges, "
          f"{record['ranges']} ranges", flush=True)
    first = chunks[0]
    source = int(first["source"].iloc[0])
    del first
    results = {}
    runs = [("bfs", lambda: bfs(G, start=source)),
            ("pagerank", lambda: pagerank(G, alpha=ALPHA, tol=TOL))]
    if not directed:
        runs.append(("wcc", lambda: weakly_connected_components(G)))
    for name, call in runs:
        if name not in args.algorithms:
            continue
        if deadline.passed():
            record[name] = {"skipped": "the invocation's time limit had passed"}
            print(f"{fmt}: {name} skipped (time limit)", flush=True)
            continue
        call()  # first call: kernels loaded, workspace sized
        gc.collect()
        frame, seconds, peak = synced(call)
        record[name] = {"seconds": seconds, "peak_bytes": peak,
                        "bytes_per_vertex": peak / max(n, 1)}
        print(f"{fmt}: {name} {seconds:.3f} s, {peak / max(n, 1):.1f} B/vertex", flush=True)
        if name == "bfs":
            unreached = int(np.iinfo(frame["distance"].dtype).max)
            results[name] = (*host_columns(frame, "distance", "predecessor"), unreached)
        else:
            results[name] = host_columns(frame, "pagerank" if name == "pagerank" else "labels")
        del frame
    return source, results


def check(args, chunks, source, results, record, fmt, deadline):
    """Every result against its definition over regenerated edges (the algorithms that ran,
    while the time limit allows).  Each verdict is recorded as soon as it is known, and a
    check that runs out of memory records that as its verdict; the others still run."""
    start = time.perf_counter()
    first = next(iter(results.values()))
    compact = Compact(first[0], 1 << args.scale)

    def pairs():
        for chunk in chunks:
            yield chunk["source"].values, chunk["destination"].values

    edges = compact.edges(pairs)
    verdicts = {}
    for name in [k for k in ALGORITHMS if k in results]:
        if deadline.passed():
            record[name]["check"] = "skipped: the invocation's time limit had passed"
            continue
        try:
            found = check_one(name, args, compact, edges, source, results.pop(name),
                              record[name])
        except MemoryError as exc:
            found = [f"the check ran out of memory: {str(exc)[:200]}"]
        gc.collect()
        if compact.missing:  # the check ran without those edges: it does not hold
            found.append(f"{compact.missing} edge ends are no vertex of the results")
        record[name]["check"] = verdicts[name] = "ok" if not found else found
    record["checked_vertices"] = compact.n
    record["edge_ends_outside_results"] = compact.missing
    del compact
    record["check_seconds"] = time.perf_counter() - start
    print(f"{fmt}: checks {record['check_seconds']:.1f} s: "
          + ", ".join(f"{k} {v}" for k, v in verdicts.items()), flush=True)


def check_one(name, args, compact, edges, source, result, row):
    """Problems found in one algorithm's result (a list; empty when it holds); ``row`` (the
    algorithm's record) gets what the check counted."""
    vertices = result[0]
    if not compact.same_vertices(vertices):
        return ["its vertices are not those of the first result"]
    if name == "bfs":
        _, dist, pred, unreached = result
        dist = compact.dense(vertices, dist, unreached)
        pred = compact.dense(vertices, pred, -1)
        pred[pred >= 0] = compact.rank(pred[pred >= 0])  # predecessors are ids too
        row["reached"] = int((dist != unreached).sum())
        return rmat_checks.check_bfs(edges, dist, pred, int(compact.rank(source)),
                                     unreached, args.undirected)
    if name == "wcc":
        labels = compact.dense(vertices, result[1], -1)
        found, row["components"] = rmat_checks.check_components(edges, labels)
        return found
    scores = compact.dense(vertices, result[1], np.nan)
    residual, total = rmat_checks.pagerank_residual(edges, scores, ALPHA, args.undirected,
                                                    args.check_range_edges)
    row.update(residual=residual, score_sum=total)
    return ([] if residual <= TOL and abs(total - 1) <= 1e-4 else
            [f"residual {residual:.3g} (tol {TOL}), sum {total:.8f}"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, required=True)
    parser.add_argument("--edge-factor", type=int, default=16)
    parser.add_argument("--undirected", action="store_true")
    parser.add_argument("--formats", nargs="+", default=["ef"])
    parser.add_argument("--chunk-edges", type=int, default=1 << 28)
    parser.add_argument("--budget", type=float, help="memory_budget of the build (bytes)")
    parser.add_argument("--renumber", action="store_true", help="renumber=True (default False)")
    parser.add_argument("--check-range-edges", type=int, default=1 << 29,
                        help="edge ends per source range of the PageRank residual's "
                             "deduplication (2^29: a few GB of keys)")
    parser.add_argument("--placement", choices=("device", "host", "auto"), default="device",
                        help="where the per-edge buffers go (auto once the package has it)")
    parser.add_argument("--gpu-cap", type=float, default=None, metavar="BYTES",
                        help="RMM limiting adaptor: the GPU memory the build and runs may use")
    parser.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, default=list(ALGORITHMS),
                        help="what to run (wcc on undirected graphs only)")
    parser.add_argument("--time-limit", type=float, default=500.0, metavar="SECONDS",
                        help="start no algorithm or check after this (500)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    args.budget = None if args.budget is None else int(args.budget)
    args.gpu_cap = None if args.gpu_cap is None else int(args.gpu_cap)
    check_placement(args.placement)  # "auto" says so until the package has it
    deadline = Deadline(args.time_limit)

    import cupy

    from cugraph_compressed._pinned import pinned_bytes
    from cugraph_compressed.bench.environment import git_commit, versions

    memory = Memory(args.gpu_cap)
    chunks = rmat_chunks(args.scale, args.edge_factor, seed=42, chunk_edges=args.chunk_edges,
                         backend="device")
    start = time.perf_counter()
    for chunk in chunks:  # one pass of the generator alone, for the build's time to be read
        del chunk
    cupy.cuda.runtime.deviceSynchronize()
    generate = time.perf_counter() - start
    print(f"R-MAT {args.scale}: {chunks.num_edges} edges in {len(chunks)} chunks, one pass "
          f"generated in {generate:.1f} s", flush=True)
    records = []
    for fmt in args.formats:
        record = {"contender": fmt, "scale": args.scale, "edge_factor": args.edge_factor,
                  "direction": "undirected" if args.undirected else "directed",
                  "input_edges": chunks.num_edges, "chunk_edges": args.chunk_edges,
                  "renumber": args.renumber, "budget": args.budget,
                  "generate_pass_seconds": generate, "placement": args.placement,
                  "gpu_cap": args.gpu_cap, "time_limit": args.time_limit,
                  "host_available_bytes": host_available(),
                  "device": cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                  "commit": git_commit(), "versions": versions()}
        records.append(record)
        try:
            if args.placement == "host" and args.gpu_cap is None:
                record["pinned_estimate_bytes"] = refuse_unpinnable(fmt, args,
                                                                    chunks.num_edges)
            memory.capped()
            source, results = run_layout(fmt, args, chunks, record, deadline)
            record["pinned_bytes_after"] = pinned_bytes()  # the graph is gone: 0 expected
            gc.collect()
            memory.uncapped()
            check(args, chunks, source, results, record, fmt, deadline)
            del results
        except MemoryError as exc:
            record["out_of_memory"] = str(exc)[:400]
            print(f"{fmt}: out of memory: {exc}", flush=True)
        gc.collect()
        if args.json:
            args.json.write_text(json.dumps(records, indent=1) + "\n")


if __name__ == "__main__":
    main()
