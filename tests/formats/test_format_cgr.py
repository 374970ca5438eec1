"""The cgr layout: list codec and layout round trips, pinned edge cases, one validate() test
per documented invariant, exact size estimates and BFS through the public API (the codes
themselves: tests/codecs/test_codes.py)."""
import numpy as np
import pandas as pd
import pytest
from cgr_layouts import BROKEN, GOOD, GOOD_DEG, ZZ, C, build, encode, encoded
from graphs import check_against_scipy, random_edges
from hypothesis import given, settings
from hypothesis import strategies as st

import cugraph_compressed as cgc
from cugraph_compressed.formats import CGRLayout, LayoutInvariantError, cgr
from cugraph_compressed.formats.bits import (
    TAIL_WORDS,
    code_length,
    stream_words,
)
from cugraph_compressed.generators import rmat_edgelist

TOP = 2**32 - 1


def sorted_edges(layout):
    owner, nbrs, positions = layout.to_coo()
    order = np.lexsort((nbrs, owner))
    return owner[order], nbrs[order]


def check_layout(layout, src, dst):
    """Everything a layout must satisfy for the sorted, distinct edges (src, dst)."""
    layout.validate()
    owner, nbrs, positions = layout.to_coo()
    n = layout.num_vertices
    deg = np.bincount(src, minlength=n)
    assert np.array_equal(layout.degrees(), deg)
    first = np.concatenate([[0], np.cumsum(deg)])
    # decode order: per list, ascending interval edges then ascending residuals; slots in order
    assert np.array_equal(positions, np.arange(src.size))
    assert np.array_equal(owner, np.repeat(np.arange(n), deg))
    order = np.lexsort((nbrs, owner))
    assert np.array_equal(nbrs[order], dst)
    # property_order maps decode slots to sorted edges
    slots = np.arange(src.size) if layout.property_order is None else layout.property_order
    assert np.array_equal(src[slots], owner) and np.array_equal(dst[slots], nbrs)
    return owner, nbrs, first


# ------------------------------------------------------------------------------- list codec

def codec_round_trip(lists, refs, **params):
    codec = CGRLayout.codec(**params)
    owner = np.concatenate([np.full(len(l), i, np.int64) for i, l in enumerate(lists)]
                           + [np.zeros(0, np.int64)])
    values = np.concatenate([np.asarray(l, np.int64) for l in lists] + [np.zeros(0, np.int64)])
    refs = np.asarray(refs, np.int64)
    stream, first_bit, _ = codec.encode(owner, values, refs, np)
    deg = np.bincount(owner, minlength=len(lists)).astype(np.int64)
    assert stream.size == stream_words(int(first_bit[-1]))
    got_owner, got, rank = codec.decode(stream, first_bit[:-1], first_bit[1:], deg, refs)
    for i, l in enumerate(lists):
        mine = got[got_owner == i]
        assert sorted(mine.tolist()) == sorted(l)
        assert np.array_equal(rank[got_owner == i], np.arange(len(l)))
        for b in {0, len(l) // 2, max(len(l) - 1, 0)}:
            out = codec.decode_range(stream, first_bit[i], first_bit[i + 1], len(l), refs[i], b,
                                     len(l))
            assert np.array_equal(out, mine[b:])
    assert codec.check(stream, first_bit[:-1], first_bit[1:], deg, refs, 2**32) is None
    return stream, first_bit


@pytest.mark.parametrize("code", ["gamma", "zeta"])
def test_extreme_values_and_references(code):
    """Lists [0] and [2**32 - 1] against references 0 and 2**32 - 1: zig-zag values up to
    2**33 - 2, codes up to 65 bits."""
    stream, first_bit = codec_round_trip(
        [[0], [TOP], [0], [TOP], [0, TOP], [TOP - 4, TOP - 3, TOP - 2, TOP - 1, TOP]],
        [0, 0, TOP, TOP, TOP, 0], code=code)
    if code == "gamma":
        assert first_bit[2] - first_bit[1] == 1 + 65  # header code(0), then zigzag(2**32 - 1)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sets(st.integers(0, TOP), max_size=12), st.integers(0, TOP)),
                max_size=5),
       st.sampled_from(["gamma", "zeta"]), st.integers(1, 5), st.integers(1, 4))
def test_codec_round_trip_any_values(lists, code, segment_size, min_len):
    refs = [r for _, r in lists]
    lists = [sorted(s) for s, _ in lists]
    # add a run so intervals appear with large values too
    if lists and lists[0] and lists[0][-1] + 6 <= TOP:
        lists[0] = lists[0] + list(range(lists[0][-1] + 2, lists[0][-1] + 7))
    codec_round_trip(lists, refs, code=code, segment_size=segment_size, min_interval_length=min_len)


def test_codec_rejects_bad_lists():
    codec = CGRLayout.codec()
    refs = np.zeros(2, np.int64)
    cases = [([0, 0], [5, 5], "list 0 holds 5 twice"),
             ([0, 0], [6, 5], "not sorted: 6 comes before 5"),
             ([1, 0], [1, 2], "not sorted by list"),
             ([0], [2**32], "holds 4294967296, outside"),
             ([0], [-1], "holds -1, outside"),
             ([2], [1], "list 2 is outside")]
    for owner, values, message in cases:
        with pytest.raises(ValueError, match=message):
            codec.encode(np.asarray(owner, np.int64), np.asarray(values, np.int64), refs, np)
    with pytest.raises(ValueError, match="reference id 4294967296"):
        codec.encode(np.zeros(0, np.int64), np.zeros(0, np.int64), np.asarray([2**32]), np)


# ----------------------------------------------------------------------------- layout trips

def graphs_with_runs(max_n=24):
    """Edge sets mixing random pairs and runs of consecutive ids (intervals of every length)."""
    def build(args):
        n, pairs, runs = args
        edges = {divmod(p, n) for p in pairs}
        for v, start, length in runs:
            edges.update((v, d) for d in range(start, min(start + length, n)))
        return n, sorted(edges)
    return st.integers(1, max_n).flatmap(lambda n: st.tuples(
        st.just(n),
        st.lists(st.integers(0, n * n - 1), max_size=50),
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(1, 9)),
                 max_size=5),
    )).map(build)


params_strategy = st.builds(
    lambda min_len, code, k, segment_size: {"min_interval_length": min_len, "code": code,
                                            "zeta_k": k, "segment_size": segment_size},
    st.integers(1, 5), st.sampled_from(["gamma", "zeta"]), st.integers(1, 6),
    st.sampled_from([1, 2, 3, 5, 32]))


@settings(max_examples=2000, deadline=None)
@given(graphs_with_runs(), params_strategy, st.integers(0, 5), st.integers(0, 2**32 - 1))
def test_layout_round_trip(graph, params, extra_vertices, seed):
    n, edges = graph
    n += extra_vertices
    src = np.asarray([e[0] for e in edges], np.int64)
    dst = np.asarray([e[1] for e in edges], np.int64)
    layout = encode(src, dst, n, **params)
    owner, nbrs, first = check_layout(layout, src, dst)
    assert CGRLayout.estimate_nbytes(src, dst, n, np, **params) == layout.nbytes
    # decode_lists of a random subset (repeats and any order allowed)
    rng = np.random.default_rng(seed)
    subset = rng.integers(0, n, rng.integers(0, 9))
    o, nb, pos = layout.decode_lists(subset)
    expect = [x for v in subset for x in nbrs[first[v]:first[v + 1]]]
    assert nb.tolist() == expect
    assert np.array_equal(pos, np.concatenate([np.arange(first[v], first[v + 1]) for v in subset]
                                              + [[]]))
    assert np.array_equal(o, np.repeat(np.arange(subset.size), first[subset + 1] - first[subset]))
    # decode_range from a mid-list start, for every list
    for v in range(n):
        d = first[v + 1] - first[v]
        begin = int(rng.integers(0, d + 1))
        end = int(rng.integers(begin, d + 3))
        got = layout.decode_range(v, begin, end)
        assert np.array_equal(got, nbrs[first[v]:first[v + 1]][begin:end])


@pytest.mark.parametrize("chunk", [1, 7, 300])
@pytest.mark.parametrize("params", [{}, dict(code="gamma", segment_size=2, min_interval_length=2)])
def test_chunked_encoding_writes_the_same_bits(chunk, params, monkeypatch):
    """The encoder works on chunks of whole lists; any chunk size gives the same layout."""
    df = rmat_edgelist(9, seed=2)
    key = np.unique((df["source"].to_numpy().astype(np.int64) << 16) | df["destination"].to_numpy())
    src, dst = key >> 16, key & 0xFFFF
    runs = np.concatenate([[5], np.arange(40, 90), [200]])   # residual, interval, residual
    src = np.concatenate([src, np.full(runs.size, 600)])
    dst = np.concatenate([dst, runs])
    whole = encode(src, dst, 700, **params)
    monkeypatch.setattr(cgr, "CHUNK_EDGES", chunk)
    chunked = encode(src, dst, 700, **params)
    for name, array in whole.arrays.items():
        assert np.array_equal(chunked.arrays[name], array), name
    assert whole.property_order is not None
    assert np.array_equal(chunked.property_order, whole.property_order)
    order = np.lexsort((dst, src))
    check_layout(chunked, src[order], dst[order])
    assert CGRLayout.estimate_nbytes(src[order], dst[order], 700, np, **params) == whole.nbytes


def test_empty_graphs():
    for n in (0, 1, 5):
        layout = encode([], [], n)
        layout.validate()
        assert layout.num_edges == 0 and layout.arrays["stream"].size == TAIL_WORDS
        assert layout.degrees().tolist() == [0] * n
        assert layout.to_coo()[1].size == 0
        assert (CGRLayout.estimate_nbytes(np.zeros(0, np.int64), np.zeros(0, np.int64), n, np)
                == layout.nbytes)
        assert layout.nbytes == 8 * (n + 1) + 4 * TAIL_WORDS


def test_isolated_vertices_and_num_vertices_beyond_ids():
    src, dst = np.asarray([0, 3, 3]), np.asarray([3, 0, 1])
    layout = encode(src, dst, 10)
    check_layout(layout, src, dst)
    assert layout.degrees().tolist() == [1, 0, 0, 2] + [0] * 6
    bits = cgr.join_offsets(layout.arrays["bit_offsets"], layout.arrays["bit_offsets_high"])
    assert np.all(np.diff(bits)[[1, 2, 4, 5, 6, 7, 8, 9]] == 0)  # empty lists: no bits
    assert layout.decode_range(9, 0, 5).size == 0


def test_single_vertex_self_loop_u0():
    layout = encode([0], [0], 1)
    check_layout(layout, np.asarray([0]), np.asarray([0]))
    assert layout.decode_range(0, 0, 1).tolist() == [0]


def test_self_loops_everywhere():
    n = 50
    src = np.arange(n)
    layout = encode(src, src, n)
    check_layout(layout, src, src)
    # self loop = zigzag(0) = code(0): header 3 bits + 3 bits with zeta-3
    bits = cgr.join_offsets(layout.arrays["bit_offsets"], layout.arrays["bit_offsets_high"])
    assert set(np.diff(bits).tolist()) == {6}


@pytest.mark.parametrize("min_len", [2, 4, 7])
def test_interval_lengths_around_the_minimum(min_len):
    n = 200
    for length in (min_len - 1, min_len, min_len + 1):
        run = np.arange(100, 100 + length)
        src = np.zeros(length + 2, np.int64)
        dst = np.concatenate([[3], run, [150]])
        layout = encode(src, dst, n, min_interval_length=min_len)
        owner, nbrs, _ = check_layout(layout, src, dst)
        if length >= min_len:  # the run decodes first, then the residuals
            assert nbrs.tolist() == run.tolist() + [3, 150]
            assert layout.property_order is not None
        else:
            assert nbrs.tolist() == dst.tolist() and layout.property_order is None
        assert layout.decode_range(0, 1, length + 1).tolist() == nbrs[1:length + 1].tolist()


def test_long_list_segments_and_tables():
    """A list long enough for many segments (table entries), with intervals in between."""
    rng = np.random.default_rng(5)
    n = 100_000
    dst = np.unique(np.concatenate([rng.integers(0, n, 3000), np.arange(500, 540),
                                    np.arange(900, 904)]))
    src = np.full(dst.size, 7)
    for segment_size in (1, 4, 32, 500):
        layout = encode(src, dst, n, segment_size=segment_size, min_interval_length=4)
        owner, nbrs, _ = check_layout(layout, src, dst)
        for b in (0, 10, 43, 44, 45, 1000, dst.size - 1):
            assert np.array_equal(layout.decode_range(7, b, b + 70), nbrs[b:b + 70])


def test_data_ending_on_and_one_bit_past_a_word():
    """Single-list graphs whose stream is exactly k * 32 bits and k * 32 + 1 bits long."""
    found = set()
    for target in (0, 1):
        for v in range(1, 2000):
            dst = np.asarray([0, v, v + 1 + (v % 7) * 11])[: 1 + v % 3]
            src = np.zeros(dst.size, np.int64)
            layout = encode(src, dst, 3000)
            total = int(cgr.join_offsets(layout.arrays["bit_offsets"],
                                         layout.arrays["bit_offsets_high"])[-1])
            if total % 32 == target:
                stream = layout.arrays["stream"]
                assert stream.size == -(-total // 32) + TAIL_WORDS
                check_layout(layout, src, dst)
                found.add(target)
                break
    assert found == {0, 1}


def test_garbage_in_tail_padding_changes_nothing():
    src, dst = np.asarray([0, 0, 0, 0, 0, 2]), np.asarray([1, 2, 3, 4, 9, 1])
    for gamma in ("gamma", "zeta"):
        layout = encode(src, dst, 12, code=gamma, segment_size=1)
        clean = layout.to_coo()
        total = int(cgr.join_offsets(layout.arrays["bit_offsets"],
                                     layout.arrays["bit_offsets_high"])[-1])
        stream = layout.arrays["stream"]
        data_words = -(-total // 32)
        if total % 32:
            stream[data_words - 1] |= np.uint32(0xFFFFFFFF) << np.uint32(total % 32)
        stream[data_words:] = 0xFFFFFFFF
        layout.validate()
        for a, b in zip(layout.to_coo(), clean):
            assert np.array_equal(a, b)
        assert layout.decode_range(0, 2, 6).tolist() == clean[1][clean[0] == 0][2:6].tolist()


def test_rejects_bad_input():
    with pytest.raises(ValueError, match="holds 2 twice"):
        CGRLayout.encode(np.asarray([0, 0]), np.asarray([2, 2]), 3, np)
    with pytest.raises(ValueError, match="vertex 1 is not sorted: 2 comes before 1"):
        CGRLayout.encode(np.asarray([1, 1]), np.asarray([2, 1]), 3, np)
    with pytest.raises(ValueError, match="holds 3, outside \\[0, 3\\)"):
        CGRLayout.encode(np.asarray([0]), np.asarray([3]), 3, np)
    with pytest.raises(ValueError, match="vertex 5 is outside \\[0, 3\\)"):
        CGRLayout.encode(np.asarray([5]), np.asarray([0]), 3, np)
    with pytest.raises(ValueError, match="not sorted by vertex"):
        CGRLayout.encode(np.asarray([1, 0]), np.asarray([0, 0]), 3, np)
    with pytest.raises(ValueError, match="num_vertices=4294967297"):
        CGRLayout.estimate_nbytes(np.zeros(0), np.zeros(0), 2**32 + 1, np)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(min_interval_length=0), ValueError,
     "min_interval_length=0 is outside \\[1, 4294967296\\]"),
    (dict(min_interval_length=2.5), TypeError, "min_interval_length must be an int"),
    (dict(min_interval_length=True), TypeError, "must be an int"),
    (dict(code="delta"), ValueError, "code='delta'"),
    (dict(code=3), TypeError, "code must be a str"),
    (dict(zeta_k=17), ValueError, "zeta_k=17 is outside \\[1, 16\\]"),
    (dict(segment_size=0), ValueError, "segment_size=0 is outside"),
    (dict(bogus=1), TypeError, "bogus"),
])
def test_check_params(kwargs, error, message):
    with pytest.raises(error, match=message):
        CGRLayout.check_params(**kwargs)


def test_check_params_defaults():
    assert CGRLayout.check_params() == {"min_interval_length": 32, "code": "zeta", "zeta_k": 3,
                                        "segment_size": 32}
    assert CGRLayout.check_params(zeta_k=np.int64(2))["zeta_k"] == 2


# ------------------------------------------------------------------------ validate(): 1 .. 9

def test_hand_built_layout_is_valid():
    layout = build(GOOD, GOOD_DEG, 10, segment_size=2)
    layout.validate()
    assert layout.to_coo()[1].tolist() == [1, 2, 4, 5, 6, 7, 0]
    assert layout.decode_range(2, 3, 5).tolist() == [7, 0]


@pytest.mark.parametrize("rule, make", BROKEN)
def test_validate_catches_each_broken_invariant(rule, make):
    layout = make()
    with pytest.raises(LayoutInvariantError, match=f"^cgr invariant {rule} broken: "):
        layout.validate()


def test_hand_built_table_matches_the_encoder():
    """The canonical counterpart of the invariant-6 cases is what the encoder writes."""
    assert int(code_length(np.asarray([2, 0]), 3).sum()) == 7
    fixed = build([[C(0), ("bits", 3, 6), ("bits", 0, 3), ("bits", 7, 3), ZZ(1), C(0), ZZ(5)]],
                  [3], 10, segment_size=2)
    fixed.validate()
    ref = encode([0, 0, 0], [1, 2, 5], 10, segment_size=2)
    assert np.array_equal(ref.arrays["stream"], fixed.arrays["stream"])


def test_corrupted_stream_bits_are_caught():
    """Every single-bit flip of a valid stream either breaks a numbered invariant or decodes
    to a different, still valid graph (then the edges differ)."""
    layout = encoded()
    clean = sorted_edges(layout)
    total = int(cgr.join_offsets(layout.arrays["bit_offsets"],
                                 layout.arrays["bit_offsets_high"])[-1])
    for bit in range(total):
        broken = encoded()
        broken.arrays["stream"][bit // 32] ^= np.uint32(1 << (bit % 32))
        try:
            broken.validate()
        except LayoutInvariantError as exc:
            assert str(exc).startswith("cgr invariant ")
            continue
        got = sorted_edges(broken)
        assert not all(np.array_equal(a, b) for a, b in zip(got, clean))


# ----------------------------------------------------------------------- sizes and the API

@pytest.mark.parametrize("params", [{}, dict(code="gamma"),
                                    dict(segment_size=4, min_interval_length=2)])
def test_estimate_equals_nbytes(params):
    df = rmat_edgelist(11, seed=4)
    kwargs = dict(directed=True, renumber=False)
    G = cgc.CompressedGraph(format="cgr", **params, directed=True).from_pandas_edgelist(
        df, renumber=False)
    G.validate()
    assert cgc.estimate_nbytes(df, format="cgr", **kwargs, **params) == G.nbytes
    undirected = cgc.CompressedGraph(format="cgr", **params).from_pandas_edgelist(df)
    assert cgc.estimate_nbytes(df, format="cgr", **params) == undirected.nbytes


def test_rmat_beats_plain_csr():
    df = rmat_edgelist(14, seed=1)
    G = cgc.CompressedGraph(format="cgr", directed=True).from_pandas_edgelist(df, renumber=False)
    assert G.compression_ratio > 1.5
    sizes = G.nbytes_by_component()
    assert sizes["edge_offsets"] == sizes["bit_offsets"] == 4 * (G.number_of_vertices() + 1)


def test_weights_follow_the_decode_order():
    df = pd.DataFrame({"source": [0, 0, 0, 0, 0, 0, 1], "destination": [9, 2, 3, 4, 5, 0, 0],
                       "weight": np.arange(7, dtype=np.float32)})
    G = cgc.CompressedGraph(format="cgr", directed=True, min_interval_length=4)
    G.from_pandas_edgelist(df, renumber=False, weight="weight")
    view = G.view_edge_list()
    assert view["destination"].tolist() == [2, 3, 4, 5, 0, 9, 0]   # interval 2..5 first
    expect = {(s, d): w for s, d, w in df.itertuples(index=False)}
    assert ([expect[(s, d)] for s, d in zip(view["source"], view["destination"])]
            == view["weight"].tolist())


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("params", [{}, dict(code="gamma", segment_size=2, min_interval_length=2)])
def test_bfs_matches_scipy(directed, params):
    df = pd.concat([random_edges(400, 1500, 3),
                    pd.DataFrame({"source": np.full(60, 5), "destination": np.arange(100, 160)})])
    G = cgc.CompressedGraph(format="cgr", directed=directed, **params).from_pandas_edgelist(
        df, renumber=False)
    G.validate()
    result = cgc.bfs(G, start=5)
    check_against_scipy(df, result, directed, 5, ids=np.arange(G.number_of_vertices()))


def test_bfs_on_rmat_with_renumbering():
    df = rmat_edgelist(10, seed=8)
    G = cgc.CompressedGraph(format="cgr").from_pandas_edgelist(df)
    start = int(df["source"].iloc[0])
    check_against_scipy(df, cgc.bfs(G, start), False, start)
