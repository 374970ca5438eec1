#!/usr/bin/env python3
"""Build peak memory and time on the GPU, ours beside cuGraph's, measured one way for both.

Every build runs in one process on an RMM pool under a statistics adaptor; the input (one cuDF
frame, or a list of cuDF chunks) is allocated before the count starts; counters are pushed
right before the build call and popped right after it, so a row's ``build_peak_bytes`` is the
most the build held at once, the graph it returns included.  ``seconds`` is the wall time of
that same call (synchronized).  Contenders:

* ``cugraph``: ``cugraph.Graph(directed=...).from_cudf_edgelist(frame, renumber=...)``, one
  frame only (it takes no chunks); where it runs out of memory, that is its row.
* ``<format>``: ``CompressedGraph(format=...)`` from the one frame (``from_cudf_edgelist``) or
  from the chunks (``from_edge_chunks``) with ``--budget`` (default: the product's).

Inputs are Graph500 R-MAT edges: ``generators.rmat_edgelist`` (one frame) and
``generators.rmat_chunks`` (chunks of ``--chunk-edges``), unweighted, made on the GPU.

Run from the repository root on a GPU host::

    python benchmarks/streaming_build.py --scales 24 --json build.json
    python benchmarks/streaming_build.py --scales 26 --inputs chunks --no-renumber --budget 8e9
"""
import argparse
import gc
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed import CompressedGraph  # noqa: E402
from cugraph_compressed.bench.environment import git_commit  # noqa: E402
from cugraph_compressed.formats import FORMATS  # noqa: E402
from cugraph_compressed.generators import rmat_chunks, rmat_edgelist  # noqa: E402


def counted(build):
    """``(result or the MemoryError, peak bytes, seconds)`` of ``build()``."""
    import cupy
    import rmm

    gc.collect()
    cupy.cuda.runtime.deviceSynchronize()
    rmm.statistics.push_statistics()
    start = time.perf_counter()
    try:
        result = build()
        cupy.cuda.runtime.deviceSynchronize()
    except (MemoryError, RuntimeError) as exc:  # cuGraph's C API reports bad_alloc as RuntimeError
        if not isinstance(exc, MemoryError) and "out_of_memory" not in str(exc):
            raise
        result = MemoryError(str(exc))
    seconds = time.perf_counter() - start
    peak = int(rmm.statistics.pop_statistics().peak_bytes)
    return result, peak, seconds


def builder(contender, kind, data, direction, renumber, budget):
    """The build call of one contender, as a function of no arguments."""
    directed = direction == "directed"

    def build():
        if contender == "cugraph":
            import cugraph

            g = cugraph.Graph(directed=directed)
            g.from_cudf_edgelist(data, "source", "destination", renumber=renumber)
            return g
        G = CompressedGraph(directed=directed, format=contender)
        if kind == "frame":
            return G.from_cudf_edgelist(data, renumber=renumber)
        return G.from_edge_chunks(data, renumber=renumber, memory_budget=budget)

    return build


def row(contender, graph, peak, seconds, **info):
    out = {"contender": contender, **info, "build_peak_bytes": peak, "seconds": seconds}
    if isinstance(graph, MemoryError):
        return {**out, "out_of_memory": str(graph)[:200]}
    if hasattr(graph, "nbytes"):  # ours
        out.update(graph_bytes=graph.nbytes, vertices=graph.number_of_vertices(),
                   stored_edges=graph.number_of_edges(True), **graph.build_stats)
    else:
        out.update(vertices=int(graph.number_of_vertices()),
                   stored_edges=int(graph.number_of_edges(directed_edges=True)))
    out["input_edges_per_second"] = info["input_edges"] / seconds
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scales", type=int, nargs="+", default=[24])
    parser.add_argument("--edge-factor", type=int, default=16)
    parser.add_argument("--formats", nargs="*", default=sorted(FORMATS))
    parser.add_argument("--directions", nargs="+", default=["directed", "undirected"],
                        choices=["directed", "undirected"])
    parser.add_argument("--inputs", nargs="+", default=["frame", "chunks"],
                        choices=["frame", "chunks"])
    parser.add_argument("--chunk-edges", type=int, default=1 << 24)
    parser.add_argument("--budget", type=float, help="memory_budget in bytes for chunked builds")
    parser.add_argument("--no-renumber", action="store_true", help="renumber=False, both sides")
    parser.add_argument("--no-cugraph", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the records here")
    args = parser.parse_args(argv)

    import rmm

    rmm.reinitialize(pool_allocator=True)
    rmm.statistics.enable_statistics()
    renumber = not args.no_renumber
    budget = None if args.budget is None else int(args.budget)
    records = []

    def report(r):
        records.append(r)
        gb = r["build_peak_bytes"] / 1e9
        tail = ("OOM" if "out_of_memory" in r else
                f"{r['seconds']:7.2f} s {r['input_edges_per_second'] / 1e9:6.2f} G/s"
                + (f" graph {r['graph_bytes'] / 1e9:6.2f} GB ranges {r.get('ranges')}"
                   if "graph_bytes" in r else ""))
        print(f"scale {r['scale']} {r['direction']:10} {r['input']:6} {r['contender']:8} "
              f"peak {gb:7.2f} GB  {tail}", flush=True)
        if args.json:
            args.json.write_text(json.dumps(records, indent=1) + "\n")

    # One untimed build per contender and input kind on a small graph first: CuPy compiles its
    # elementwise kernels on first use (seconds on a fresh machine), which is no build's cost.
    warm = {"frame": rmat_edgelist(12, args.edge_factor, seed=1, backend="device"),
            "chunks": list(rmat_chunks(12, args.edge_factor, seed=1, backend="device",
                                       chunk_edges=1 << 14))}
    for kind in args.inputs:
        for direction in args.directions:
            contenders = [] if kind == "chunks" or args.no_cugraph else ["cugraph"]
            for contender in contenders + args.formats:
                counted(builder(contender, kind, warm[kind], direction, renumber, 1 << 20))
    del warm

    for scale in args.scales:
        for kind in args.inputs:
            start = time.perf_counter()
            if kind == "frame":
                data = rmat_edgelist(scale, args.edge_factor, seed=42, backend="device")
            else:
                data = list(rmat_chunks(scale, args.edge_factor, seed=42, backend="device",
                                        chunk_edges=args.chunk_edges))
            made = time.perf_counter() - start
            edges = len(data) if kind == "frame" else sum(len(c) for c in data)
            info = dict(scale=scale, input=kind, input_edges=edges, renumber=renumber,
                        budget=budget if kind == "chunks" else None,
                        input_seconds=made, commit=git_commit())
            for direction in args.directions:
                info["direction"] = direction
                contenders = [] if kind == "chunks" or args.no_cugraph else ["cugraph"]
                for contender in contenders + args.formats:
                    report(row(contender, *counted(builder(contender, kind, data, direction,
                                                           renumber, budget)), **info))
            del data
            gc.collect()


if __name__ == "__main__":
    main()
