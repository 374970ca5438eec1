#!/usr/bin/env python3
"""Where the time of one graph build goes: cProfile of ``from_cudf_edgelist`` (or
``from_pandas_edgelist`` with ``--backend host``) on an R-MAT graph, per layout, sorted by
cumulative time.  Device builds run on an RMM pool (as in the benchmarks); run them with
``CUDA_LAUNCH_BLOCKING=1`` so every launch waits for its kernel and the device time lands in
the Python call that launched it, not in the next one that synchronizes.

    CUDA_LAUNCH_BLOCKING=1 python3 benchmarks/profile_build.py --scale 22 --formats ef cgr
    CUDA_LAUNCH_BLOCKING=1 python3 benchmarks/profile_build.py --scale 26 --chunks --budget 16e9
    # the benchmark's own build: weighted, renumbered, default working budget
    python3 benchmarks/profile_build.py --scale 26 --formats csr ef --weighted --renumber
"""
import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed import CompressedGraph  # noqa: E402
from cugraph_compressed.generators import rmat_chunks, rmat_edgelist  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--formats", nargs="+", default=["ef", "cgr"])
    p.add_argument("--backend", choices=("host", "device"), default="device")
    p.add_argument("--undirected", action="store_true")
    p.add_argument("--chunks", action="store_true",
                   help="build from rmat_chunks (made once, kept) with from_edge_chunks")
    p.add_argument("--budget", type=float, help="memory_budget in bytes (chunked builds)")
    p.add_argument("--weighted", action="store_true", help="a weight column, as the "
                                                            "benchmark's SSSP graph")
    p.add_argument("--renumber", action="store_true",
                   help="renumber=True, the benchmark's and cuGraph's default (off: ids as "
                        "given)")
    p.add_argument("--top", type=int, default=40)
    args = p.parse_args(argv)
    budget = None if args.budget is None else int(args.budget)
    if args.backend == "device":
        import cupy
        import rmm
        from rmm.allocators.cupy import rmm_cupy_allocator

        rmm.reinitialize(pool_allocator=True)
        cupy.cuda.set_allocator(rmm_cupy_allocator)
    if args.chunks:
        df = list(rmat_chunks(args.scale, seed=42, weighted=args.weighted,
                              backend=args.backend))
    else:
        df = rmat_edgelist(args.scale, seed=42, weighted=args.weighted, backend=args.backend)
    kw = {"renumber": args.renumber, "weight": "weight" if args.weighted else None}

    def build(fmt):
        G = CompressedGraph(directed=not args.undirected, format=fmt)
        if args.chunks:
            G.from_edge_chunks(df, memory_budget=budget, **kw)
        elif args.backend == "device":
            G.from_cudf_edgelist(df, **kw)
        else:
            G.from_pandas_edgelist(df, **kw)
        if args.backend == "device":
            import cupy

            cupy.cuda.runtime.deviceSynchronize()
        return G

    for fmt in args.formats:
        build(fmt)  # warm-up: kernels compiled, pools filled
        start = time.perf_counter()
        build(fmt)
        seconds = time.perf_counter() - start
        profile = cProfile.Profile()
        profile.enable()
        G = build(fmt)
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
        stats = G.build_stats
        print(f"== {fmt}: build {seconds:.3f} s (unprofiled), {stats.get('passes')} passes, "
              f"{stats.get('ranges')} ranges\n{out.getvalue()}", flush=True)


if __name__ == "__main__":
    main()
