"""``python -m cugraph_compressed``: build every layout of one R-MAT graph and time the algorithms.

On a GPU (with cuDF, cuGraph and RMM) the graph is generated, encoded and traversed on the
device, side by side with cuGraph; elsewhere everything runs on the NumPy host backend.
"""

import argparse
import sys

from . import bench
from .generators import check_arguments


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m cugraph_compressed",
        description="Generate a Graph500 R-MAT graph, build every compressed layout of it (and "
                    "cuGraph's graph on a GPU), run BFS, SSSP, PageRank and connected "
                    "components, and print the graphs' sizes and the algorithms' times "
                    "(with --plot also as a PNG).")
    p.add_argument("--scale", type=int, default=None,
                   help="R-MAT scale: 2**scale vertex ids (default 20 on a GPU, 16 on a CPU)")
    p.add_argument("--edge-factor", type=int, default=16, help="edges per vertex id (default 16)")
    p.add_argument("--directed", action="store_true",
                   help="directed graphs only (default: directed and undirected; weakly "
                        "connected components run on the undirected one)")
    p.add_argument("--undirected", action="store_true", help="undirected graphs only")
    p.add_argument("--formats", nargs="+", metavar="FORMAT", default=None,
                   help="layouts to build (default: all of cugraph_compressed.formats.FORMATS)")
    p.add_argument("--repeats", type=int, default=None,
                   help="timed runs per source (default 5 on a GPU, 2 on a CPU)")
    p.add_argument("--sources", type=int, default=None,
                   help="BFS/SSSP start vertices (default 4 on a GPU, 2 on a CPU)")
    p.add_argument("--seed", type=int, default=42, help="generator and source seed (default 42)")
    p.add_argument("--backend", choices=("auto", "device", "host"), default="auto",
                   help="where to run (default: the device when usable)")
    p.add_argument("--cugraph-renumber-false", action="store_true",
                   help="also time cuGraph built with renumber=False (the baseline is cuGraph's "
                        "default, renumber=True, as every contender builds)")
    p.add_argument("--vertex-order", choices=("sorted", "degree"), default="sorted",
                   help="the compressed graphs' internal vertex order (default sorted)")
    p.add_argument("--placements", nargs="+", choices=("device", "host", "auto"),
                   default=["device"],
                   help="where each layout keeps its per-edge buffers on a GPU: device, host "
                        "(pinned host memory, read zero-copy) or auto (in degree order, about "
                        "half the per-edge bytes on the GPU); several time each layout in each "
                        "(default device)")
    p.add_argument("--json", metavar="PATH", default=None, help="also write the results as JSON")
    p.add_argument("--plot", metavar="PATH", default=None,
                   help="also draw times and bytes per layout as a PNG (needs matplotlib: "
                        'pip install "cugraph-compressed[plot]")')
    return p


def _directions(args):
    if args.directed == args.undirected:  # neither flag, or both
        return [True, False]
    return [args.directed]


def _print(record, why_host):
    """What a run measured: where, the graphs, their sizes, the times."""
    settings = record["settings"]
    print(f"backend: {record['backend']}, {record['device']}"
          + (f" (no GPU run: {why_host})" if why_host else ""))
    print()
    print("\n".join(bench.describe_graphs(record)))
    cugraph = any(r["contender"] == bench.CUGRAPH for r in record["results"])
    print("\nsizes (bytes: the graph's arrays"
          + (", cuGraph's the RMM bytes its build left allocated" if cugraph else "")
          + "; B/edge: bytes per stored edge;\n"
          f"       build ms: median of {settings['encode_repeats']} builds after a warm-up; "
          "Medge/s: input edges built per second):")
    print(bench.format_sizes(record))
    per_source = [name for name in settings["algorithms"] if bench.SPECS[name].per_source]
    runs = settings["repeats"]
    print(f"\ntimes (ms: median of {runs} run{'s' * (runs > 1)} after a warm-up"
          + (f", per source for {' and '.join(per_source)}" if per_source else "")
          + ";\n       GTEPS: stored edges per second / 1e9):")
    print(bench.format_table(record))
    # The zero-copy bound the reads are measured against is the GPU's: no table on the host.
    if record["backend"] == "device" and (reads := bench.format_reads(record)):
        print("\nreads of the per-edge buffers (host and auto placements; x bound: time / "
              "max(lines / 49 M/s, bytes / 51 GB/s)):")
        print(reads)


def main(argv=None):
    """Run the command line; returns the process exit status: 0, or 1 when a result disagrees
    with the first contender's or could not be measured (a failed build or call).

    Parameters
    ----------
    argv : list of str, optional
        Arguments without the program name; ``sys.argv[1:]`` when None.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    try:  # argument errors become usage errors, before anything is generated
        backend, why_host = bench.pick_backend(args.backend)
        on_gpu = backend == "device"
        scale = args.scale if args.scale is not None else (20 if on_gpu else 16)
        repeats = args.repeats if args.repeats is not None else (5 if on_gpu else 2)
        sources = args.sources if args.sources is not None else (4 if on_gpu else 2)
        formats = bench.pick_formats(args.formats)
        check_arguments(scale, args.edge_factor, 0.57, 0.19, 0.19, args.seed, "host")
        bench.check_fits(scale, args.edge_factor, backend)
        if repeats < 1 or sources < 1:
            raise ValueError(f"--repeats ({repeats}) and --sources ({sources}) must be >= 1")
        if args.plot:
            bench.require_matplotlib()
    except (ValueError, RuntimeError, ImportError) as exc:
        parser.error(str(exc))
    record = bench.run_benchmark(
        [scale], directed=_directions(args), formats=formats, repeats=repeats,
        num_sources=sources, edge_factor=args.edge_factor, seed=args.seed, backend=backend,
        cugraph_renumber_false=args.cugraph_renumber_false, vertex_order=args.vertex_order,
        placements=args.placements, log=lambda line: None, progress=None)
    _print(record, why_host)
    if args.json or args.plot:
        print()
    if args.json:
        print(f"wrote {bench.write_json(record, args.json)}")
    if args.plot:
        print(f"wrote {bench.plot_record(record, args.plot)}")
    failed = bench.failed(record)
    if failed:
        wrong = [r for r in failed if r["check"] == "MISMATCH"]
        print(f"\nFAILED: {len(wrong)} result(s) disagree with the first contender's, "
              f"{len(failed) - len(wrong)} could not be measured (see the notes)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
