"""``Layout.decode_slots``: any window of property slots of every layout decodes to the owners
and neighbours the whole-graph decoder (``to_coo``) puts at those slots, windows that cut lists
at one or both ends included (decoded from mid-list by ``decode_range``)."""
import numpy as np
import pytest

from cugraph_compressed.formats import FORMATS

CASES = [
    ("csr", {}), ("csr", {"force_64bit": True}),
    ("ef", {}), ("ef", {"k": 1, "block_size": 1}), ("ef", {"k": 3, "block_size": 2}),
    ("cgr", {}), ("cgr", {"code": "gamma", "segment_size": 2, "min_interval_length": 2}),
    ("fl", {}), ("fl", {"index_width": 21, "offset_width": 27}),
]


def graph(n=300, seed=1):
    """Sorted, distinct edges: scattered ones, a hub adjacent to every vertex, a run of
    consecutive ids (CGR intervals), a self loop; many lists empty, the last ones too."""
    rng = np.random.default_rng(seed)
    src = np.r_[rng.integers(0, n - 20, 400), np.full(n, 17), np.full(60, 40), 5]
    dst = np.r_[rng.integers(0, n, 400), np.arange(n), np.arange(100, 160), 5]
    key = np.unique(src.astype(np.int64) * n + dst)
    return key // n, key % n, n


def by_slot(layout):
    owner, neighbour, slots = layout.to_coo()
    out_owner, out_neighbour = np.empty_like(owner), np.empty_like(neighbour)
    out_owner[slots], out_neighbour[slots] = owner, neighbour
    return out_owner, out_neighbour


@pytest.mark.parametrize("fmt, params", CASES, ids=[f"{f}-{p}" for f, p in CASES])
def test_windows_decode_like_the_whole_graph(fmt, params):
    src, dst, n = graph()
    layout = FORMATS[fmt].encode(src, dst, n, np, **params)
    owner, neighbour = by_slot(layout)
    ends = np.cumsum(layout.degrees())
    m = layout.num_edges
    for width in (1, 2, 7, 64, 299, 301, m):
        for begin in range(0, m, width):
            end = min(begin + width, m)
            got_owner, got_neighbour = layout.decode_slots(begin, end, ends)
            assert got_owner.dtype == got_neighbour.dtype == np.int64
            assert np.array_equal(got_owner, owner[begin:end]), (width, begin)
            assert np.array_equal(got_neighbour, neighbour[begin:end]), (width, begin)
    # Inside the hub's list, at both ends cut, and the degrees' prefix sum computed when absent.
    first = int(ends[16])
    for begin, end in ((first + 3, first + 250), (first, first + 300), (0, m), (5, 5)):
        got_owner, got_neighbour = layout.decode_slots(begin, end)
        assert np.array_equal(got_owner, owner[begin:end])
        assert np.array_equal(got_neighbour, neighbour[begin:end])


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_empty_layouts(fmt):
    for n in (0, 5):
        layout = FORMATS[fmt].encode(np.zeros(0, np.int64), np.zeros(0, np.int64), n, np)
        owner, neighbour = layout.decode_slots(0, 0)
        assert owner.size == neighbour.size == 0


def test_csr_decode_range_reads_the_list_only():
    src, dst, n = graph()
    layout = FORMATS["csr"].encode(src, dst, n, np)
    for v, begin, end in ((17, 10, 20), (40, 50, 99), (299, 0, 3), (5, 0, 1)):
        whole = layout.decode_lists(np.asarray([v]))[1]
        assert np.array_equal(layout.decode_range(v, begin, end), whole[begin:end])
