#!/usr/bin/env python3
"""Cost and effect of the transforms (UDT, graph combing, the virtual split strided and
contiguous) per layout, on the GPU or the host.

One process (on the device: an RMM pool, as in the main job).  For each graph, direction and
layout asked for, the original graph is built (weighted, ``renumber=False``), then each
transform of it; every row records:

* ``transform_ms``: the transform's wall time (UDT and comb: the split graph's streaming
  build; the virtual split: reading the degrees); ``nbytes`` (the transformed graph's),
  ``added_vertices``, ``added_edges``, ``added_bytes`` and ``added_bytes_by_placement``
  (``G.transform``), ``max_degree`` (the longest stored list);
* per algorithm (``bfs``, ``sssp`` from the vertex of most out-edges, ``pagerank`` at
  ``tol=1e-6``, ``wcc`` on undirected graphs): the median ms of ``--repeats`` synchronized
  calls after a warm-up (``bench.timing.time_calls``), and ``check``: whether the result on
  the original vertices equals the original graph's (BFS distances exactly, SSSP within
  1e-5 relative, PageRank L1 within 1e-5, WCC the same partition).  A failed check exits 1.

Graphs: ``rmat`` (Graph500 R-MAT), ``hubs`` (R-MAT plus 4 vertices each linked to a quarter
of the ids), ``powerlaw`` (a Chung-Lu graph with power-law expected degrees, exponent 2.1) and
``words``, a real heavy-tailed graph generated from data every Python install ships: the
word-adjacency graph of the standard library's sources (a vertex per distinct word, an edge
from each word to the next one in the same file; word frequencies follow Zipf's law, so the
degrees are heavy-tailed; test directories left out).  Its size does not depend on
``--scale``: about 54 k words and 1.4 M edges (largest out-degree 59 k) for CPython 3.11.

``--budget-s`` (default 480) bounds one invocation: once it is spent, the layouts and graphs
not yet started are skipped and listed under ``skipped`` in the JSON (a layout already started
finishes its transforms).  ``--graphs``, ``--formats``, ``--transforms``, ``--algorithms`` and
``--repeats`` trim it; at scale 24, one invocation per graph covers everything.

Run from the repository root::

    python benchmarks/transforms.py --scale 24 --graphs rmat --json $OUT/transforms-rmat.json
    python benchmarks/transforms.py --scale 12 --backend host --formats csr ef   # a CPU check
"""
import argparse
import json
import re
import sys
import sysconfig
import time
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
from cugraph_compressed.transforms import comb, udt, virtual_split  # noqa: E402

GRAPHS = ("rmat", "hubs", "powerlaw", "words")
ALGORITHMS = ("bfs", "sssp", "pagerank", "wcc")
TRANSFORMS = ("udt", "comb", "virtual", "virtual-contiguous")


def word_edges(seed):
    """The word-adjacency graph of the standard library's ``.py`` files (sorted paths, words
    by ``\\w+``, ids by first appearance, no edge from one file into the next), weighted like
    the others."""
    import pandas as pd

    pattern = re.compile(r"\w+")
    files = [pattern.findall(path.read_text(encoding="utf-8", errors="replace"))
             for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py"))
             if not {"test", "tests", "site-packages"} & set(path.parts)]
    ids, _ = pd.factorize(pd.Series([w for words in files for w in words], dtype=object))
    ids = ids.astype(np.int64)
    last = np.cumsum([len(words) for words in files]) - 1  # each file's last word
    keep = np.ones(max(ids.size - 1, 0), dtype=bool)
    keep[last[last < keep.size]] = False
    df = pd.DataFrame({"source": ids[:-1][keep], "destination": ids[1:][keep]})
    rng = np.random.default_rng(seed)
    df["weight"] = rng.random(len(df)).astype(np.float32) + np.float32(0.05)
    return df


def edges(name, scale, seed):
    """A weighted host edge frame (int64 ids below ``2**scale``, ``words``: its own ids) of
    graph ``name``."""
    import pandas as pd

    if name == "words":
        return word_edges(seed)
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


def call(G, algorithm, start):
    """The algorithm's call on G, what is timed: its frame, where the graph is."""
    if algorithm == "bfs":
        return cgc.bfs(G, start)
    if algorithm == "sssp":
        return cgc.sssp(G, start)
    if algorithm == "pagerank":
        return cgc.pagerank(G, tol=1e-6, max_iter=500)
    return cgc.weakly_connected_components(G)


def values(frame, algorithm):
    """The result column of a call's frame as a host array indexed by vertex (renumber=False
    graphs); not timed."""
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
        timing, (result,) = time_calls(env, lambda g, a=algorithm: call(g, a, start), G,
                                       [()], repeats, lambda r, a=algorithm: values(r, a))
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
    parser.add_argument("--transforms", nargs="+", default=list(TRANSFORMS), choices=TRANSFORMS)
    parser.add_argument("--degree-bound", type=int, default=8, help="UDT's K")
    parser.add_argument("--part-size", type=int, default=8, help="the virtual split's P")
    parser.add_argument("--comb", type=int, nargs=2, default=(64, 32),
                        metavar=("THRESHOLD", "WIDTH"))
    parser.add_argument("--undirected", action="store_true", help="also undirected graphs")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--backend", default="auto", choices=("auto", "device", "host"))
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--budget-s", type=float, default=480.0,
                        help="skip the remaining rows once this many seconds have passed")
    args = parser.parse_args(argv)

    backend, why = pick_backend(args.backend)
    env = Environment(backend)
    began = time.perf_counter()
    p = args.part_size
    every = {"udt": (f"udt-{args.degree_bound}",
                     lambda G: udt(G, degree_bound=args.degree_bound)),
             "comb": (f"comb-{args.comb[0]}-{args.comb[1]}",
                      lambda G: comb(G, threshold=args.comb[0], width=args.comb[1])),
             "virtual": (f"virtual-{p}", lambda G: virtual_split(G, part_size=p)),
             "virtual-contiguous": (f"virtual-{p}-contiguous",
                                    lambda G: virtual_split(G, part_size=p, coalesce=False))}
    transforms = dict(every[t] for t in args.transforms)
    record = {"device": env.device_name(), "backend": backend, "no_gpu_reason": why,
              "commit": git_commit(), "scale": args.scale, "budget_s": args.budget_s,
              "rows": [], "skipped": []}
    print(f"# {record['device']} ({backend}), R-MAT-sized graphs of scale {args.scale}")
    print(f"{'graph':9s} {'dir':5s} {'layout':6s} {'transform':20s} {'ms':>9s} {'nbytes':>13s} "
          f"{'+vertices':>10s} {'maxdeg':>8s}  " + "  ".join(f"{a:>12s}" for a in args.algorithms))
    failed = False
    for name in args.graphs:
        if record["rows"] and time.perf_counter() - began > args.budget_s:
            record["skipped"].append({"graph": name})
            continue
        frame = edges(name, args.scale, args.seed)
        start = int(np.bincount(frame["source"].to_numpy()).argmax())
        size = {"vertices": int(max(frame["source"].max(), frame["destination"].max())) + 1,
                "edges": len(frame)}
        if backend == "device":
            frame = env.cudf.from_pandas(frame)
        for directed in (True, False) if args.undirected else (True,):
            for fmt in args.formats:
                if time.perf_counter() - began > args.budget_s:
                    record["skipped"].append({"graph": name, "directed": directed,
                                              "layout": fmt})
                    continue
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
                    row = {"graph": name, **size, "directed": directed, "layout": fmt,
                           "transform": label, "transform_ms": round(seconds * 1e3, 3),
                           "nbytes": H.nbytes, "max_degree": max_degree(H),
                           "added_vertices": info.added_vertices if info else 0,
                           "added_edges": info.added_edges if info else 0,
                           "added_bytes": info.added_bytes if info else 0,
                           "added_bytes_by_placement":
                               info.added_bytes_by_placement if info else {},
                           "algorithms": timing}
                    record["rows"].append(row)
                    failed |= not all(t["check"] for t in timing.values())
                    cells = "  ".join(
                        f"{timing[a]['ms']:9.2f} {'ok' if timing[a]['check'] else 'NO'}"
                        if a in timing else f"{'-':>12s}" for a in args.algorithms)
                    print(f"{name:9s} {str(directed):5s} {fmt:6s} {label:20s} "
                          f"{row['transform_ms']:9.1f} {row['nbytes']:13,d} "
                          f"{row['added_vertices']:10,d} {row['max_degree']:8,d}  {cells}",
                          flush=True)
                del rows, G, H
                env.free()
    if record["skipped"]:
        print(f"# over the {args.budget_s:.0f} s budget, skipped: {record['skipped']}")
    if args.json:
        args.json.write_text(json.dumps(record, indent=1, default=to_host))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
