#!/usr/bin/env python3
"""A/B timing of two checkouts of the package through its public API alone (GPU only).

Times ``bfs``, ``sssp`` (per source), ``pagerank`` (store_transposed) and
``weakly_connected_components`` (undirected) of every layout, and cuGraph's as a control, on
one R-MAT graph, from an RMM pool, with the ``cugraph_compressed`` of the checkout this file
lives in.  Only calls every version of the package has are used, so copying the file into an
older checkout and running both, alternately, compares the package code under one harness::

    cp benchmarks/ab.py ../old/benchmarks/
    python3 benchmarks/ab.py --scale 22 --label new --out new.json
    (cd ../old && python3 benchmarks/ab.py --scale 22 --label old --out old.json)
    python3 benchmarks/ab.py --compare old.json new.json

Graphs keep the generated ids (``renumber=False``) unless ``--renumber`` (cuGraph's default
path, and ours in its default vertex order, degree order since it exists).
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))


def median_ms(cp, fn, calls, repeats):
    """One warm-up, then ``repeats`` synchronized calls per argument tuple; the median ms."""
    fn(*calls[0])
    times = []
    for args in calls:
        for _ in range(repeats):
            cp.cuda.Device().synchronize()
            t0 = time.perf_counter()
            fn(*args)
            cp.cuda.Device().synchronize()
            times.append(1e3 * (time.perf_counter() - t0))
    return statistics.median(times)


def measure(args):
    import cugraph
    import cupy as cp
    import numpy as np
    import rmm
    from rmm.allocators.cupy import rmm_cupy_allocator

    rmm.mr.set_current_device_resource(rmm.mr.PoolMemoryResource(rmm.mr.CudaMemoryResource()))
    cp.cuda.set_allocator(rmm_cupy_allocator)

    import cugraph_compressed as cgc
    from cugraph_compressed.generators import rmat_edgelist

    df = rmat_edgelist(args.scale, seed=42, weighted=True, backend="device")
    df = df[df["source"] != df["destination"]].drop_duplicates(["source", "destination"])
    degree = np.bincount(df["source"].values.get(), minlength=1 << args.scale)
    sources = [int(s) for s in np.random.default_rng(7).choice(np.flatnonzero(degree),
                                                                 args.sources, replace=False)]
    graphs = {  # algorithm: (directed, weighted, store_transposed)
        "bfs": (True, True, False), "sssp": (True, True, False),
        "pagerank": (True, False, True), "wcc": (False, True, False)}
    rows = []
    for fmt in ["cugraph", *args.formats]:
        lib = cugraph if fmt == "cugraph" else cgc
        built = {}
        for name in args.algorithms:
            directed, weighted, transposed = graphs[name]
            key = graphs[name]
            if key not in built:
                built.clear()
                G = (cugraph.Graph(directed=directed) if fmt == "cugraph"
                     else cgc.CompressedGraph(directed=directed, format=fmt))
                G.from_cudf_edgelist(df, weight="weight" if weighted else None,
                                     renumber=args.renumber, store_transposed=transposed)
                built[key] = G
            G = built[key]
            if name == "bfs":
                ms = median_ms(cp, lambda s: lib.bfs(G, s), [(s,) for s in sources],
                               args.repeats)
            elif name == "sssp":
                ms = median_ms(cp, lambda s: lib.sssp(G, s), [(s,) for s in sources],
                               args.repeats)
            elif name == "pagerank":
                ms = median_ms(cp, lambda: lib.pagerank(G), [()], args.repeats)
            else:
                ms = median_ms(cp, lambda: lib.weakly_connected_components(G), [()],
                               args.repeats)
            rows.append({"format": fmt, "algorithm": name, "ms": ms})
            print(f"{args.label} {fmt:8} {name:8} {ms:9.3f} ms", flush=True)
            save(args, sources, rows, complete=False)  # a run cut short keeps its rows
        built.clear()
    return save(args, sources, rows, complete=True)


def save(args, sources, rows, complete):
    """The record so far (written to ``args.out`` when given)."""
    record = {"label": args.label, "scale": args.scale, "renumber": args.renumber,
              "sources": sources, "complete": complete, "rows": rows}
    if args.out:
        Path(args.out).write_text(json.dumps(record, indent=1))
    return record


def compare(paths):
    """Per (format, algorithm) every record has: each record's ms, and the median of the later
    records over the median of the first half (records given as old ... new ...)."""
    records = [json.load(open(p)) for p in paths]
    half = len(records) // 2
    timed = [{(r["format"], r["algorithm"]): r["ms"] for r in rec["rows"]} for rec in records]
    for key in timed[0]:
        if not all(key in t for t in timed):  # a run cut short lacks its last rows
            continue
        ms = [t[key] for t in timed]
        old, new = statistics.median(ms[:half]), statistics.median(ms[half:])
        print(f"{key[0]:8} {key[1]:8} " + " ".join(f"{m:8.2f}" for m in ms)
              + f"   new/old {new / old:6.3f}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--sources", type=int, default=4)
    p.add_argument("--formats", nargs="+", default=["csr", "ef", "cgr", "fl"])
    p.add_argument("--algorithms", nargs="+", default=["bfs", "sssp", "pagerank", "wcc"])
    p.add_argument("--renumber", action="store_true",
                   help="build every graph with renumber=True (cuGraph's default path; ours "
                        "then in its default vertex order) instead of the generated ids")
    p.add_argument("--label", default="run")
    p.add_argument("--out", default=None)
    p.add_argument("--compare", nargs="+", default=None,
                   help="records to compare: the old ones first, then as many new ones")
    args = p.parse_args(argv)
    if args.compare:
        compare(args.compare)
        return 0
    measure(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
