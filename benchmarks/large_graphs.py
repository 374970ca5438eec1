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
labels over every edge and a union-find component count, PageRank by its L1 residual.

Everything runs on one RMM pool under a statistics adaptor (CuPy allocates from it too).

    python benchmarks/large_graphs.py --scale 28 --formats ef fl --json out.json
    python benchmarks/large_graphs.py --scale 28 --undirected --formats ef
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
from cugraph_compressed.generators import rmat_chunks  # noqa: E402

TOL = 1e-5        # cuGraph's default PageRank tolerance
ALPHA = 0.85


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


def dense(frame, column, n, fill):
    """A result column as a CuPy array indexed by vertex id (``fill`` where absent)."""
    import cupy

    vertex = frame["vertex"].values
    values = frame[column].fillna(-1).values if frame[column].has_nulls else frame[column].values
    out = cupy.full(n, fill, dtype=values.dtype)
    out[vertex] = values
    return out


def run_layout(fmt, args, chunks, record):
    """Build, then run every algorithm twice; returns the BFS source and the results (dense
    arrays by vertex id).  The graph goes when this returns, before the checks."""
    directed = not args.undirected
    G = CompressedGraph(directed=directed, format=fmt)
    _, seconds, peak = synced(lambda: G.from_edge_chunks(chunks, renumber=args.renumber,
                                                         memory_budget=args.budget))
    n = G.number_of_vertices()
    record.update(build_seconds=seconds, build_peak_bytes=peak, graph_bytes=G.nbytes,
                  vertices=n, stored_edges=G.number_of_edges(True), **G.build_stats)
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
        call()  # first call: kernels loaded, workspace sized
        gc.collect()
        frame, seconds, peak = synced(call)
        record[name] = {"seconds": seconds, "peak_bytes": peak,
                        "bytes_per_vertex": peak / max(n, 1)}
        print(f"{fmt}: {name} {seconds:.3f} s, {peak / max(n, 1):.1f} B/vertex", flush=True)
        if name == "bfs":
            unreached = int(np.iinfo(frame["distance"].dtype).max)
            results[name] = (dense(frame, "distance", n, unreached),
                             dense(frame, "predecessor", n, -1), unreached)
        else:
            results[name] = dense(frame, "pagerank" if name == "pagerank" else "labels", n, -1)
        del frame
    return source, results


def check(args, chunks, source, results, record, fmt):
    """Every result against its definition over regenerated edges; failures are recorded."""
    undirected = args.undirected

    def edges():
        for chunk in chunks:
            yield chunk["source"].values, chunk["destination"].values

    start = time.perf_counter()
    dist, pred, unreached = results["bfs"]
    problems = {"bfs": rmat_checks.check_bfs(edges, dist, pred, source, unreached, undirected)}
    record["bfs"]["reached"] = int((dist != unreached).sum())
    del dist, pred
    if "wcc" in results:
        problems["wcc"], components = rmat_checks.check_components(edges, results["wcc"])
        record["wcc"]["components"] = components
    residual, total = rmat_checks.pagerank_residual(
        edges, results["pagerank"], ALPHA, undirected, args.check_range_vertices)
    problems["pagerank"] = ([] if residual <= TOL and abs(total - 1) <= 1e-4 else
                            [f"residual {residual:.3g} (tol {TOL}), sum {total:.8f}"])
    record["pagerank"].update(residual=residual, score_sum=total)
    for name, found in problems.items():
        record[name]["check"] = "ok" if not found else found
    record["check_seconds"] = time.perf_counter() - start
    print(f"{fmt}: checks {record['check_seconds']:.1f} s: "
          + ", ".join(f"{k} {'ok' if not v else v}" for k, v in problems.items()), flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, required=True)
    parser.add_argument("--edge-factor", type=int, default=16)
    parser.add_argument("--undirected", action="store_true")
    parser.add_argument("--formats", nargs="+", default=["ef"])
    parser.add_argument("--chunk-edges", type=int, default=1 << 28)
    parser.add_argument("--budget", type=float, help="memory_budget of the build (bytes)")
    parser.add_argument("--renumber", action="store_true", help="renumber=True (default False)")
    parser.add_argument("--check-range-vertices", type=int, default=1 << 26,
                        help="sources per range of the PageRank residual's deduplication")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    args.budget = None if args.budget is None else int(args.budget)

    import cupy
    import rmm
    from rmm.allocators.cupy import rmm_cupy_allocator

    from cugraph_compressed.bench.environment import git_commit, versions

    rmm.reinitialize(pool_allocator=True)
    rmm.statistics.enable_statistics()
    cupy.cuda.set_allocator(rmm_cupy_allocator)
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
                  "generate_pass_seconds": generate,
                  "device": cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                  "commit": git_commit(), "versions": versions()}
        records.append(record)
        try:
            source, results = run_layout(fmt, args, chunks, record)
            gc.collect()
            check(args, chunks, source, results, record, fmt)
            del results
        except MemoryError as exc:
            record["out_of_memory"] = str(exc)[:300]
            print(f"{fmt}: out of memory: {exc}", flush=True)
        gc.collect()
        if args.json:
            args.json.write_text(json.dumps(records, indent=1) + "\n")


if __name__ == "__main__":
    main()
