#!/usr/bin/env python3
"""Compare the medians of two benchmark records (``benchmarks/run.py`` JSON), row by row.

For every (scale, directedness, contender, layout, algorithm) timed in both records, prints the
old and new median ms and new / old; rows slower than ``--tolerance`` (default 10%) are marked
and make the exit status 1.  Example::

    python3 benchmarks/compare.py old.json new.json [more-old.json more-new.json ...]
"""
import argparse
import json
import sys


def medians(path):
    """``{(scale, directed, contender, format, algorithm): ms}`` of one record's timed rows."""
    with open(path) as f:
        record = json.load(f)
    return {(r["scale"], r["directed"], r["contender"], r["format"], r["algorithm"]): r["ms"]
            for r in record["results"] if r.get("ms") is not None}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("records", nargs="+", help="pairs of records: old new [old new ...]")
    p.add_argument("--tolerance", type=float, default=0.10,
                   help="largest accepted slow-down, as a fraction (0.10)")
    args = p.parse_args(argv)
    if len(args.records) % 2:
        p.error("give the records in pairs: old new [old new ...]")
    slower = 0
    print(f"{'scale':>5} {'dir':>5} {'contender':>18} {'format':>6} {'algorithm':>9} "
          f"{'old ms':>9} {'new ms':>9} {'new/old':>8}")
    for old_path, new_path in zip(args.records[::2], args.records[1::2]):
        old, new = medians(old_path), medians(new_path)
        for key in sorted(old.keys() & new.keys(), key=str):
            ratio = new[key] / old[key]
            mark = ""
            if ratio > 1 + args.tolerance:
                mark, slower = "  SLOWER", slower + 1
            scale, directed, contender, fmt, algorithm = key
            print(f"{scale:>5} {'dir' if directed else 'undir':>5} {contender:>18} {fmt:>6} "
                  f"{algorithm:>9} {old[key]:9.2f} {new[key]:9.2f} {ratio:8.3f}{mark}")
    print(f"{slower} row(s) more than {args.tolerance:.0%} slower")
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
