#!/usr/bin/env python3
"""Where the time of one graph build goes: cProfile of ``from_cudf_edgelist`` (or
``from_pandas_edgelist`` with ``--backend host``) on an R-MAT graph, per layout, sorted by
cumulative time.  On the GPU each CuPy call that waits for the device shows up as time in it.

    python3 benchmarks/profile_build.py --scale 22 --formats ef cgr --top 40
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
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--formats", nargs="+", default=["ef", "cgr"])
    p.add_argument("--backend", choices=("host", "device"), default="device")
    p.add_argument("--undirected", action="store_true")
    p.add_argument("--top", type=int, default=40)
    args = p.parse_args(argv)
    df = rmat_edgelist(args.scale, seed=42, backend=args.backend)

    def build(fmt):
        G = CompressedGraph(directed=not args.undirected, format=fmt)
        if args.backend == "device":
            G.from_cudf_edgelist(df, renumber=False)
            import cupy

            cupy.cuda.runtime.deviceSynchronize()
        else:
            G.from_pandas_edgelist(df, renumber=False)
        return G

    for fmt in args.formats:
        build(fmt)  # warm-up: kernels compiled, pools filled
        start = time.perf_counter()
        build(fmt)
        seconds = time.perf_counter() - start
        profile = cProfile.Profile()
        profile.enable()
        build(fmt)
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(f"== {fmt}: build {seconds:.3f} s (unprofiled)\n{out.getvalue()}", flush=True)


if __name__ == "__main__":
    main()
