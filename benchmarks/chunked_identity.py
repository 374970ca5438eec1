#!/usr/bin/env python3
"""Bit-identity of chunked GPU builds at scale: every budget and chunking gives the same buffers.

For each R-MAT scale, layout and direction: the host build of the generated chunks (NumPy, the
host reference encoder behind it; the CPU tests prove it equal to the reference on small
graphs) against GPU builds from device chunks under several memory budgets, and from the same
edges as one cuDF frame.  Prints one line per comparison and exits non-zero on a difference.

Run from the repository root on a GPU host::

    python benchmarks/chunked_identity.py --scales 20 22 --host-scale 20
"""
import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from cugraph_compressed import CompressedGraph  # noqa: E402
from cugraph_compressed.formats import FORMATS  # noqa: E402
from cugraph_compressed.generators import rmat_chunks  # noqa: E402


def buffers(G):
    out = {k: (v.get() if hasattr(v, "get") else np.asarray(v))
           for k, v in G._layout.arrays.items()}
    out["renumber_map"] = G.nodes().to_numpy()
    return out


def same(a, b):
    return a.keys() == b.keys() and all(
        a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in a)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scales", type=int, nargs="+", default=[20, 22])
    parser.add_argument("--host-scale", type=int, nargs="*", default=[20],
                        help="scales also built on the host")
    parser.add_argument("--formats", nargs="*", default=sorted(FORMATS))
    parser.add_argument("--budgets", type=float, nargs="*", default=[2e9, 2e8, 3e7])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    import cudf
    import rmm

    rmm.reinitialize(pool_allocator=True)
    records, failed = [], False
    for scale in args.scales:
        device = rmat_chunks(scale, seed=7, chunk_edges=1 << 22, backend="device")
        frames = list(device)
        frame = cudf.concat(frames, ignore_index=True)
        for directed in (True, False):
            for fmt in args.formats:
                reference, name = None, None
                if scale in args.host_scale:
                    start = time.perf_counter()
                    host = rmat_chunks(scale, seed=7, chunk_edges=1 << 22)
                    reference = buffers(CompressedGraph(directed=directed, format=fmt)
                                        .from_edge_chunks(host))
                    name = f"host ({time.perf_counter() - start:.1f} s)"
                runs = [("one frame", lambda: CompressedGraph(directed=directed, format=fmt)
                         .from_cudf_edgelist(frame))]
                for budget in args.budgets:
                    runs.append((f"chunks, budget {budget:.0e}",
                                 lambda b=int(budget): CompressedGraph(
                                     directed=directed, format=fmt).from_edge_chunks(
                                         frames, memory_budget=b)))
                for label, make in runs:
                    G = make()
                    got = buffers(G)
                    if reference is None:
                        reference, name = got, label
                        continue
                    ok = same(got, reference)
                    failed |= not ok
                    r = dict(scale=scale, directed=directed, format=fmt, build=label,
                             against=name, identical=ok, ranges=G.build_stats.get("ranges"))
                    records.append(r)
                    print(json.dumps(r), flush=True)
                    del G, got
    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
