#!/usr/bin/env python3
"""Where the time of one algorithm call goes: cProfile of a warm call on an R-MAT graph, per
layout, built with ``renumber=True`` and ``renumber=False`` (GPU only; CuPy calls that wait
for the device show up as their time), beside the call's median wall time.

    python3 benchmarks/profile_call.py --scale 24 --algorithm bfs --formats csr --top 30
"""
import argparse
import cProfile
import functools
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

import cupy as cp  # noqa: E402
import rmm  # noqa: E402

import cugraph_compressed as cgc  # noqa: E402
from cugraph_compressed.bench import simple_edges  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


def caller(G, algorithm, source):
    """The call to profile: ``algorithm`` on G (from ``source`` where it takes one)."""
    if algorithm in ("bfs", "sssp"):
        return functools.partial(getattr(cgc, algorithm), G, source)
    function = cgc.pagerank if algorithm == "pagerank" else cgc.weakly_connected_components
    return functools.partial(function, G)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=24)
    p.add_argument("--algorithm", default="bfs", choices=["bfs", "sssp", "pagerank", "wcc"])
    p.add_argument("--formats", nargs="+", default=["csr"])
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--top", type=int, default=30)
    args = p.parse_args(argv)
    rmm.reinitialize(pool_allocator=True)
    df = simple_edges(rmat_edgelist(args.scale, seed=42, weighted=True, backend="device"))
    source = int(df["source"].iloc[0])
    for fmt in args.formats:
        for renumber in (True, False):
            G = cgc.CompressedGraph(directed=args.algorithm != "wcc", format=fmt)
            G.from_cudf_edgelist(df, weight="weight", renumber=renumber,
                                 store_transposed=args.algorithm == "pagerank")
            call = caller(G, args.algorithm, source)
            call()
            times = []
            for _ in range(args.repeats):
                cp.cuda.runtime.deviceSynchronize()
                start = time.perf_counter()
                call()
                cp.cuda.runtime.deviceSynchronize()
                times.append(1e3 * (time.perf_counter() - start))
            profile = cProfile.Profile()
            profile.enable()
            call()
            cp.cuda.runtime.deviceSynchronize()
            profile.disable()
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
            print(f"== {fmt} {args.algorithm} renumber={renumber}: median "
                  f"{statistics.median(times):.2f} ms\n{out.getvalue()}", flush=True)
            del G, call


if __name__ == "__main__":
    main()
