#!/usr/bin/env python3
"""Time the algorithms on every layout under several values of one tuning knob of the device
kernels, beside cuGraph, on one R-MAT graph in one process (GPU only).  Both sides build with
``renumber=True`` (cuGraph's default path) and allocate from one RMM pool, as in
``benchmarks/run.py``.

A knob is a field of ``cugraph_compressed.TraversalConfig``, set per graph with
``G.traversal = TraversalConfig(**{knob: value})`` (the other fields keep their defaults):

- ``warp_item_ranks``: lists of at least this many ranks are decoded by whole warps
  (``none``: every list by single threads; ``auto``: the default, per layout);
- ``warp_list_ranks``: the degree from which lists go to the warp launch, the shorter ones to
  thread items (``none``: lists that fill one warp item; ``auto``: the default, per layout);
- ``sort_frontiers_from``: frontiers at least this long are sorted by vertex id
  (``none``: never);
- ``checked``: the checked kernels (``true``), which bound every read of the layout, against
  the unchecked ones (``false``);
- ``bottom_up_alpha``, ``bottom_up_beta``: the direction-optimizing BFS switch (``none``
  for alpha: top-down only); under these every algorithm runs on the undirected graph, the
  only one where BFS goes bottom-up by default;
- ``directed_bottom_up``: BFS on the directed graph goes bottom-up too (``true``), over the
  in-lists the graph builds beside its out-lists on the first (warm-up) call: a second
  structure, outside the times.  Every row records the bytes the graph holds after each
  value's calls (``graph_nbytes``), printed where they differ.

A knob ``LAYOUT.PARAM`` is a parameter of one layout's encoding instead
(``CompressedGraph(format=LAYOUT, PARAM=value)``, e.g. ``cgr.min_interval_length``): that
layout alone is built once per value, and its structure bytes per stored edge are printed and
recorded beside the times (the parameter changes what is stored).

The upper-case names of the former module constants (``WARP_ITEM_RANKS``) are accepted too.
Algorithms come from the registry: those for undirected graphs only (WCC) run on the
undirected graph, the others on the directed one, PageRank with ``store_transposed=True``
(pull over in-lists).  Example::

    python3 benchmarks/tuning.py --scale 24 --knob warp_item_ranks --values none 256 1024
    python3 benchmarks/tuning.py --scale 24 --knob warp_list_ranks --values none 16 32 64 \
        --formats ef
    python3 benchmarks/tuning.py --scale 24 --knob checked --values false true --json out.json
    python3 benchmarks/tuning.py --scale 24 --knob bottom_up_alpha --values none 4 15 60 \
        --algorithms bfs
    python3 benchmarks/tuning.py --scale 24 --knob directed_bottom_up --values false true \
        --algorithms bfs
    python3 benchmarks/tuning.py --scale 24 --knob cgr.min_interval_length --values 4 8 16 32
"""
import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

import cugraph  # noqa: E402
import cupy as cp  # noqa: E402

import cugraph_compressed as cgc  # noqa: E402
from cugraph_compressed.algorithms import ALGORITHMS  # noqa: E402
from cugraph_compressed.bench import AUTO_SHARE, check_auto_share, simple_edges  # noqa: E402
from cugraph_compressed.bench.environment import Environment  # noqa: E402
from cugraph_compressed.bench.specs import place_auto  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402

KNOBS = tuple(f.name for f in dataclasses.fields(cgc.TraversalConfig))
#: Record name -> registry entry.
BY_SHORT = {entry.short: entry for entry in ALGORITHMS.values()}
#: Keyword arguments beyond the benchmark's: PageRank to a tight tolerance, so that every
#: layout does the same, larger, number of iterations.
EXTRA = {"pagerank": {"tol": 1e-8, "max_iter": 500}}


#: Knobs that only act on undirected graphs: under them every algorithm runs on one.
UNDIRECTED_KNOBS = ("bottom_up_alpha", "bottom_up_beta")


def graph_of(entry, knob):
    """What an algorithm runs on here, under ``knob``: (directed, store_transposed)."""
    return (not (entry.undirected or knob in UNDIRECTED_KNOBS), entry.transposed)


def median_ms(fn, repeats):
    fn()  # compile and warm up
    times = []
    for _ in range(repeats):
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        fn()
        cp.cuda.Device().synchronize()
        times.append(1e3 * (time.perf_counter() - t0))
    return statistics.median(times)


def knob_name(text):
    """A field of TraversalConfig (the old upper-case constant names are aliases), or
    ``LAYOUT.PARAM``: a parameter of one layout's encoding (the layout checks the name when
    it builds)."""
    layout, dot, param = text.partition(".")
    if dot:
        if layout not in cgc.supported()["bfs"]["device"] or not param:
            raise argparse.ArgumentTypeError(f"unknown layout parameter {text!r}: LAYOUT.PARAM "
                                             "with a device layout, e.g. cgr.min_interval_length")
        return text
    name = text.lower()
    if name not in KNOBS:
        raise argparse.ArgumentTypeError(f"unknown knob {text!r}; choose from {list(KNOBS)} or "
                                         "LAYOUT.PARAM")
    return name


def knob_value(text):
    lower = text.lower()
    if lower in ("true", "false"):
        return lower == "true"
    if lower in ("none", "auto"):
        return None if lower == "none" else "auto"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)  # the direction-optimizing BFS constants
    except ValueError:
        return text  # a layout parameter's name of a choice (cgr.code: gamma, zeta)


def note_bytes(record, kind, index, values, graph):
    """Record ``graph``'s structure bytes per stored edge as value ``index`` of ``values`` of a
    layout parameter, under its graph ``kind`` (directed, store_transposed)."""
    sizes = record.setdefault("bytes_per_edge", {}).setdefault(
        "directed" if kind[0] else "undirected", {}).setdefault(
        "transposed" if kind[1] else "out", [None] * values)
    sizes[index] = graph.structure_nbytes / graph.number_of_edges(directed_edges=True)


def runner(library, short, graph, source):
    """A call of algorithm ``short`` on ``graph`` by cuGraph or this package (same
    signatures; the start vertex second)."""
    entry = BY_SHORT[short]
    function = getattr(library, entry.name)
    args = (source,) if entry.source else ()
    kwargs = {**entry.benchmark_args, **EXTRA.get(short, {})}
    return lambda: function(graph, *args, **kwargs)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=22)
    p.add_argument("--knob", type=knob_name, default="warp_item_ranks",
                   help=f"a TraversalConfig field: {', '.join(KNOBS)} (warp_item_ranks)")
    p.add_argument("--values", type=knob_value, nargs="+", default=[None, 256, 1024],
                   help="knob values; 'none' switches the knob's pass off")
    p.add_argument("--algorithms", nargs="+", choices=list(BY_SHORT), default=list(BY_SHORT))
    p.add_argument("--formats", nargs="+", default=sorted(cgc.supported()["bfs"]["device"]))
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--placement", choices=("device", "host", "auto"), default="device",
                   help="our graphs' placement (host and auto: the host_reads and "
                        "host_sort_frontiers_from knobs apply)")
    p.add_argument("--auto-share", type=float, default=AUTO_SHARE, metavar="F",
                   help=f"auto placement: the share of the per-edge bytes kept on the GPU, "
                        f"hubs first ({AUTO_SHARE})")
    p.add_argument("--json", help="also write the medians here")
    args = p.parse_args(argv)
    check_auto_share(args.auto_share)
    Environment("device")  # the RMM pool, before anything is allocated
    df = simple_edges(rmat_edgelist(args.scale, seed=42, weighted=True, backend="device"))
    source = int(df["source"].iloc[0])
    # Each value as (traversal config, layout parameters) of the graphs it is timed on.
    layout, _, param = args.knob.partition(".")
    if param:  # a layout parameter: that layout alone, a graph per value
        args.formats = [layout]
        default = "the layout's"
        variants = [(cgc.TraversalConfig(), {param: value}) for value in args.values]
    else:
        default = getattr(cgc.TraversalConfig(), args.knob)
        variants = [(cgc.TraversalConfig(**{args.knob: value}), {}) for value in args.values]
    print(f"R-MAT {args.scale}, {len(df):,} edges, source {source}; median ms of {args.repeats}; "
          f"{args.knob} (default {default}); our graphs in {args.placement} placement",
          flush=True)

    def build(library, fmt, directed, transposed, layout_params=None):
        kind = cugraph.Graph if library is cugraph else cgc.CompressedGraph
        auto = library is not cugraph and args.placement == "auto"
        extra = ({} if library is cugraph else
                 {"format": fmt, "placement": "host" if auto else args.placement,
                  **(layout_params or {})})
        graph = kind(directed=directed, **extra)
        graph.from_cudf_edgelist(df, weight="weight", renumber=True,
                                 store_transposed=transposed)
        return place_auto(graph, args.auto_share) if auto else graph

    theirs = {}
    for name in args.algorithms:
        graph = build(cugraph, None, *graph_of(BY_SHORT[name], args.knob))
        theirs[name] = median_ms(runner(cugraph, name, graph, source), args.repeats)
        del graph
    print("cuGraph: " + ", ".join(f"{n} {t:.2f}" for n, t in theirs.items()), flush=True)
    record = {"scale": args.scale, "edges": len(df), "source": source, "knob": args.knob,
              "values": args.values, "repeats": args.repeats, "placement": args.placement,
              "auto_share": args.auto_share if args.placement == "auto" else None,
              "renumber": True, "rmm_pool": True,
              "device": cp.cuda.runtime
              .getDeviceProperties(cp.cuda.Device().id)["name"].decode(),
              "cugraph_ms": theirs, "ms": {}}
    # Algorithms grouped by the graph they run on, in their first order: each layout's graphs
    # of one kind are built once, where an alternating list (bfs pagerank sssp) rebuilt them.
    by_kind = {}
    for name in args.algorithms:
        by_kind.setdefault(graph_of(BY_SHORT[name], args.knob), []).append(name)
    print("format  alg       " + "  ".join(f"{str(v):>10}" for v in args.values), flush=True)
    for fmt in args.formats:
        graphs, held = {}, None  # graphs of one (directed, store_transposed) at a time
        for name in (name for group in by_kind.values() for name in group):
            kind = graph_of(BY_SHORT[name], args.knob)
            if kind != held:
                graphs.clear()
                held = kind
            times, held_bytes = [], []
            for index, (config, layout_params) in enumerate(variants):
                key = index if layout_params else 0  # a layout parameter: a graph per value
                if key not in graphs:
                    graphs[key] = build(cgc, fmt, *kind, layout_params)
                    if layout_params:
                        note_bytes(record, kind, index, len(variants), graphs[key])
                graph = graphs[key]
                graph.traversal = config
                times.append(median_ms(runner(cgc, name, graph, source), args.repeats))
                held_bytes.append(graph.nbytes)  # with what the calls built (in-lists beside)
            print(f"{fmt:6}  {name:8}  " + "  ".join(f"{t:10.2f}" for t in times), flush=True)
            if len(set(held_bytes)) > 1:
                print(f"{fmt:6}  {name:8}  " + "  ".join(f"{b / 1e6:8.1f}MB" for b in held_bytes),
                      flush=True)
            record["ms"].setdefault(fmt, {})[name] = times
            record.setdefault("graph_nbytes", {}).setdefault(fmt, {})[name] = held_bytes
            if args.json:
                Path(args.json).write_text(json.dumps(record, indent=1))
    if param:
        for graph_kind, sizes in record.get("bytes_per_edge", {}).items():
            for lists, values in sizes.items():
                print(f"{graph_kind} {lists} lists: structure bytes per stored edge "
                      + "  ".join(f"{b:10.3f}" for b in values), flush=True)


if __name__ == "__main__":
    main()
