#!/usr/bin/env python3
"""Placement at R-MAT 26: every layout in device, host and auto placement beside cuGraph
(``renumber=True``), directed (BFS, SSSP, PageRank) and undirected (the same and WCC), split
into parts that each end within one 540 s command.

One part is one layout, one placement and one directedness (``run.py`` underneath) beside
cuGraph, whose results each row is checked against; on undirected R-MAT 26 cuGraph runs out
of memory on an H100 (its row), and a part's rows are then checked against nothing but
themselves (``checked_against`` names the row itself): their reference is the GPU tests.
Per part, measured (H100): a weighted R-MAT 26 build takes 70 s directed and 175-195 s
undirected (``ef``) under the default working budget, the transposed one 27 s;
host-placed SSSP on ``ef`` takes 10 s a source directed.  So device, host and auto of one
layout in one process did not fit a command: the undirected ``ef`` part with all three ran
out of its 470 s after the device rows.  Each graph is built once (``--encode-repeats 0``: the
warm-up build is the timed one), 2 sources directed and 1 undirected x 2 repeats;
``--time-limit`` (default 480 s) stops starting anything after that, and the rows left out
say so.

    python benchmarks/placement_runs.py --list
    python benchmarks/placement_runs.py --part 1 --out-dir $OUT     # 1 .. 24
    # one part per layout and directedness (8 for the four layouts); cgr's two:
    python benchmarks/placement_runs.py --together --formats cgr --list
    python benchmarks/placement_runs.py --plot $OUT/*.json --png benchmarks/results/placement/x.png

Each part writes ``<out-dir>/<part name>.json`` (rewritten after each graph) and its log lines
on standard error; ``--plot`` draws the parts' records into one PNG (needs matplotlib).
"""
import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cugraph_compressed.bench.specs import CUGRAPH  # noqa: E402  (after the path set-up)

LAYOUTS = ("csr", "fl", "ef", "cgr")
SCALE = 26


def parts(placements, auto_share=0.5, together=False, formats=LAYOUTS):
    """``[(name, run.py arguments)]``: directed parts, then undirected ones; one layout and one
    placement each (a weighted R-MAT 26 build alone took up to 195 s under the default
    working budget before the property gather ran on the GPU), or with ``together`` one
    layout in every placement of ``placements``; each part beside cuGraph, whose results every
    row is checked against."""
    out = []
    groups = [list(placements)] if together else [[p] for p in placements]
    for directed in (True, False):
        direction = "dir" if directed else "undir"
        for fmt in formats:
            for group in groups:
                # Undirected SSSP on host placement costs twice the directed one: one source.
                args = ["--scales", str(SCALE), "--directed" if directed else "--undirected",
                        "--formats", fmt, "--placements", *group,
                        "--auto-share", str(auto_share), "--backend", "device",
                        "--repeats", "2", "--sources", "2" if directed else "1",
                        "--encode-repeats", "0"]
                out.append((f"rmat{SCALE}-{direction}-{fmt}-{'-'.join(group)}", args))
    return out


def merged(paths):
    """One record of several parts' records: the first one's header, every graph, every row of
    ours, and cuGraph's rows from the first part that has them (every part times cuGraph)."""
    records = [json.loads(Path(p).read_text()) for p in paths]
    record = dict(records[0])
    record["graphs"], record["results"], seen, baseline = [], [], set(), set()
    for r in records:
        for g in r["graphs"]:
            if (g["scale"], g["directed"]) not in seen:
                seen.add((g["scale"], g["directed"]))
                record["graphs"].append(g)
        for row in r["results"]:
            key = (row["scale"], row["directed"], row["graph"], row["algorithm"], row["format"])
            if row["contender"] == CUGRAPH:
                if key in baseline:
                    continue
                baseline.add(key)
            record["results"].append(row)
    record["settings"] = dict(record["settings"], formats=list(dict.fromkeys(
        f for r in records for f in r["settings"]["formats"])))
    return record


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--list", action="store_true", help="print the parts and exit")
    p.add_argument("--part", type=int, help="the part to run, 1-based")
    p.add_argument("--placements", nargs="+", default=["device", "host", "auto"],
                   choices=("device", "host", "auto"), help="(device host auto)")
    p.add_argument("--auto-share", type=float, default=0.5, metavar="F",
                   help="run.py --auto-share: the share of each auto graph's per-edge bytes "
                        "kept on the GPU (0.5)")
    p.add_argument("--together", action="store_true",
                   help="one part per layout and directedness with every placement, instead "
                        "of one per placement: a third of the parts, each building its "
                        "layout once per placement but generating the input and building "
                        "cuGraph once")
    p.add_argument("--formats", nargs="+", default=list(LAYOUTS), choices=LAYOUTS,
                   help="the layouts of the plan (csr fl ef cgr)")
    p.add_argument("--time-limit", type=float, default=480.0,
                   help="seconds after which a part starts nothing more (480)")
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "results" / "placement")
    p.add_argument("--git-commit", default=None)
    p.add_argument("--plot", nargs="+", metavar="JSON", help="draw these parts' records")
    p.add_argument("--png", type=Path, help="where --plot writes (default: beside the first)")
    args = p.parse_args(argv)
    plan = parts(args.placements, args.auto_share, args.together, args.formats)
    if args.list:
        for i, (name, run_args) in enumerate(plan, 1):
            print(f"{i}: {name}: benchmarks/run.py {' '.join(run_args)}")
        return 0
    if args.plot:
        from cugraph_compressed import bench

        png = args.png or Path(args.plot[0]).with_suffix(".png")
        print(f"wrote {bench.plot_record(merged(args.plot), png)}")
        return 0
    if args.part is None or not 1 <= args.part <= len(plan):
        p.error(f"--part must be 1 .. {len(plan)} (see --list)")
    import run

    name, run_args = plan[args.part - 1]
    run_args = run_args + ["--time-limit", str(args.time_limit),
                           "--out", str(args.out_dir / f"{name}.json")]
    if args.git_commit:
        run_args += ["--git-commit", args.git_commit]
    return run.main(run_args)


if __name__ == "__main__":
    sys.exit(main())
