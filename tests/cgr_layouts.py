"""Hand-built and hand-broken cgr layouts: the cases of the host validation test
(tests/formats/test_format_cgr.py), which the device check must judge the same
(tests/native/test_cgr_check_native.py, tests/formats/test_gpu_format_cgr.py)."""
import numpy as np

from cugraph_compressed.formats import CGRLayout, cgr
from cugraph_compressed.formats.bits import code_fields, code_length, pack_fields, split_fields

#: Hand-built lists are written for intervals of at least 4 ids (the CGR paper's minimum), shorter
#: than the layout's default, so that short lists hold intervals.
PAPER = {"min_interval_length": 4}


def encode(src, dst, n, **params):
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    order = np.lexsort((dst, src))
    return CGRLayout.encode(src[order], dst[order], n, np, **params)


def build(lists, degrees, n, **params):
    """A layout written by hand: ``lists[v]`` is a sequence of ("code", x) or ("bits", value,
    width) items, laid out one after the other."""
    params = CGRLayout.check_params(**{**PAPER, **params})
    k = 1 if params["code"] == "gamma" else params["zeta_k"]
    lists = list(lists) + [[]] * (n - len(lists))
    degrees = list(degrees) + [0] * (n - len(degrees))
    values, positions, sizes = [], [], []
    pos = 0
    for items in lists:
        begin = pos
        for item in items:
            if item[0] == "code":
                x = np.asarray([item[1]], np.int64)
                v, p = code_fields(x, np.asarray([pos]), k)
                pos += int(code_length(x, k)[0])
            else:
                v, p = split_fields(np.asarray([item[1]], np.int64), np.asarray([pos]))
                pos += item[2]
            values.append(v)
            positions.append(p)
        sizes.append(pos - begin)
    stream = pack_fields(np.concatenate(values + [np.zeros(0, np.uint32)]),
                         np.concatenate(positions + [np.zeros(0, np.int64)]), pos)
    edge_low, edge_high = cgr.split_offsets(
        np.concatenate([[0], np.cumsum(degrees)]).astype(np.int64), np)
    bit_low, bit_high = cgr.split_offsets(
        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64), np)
    arrays = {"edge_offsets": edge_low, "edge_offsets_high": edge_high, "bit_offsets": bit_low,
              "bit_offsets_high": bit_high, "stream": stream}
    return CGRLayout(np, n, int(sum(degrees)), arrays, params)


C = lambda x: ("code", x)  # noqa: E731
ZZ = lambda d: ("code", 2 * d if d >= 0 else -2 * d - 1)  # noqa: E731
GOOD = [[C(0), ZZ(1), C(0)], [], [C(4), ZZ(2), C(0), ZZ(-2)]]   # 0 -> {1, 2}; 2 -> {4,5,6,7}, {0}
GOOD_DEG = [2, 0, 5]


def encoded():
    src = np.asarray([0, 0, 0, 2, 2, 2, 2, 2, 3])
    dst = np.asarray([1, 5, 9, 0, 4, 5, 6, 7, 3])
    layout = encode(src, dst, 10, segment_size=2)
    layout.validate()
    return layout


def drop_last_word(a):
    a["stream"] = a["stream"][:-1]


def shift_bits(a):
    a["bit_offsets"][1], a["bit_offsets"][2] = a["bit_offsets"][2] + 1, a["bit_offsets"][1]


def _mutated(mutate):
    layout = encoded()
    mutate(layout.arrays)
    return layout


#: (rule, make): a layout breaking invariant `rule` (its number in formats/cgr.py).
BROKEN = [
    ("1", lambda: _mutated(drop_last_word)),
    ("1", lambda: _mutated(lambda a: a.update(edge_offsets=a["edge_offsets"].astype(np.int64)))),
    ("1", lambda: _mutated(lambda a: a.update(bit_offsets_high=np.asarray([11])))),
    ("2", lambda: _mutated(lambda a: a["edge_offsets"].__setitem__(-1, 8))),
    ("2", lambda: _mutated(lambda a: a["edge_offsets"].__setitem__(2, 1))),
    ("3", lambda: _mutated(shift_bits)),
    # 4: an empty list with bits; a header claiming more interval edges than the degree
    ("4", lambda: build([[C(0), ZZ(1)], [C(0)], []], [1, 0, 0], 10)),
    ("4", lambda: build([[C(2), ZZ(1)]], [1], 10)),
    # 5: interval lengths overshoot E (4 + 2 = 6 > 5)
    ("5", lambda: build([[C(5), ZZ(2), C(2)]], [5], 10)),
    # 6: residuals {1, 2} and {5} in segments of 2; the table holds W = 3 (6 bits), then the
    # entries 0 and 7 (the bits of code(zigzag(1)) + code(0)) in W bits each
    ("6", lambda: build([[C(0), ("bits", 3, 6), ("bits", 0, 3), ("bits", 5, 3), ZZ(1), C(0),
                          ZZ(5)]], [3], 10, segment_size=2)),  # a wrong entry
    ("6", lambda: build([[C(0), ("bits", 4, 6), ("bits", 0, 4), ("bits", 7, 4), ZZ(1), C(0),
                          ZZ(5)]], [3], 10,
                        segment_size=2)),  # W = 4, not the bit length 3 of the last entry
    # 7: a list with a spare bit at its end
    ("7", lambda: build([[C(0), ZZ(1), ("bits", 1, 1)]], [1], 10)),
    # 8: a neighbour beyond num_vertices, and one below 0
    ("8", lambda: build([[C(0), ZZ(10)]], [1], 10)),
    ("8", lambda: build([[C(0), ZZ(-1)]], [1], 10)),
    # 9: a run of 4 stored as residuals; a duplicate across segments; overlap with an interval
    ("9", lambda: build([[C(0), ZZ(1), C(0), C(0), C(0)]], [4], 10, segment_size=8)),
    ("9", lambda: build([[C(0), ("bits", 3, 6), ("bits", 0, 3), ("bits", 4, 3), ZZ(1), ZZ(1)]],
                        [2], 10, segment_size=1)),
    ("9", lambda: build([[C(4), ZZ(1), C(0), ZZ(2)]], [5], 10)),
]

#: (lists, degrees, message start): layouts of several broken lists, where the host check's
#: order of steps decides which one is named.
WINDOW_ORDER = [
    # Steps 2 and 3 are one step of the host check: the first list breaking either is named.
    ([[C(0), ZZ(1)], [C(2), ZZ(1)], [("bits", 0, 2)]], [1, 1, 1],
     "cgr invariant 4 broken: list 1 claims 2 interval edges"),
    ([[C(0), ZZ(1)], [("bits", 0, 2)], [C(2), ZZ(1)]], [1, 1, 1],
     "cgr invariant 4 broken: the header of list 1 "),
    # Ids out of range: an interval's before any residual's, whatever the lists' order.
    ([[C(0), ZZ(20)], [C(4), ZZ(8), C(0)]], [1, 4],
     "cgr invariant 8 broken: list 1 holds interval [9, 12]"),
    ([[C(0), ZZ(1), C(20)], [C(0), ZZ(-3)]], [2, 1],
     "cgr invariant 8 broken: list 1 holds neighbour -2"),
]
