#!/usr/bin/env python3
"""Bytes per edge of every layout in both vertex orders (``vertex_order="sorted"`` and
``"degree"``), so the default order can be chosen with numbers.

For each scale one Graph500 R-MAT edge list is generated (``generators.rmat_edgelist``, edge
factor 16, scrambled ids, unweighted; on the GPU with ``--backend device``) and, for each graph
kind, every layout is built from it with ``renumber=True`` in each order:

* ``directed``: out-lists (what BFS and SSSP read);
* ``transposed``: directed, ``store_transposed=True`` (in-lists, what PageRank pulls over);
* ``undirected``: both directions stored (WCC, undirected BFS).

A row records the layout's structure bytes and bytes per stored edge (the layout's own buffers:
what the order changes), the graph's total bytes (renumber map and, for ``degree``, the
order's permutation included), every buffer's bytes, and the build's seconds (one build,
no repeats: timings here are indicative; the GPU benchmarks time algorithms).  Every degree
graph is checked against the sorted one: the same stored edge count and the same BFS distances
(in user ids) from one vertex with an out-edge; a failed check makes the exit status 1.

Run from the repository root.  On the CPU (the committed records)::

    python benchmarks/vertex_order.py --scales 16 17 18 \\
        --json benchmarks/results/vertex-order/cpu-rmat16-18-<commit>.json

On the GPU host (device graphs, R-MAT from cuGraph's generator, RMM pool)::

    python benchmarks/vertex_order.py --backend device --scales 20 22 24 \\
        --json benchmarks/results/vertex-order/h100-rmat20-24-<commit>.json

Algorithm times in each order, beside cuGraph, come from ``benchmarks/run.py --vertex-order
sorted|degree`` (``benchmarks/README.md``, "Vertex order").
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed import CompressedGraph, bfs  # noqa: E402
from cugraph_compressed.bench.environment import (  # noqa: E402
    Environment,
    git_commit,
    pick_backend,
    versions,
)
from cugraph_compressed.formats import FORMATS  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402

KINDS = {"directed": (True, False), "transposed": (True, True), "undirected": (False, False)}
ORDERS = ("sorted", "degree")


def build(env, edges, fmt, kind, order):
    """``(graph, seconds)``: one build of ``edges`` (a frame of the backend's library)."""
    directed, transposed = KINDS[kind]
    env.free()
    env.sync()
    start = time.perf_counter()
    G = CompressedGraph(directed=directed, format=fmt, vertex_order=order)
    if env.backend == "device":
        G.from_cudf_edgelist(edges, store_transposed=transposed)
    else:
        G.from_pandas_edgelist(edges, store_transposed=transposed)
    env.sync()
    return G, time.perf_counter() - start


def distances(G, start):
    frame = bfs(G, start)
    frame = frame.to_pandas() if hasattr(frame, "to_pandas") else frame
    return frame["vertex"].to_numpy(), frame["distance"].to_numpy()


def row(G, seconds, scale, kind, fmt, order):
    stored = G.number_of_edges(directed_edges=True)
    return {"scale": scale, "graph": kind, "format": fmt, "vertex_order": order,
            "vertices": G.number_of_vertices(), "stored_edges": stored,
            "structure_bytes": G.structure_nbytes,
            "structure_bytes_per_edge": G.structure_nbytes / max(stored, 1),
            "bytes": G.nbytes, "bytes_per_edge": G.nbytes / max(stored, 1),
            "components": G.nbytes_by_component(), "build_seconds": seconds}


def run(args):
    backend, why_not_gpu = pick_backend(args.backend)
    env = Environment(backend)
    gen = "device" if env.gen_backend == "device" else "host"
    record = {"benchmark": "vertex_order", "backend": backend, "device": env.device_name(),
              "no_gpu_reason": why_not_gpu, "commit": git_commit(), "versions": versions(),
              "rmat": {"edge_factor": args.edge_factor, "seed": args.seed, "generator": gen},
              "rows": [], "checks": []}
    ok = True
    for scale in args.scales:
        edges = rmat_edgelist(scale, args.edge_factor, seed=args.seed, backend=gen)
        if backend == "device" and gen == "host":
            edges = env.cudf.from_pandas(edges)
        elif backend == "host" and gen == "device":
            edges = edges.to_pandas()
        start = int(edges["source"].iloc[0])  # a vertex with an out-edge
        for kind in args.graphs:
            for fmt in args.formats:
                reference = None
                for order in ORDERS:
                    G, seconds = build(env, edges, fmt, kind, order)
                    record["rows"].append(row(G, seconds, scale, kind, fmt, order))
                    if kind != "transposed":  # BFS would re-encode a transposed graph
                        result = distances(G, start)
                        if reference is None:
                            reference = (G.number_of_edges(directed_edges=True), result)
                        else:
                            same = (reference[0] == G.number_of_edges(directed_edges=True)
                                    and all(np.array_equal(a, b)
                                            for a, b in zip(reference[1], result)))
                            record["checks"].append({"scale": scale, "graph": kind,
                                                     "format": fmt, "ok": bool(same)})
                            ok &= same
                    last = record["rows"][-1]
                    print(f"R-MAT {scale:2d} {kind:10s} {fmt:4s} {order:6s} "
                          f"{last['structure_bytes_per_edge']:6.3f} B/edge structure, "
                          f"{last['bytes_per_edge']:6.3f} B/edge total, "
                          f"build {seconds:7.2f} s", flush=True)
                    del G
        del edges
    record["ok"] = bool(ok)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(record, indent=1) + "\n")
    return 0 if ok else 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scales", type=int, nargs="+", default=[16, 17, 18])
    parser.add_argument("--edge-factor", type=int, default=16)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--formats", nargs="+", default=sorted(FORMATS),
                        choices=sorted(FORMATS))
    parser.add_argument("--graphs", nargs="+", default=list(KINDS), choices=list(KINDS))
    parser.add_argument("--backend", default="host", choices=["host", "device", "auto"])
    parser.add_argument("--json", type=Path, help="write the record here")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
