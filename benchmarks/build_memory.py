#!/usr/bin/env python3
"""Peak memory and time of building a graph, per layout, on the host or the device backend.

Builds ``CompressedGraph(format=...)`` for every layout on two kinds of input and reports, per
build, its peak memory (host: the memory traced by ``tracemalloc``, through which NumPy and
pandas allocate; device, ``--backend device``: the peak of RMM's allocation statistics, through
which the build's CuPy and cuDF memory goes), the final graph included, the input frame made
before the count starts excluded; that peak per vertex and per edge, the graph's own bytes,
and the wall time of a second build:

* ``isolated``: two edges and ``vertices=pd.Series(np.arange(N))``, so almost every list is
  empty; the peak per vertex is what ``Layout.build_bytes_per_vertex`` records (measured with
  ``renumber=False``, the case it guards).  ``renumber=True`` is measured too.
* ``rmat``: a Graph500 R-MAT edge list (``cugraph_compressed.generators.rmat_edgelist``,
  ``renumber=False``), where the edges dominate.

Run from the repository root::

    python benchmarks/build_memory.py                      # N = 10**6 and 10**7, R-MAT scale 20
    python benchmarks/build_memory.py --backend device --vertices 10000000 100000000
    python benchmarks/build_memory.py --vertices 1000000 --rmat-scale 16 --formats ef cgr
    python benchmarks/build_memory.py --json benchmarks/results/build-memory.json
"""
import argparse
import gc
import json
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cugraph_compressed import CompressedGraph  # noqa: E402
from cugraph_compressed.formats import FORMATS  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


def build(fmt, df, *, directed, renumber, vertices):
    G = CompressedGraph(directed=directed, format=fmt)
    if isinstance(df, pd.DataFrame):
        return G.from_pandas_edgelist(df, renumber=renumber, vertices=vertices)
    return G.from_cudf_edgelist(df, renumber=renumber, vertices=vertices)


class Peak:
    """The peak bytes allocated inside ``with``: tracemalloc's on the host, RMM's on the device
    (then ``rmm.statistics`` must be enabled)."""

    def __init__(self, device):
        self.device = device

    def __enter__(self):
        gc.collect()
        if self.device:
            import rmm

            rmm.statistics.push_statistics()
        else:
            tracemalloc.start()
        return self

    def __exit__(self, *exc):
        if self.device:
            import cupy
            import rmm

            cupy.cuda.runtime.deviceSynchronize()
            self.bytes = int(rmm.statistics.pop_statistics().peak_bytes)
        else:
            self.bytes = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()


def measure(fmt, df, *, directed, renumber, vertices):
    """One counted build (peak bytes, graph bytes) and one uncounted build (seconds)."""
    device = not isinstance(df, pd.DataFrame)
    with Peak(device) as counted:
        graph = build(fmt, df, directed=directed, renumber=renumber, vertices=vertices)
    peak = counted.bytes
    num_vertices, num_edges = graph.number_of_vertices(), graph.number_of_edges(True)
    graph_bytes = graph.nbytes
    del graph
    gc.collect()
    start = time.perf_counter()
    build(fmt, df, directed=directed, renumber=renumber, vertices=vertices)
    if device:
        import cupy

        cupy.cuda.runtime.deviceSynchronize()
    seconds = time.perf_counter() - start
    return {"format": fmt, "vertices": num_vertices, "edges": num_edges,
            "directed": directed, "renumber": renumber, "peak_bytes": peak,
            "graph_bytes": graph_bytes,
            "peak_bytes_per_vertex": peak / max(num_vertices, 1),
            "peak_bytes_per_edge": peak / max(num_edges, 1), "seconds": seconds}


def inputs(args):
    """(name, edge frame, build keywords) of every measured input."""
    if args.backend == "device":
        import cudf

        frame, series = cudf.from_pandas, cudf.Series
    else:
        frame, series = (lambda x: x), pd.Series
    two = frame(pd.DataFrame({"source": np.array([0, 1], dtype=np.int64),
                              "destination": np.array([1, 2], dtype=np.int64)}))
    for n in args.vertices:
        vertices = series(np.arange(n, dtype=np.int64))
        for renumber in (False, True):
            yield "isolated", two, dict(directed=True, renumber=renumber, vertices=vertices)
    if args.rmat_scale:
        rmat = rmat_edgelist(args.rmat_scale, seed=42, backend=args.backend)
        for directed in (True, False):
            yield "rmat", rmat, dict(directed=directed, renumber=False, vertices=None)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vertices", type=int, nargs="*", default=[10**6, 10**7],
                        help="vertex counts of the isolated-vertex inputs")
    parser.add_argument("--rmat-scale", type=int, default=20, help="R-MAT scale (0: none)")
    parser.add_argument("--formats", nargs="*", default=sorted(FORMATS))
    parser.add_argument("--backend", choices=("host", "device"), default="host")
    parser.add_argument("--json", type=Path, help="also write the records here")
    args = parser.parse_args(argv)
    if args.backend == "device":
        import rmm

        rmm.statistics.enable_statistics()
    records = []
    header = (f"{'input':9} {'fmt':4} {'dir':>3} {'ren':>3} {'vertices':>11} {'edges':>11} "
              f"{'peak MB':>9} {'B/vertex':>9} {'B/edge':>9} {'graph MB':>9} {'seconds':>8}")
    print(header)
    for name, df, kwargs in inputs(args):
        for fmt in args.formats:
            r = {"input": name, **measure(fmt, df, **kwargs)}
            records.append(r)
            print(f"{name:9} {fmt:4} {'d' if r['directed'] else 'u':>3} "
                  f"{'y' if r['renumber'] else 'n':>3} {r['vertices']:11,} {r['edges']:11,} "
                  f"{r['peak_bytes'] / 1e6:9.1f} {r['peak_bytes_per_vertex']:9.1f} "
                  f"{r['peak_bytes_per_edge']:9.1f} {r['graph_bytes'] / 1e6:9.1f} "
                  f"{r['seconds']:8.3f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n")


if __name__ == "__main__":
    main()
