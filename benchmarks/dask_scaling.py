#!/usr/bin/env python3
"""Multi-worker scaling: ``cugraph_compressed.dask`` in every layout beside ``cugraph.dask``,
on the same Dask cluster and the same R-MAT input, for clusters of 1 .. k workers.

For each worker count ``k`` a cluster of ``k`` workers is started (``LocalCUDACluster``, one
GPU per worker, one RMM pool each; ``--backend host``: a ``LocalCluster`` of host workers, to
test this script without a GPU).  The R-MAT edges are generated on the workers, chunk by chunk
with ``cugraph_compressed.generators.rmat_chunks`` (never on one process), then made canonical
by a Dask group-by: one row per (source, destination) pair (undirected: per unordered pair)
keeping the smallest weight, since which of several parallel weights cuGraph keeps is
unspecified.  That frame, persisted on the workers, is the input of every contender:

- ``cugraph``: ``cugraph.Graph.from_dask_cudf_edgelist`` (a second graph, stored transposed,
  for PageRank) and ``cugraph.dask.bfs``, ``sssp``, ``pagerank``,
  ``weakly_connected_components`` (after ``cugraph.dask.comms.comms.initialize(p2p=True)``);
- ``<layout>``: ``cugraph_compressed.dask.CompressedGraph(format=<layout>)`` and its four
  algorithms.

Per contender it records the build's seconds and, per worker, the GPU bytes held before it and
its peak above them (RMM statistics on each worker, above the pool: cuGraph's C++ allocations
and CuPy's both come from it; NCCL's own buffers do not), then per algorithm a warm-up call
and ``--repeats`` timed calls (each result persisted on the workers before the clock stops).
Results are checked against cuGraph's where it ran (BFS distances equal, SSSP distances to
``1e-4`` relative, WCC the same partition, PageRank L1 distance at most ``--pagerank-l1``), by
Dask joins on the workers; otherwise by definition on one worker with
``benchmarks/rmat_checks.py`` over regenerated edges (BFS, WCC; PageRank's residual only for
unweighted graphs, ``--unweighted``, which skips SSSP).  The JSON (``--json``) is rewritten
after every contender and names every worker's device.

    python benchmarks/dask_scaling.py --scale 26 --json $OUT/dask-scaling-26.json
    python benchmarks/dask_scaling.py --backend host --scale 10 --workers 1 2 --formats csr ef
"""
import argparse
import gc
import json
import logging
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
for path in (ROOT, HERE):  # run from a checkout without installing
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import numpy as np  # noqa: E402

from cugraph_compressed.formats import FORMATS  # noqa: E402
from cugraph_compressed.generators import rmat_chunks  # noqa: E402

ALGORITHMS = ("bfs", "sssp", "pagerank", "wcc")
ALPHA, TOL = 0.85, 1e-5  # cuGraph's PageRank defaults
SSSP_RTOL = 1e-4          # float32 (cuGraph) against float64 (ours) path sums
RESULT_COLUMN = {"bfs": "distance", "sssp": "distance", "pagerank": "pagerank",
                 "wcc": "labels"}


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, required=True)
    parser.add_argument("--edge-factor", type=int, default=16)
    parser.add_argument("--backend", choices=["device", "host"], default="device")
    parser.add_argument("--workers", type=int, nargs="+",
                        help="worker counts (default: 1 .. the number of GPUs; host: 1 2)")
    parser.add_argument("--formats", nargs="+", default=sorted(FORMATS),
                        choices=sorted(FORMATS))
    parser.add_argument("--algorithms", nargs="+", default=list(ALGORITHMS),
                        choices=ALGORITHMS)
    parser.add_argument("--directed", action="store_true",
                        help="directed graphs (WCC is skipped); default undirected")
    parser.add_argument("--unweighted", action="store_true",
                        help="no weight column (SSSP is skipped; PageRank is checkable by "
                             "definition)")
    parser.add_argument("--no-cugraph", action="store_true", help="skip cugraph.dask")
    parser.add_argument("--repeats", type=int, default=1, help="timed calls per algorithm")
    parser.add_argument("--chunk-edges", type=int, default=1 << 26,
                        help="edges per generated chunk (one Dask partition each)")
    parser.add_argument("--rmm-pool-size", default="0.9",
                        help="each worker's RMM pool: a fraction of GPU memory or a size")
    parser.add_argument("--pagerank-l1", type=float, default=1e-3,
                        help="largest L1 distance from cuGraph's PageRank counted as equal")
    parser.add_argument("--time-budget", type=float, default=520.0,
                        help="seconds after which no further contender starts")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    algorithms = [a for a in args.algorithms
                  if not (a == "wcc" and args.directed) and not (a == "sssp" and args.unweighted)]
    args.algorithms = algorithms
    return args


# -- on the workers ------------------------------------------------------------------------------
def _chunk(chunks, index):
    return chunks[index]


def _canonical(frame, directed):
    """One direction per undirected edge (source <= destination), so that the group-by keeps
    one weight for both directions."""
    if directed:
        return frame
    source, destination = frame["source"], frame["destination"]
    swap = source > destination
    return frame.assign(source=source.where(~swap, destination),
                        destination=destination.where(~swap, source))


def _start_statistics():
    """RMM statistics above the worker's pool, CuPy allocating from RMM as cuGraph does."""
    import cupy
    import rmm
    from rmm.allocators.cupy import rmm_cupy_allocator

    rmm.statistics.enable_statistics()
    cupy.cuda.set_allocator(rmm_cupy_allocator)


def _push():
    import rmm

    held = int(rmm.statistics.get_statistics().current_bytes)
    rmm.statistics.push_statistics()
    return held


def _pop():
    import rmm

    return int(rmm.statistics.pop_statistics().peak_bytes)


def _collect():
    gc.collect()


def _device_name():
    import cupy

    return cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()


def _empty(frame):
    return frame.iloc[:0]


def _dense(parts, column, index, fill):
    """A result column as an array over the compact vertex ids (``index``: user id -> compact
    id), ``fill`` where a vertex has no row; labels of absent vertices are made distinct."""
    frames = [p for p in parts if len(p)]
    xp = _xp(index)
    n = int((index >= 0).sum())
    if column == "labels":
        out = -1 - xp.arange(n, dtype=np.int64)  # absent vertices: components of their own
    else:
        out = None
    for frame in frames:
        vertex = _values(frame["vertex"], xp).astype(np.int64)
        series = frame[column]
        values = _values(series.fillna(-1) if series.isna().any() else series, xp)
        if out is None:
            out = xp.full(n, fill, dtype=values.dtype)
        out[index[vertex]] = values.astype(out.dtype)
    if out is None:
        out = xp.full(n, fill)
    return out


def _xp(array):
    if isinstance(array, np.ndarray):
        return np
    import cupy

    return cupy


def _values(series, xp):
    return series.to_numpy() if xp is np else series.values


def _definition_checks(spec, source, results):
    """Every result by its definition (``rmat_checks``) over edges regenerated on this worker:
    ``{algorithm: "ok" or [problems]}``."""
    import rmat_checks

    chunks = rmat_chunks(spec["scale"], spec["edge_factor"], seed=42,
                         chunk_edges=spec["chunk_edges"], backend=spec["backend"])
    xp = np if spec["backend"] == "host" else __import__("cupy")
    present = xp.zeros(chunks.num_vertices, dtype=bool)
    for chunk in chunks:
        present[_values(chunk["source"], xp)] = True
        present[_values(chunk["destination"], xp)] = True
    index = xp.full(chunks.num_vertices, -1, dtype=np.int64)
    index[present] = xp.arange(int(present.sum()), dtype=np.int64)
    undirected = not spec["directed"]

    def edges():
        for chunk in chunks:
            yield (index[_values(chunk["source"], xp)], index[_values(chunk["destination"], xp)])

    found = {}
    if "bfs" in results:
        dist = _dense(results["bfs"], "distance", index, -1)
        unreached = int(np.iinfo(dist.dtype).max)
        dist[dist < 0] = unreached
        pred = _dense(results["bfs"], "predecessor", index, -1)
        pred = xp.where(pred >= 0, index[xp.maximum(pred, 0)], -1)
        found["bfs"] = rmat_checks.check_bfs(edges, dist, pred, int(index[source]), unreached,
                                             undirected)
    if "wcc" in results:
        found["wcc"], _ = rmat_checks.check_components(edges, _dense(results["wcc"], "labels",
                                                                     index, -1))
    if "pagerank" in results and not spec["weighted"]:
        scores = _dense(results["pagerank"], "pagerank", index, 0.0)
        residual, total = rmat_checks.pagerank_residual(edges, scores, ALPHA, undirected,
                                                        1 << 29)
        found["pagerank"] = ([] if residual <= 10 * TOL and abs(total - 1) <= 1e-4 else
                             [f"residual {residual:.3g}, sum {total:.8f}"])
    return {name: "ok" if not problems else problems for name, problems in found.items()}


# -- on the driver -------------------------------------------------------------------------------
def make_cluster(args, k):
    if args.backend == "host":
        from distributed import LocalCluster

        return LocalCluster(n_workers=k, threads_per_worker=1, processes=False,
                            dashboard_address=None, silence_logs=logging.ERROR)
    from dask_cuda import LocalCUDACluster

    pool = args.rmm_pool_size
    try:
        pool = float(pool)
    except ValueError:
        pass
    return LocalCUDACluster(n_workers=k, CUDA_VISIBLE_DEVICES=list(range(k)),
                            rmm_pool_size=pool, dashboard_address=None,
                            silence_logs=logging.ERROR)


def gpu_count():
    import cupy

    return cupy.cuda.runtime.getDeviceCount()


def input_frame(client, args, addresses):
    """The canonical edge frame, generated and grouped on the workers, persisted there."""
    import dask.dataframe as dd
    from distributed import wait

    chunks = rmat_chunks(args.scale, args.edge_factor, seed=42, weighted=not args.unweighted,
                         chunk_edges=args.chunk_edges, backend=args.backend)
    parts = [client.submit(_chunk, chunks, i, workers=[addresses[i % len(addresses)]],
                           pure=False) for i in range(len(chunks))]
    meta = client.submit(_empty, parts[0]).result()
    raw = dd.from_delayed(parts, meta=meta, verify_meta=False)
    raw = raw.map_partitions(_canonical, args.directed, meta=meta)
    keys = ["source", "destination"]
    if args.unweighted:
        frame = raw.drop_duplicates(subset=keys, split_out=len(addresses))
    else:
        frame = raw.groupby(keys).agg({"weight": "min"}, split_out=len(addresses)).reset_index()
    frame = client.persist(frame)
    wait(frame)
    del parts
    return frame


def on_workers(client, function):
    """``function()`` on every worker: ``{address: result}``."""
    return client.run(function)


def timed(client, call):
    """``(result persisted on the workers, seconds)``."""
    from distributed import wait

    start = time.perf_counter()
    result = call()
    frame = result[0] if isinstance(result, tuple) else result
    frame = client.persist(frame)
    wait(frame)
    return frame, time.perf_counter() - start


def measured_build(client, args, build):
    """``(graph, seconds, {worker: {held_bytes, peak_bytes}})``; bytes are None on host
    workers."""
    on_workers(client, _collect)
    device = args.backend == "device"
    held = on_workers(client, _push) if device else {}
    start = time.perf_counter()
    graph = build()
    seconds = time.perf_counter() - start
    peaks = on_workers(client, _pop) if device else {}
    memory = {w: {"held_bytes": held.get(w), "peak_bytes": peaks.get(w)}
              for w in sorted(client.scheduler_info(n_workers=-1)["workers"])}
    return graph, seconds, memory


class Contender:
    """One side of the comparison: its build and its four calls."""

    def __init__(self, name, args, frame):
        self.name, self.args, self.frame = name, args, frame
        self.graph = self.transposed = None

    def build(self):
        args, directed = self.args, self.args.directed
        weight = None if args.unweighted else "weight"
        if self.name == "cugraph":
            import cugraph

            self.graph = cugraph.Graph(directed=directed)
            self.graph.from_dask_cudf_edgelist(self.frame, source="source",
                                               destination="destination", weight=weight)
            return self.graph
        import cugraph_compressed.dask as mg

        self.graph = mg.CompressedGraph(directed=directed, format=self.name)
        load = (self.graph.from_dask_cudf_edgelist if args.backend == "device"
                else self.graph.from_dask_dataframe)
        # store_transposed only tells PageRank it was meant for it: the workers hold out-lists
        # either way, which every algorithm reads.
        load(self.frame, source="source", destination="destination", weight=weight,
             store_transposed=True)
        return self.graph

    def transposed_for_pagerank(self):
        """cuGraph's PageRank graph, stored transposed as it wants (built once, timed apart);
        ours push over the out-lists they hold."""
        if self.name != "cugraph":
            return self.graph, 0.0
        import cugraph

        start = time.perf_counter()
        self.transposed = cugraph.Graph(directed=self.args.directed)
        self.transposed.from_dask_cudf_edgelist(
            self.frame, source="source", destination="destination",
            weight=None if self.args.unweighted else "weight", store_transposed=True)
        return self.transposed, time.perf_counter() - start

    def call(self, algorithm, source):
        if self.name == "cugraph":
            import cugraph.dask as lib
        else:
            import cugraph_compressed.dask as lib
        G = self.graph
        if algorithm == "bfs":
            return lambda: lib.bfs(G, source)
        if algorithm == "sssp":
            return lambda: lib.sssp(G, source)
        if algorithm == "wcc":
            return lambda: lib.weakly_connected_components(G)
        P = self.transposed if self.name == "cugraph" else G
        return lambda: lib.pagerank(P, alpha=ALPHA, tol=TOL)

    def drop(self):
        self.graph = self.transposed = None
        gc.collect()


def _unreached_as_missing(frame, column):
    """Unreachable (the dtype's largest value) as -1, whatever the dtype."""
    values = frame[column]
    kind = np.dtype(str(values.dtype))
    top = np.iinfo(kind).max if kind.kind in "iu" else np.finfo(kind).max
    return frame.assign(**{column: values.where(values < top, -1).astype("float64")})


def compare(ours, theirs, algorithm, args):
    """Our result against cuGraph's, by Dask joins on the workers: ``(check, facts)``."""
    column = RESULT_COLUMN[algorithm]
    a, b = ours[["vertex", column]], theirs[["vertex", column]]
    if algorithm in ("bfs", "sssp"):
        a = a.map_partitions(_unreached_as_missing, column)
        b = b.map_partitions(_unreached_as_missing, column)
    a = a.astype({"vertex": "int64"})
    b = b.astype({"vertex": "int64"})
    merged = a.merge(b, on="vertex", how="outer", suffixes=("_ours", "_ref"))
    x, y = merged[f"{column}_ours"], merged[f"{column}_ref"]
    missing = x.isna() | y.isna()
    import dask

    if algorithm == "wcc":
        both = merged[~missing]
        pairs = both[[f"{column}_ours", f"{column}_ref"]].drop_duplicates()
        n_missing, n_pairs, n_x, n_y = dask.compute(missing.sum(), pairs.shape[0],
                                                    both[f"{column}_ours"].nunique(),
                                                    both[f"{column}_ref"].nunique())
        ok = int(n_missing) == 0 and int(n_pairs) == int(n_x) == int(n_y)
        return ("ok" if ok else [f"{int(n_missing)} vertices in one result only, "
                                 f"{int(n_pairs)} label pairs for {int(n_x)} and {int(n_y)} "
                                 "labels"]), {"components": int(n_y)}
    if algorithm == "pagerank":
        n_missing, l1 = dask.compute(missing.sum(), (x - y).abs().sum())
        l1 = float(l1)
        ok = int(n_missing) == 0 and l1 <= args.pagerank_l1
        return ("ok" if ok else [f"{int(n_missing)} vertices in one result only, L1 {l1:.3g}"]
                ), {"l1_vs_cugraph": l1}
    x, y = x.fillna(-2), y.fillna(-3)  # a vertex in one result only never matches
    if algorithm == "bfs":
        bad, reached = dask.compute((x != y).sum(), (y >= 0).sum())
        return ("ok" if int(bad) == 0 else [f"{int(bad)} distances differ"]
                ), {"reached": int(reached)}
    reach = (x >= 0) != (y >= 0)
    far = ((x - y).abs() > SSSP_RTOL * y.abs()) & (y >= 0)
    bad_reach, bad_far = dask.compute(reach.sum(), far.sum())
    ok = int(bad_reach) == 0 and int(bad_far) == 0
    return ("ok" if ok else [f"{int(bad_reach)} reachability and {int(bad_far)} distance "
                             "differences"]), {}


def definition_checks(client, args, source, results, address):
    """The results by definition, on one worker (``_definition_checks``)."""
    spec = {"scale": args.scale, "edge_factor": args.edge_factor,
            "chunk_edges": args.chunk_edges, "backend": args.backend,
            "directed": args.directed, "weighted": not args.unweighted}
    parts = {name: client.compute(frame.to_delayed()) for name, frame in results.items()
             if name in ("bfs", "wcc", "pagerank")}
    return client.submit(_definition_checks, spec, source, parts, workers=[address],
                         pure=False).result()


def run_contender(client, args, contender, source, reference, record, deadline):
    """Build, call, check; fills ``record``; returns the results (persisted frames)."""
    _, seconds, memory = measured_build(client, args, contender.build)
    record.update(build_seconds=seconds, build_memory=memory)
    peaks = [m["peak_bytes"] for m in memory.values() if m["peak_bytes"] is not None]
    if contender.name != "cugraph":
        record["graph_bytes"] = contender.graph.nbytes
        record["exchange"] = contender.graph.exchange
        record["vertices"] = contender.graph.number_of_vertices()
    print(f"  {contender.name}: build {seconds:.2f} s"
          + (f", peak {max(peaks) / 1e9:.2f} GB above held per worker" if peaks else ""),
          flush=True)
    results = {}
    for algorithm in args.algorithms:
        if time.perf_counter() > deadline:
            record[algorithm] = {"skipped": "time budget"}
            continue
        entry = record[algorithm] = {}
        if algorithm == "pagerank":
            _, entry["graph_build_seconds"] = contender.transposed_for_pagerank()
        call = contender.call(algorithm, source)
        try:
            frame, entry["first_seconds"] = timed(client, call)
            times = []
            for _ in range(args.repeats):
                del frame
                frame, seconds = timed(client, call)
                times.append(seconds)
        except Exception as exc:  # recorded, the next algorithm still runs
            entry["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
            print(f"  {contender.name}: {algorithm} failed: {entry['error']}", flush=True)
            continue
        entry["seconds"] = float(np.median(times)) if times else entry["first_seconds"]
        entry["all_seconds"] = times
        results[algorithm] = frame
        if reference is not None and algorithm in reference:
            entry["check"], facts = compare(frame, reference[algorithm], algorithm, args)
            entry["checked_against"] = "cugraph.dask"
            entry.update(facts)
        print(f"  {contender.name}: {algorithm} {entry['seconds']:.3f} s "
              f"({entry.get('check', 'not compared')})", flush=True)
    return results


def run_workers(client, args, k, records, write, deadline):
    """Every contender on a cluster of ``k`` workers."""
    addresses = sorted(client.scheduler_info(n_workers=-1)["workers"])
    device = args.backend == "device"
    base = {"workers": k, "scale": args.scale, "edge_factor": args.edge_factor,
            "direction": "directed" if args.directed else "undirected",
            "weighted": not args.unweighted, "backend": args.backend}
    if device:
        on_workers(client, _start_statistics)
        base["devices"] = on_workers(client, _device_name)
    start = time.perf_counter()
    frame = input_frame(client, args, addresses)
    base["input_seconds"] = time.perf_counter() - start
    base["input_edges"] = int(frame.shape[0].compute())
    source = int(frame.head(1)["source"].iloc[0])
    base["source"] = source
    print(f"{k} worker(s): {base['input_edges']} canonical edges in "
          f"{base['input_seconds']:.1f} s, source {source}", flush=True)
    names = ([] if args.no_cugraph or not device else ["cugraph"]) + list(args.formats)
    reference = None
    comms = None
    if "cugraph" in names:
        try:
            from cugraph.dask.comms import comms as cugraph_comms

            cugraph_comms.initialize(p2p=True)
            comms = cugraph_comms
        except ImportError as exc:  # cugraph.dask's comms need UCXX, which a host may lack
            names.remove("cugraph")
            records.append({**base, "contender": "cugraph",
                            "error": f"cugraph.dask unavailable: {type(exc).__name__}: {exc}"})
            print(f"  cugraph: {records[-1]['error']}", flush=True)
    try:
        for name in names:
            record = {**base, "contender": name}
            records.append(record)
            if time.perf_counter() > deadline:
                record["skipped"] = "time budget"
                continue
            contender = Contender(name, args, frame)
            try:
                results = run_contender(client, args, contender, source, reference, record,
                                        deadline)
            except Exception as exc:  # out of memory, or a build refused: the next one runs
                record["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
                print(f"  {name}: {record['error']}", flush=True)
                results = {}
            contender.drop()
            if name == "cugraph":
                reference = results  # kept on the workers for the checks of every layout
            elif reference is None and results and time.perf_counter() < deadline:
                checks = definition_checks(client, args, source, results, addresses[0])
                for algorithm, check in checks.items():
                    record[algorithm].update(check=check, checked_against="definition")
                for algorithm in set(results) - set(checks):
                    record[algorithm]["note"] = ("unchecked: no cuGraph result, and no check "
                                                 "by definition here (SSSP, weighted PageRank)")
                print(f"  {name}: checks by definition: {checks}", flush=True)
            del results
            write()
    finally:
        if comms is not None:
            comms.destroy()


def main(argv=None):
    args = parse(argv)
    from distributed import Client

    from cugraph_compressed.bench.environment import git_commit, versions

    # Spawned workers import this checkout and rmat_checks without an install.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(HERE)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                  if p])
    counts = args.workers or (list(range(1, gpu_count() + 1)) if args.backend == "device"
                              else [1, 2])
    records = []
    meta = {"commit": git_commit(), "versions": versions(), "algorithms": args.algorithms,
            "formats": args.formats, "repeats": args.repeats, "chunk_edges": args.chunk_edges}

    def write():
        if args.json:
            args.json.write_text(json.dumps({"meta": meta, "runs": records}, indent=1) + "\n")

    deadline = time.perf_counter() + args.time_budget
    import dask

    # The task shuffle: P2P's support of cuDF frames has varied between releases.
    with dask.config.set({"dataframe.shuffle.method": "tasks"}):
        for k in counts:
            if time.perf_counter() > deadline:
                records.append({"workers": k, "skipped": "time budget"})
                continue
            with make_cluster(args, k) as cluster, Client(cluster) as client:
                run_workers(client, args, k, records, write, deadline)
            write()
    write()
    failed = [r for r in records for a in ALGORITHMS
              if isinstance(r.get(a), dict) and r[a].get("check") not in (None, "ok")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
