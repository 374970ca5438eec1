#!/usr/bin/env python3
"""EFG's BFS beside our ``ef`` BFS and cuGraph's, on the benchmark's R-MAT graph and sources.

EFG (github.com/pgera/efg; Gera and Kim, "Traversing Large Compressed Graphs on GPUs", IPDPS
'23) is the reference implementation of Elias-Fano compressed graphs traversed on the GPU.
``benchmarks/efg/build.sh`` builds its binary into ``.efg/bin/efg_bfs``; this script

1. generates the graph ``benchmarks/run.py`` measures (``bench.graphs.generate``: R-MAT,
   edge factor 16, seed 42, cuGraph's generator on a GPU; ``bench.simple_edges``: repeated
   pairs dropped; directed) and draws the same sources (``bench.graphs.describe_graph``);
2. times cuGraph (``renumber=True``) and our ``ef`` layout on it as ``run.py`` does
   (``bench.measure_graph``: one RMM pool, a warm-up, ``--repeats`` calls per source);
3. writes EFG's input (:func:`write_efg_graph`) to a temporary directory and runs the binary
   once per source in its in-memory mode (``efg_bfs -n REPEATS -r SOURCE DIR``, never ``-u``,
   its UVM mode): each run reads and encodes the graph on the CPU, copies it to the GPU, runs
   one warm-up traversal and ``REPEATS`` timed ones, and prints each one's time (CUDA events
   around the traversal: the level loop and its per-call allocations, not the copy of the
   distances to the host), the edges of the vertices it reached and the SHA-1 of its
   distances;
4. checks EFG's levels: EFG prints no distances, only that hash, so each source's hash is
   compared with the same hash of our ``ef`` BFS from that source (one more untimed run:
   a uint64 per vertex id, ``2**64 - 1`` where unreached, :func:`levels_sha1`); every level
   of every vertex must agree;
5. writes a JSON record shaped like ``run.py``'s (its ``results`` rows: contender ``efg``,
   format ``ef``, algorithm ``bfs``, ``ms`` the median over sources x repeats, ``sources``,
   ``structure_bytes`` EFG's own EF size, which has no weights where our ``ef`` row counts its
   4-byte weights), plus an ``efg`` entry (the binary's build, the command and wall time of
   each run, EFG's header lines), and prints the table.

On the GPU host, from the repository root, with ``.efg/bin`` carried::

    source /root/rapids/env.sh && GIT_COMMIT=<commit> python3 benchmarks/efg_peer.py \\
        --scale 24 --out $OUT/efg-peer-scale24.json

EFG runs as a separate process while this one holds its RMM pool (half the GPU by default), so
it has the other half. ``--backend host`` runs everything on the CPU but EFG, which then
fails for want of a GPU (its row says so): a dry run of the rest.
"""

import argparse
import datetime
import hashlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed import bench  # noqa: E402
from cugraph_compressed.bench.environment import (  # noqa: E402
    Environment,
    git_commit,
    to_host,
    versions,
)
from cugraph_compressed.bench.graphs import describe_graph, generate  # noqa: E402
from cugraph_compressed.bench.report import ratio, result_row  # noqa: E402
from cugraph_compressed.bench.specs import Contender, contenders  # noqa: E402

#: The binary benchmarks/efg/build.sh makes.
EFG_BINARY = ROOT / ".efg" / "bin" / "efg_bfs"
#: EFG's contender in records: its own EF layout, vertex ids as given (no renumbering).
EFG = Contender("efg", "ef", renumber=False)
#: EFG's distance of a vertex its BFS did not reach (``std::numeric_limits<size_t>::max()``).
UNREACHED = np.iinfo(np.uint64).max
#: The file names and element type EFG reads (its README, "Input Graph Format").
VERTEX_FILE, EDGE_FILE = "vertex.CSR", "edge.CSR"
EFG_DTYPE = np.dtype("<u8")

_TRAVERSAL = re.compile(r"^\[(\d+)\] Source (\d+) Time (\S+) ms Visi\w* edges: (\d+) "
                        r"GTEPS: \S+ Hash ([0-9a-f]{40})$", re.MULTILINE)
_HEADER = {"vertices": (r"^vertex_cnt = (\d+)$", int), "edges": (r"^edge_cnt = (\d+)$", int),
           "ef_bytes": (r"^EF size: (\d+)$", int),
           "compression_ratio": (r"^Compression ratio: (\S+)$", float)}


def efg_csr(src, dst, num_vertices, xp=np):
    """EFG's CSR of a directed edge list: row offsets and, list by list, sorted column ids.

    Parameters
    ----------
    src, dst : array_like of int
        The edges' ends (NumPy, or CuPy with ``xp=cupy``), ids in ``[0, num_vertices)``.
    num_vertices : int
        Rows of the CSR; vertices without out-edges get empty lists.  At most ``2**32``.
    xp : module, default numpy
        The array module of ``src`` and ``dst`` (the work stays where they are).

    Returns
    -------
    tuple of (array, array)
        ``uint64`` offsets (``num_vertices + 1``) and ``uint64`` column ids (one per edge,
        each list ascending, repeated edges kept).

    Raises
    ------
    ValueError
        When the ends differ in length, ``num_vertices`` is out of range, or an id lies
        outside ``[0, num_vertices)`` (the message names it).
    """
    num_vertices = int(num_vertices)
    if not 0 < num_vertices <= 2**32:
        raise ValueError(f"num_vertices={num_vertices} must be in [1, 2**32]")
    src, dst = xp.asarray(src), xp.asarray(dst)
    if src.shape != dst.shape or src.ndim != 1:
        raise ValueError(f"source and destination must be 1-d of one length, got shapes "
                         f"{src.shape} and {dst.shape}")
    for name, ids in (("source", src), ("destination", dst)):
        if ids.size and not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"{name} ids must be integers, got dtype {ids.dtype}")
        if ids.size and (int(ids.min()) < 0 or int(ids.max()) >= num_vertices):
            bad = int(ids.min()) if int(ids.min()) < 0 else int(ids.max())
            raise ValueError(f"{name} id {bad} is outside [0, {num_vertices})")
    # One sort of (source, destination) packed in 64 bits orders the lists and their ids.
    key = src.astype(xp.uint64) << xp.uint64(32)
    key |= dst.astype(xp.uint64)
    key.sort()
    counts = xp.bincount((key >> xp.uint64(32)).astype(xp.int64), minlength=num_vertices)
    offsets = xp.zeros(num_vertices + 1, dtype=xp.uint64)
    offsets[1:] = xp.cumsum(counts)
    key &= xp.uint64(0xFFFFFFFF)
    return offsets, key


def write_efg_graph(directory, src, dst, num_vertices, xp=np):
    """Write a directed edge list as EFG's input: ``vertex.CSR`` and ``edge.CSR``.

    EFG reads a directory of two files of little-endian 64-bit unsigned integers: the
    ``num_vertices + 1`` row offsets and the column ids, each list sorted.

    Parameters
    ----------
    directory : str or Path
        Created if missing.
    src, dst, num_vertices, xp
        As in :func:`efg_csr`.

    Returns
    -------
    Path
        ``directory``, what the binary takes.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    offsets, columns = efg_csr(src, dst, num_vertices, xp)
    to_host(offsets).astype(EFG_DTYPE, copy=False).tofile(directory / VERTEX_FILE)
    del offsets
    to_host(columns).astype(EFG_DTYPE, copy=False).tofile(directory / EDGE_FILE)
    return directory


def levels_sha1(vertex, distance, num_vertices):
    """The SHA-1 EFG prints of a BFS's distances, from a BFS result's columns.

    EFG hashes one little-endian uint64 per vertex id ``0 .. num_vertices - 1``: the level of
    the vertex, :data:`UNREACHED` where the BFS did not reach it.

    Parameters
    ----------
    vertex, distance : array_like of int
        A BFS result's columns (cuGraph's ``bfs`` frame); a distance equal to the largest
        value of its dtype means unreached, as in cuGraph; vertices not listed are unreached.
    num_vertices : int
        The vertex count of EFG's graph.

    Returns
    -------
    str
        40 hexadecimal digits.

    Raises
    ------
    ValueError
        When a reached vertex lies outside ``[0, num_vertices)``.
    """
    vertex, distance = np.asarray(vertex), np.asarray(distance)
    reached = distance != np.iinfo(distance.dtype).max
    ids = vertex[reached].astype(np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= num_vertices):
        bad = int(ids.min()) if ids.min() < 0 else int(ids.max())
        raise ValueError(f"reached vertex {bad} is outside [0, {num_vertices})")
    levels = np.full(int(num_vertices), UNREACHED, dtype=EFG_DTYPE)
    levels[ids] = distance[reached]
    return hashlib.sha1(levels.tobytes()).hexdigest()


def parse_efg_output(text):
    """What EFG's binary printed: its header numbers and one entry per timed traversal.

    Parameters
    ----------
    text : str
        Its standard output.

    Returns
    -------
    dict
        ``vertices``, ``edges``, ``ef_bytes`` (the EF layout's bytes), ``compression_ratio``
        (EFG's: a CSR of the narrowest widths over the EF bytes), each None when not printed,
        and ``traversals``: a list of ``{"source", "ms", "visited_edges", "sha1"}``.
    """
    parsed = {}
    for key, (pattern, cast) in _HEADER.items():
        found = re.search(pattern, text, re.MULTILINE)
        parsed[key] = cast(found.group(1)) if found else None
    parsed["traversals"] = [
        {"source": int(m.group(2)), "ms": float(m.group(3)), "visited_edges": int(m.group(4)),
         "sha1": m.group(5)} for m in _TRAVERSAL.finditer(text)]
    return parsed


def run_efg(binary, directory, source, repeats, timeout):
    """One EFG process: ``repeats`` timed BFS traversals from ``source``, in-memory mode.

    Returns
    -------
    tuple of (dict, list of str, float)
        :func:`parse_efg_output` of its output, the command and its wall seconds.

    Raises
    ------
    RuntimeError
        When it fails, times out, or does not print ``repeats`` traversals from ``source``;
        the message ends with the last lines it printed.
    """
    command = [str(binary), "-n", str(repeats), "-r", str(source), str(directory)]
    t0 = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"{' '.join(command)} ran past {timeout} s") from exc
    wall = time.perf_counter() - t0
    parsed = parse_efg_output(done.stdout)
    runs = parsed["traversals"]
    if done.returncode != 0 or len(runs) != repeats or {r["source"] for r in runs} != {source}:
        tail = " | ".join((done.stdout + done.stderr).strip().splitlines()[-4:])
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode} with {len(runs)} of "
                           f"{repeats} traversals from {source}: {tail}")
    return parsed, command, wall


def reference_levels(env, df, graph, sources, num_vertices):
    """Per source, :func:`levels_sha1` of our ``ef`` BFS on the benchmark's graph (untimed)."""
    ours = Contender(bench.OURS, "ef")
    G = ours.builder(env, graph["directed"], "weighted")(df)
    run = ours.call(env, bench.SPECS["bfs"])
    hashes = []
    for source in sources:
        out = run(G, source)
        hashes.append(levels_sha1(to_host(env.column(out, "vertex")),
                                  to_host(env.column(out, "distance")), num_vertices))
        del out
    del G
    env.free()
    return hashes


def measure_efg(binary, directory, graph, sources, repeats, timeout, reference, backend, log):
    """EFG's result row, checked against ``reference`` (levels hashes per source), each
    run's command and wall seconds, and the header numbers EFG printed (None if it failed)."""
    runs, traversals = [], []
    try:
        for source in sources:
            parsed, command, wall = run_efg(binary, directory, source, repeats, timeout)
            traversals += parsed["traversals"]
            runs.append({"command": command, "wall_s": round(wall, 3)})
            median = statistics.median(t["ms"] for t in parsed["traversals"])
            log(f"    efg from {source}: {median:.3f} ms (process {wall:.1f} s)")
    except RuntimeError as exc:
        log(f"    efg: {exc}")
        return result_row(backend, graph, EFG, "bfs", "weighted", sources=sources,
                          check="error", note=f"failed: {exc}"), runs, None
    times = [t["ms"] for t in traversals]
    first = [next(t for t in traversals if t["source"] == s) for s in sources]
    same = all(t["sha1"] == h for t, h in zip(first, reference))
    median = statistics.median(times)
    header = {k: parsed[k] for k in _HEADER}
    row = result_row(
        backend, graph, EFG, "bfs", "weighted", sources=sources, ms=median, ms_min=min(times),
        ms_max=max(times), runs=len(times), gteps=graph["edges"] / median / 1e6,
        structure_bytes=header["ef_bytes"],
        bytes_per_edge=ratio(header["ef_bytes"], graph["edges"]),
        summary=[{"levels_sha1": t["sha1"], "visited_edges": t["visited_edges"]} for t in first],
        check="ok" if same else "MISMATCH", checked_against=f"{bench.OURS}:ef levels")
    return row, runs, header


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=int, default=24, help="R-MAT scale (24)")
    p.add_argument("--edge-factor", type=int, default=16)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--sources", type=int, default=4, help="BFS start vertices (4)")
    p.add_argument("--repeats", type=int, default=5, help="timed runs per source (5)")
    p.add_argument("--encode-repeats", type=int, default=1,
                   help="timed builds of cuGraph's and our graph (1)")
    p.add_argument("--backend", choices=("auto", "device", "host"), default="auto")
    p.add_argument("--no-cugraph", action="store_true", help="leave cuGraph out")
    p.add_argument("--efg", type=Path, default=EFG_BINARY,
                   help="EFG's binary (.efg/bin/efg_bfs, from benchmarks/efg/build.sh)")
    p.add_argument("--efg-timeout", type=float, default=300.0, metavar="SECONDS",
                   help="limit of one EFG process (300)")
    p.add_argument("--work-dir", type=Path, default=None,
                   help="where EFG's input goes (default: a temporary directory, removed)")
    p.add_argument("--out", type=Path, default=None,
                   help="JSON path (default benchmarks/results/efg-peer/<device>-<date>.json)")
    p.add_argument("--git-commit", default=None,
                   help="commit to record (default: $GIT_COMMIT, else git rev-parse HEAD)")
    args = p.parse_args(argv)
    if args.repeats < 1 or args.sources < 1 or args.encode_repeats < 0:
        p.error(f"--repeats ({args.repeats}) and --sources ({args.sources}) must be >= 1, "
                f"--encode-repeats ({args.encode_repeats}) >= 0")
    if not args.efg.is_file():
        p.error(f"EFG's binary {args.efg} is missing: run benchmarks/efg/build.sh")
    # Before minutes of work: a binary this machine cannot load (an older glibc) says so now.
    usage = subprocess.run([str(args.efg), "--help"], capture_output=True, text=True, timeout=60)
    if usage.returncode != 0:
        p.error(f"{args.efg} --help exited {usage.returncode}: {usage.stderr.strip()[-300:]}")

    def log(line):
        print(line, file=sys.stderr, flush=True)

    backend, why_host = bench.pick_backend(args.backend)
    env = Environment(backend)
    scale, num_vertices = args.scale, 1 << args.scale  # EFG gets every id R-MAT can draw
    log(f"R-MAT {scale}: generating {args.edge_factor << scale:,} edges on the {env.gen_backend}")
    df, generate_s, generator = generate(env, scale, args.edge_factor, args.seed)
    generated = len(df)
    df = bench.simple_edges(df)
    graph, sources = describe_graph(env, df, scale, args.edge_factor, args.seed, True,
                                    args.sources)
    graph.update(generated_edges=generated, generate_s=round(generate_s, 3), generator=generator)
    log(f"  {graph['edges']:,} edges; sources {sources}")

    work = args.work_dir or Path(tempfile.mkdtemp(prefix="efg-peer-"))
    try:
        t0 = time.perf_counter()
        write_efg_graph(work, env.column(df, "source"), env.column(df, "destination"),
                        num_vertices, env.xp)
        env.free()
        log(f"  EFG input in {work} ({time.perf_counter() - t0:.1f} s)")
        sides = contenders(["ef"], not args.no_cugraph and backend == "device"
                           and env.cugraph is not None)
        rows = bench.measure_graph(env, df, graph, sides, [bench.SPECS["bfs"]], sources,
                                   repeats=args.repeats, encode_repeats=args.encode_repeats,
                                   count_reads=False, log=log)
        reference = reference_levels(env, df, graph, sources, num_vertices)
        del df
        env.free()
        if env.rmm is not None:  # hand the pool's memory back: EFG gets the whole GPU
            env.rmm.reinitialize(pool_allocator=False)
        log(f"  efg [{args.efg}]")
        row, runs, header = measure_efg(args.efg, work, graph, sources, args.repeats,
                                        args.efg_timeout, reference, backend, log)
    finally:
        if args.work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    build_info = args.efg.parent / "BUILD_INFO"
    record = {
        "device": env.device_name(), "backend": backend, "host_reason": why_host,
        "versions": versions(), "git_commit": git_commit(args.git_commit),
        "timestamp": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "settings": {"repeats": args.repeats, "encode_repeats": args.encode_repeats,
                     "num_sources": args.sources, "algorithms": ["bfs"], "formats": ["ef"],
                     "graphs": {"weighted": dict(bench.GRAPHS["weighted"])}, "renumber": True,
                     "rmm_pool": env.rmm_pool},
        "graphs": [graph],
        "results": rows + [row],
        "efg": {"binary": str(args.efg), "vertices_given": num_vertices,
                "build": build_info.read_text().splitlines() if build_info.is_file() else None,
                "printed": header, "runs": runs, "levels_reference": reference,
                "timer": "CUDA events around each traversal, as EFG prints them"},
    }
    print(f"{record['device']} ({backend}), commit {record['git_commit']}, {record['timestamp']}")
    print("\n".join(bench.describe_graphs(record)))
    print(bench.format_table(record))
    out = args.out or bench.default_json_path(record, ROOT / "benchmarks" / "results" / "efg-peer")
    print(f"wrote {bench.write_json(record, out)}")
    return 1 if bench.failed(record) else 0


if __name__ == "__main__":
    sys.exit(main())
