#!/usr/bin/env python3
"""Save and load time, bytes read and load peak of a saved graph on the GPU.

One process, RMM pool under a statistics adaptor.  For each layout asked for, an R-MAT graph
(``generators.rmat_edgelist`` on the GPU, weighted, ``renumber=True``) is built, saved to
``--dir``, and loaded back:

* ``save``: ``G.save(path)`` and an ``fsync``, wall time; the file's bytes.
* ``load_cold``: the file's pages dropped from the page cache first
  (``posix_fadvise(POSIX_FADV_DONTNEED)`` after the ``fsync``), so the bytes come from the disk.
* ``load_warm``: loaded again with the file in the page cache.
* ``load_host``: ``CompressedGraph.load(path, backend="host")``, warm.

Each load row carries its wall time, the bytes the process read (``/proc/self/io``: ``rchar``,
bytes returned by read calls; ``read_bytes``, bytes fetched from storage), the RMM peak during
the call beside the loaded graph's bytes, and the time ``Layout.validate()`` takes alone on the
loaded graph (part of every load).  The loaded graph's buffers are compared with the saved
graph's bit for bit, and one BFS on each graph loaded on the backend it was saved from must
give the saved graph's distances; a mismatch exits 1.
With ``--backend host`` the graph is built and loaded on the host (no ``load_host`` row), and
peaks are ``tracemalloc``'s.

Run from the repository root on a GPU host::

    python benchmarks/saved_graph.py --scale 24 --formats ef --dir /tmp/saved --json $OUT/s.json

and on a CPU::

    python benchmarks/saved_graph.py --backend host --scale 18 --formats csr fl ef cgr \
        --dir /tmp/saved --json saved.json
"""
import argparse
import gc
import json
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed import CompressedGraph, bfs  # noqa: E402
from cugraph_compressed.bench.environment import git_commit  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


def process_io() -> dict:
    """``rchar`` and ``read_bytes`` of this process (Linux)."""
    fields = dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())
    return {"rchar": int(fields["rchar"]), "read_bytes": int(fields["read_bytes"])}


def drop_cached_pages(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def measured(call, device: bool):
    """``(result, seconds, peak bytes, io deltas)`` of ``call()``: on the GPU synchronized,
    the peak counted by RMM's statistics; on the host the peak of ``tracemalloc`` (NumPy's
    buffers included)."""
    gc.collect()
    if device:
        import cupy
        import rmm

        cupy.cuda.runtime.deviceSynchronize()
        rmm.statistics.push_statistics()
    else:
        tracemalloc.start()
    before = process_io()
    start = time.perf_counter()
    result = call()
    if device:
        cupy.cuda.runtime.deviceSynchronize()
    seconds = time.perf_counter() - start
    after = process_io()
    if device:
        peak = int(rmm.statistics.pop_statistics().peak_bytes)
    else:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return result, seconds, peak, {k: after[k] - before[k] for k in after}


def buffers(G) -> dict:
    """The layout's buffers and the properties, as NumPy arrays."""
    layout = G._layout
    out = {f"layout.{name}": layout.arrays[name] for name in layout.buffer_names}
    if layout.property_order is not None:
        out["layout.property_order"] = layout.property_order
    out.update({f"property.{k}": v for k, v in G._properties.items()})
    return {k: v.get() if hasattr(v, "__cuda_array_interface__") else v
            for k, v in out.items()}


def same_bits(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        a[k].dtype == b[k].dtype and a[k].shape == b[k].shape
        and a[k].tobytes() == b[k].tobytes() for k in a)


def distances(result):
    """BFS distances ordered by vertex, as a NumPy array (cuDF or pandas result)."""
    return result.sort_values("vertex")["distance"].to_numpy()


def validate_seconds(G) -> float:
    """``validate()`` of the graph's layout alone, wall time (on the GPU synchronized: the
    device checks of every layout, ``cgr``'s kernel included, run there)."""
    def sync():
        if G.backend == "device":
            import cupy

            cupy.cuda.runtime.deviceSynchronize()

    sync()
    start = time.perf_counter()
    G._layout.validate()
    sync()
    return time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=24)
    parser.add_argument("--edge-factor", type=int, default=16)
    parser.add_argument("--formats", nargs="+", default=["ef"])
    parser.add_argument("--directed", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--dir", type=Path, required=True, help="where the files go")
    parser.add_argument("--json", type=Path, help="write the records here")
    parser.add_argument("--backend", choices=["device", "host"], default="device")
    args = parser.parse_args(argv)

    device = args.backend == "device"
    if device:
        import cupy
        import rmm

        rmm.reinitialize(pool_allocator=True)
        rmm.statistics.enable_statistics()
        where = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    else:
        where = f"host CPU ({platform.processor() or platform.machine()}, {os.cpu_count()} cores)"
    args.dir.mkdir(parents=True, exist_ok=True)
    commit = git_commit()
    frame = rmat_edgelist(args.scale, args.edge_factor, seed=42, weighted=True,
                          backend=args.backend)
    source = int(frame["source"].iloc[0])
    records, ok = [], True

    def report(r):
        records.append(r)
        print(json.dumps(r), flush=True)
        if args.json:
            args.json.write_text(json.dumps(records, indent=1) + "\n")

    for fmt in args.formats:
        base = {"scale": args.scale, "edge_factor": args.edge_factor, "format": fmt,
                "directed": args.directed, "input_edges": len(frame), "commit": commit,
                "device": where}
        G = CompressedGraph(directed=args.directed, format=fmt)
        build = G.from_cudf_edgelist if device else G.from_pandas_edgelist
        build(frame, weight="weight", renumber=True)
        path = args.dir / f"rmat{args.scale}-{fmt}.cgc"

        def save(G=G, path=path):
            G.save(path)
            fd = os.open(path, os.O_RDONLY)
            os.fsync(fd)
            os.close(fd)

        _, seconds, peak, _ = measured(save, device)
        graph_bytes = G.nbytes
        file_bytes = path.stat().st_size
        report({**base, "step": "save", "seconds": seconds, "peak_bytes": peak,
                "graph_bytes": graph_bytes, "file_bytes": file_bytes,
                "stored_edges": G.number_of_edges(True), "vertices": G.number_of_vertices()})
        saved_bits = buffers(G)
        expected = distances(bfs(G, start=source))

        steps = [("load_cold", None), ("load_warm", None)] + ([("load_host", "host")] if device
                                                              else [])
        for step, backend in steps:
            if step == "load_cold":
                drop_cached_pages(path)
            H, seconds, peak, io = measured(lambda: CompressedGraph.load(path, backend=backend),
                                            device)
            same = same_bits(saved_bits, buffers(H))
            same_bfs = None  # a host graph's bits are checked; its BFS would take minutes
            if H.backend == G.backend:
                got = distances(bfs(H, start=source))
                same_bfs = got.shape == expected.shape and bool((got == expected).all())
            ok = ok and same and same_bfs is not False
            report({**base, "step": step, "backend": H.backend, "seconds": seconds,
                    "peak_bytes": peak, "graph_bytes": H.nbytes, "file_bytes": file_bytes,
                    **io, "read_GB_per_s": file_bytes / seconds / 1e9,
                    "validate_seconds": validate_seconds(H), "bit_identical": same,
                    "bfs_equal": same_bfs})
            del H
        del G
        path.unlink()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
