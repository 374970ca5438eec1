"""The streaming build (``from_edge_chunks``): every chunking and every budget gives the buffers
the host reference encoder gives for the same edges, cleaned by an independent pandas reference
of cuGraph's rules (ids numbered in sorted order, or in the degree order pandas computes from
the input rows); bad chunks are named; a failed build leaves no graph."""
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cugraph_compressed as cgc
from cugraph_compressed import _build
from cugraph_compressed._idset import IdSet
from cugraph_compressed._source import ChunkError
from cugraph_compressed.formats import FORMATS
from cugraph_compressed.generators import rmat_chunks

PARAMS = {"csr": [{}, {"force_64bit": True}], "ef": [{}, {"k": 2, "block_size": 4}],
          "cgr": [{}, {"code": "gamma", "min_interval_length": 2, "segment_size": 2}],
          "fl": [{}, {"index_width": 16, "offset_width": 32}]}
LAYOUTS = [(fmt, p) for fmt, ps in PARAMS.items() for p in ps]


# -- the independent reference ------------------------------------------------------------------
def degree_ranked(df, ids, directed, store_transposed):
    """``ids`` (sorted) in the degree order: the rows naming each as the owner of the list
    they are stored in (both ends of an undirected row), most first, ties by id."""
    owner = df["destination"] if directed and store_transposed else df["source"]
    ends = owner if directed else pd.concat([df["source"], df["destination"]])
    degree = ends.value_counts().reindex(ids, fill_value=0).to_numpy()
    order = pd.DataFrame({"id": ids, "degree": degree}).sort_values(
        ["degree", "id"], ascending=[False, True], kind="stable")
    return order["id"].to_numpy()


def reference(df, directed, renumber, store_transposed=False, weight=None, order=None):
    """``(src, dst, weights, renumber map, V)``: cuGraph's edge list of ``df``, computed with
    pandas alone: ids numbered in ``order`` (the renumber map lists the user id of each
    internal id), parallel edges keep the smallest weight (first row on ties), undirected
    edges symmetrized with the mean of both directions' weights."""
    ids = pd.concat([df["source"], df["destination"]], ignore_index=True)
    if order is None:  # the graphs' default
        order = "degree" if renumber else "sorted"
    if renumber:
        mapping = np.sort(ids.unique())
        if order == "degree":
            mapping = degree_ranked(df, mapping, directed, store_transposed)
        rank = {v: i for i, v in enumerate(mapping)}
        src = df["source"].map(rank).to_numpy(np.int64)
        dst = df["destination"].map(rank).to_numpy(np.int64)
        n = len(mapping)
    else:
        mapping = None
        src, dst = df["source"].to_numpy(np.int64), df["destination"].to_numpy(np.int64)
        n = int(ids.max()) + 1 if len(ids) else 0
    edges = pd.DataFrame({"s": src, "d": dst, "row": np.arange(len(df))})
    if weight:
        edges["w"] = df[weight].to_numpy()
    keys = ["s", "d"] + (["w"] if weight else []) + ["row"]
    edges = edges.sort_values(keys).drop_duplicates(["s", "d"], keep="first")
    if not directed:
        back = edges.rename(columns={"s": "d", "d": "s"})
        both = pd.concat([edges.assign(half=0), back.assign(half=1)])
        both = both.sort_values(["s", "d", "half"])
        if weight:
            w = both.groupby(["s", "d"], sort=True)["w"]
            pair = w.transform("size") == 2
            mean = (w.transform("first") + w.transform("last")) / 2
            both["w"] = np.where(pair, mean.astype(both["w"].dtype), both["w"])
        edges = both.drop_duplicates(["s", "d"], keep="first")
    if directed and store_transposed:
        edges = edges.rename(columns={"s": "d", "d": "s"})
    edges = edges.sort_values(["s", "d"])
    w = edges["w"].to_numpy() if weight else None
    return edges["s"].to_numpy(), edges["d"].to_numpy(), w, mapping, n


def assert_matches_reference(G, df, fmt, params, directed, renumber, store_transposed=False,
                             weight=None, order=None):
    src, dst, w, mapping, n = reference(df, directed, renumber, store_transposed, weight, order)
    expected = FORMATS[fmt].encode(src, dst, n, np, **params)
    layout = G._layout
    assert layout.num_vertices == n and layout.num_edges == src.size
    assert sorted(layout.arrays) == sorted(expected.arrays)
    for name, array in expected.arrays.items():
        got = layout.arrays[name]
        assert got.dtype == array.dtype, name
        assert np.array_equal(got, array), name
    if weight:
        order = expected.property_order
        assert np.array_equal(G._properties["weight"], w if order is None else w[order])
    if renumber:
        assert np.array_equal(G.nodes().to_numpy(), np.sort(mapping))  # results: sorted ids
        assert G.lookup_internal_vertex_id(pd.Series(mapping)).tolist() == list(range(n))


def cut(df, cuts):
    """``df`` split at the sorted row positions ``cuts`` (repeats give empty chunks)."""
    bounds = [0, *sorted(cuts), len(df)]
    return [df.iloc[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


@st.composite
def chunked(draw):
    n = draw(st.integers(1, 12))
    m = draw(st.integers(0, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    hub = draw(st.booleans())  # one long list, split across many chunks
    src = np.where(rng.random(m) < 0.5, 0, rng.integers(0, n, m)) if hub else \
        rng.integers(0, n, m)
    df = pd.DataFrame({"source": src.astype(np.int64),
                       "destination": rng.integers(0, n, m).astype(np.int64),
                       "w": rng.integers(1, 4, m).astype(np.float32)})  # ties on purpose
    cuts = draw(st.lists(st.integers(0, m), max_size=6))
    budget = draw(st.sampled_from([1, 40, 200, 1000, 10**9]))
    return df, cuts, budget


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.parametrize("fmt,params", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False])
@given(case=chunked(), weighted=st.booleans(),
       ids=st.sampled_from(["kept", "sorted", "degree"]))
def test_chunks_and_budgets_give_the_reference_buffers(fmt, params, directed, case, weighted,
                                                       ids):
    df, cuts, budget = case
    weight = "w" if weighted else None
    renumber, order = ids != "kept", "degree" if ids == "degree" else "sorted"
    G = cgc.CompressedGraph(directed=directed, format=fmt, vertex_order=order, **params)
    G.from_edge_chunks(cut(df, cuts), weight=weight, renumber=renumber, memory_budget=budget)
    assert_matches_reference(G, df, fmt, params, directed, renumber, weight=weight, order=order)


@settings(max_examples=25, deadline=None)
@pytest.mark.parametrize("fmt", sorted(PARAMS))
@given(case=chunked())
def test_transposed_and_string_ids(fmt, case):
    df, cuts, budget = case
    G = cgc.CompressedGraph(directed=True, format=fmt)
    G.from_edge_chunks(cut(df, cuts), weight="w", store_transposed=True, renumber=False,
                       memory_budget=budget)
    assert_matches_reference(G, df, fmt, {}, True, False, store_transposed=True, weight="w")
    named = df.assign(source="v" + df["source"].astype(str),
                      destination="v" + df["destination"].astype(str))
    G = cgc.CompressedGraph(directed=False, format=fmt)
    G.from_edge_chunks(cut(named, cuts), memory_budget=budget)
    assert_matches_reference(G, named, fmt, {}, False, True)
    G = cgc.CompressedGraph(directed=True, format=fmt, vertex_order="degree")
    G.from_edge_chunks(cut(named, cuts), weight="w", store_transposed=True, memory_budget=budget)
    assert_matches_reference(G, named, fmt, {}, True, True, store_transposed=True, weight="w",
                             order="degree")


def test_ranges_cover_every_vertex_and_the_rest_that_fits_is_one_range():
    """Ranges end at multiples of the alignment, but the last: once the rest fits, it is one
    range however many vertices it has (rounding its end down cut the last n % align vertices
    a range, and two passes over the input, of their own)."""
    from cugraph_compressed._build import cut_ranges

    ends = np.cumsum(np.ones(197, dtype=np.int64))
    assert cut_ranges(ends, 197, 100, 64, np) == [(0, 64, 64), (64, 128, 64), (128, 197, 69)]
    hub = np.cumsum(np.array([1] * 64 + [500] + [1] * 3))  # a list beyond the budget
    assert cut_ranges(hub, 68, 100, 64, np) == [(0, 64, 64), (64, 68, 503)]
    rng = np.random.default_rng(5)
    for _ in range(200):
        n, align = int(rng.integers(1, 400)), int(rng.choice([1, 8, 64]))
        counts = rng.integers(0, 30, n)
        ends, per_range = np.cumsum(counts), int(rng.integers(1, 300))
        ranges = cut_ranges(ends, n, per_range, align, np)
        assert [r[0] for r in ranges] == [0] + [r[1] for r in ranges[:-1]]
        assert ranges[-1][1] == n and sum(r[2] for r in ranges) == ends[-1]
        for v0, v1, edges in ranges:
            assert v1 == n or v1 % align == 0
            assert edges <= per_range or v1 - v0 <= align
        if len(ranges) > 1:  # the rest did not fit the range before the last
            assert ranges[-2][2] + ranges[-1][2] > per_range


def test_small_budgets_cut_the_graph_into_ranges():
    chunks = rmat_chunks(10, 8, chunk_edges=3000, seed=3)
    built = []
    for budget in (10**9, 80_000, 8_000):
        G = cgc.CompressedGraph(directed=False, format="ef")
        G.from_edge_chunks(chunks, memory_budget=budget)
        built.append(G)
    assert [G.build_stats["ranges"] for G in built][0] == 1
    assert built[1].build_stats["ranges"] > 1 and built[2].build_stats["ranges"] > \
        built[1].build_stats["ranges"]
    for G in built[1:]:
        for name, array in built[0]._layout.arrays.items():
            assert np.array_equal(G._layout.arrays[name], array)


def test_one_frame_build_is_the_chunked_build():
    df = pd.concat(list(rmat_chunks(9, 4, chunk_edges=500, seed=5)), ignore_index=True)
    one = cgc.CompressedGraph(format="cgr").from_pandas_edgelist(df)
    many = cgc.CompressedGraph(format="cgr").from_edge_chunks(
        lambda: (df.iloc[i:i + 97] for i in range(0, len(df), 97)), memory_budget=5000)
    assert many.build_stats["ranges"] > 1
    for name, array in one._layout.arrays.items():
        assert np.array_equal(many._layout.arrays[name], array)
    assert np.array_equal(one.nodes().to_numpy(), many.nodes().to_numpy())


def test_vertices_across_chunks():
    df = pd.DataFrame({"source": [5, 7], "destination": [7, 9]})
    G = cgc.CompressedGraph(directed=True).from_edge_chunks(
        [df.iloc[:1], df.iloc[1:]], vertices=[5, 7, 9, 11])
    assert G.nodes().tolist() == [5, 7, 9, 11]
    with pytest.raises(ValueError, match="missing from vertices"):
        cgc.CompressedGraph(directed=True).from_edge_chunks(
            [df.iloc[:1], df.iloc[1:]], vertices=[5, 7])


@pytest.mark.parametrize("dtype, low", [(np.int32, -1000), (np.int32, 0), (np.int64, -1000),
                                        (np.int64, 1000), (np.uint32, 0), (np.uint32, 1000),
                                        (np.uint64, 7), (np.int32, "top"), (np.uint64, "top")])
@pytest.mark.parametrize("spread", [1, 2.05, 4, 4.5])
def test_ids_get_their_ranks_with_or_without_the_table(dtype, low, spread, monkeypatch):
    """Renumbered ids spanning ``spread`` times their count from ``low`` (``"top"``: up to
    the dtype's largest, where the table's places must not overflow): a table indexed by id
    while it takes at most ``TABLE_BYTES_PER_VERTEX`` bytes per vertex (int32 entries: 4 ids
    per vertex), a binary search beyond; both give every id its rank among the sorted ids,
    and its internal id once the vertices are reordered."""
    rng = np.random.default_rng(int(spread * 10))
    n = 5000
    if low == "top":
        low = min(int(np.iinfo(dtype).max), 2**63 - 1) - int(spread * n) + 1
    ids = np.sort(rng.choice(int(spread * n), n, replace=False)).astype(np.int64) + low
    ids[[0, -1]] = low, low + int(spread * n) - 1  # the span exactly
    ids = ids.astype(dtype)
    id_set = IdSet(True, True, dtype, np, pd)
    for part in np.array_split(rng.permutation(ids), 3):
        id_set.add(part)
    assert id_set.finish() == n
    assert (id_set._table is not None) == (spread <= 4)
    values = rng.choice(ids, 20_000)
    rank = np.searchsorted(np.unique(ids), values)
    got = id_set.internal(values)
    assert got.dtype == np.int32 and np.array_equal(got, rank)
    internal_of = rng.permutation(n).astype(np.int32)
    monkeypatch.setattr("cugraph_compressed._idset.REORDER_SLICE", 777)  # many, the last short
    id_set.reorder(internal_of)
    assert np.array_equal(id_set.internal(values), internal_of[rank])


# -- bad input ----------------------------------------------------------------------------------
def frames(k, **dtypes):
    return [pd.DataFrame({"source": np.arange(3, dtype=dtypes.get("src", np.int64)) + i,
                          "destination": np.arange(3, dtype=np.int64) + i + 1}) for i in range(k)]


def test_a_generator_is_refused_with_the_way_out():
    with pytest.raises(TypeError, match="one-shot iterator.*callable"):
        cgc.CompressedGraph().from_edge_chunks(f for f in frames(3))
    with pytest.raises(TypeError, match="one DataFrame"):
        cgc.CompressedGraph().from_edge_chunks(frames(1)[0])
    with pytest.raises(TypeError, match="chunk 1: expected a cuDF or pandas DataFrame"):
        cgc.CompressedGraph().from_edge_chunks([frames(1)[0], {"source": [1]}])
    with pytest.raises(ValueError, match="no edge frames"):
        cgc.CompressedGraph().from_edge_chunks([])


def test_bad_chunks_are_named_and_leave_no_graph():
    chunks = frames(40)
    chunks[37] = chunks[37].rename(columns={"destination": "dst"})
    G = cgc.CompressedGraph()
    with pytest.raises(ValueError, match=r"chunk 37: columns \['destination'\]"):
        G.from_edge_chunks(chunks)
    with pytest.raises(ValueError, match="empty"):
        G.number_of_vertices()
    chunks = frames(5)
    chunks[3] = chunks[3].astype({"source": np.int32})
    with pytest.raises(ChunkError, match="chunk 3: column 'source' has dtype int32"):
        G.from_edge_chunks(chunks)
    chunks = frames(5)
    chunks[2].loc[1, "destination"] = None
    with pytest.raises(ValueError, match="chunk 2: destination column .* 1 null"):
        G.from_edge_chunks(chunks)
    G.from_edge_chunks(frames(5))  # the graph is still free to build
    whole = cgc.CompressedGraph().from_pandas_edgelist(pd.concat(frames(5)))
    assert G.number_of_edges() == whole.number_of_edges() == 7


def test_a_source_that_changes_between_passes_is_named():
    calls = []

    def shrinking():
        calls.append(1)
        out = frames(4)
        if len(calls) > 1:
            out[2] = out[2].iloc[:1]
        return iter(out)

    with pytest.raises(ChunkError, match="chunk 2 gave 1 rows on a later pass.* 3 rows"):
        cgc.CompressedGraph().from_edge_chunks(shrinking)

    def fewer():
        calls.append(1)
        return frames(4 if len(calls) == 1 else 3)

    calls.clear()
    with pytest.raises(ChunkError, match="3 chunks, the first pass 4"):
        cgc.CompressedGraph().from_edge_chunks(fewer)


# Ids a later pass gives that the first did not: a string id, an integer inside the dense
# table's span, one past it, one a binary search would place between two ids, and one past
# the largest with renumber=False.
LATER_IDS = [
    ({"source": ["a", "b"], "destination": ["b", "c"]}, "zz", {}),
    ({"source": [0, 2], "destination": [2, 3]}, 1, {}),
    ({"source": [0, 2], "destination": [2, 3]}, 9, {}),
    ({"source": [0, 2000], "destination": [2000, 3_000_000]}, 5, {}),
    ({"source": [0, 2000], "destination": [2000, 3_000_000]}, 5, {"vertex_order": "sorted"}),
    ({"source": [0, 1], "destination": [1, 2]}, 100, {"renumber": False}),
]


@pytest.mark.parametrize("first, later_id, kwargs", LATER_IDS)
def test_an_id_a_later_pass_gives_anew_is_named(first, later_id, kwargs):
    """Same row counts, one id changed after the first pass: looked up unchecked it became
    another vertex (or one past the last); now the chunk and the id are named, and the graph
    stays empty."""
    first = pd.DataFrame(first)
    later = first.copy()
    later.loc[1, "destination"] = later_id
    calls = []

    def changing():
        calls.append(1)
        return [first if len(calls) == 1 else later]

    G = cgc.CompressedGraph(directed=True, **{k: v for k, v in kwargs.items()
                                             if k == "vertex_order"})
    renumber = kwargs.get("renumber", True)
    with pytest.raises(ChunkError, match=f"chunk 0 holds 1 vertex id.* such as {later_id!r}"):
        G.from_edge_chunks(changing, renumber=renumber)
    with pytest.raises(ValueError, match="empty"):
        G.number_of_edges()
    calls.clear()
    G.from_edge_chunks(lambda: [first], renumber=renumber)  # the same source, unchanged
    assert G.number_of_edges() == 2


def test_a_callable_returning_one_frame_or_a_frame_of_vertices_is_named():
    df = pd.DataFrame({"source": [0, 1], "destination": [1, 2]})
    with pytest.raises(TypeError, match=r"returned one DataFrame; .*\(for one frame: \[frame\]\)"):
        cgc.CompressedGraph().from_edge_chunks(lambda: df)
    with pytest.raises(TypeError, match="vertices must be a Series .* got a DataFrame"):
        cgc.CompressedGraph().from_edge_chunks(lambda: [df], vertices=pd.DataFrame({"v": [0]}))


def swapped_after_counting(chunks):
    """A source whose later passes give the same rows with source and destination swapped:
    the row counts hold, the per-vertex counts of the second pass do not."""
    calls = []

    def make():
        calls.append(1)
        if len(calls) <= 2:  # the scan and the per-vertex counts
            return iter(chunks)
        return (c.rename(columns={"source": "destination", "destination": "source"})
                for c in chunks)
    return make


def test_a_range_with_more_edges_than_counted_is_refused():
    chunks = list(rmat_chunks(10, 16, chunk_edges=4000, seed=8))
    G = cgc.CompressedGraph(directed=True, format="csr")
    with pytest.raises(ChunkError, match="more edges on a later pass"):
        G.from_edge_chunks(swapped_after_counting(chunks), memory_budget=1 << 16)
    with pytest.raises(ValueError, match="empty"):
        G.number_of_edges()


@pytest.mark.parametrize("budget,error", [(0, ValueError), (-5, ValueError), (1.5, TypeError),
                                          (True, TypeError), ("1GB", TypeError)])
def test_bad_budgets(budget, error):
    with pytest.raises(error, match="memory_budget"):
        cgc.CompressedGraph().from_edge_chunks(frames(2), memory_budget=budget)


def test_bad_backend():
    with pytest.raises(ValueError, match="backend='gpu'"):
        cgc.CompressedGraph().from_edge_chunks(frames(2), backend="gpu")


# -- memory -------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", sorted(PARAMS))
def test_host_build_peak_stays_within_its_bound(fmt):
    """Peak traced bytes of a host build from lazily generated chunks stay within the final
    graph + the budget + O(V) vertex arrays + a chunk being read, whatever the edge count."""
    chunks = rmat_chunks(16, 16, chunk_edges=1 << 15, seed=7)
    budget = 2 << 20
    # Modules the build imports on first use are not the build's memory: import them first.
    cgc.CompressedGraph(directed=True, format=fmt).from_edge_chunks(
        rmat_chunks(6, chunk_edges=100), renumber=False, memory_budget=budget)
    tracemalloc.start()
    try:
        G = cgc.CompressedGraph(directed=True, format=fmt)
        G.from_edge_chunks(chunks, renumber=False, memory_budget=budget)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    chunk_bytes = 3 * (1 << 15) * 16  # a generated chunk and its generator's temporaries
    bound = G.nbytes + budget + 48 * G.number_of_vertices() + chunk_bytes
    edges_bytes = 16 * chunks.num_edges  # what holding the edges at once would take
    assert G.build_stats["ranges"] > 1
    assert peak <= bound, (peak, bound)
    assert bound < edges_bytes


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_ranges_are_gathered_and_sorted_within_the_budget(directed, weighted, monkeypatch):
    """A range is sized to the whole budget, which its gathering, sort and deduplication use
    before the encoders run: the traced bytes they add (the pieces read meanwhile included)
    stay within it, and take more than half of it."""
    chunks = list(rmat_chunks(14, 16, chunk_edges=1 << 14, seed=3, weighted=weighted))
    budget = 1 << 20
    weight = "weight" if weighted else None
    added = []
    gather = _build._Build._range_edges

    def traced(self, *args):
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        edges = gather(self, *args)
        added.append(tracemalloc.get_traced_memory()[1] - before)
        return edges

    cgc.CompressedGraph(directed=directed, format="csr").from_edge_chunks(  # imports first
        chunks[:1], weight=weight, memory_budget=budget)
    monkeypatch.setattr(_build._Build, "_range_edges", traced)
    tracemalloc.start()
    try:
        G = cgc.CompressedGraph(directed=directed, format="csr")
        G.from_edge_chunks(chunks, weight=weight, memory_budget=budget)
    finally:
        tracemalloc.stop()
    assert G.build_stats["ranges"] > 2
    assert budget / 2 < max(added) <= budget, (max(added), budget)


def test_progress_is_shown_when_asked_and_silent_otherwise(capsys):
    cgc.CompressedGraph().from_edge_chunks(frames(3), progress=True)
    err = capsys.readouterr().err
    assert "building graph: pass 1 (reading ids), chunk 1" in err
    assert err.endswith("\r")  # the line is cleared at the end
    cgc.CompressedGraph().from_edge_chunks(frames(3))  # not a terminal: silent
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError, match="progress"):
        cgc.CompressedGraph().from_edge_chunks(frames(3), progress="yes")


def test_parquet_files_build_the_graph_of_their_rows(tmp_path):
    from cugraph_compressed.io import parquet_chunks

    df = pd.concat(list(rmat_chunks(8, 8, chunk_edges=700, seed=9, weighted=True)),
                   ignore_index=True)
    for i, part in enumerate(cut(df, [100, 900, 1500])):
        part.to_parquet(tmp_path / f"part-{i}.parquet", row_group_size=200)
    G = cgc.CompressedGraph(format="fl").from_edge_chunks(parquet_chunks(tmp_path),
                                                          weight="weight", memory_budget=3000)
    assert_matches_reference(G, df, "fl", {}, False, True, weight="weight")


@pytest.mark.parametrize("weight", [None, "w"])
def test_symmetrize_false_checks_every_range(weight):
    """Undirected input given both ways builds with symmetrize=False under any budget; input
    missing one direction is refused, also when the range that lacks it has no edge into it."""
    df = pd.DataFrame({"source": [0, 0, 1, 2, 3, 4], "destination": [1, 2, 0, 0, 4, 3],
                       "w": np.float32([1, 2, 1, 2, 5, 5])})
    for budget in (1, 10**9):
        G = cgc.CompressedGraph(directed=False).from_edge_chunks(
            cut(df, [2, 3]), weight=weight, symmetrize=False, memory_budget=budget)
        assert_matches_reference(G, df, "csr", {}, False, True, weight=weight)
    one_way = df.iloc[[0, 1, 4, 5]]  # 0 -> 1 and 0 -> 2 without their reverses
    for budget in (1, 10**9):
        with pytest.raises(ValueError, match="not symmetric"):
            cgc.CompressedGraph(directed=False).from_edge_chunks(
                [one_way], weight=weight, symmetrize=False, memory_budget=budget)
