#!/usr/bin/env python3
"""Where the time of one algorithm call goes, on the GPU: per layout, a warm call's median wall
time, and either cProfile's cumulative table (``--python``: CuPy calls that wait for the device
carry that wait) or the call's GPU kernels (``--kernels``: each kernel's launches and summed
device time, from PyTorch's CUPTI profiler, which sees every kernel of the process: ours, CuPy's
and cuGraph's), with cuGraph's call on the same graph beside (``renumber=True``, RMM pool for
both, as in the main benchmark).

PageRank rows also say how many iterations the call made: ours from the run, cuGraph's as the
least ``max_iter`` at which it converges (cuGraph does not report it), so ms per iteration can
be compared.  ``--floor`` adds, for a ``csr`` graph, the floor of the algorithm's pass over
the lists (``benchmarks/gather_floor.cu``, ``FLOORS``): the edges' index (and weight) reads
and the gathers of their far ends' values (or bitmap probes) alone, perfectly balanced, timed
per launch, and for PageRank what the call would take if each iteration's product ran at it.

    python3 benchmarks/profile_call.py --scale 24 --algorithm bfs --formats csr ef --kernels
    python3 benchmarks/profile_call.py --scale 24 --algorithm bfs --renumber both --python
    python3 benchmarks/profile_call.py --scale 24 --algorithm pagerank --unweighted --floor
"""
import argparse
import cProfile
import functools
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402
import rmm  # noqa: E402

import cugraph_compressed as cgc  # noqa: E402
from cugraph_compressed.bench import simple_edges  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


def caller(module, G, algorithm, source):
    """The call to profile: ``algorithm`` of ``module`` (cugraph_compressed or cugraph) on G."""
    if algorithm in ("bfs", "sssp"):
        return functools.partial(getattr(module, algorithm), G, source)
    if algorithm == "pagerank":
        return functools.partial(module.pagerank, G, tol=1e-6)
    return functools.partial(module.weakly_connected_components, G)


def wall_ms(call, repeats):
    """Median wall ms of ``repeats`` synchronized calls after one warm-up."""
    call()
    times = []
    for _ in range(repeats):
        cp.cuda.runtime.deviceSynchronize()
        start = time.perf_counter()
        call()
        cp.cuda.runtime.deviceSynchronize()
        times.append(1e3 * (time.perf_counter() - start))
    return statistics.median(times)


def python_table(call, top):
    """cProfile's cumulative table of one synchronized call."""
    profile = cProfile.Profile()
    profile.enable()
    call()
    cp.cuda.runtime.deviceSynchronize()
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def kernel_rows(call, top):
    """The GPU kernels of one synchronized call: (name, launches, summed device ms), longest
    first; None when PyTorch's profiler is not installed."""
    try:
        from torch.autograd import DeviceType
        from torch.profiler import ProfilerActivity, profile
    except ImportError:
        return None
    cp.cuda.runtime.deviceSynchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        call()
        cp.cuda.runtime.deviceSynchronize()
    rows = {}
    for event in prof.events():
        if event.device_type != DeviceType.CUDA:  # a host-side event
            continue
        name = event.name if len(event.name) <= 110 else event.name[:107] + "..."
        launches, us = rows.get(name, (0, 0.0))
        rows[name] = (launches + 1, us + event.time_range.elapsed_us())
    ranked = sorted(rows.items(), key=lambda item: -item[1][1])
    return [(name, n, us / 1e3) for name, (n, us) in ranked[:top]]


FLOOR_SOURCE = Path(__file__).with_name("gather_floor.cu")
FLOOR_BLOCK = 256


def launch_ms(kernel, blocks, args, repeats):
    """Median ms of ``repeats`` launches (CUDA events), after one warm-up launch."""
    kernel((blocks,), (FLOOR_BLOCK,), args)
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(repeats):
        start.record()
        kernel((blocks,), (FLOOR_BLOCK,), args)
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def floor_walks(G, kernel, weights, operands, repeats):
    """``(index stream ms, walk ms, walk sum)``: one launch each of ``gather_floor.cu``'s index
    stream over the ``csr`` graph G's indices (with ``weights``, or a null pointer) and of its
    ``kernel`` walk (``operands`` between the indices and the edge count), and the sum of what
    the walk's threads wrote, for the caller to check."""
    from cugraph_compressed.kernels import get_kernel

    indices = G._layout.indices
    itype = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}[np.dtype(indices.dtype)]
    names = [f"index_stream<{itype}>", f"{kernel}<{itype}>"]
    stream, walk = (get_kernel(FLOOR_SOURCE, name, names) for name in names)
    blocks = cp.cuda.Device().attributes["MultiProcessorCount"] * (2048 // FLOOR_BLOCK)
    out = cp.empty(blocks * FLOOR_BLOCK, dtype=cp.float32)
    m = np.int64(indices.size)
    stream_ms = launch_ms(stream, blocks, (indices, weights, m, out), repeats)
    walk_ms = launch_ms(walk, blocks, (indices, *operands, m, out), repeats)
    return stream_ms, walk_ms, float(out.sum(dtype=cp.float64))


def gather_floor(G, repeats=20, weighted=True):
    """The floor of a PageRank product over the ``csr`` graph G's lists: ms of one launch of
    each kernel of ``gather_floor.cu`` (the index stream, with the weights if G has them and
    ``weighted``, and the same with every slot gathering a float32 share), the gather kernel's
    sum checked."""
    indices = G._layout.indices
    weights = G._properties.get("weight") if weighted else None
    weights = None if weights is None else cp.asarray(weights).astype(cp.float32, copy=False)
    n, m = int(G._layout.num_vertices), int(indices.size)
    share = cp.random.default_rng(0).random(n, dtype=cp.float32)
    w = weights if weights is not None else np.uint64(0)  # a null pointer: unweighted
    stream_ms, gather_ms, got = floor_walks(G, "gather", w, (w, share), repeats)
    gathered = share[indices] if weights is None else share[indices] * weights
    want = float(gathered.sum(dtype=cp.float64))
    if abs(got - want) > 1e-3 * abs(want):
        raise AssertionError(f"the gather kernel summed {got}, the edges sum to {want}")
    return {"edges": m, "vertices": n, "weighted": weights is not None,
            "index_stream_ms": stream_ms, "gather_ms": gather_ms}


def probe_floor(G, repeats=20):
    """The floor of a top-down BFS over the ``csr`` graph G's lists, every list scanned: ms of
    one launch of ``gather_floor.cu``'s index stream and of its bitmap probe (a random bitmap
    of G's vertices), the probe's count of set bits checked."""
    indices = G._layout.indices
    n, m = int(G._layout.num_vertices), int(indices.size)
    bitmap = (cp.random.default_rng(0).random((n + 31) // 32) * 2.0**32).astype(cp.uint32)
    stream_ms, probe_ms, got = floor_walks(G, "probe", np.uint64(0), (bitmap,), repeats)
    v = indices.astype(cp.int64)
    want = int(((bitmap[v >> 5] >> (v & 31).astype(cp.uint32)) & 1).sum())
    if int(got) != want:
        raise AssertionError(f"the probe kernel counted {int(got)} set bits, not {want}")
    return {"edges": m, "vertices": n, "index_stream_ms": stream_ms, "probe_ms": probe_ms}


#: Per algorithm: the floor of its pass over a ``csr`` graph's lists, and what it stands for.
#: SSSP's is every edge relaxed once (its index and weight read, the far end's distance
#: gathered), as a label-correcting search does at best; WCC's one sweep gathering every stored
#: end's label, as its hooking rounds do at least once.
FLOORS = {
    "bfs": (probe_floor, "scanning every list: index stream {index_stream_ms:.3f} ms, with "
                         "the bitmap probes {probe_ms:.3f} ms"),
    "pagerank": (gather_floor, "one product: index stream {index_stream_ms:.3f} ms, with the "
                               "gathers {gather_ms:.3f} ms"),
    "sssp": (gather_floor, "relaxing every edge once: index and weight streams "
                           "{index_stream_ms:.3f} ms, with the distance gathers "
                           "{gather_ms:.3f} ms"),
    "wcc": (functools.partial(gather_floor, weighted=False),
            "one sweep over every list: index stream {index_stream_ms:.3f} ms, with the label "
            "gathers {gather_ms:.3f} ms"),
}


def describe_floor(algorithm, floor, row):
    """``(ms, text)``: what the call would take at ``floor`` (PageRank: each iteration's
    product at it; the others: one pass) and the line that says so."""
    text = "floor of " + FLOORS[algorithm][1].format(**floor)
    if algorithm != "pagerank":
        return floor.get("probe_ms", floor.get("gather_ms")), text
    at_floor = row["iterations"] * floor["gather_ms"]
    return at_floor, f"{text}; {row['iterations']} iterations at it: {at_floor:.2f} ms"


def cugraph_iterations(G, limit=500):
    """The least ``max_iter`` at which cuGraph's PageRank (tol 1e-6) converges on G."""
    import cugraph

    def converges(k):
        return bool(cugraph.pagerank(G, tol=1e-6, max_iter=k, fail_on_nonconvergence=False)[1])

    low, high = 1, 1
    while not converges(high):
        low, high = high + 1, 2 * high
        if high > limit:
            return None
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if converges(middle) else (middle + 1, high)
    return low


def report(label, call, args, G=None):
    """Time and profile one contender's call; returns its JSON row."""
    row = {"contender": label, "ms": wall_ms(call, args.repeats)}
    if args.algorithm == "pagerank":
        if G is None:
            from cugraph_compressed.algorithms.pagerank import LAST_RUN
            row["iterations"] = int(LAST_RUN["iterations"])
        else:
            row["iterations"] = cugraph_iterations(G)
        if row["iterations"]:
            row["ms_per_iteration"] = row["ms"] / row["iterations"]
    print(f"== {label} {args.algorithm}: median {row['ms']:.2f} ms"
          + (f", {row['iterations']} iterations" if "iterations" in row else ""), flush=True)
    if args.python:
        print(python_table(call, args.top), flush=True)
    if args.kernels:
        rows = kernel_rows(call, args.top)
        if rows is None:
            print("   (PyTorch's profiler is not installed: no kernel table)")
        else:
            row["kernels"] = [{"name": n, "launches": k, "ms": ms} for n, k, ms in rows]
            total = sum(ms for _, _, ms in rows)
            print(f"   kernels (top {args.top}, {total:.2f} ms of device time):")
            for name, launches, ms in rows:
                print(f"   {ms:9.3f} ms  {launches:5d}x  {name}")
    return row


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=24)
    p.add_argument("--algorithm", default="bfs", choices=["bfs", "sssp", "pagerank", "wcc"])
    p.add_argument("--formats", nargs="+", default=["csr"])
    p.add_argument("--renumber", choices=["true", "false", "both"], default="true")
    p.add_argument("--vertex-order", default="degree", choices=["sorted", "degree"])
    p.add_argument("--undirected", action="store_true",
                   help="an undirected graph (WCC always runs on one)")
    p.add_argument("--no-cugraph", action="store_true", help="leave cuGraph's call out")
    p.add_argument("--python", action="store_true", help="cProfile's table of each call")
    p.add_argument("--kernels", action="store_true", help="the GPU kernels of each call")
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--unweighted", action="store_true",
                   help="graphs without weights (the main benchmark's PageRank graphs)")
    p.add_argument("--floor", action="store_true",
                   help="csr: also time the floor of the algorithm's pass over the lists "
                        "(gather_floor.cu, FLOORS)")
    p.add_argument("--json", help="write the rows here")
    args = p.parse_args(argv)
    rmm.reinitialize(pool_allocator=True)
    from rmm.allocators.cupy import rmm_cupy_allocator

    cp.cuda.set_allocator(rmm_cupy_allocator)
    df = simple_edges(rmat_edgelist(args.scale, seed=42, weighted=not args.unweighted,
                                    backend="device"))
    weight = None if args.unweighted else "weight"
    source = int(df["source"].iloc[0])
    directed = not args.undirected and args.algorithm != "wcc"
    transposed = args.algorithm == "pagerank"
    rows = []
    if not args.no_cugraph:
        import cugraph

        G = cugraph.Graph(directed=directed)
        G.from_cudf_edgelist(df, source="source", destination="destination", weight=weight,
                             renumber=True, store_transposed=transposed)
        rows.append(report("cugraph", caller(cugraph, G, args.algorithm, source), args, G))
        del G
    renumbers = {"true": (True,), "false": (False,), "both": (True, False)}[args.renumber]
    for fmt in args.formats:
        for renumber in renumbers:
            order = args.vertex_order if renumber else "sorted"
            G = cgc.CompressedGraph(directed=directed, format=fmt, vertex_order=order)
            G.from_cudf_edgelist(df, weight=weight, renumber=renumber,
                                 store_transposed=transposed)
            label = f"{fmt} renumber={renumber}" + (" degree" if order == "degree" else "")
            row = report(label, caller(cgc, G, args.algorithm, source), args)
            if args.floor and fmt == "csr":
                row["floor"] = floor = FLOORS[args.algorithm][0](G)
                at_floor, text = describe_floor(args.algorithm, floor, row)
                print(f"   {text}", flush=True)
                if rows and rows[0]["contender"] == "cugraph":
                    print(f"   that is {at_floor / rows[0]['ms']:.2f}x cuGraph's call", flush=True)
            rows.append(dict(row, format=fmt, renumber=renumber, vertex_order=order))
            del G
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"scale": args.scale, "algorithm": args.algorithm, "directed": directed,
                       "weighted": not args.unweighted,
                       "source": source, "device": cp.cuda.runtime.getDeviceProperties(0)
                       ["name"].decode(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
