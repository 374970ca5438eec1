"""The fl layout: fixed-width packing of both CSR arrays.

Round trips (hypothesis), the width rule, pinned edge cases of DESIGN.md section 5, one
validate() test per documented invariant, exact size estimates and BFS end to end.
"""
import numpy as np
import pandas as pd
import pytest
from graphs import check_against_scipy, random_edges
from hypothesis import given, settings
from hypothesis import strategies as st

import cugraph_compressed as cgc
from cugraph_compressed.formats import FixedLengthLayout, LayoutInvariantError
from cugraph_compressed.formats import fixed_length as fl
from cugraph_compressed.formats.base import plain_csr_nbytes
from cugraph_compressed.formats.bits import TAIL_WORDS, stream_words


def encode(src, dst, n, **params):
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    order = np.lexsort((dst, src))
    return FixedLengthLayout.encode(src[order], dst[order], n, np, **params)


def reference_stream(values, width):
    """Independent packer: the stream as one Python integer, bit k*width + j = bit j of value k."""
    big = 0
    for k, v in enumerate(values):
        big |= int(v) << (k * width)
    n_words = -(-len(values) * width // 32) + TAIL_WORDS
    return np.array([(big >> (32 * i)) & 0xFFFFFFFF for i in range(n_words)], dtype=np.uint32)


def with_garbage(words, total_bits, rng):
    """A copy of a stream with random bits in everything after its last field."""
    words = words.copy()
    last, used = divmod(total_bits, 32)
    if used:
        words[last] |= np.uint32(rng.integers(0, 2**32) & ~((1 << used) - 1) & 0xFFFFFFFF)
        last += 1
    words[last:] = rng.integers(0, 2**32, words.size - last, dtype=np.uint64).astype(np.uint32)
    return words


def random_values(rng, size, bits, extremes):
    """``size`` values below ``2**bits`` (uint64); with ``extremes``, 0 and ``2**bits - 1``
    are planted so the widest value of the width is exercised."""
    values = (rng.integers(0, 2**63, size, dtype=np.uint64) >> np.uint64(max(63 - bits, 0))
              if bits else np.zeros(size, np.uint64))
    if bits == 64:
        values = (values << np.uint64(1)) | rng.integers(0, 2, size, dtype=np.uint64)
    if extremes and size:
        values[rng.integers(0, size, 2)] = [0, 2**bits - 1]
    return values


# Hypothesis picks the shape (sizes, widths, parameters, seed); NumPy fills in the edges, which
# keeps 2000 examples of each test within the CPU budget.
graph_shapes = st.tuples(
    st.one_of(st.integers(0, 40), st.integers(41, 3000), st.sampled_from([2**16, 2**16 + 1])),
    st.integers(0, 150),                                     # edges drawn, before dedup
    st.sampled_from(["uniform", "hub", "to_zero", "dense"]),
    st.integers(0, 2**32 - 1),                               # seed
)


def make_graph(n, m, kind, seed):
    rng = np.random.default_rng(seed)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), rng
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    if kind == "hub":       # one long list beside short ones
        src[: m // 2] = rng.integers(0, n)
    elif kind == "to_zero":  # every neighbour is vertex 0: index width 0
        dst[:] = 0
    elif kind == "dense":   # a few vertices, all pairs likely
        src, dst = src % min(n, 8), dst % min(n, 8)
    key = np.unique(src * n + dst)
    return key // n, key % n, rng


def draw_params(data, num_edges, largest):
    params = {}
    for name, value in (("offset_width", num_edges), ("index_width", largest)):
        l = int(value).bit_length()
        choice = data.draw(st.one_of(st.none(), st.integers(l, 64)), label=name)
        if choice is not None:
            params[name] = choice
    params["align_slack"] = data.draw(st.sampled_from([0.0, 0.125, 0.5, 1.0]), label="align_slack")
    return params


# ---------------------------------------------------------------------------- round trips

@settings(max_examples=2000, deadline=None)
@given(graph_shapes, st.data())
def test_round_trip(shape, data):
    n = shape[0]
    src, dst, rng = make_graph(*shape)
    params = draw_params(data, src.size, dst.max() if dst.size else 0)
    layout = FixedLengthLayout.encode(src, dst, n, np, **params)
    layout.validate()
    assert layout.nbytes == FixedLengthLayout.estimate_nbytes(src, dst, n, np, **params)
    owner, nbrs, positions = layout.to_coo()
    assert np.array_equal(owner, src) and np.array_equal(nbrs, dst)
    assert nbrs.dtype == np.int64 and np.array_equal(positions, np.arange(src.size))
    degrees = np.bincount(src, minlength=n)
    assert np.array_equal(layout.degrees(), degrees)
    offsets = np.concatenate([[0], np.cumsum(degrees)])
    if n:
        subset = rng.integers(0, n, rng.integers(0, 2 * min(n, 40)))
        o, nb, pos = layout.decode_lists(subset)
        assert np.array_equal(subset[o], src[pos]) and np.array_equal(nb, dst[pos])
        assert np.array_equal(pos, np.concatenate(
            [np.arange(offsets[v], offsets[v + 1]) for v in subset] or [np.zeros(0, np.int64)]))
    # every list, from the middle
    for v in np.unique(np.concatenate([src, [0, n - 1]])) if n else []:
        d = degrees[v]
        begin = int(rng.integers(0, d + 1))
        end = int(rng.integers(begin, d + 2))
        assert (layout.decode_range(v, begin, end).tolist()
                == dst[offsets[v] + begin:offsets[v] + min(end, d)].tolist())
    # Garbage after the last field of either stream changes nothing.
    arrays = layout.arrays
    arrays["offsets"] = with_garbage(arrays["offsets"], (n + 1) * layout.offset_width, rng)
    arrays["indices"] = with_garbage(arrays["indices"], src.size * layout.index_width, rng)
    layout.validate()
    owner2, nbrs2, _ = layout.to_coo()
    assert np.array_equal(owner2, src) and np.array_equal(nbrs2, dst)


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 64), st.integers(0, 80), st.booleans(), st.integers(0, 2**32 - 1))
def test_fixed_width_array_matches_independent_packer(width, size, extremes, seed):
    rng = np.random.default_rng(seed)
    values = random_values(rng, size, width, extremes)
    words = fl.pack_fixed(values, width, np)
    assert words.dtype == np.uint32
    assert np.array_equal(words, reference_stream(values.tolist(), width))
    assert np.array_equal(fl.read_fixed(words, np.arange(size), width, np), values)
    if size:  # direct access at any index, in any order
        index = rng.integers(0, size, 10)
        assert np.array_equal(fl.read_fixed(words, index, width, np), values[index])


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 64), st.integers(0, 5000), st.sampled_from([1, 3, 2048]),
       st.integers(0, 2**32 - 1))
def test_read_range_decodes_any_run(width, size, rows, seed):
    """The host's run decoder (32 fields per row, ``rows`` rows per pass) from any start."""
    rng = np.random.default_rng(seed)
    values = random_values(rng, size, width, True)
    words = with_garbage(fl.pack_fixed(values, width, np), size * width, rng)
    start = int(rng.integers(0, size + 1))
    stop = int(rng.integers(start, size + 1))
    saved = fl._DECODE_ROWS
    fl._DECODE_ROWS = rows
    try:
        for a, b in ((0, size), (start, stop), (start, size), (0, stop)):
            assert np.array_equal(fl.read_range(words, a, b, width, np), values[a:b])
    finally:
        fl._DECODE_ROWS = saved


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=12), st.integers(0, 63), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_list_codec_round_trip_any_values(lengths, bits, extremes, seed):
    """Lists of values up to 2**63 - 1, independent of any vertex count."""
    rng = np.random.default_rng(seed)
    lists = [np.unique(random_values(rng, k, bits, extremes)).astype(np.int64) for k in lengths]
    owner = np.repeat(np.arange(len(lists)), [len(v) for v in lists])
    values = np.concatenate(lists) if lists else np.zeros(0, np.int64)
    codec = fl.FixedWidthLists.encode(owner, values, len(lists), np)
    assert codec.index_width == fl.auto_width(int(values.max()).bit_length() if values.size else 0)
    o, got, pos = codec.decode(np.arange(len(lists)))
    assert (np.array_equal(o, owner) and np.array_equal(got, values)
            and np.array_equal(pos, np.arange(values.size)))
    for i, values_i in enumerate(lists):
        begin = int(rng.integers(0, len(values_i) + 1))
        end = int(rng.integers(begin, len(values_i) + 2))
        assert codec.decode_range(i, begin, end).tolist() == values_i[begin:end].tolist()


# ---------------------------------------------------------------------------- widths

@pytest.mark.parametrize("l, expected", [
    (0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (7, 7), (8, 8), (14, 14), (15, 16), (16, 16),
    (17, 17), (20, 20), (21, 21), (24, 24), (28, 28), (29, 32), (31, 32), (32, 32), (33, 33),
    (56, 56), (57, 64), (64, 64),
])
def test_automatic_width_rule(l, expected):
    assert fl.auto_width(l) == expected
    assert fl.auto_width(l, 0.0) == l
    assert fl.auto_width(l, 1.0) == (0 if l == 0 else next(a for a in fl.ALIGNED_WIDTHS if a >= l))


def test_explicit_width_below_l_names_both():
    with pytest.raises(ValueError, match=r"index_width=3 .*largest value 8 needs l=4"):
        encode([0], [8], 9, index_width=3)
    with pytest.raises(ValueError, match=r"offset_width=1 .*largest value 2 needs l=2"):
        encode([0, 0], [1, 2], 3, offset_width=1)
    with pytest.raises(ValueError, match="index_width=3"):
        FixedLengthLayout.estimate_nbytes(np.array([0]), np.array([8]), 9, np, index_width=3)


def test_explicit_widths_are_used():
    layout = encode([0, 1], [1, 0], 2, index_width=32, offset_width=64)
    assert (layout.index_width, layout.offset_width) == (32, 64)
    assert layout.arrays["indices"].size == 2 + TAIL_WORDS
    assert layout.arrays["offsets"].size == 6 + TAIL_WORDS
    layout.validate()
    assert layout.to_coo()[1].tolist() == [1, 0]


@pytest.mark.parametrize("params, error, match", [
    (dict(index_width=65), ValueError, r"index_width=65 is outside \[0, 64\]"),
    (dict(offset_width=-1), ValueError, r"offset_width=-1 is outside \[0, 64\]"),
    (dict(index_width=8.0), TypeError, "index_width must be None or an int"),
    (dict(offset_width=True), TypeError, "offset_width must be None or an int"),
    (dict(align_slack=-0.5), ValueError, "align_slack=-0.5"),
    (dict(align_slack=float("nan")), ValueError, "align_slack=nan"),
    (dict(align_slack="1"), TypeError, "align_slack must be a real number"),
])
def test_check_params_errors(params, error, match):
    with pytest.raises(error, match=match):
        FixedLengthLayout.check_params(**params)
    with pytest.raises(error, match=match):
        cgc.CompressedGraph(format="fl", **params)


def test_check_params_defaults():
    assert FixedLengthLayout.check_params() == {"index_width": None, "offset_width": None,
                                                "align_slack": 0.125}
    assert FixedLengthLayout.check_params(index_width=np.int64(21))["index_width"] == 21


@pytest.mark.parametrize("width", range(1, 65))
def test_every_width_through_the_layout(width):
    """Widths 1..64 given explicitly, with the largest value of that width stored."""
    n = 2**min(width, 12)  # keep num_vertices small: the codec carries the wide values
    layout = encode([0, 0, 1], [0, n - 1, n // 2], n, index_width=width,
                    offset_width=width if width >= 2 else None)
    layout.validate()
    assert layout.to_coo()[1].tolist() == [0, n - 1, n // 2]
    top = 2**width - 1
    codec = fl.FixedWidthLists.encode(np.array([0, 0, 1]), np.array([0, top, top], np.uint64), 2,
                                      np)
    assert codec.index_width == fl.auto_width(width)
    assert codec.decode(np.array([1, 0]))[1].astype(np.uint64).tolist() == [top, 0, top]


@pytest.mark.parametrize("width, fields, words", [
    (16, 2, 1), (16, 4, 2), (11, 3, 2), (32, 1, 1), (33, 1, 2), (21, 32, 21), (7, 32, 7), (5, 7, 2),
])
def test_data_ending_on_and_past_a_word(width, fields, words):
    """fields * width lands exactly on a word boundary or one bit past it (or elsewhere)."""
    rng = np.random.default_rng(width * 100 + fields)
    values = rng.integers(0, 2**width, fields, dtype=np.uint64)
    values[-1] = 2**width - 1  # the last field's top bit is the stream's last data bit
    stream = fl.pack_fixed(values, width, np)
    assert stream.size == words + TAIL_WORDS == stream_words(fields * width)
    assert np.array_equal(stream, reference_stream(values, width))
    garbage = with_garbage(stream, fields * width, rng)
    assert np.array_equal(fl.read_fixed(garbage, np.arange(fields), width, np), values)


def test_host_chunking_and_fast_paths_agree(monkeypatch):
    rng = np.random.default_rng(7)
    for width in (3, 8, 16, 21, 32, 37, 64):
        values = rng.integers(0, 2**width, 5000, dtype=np.uint64)
        whole = fl.pack_fixed(values, width, np)
        monkeypatch.setattr(fl, "_HOST_CHUNK", 64)
        monkeypatch.setattr(fl, "_LITTLE_ENDIAN", False)  # no view shortcuts
        chunked = fl.pack_fixed(values, width, np)
        generic = fl.read_fixed(whole, np.arange(5000), width, np)
        monkeypatch.undo()
        assert np.array_equal(whole, chunked)
        assert np.array_equal(generic, values)
        assert np.array_equal(fl.read_fixed(whole, np.arange(5000)[::-1], width, np), values[::-1])


# ---------------------------------------------------------------------------- pinned cases

def test_empty_graph():
    layout = encode([], [], 0)
    layout.validate()
    assert (layout.offset_width, layout.index_width) == (0, 0)
    assert layout.nbytes == 4 * 2 * TAIL_WORDS
    assert layout.nbytes == FixedLengthLayout.estimate_nbytes(np.array([], np.int64),
                                                              np.array([], np.int64), 0, np)
    assert all(a.size == 0 for a in layout.to_coo())
    assert layout.degrees().size == 0
    with pytest.raises(ValueError, match=r"list 0 is outside \[0, 0\)"):
        layout.decode_range(0, 0, 1)


def test_isolated_vertices_and_extra_vertices():
    layout = encode([2, 2, 5], [0, 5, 2], 9)  # 0, 1, 3, 4, 6, 7, 8 isolated; 9 > max id + 1
    layout.validate()
    assert layout.degrees().tolist() == [0, 0, 2, 0, 0, 1, 0, 0, 0]
    assert layout.decode_lists(np.array([8, 2, 1, 5]))[1].tolist() == [0, 5, 2]
    assert layout.decode_range(2, 1, 2).tolist() == [5]
    assert layout.decode_range(8, 0, 3).tolist() == []
    assert layout.index_width == 3 and layout.offset_width == 2


def test_vertices_without_edges_only():
    layout = encode([], [], 5)
    layout.validate()
    assert layout.degrees().tolist() == [0] * 5 and layout.num_edges == 0


def test_lists_zero_and_max_uint32():
    for value, width in ((0, 0), (2**32 - 1, 32), (2**32, 33), (2**63 - 1, 64)):
        codec = fl.FixedWidthLists.encode(np.array([0]), np.array([value], np.int64), 1, np)
        assert codec.index_width == width
        assert codec.arrays["indices"].size == stream_words(width)
        assert codec.decode(np.array([0]))[1].tolist() == [value]
        assert codec.decode_range(0, 0, 1).tolist() == [value]


def test_all_values_zero_is_width_zero():
    layout = encode([0, 1, 2], [0, 0, 0], 3)  # u = 0: every neighbour is vertex 0
    layout.validate()
    assert layout.index_width == 0 and layout.arrays["indices"].size == TAIL_WORDS
    assert layout.to_coo()[1].tolist() == [0, 0, 0]
    assert layout.decode_range(1, 0, 1).tolist() == [0]


def test_self_loops():
    layout = encode([0, 1, 1, 3], [0, 1, 3, 3], 4)
    layout.validate()
    owner, nbrs, _ = layout.to_coo()
    assert owner.tolist() == [0, 1, 1, 3] and nbrs.tolist() == [0, 1, 3, 3]


@pytest.mark.parametrize("src, dst, n, match", [
    ([0, 0], [1, 1], 3, "list 0 holds value 1 twice"),
    ([0, 0], [2, 1], 3, "list 0 is not sorted: value 1 follows 2"),
    ([1, 0], [0, 1], 3, "not sorted by list: list 0 follows list 1"),
    ([0, 1], [1, 3], 3, "value 3 in list 1 is not below num_vertices=3"),
    ([0, 1], [1, -1], 3, "value -1 in list 1 is negative"),
    ([0, 3], [1, 1], 3, r"list id 3 \(entry 1\) is outside \[0, 3\)"),
    ([-1, 0], [1, 1], 3, r"list id -1 \(entry 0\) is outside"),
])
def test_encoder_rejects_bad_input(src, dst, n, match):
    with pytest.raises(ValueError, match=match):
        FixedLengthLayout.encode(np.array(src), np.array(dst), n, np)


def test_encoder_rejects_non_integers():
    with pytest.raises(ValueError, match="must be integers"):
        FixedLengthLayout.encode(np.array([0.0]), np.array([1.0]), 2, np)


def test_decode_range_is_direct_and_slices_like_python():
    rng = np.random.default_rng(3)
    dst = np.unique(rng.integers(0, 5000, 1500))
    layout = encode(np.full(dst.size, 1), dst, 5000)
    assert layout.decode_range(1, 700, 705).tolist() == dst[700:705].tolist()
    assert layout.decode_range(1, dst.size - 1, dst.size + 10).tolist() == [dst[-1]]
    assert layout.decode_range(1, -3, None).tolist() == dst[-3:].tolist()
    assert layout.decode_range(1, 9, 4).tolist() == []
    assert layout.decode_range(0, 0, 10).tolist() == []
    with pytest.raises(ValueError, match=r"list 5000 is outside \[0, 5000\)"):
        layout.decode_range(5000, 0, 1)
    with pytest.raises(ValueError, match=r"list -1 is outside"):
        layout.decode_lists(np.array([0, -1]))


# ---------------------------------------------------------------------------- validate()

def small():
    # n = 5; lists 0: [1, 3], 1: [4], 2: [0]; offsets 0 2 3 4 4 4 (num_edges 4: l = 3);
    # indices 1 3 4 0 (largest 4: l = 3)
    return encode([0, 0, 1, 2], [1, 3, 4, 0], 5)


def put(layout, name, k, value):
    """Overwrite field k of a stream in place (same width)."""
    width = layout.offset_width if name == "offsets" else layout.index_width
    words = layout.arrays[name]
    fields = (layout.num_vertices + 1) if name == "offsets" else layout.num_edges
    values = fl.read_fixed(words, np.arange(fields), width, np)
    values[k] = value
    layout.arrays[name] = fl.pack_fixed(values, width, np)


@pytest.mark.parametrize("rule, mutate", [
    ("1", lambda L: L.arrays.update(indices=L.arrays["indices"][:-1])),
    ("1", lambda L: L.arrays.update(offsets=np.append(L.arrays["offsets"], np.uint32(0)))),
    ("1", lambda L: L.arrays.update(indices=L.arrays["indices"].astype(np.int32))),
    ("1", lambda L: setattr(L, "index_width", 65)),
    ("2", lambda L: put(L, "offsets", 5, 5)),
    ("2", lambda L: put(L, "offsets", 0, 1)),
    ("3", lambda L: put(L, "offsets", 3, 2)),
    ("4", lambda L: put(L, "indices", 2, 5)),
    ("5", lambda L: put(L, "indices", 1, 1)),
    ("5", lambda L: put(L, "indices", 1, 0)),
    ("6", lambda L: put(L, "indices", 2, 3)),  # largest id 3 needs 2 bits, 3 are stored
    ("6", lambda L: L.params.update(index_width=4)),
    ("6", lambda L: L.params.update(align_slack=1.0)),  # the rule would align 3 bits to 4
])
def test_validate_catches_each_broken_invariant(rule, mutate):
    layout = small()
    layout.validate()
    mutate(layout)
    with pytest.raises(LayoutInvariantError, match=f"^fl invariant {rule} broken: "):
        layout.validate()


# ---------------------------------------------------------------------------- sizes

@pytest.mark.parametrize("params", [{}, dict(align_slack=0.0),
                                    dict(index_width=32, offset_width=32), dict(align_slack=1.0)])
@pytest.mark.parametrize("kwargs", [dict(directed=True, renumber=False),
                                    dict(directed=False, renumber=True, weight="weight")])
def test_estimate_equals_nbytes(params, kwargs):
    df = random_edges(3000, 20000, 41, weighted=True)
    kwargs = dict(kwargs)
    directed = kwargs.pop("directed")
    G = cgc.CompressedGraph(directed=directed, format="fl", **params).from_pandas_edgelist(
        df, **kwargs)
    G.validate()
    assert cgc.estimate_nbytes(df, format="fl", directed=directed, **kwargs, **params) == G.nbytes
    layout = G._layout
    assert layout.nbytes_by_component() == {"offsets": layout.arrays["offsets"].nbytes,
                                             "indices": layout.arrays["indices"].nbytes}


def test_rmat_scale_16_is_about_half_of_csr():
    from cugraph_compressed.generators import rmat_edgelist

    df = rmat_edgelist(16, seed=3)
    G = cgc.CompressedGraph(directed=True, format="fl").from_pandas_edgelist(df, renumber=False)
    layout = G._layout
    assert layout.index_width == 16
    assert 0.5 <= (G.structure_nbytes
                   / plain_csr_nbytes(layout.num_vertices, layout.num_edges)) <= 0.52
    assert np.array_equal(layout.degrees(), np.bincount(
        df.drop_duplicates()["source"].to_numpy(), minlength=2**16))


# ---------------------------------------------------------------------------- end to end

@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("params", [{}, dict(index_width=21, offset_width=16)])
def test_bfs_end_to_end(directed, params):
    df = random_edges(2000, 9000, 42 + directed)
    G = cgc.CompressedGraph(directed=directed, format="fl", **params).from_pandas_edgelist(df)
    G.validate()
    assert G.format == "fl" and G.layout_params["align_slack"] == 0.125
    start = int(df["source"][0])
    result = cgc.bfs(G, start)
    check_against_scipy(df, result, directed, start)
    csr = cgc.CompressedGraph(directed=directed).from_pandas_edgelist(df)
    expected = cgc.bfs(csr, start)
    pd.testing.assert_frame_equal(result.sort_values("vertex").reset_index(drop=True),
                                  expected.sort_values("vertex").reset_index(drop=True))
    assert G.view_edge_list().sort_values(["source", "destination"]).reset_index(drop=True).equals(
        csr.view_edge_list().sort_values(["source", "destination"]).reset_index(drop=True))
