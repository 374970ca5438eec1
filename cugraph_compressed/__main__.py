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
                    "components, and print sizes and times.")
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
    p.add_argument("--json", metavar="PATH", default=None, help="also write the results as JSON")
    return p


def _directions(args):
    if args.directed == args.undirected:  # neither flag, or both
        return [True, False]
    return [args.directed]


def main(argv=None):
    """Run the command line; returns the process exit status (0, or 1 on a result mismatch).

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
    except (ValueError, RuntimeError) as exc:
        parser.error(str(exc))
    record = bench.run_benchmark(
        [scale], directed=_directions(args), formats=formats, repeats=repeats,
        num_sources=sources, edge_factor=args.edge_factor, seed=args.seed, backend=backend,
        cugraph_renumber_false=args.cugraph_renumber_false)

    where = record["device"]
    print(f"backend: {record['backend']} on {where}"
          + (f" (no GPU run: {why_host})" if why_host else ""))
    for g in record["graphs"]:
        print(f"graph: R-MAT scale {g['scale']}, edge factor {g['edge_factor']}, seed {g['seed']}, "
              f"{'directed' if g['directed'] else 'undirected'}: {g['vertices']:,} vertices, "
              f"{g['edges']:,} directed edges ({g['generated_edges']:,} generated, "
              f"{g['input_edges']:,} without parallel edges)")
    print("\nsizes:")
    seen = set()
    for r in record["results"]:
        key = (r["scale"], r["directed"], r["contender"], r["format"])
        if key in seen:
            continue
        seen.add(key)
        parts = ", ".join(f"{k} {v:,}" for k, v in (r["components"] or {}).items())
        rmm = f"; RMM {r['rmm_bytes']:,} B" if r["rmm_bytes"] is not None else ""
        print(f"  {r['contender']} [{r['format']}]: {r['structure_bytes']:,} B "
              f"({r['bytes_per_edge']:.2f} B/edge){rmm}" + (f"  [{parts}]" if parts else ""))
    print("\ntimes (median of runs after a warm-up):")
    print(bench.format_table(record))
    if args.json:
        print(f"\nwrote {bench.write_json(record, args.json)}")
    mismatches = [r for r in record["results"] if r.get("check") == "MISMATCH"]
    if mismatches:
        print(f"\nMISMATCH: {len(mismatches)} result(s) disagree with "
              f"{mismatches[0]['checked_against']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
