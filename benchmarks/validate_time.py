"""Time ``Layout.validate()`` of every layout for an R-MAT graph, on the host or the GPU.

The graph is Graph500 R-MAT (``generators.rmat_edgelist``, directed, self loops and parallel
edges removed), encoded once per layout by the host encoder (NumPy) or, with ``--backend
device``, by the GPU encoder (CuPy, the layout in GPU memory, where ``validate()`` runs its
device checks: the ``cgr`` lists by the ``cgr_check_lists`` kernel).  ``validate()`` then runs
``--repeat`` times and the best time is printed, with the peak of what one more call allocates:
the Python heap on the host (tracemalloc: NumPy reports its buffers there), RMM's statistics on
the GPU (CuPy routed to an RMM pool).

Usage: ``python benchmarks/validate_time.py --scale 20 [--formats csr fl ef cgr]
[--backend device]``
"""
from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed._backend import allocations  # noqa: E402
from cugraph_compressed.formats import layout_class  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


def sorted_edges(scale: int):
    """``(src, dst, n)``: the R-MAT edges sorted by (src, dst), deduplicated, no self loops."""
    frame = rmat_edgelist(scale)
    src = frame["source"].to_numpy().astype(np.int64)
    dst = frame["destination"].to_numpy().astype(np.int64)
    keep = src != dst
    key = np.unique((src[keep] << 32) | dst[keep])
    n = 1 << scale
    return (key >> 32).astype(np.int32), (key & 0xFFFFFFFF).astype(np.int32), n


def timed(call, device: bool):
    """``(seconds, peak bytes)`` of ``call()``: synchronized and counted by RMM on the GPU."""
    if device:
        import cupy
        import rmm

        cupy.cuda.runtime.deviceSynchronize()
        rmm.statistics.push_statistics()
        start = time.perf_counter()
        with allocations("device"):
            call()
        cupy.cuda.runtime.deviceSynchronize()
        seconds = time.perf_counter() - start
        return seconds, int(rmm.statistics.pop_statistics().peak_bytes)
    tracemalloc.start()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--formats", "--layouts", dest="formats", nargs="+",
                        default=["csr", "fl", "ef", "cgr"])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--backend", choices=["host", "device"], default="host")
    args = parser.parse_args(argv)
    device = args.backend == "device"
    xp = np
    if device:
        import cupy as xp
        import rmm

        rmm.reinitialize(pool_allocator=True)
        rmm.statistics.enable_statistics()
    src, dst, n = sorted_edges(args.scale)
    print(f"R-MAT {args.scale}: {n} vertices, {src.size} edges, validate on the {args.backend}")
    src, dst = xp.asarray(src), xp.asarray(dst)
    for name in args.formats:
        with allocations(args.backend):
            layout = layout_class(name).encode(src, dst, n, xp)
        best = min(timed(layout.validate, device)[0] for _ in range(args.repeat))
        _, peak = timed(layout.validate, device)
        print(f"{name:>4}: validate {best:8.3f} s, peak {peak / 2**20:8.1f} MiB "
              f"({layout.nbytes / 2**20:.1f} MiB layout)", flush=True)
        del layout


if __name__ == "__main__":
    main()
