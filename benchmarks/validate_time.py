"""Time ``Layout.validate()`` of every layout on the host (NumPy) for an R-MAT graph.

The graph is Graph500 R-MAT (``generators.rmat_edgelist``, directed, self loops and parallel
edges removed), encoded once per layout with the host encoder; ``validate()`` then runs
``--repeat`` times and the best time is printed, with the peak of the Python heap it
allocated (tracemalloc: NumPy reports its buffers there).

Usage: ``python benchmarks/validate_time.py --scale 20 [--layouts csr fl ef cgr]``
"""
from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from cugraph_compressed.formats import layout_class
from cugraph_compressed.generators import rmat_edgelist


def sorted_edges(scale: int):
    """``(src, dst, n)``: the R-MAT edges sorted by (src, dst), deduplicated, no self loops."""
    frame = rmat_edgelist(scale)
    src = frame["source"].to_numpy().astype(np.int64)
    dst = frame["destination"].to_numpy().astype(np.int64)
    keep = src != dst
    key = np.unique((src[keep] << 32) | dst[keep])
    n = 1 << scale
    return (key >> 32).astype(np.int32), (key & 0xFFFFFFFF).astype(np.int32), n


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--layouts", nargs="+", default=["csr", "fl", "ef", "cgr"])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    src, dst, n = sorted_edges(args.scale)
    print(f"R-MAT {args.scale}: {n} vertices, {src.size} edges")
    for name in args.layouts:
        layout = layout_class(name).encode(src, dst, n, np)
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            layout.validate()
            best = min(best, time.perf_counter() - start)
        tracemalloc.start()
        layout.validate()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{name:>4}: validate {best:8.3f} s, peak {peak / 2**20:8.1f} MiB "
              f"({layout.nbytes / 2**20:.1f} MiB layout)", flush=True)


if __name__ == "__main__":
    main()
