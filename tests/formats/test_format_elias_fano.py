"""The ef layout (Elias-Fano lists): round trips, pinned edge cases, sizes against the
Elias-Fano bound, one validate() test per documented invariant, BFS end to end."""
import numpy as np
import pandas as pd
import pytest
from graphs import EF_BAD_LISTS, check_against_scipy, random_edges
from hypothesis import given, settings
from hypothesis import strategies as st

import cugraph_compressed as cgc
from cugraph_compressed.formats import EliasFanoLayout, LayoutInvariantError
from cugraph_compressed.formats.base import plain_csr_nbytes
from cugraph_compressed.formats.bits import TAIL_WORDS, read_fields, stream_words
from cugraph_compressed.formats.elias_fano import EliasFanoLists, ef_bound_bits
from cugraph_compressed.generators import rmat_edgelist


def encode(src, dst, n, **params):
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    order = np.lexsort((dst, src))
    return EliasFanoLayout.encode(src[order], dst[order], n, np, **params)


def codec(lists, **params):
    """The codec over plain Python lists of values."""
    owner = np.repeat(np.arange(len(lists)), [len(x) for x in lists]).astype(np.int64)
    values = np.array([v for x in lists for v in x], np.int64)
    return EliasFanoLists.encode(owner, values, len(lists), np, **params)


def pointer_overhead(degrees, k):
    """Upper bound on the forward-pointer bits: (n - 1) // k pointers of bit_length(2n) bits."""
    degrees = np.asarray(degrees, np.int64)
    return int(np.sum(np.where(degrees > 0, (degrees - 1) // k, 0)
                      * (np.log2(2 * np.maximum(degrees, 1)) + 1)))


def check_everything(layout, src, dst, n, rng):
    """Validate, whole-graph round trip, sizes, random subsets and mid-list ranges."""
    layout.validate()
    owner, nbrs, positions = layout.to_coo()
    assert np.array_equal(owner, src) and np.array_equal(nbrs, dst)
    assert np.array_equal(positions, np.arange(src.size))
    degrees = np.bincount(src, minlength=n) if src.size else np.zeros(n, np.int64)
    assert np.array_equal(layout.degrees(), degrees)
    assert layout.nbytes == EliasFanoLayout.estimate_nbytes(src, dst, n, np, **layout.params)
    bound = ef_bound_bits(src, dst, n)
    assert layout.bound_bits() == bound
    assert layout.data_bits <= bound + pointer_overhead(degrees, layout.params["k"])
    first = np.concatenate([[0], np.cumsum(degrees)])
    if n:
        some = rng.integers(0, n, rng.integers(0, 2 * n + 1))
        o, nb, pos = layout.decode_lists(some)
        expected = [d for v in some for d in dst[first[v]:first[v + 1]]]
        assert nb.tolist() == expected
        assert np.array_equal(some[o], np.repeat(some, degrees[some]))
        assert pos.tolist() == [p for v in some for p in range(first[v], first[v + 1])]
    for v in range(n):  # a range of every list, starting mid-list
        begin = int(rng.integers(0, degrees[v] + 1))
        end = int(rng.integers(begin, degrees[v] + 1))
        assert np.array_equal(layout.decode_range(v, begin, end),
                              dst[first[v] + begin:first[v] + end])


def random_lists(rng, count, shape):
    """Sorted, duplicate-free neighbour lists of ``count`` vertices in one of a few shapes."""
    if shape == "uniform":
        pairs = rng.integers(0, count, (rng.integers(0, 4 * count + 1), 2))
    elif shape == "dense":  # long runs of consecutive ids: lists longer than small k
        pairs = np.stack(np.nonzero(rng.random((count, count)) < 0.8), axis=1)
    else:  # "hubs": a few vertices adjacent to many, the rest sparse
        hubs = rng.integers(0, count, 3)
        pairs = np.concatenate([np.stack([rng.choice(hubs, 6 * count),
                                          rng.integers(0, count, 6 * count)], 1),
                                rng.integers(0, count, (count, 2))])
    pairs = np.unique(pairs.reshape(-1, 2), axis=0)
    return pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 30), st.sampled_from(["uniform", "dense", "hubs"]),
       st.sampled_from([1, 2, 3, 7, 512]), st.sampled_from([1, 2, 4, 64]),
       st.integers(0, 2**32 - 1))
def test_round_trip(n, shape, k, block_size, seed):
    rng = np.random.default_rng(seed)
    src, dst = random_lists(rng, n, shape) if n else (np.zeros(0, np.int64), np.zeros(0, np.int64))
    layout = EliasFanoLayout.encode(src, dst, n, np, k=k, block_size=block_size)
    check_everything(layout, src, dst, n, rng)


def _sample(rng, low, high):
    """Up to 80 distinct sorted values in [low, high)."""
    return np.unique(rng.integers(low, high, rng.integers(1, 81), dtype=np.int64)).tolist()


def _run(rng, low, high):
    """A run of consecutive values (a dense list), at most 80 long, in [low, high)."""
    length = int(rng.integers(1, 81))
    first = int(rng.integers(low, max(low + 1, high - length)))
    return list(range(first, min(first + length, high)))


# Named list shapes, each built from a seeded generator: hypothesis picks and shrinks the mix.
LIST_SHAPES = {
    "empty": lambda rng: [],
    "[0]": lambda rng: [0],
    "[2**32-1]": lambda rng: [2**32 - 1],
    "[0, 2**32-1]": lambda rng: [0, 2**32 - 1],
    "run from 0": lambda rng: _run(rng, 0, 100),
    "run below 2**32": lambda rng: _run(rng, 2**32 - 100, 2**32),
    "run anywhere": lambda rng: _run(rng, 0, 2**32),
    "half dense": lambda rng: [v for v in range(160) if rng.random() < 0.5],
    "sparse 12-bit": lambda rng: _sample(rng, 0, 2**12),
    "sparse 20-bit": lambda rng: _sample(rng, 0, 2**20),
    "sparse 32-bit": lambda rng: _sample(rng, 0, 2**32),
    "top 100": lambda rng: _sample(rng, 2**32 - 100, 2**32),
}


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(sorted(LIST_SHAPES)), max_size=6), st.sampled_from([1, 2, 5, 512]),
       st.sampled_from([1, 4, 64]), st.integers(0, 2**32 - 1))
def test_codec_round_trip(shapes, k, block_size, seed):
    rng = np.random.default_rng(seed)
    lists_ = [LIST_SHAPES[shape](rng) for shape in shapes]
    coded = codec(lists_, k=k, block_size=block_size)
    coded.validate()
    owner, got, positions = coded.decode(np.arange(len(lists_)))
    assert got.tolist() == [v for x in lists_ for v in x]
    assert positions.tolist() == list(range(positions.size))
    lengths = [len(x) for x in lists_]
    assert coded.degrees().tolist() == lengths
    assert coded.data_bits <= coded.bound_bits() + pointer_overhead(lengths, k)
    for i, x in enumerate(lists_):
        begin = int(rng.integers(0, len(x) + 1))
        end = int(rng.integers(begin, len(x) + 1))
        assert coded.decode_range(i, begin, end).tolist() == x[begin:end]


# -- pinned edge cases (DESIGN.md section 5) ---------------------------------------------------
def test_empty_graph():
    layout = encode([], [], 0)
    layout.validate()
    assert [a.size for a in layout.to_coo()] == [0, 0, 0]
    assert layout.degrees().size == 0 and layout.data_bits == 0 and layout.bound_bits() == 0
    assert layout.nbytes == 4 * 8 + 2 * 4 * TAIL_WORDS == EliasFanoLayout.estimate_nbytes(
        np.zeros(0, np.int32), np.zeros(0, np.int32), 0, np)


def test_isolated_vertices_and_more_vertices_than_ids():
    layout = encode([1, 1, 3], [3, 1, 0], 200, block_size=4)  # 196 vertices no edge mentions
    layout.validate()
    assert layout.degrees().tolist() == [0, 2, 0, 1] + [0] * 196
    assert layout.decode_lists([199, 1, 0, 3])[1].tolist() == [1, 3, 0]
    assert layout.decode_range(199, 0, 0).size == 0


def test_edgeless_graph_with_vertices():
    layout = encode([], [], 5)
    layout.validate()
    assert layout.degrees().tolist() == [0] * 5 and layout.data_bits == 0


@pytest.mark.parametrize("values, bits, l", [
    ([0], 1, 0),                       # u = 1: no low bits, upper "1"
    ([2**32 - 1], 33, 32),            # u = 2**32: 32 low bits, upper "1"
    ([0, 2**32 - 1], 2 * 31 + 2 + 1, 31),
    ([2**31 - 1], 32, 31),             # ends exactly on a word boundary
    ([2**31 - 1, 2**32 - 1], 2 * 31 + 2 + 1, 31),
])
def test_extreme_lists(values, bits, l):
    coded = codec([values])
    coded.validate()
    assert coded.decode([0])[1].tolist() == values
    assert coded.data_bits == bits and coded.arrays["data"].size == stream_words(bits)
    assert coded._lists([0])["l"].tolist() == [l]


def test_u_zero_lists_between_others():
    coded = codec([[], [5], [], [], [0, 1, 2], []])
    coded.validate()
    assert coded.degrees().tolist() == [0, 1, 0, 0, 3, 0]
    assert coded.decode([3, 4, 0, 1])[1].tolist() == [0, 1, 2, 5]
    empty = codec([[], [], []])
    empty.validate()
    assert empty.data_bits == 0 and empty.decode([0, 1, 2])[1].size == 0


@pytest.mark.parametrize("width", range(1, 33))
def test_every_low_width(width):
    top = 2**width - 1
    lists_ = [[top], [top >> 1, top], [0, top],
              list(range(top - 3, top + 1)) if top >= 3 else [top]]
    coded = codec(lists_, k=2)
    coded.validate()
    assert coded._lists([0])["l"].tolist() == [width]
    assert coded.decode(np.arange(4))[1].tolist() == [v for x in lists_ for v in x]


@pytest.mark.parametrize("extra_bits", [0, 1])
def test_data_ending_on_and_past_a_word(extra_bits):
    # Thirty lists [0] take one bit each, [1] takes two (a low bit and "1"): 32 bits, then 33.
    lists_ = [[0]] * 30 + [[1]] + [[0]] * extra_bits
    coded = codec(lists_)
    coded.validate()
    assert coded.data_bits == 32 + extra_bits
    assert coded.arrays["data"].size == stream_words(32 + extra_bits) == 1 + extra_bits + TAIL_WORDS
    assert coded.decode(np.arange(len(lists_)))[1].tolist() == [v for x in lists_ for v in x]
    assert coded.decode_range(30, 0, 1).tolist() == [1]


def fill_padding(words, used_bits):
    """Set every bit of a stream past ``used_bits`` (the tail words and the last word's rest)."""
    words = words.copy()
    full = used_bits // 32
    if used_bits % 32:
        words[full] |= np.uint32((0xFFFFFFFF << (used_bits % 32)) & 0xFFFFFFFF)
        full += 1
    words[full:] = 0xFFFFFFFF
    return words


def record_bits(layout):
    blocks = layout.arrays["blocks"]
    L, B = layout.num_vertices, layout.params["block_size"]
    w = blocks[-1, 3]
    return int(blocks[-1, 2]) + (L + 1 - (blocks.shape[0] - 1) * B) * int(
        (w & 0xFF) + ((w >> 8) & 0xFF) + ((w >> 16) & 0xFF))


@pytest.mark.parametrize("block_size", [1, 4, 64])
def test_garbage_in_tail_padding_changes_nothing(block_size):
    src, dst = random_lists(np.random.default_rng(5), 60, "uniform")
    layout = encode(src, dst, 60, k=3, block_size=block_size)
    before = [a.copy() for a in layout.to_coo()]
    ranges = [layout.decode_range(v, 1, 4).tolist() for v in range(60) if layout.degrees()[v] >= 4]
    layout.arrays["data"] = fill_padding(layout.arrays["data"], layout.data_bits)
    layout.arrays["records"] = fill_padding(layout.arrays["records"], record_bits(layout))
    layout.validate()
    for a, b in zip(before, layout.to_coo()):
        assert np.array_equal(a, b)
    assert ranges == [layout.decode_range(v, 1, 4).tolist() for v in range(60)
                      if layout.degrees()[v] >= 4]


def test_self_loops():
    layout = encode([0, 1, 1, 2], [0, 1, 2, 2], 3)
    layout.validate()
    assert layout.to_coo()[1].tolist() == [0, 1, 2, 2]


# -- input checks -----------------------------------------------------------------------------
@pytest.mark.parametrize("src, dst, n, message", EF_BAD_LISTS + [
    ([0], [0], 2**32 + 1, "num_vertices=4294967297 is too large"),
])
def test_encoder_rejects_bad_input(src, dst, n, message):
    with pytest.raises(ValueError, match=message):
        EliasFanoLayout.encode(np.array(src, np.int64), np.array(dst, np.int64), n, np)


def test_codec_rejects_values_past_32_bits():
    with pytest.raises(ValueError,
                       match=r"list 1 holds value 4294967296, outside \[0, 2\*\*32 - 1\]"):
        codec([[1], [2**32]])


@pytest.mark.parametrize("params, error, message", [
    (dict(k=0), ValueError, "k=0 is out of range"),
    (dict(k=2**32 + 1), ValueError, "k=4294967297 is out of range"),
    (dict(k="512"), TypeError, "k must be an int"),
    (dict(k=True), TypeError, "k must be an int"),
    (dict(block_size=48), ValueError, "block_size=48 must be a power of two"),
    (dict(block_size=0), ValueError, "block_size=0 must be a power of two"),
    (dict(block_size=2**17), ValueError, "block_size=131072 must be a power of two"),
    (dict(block_size=4.0), TypeError, "block_size must be an int"),
])
def test_check_params(params, error, message):
    with pytest.raises(error, match=message):
        EliasFanoLayout.check_params(**params)
    with pytest.raises(error, match=message):
        cgc.CompressedGraph(format="ef", **params)


def test_check_params_defaults():
    assert EliasFanoLayout.check_params() == {"k": 512, "block_size": 64}


def test_decode_argument_errors():
    layout = encode([0, 0], [1, 2], 3)
    with pytest.raises(ValueError, match=r"range \[1, 3\) is not within list 0 of 2 values"):
        layout.decode_range(0, 1, 3)
    with pytest.raises(ValueError, match=r"range \[2, 1\)"):
        layout.decode_range(0, 2, 1)
    with pytest.raises(ValueError, match="list 3 is out of range"):
        layout.decode_lists([3])


# -- decode_range really starts mid-list --------------------------------------------------------
def test_decode_range_reads_only_from_the_pointer_on():
    k = 8
    values = list(range(0, 3 * 400, 3))  # one list of 400 values, 49 pointers
    coded = codec([values], k=k)
    info = {name: int(v[0]) for name, v in coded._lists([0]).items()}
    data = coded.arrays["data"]
    begin, end = 203, 211  # pointer 25 (value 200) to pointer 27 (value 216)
    first_bit = info["up"] + (values[25 * k] >> info["l"]) + 25 * k
    last_bit = info["up"] + (values[27 * k] >> info["l"]) + 27 * k
    # Wreck the upper bits before the one of value 200 and after the one of value 216:
    # a decoder that scans from the start of the list or to its end would now be wrong.
    bits = np.unpackbits(data.view(np.uint8), bitorder="little")
    bits[info["up"]:first_bit] ^= 1
    bits[last_bit + 1:info["end"]] ^= 1
    coded.arrays["data"] = np.packbits(bits, bitorder="little").view(np.uint32)
    assert coded.decode_range(0, begin, end).tolist() == values[begin:end]
    assert coded.decode_range(0, 200, 216).tolist() == values[200:216]


# -- sizes --------------------------------------------------------------------------------------
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("kwargs", [dict(), dict(k=4, block_size=8), dict(block_size=1)])
def test_estimate_equals_nbytes(directed, kwargs):
    df = random_edges(500, 4000, 11, weighted=True)
    for renumber, weight in ((False, None), (True, "weight")):
        G = cgc.CompressedGraph(directed=directed, format="ef", **kwargs).from_pandas_edgelist(
            df, renumber=renumber, weight=weight)
        assert cgc.estimate_nbytes(df, format="ef", directed=directed, renumber=renumber,
                                   weight=weight, **kwargs) == G.nbytes
        assert G.structure_nbytes == sum(G._layout.nbytes_by_component().values())


def graph_arrays(df, directed):
    G = cgc.CompressedGraph(directed=directed, format="ef").from_pandas_edgelist(df, renumber=False)
    owner, nbrs, _ = G._layout.to_coo()
    return G, owner, nbrs


@pytest.mark.parametrize("name, df", [
    ("random sparse", random_edges(5000, 20000, 1)),
    ("random dense", random_edges(300, 40000, 2)),
    ("rmat 12", rmat_edgelist(12, seed=5)),
    ("rmat 14", rmat_edgelist(14, seed=6)),
])
@pytest.mark.parametrize("directed", [True, False])
def test_data_within_five_percent_of_the_ef_bound(name, df, directed):
    G, owner, nbrs = graph_arrays(df, directed)
    layout = G._layout
    bound = ef_bound_bits(owner, nbrs, layout.num_vertices)
    assert bound == layout.bound_bits() > 0
    assert layout.data_bits <= 1.05 * bound, (layout.data_bits, bound)
    if name.startswith("rmat"):  # smaller than a plain 32-bit CSR, per-vertex arrays included
        assert layout.nbytes < 0.75 * plain_csr_nbytes(layout.num_vertices, layout.num_edges)


def test_rmat_16_bytes_per_edge():
    G, _, _ = graph_arrays(rmat_edgelist(16), True)
    layout = G._layout
    per_edge = layout.nbytes / layout.num_edges
    assert per_edge < 2.0 < 4 + 4 / 16
    assert G.compression_ratio > 2.0
    sizes = layout.nbytes_by_component()
    assert sizes["blocks"] + sizes["records"] < 0.3 * layout.num_edges  # per-vertex part


# -- validate(): one test per invariant ---------------------------------------------------------
def write_field(words, position, width, value):
    """Overwrite ``width`` bits of a stream at ``position`` with ``value``."""
    for i in range(width):
        bit = position + i
        word, shift = bit // 32, bit % 32
        words[word] = ((words[word] & ~np.uint32(1 << shift))
                       | np.uint32(((value >> i) & 1) << shift))


def record_fields(layout, e):
    """Positions and widths of entry e's record fields: [(pos, width)] for first, start, l."""
    B = layout.params["block_size"]
    row = layout.arrays["blocks"][e // B]
    we, wb, wl = int(row[3] & 0xFF), int((row[3] >> 8) & 0xFF), int((row[3] >> 16) & 0xFF)
    at = int(row[2]) + (e % B) * (we + wb + wl)
    return [(at, we), (at + we, wb), (at + we + wb, wl)]


def list_info(layout, v):
    return {name: int(x[0]) for name, x in layout.lists()._lists([v]).items()}


def base_layout():
    # Lists: 0 -> [1, 2, 5] (one forward pointer with k=2), 2 -> [0, 3], 3 -> [4], 6 -> [6];
    # rows of two entries: (0, 1), (2, 3), (4, 5), (6, sentinel 7).
    return encode([0, 0, 0, 2, 2, 3, 6], [1, 2, 5, 0, 3, 4, 6], 7, k=2, block_size=2)


def flip_upper_zero(a, layout):
    info = list_info(layout, 0)
    bits = [int(read_fields(a["data"], np.array([p]), np.array([1]))[0])
            for p in range(info["up"], info["end"])]
    write_field(a["data"], info["up"] + bits.index(0), 1, 1)


def move_last_one(a, layout):
    info = list_info(layout, 0)  # upper bits of [1, 2, 5] with l=1: "1010001"? end with a one
    write_field(a["data"], info["end"] - 1, 1, 0)
    write_field(a["data"], info["end"] - 2, 1, 1)


def corrupt_head_first(a, layout):
    (at, we), _, _ = record_fields(layout, 2)  # head of row 1
    write_field(a["records"], at, we, 1)


def corrupt_head_start(a, layout):
    _, (at, wb), _ = record_fields(layout, 2)
    write_field(a["records"], at, wb, 1)


def corrupt_sentinel_l(a, layout):
    _, _, (at, wl) = record_fields(layout, 7)
    assert wl >= 1
    write_field(a["records"], at, wl, 1)


def corrupt_pointer(a, layout):
    info = list_info(layout, 0)
    assert info["m"] == 1
    old = int(read_fields(a["data"], np.array([info["start"]]), np.array([info["w_fp"]]))[0])
    write_field(a["data"], info["start"], info["w_fp"], old ^ 1)


@pytest.mark.parametrize("rule, mutate", [
    ("1", lambda a, lay: a.update(blocks=a["blocks"].astype(np.int32))),
    ("1", lambda a, lay: a.update(blocks=a["blocks"][:-1])),
    ("1", lambda a, lay: a.update(data=a["data"].astype(np.int64))),
    ("1", lambda a, lay: a.update(records=a["records"].reshape(1, -1))),
    ("2", lambda a, lay: a["blocks"].__setitem__((0, 2), 1)),
    ("2", lambda a, lay: a["blocks"].__setitem__((1, 3), a["blocks"][1, 3] | (1 << 24))),
    ("2", lambda a, lay: a["blocks"].__setitem__((1, 3), (a["blocks"][1, 3] & 0xFFFF) | (7 << 16))),
    ("2", lambda a, lay: a["blocks"].__setitem__((1, 2), a["blocks"][1, 2] + 1)),
    ("2", lambda a, lay: a.update(records=a["records"][:-1])),
    ("3", corrupt_head_first),
    ("3", lambda a, lay: a["blocks"].__setitem__((1, 0), a["blocks"][1, 0] + 100)),
    ("3", lambda a, lay: a["blocks"].__setitem__((3, 0), a["blocks"][3, 0] + 1)),
    ("4", corrupt_head_start),
    ("4", lambda a, lay: a["blocks"].__setitem__((1, 1), a["blocks"][1, 1] + 1000)),
    ("4", lambda a, lay: a.update(data=a["data"][:-1])),
    ("5", flip_upper_zero),
    ("5", move_last_one),
    ("6", corrupt_sentinel_l),
    ("7", corrupt_pointer),
])
def test_validate_catches_each_broken_invariant(rule, mutate):
    layout = base_layout()
    layout.validate()
    mutate(layout.arrays, layout)
    with pytest.raises(LayoutInvariantError, match=f"ef invariant {rule} broken"):
        layout.validate()


def test_invariant_6_wrong_l_with_consistent_bits():
    # [5]: u = 6, l = 2, bits 01|01 (lows 1, upper "01").  With l = 1 the same four bits read
    # as low 1 and upper "001" (high 2): value 5 again, every other invariant holds.
    layout = encode([0], [5], 6)
    layout.validate()
    _, _, (at, wl) = record_fields(layout, 0)
    assert int(read_fields(layout.arrays["records"], np.array([at]), np.array([wl]))[0]) == 2
    write_field(layout.arrays["records"], at, wl, 1)
    with pytest.raises(LayoutInvariantError, match="ef invariant 6 broken: list 0 of 1 values "
                                                   "with u=6 stores l=1, expected 2"):
        layout.validate()


@pytest.mark.parametrize("lows", [(1, 0), (0, 0)])
def test_invariant_8_lists_not_increasing(lows):
    layout = encode([0, 0], [4, 5], 6)  # l = 1, lows 0, 1, highs 2, 2
    info = list_info(layout, 0)
    assert info["l"] == 1
    write_field(layout.arrays["data"], info["lo"], 1, lows[0])
    write_field(layout.arrays["data"], info["lo"] + 1, 1, lows[1])
    with pytest.raises(LayoutInvariantError,
                       match="ef invariant 8 broken: list 0 is not strictly increasing"):
        layout.validate()


def test_invariant_9_value_bound():
    layout = encode([0, 0], [2, 4], 5)  # l = 1; setting the last low bit makes 5 >= 5
    info = list_info(layout, 0)
    write_field(layout.arrays["data"], info["lo"] + 1, 1, 1)
    with pytest.raises(LayoutInvariantError,
                       match="ef invariant 9 broken: list 0 holds value 5, not below 5"):
        layout.validate()


# -- end to end -------------------------------------------------------------------------------
@pytest.mark.parametrize("directed", [True, False])
def test_bfs_through_the_api(directed):
    df = rmat_edgelist(10, seed=9)
    G = cgc.CompressedGraph(directed=directed, format="ef").from_pandas_edgelist(df, renumber=False)
    G.validate()
    assert G.format == "ef" and G.layout_params == {"k": 512, "block_size": 64}
    start = int(df["source"].iloc[0])
    result = cgc.bfs(G, start)
    check_against_scipy(df, result, directed, start, ids=np.arange(G.number_of_vertices()))
    csr = cgc.CompressedGraph(directed=directed).from_pandas_edgelist(df, renumber=False)
    assert G.view_edge_list().equals(csr.view_edge_list())


def test_bfs_renumbered_with_small_k():
    df = random_edges(400, 3000, 4)
    df["source"] = df["source"].astype(str) + "v"
    df["destination"] = df["destination"].astype(str) + "v"
    G = cgc.CompressedGraph(directed=True, format="ef", k=2, block_size=4).from_pandas_edgelist(df)
    G.validate()
    start = df["source"].iloc[3]
    check_against_scipy(df, cgc.bfs(G, start), True, start)


def test_weights_follow_the_edges():
    df = pd.DataFrame({"source": [2, 0, 0, 1], "destination": [0, 2, 1, 2],
                       "weight": [1.0, 2.0, 3.0, 4.0]})
    G = cgc.CompressedGraph(directed=True, format="ef").from_pandas_edgelist(df, renumber=False,
                                                                             weight="weight")
    out = G.view_edge_list().sort_values(["source", "destination"]).reset_index(drop=True)
    assert out["weight"].tolist() == [3.0, 2.0, 4.0, 1.0]
