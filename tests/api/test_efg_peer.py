"""``benchmarks/efg_peer.py`` on the CPU: EFG's input files read back by a reader written from
EFG's documented format, the levels hash against an independent BFS, the parser against
EFG's print format, and the whole script with a stand-in for EFG's binary (SciPy's BFS
behind EFG's command line and output)."""
import hashlib
import json
import re
import struct
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import efg_peer  # noqa: E402

from cugraph_compressed import CompressedGraph, bfs  # noqa: E402
from cugraph_compressed.bench import simple_edges  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402

MISSING = 2**64 - 1  # EFG's distance of an unreached vertex


def read_efg_graph(directory):
    """EFG's input as its README defines it: ``vertex.CSR`` holds |V| + 1 row offsets and
    ``edge.CSR`` |E| column indices, both 64-bit (little-endian on x86), each list sorted.
    Returns the number of vertices and the (source, destination) pairs in file order."""
    raw = {}
    for name in ("vertex.CSR", "edge.CSR"):
        data = (Path(directory) / name).read_bytes()
        assert len(data) % 8 == 0, f"{name} is not a whole number of 64-bit words"
        raw[name] = [v for (v,) in struct.iter_unpack("<Q", data)]
    offsets, columns = raw["vertex.CSR"], raw["edge.CSR"]
    assert offsets[0] == 0 and offsets[-1] == len(columns)
    pairs = []
    for u in range(len(offsets) - 1):
        lo, hi = offsets[u], offsets[u + 1]
        assert lo <= hi
        row = columns[lo:hi]
        assert row == sorted(row), f"list of {u} is not sorted"
        pairs += [(u, v) for v in row]
    return len(offsets) - 1, pairs


def test_round_trip_keeps_every_edge_and_isolated_tail(tmp_path):
    rng = np.random.default_rng(3)
    src = rng.integers(0, 40, 300).astype(np.int32)
    dst = rng.integers(0, 40, 300).astype(np.int32)
    src[:4], dst[:4] = 7, 7                      # a self loop, repeated
    efg_peer.write_efg_graph(tmp_path, src, dst, 50)   # ids 40..49 have no edges
    n, pairs = read_efg_graph(tmp_path)
    assert n == 50
    assert Counter(pairs) == Counter(zip(src.tolist(), dst.tolist()))


def test_round_trip_of_the_benchmark_graph(tmp_path):
    df = simple_edges(rmat_edgelist(9, seed=42, weighted=True))
    efg_peer.write_efg_graph(tmp_path, df["source"].to_numpy(), df["destination"].to_numpy(),
                             1 << 9)
    n, pairs = read_efg_graph(tmp_path)
    assert n == 512
    back = pd.DataFrame(pairs, columns=["source", "destination"])
    expected = df[["source", "destination"]].astype(np.int64)
    assert len(back) == len(expected)
    merged = back.merge(expected, how="outer", indicator=True)
    assert (merged["_merge"] == "both").all()


@pytest.mark.parametrize("src, dst, n, message", [
    ([0, 5], [1, 2], 5, "source id 5 is outside [0, 5)"),
    ([0, 1], [1, -2], 5, "destination id -2 is outside [0, 5)"),
    ([0, 1], [1, 2], 0, "num_vertices=0"),
    ([0, 1], [1], 5, "one length"),
    ([0.0, 1.0], [1.0, 2.0], 5, "must be integers"),
])
def test_bad_edges_raise_naming_the_value(tmp_path, src, dst, n, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        efg_peer.write_efg_graph(tmp_path, np.asarray(src), np.asarray(dst), n)
    assert not (tmp_path / "vertex.CSR").exists()


def scipy_levels_sha1(n, src, dst, source):
    """SHA-1 of one little-endian uint64 level per vertex (2^64 - 1 unreached), from SciPy."""
    a = sp.csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    dist = csgraph.shortest_path(a, directed=True, unweighted=True, indices=source)
    words = [MISSING if np.isinf(d) else int(d) for d in dist]
    return hashlib.sha1(struct.pack(f"<{n}Q", *words)).hexdigest()


def test_levels_hash_of_our_bfs_matches_scipy():
    df = simple_edges(rmat_edgelist(8, seed=5, weighted=True))
    n = 1 << 8
    G = CompressedGraph(directed=True, format="ef").from_pandas_edgelist(df)  # renumbered
    src, dst = df["source"].to_numpy(), df["destination"].to_numpy()
    for source in (int(src[0]), int(src[17])):
        out = bfs(G, source)
        ours = efg_peer.levels_sha1(out["vertex"].to_numpy(), out["distance"].to_numpy(), n)
        assert ours == scipy_levels_sha1(n, src, dst, source)


def test_levels_hash_rejects_a_vertex_past_the_graph():
    with pytest.raises(ValueError, match=r"reached vertex 9 is outside \[0, 4\)"):
        efg_peer.levels_sha1(np.array([0, 9]), np.array([0, 1], np.int32), 4)


EFG_RUN = """Reading CSR from /tmp/g
vertex_cnt = 16
edge_cnt = 40
Total CSR size: 448
Optimal CSR size: 97
EF size: 61
Compression ratio: 1.59016
Populating EFG Graph
Graph populated
Running 2 traversals
[0] Source 3 Time 0.25 ms Visisted edges: 12 GTEPS: 0.048 Hash {h0}
[1] Source 3 Time 1.5e-01 ms Visisted edges: 12 GTEPS: 0.08 Hash {h0}
Total time: 0.4 ms Total visited edges: 24 Total GTEPS: 0.06
"""


def test_parse_reads_efg_print_format():
    h0 = hashlib.sha1(b"x").hexdigest()
    parsed = efg_peer.parse_efg_output(EFG_RUN.format(h0=h0))
    assert parsed["vertices"] == 16 and parsed["edges"] == 40 and parsed["ef_bytes"] == 61
    assert parsed["compression_ratio"] == pytest.approx(1.59016)
    assert parsed["traversals"] == [
        {"source": 3, "ms": 0.25, "visited_edges": 12, "sha1": h0},
        {"source": 3, "ms": 0.15, "visited_edges": 12, "sha1": h0}]
    assert efg_peer.parse_efg_output("GPUassert: no device")["traversals"] == []


STAND_IN = '''#!{python}
"""EFG's command line and output, with SciPy's BFS (``-n N -r ROOT DIR``)."""
import hashlib, struct, sys
import numpy as np, scipy.sparse as sp
from scipy.sparse import csgraph
args = sys.argv[1:]
{startup}
if "--help" in args:
    sys.exit(print("efg_bfs [OPTIONS] INPUT_DIR"))
n_runs, root, directory = int(args[args.index("-n") + 1]), int(args[args.index("-r") + 1]), args[-1]
{failure}
offsets = np.fromfile(directory + "/vertex.CSR", dtype="<u8")
columns = np.fromfile(directory + "/edge.CSR", dtype="<u8")
n = offsets.size - 1
a = sp.csr_matrix((np.ones(columns.size), columns.astype(np.int64), offsets.astype(np.int64)),
                  shape=(n, n))
dist = csgraph.shortest_path(a, unweighted=True, indices=root)
words = [2**64 - 1 if np.isinf(d) else int(d) {offset} for d in dist]
digest = hashlib.sha1(struct.pack("<%dQ" % n, *words)).hexdigest()
print("vertex_cnt = %d" % n)
print("edge_cnt = %d" % columns.size)
print("EF size: 1234")
print("Compression ratio: 1.5")
for i in range(n_runs):
    print("[%d] Source %d Time %.3f ms Visisted edges: 7 GTEPS: 1 Hash %s"
          % (i, root, 2.0 + i, digest))
'''


def stand_in(tmp_path, failure="", offset="", startup=""):
    path = tmp_path / "efg_bfs"
    path.write_text(STAND_IN.format(python=sys.executable, failure=failure, offset=offset,
                                    startup=startup))
    path.chmod(0o755)
    return path


def run_script(tmp_path, binary):
    out = tmp_path / "record.json"
    rc = efg_peer.main(["--scale", "8", "--backend", "host", "--sources", "2", "--repeats", "2",
                        "--encode-repeats", "0", "--efg", str(binary), "--out", str(out)])
    return rc, json.loads(out.read_text())


def test_script_with_a_stand_in_checks_levels_and_records_efg(tmp_path, capsys):
    rc, record = run_script(tmp_path, stand_in(tmp_path))
    assert rc == 0
    rows = {r["contender"]: r for r in record["results"]}
    efg, ours = rows["efg"], rows["cugraph_compressed"]
    assert efg["format"] == "ef" and efg["algorithm"] == "bfs" and efg["check"] == "ok"
    assert efg["sources"] == ours["sources"] == record["graphs"][0]["sources"]
    assert len(efg["sources"]) == 2
    assert efg["runs"] == 4 and efg["ms"] == pytest.approx(2.5)   # 2.0, 3.0 per source
    assert efg["ms_min"] == 2.0 and efg["ms_max"] == 3.0
    assert efg["structure_bytes"] == 1234
    assert efg["gteps"] == pytest.approx(record["graphs"][0]["edges"] / 2.5e-3 / 1e9)
    assert [len(run["command"]) for run in record["efg"]["runs"]] == [6, 6]
    assert "efg (ef)" in capsys.readouterr().out


def test_script_flags_levels_that_differ(tmp_path):
    rc, record = run_script(tmp_path, stand_in(tmp_path, offset="+ (d == 2)"))
    efg = next(r for r in record["results"] if r["contender"] == "efg")
    assert rc == 1 and efg["check"] == "MISMATCH"


def test_script_records_a_failing_binary(tmp_path):
    failure = 'sys.exit("ERROR: this EFG build has no BFS for the graph")'
    rc, record = run_script(tmp_path, stand_in(tmp_path, failure=failure))
    efg = next(r for r in record["results"] if r["contender"] == "efg")
    assert rc == 1 and efg["check"] == "error" and efg["ms"] is None
    assert "no BFS for the graph" in efg["note"]


def test_script_stops_early_when_the_binary_cannot_start(tmp_path, capsys):
    startup = 'sys.exit("efg_bfs: version GLIBC_2.36 not found")'
    with pytest.raises(SystemExit) as stop:
        run_script(tmp_path, stand_in(tmp_path, startup=startup))
    assert stop.value.code == 2
    assert "GLIBC_2.36 not found" in capsys.readouterr().err
    assert not (tmp_path / "record.json").exists()
