#!/usr/bin/env python3
"""Does sorting long frontiers by vertex id pay?  BFS and SSSP on every layout with frontiers
left in discovery order and sorted from several lengths up, beside cuGraph, on one R-MAT graph
(GPU only).  The package's default is ``algorithms._device.SORT_FRONTIERS_FROM``.

    python3 benchmarks/frontier_order.py --scale 24 --repeats 3
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

import cupy as cp  # noqa: E402
import cugraph  # noqa: E402

import cugraph_compressed as cgc  # noqa: E402
from cugraph_compressed.algorithms import _device  # noqa: E402
from cugraph_compressed.benchmark import simple_edges  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


def median_ms(fn, repeats):
    fn()  # compile and warm up
    times = []
    for _ in range(repeats):
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        fn()
        cp.cuda.Device().synchronize()
        times.append(1e3 * (time.perf_counter() - t0))
    return statistics.median(times)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--undirected", action="store_true")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--thresholds", type=int, nargs="+", default=[1 << 12, 1 << 16])
    p.add_argument("--formats", nargs="+", default=sorted(cgc.supported()["bfs"]["device"]))
    args = p.parse_args(argv)
    directed = not args.undirected
    df = simple_edges(rmat_edgelist(args.scale, seed=42, weighted=True, backend="device"))
    source = int(df["source"].iloc[0])
    theirs = cugraph.Graph(directed=directed)
    theirs.from_cudf_edgelist(df, weight="weight", renumber=False)
    print(f"R-MAT {args.scale} {'directed' if directed else 'undirected'}, {len(df):,} edges, "
          f"source {source}; median ms of {args.repeats}")
    print(f"cuGraph: bfs {median_ms(lambda: cugraph.bfs(theirs, source), args.repeats):.2f}, "
          f"sssp {median_ms(lambda: cugraph.sssp(theirs, source), args.repeats):.2f}")
    settings = [None, *args.thresholds]
    print("format  alg   " + "  ".join(f"{'unsorted' if s is None else f'sorted>={s}':>14}" for s in settings))
    for fmt in args.formats:
        G = cgc.CompressedGraph(directed=directed, format=fmt).from_cudf_edgelist(
            df, weight="weight", renumber=False)
        for name, alg in (("bfs", cgc.bfs), ("sssp", cgc.sssp)):
            times = []
            for setting in settings:
                _device.SORT_FRONTIERS_FROM = setting
                times.append(median_ms(lambda: alg(G, source), args.repeats))
            print(f"{fmt:6}  {name:4}  " + "  ".join(f"{t:14.2f}" for t in times))


if __name__ == "__main__":
    main()
