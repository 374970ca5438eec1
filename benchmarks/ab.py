#!/usr/bin/env python3
"""A/B timing of two checkouts of the package through its public API alone (GPU only).

Times ``bfs``, ``sssp`` (per source), ``pagerank`` (store_transposed) and
``weakly_connected_components`` (undirected) of every layout, and cuGraph's as a control, on
one R-MAT graph, from an RMM pool, with the ``cugraph_compressed`` of the checkout this file
lives in, or of ``--package`` (a folder holding another version's ``cugraph_compressed``).
Only calls every version of the package has are used, so one harness times each version::

    git archive <old-commit> cugraph_compressed | (mkdir -p .ab-old && tar -x -C .ab-old)
    python3 benchmarks/ab.py --scale 22 --copies .ab-old . --rounds 2 --out-dir ab-records

runs one process per copy in turn (``.``: this checkout), ``--rounds`` times, writes each
record to ``--out-dir`` and compares every later copy with the first, as
``ab.py --compare old1.json old2.json new1.json new2.json`` does.

Graphs keep the generated ids (``renumber=False``) unless ``--renumber`` (cuGraph's default
path, and ours in its default vertex order, degree order since it exists).
"""
import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))


def median_ms(cp, fn, calls, repeats):
    """One warm-up, then ``repeats`` synchronized calls per argument tuple; the median ms."""
    fn(*calls[0])
    times = []
    for args in calls:
        for _ in range(repeats):
            cp.cuda.Device().synchronize()
            t0 = time.perf_counter()
            fn(*args)
            cp.cuda.Device().synchronize()
            times.append(1e3 * (time.perf_counter() - t0))
    return statistics.median(times)


def measure(args):
    import cugraph
    import cupy as cp
    import numpy as np
    import rmm
    from rmm.allocators.cupy import rmm_cupy_allocator

    rmm.mr.set_current_device_resource(rmm.mr.PoolMemoryResource(rmm.mr.CudaMemoryResource()))
    cp.cuda.set_allocator(rmm_cupy_allocator)

    import cugraph_compressed as cgc
    from cugraph_compressed.generators import rmat_edgelist

    package = str(Path(cgc.__file__).resolve().parent)  # which version ran, in the record
    df = rmat_edgelist(args.scale, seed=42, weighted=True, backend="device")
    df = df[df["source"] != df["destination"]].drop_duplicates(["source", "destination"])
    degree = np.bincount(df["source"].values.get(), minlength=1 << args.scale)
    sources = [int(s) for s in np.random.default_rng(7).choice(np.flatnonzero(degree),
                                                                 args.sources, replace=False)]
    graphs = {  # algorithm: (directed, weighted, store_transposed)
        "bfs": (True, True, False), "sssp": (True, True, False),
        "pagerank": (True, False, True), "wcc": (False, True, False)}
    rows = []
    for fmt in ["cugraph", *args.formats]:
        lib = cugraph if fmt == "cugraph" else cgc
        built = {}
        for name in args.algorithms:
            directed, weighted, transposed = graphs[name]
            key = graphs[name]
            if key not in built:
                built.clear()
                G = (cugraph.Graph(directed=directed) if fmt == "cugraph"
                     else cgc.CompressedGraph(directed=directed, format=fmt))
                G.from_cudf_edgelist(df, weight="weight" if weighted else None,
                                     renumber=args.renumber, store_transposed=transposed)
                built[key] = G
            G = built[key]
            if name == "bfs":
                ms = median_ms(cp, lambda s: lib.bfs(G, s), [(s,) for s in sources],
                               args.repeats)
            elif name == "sssp":
                ms = median_ms(cp, lambda s: lib.sssp(G, s), [(s,) for s in sources],
                               args.repeats)
            elif name == "pagerank":
                ms = median_ms(cp, lambda: lib.pagerank(G), [()], args.repeats)
            else:
                ms = median_ms(cp, lambda: lib.weakly_connected_components(G), [()],
                               args.repeats)
            rows.append({"format": fmt, "algorithm": name, "ms": ms})
            print(f"{args.label} {fmt:8} {name:8} {ms:9.3f} ms", flush=True)
            # A run cut short keeps its rows.
            save(args, sources, rows, complete=False, package=package)
        built.clear()
    return save(args, sources, rows, complete=True, package=package)


def save(args, sources, rows, complete, package=None):
    """The record so far (written to ``args.out`` when given); ``package``: the folder of the
    ``cugraph_compressed`` timed."""
    record = {"label": args.label, "scale": args.scale, "renumber": args.renumber,
              "package": package, "sources": sources, "complete": complete, "rows": rows}
    if args.out:
        Path(args.out).write_text(json.dumps(record, indent=1))
    return record


def compare(old_paths, new_paths, log=print):
    """Per (format, algorithm) every record has: each record's ms, and the median of the new
    records over the median of the old ones."""
    paths = [*old_paths, *new_paths]
    timed = [{(r["format"], r["algorithm"]): r["ms"] for r in json.load(open(p))["rows"]}
             for p in paths]
    for key in timed[0]:
        if not all(key in t for t in timed):  # a run cut short lacks its last rows
            continue
        ms = [t[key] for t in timed]
        old = statistics.median(ms[:len(old_paths)])
        new = statistics.median(ms[len(old_paths):])
        log(f"{key[0]:8} {key[1]:8} " + " ".join(f"{m:8.2f}" for m in ms)
            + f"   new/old {new / old:6.3f}")


def copy_label(copy: str) -> str:
    """A copy's name in its records: ``new`` for this checkout, else its folder's name less a
    leading ``.ab-``."""
    folder = Path(copy).resolve()
    if folder == ROOT:
        return "new"
    return folder.name.removeprefix(".ab-")


def run_copies(args, measure_args, run=subprocess.run, log=print):
    """One ``measure`` process per copy in turn, ``args.rounds`` times; then each later copy
    compared with the first.  A run past ``args.timeout`` seconds keeps the rows it saved; a
    run that fails is logged and the others go on."""
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    labels = [copy_label(c) for c in args.copies]
    if len(set(labels)) != len(labels):
        raise SystemExit(f"--copies need distinct names, got {labels}")
    records = {label: [] for label in labels}
    for round_ in range(1, args.rounds + 1):
        for copy, label in zip(args.copies, labels):
            path = out_dir / f"{label}{round_}.json"
            path.unlink(missing_ok=True)  # a run that writes nothing leaves no older record
            cmd = [sys.executable, str(Path(__file__).resolve()), *measure_args,
                   "--package", str(Path(copy).resolve()), "--label", label, "--out", str(path)]
            started = time.perf_counter()
            try:
                run(cmd, check=True, timeout=args.timeout)
                note = ""
            except subprocess.TimeoutExpired:
                note = f", cut at {args.timeout} s"
            except subprocess.CalledProcessError as failed:  # the others still run
                note = f", failed with exit status {failed.returncode}"
            log(f"{label} round {round_}: {time.perf_counter() - started:.0f} s{note}")
            if path.exists():
                records[label].append(str(path))
    first = labels[0]
    for label in labels[1:]:
        if records[first] and records[label]:
            log(f"# {label} / {first}")
            compare(records[first], records[label], log)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--sources", type=int, default=4)
    p.add_argument("--formats", nargs="+", default=["csr", "ef", "cgr", "fl"])
    p.add_argument("--algorithms", nargs="+", default=["bfs", "sssp", "pagerank", "wcc"])
    p.add_argument("--renumber", action="store_true",
                   help="build every graph with renumber=True (cuGraph's default path; ours "
                        "then in its default vertex order) instead of the generated ids")
    p.add_argument("--label", default="run")
    p.add_argument("--out", default=None)
    p.add_argument("--package", default=None,
                   help="a folder holding the cugraph_compressed to time (default: this "
                        "checkout's)")
    p.add_argument("--copies", nargs="+", default=None,
                   help="folders holding cugraph_compressed ('.': this checkout), each timed "
                        "in its own process, in turn; the first is the baseline")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--timeout", type=float, default=None, help="seconds a copy's run may take")
    p.add_argument("--out-dir", default="ab-records")
    p.add_argument("--compare", nargs="+", default=None,
                   help="records to compare: the old ones first, then as many new ones")
    args = p.parse_args(argv)
    if args.compare:
        half = len(args.compare) // 2
        compare(args.compare[:half], args.compare[half:])
        return 0
    if args.copies:
        measure_args = [f"--scale={args.scale}", f"--repeats={args.repeats}",
                        f"--sources={args.sources}", "--formats", *args.formats,
                        "--algorithms", *args.algorithms]
        run_copies(args, measure_args + (["--renumber"] if args.renumber else []))
        return 0
    if args.package:
        package = Path(args.package).resolve()
        if not (package / "cugraph_compressed").is_dir():
            raise SystemExit(f"--package {package} holds no cugraph_compressed folder")
        sys.path.insert(0, str(package))
    measure(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
