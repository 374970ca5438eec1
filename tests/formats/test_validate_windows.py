"""validate() in windows (formats/base.py list_windows, entry_windows, FirstBroken): with windows
forced tiny, a graph spans hundreds of them, and every layout must still pass when intact and,
when corrupted, raise exactly the error a single window over the whole graph raises (the rule
checked first, then the first list breaking it), naming the list the corruption was put in."""
import re
import tracemalloc

import numpy as np
import pytest

from cugraph_compressed.formats import LayoutInvariantError, base, layout_class
from cugraph_compressed.formats.elias_fano import EliasFanoLists
from cugraph_compressed.formats.fixed_length import pack_fixed

N = 3000
LATE = 2500          # a list far past the first windows
EARLY = 40


def graph(seed=5):
    """Sorted, distinct edges of a random graph: degrees 0 .. 30, a few lists of one id run."""
    rng = np.random.default_rng(seed)
    degree = rng.integers(0, 31, N)
    degree[::97] = 0
    src, dst = [], []
    for v in range(N):
        if v % 50 == 7:  # a run of consecutive ids: cgr intervals
            ids = np.arange(v, v + 12) % N
        else:
            ids = rng.choice(N, degree[v], replace=False)
        ids = np.unique(ids)
        src.append(np.full(ids.size, v))
        dst.append(ids)
    return np.concatenate(src).astype(np.int64), np.concatenate(dst).astype(np.int64)


SRC, DST = graph()


#: Windows of 256 entries and 64 lists: some 180 windows of lists; cgr, whose host codec costs
#: tens of milliseconds a window, gets windows of 2048 and 512: some 25.
SMALL = {"csr": (256, 64), "fl": (256, 64), "ef": (256, 64), "cgr": (2048, 512)}


def force(patch, entries, lists):
    """Windows of ``entries`` entries and ``lists`` lists, host and device."""
    for name, value in (("HOST_VALIDATE_WINDOW", entries), ("VALIDATE_WINDOW", entries),
                        ("HOST_VALIDATE_WINDOW_LISTS", lists), ("VALIDATE_WINDOW_LISTS", lists)):
        patch.setattr(base, name, value)


@pytest.fixture
def tiny(monkeypatch):
    force(monkeypatch, *SMALL["csr"])


def whole(monkeypatch):
    """One window over the whole graph: the reference a whole-graph pass gives."""
    for name in ("HOST_VALIDATE_WINDOW", "VALIDATE_WINDOW", "HOST_VALIDATE_WINDOW_LISTS",
                 "VALIDATE_WINDOW_LISTS"):
        monkeypatch.setattr(base, name, 1 << 40)


def error_of(layout, **kwargs):
    with pytest.raises(LayoutInvariantError) as info:
        layout.validate(**kwargs)
    return str(info.value)


#: cgr intervals from 4 ids, so that the graph's runs of 12 ids are intervals (the layout's
#: default is 32).
PARAMS = {"cgr": {"min_interval_length": 4}}


def encode(name, src=SRC, dst=DST, **params):
    return layout_class(name).encode(src, dst, N, np, **{**PARAMS.get(name, {}), **params})


def windows_of_graph():
    """The windows of lists of the graph's edge offsets, with the sizes in force."""
    first = np.concatenate([[0], np.cumsum(np.bincount(SRC, minlength=N))])
    return list(base.list_windows(lambda a, b: first[a:b + 1], N, np))


def test_list_windows_cover_whole_lists_in_order(tiny):
    windows = windows_of_graph()
    assert len(windows) > 150
    assert windows[0][0] == 0 and windows[-1][1] == N
    degrees = np.bincount(SRC, minlength=N)
    for (v0, v1, first), nxt in zip(windows, windows[1:] + [(N, None, None)]):
        assert v1 == nxt[0] and v1 - v0 <= 64
        assert int(first[-1] - first[0]) == int(degrees[v0:v1].sum())
        assert int(first[-1] - first[0]) <= 256 or v1 == v0 + 1


def test_entry_windows_align():
    assert base.entry_windows(10, np, 4) == [(0, 4), (4, 8), (8, 10)]
    assert base.entry_windows(10, np, 3, align=4) == [(0, 4), (4, 8), (8, 10)]
    assert base.entry_windows(0, np, 4) == []


def test_popcount_matches_python():
    words = np.random.default_rng(1).integers(0, 2**32, 1000, dtype=np.uint64).astype(np.uint32)
    expected = [bin(int(w)).count("1") for w in words]
    assert base.popcount(words, np).tolist() == expected

    class NoBitwiseCount:  # the shifts-and-masks path CuPy versions without it take
        def __getattr__(self, name):
            if name == "bitwise_count":
                raise AttributeError(name)
            return getattr(np, name)

    assert base.popcount(words, NoBitwiseCount()).tolist() == expected


@pytest.mark.parametrize("name", ["csr", "fl", "ef", "cgr"])
def test_intact_graph_passes_in_many_windows(monkeypatch, name):
    force(monkeypatch, *SMALL[name])
    encode(name).validate()


def rank_in_list(v):
    lo = np.searchsorted(SRC, v)
    return lo, int(np.searchsorted(SRC, v, side="right") - lo)


def swapped(v):
    """The edges with the first two neighbours of list ``v`` swapped (a list not increasing)."""
    lo, degree = rank_in_list(v)
    assert degree >= 2
    dst = DST.copy()
    dst[[lo, lo + 1]] = dst[[lo + 1, lo]]
    return dst


def csr_with(dst):
    layout = encode("csr")
    layout.arrays["indices"][:] = dst
    return layout


def fl_with(dst):
    layout = encode("fl")
    layout.arrays["indices"] = pack_fixed(dst, layout.index_width, np)
    return layout


def ef_with(dst):
    """An ef layout whose lists hold ``dst`` (coded by the list codec, which takes any sorted
    lists below 2**32: values past num_vertices reach validate)."""
    coded = EliasFanoLists.encode(SRC, dst, N, np)
    layout = encode("ef")
    layout.arrays.update(coded.arrays)
    return layout


def late_list(degree_at_least=2):
    return next(v for v in range(LATE, N) if rank_in_list(v)[1] >= degree_at_least)


def early_list(degree_at_least=2):
    return next(v for v in range(EARLY, N) if rank_in_list(v)[1] >= degree_at_least)


def check_same(monkeypatch, make, rule, vertex, layout="csr"):
    """The error with small windows is the whole-graph one, of ``rule``, naming ``vertex``."""
    with monkeypatch.context() as patch:
        force(patch, *SMALL[layout])
        windowed = error_of(make())
    with monkeypatch.context() as patch:
        whole(patch)
        reference = error_of(make())
    assert windowed == reference
    assert re.search(rf"invariant {rule} broken", windowed), windowed
    assert re.search(rf"\b{vertex}\b", windowed), windowed
    return windowed


def test_csr_late_list_not_increasing(monkeypatch):
    v = late_list()
    message = check_same(monkeypatch, lambda: csr_with(swapped(v)), "4", v)
    assert "position 1" in message


def test_csr_a_later_rule_elsewhere_does_not_hide_the_first_rule(monkeypatch):
    v, w = early_list(), late_list()
    dst = swapped(v)
    dst[rank_in_list(w)[0]] = N  # an id out of range, in a later window: rule 3 comes first
    check_same(monkeypatch, lambda: csr_with(dst), "3", N)


def test_fl_late_list(monkeypatch):
    v = late_list()
    message = check_same(monkeypatch, lambda: fl_with(swapped(v)), "5", v)
    assert "position 1" in message


def test_fl_out_of_range_after_an_unsorted_list(monkeypatch):
    v, w = early_list(), late_list()
    dst = swapped(v)
    lo, degree = rank_in_list(w)
    dst[lo + degree - 1] = N + 5  # the last of its list: sorted, but not below num_vertices
    check_same(monkeypatch, lambda: fl_with(dst), "4", w)


def test_ef_late_value_out_of_range(monkeypatch):
    w = late_list(1)
    lo, degree = rank_in_list(w)
    dst = DST.copy()
    dst[lo + degree - 1] = N + 7
    message = check_same(monkeypatch, lambda: ef_with(dst), "9", w)
    assert f"value {N + 7}" in message


def test_ef_late_upper_bit(monkeypatch):
    w = late_list(3)

    def make():
        layout = encode("ef")
        info = layout.lists()._lists([w])
        up = int(info["up"][0])
        layout.arrays["data"][up >> 5] ^= np.uint32(1 << (up & 31))  # one more or one less one
        return layout

    check_same(monkeypatch, make, "5", w)


def test_ef_a_later_window_breaks_an_earlier_rule(monkeypatch):
    """List EARLY breaks 9 (a value too large), a late list breaks 5: 5 is reported."""
    v, w = early_list(1), late_list(3)

    def make():
        lo, degree = rank_in_list(v)
        dst = DST.copy()
        dst[lo + degree - 1] = N + 1
        layout = ef_with(dst)
        info = layout.lists()._lists([w])
        up = int(info["up"][0])
        layout.arrays["data"][up >> 5] ^= np.uint32(1 << (up & 31))
        return layout

    check_same(monkeypatch, make, "5", w)


def test_ef_late_record(monkeypatch):
    """A value offset decreasing late in the records: invariant 3 at that entry."""
    w = late_list(2)

    def make():
        layout = encode("ef")
        blocks = layout.arrays["blocks"]
        blocks[w // layout.params["block_size"], 0] += 10**6  # row w's entries all past the next
        return layout

    check_same(monkeypatch, make, "3", (w // 64 + 1) * 64 - 1)


def test_cgr_late_stream_bit(monkeypatch):
    w = late_list(4)

    def make():
        layout = encode("cgr")
        bit = int(layout.arrays["bit_offsets"][w]) + 1  # inside the header of list w
        layout.arrays["stream"][bit >> 5] ^= np.uint32(1 << (bit & 31))
        return layout

    check_same(monkeypatch, make, r"\d", w, "cgr")


def test_cgr_late_non_canonical_list(monkeypatch):
    """A late list coded with its interval split in two residual runs re-encodes differently."""
    w = next(v for v in range(LATE, N) if v % 50 == 7)
    cgr = layout_class("cgr")

    def make():
        layout = encode("cgr")  # the runs of 12 ids as intervals
        other = cgr.encode(SRC, DST, N, np, min_interval_length=20)  # no intervals at all
        if other.nbytes == layout.nbytes:
            pytest.skip("the two codings are the same size")
        return _graft(layout, other, w)

    check_same(monkeypatch, make, r"\d", w, "cgr")


def _graft(layout, other, w):
    """``layout`` whose stream holds ``other``'s coding of list ``w`` where it fits: the list's
    bits from ``other`` copied over (so list ``w`` is broken, the others are intact)."""
    from cugraph_compressed.formats.bits import read_fields

    a0, a1 = (int(x) for x in layout.arrays["bit_offsets"][w:w + 2])
    b0 = int(other.arrays["bit_offsets"][w])
    width = a1 - a0
    stream = layout.arrays["stream"]
    for i in range(0, width, 32):
        take = min(32, width - i)
        bits = int(read_fields(other.arrays["stream"], [b0 + i], [take])[0])
        for j in range(take):
            p = a0 + i + j
            word, mask = p >> 5, np.uint32(1 << (p & 31))
            stream[word] = (stream[word] | mask) if bits >> j & 1 else (stream[word] & ~mask)
    return layout


def test_window_temporaries_are_bounded(monkeypatch):
    """With windows of 2**12 entries, the host peak of validate() over a graph of ~45,000
    edges stays within the bytes per entry each layout's docstring states, far below the
    whole-graph arrays the windows replace."""
    monkeypatch.setattr(base, "HOST_VALIDATE_WINDOW", 1 << 12)
    monkeypatch.setattr(base, "HOST_VALIDATE_WINDOW_LISTS", 1 << 10)
    bound = {"csr": 16, "fl": 64, "ef": 160, "cgr": 640}
    for name, per_entry in bound.items():
        layout = encode(name)
        tracemalloc.start()
        layout.validate()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak <= per_entry * (1 << 12) + 4096, (name, peak)
