#!/usr/bin/env python3
"""Cost and effect of the transforms (UDT, graph combing) per layout, on the GPU or the host.

One process (on the device: an RMM pool, as in the main job).  For each graph, direction and
layout asked for, the original graph is built (weighted, ``renumber=False``), then each
transform of it; every row records:

* ``transform_ms``: the transform's wall time (the split graph's streaming build); ``nbytes``,
  ``added_vertices``, ``added_edges``, ``added_bytes`` (``G.transform``), ``max_degree`` (the
  longest stored list);
* per algorithm (``bfs``, ``sssp`` from the vertex of most out-edges, ``pagerank`` at
  ``tol=1e-6``, ``wcc`` on undirected graphs): the median ms of ``--repeats`` synchronized
  calls after a warm-up (``bench.timing.time_calls``), and ``check``: whether the result on
  the original vertices equals the original graph's (BFS distances exactly, SSSP within
  1e-5 relative, PageRank L1 within 1e-5, WCC the same partition).  A failed check exits 1.

Graphs: ``rmat`` (Graph500 R-MAT), ``hubs`` (R-MAT plus ``--hubs`` vertices each linked to a
quarter of the ids) and ``powerlaw`` (a Chung-Lu graph with power-law expected degrees,
exponent 2.1: a heavy-tailed graph generated here, since no real one ships at scale).

Run from the repository root::

    python benchmarks/transforms.py --scale 24 --json $OUT/transforms.json
    python benchmarks/transforms.py --scale 12 --backend host --formats csr ef   # a CPU check
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

import cugraph_compressed as cgc  # noqa: E402
from cugraph_compressed.bench.environment import (  # noqa: E402
    Environment,
    git_commit,
    pick_backend,
    to_host,
)
from cugraph_compressed.bench.timing import time_calls, timed  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402
from cugraph_compressed.graph_view import ANY  # noqa: E402
from cugraph_compressed.transforms import comb, udt  # noqa: E402

GRAPHS = ("rmat", "hubs", "powerlaw")
ALGORITHMS = ("bfs", "sssp", "pagerank", "wcc")


def edges(name, scale, seed):
    """A weighted host edge frame (int64 ids below ``2**scale``) of graph ``name``."""
    import pandas as pd

    n, m = 1 << scale, 16 << scale
    rng = np.random.default_rng(seed)
    if name == "powerlaw":
        weight = (np.arange(n) + 1.0) ** (-1 / (2.1 - 1))  # Chung-Lu, exponent 2.1
        p = weight / weight.sum()
        df = pd.DataFrame({"source": rng.choice(n, m, p=p), "destination": rng.choice(n, m, p=p)})
        df["weight"] = rng.random(m).astype(np.float32) + np.float32(0.05)
        return df
    df = rmat_edgelist(scale, seed=seed, weighted=True)
    if name == "hubs":
        hubs = rng.choice(n, 4, replace=False)
        spokes = [rng.choice(n, n // 4, replace=False) for _ in hubs]
        extra = pd.DataFrame({"source": np.concatenate([np.full(s.size, h)
                                                        for h, s in zip(hubs, spokes)]),
                              "destination": np.concatenate(spokes)})
        extra["weight"] = rng.random(len(extra)).astype(df["weight"].dtype) + 0.05
        df = pd.concat([df, extra.astype(df.dtypes.to_dict())], ignore_index=True)
    return df


def max_degree(G) -> int:
    layout = G.view().adjacency(ANY).layout
    degrees = layout.degrees() if G.backend == "host" else None
    if degrees is None:
        from cugraph_compressed._source import stored_degrees

        degrees = stored_degrees(layout, G.backend, G.traversal)
    return int(degrees.max()) if layout.num_vertices else 0


def results(G, algorithm, start):
    """The algorithm's result as host arrays indexed by vertex (renumber=False graphs)."""
    if algorithm == "bfs":
        frame = cgc.bfs(G, start)
    elif algorithm == "sssp":
        frame = cgc.sssp(G, start)
    elif algorithm == "pagerank":
        frame = cgc.pagerank(G, tol=1e-6, max_iter=500)
    else:
        frame = cgc.weakly_connected_components(G)
    frame = frame.to_pandas() if hasattr(frame, "to_pandas") else frame
    frame = frame.sort_values("vertex")
    column = {"bfs": "distance", "sssp": "distance", "pagerank": "pagerank", "wcc": "labels"}
    return frame[column[algorithm]].to_numpy()


def same(algorithm, mine, theirs) -> bool:
    if algorithm == "bfs":
        return bool(np.array_equal(mine, theirs))
    if algorithm == "sssp":
        return bool(np.allclose(mine, theirs, rtol=1e-5))
    if algorithm == "pagerank":
        return bool(np.abs(mine.astype(np.float64) - theirs.astype(np.float64)).sum() <= 1e-5)
    pairs = {(int(a), int(b)) for a, b in zip(mine, theirs)}
    return len(pairs) == len(set(mine.tolist())) == len(set(theirs.tolist()))


def measure(env, G, reference, algorithms, start, repeats):
    """``{algorithm: {"ms": ..., "check": ...}}`` of ``G``; ``reference`` holds the original
    graph's results (filled on the first call)."""
    out = {}
    for algorithm in algorithms:
        if algorithm == "wcc" and G.is_directed():
            continue
        timing, (result,) = time_calls(env, lambda g, a=algorithm: results(g, a, start), G,
                                       [()], repeats, lambda r: r)
        reference.setdefault(algorithm, result)
        out[algorithm] = {"ms": round(timing["ms"], 3),
                          "check": same(algorithm, result, reference[algorithm])}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--graphs", nargs="+", default=list(GRAPHS), choices=GRAPHS)
    parser.add_argument("--formats", nargs="+", default=sorted(cgc.FORMATS))
    parser.add_argument("--algorithms", nargs="+", default=list(ALGORITHMS), choices=ALGORITHMS)
    parser.add_argument("--degree-bound", type=int, default=8, help="UDT's K")
    parser.add_argument("--comb", type=int, nargs=2, default=(64, 32),
                        metavar=("THRESHOLD", "WIDTH"))
    parser.add_argument("--undirected", action="store_true", help="also undirected graphs")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--backend", default="auto", choices=("auto", "device", "host"))
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)

    backend, why = pick_backend(args.backend)
    env = Environment(backend)
    transforms = {f"udt-{args.degree_bound}": lambda G: udt(G, degree_bound=args.degree_bound),
                  f"comb-{args.comb[0]}-{args.comb[1]}":
                      lambda G: comb(G, threshold=args.comb[0], width=args.comb[1])}
    record = {"device": env.device_name(), "backend": backend, "no_gpu_reason": why,
              "commit": git_commit(), "scale": args.scale, "rows": []}
    print(f"# {record['device']} ({backend}), R-MAT-sized graphs of scale {args.scale}")
    print(f"{'graph':9s} {'dir':5s} {'layout':6s} {'transform':12s} {'ms':>9s} {'nbytes':>13s} "
          f"{'+vertices':>10s} {'maxdeg':>8s}  " + "  ".join(f"{a:>12s}" for a in args.algorithms))
    failed = False
    for name in args.graphs:
        frame = edges(name, args.scale, args.seed)
        start = int(np.bincount(frame["source"].to_numpy()).argmax())
        if backend == "device":
            frame = env.cudf.from_pandas(frame)
        for directed in (True, False) if args.undirected else (True,):
            for fmt in args.formats:
                G = cgc.CompressedGraph(directed=directed, format=fmt)
                build = (G.from_cudf_edgelist if backend == "device" else G.from_pandas_edgelist)
                build(frame, renumber=False, weight="weight")
                reference = {}
                rows = [("none", G, 0.0)]
                for label, transform in transforms.items():
                    T, seconds = timed(env, transform, G)
                    rows.append((label, T, seconds))
                for label, H, seconds in rows:
                    timing = measure(env, H, reference, args.algorithms, start, args.repeats)
                    info = H.transform if label != "none" else None
                    row = {"graph": name, "directed": directed, "layout": fmt,
                           "transform": label, "transform_ms": round(seconds * 1e3, 3),
                           "nbytes": H.nbytes, "max_degree": max_degree(H),
                           "added_vertices": info.added_vertices if info else 0,
                           "added_edges": info.added_edges if info else 0,
                           "added_bytes": info.added_bytes if info else 0,
                           "algorithms": timing}
                    record["rows"].append(row)
                    failed |= not all(t["check"] for t in timing.values())
                    cells = "  ".join(
                        f"{timing[a]['ms']:9.2f} {'ok' if timing[a]['check'] else 'NO'}"
                        if a in timing else f"{'-':>12s}" for a in args.algorithms)
                    print(f"{name:9s} {str(directed):5s} {fmt:6s} {label:12s} "
                          f"{row['transform_ms']:9.1f} {row['nbytes']:13,d} "
                          f"{row['added_vertices']:10,d} {row['max_degree']:8,d}  {cells}",
                          flush=True)
                del rows, G, H
                env.free()
    if args.json:
        args.json.write_text(json.dumps(record, indent=1, default=to_host))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
