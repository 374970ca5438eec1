"""The benchmark's read counts (cugraph_compressed.bench.reads) against a brute-force count:
per layout and run, the 128-byte lines and bytes of the per-edge buffers, walked list by list
in plain Python over SciPy's distances and the host decoder's lists."""
import numpy as np
import pytest
from graphs import adjacency, random_edges
from scipy.sparse import csgraph

from cugraph_compressed import CompressedGraph, bfs, pagerank, sssp, weakly_connected_components
from cugraph_compressed.algorithms import ALGORITHMS
from cugraph_compressed.algorithms.pagerank import LAST_RUN
from cugraph_compressed.bench import reads
from cugraph_compressed.bench.report import format_reads
from cugraph_compressed.bench.run import run_benchmark
from cugraph_compressed.kernels.traversal import TraversalConfig

LAYOUTS = ["csr", "fl", "ef", "cgr"]
N = 300


def build(fmt, directed, weighted=False, transposed=False, seed=3, dtype=np.int64):
    df = random_edges(N, 4000, seed, weighted=weighted, dtype=dtype)
    df = df[df.source != df.destination].drop_duplicates(["source", "destination"])
    G = CompressedGraph(directed=directed, format=fmt)
    G.from_pandas_edgelist(df, source="source", destination="destination", renumber=False,
                           weight="weight" if weighted else None, store_transposed=transposed)
    return G, df


def brute_extents(layout):
    """(begin, end) bytes per list from the layout's own definition, one list at a time."""
    n, out = layout.num_vertices, []
    degrees = np.asarray(layout.degrees())
    first = np.concatenate([[0], np.cumsum(degrees)])
    for v in range(n):
        if degrees[v] == 0:
            out.append((0, 0))
        elif layout.name == "csr":
            size = layout.indices.dtype.itemsize
            out.append((first[v] * size, first[v + 1] * size))
        elif layout.name == "fl":
            w = layout.index_width
            b0, b1 = first[v] * w, first[v + 1] * w
            out.append((b0 // 32 * 4, ((b1 - 1) // 32 + 2) * 4))  # read_bits loads 2 words
        else:
            ext = reads.list_extents(layout)  # ef, cgr: the code's extents, checked by tiling
            return list(zip(ext.begin.tolist(), ext.end.tolist()))
    return out


def lines_of(begin, end):
    return set(range(begin // 128, (end - 1) // 128 + 1)) if end > begin else set()


def brute_pass(extents, lists):
    """lines (union), requests, bytes of reading (begin, end) ranges ``lists``."""
    union, requests, nbytes = set(), 0, 0
    for begin, end in lists:
        own = lines_of(begin, end)
        union |= own
        requests += len(own)
        nbytes += max(0, end - begin)
    return reads.Reads(len(union), requests, nbytes, 1)


@pytest.mark.parametrize("fmt", LAYOUTS)
def test_extents_follow_each_list_and_tile_the_payload(fmt):
    G, _ = build(fmt, directed=True)
    layout = G.view().adjacency("out").layout
    ext = reads.list_extents(layout)
    begin, end = ext.begin, ext.end
    assert list(zip(begin.tolist(), end.tolist())) == [
        (int(b), int(e)) for b, e in brute_extents(layout)]
    nonempty = np.asarray(layout.degrees()) > 0
    assert np.array_equal(end > begin, nonempty)
    b, e = begin[nonempty], end[nonempty]
    assert np.all(b[1:] >= b[:-1]) and np.all(e[1:] >= e[:-1])  # lists in vertex order
    payload = layout.arrays[layout.edge_buffers[0]].nbytes
    assert int(e.max()) <= payload + 8  # at most the lookahead word past the codes


def test_count_ranges_matches_a_set_of_lines():
    rng = np.random.default_rng(0)
    begin = rng.integers(0, 5000, 400)
    end = begin + rng.integers(0, 700, 400)
    got = reads.count_ranges(begin, end, np)
    assert got == brute_pass(None, zip(begin.tolist(), end.tolist()))


def replay_bfs_brute(layout, dist, can_go_up, config, in_layout=None):
    """Per level, top-down: the frontier's whole lists; bottom-up (Beamer's rule, written out
    per vertex): each unvisited vertex's in-list (``in_layout``'s, by default its own list)
    up to its first frontier neighbour."""
    n = layout.num_vertices
    degrees = np.asarray(layout.degrees())
    ext = reads.list_extents(layout)
    in_layout = layout if in_layout is None else in_layout
    up_degrees = np.asarray(in_layout.degrees())
    owner, neigh, _ = in_layout.decode_lists(np.arange(n))
    lists = [neigh[owner == v] for v in range(n)]
    up_ext = reads.list_extents(in_layout)
    direction, unexplored, previous = "down", layout.num_edges, 0
    total, ups = reads.Reads(), 0
    for level in range(int(dist.max()) + 1):
        frontier = [v for v in range(n) if dist[v] == level]
        edges = sum(int(degrees[v]) for v in frontier)
        if direction == "down":
            if can_go_up and edges * config.bottom_up_alpha > unexplored:
                direction = "up"
            else:
                unexplored -= min(edges, unexplored)
        elif len(frontier) < previous and len(frontier) * config.bottom_up_beta <= n:
            direction = "down"
        previous = len(frontier)
        ranges = []
        if direction == "down":
            ranges = [(int(ext.begin[v]), int(ext.end[v])) for v in frontier]
        else:
            ups += 1
            for v in range(n):
                if 0 <= dist[v] <= level or up_degrees[v] == 0:
                    continue
                hits = [k for k, u in enumerate(lists[v]) if dist[u] == level]
                k = hits[0] + 1 if hits else int(up_degrees[v])
                if layout.name in ("csr", "fl"):
                    bits = up_ext.rank_bits
                    stop = (int(up_ext.first_edge[v]) + k) * bits
                    end = ((stop + 31) // 32 + up_ext.lookahead_words) * 4
                else:
                    size = int(up_ext.end[v] - up_ext.begin[v])
                    share = -(-size * k // int(up_degrees[v]))
                    end = min(int(up_ext.end[v]), int(up_ext.begin[v]) + (share + 3) // 4 * 4)
                ranges.append((int(up_ext.begin[v]), end))
        total = total + brute_pass(None, ranges)
    return total, ups


@pytest.mark.parametrize("fmt", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
def test_bfs_reads_match_a_level_by_level_count(fmt, directed):
    G, df = build(fmt, directed)
    G.traversal = TraversalConfig(bottom_up_alpha=200.0)  # bottom-up levels on this small graph
    a = adjacency(df.source, df.destination, N, directed)
    source = int(df.source.iloc[0])
    expected = csgraph.shortest_path(a, unweighted=True, directed=True, indices=source)
    dist = np.where(np.isfinite(expected), expected, -1).astype(np.int64)
    layout = G.view().adjacency("out").layout
    want, ups = replay_bfs_brute(layout, dist, not directed, G.traversal)
    assert (ups > 0) == (not directed)
    counter = reads.RunReads(G, ALGORITHMS["bfs"])
    assert counter(bfs(G, source)) == want


@pytest.mark.parametrize("fmt", LAYOUTS)
def test_directed_bottom_up_reads_scan_the_in_lists_beside(fmt):
    """With directed_bottom_up the count's bottom-up levels read the in-lists the graph keeps
    beside its out-lists, while top-down levels and the switch's edge counts stay on the
    out-lists."""
    G, df = build(fmt, directed=True)
    G.traversal = TraversalConfig(bottom_up_alpha=200.0, directed_bottom_up=True)
    a = adjacency(df.source, df.destination, N, True)
    source = int(df.source.iloc[0])
    expected = csgraph.shortest_path(a, unweighted=True, directed=True, indices=source)
    dist = np.where(np.isfinite(expected), expected, -1).astype(np.int64)
    out = G.view().adjacency("out")
    want, ups = replay_bfs_brute(out.layout, dist, True, G.traversal,
                                 out.in_lists_beside().layout)
    assert ups > 0
    assert reads.RunReads(G, ALGORITHMS["bfs"])(bfs(G, source)) == want


@pytest.mark.parametrize("fmt", LAYOUTS)
def test_pagerank_wcc_and_sssp_reads(fmt):
    G, _ = build(fmt, directed=True, transposed=True)
    layout = G.view().adjacency("any").layout
    ext = reads.list_extents(layout)
    every = brute_pass(None, zip(ext.begin.tolist(), ext.end.tolist()))
    pagerank(G)
    iterations = LAST_RUN["iterations"]
    assert iterations > 1
    assert reads.RunReads(G, ALGORITHMS["pagerank"])(pagerank(G)) == every.times(iterations)

    U, _ = build(fmt, directed=False)
    layout = U.view().adjacency("out").layout
    ext = reads.list_extents(layout)
    assert reads.RunReads(U, ALGORITHMS["weakly_connected_components"])(
        weakly_connected_components(U)) == brute_pass(None, zip(ext.begin.tolist(),
                                                                 ext.end.tolist()))



def frontier_rounds(df, source):
    """The frontiers of label-correcting SSSP (Bellman-Ford over frontiers) in plain Python:
    round 0 relaxes the source; round k + 1 the vertices whose distance round k lowered.
    Lengths in float64, as the host computes them, with float32 weights."""
    out = {}
    for u, v, w in zip(df.source.tolist(), df.destination.tolist(), df.weight.tolist()):
        out.setdefault(u, []).append((v, w))
    dist, frontier, rounds = {source: 0.0}, [source], []
    while frontier:
        rounds.append(sorted(frontier))
        lowered = set()
        best = {}
        for u in frontier:
            for v, w in out.get(u, ()):
                best[v] = min(best.get(v, np.inf), dist[u] + w)
        for v, d in best.items():
            if d < dist.get(v, np.inf):
                dist[v] = d
                lowered.add(v)
        frontier = sorted(lowered)
    return rounds


@pytest.mark.parametrize("fmt", LAYOUTS)
def test_sssp_reads_are_a_pass_over_each_rounds_lists(fmt):
    """SSSP's count replays the run's rounds: the host's rounds are those of label-correcting
    SSSP, and each is one pass over its frontier's lists and weights."""
    from cugraph_compressed.algorithms.sssp import traced_rounds

    # int32 ids and float32 weights: predecessors recorded with the distances, no extra pass.
    W, df = build(fmt, directed=True, weighted=True, dtype=np.int32)
    source = int(df.source.iloc[0])
    want_rounds = frontier_rounds(df, source)
    assert len(want_rounds) > 3
    assert [sorted(r.tolist()) for r in traced_rounds(W.view(), source)] == want_rounds
    layout = W.view().adjacency("out").layout
    ext = reads.list_extents(layout)
    first = np.concatenate([[0], np.cumsum(np.asarray(layout.degrees()))])
    want = reads.Reads()
    for frontier in want_rounds:
        lists = brute_pass(None, [(int(ext.begin[v]), int(ext.end[v])) for v in frontier])
        weights = brute_pass(None, [(int(first[v]) * 4, int(first[v + 1]) * 4)
                                    for v in frontier])
        want = want + reads.Reads(lists.lines + weights.lines,
                                  lists.line_requests + weights.line_requests,
                                  lists.bytes + weights.bytes, 1)
    assert reads.RunReads(W, ALGORITHMS["sssp"])(sssp(W, source), source) == want
    # More than each reached list once (the former lower bound): vertices lowered twice.
    assert want.passes == len(want_rounds) and sum(map(len, want_rounds)) > len(
        set().union(*want_rounds))
    W64, _ = build(fmt, directed=True, weighted=True)  # int64 ids: a predecessor pass
    assert reads.RunReads(W64, ALGORITHMS["sssp"])(sssp(W64, source), source).passes == (
        len(want_rounds) + 1)
    with pytest.raises(ValueError, match="source="):  # the count replays the run's source
        reads.RunReads(W, ALGORITHMS["sssp"])(sssp(W, source))


def test_sssp_rounds_of_renumbered_and_transformed_graphs():
    """Renumbered ids (-1 among them, zero weights putting several vertices at distance 0)
    start the traced run from the source the count is given; a transformed graph, whose
    implementations answer on its original vertices, is refused by name."""
    import pandas as pd

    from cugraph_compressed.algorithms.sssp import traced_rounds
    from cugraph_compressed.transforms import virtual_split

    df = pd.DataFrame({"source": [5, 5, -1, 7, 9], "destination": [-1, 9, 7, 8, 5],
                       "weight": np.float32([0, 1, 0, 2, 1])})
    G = CompressedGraph(directed=True, format="csr")
    G.from_pandas_edgelist(df, weight="weight")
    out = sssp(G, 5)
    assert (out.distance == 0).sum() == 3
    view = G.view()
    internal = {u: int(view.ids.to_internal_one(u, "vertex")) for u in (5, -1, 9, 7, 8)}
    rounds = [sorted(r.tolist()) for r in traced_rounds(view, internal[5])]
    assert rounds[0] == [internal[5]] and {internal[-1], internal[9]} == set(rounds[1])
    got = reads.RunReads(G, ALGORITHMS["sssp"])(out, 5)
    assert got.passes == len(rounds) + 1  # int64 ids: predecessors named in a pass of their own
    with pytest.raises(NotImplementedError, match="untransformed"):
        traced_rounds(virtual_split(G, part_size=2).view(), internal[5])


def test_bound_and_ratios():
    fields = reads.row_fields([reads.Reads(49_000, 49_000, 1_000_000, 3)], 2.0, "exact")
    assert fields["bound_ms"] == pytest.approx(1.0)
    assert fields["time_over_bound"] == pytest.approx(2.0)
    assert fields["lines_per_s"] == pytest.approx(24.5e6)
    assert fields["read_gb_per_s"] == pytest.approx(0.5)
    rows = [{"format": f, "algorithm": "bfs", "placement": "host", "lines": x}
            for f, x in [("csr", 100), ("ef", 40), ("fl", 60)]]
    reads.add_csr_ratios(rows)
    assert [r["lines_vs_csr"] for r in rows] == [1.0, 0.4, 0.6]


def test_bench_rows_carry_the_read_fields():
    record = run_benchmark([6], directed=[False], algorithms=["bfs", "wcc"],
                           formats=["csr", "ef"], repeats=1, encode_repeats=1, num_sources=1,
                           backend="host", placements=["device", "host"], git_commit="test",
                           log=lambda _: None)
    rows = record["results"]
    assert all(r["reads_model"] == "exact" and r["lines"] > 0 for r in rows)
    assert all(r["time_over_bound"] > 0 and r["read_bytes"] > 0 for r in rows)
    csr = {(r["algorithm"], r["placement"]): r for r in rows if r["format"] == "csr"}
    for r in rows:
        assert r["lines_vs_csr"] == pytest.approx(r["lines"] / csr[r["algorithm"],
                                                                   r["placement"]]["lines"])
    # Placements of one layout read the same structure: one count, shared.
    by = {(r["format"], r["algorithm"], r["placement"]): r["lines"] for r in rows}
    assert by["ef", "bfs", "device"] == by["ef", "bfs", "host"]
    table = format_reads(record)
    assert "x bound" in table and "ef@host" in table and "csr@host" in table
    off = run_benchmark([6], directed=[False], algorithms=["wcc"], formats=["csr"], repeats=1,
                        encode_repeats=1, num_sources=1, backend="host", count_reads=False,
                        git_commit="test", log=lambda _: None)
    assert off["results"][0]["lines"] is None and not format_reads(off)


def test_a_failed_count_costs_the_row_its_reads_not_its_times(monkeypatch):
    def refuse(layout, xp=None):
        raise MemoryError("no room for the extents")

    monkeypatch.setattr(reads, "list_extents", refuse)
    record = run_benchmark([6], directed=[True], algorithms=["bfs"], formats=["csr"],
                           repeats=1, encode_repeats=0, num_sources=1, backend="host",
                           git_commit="test", log=lambda _: None)
    (row,) = record["results"]
    assert row["check"] == "ok" and row["ms"] > 0 and row["lines"] is None
    assert row["reads_model"] == "read count failed: MemoryError: no room for the extents"
