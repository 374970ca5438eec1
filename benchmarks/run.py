#!/usr/bin/env python3
"""Benchmark cuGraph and every compressed layout on Graph500 R-MAT graphs; see README.md.

A thin command line over :mod:`cugraph_compressed.bench`: prints the table and writes the
full record as JSON (default ``benchmarks/results/<device>-<date>.json``).
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed import bench  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scales", type=int, nargs="+", default=[22, 24], help="R-MAT scales (22 24)")
    p.add_argument("--directed", action="store_true", help="directed graphs (the default)")
    p.add_argument("--undirected", action="store_true",
                   help="undirected graphs (with --directed: both)")
    p.add_argument("--algorithms", nargs="+", default=list(bench.SPECS), choices=list(bench.SPECS),
                   help=f"algorithms to time (all: {' '.join(bench.SPECS)})")
    p.add_argument("--formats", nargs="+", default=None, help="layouts (default: all)")
    p.add_argument("--repeats", type=int, default=5, help="timed runs per source (5)")
    p.add_argument("--encode-repeats", type=int, default=3, help="timed builds (3)")
    p.add_argument("--sources", type=int, default=4, help="BFS/SSSP start vertices per graph (4)")
    p.add_argument("--edge-factor", type=int, default=16)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--backend", choices=("auto", "device", "host"), default="auto")
    p.add_argument("--no-cugraph", action="store_true", help="leave cuGraph out")
    p.add_argument("--cugraph-renumber-false", action="store_true",
                   help="also time cuGraph built with renumber=False (the baseline and every "
                        "contender build with renumber=True)")
    p.add_argument("--vertex-order", choices=("sorted", "degree"), default="degree",
                   help="our graphs' internal vertex order (degree: the library's default)")
    p.add_argument("--placements", nargs="+", choices=("device", "host", "auto"),
                   default=["device"],
                   help="measure each layout in these placements (device); auto graphs are "
                        "always in degree order, built in host placement and moved to auto "
                        "(the move counts in their build time)")
    p.add_argument("--auto-share", type=float, default=bench.AUTO_SHARE, metavar="F",
                   help="auto placement: the budget leaves room on the GPU for this share of "
                        "each graph's per-edge bytes (payload and edge properties), beside its "
                        f"per-vertex arrays and algorithm state; 0 < F < 1 ({bench.AUTO_SHARE})")
    p.add_argument("--directed-bottom-up", action="store_true",
                   help="also time each layout's BFS on directed graphs going bottom-up over "
                        "in-lists kept beside its out-lists (TraversalConfig("
                        "directed_bottom_up=True)), a '+bottom-up' row whose build makes both")
    p.add_argument("--no-reads", action="store_true",
                   help="do not count the lines and bytes each run reads (counted by default, "
                        "outside the timed calls)")
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help="start no build or algorithm after this many seconds (their rows say "
                        "so): one invocation ends within a command's limit")
    p.add_argument("--plot", default=None, metavar="PNG",
                   help="also draw the record as a PNG (needs matplotlib)")
    p.add_argument("--out", default=None,
                   help="JSON path (default benchmarks/results/<device>-<date>.json)")
    p.add_argument("--git-commit", default=None,
                   help="commit to record (default: $GIT_COMMIT, else git rev-parse HEAD)")
    args = p.parse_args(argv)
    try:
        bench.check_auto_share(args.auto_share)
    except ValueError as exc:
        p.error(str(exc))
    if args.plot:
        bench.require_matplotlib()  # before the run, not after it

    directed = [True] if not args.undirected else ([True, False] if args.directed else [False])

    def json_path(record):
        return args.out or bench.default_json_path(record, ROOT / "benchmarks" / "results")

    def checkpoint(record):  # the record so far, rewritten after every graph
        bench.write_json(record, json_path(record))

    record = bench.run_benchmark(
        args.scales, directed=directed, algorithms=args.algorithms, formats=args.formats,
        repeats=args.repeats, encode_repeats=args.encode_repeats, num_sources=args.sources,
        edge_factor=args.edge_factor, seed=args.seed, backend=args.backend,
        with_cugraph=not args.no_cugraph, cugraph_renumber_false=args.cugraph_renumber_false,
        vertex_order=args.vertex_order, placements=args.placements, auto_share=args.auto_share,
        directed_bottom_up=args.directed_bottom_up,
        count_reads=not args.no_reads, time_limit_s=args.time_limit,
        git_commit=args.git_commit, checkpoint=checkpoint)
    print(f"{record['device']} ({record['backend']}), commit {record['git_commit']}, "
          f"{record['timestamp']}")
    print("\n".join(bench.describe_graphs(record)))
    print(bench.format_sizes(record))
    print(bench.format_table(record))
    if reads := bench.format_reads(record):
        print("reads of the per-edge buffers (host/auto placements; x bound: time / "
              "max(lines / 49 M/s, bytes / 51 GB/s), target <= 1.5):")
        print(reads)
    print(f"wrote {bench.write_json(record, json_path(record))}")
    if args.plot:
        print(f"wrote {bench.plot_record(record, args.plot)}")
    return 1 if any(r.get("check") == "MISMATCH" for r in record["results"]) else 0


if __name__ == "__main__":
    sys.exit(main())
