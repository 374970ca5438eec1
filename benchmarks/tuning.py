#!/usr/bin/env python3
"""Time the algorithms on every layout under several values of one tuning knob of the device
kernels, beside cuGraph, on one R-MAT graph in one process (GPU only).

A knob is a module constant of ``cugraph_compressed.algorithms._device``:

- ``WARP_ITEM_RANKS``: lists of at least this many ranks are decoded by whole warps
  (``none``: every list by single threads);
- ``SORT_FRONTIERS_FROM``: frontiers at least this long are sorted by vertex id
  (``none``: never).

BFS and SSSP run on the directed graph, PageRank on it with ``store_transposed=True`` (pull
over in-lists), WCC on the undirected graph.  Example::

    python3 benchmarks/tuning.py --scale 24 --knob WARP_ITEM_RANKS --values none 256 1024
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

KNOBS = ("WARP_ITEM_RANKS", "SORT_FRONTIERS_FROM")
ALGORITHMS = ("bfs", "sssp", "pagerank", "wcc")
# What each algorithm runs on: (directed, store_transposed).
GRAPHS = {"bfs": (True, False), "sssp": (True, False), "pagerank": (True, True),
          "wcc": (False, False)}


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


def knob_value(text):
    return None if text.lower() == "none" else int(text)


def runner(library, name, graph, source):
    """A call of ``name`` on ``graph`` by cuGraph or this package (same signatures)."""
    if name == "bfs":
        return lambda: library.bfs(graph, source)
    if name == "sssp":
        return lambda: library.sssp(graph, source)
    if name == "pagerank":
        return lambda: library.pagerank(graph, tol=1e-8, max_iter=500)
    return lambda: library.weakly_connected_components(graph)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--knob", choices=KNOBS, default="WARP_ITEM_RANKS")
    p.add_argument("--values", type=knob_value, nargs="+", default=[None, 256, 1024],
                   help="knob values; 'none' switches the knob's pass off")
    p.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, default=list(ALGORITHMS))
    p.add_argument("--formats", nargs="+", default=sorted(cgc.supported()["bfs"]["device"]))
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    df = simple_edges(rmat_edgelist(args.scale, seed=42, weighted=True, backend="device"))
    source = int(df["source"].iloc[0])
    default = getattr(_device, args.knob)
    print(f"R-MAT {args.scale}, {len(df):,} edges, source {source}; median ms of {args.repeats}; "
          f"{args.knob} (default {default})", flush=True)

    def build(library, fmt, directed, transposed):
        kind = cugraph.Graph if library is cugraph else cgc.CompressedGraph
        extra = {} if library is cugraph else {"format": fmt}
        graph = kind(directed=directed, **extra)
        graph.from_cudf_edgelist(df, weight="weight", renumber=False,
                                 store_transposed=transposed)
        return graph

    theirs = {}
    for name in args.algorithms:
        graph = build(cugraph, None, *GRAPHS[name])
        theirs[name] = median_ms(runner(cugraph, name, graph, source), args.repeats)
        del graph
    print("cuGraph: " + ", ".join(f"{n} {t:.2f}" for n, t in theirs.items()), flush=True)
    print("format  alg       " + "  ".join(f"{str(v):>10}" for v in args.values), flush=True)
    try:
        for fmt in args.formats:
            graphs = {}  # one build per (directed, store_transposed) of this layout
            for name in args.algorithms:
                if GRAPHS[name] not in graphs:
                    graphs.clear()
                    graphs[GRAPHS[name]] = build(cgc, fmt, *GRAPHS[name])
                times = []
                for value in args.values:
                    setattr(_device, args.knob, value)
                    times.append(median_ms(runner(cgc, name, graphs[GRAPHS[name]], source),
                                           args.repeats))
                print(f"{fmt:6}  {name:8}  " + "  ".join(f"{t:10.2f}" for t in times), flush=True)
    finally:
        setattr(_device, args.knob, default)


if __name__ == "__main__":
    main()
