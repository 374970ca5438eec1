#!/usr/bin/env python3
"""Plot benchmark records: time against structure bytes per edge, one panel per graph and
algorithm, one point per contender (cuGraph and each layout).

    python benchmarks/plot.py benchmarks/results/<record>.json [more.json ...] [--out plot.png]

Several records (say, the directed and the undirected run of one scale) go into one figure.

Lower left is better: smaller and faster.  Needs matplotlib (``pip install -e ".[plot]"``).
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed.bench import contender_label, require_matplotlib  # noqa: E402


def panels(record):
    """``{(scale, directed, algorithm): [result, ...]}`` of the timed results, in record order."""
    out = {}
    for r in record["results"]:
        if r.get("ms") is None:
            continue
        out.setdefault((r["scale"], r["directed"], r["algorithm"]), []).append(r)
    return out


def plot(record, path):
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = panels(record)
    labels = sorted({contender_label(r) for rs in groups.values() for r in rs})
    colour = {label: f"C{i}" for i, label in enumerate(labels)}  # one colour per contender
    if not groups:
        raise SystemExit("the record holds no timed results")
    cols = min(4, len(groups))
    rows = -(-len(groups) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.6 * rows), squeeze=False)
    for ax, ((scale, directed, algorithm), results) in zip(axes.flat, sorted(groups.items())):
        for r in results:
            label = contender_label(r)
            marker = "s" if r["contender"] == "cugraph" else "o"
            ax.scatter(r["bytes_per_edge"], r["ms"], marker=marker, s=46, color=colour[label])
            ax.annotate(label, (r["bytes_per_edge"], r["ms"]), textcoords="offset points",
                        xytext=(5, 4), fontsize=8)
        ax.set_title(f"{algorithm}, R-MAT {scale}, {'dir' if directed else 'undir'}", fontsize=10)
        ax.set_xlabel("structure bytes / edge")
        ax.set_ylabel("median ms")
        ax.set_xlim(0, 1.25 * max(r["bytes_per_edge"] for r in results))
        ax.set_ylim(0, 1.15 * max(r["ms"] for r in results))
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(groups):]:
        ax.axis("off")
    fig.suptitle(f"{record['device']}, commit {record['git_commit']}", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("records", nargs="+", help="benchmark JSON written by run.py")
    p.add_argument("--out", default=None, help="PNG path (default: the first record's path, .png)")
    args = p.parse_args(argv)
    records = [json.loads(Path(path).read_text()) for path in args.records]
    record = dict(records[0], results=[r for rec in records for r in rec["results"]])
    record["git_commit"] = ", ".join(dict.fromkeys(rec["git_commit"] or "?" for rec in records))
    out = args.out or str(Path(args.records[0]).with_suffix(".png"))
    print(f"wrote {plot(record, out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
