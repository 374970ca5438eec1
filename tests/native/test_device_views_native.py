"""Every layout's device view (formats/*.cuh), compiled as C++ for the CPU under AddressSanitizer
and UBSan, decodes exactly what the host decoder does: degrees, property slots and neighbours,
for items of every size the traversal core may give it, with no read past a buffer.  The checked
build (-DCGC_CHECKED, kernels/common.cuh) decodes valid layouts the same with no fault, and
corrupted ones without a read past a buffer or an endless loop, reporting the corruption.

The GPU tests run the same views inside the real kernels; this runs them everywhere CI does.
"""
import functools
import re
import struct
import subprocess
from pathlib import Path

import native_build
import numpy as np
import pandas as pd
import pytest
from graphs import random_edges
from scipy import sparse

import cugraph_compressed as cgc
from cugraph_compressed._split import SplitArray
from cugraph_compressed.algorithms.pagerank import ITEM_RANKS
from cugraph_compressed.formats import FORMATS
from cugraph_compressed.generators import rmat_edgelist
from cugraph_compressed.kernels import CHECKED
from cugraph_compressed.kernels.traversal import (
    HOST_READS,
    layout_item_size,
    warp_item_size,
    warp_list_cut,
)

NATIVE = Path(__file__).resolve().parent
VIEW_TYPES = [t for cls in FORMATS.values() for t in cls.device_view_types()]
#: Parameters that make decoding start mid-list often or read unaligned and wide fields.
PARAMS = {"csr": [{}, {"force_64bit": True}],
          "ef": [{}, {"k": 1, "block_size": 1}, {"k": 3, "block_size": 2},
                 {"k": 16, "block_size": 1024}],
          "cgr": [{}, {"code": "gamma", "segment_size": 4, "min_interval_length": 2},
                  {"zeta_k": 12, "segment_size": 3}, {"zeta_k": 16, "segment_size": 1}],
          "fl": [{}, {"index_width": 21, "offset_width": 27},
                 {"index_width": 40, "offset_width": 33}, {"align_slack": 0}]}
CASES = [(fmt, p) for fmt in sorted(FORMATS) for p in PARAMS[fmt]]


#: The driver's builds: the views as the GPU kernels use them, the checked build
#: (-DCGC_CHECKED: bounded reads, faults recorded) and the host-reads build (-DCGC_HOST_READS).
BUILDS = {"plain": (), "checked": (CHECKED,), "host_reads": (HOST_READS,)}


def _compile(defines, exe):
    generated = exe.with_name(exe.name + "_include")  # its own: drivers compile at once
    generated.mkdir(exist_ok=True)
    (generated / "view_types.h").write_text(
        "template <class F> void for_view(int64_t view, F&& f) {\n"
        + "".join(f"  if (view == {i}) f(({t}*)nullptr);\n" for i, t in enumerate(VIEW_TYPES))
        + "}\n")
    options = [f"-D{d}" for d in defines]
    if CHECKED in defines:
        # Decoding garbage overflows integers: GPU arithmetic wraps, and what the checked build
        # promises is bounded reads and loops, so wrap here too instead of stopping.
        options += ["-fwrapv", "-fno-sanitize=signed-integer-overflow"]
    native_build.compile_driver(NATIVE / "view_driver.cpp", exe, [generated], options)


def _builds_used(session):
    """The builds the session's tests of this module take (their fixtures and parameters)."""
    used = set()
    for item in session.items:
        if getattr(item, "module", None) is None or item.module.__name__ != __name__:
            continue
        params = getattr(item, "callspec", None)
        params = params.params if params else {}
        used.update(b for b in BUILDS if f"{b}_driver" in item.fixturenames
                    or b in (params.get("driver"), params.get("build")))
    return used


def _driver(request, tmp_path_factory, build):
    """The driver of ``build``, compiled once per session (tests/native/native_build.py)."""
    folder = native_build.session_folder(tmp_path_factory, "view_drivers")
    wanted = {build} | _builds_used(request.session)
    builds = {f"view_driver_{b}": functools.partial(_compile, BUILDS[b]) for b in BUILDS
              if b in wanted}
    return native_build.build_once(folder, builds, f"view_driver_{build}")


@pytest.fixture(scope="module")
def plain_driver(request, tmp_path_factory):
    return _driver(request, tmp_path_factory, "plain")


@pytest.fixture(scope="module")
def checked_driver(request, tmp_path_factory):
    return _driver(request, tmp_path_factory, "checked")


@pytest.fixture(scope="module", params=["plain", "checked"])
def driver(request):
    """The view driver, unchecked and checked: both decode valid layouts the same."""
    return request.getfixturevalue(f"{request.param}_driver")


def test_shim_warp_collectives(plain_driver):
    """The shim's shuffles, scans and ballots give every lane of every warp what a GPU does."""
    done = subprocess.run([str(plain_driver)], input=struct.pack("<q", -1), capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    assert done.stdout.decode().strip() == "0"


def test_shim_stops_a_block_whose_lane_misses_a_collective(plain_driver):
    """A lane that skips a __syncwarp leaves its warp's other lanes waiting: the driver aborts,
    naming one of them, instead of passing or hanging."""
    done = subprocess.run([str(plain_driver)], input=struct.pack("<q", -2), capture_output=True,
                          timeout=60)
    found = re.search(rb"lane (\d+) waits at its warp's collective", done.stderr)
    assert done.returncode != 0 and found, done.stderr.decode(errors="replace")[-3000:]
    assert int(found.group(1)) in set(range(32, 64)) - {37}  # lane 37's warp, not lane 37


class _Buffers:
    """The address function for ``Layout.view_words``: numbers each buffer it is handed."""

    def __init__(self):
        self.arrays = []

    def __call__(self, array):
        self.arrays.append(np.ascontiguousarray(array))
        return _Ref(len(self.arrays) - 1)


class _Ref(int):
    pass


THREAD, TRAVERSE, WARP, PULL, PUSH, WINDOW = 0, 1, 2, 3, 4, 5  # the driver's modes
NEVER = 2**62  # a warp degree no list reaches


def _call(exe, layout, mode, item_size, warp_item_size, warp_degree, every, vertices,
          corrupt=None):
    """The driver's int64 output for one request (its stdin format: view_driver.cpp), less the
    fault words of a checked driver, which must be zero; with ``corrupt``, which changes the
    layout's buffers first (``corrupt(arrays)``), (output, fault kinds) instead."""
    buffers = _Buffers()
    words = layout.device_words(buffers)
    if corrupt is not None:
        buffers.arrays = [a.copy() for a in buffers.arrays]
        corrupt(buffers.arrays)
    out = [mode, VIEW_TYPES.index(layout.view_type()), len(buffers.arrays)]
    blob = bytearray(struct.pack("<3q", *out))
    for array in buffers.arrays:
        raw = array.tobytes()
        blob += struct.pack("<q", len(raw)) + raw + b"\0" * (-len(raw) % 8)
    blob += struct.pack("<q", len(words))
    for word in words:
        blob += struct.pack("<qQ", 1 if isinstance(word, _Ref) else 0, int(word) % 2**64)
    blob += struct.pack("<6q", layout.num_edges, item_size, warp_item_size, warp_degree, int(every),
                        vertices.size)
    blob += vertices.astype("<i8").tobytes()
    done = subprocess.run([str(exe)], input=bytes(blob), capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    out = np.frombuffer(done.stdout, dtype="<i8")
    if not _is_checked(exe):
        return out if corrupt is None else (out, 0)
    out, kinds = out[:-2], int(out[-2])
    if corrupt is not None:
        return out, kinds
    assert kinds == 0, f"faults {kinds:#x} on a valid layout, at vertex {out[-1]}"
    return out


def _is_checked(exe):
    return exe.name == "view_driver_checked"


def run_view(exe, layout, item_size, vertices=None, mode=THREAD, warp_item_size=32,
             warp_degree=NEVER):
    """(chunk_size, first_edge, degree, neighbour by slot, writes by slot) from the C++ view,
    decoding the lists of ``vertices`` (all when None) item by item in one thread (THREAD) or
    one warp (WARP, items of ``warp_item_size``), or through the traversal core as the GPU
    kernels do (TRAVERSE: lists of degree >= ``warp_degree`` in warp items)."""
    every = vertices is None
    vertices = np.arange(layout.num_vertices) if every else np.asarray(vertices)
    values = _call(exe, layout, mode, item_size, warp_item_size, warp_degree, every, vertices)
    c, m = vertices.size, layout.num_edges
    assert values.size == 1 + 2 * c + 2 * m
    return (values[0], values[1:1 + c], values[1 + c:1 + 2 * c], values[1 + 2 * c:1 + 2 * c + m],
            values[1 + 2 * c + m:])


def graphs():
    # The hub's list spans two items of every warp item size (3 * chunk + 13 <= 1549 ranks);
    # the few random edges scatter short lists with wide gaps over 25,000 ids.  Each list costs
    # a warp's collectives in the driver, so short lists stay few (rmat has plenty).
    hub = pd.DataFrame({"source": np.full(2000, 5, np.int64),
                        "destination": np.arange(2000) * 7 + 11})
    return {
        "rmat": rmat_edgelist(10, seed=4),
        "hub": pd.concat([hub, random_edges(25_000, 800, 5)],
                         ignore_index=True),  # long list, gaps
        "runs": pd.DataFrame({"source": np.repeat([0, 3, 9], 200),                      # intervals
                              "destination": np.r_[np.arange(200), np.arange(50, 250),
                                                   np.arange(200) * 2]}),
        "loops": pd.DataFrame({"source": [0, 1, 2, 2, 2], "destination": [0, 1, 2, 0, 2**20]}),
    }


GRAPHS = graphs()


def layout_of(fmt, params, graph, directed):
    return cgc.CompressedGraph(directed=directed, format=fmt, **params).from_pandas_edgelist(
        GRAPHS[graph], renumber=False)._layout


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("graph", sorted(GRAPHS))
@pytest.mark.parametrize("fmt, params", CASES, ids=[f"{f}-{p}" for f, p in CASES])
def test_view_decodes_like_the_host(driver, fmt, params, graph, directed):
    layout = layout_of(fmt, params, graph, directed)
    owner, neighbours, slots = layout.to_coo()
    degrees = np.asarray(layout.degrees())
    firsts = np.r_[0, np.cumsum(degrees)[:-1]]
    chunk = layout.device_chunk_size
    for item_size in sorted({chunk, 1, 7, 3 * chunk + 1}):
        got_chunk, first, degree, by_slot, writes = run_view(driver, layout, item_size)
        assert got_chunk == chunk
        assert np.array_equal(degree, degrees) and np.array_equal(first, firsts)
        assert np.array_equal(writes, np.ones(layout.num_edges, dtype=np.int64))  # every slot once
        assert np.array_equal(by_slot[slots], neighbours)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("graph", sorted(GRAPHS))
@pytest.mark.parametrize("fmt, params", CASES, ids=[f"{f}-{p}" for f, p in CASES])
def test_warp_view_decodes_like_the_host(driver, fmt, params, graph, directed):
    """warp_for_each, its 32 lanes running at once, decodes every list exactly as the host
    decoder, every slot by one lane: in warp items (what the traversal core gives it) and in
    items that start mid-list off every boundary (pointers, segments, words) and end short of
    a warp; most lists of these graphs are shorter than 32."""
    layout = layout_of(fmt, params, graph, directed)
    owner, neighbours, slots = layout.to_coo()
    chunk = layout.device_chunk_size
    for size in sorted({warp_item_size(layout), 3 * chunk + 13}):
        _, _, _, by_slot, writes = run_view(driver, layout, 1, mode=WARP, warp_item_size=size)
        assert np.array_equal(writes, np.ones(layout.num_edges, dtype=np.int64))
        assert np.array_equal(by_slot[slots], neighbours)


def test_empty_graph(driver):
    for fmt in sorted(FORMATS):
        G = cgc.CompressedGraph(directed=True, format=fmt).from_pandas_edgelist(
            pd.DataFrame({"source": [], "destination": []}, dtype=np.int64), renumber=False,
            vertices=pd.Series([0, 1, 2]))
        _, first, degree, by_slot, _ = run_view(driver, G._layout, 1)
        assert not degree.any() and not first.any() and by_slot.size == 0


TRAVERSAL_CASES = [(fmt, p) for fmt in sorted(FORMATS) for p in PARAMS[fmt][:2]]


#: Where lists go: all to threads, split by degree (hub's long list to warps), all to warps
#: (most of rmat's lists are shorter than a warp; hub's many short lists only add time), or
#: from CUT ranks on (ef's default cut, most such lists one partial warp item): rmat's tiles
#: of warp items then span 100 to 200 members, most without items, which each warp's owner
#: search crosses in ballot rounds; where a tile spans more than BLOCK members ("split") the
#: block's search for the tile's last member goes past its first BLOCK.
SPLITS = [("rmat", "threads"), ("rmat", "split"), ("rmat", "warps"), ("rmat", "cut"),
          ("hub", "threads"), ("hub", "split")]
CUT = 32


def warp_degree_of(lists, warp_items):
    """The degree from which the driver sends lists to warps, for a SPLITS entry."""
    return {"threads": NEVER, "split": warp_items, "warps": 0, "cut": CUT}[lists]


#: The traversal core through the unchecked driver on every split, and through the checked one
#: (its list_degree and neighbour checks, the same item loops) where lists go both ways.
CORE_CASES = [(g, s, "plain") for g, s in SPLITS] + [(g, s, "checked") for g, s in SPLITS
                                                      if s in ("split", "cut")]


@pytest.mark.parametrize("graph, lists, build", CORE_CASES,
                         ids=[f"{g}-{s}-{b}" for g, s, b in CORE_CASES])
@pytest.mark.parametrize("fmt, params", TRAVERSAL_CASES,
                         ids=[f"{f}-{p}" for f, p in TRAVERSAL_CASES])
def test_traversal_core_visits_every_edge_once(request, fmt, params, graph, lists, build):
    """count_items, the prefix sum, for_each_item (BLOCK threads per tile, shared memory and
    barriers) and for_each_warp_item (BLOCK / 32 warps per tile) hand out every rank of every
    list in the vertex set exactly once: over all vertices, and over a frontier (a subset in
    scrambled order, so tiles span vertices without items and the owner search leaves shared
    memory).  Lists go to threads, to warps, or split by degree as BFS does (lists of at least
    a warp item, or of at least CUT ranks, to warps)."""
    driver = request.getfixturevalue(f"{build}_driver")
    layout = layout_of(fmt, params, graph, False)
    _, neighbours, slots = layout.to_coo()
    owner_of_slot = np.repeat(np.arange(layout.num_vertices), np.asarray(layout.degrees()))
    rng = np.random.default_rng(7)
    frontier = rng.permutation(layout.num_vertices)[: layout.num_vertices // 3]
    chunk, warp_items = layout.device_chunk_size, warp_item_size(layout)
    warp_degree = warp_degree_of(lists, warp_items)
    item_sizes = {chunk, 3 * chunk + 1} if lists == "threads" else {chunk}
    for vertices in (None, frontier):
        for item_size in sorted(item_sizes):
            _, _, _, by_slot, writes = run_view(driver, layout, item_size, vertices, TRAVERSE,
                                                warp_items, warp_degree)
            inside = (np.ones(layout.num_edges, bool) if vertices is None
                      else np.isin(owner_of_slot, vertices))
            assert np.array_equal(writes, inside.astype(np.int64))
            assert np.array_equal(by_slot[slots][inside[slots]], neighbours[inside[slots]])


@pytest.mark.parametrize("graph, lists", SPLITS, ids=[f"{g}-{s}" for g, s in SPLITS])
@pytest.mark.parametrize("fmt, params", TRAVERSAL_CASES,
                         ids=[f"{f}-{p}" for f, p in TRAVERSAL_CASES])
def test_pagerank_product_through_threads_and_warps(plain_driver, fmt, params, graph, lists):
    """PageRank's own kernels (pagerank_spmv, per thread and per warp) compute its weighted product
    exactly, pulling and pushing, with lists split between them as pagerank.py splits them:
    a pulled warp item's lane sums meet in warp_sum and one store or atomic from lane 0, next
    to the per-thread items' plain stores and atomics.  Scores and weights are small integers,
    so the float64 sums are exact in any order."""
    layout = layout_of(fmt, params, graph, True)
    owner, neighbours, slots = layout.to_coo()
    n = layout.num_vertices
    scaled = np.arange(n) % 11 + 1
    share = slots % 5 + 1
    warp_items = warp_item_size(layout)
    warp_degree = warp_degree_of(lists, warp_items)
    item_size = layout_item_size(layout, ITEM_RANKS)
    for mode, to, frm in ((PULL, owner, neighbours), (PUSH, neighbours, owner)):
        got = _call(plain_driver, layout, mode, item_size, warp_items, warp_degree, True,
                    np.arange(n))
        want = np.bincount(to, weights=scaled[frm] * share, minlength=n).astype(np.int64)
        assert np.array_equal(got, want)


PAGERANK = 9  # the driver's PageRank mode


def reference_pagerank(n, sources, targets, weights, alpha, tol, max_iter, teleport):
    """cuGraph's iteration in float64 with SciPy: from 1 / n, dangling mass spread by the
    teleport vector, stopping when the L1 change is below ``tol``; (scores, iterations)."""
    out_weight = np.bincount(sources, weights=weights, minlength=n)
    dangling = out_weight == 0
    matrix = sparse.csr_matrix((weights, (targets, sources)), shape=(n, n))
    scores = np.full(n, 1.0 / n)
    for iteration in range(1, max_iter + 1):
        shares = np.where(dangling, 0.0, scores / np.where(dangling, 1.0, out_weight))
        spread = alpha * scores[dangling].sum() + (1.0 - alpha)
        fresh = alpha * (matrix @ shares) + spread * teleport
        change = np.abs(fresh - scores).sum()
        scores = fresh
        if change < tol:
            break
    return scores, iteration


@pytest.mark.parametrize("personalized", [False, True], ids=["uniform", "personalized"])
@pytest.mark.parametrize("wide", [True, False], ids=["float64-shares", "float32-shares"])
@pytest.mark.parametrize("graph", ["rmat", "hub"])
@pytest.mark.parametrize("fmt", ["csr", "ef"])
def test_pagerank_iteration_through_its_kernels(plain_driver, fmt, graph, wide, personalized):
    """PageRank's kernels (pagerank_spmv, long lists through warps, pagerank_update on a grid
    whose vertex loop wraps, and pagerank_scores), driven as pagerank.py drives them, pulling
    and pushing, weighted, with dangling vertices: with float64 shares the scores and the
    iteration count are SciPy's float64 iteration's; with float32 shares (cuGraph's precision)
    the scores lie within the tolerance and the count within one.  The update never stores a
    score: it makes the last one again from the last product (the start scores, for the first
    iteration), so a wrong step or swap shows in the change and here; started at the answer,
    the first iteration stops."""
    layout = layout_of(fmt, {}, graph, True)
    owner, neighbours, slots = layout.to_coo()
    n, warp_items = layout.num_vertices, warp_item_size(layout)
    weights = (slots % 5 + 1).astype(np.float64)
    teleport = np.full(n, 1.0 / n)
    if personalized:
        teleport = np.random.default_rng(11).random(n) * (np.arange(n) % 3 == 0)
        teleport /= teleport.sum()
    # float32 shares only where pagerank.py would pick them: tol at least float32's epsilon.
    alpha, tol, max_iter = 0.85, 1e-9 if wide else 1e-6, 200
    for pull, sources, targets in ((1, neighbours, owner), (0, owner, neighbours)):
        want, count = reference_pagerank(n, sources, targets, weights, alpha, tol, max_iter,
                                         teleport)
        def run(start):
            head = [n, pull, int(wide), max_iter, *np.array([alpha, tol]).view(np.int64),
                    int(personalized), int(start is not None)]
            vertices = np.r_[head, teleport.view(np.int64) if personalized else [],
                             [] if start is None else start.view(np.int64)].astype(np.int64)
            out = _call(plain_driver, layout, PAGERANK, layout_item_size(layout, ITEM_RANKS),
                        warp_items, warp_degree_of("split", warp_items), True, vertices)
            return int(out[0]), out[1:].view(np.float64)

        iterations, got = run(None)
        assert count < max_iter
        if wide:
            assert iterations == count, (pull, iterations, count)
            assert np.allclose(got, want, rtol=1e-12, atol=1e-15), pull
        else:
            assert abs(iterations - count) <= 1, (pull, iterations, count)
            assert np.abs(got - want).sum() < 1e-6, pull
        again, moved = run(got)
        assert again == 1 and np.abs(moved - got).sum() < tol, (pull, again)


@pytest.mark.parametrize("graph", ["hub", "runs"])
@pytest.mark.parametrize("fmt, params", TRAVERSAL_CASES,
                         ids=[f"{f}-{p}" for f, p in TRAVERSAL_CASES])
def test_slot_windows_decode_like_the_host(driver, fmt, params, graph):
    """decode_slots (kernels/traverse.cu), which decodes a re-orientation's pieces on the GPU,
    writes exactly the neighbours of its window of property slots over the lists holding it, as
    SlotDecoder launches it: items that start before the window or end after it (a list cut at
    one end or both, mid-item) decode only what lies inside, and nothing is written outside
    (AddressSanitizer: the window is an allocation of its own size)."""
    layout = layout_of(fmt, params, graph, True)
    m = layout.num_edges
    _, neighbour = layout.decode_slots(0, m)  # the host decoders (tests/formats)
    ends = np.cumsum(np.asarray(layout.degrees()))
    longest = int(np.argmax(np.asarray(layout.degrees())))
    inside = int(ends[longest - 1]) if longest else 0  # the longest list, cut at both ends
    windows = [(0, m), (0, 1), (m - 1, m), (inside + 37, inside + 180)]
    windows += [(b, min(b + 333, m)) for b in np.random.default_rng(3).integers(0, m, 2).tolist()]
    for begin, end in windows:
        u0, u1 = np.searchsorted(ends, [begin, end - 1], side="right")
        got = _call(driver, layout, WINDOW, layout_item_size(layout), begin, end, False,
                    np.arange(u0, u1 + 1))
        assert np.array_equal(got, neighbour[begin:end]), (begin, end)


def corruption(seed, count=64):
    """``corrupt(arrays)`` changing ``count`` random bytes of the largest buffer."""
    def corrupt(arrays):
        largest = max(arrays, key=lambda a: a.nbytes)
        raw = largest.view(np.uint8).reshape(-1)
        rng = np.random.default_rng(seed)
        at = rng.choice(raw.size, size=min(count, raw.size), replace=False)
        raw[at] ^= rng.integers(1, 256, size=at.size, dtype=np.uint8)  # every byte changes
    return corrupt


SEEDS = range(8)
CORRUPTED_CASES = [(fmt, p) for fmt in sorted(FORMATS) for p in PARAMS[fmt][:2]]


@pytest.mark.parametrize("fmt, params", CORRUPTED_CASES,
                         ids=[f"{f}-{p}" for f, p in CORRUPTED_CASES])
def test_checked_views_report_corrupted_buffers(checked_driver, fmt, params):
    """64 random bytes changed in a layout's largest buffer, validate() not run: the checked
    views decode every list (per thread, per warp, through the core) with no read past a buffer
    (AddressSanitizer) and no endless loop (the timeout), and either report a fault or decode
    exactly the uncorrupted lists (a change in padding or unused bits).  Most seeds fault."""
    layout = layout_of(fmt, params, "rmat", False)
    chunk = layout.device_chunk_size
    faulted = 0
    every = np.arange(layout.num_vertices)
    for mode, item_size in ((THREAD, chunk), (WARP, 1), (TRAVERSE, chunk)):
        args = (layout, mode, item_size, warp_item_size(layout), 0, True, every)
        clean = _call(checked_driver, *args)
        for seed in SEEDS:
            out, kinds = _call(checked_driver, *args, corrupt=corruption(seed))
            assert kinds or np.array_equal(out, clean), (seed, mode)
            faulted += bool(kinds)
    assert faulted >= 2 * len(SEEDS), faulted


EARLY, BFS = 6, 7  # the driver's early-exit and BFS modes


def _slot_order(layout):
    """Every list's neighbours in property-slot order (rank r of v at slot first_edge(v) + r)
    and each list's first slot, from the host decoder."""
    _, neighbours, slots = layout.to_coo()
    by_slot = np.empty(layout.num_edges, dtype=np.int64)
    by_slot[slots] = neighbours
    degrees = np.asarray(layout.degrees(), dtype=np.int64)
    return by_slot, np.r_[0, np.cumsum(degrees)[:-1]], degrees


@pytest.mark.parametrize("graph", ["rmat", "runs"])
@pytest.mark.parametrize("fmt, params", TRAVERSAL_CASES,
                         ids=[f"{f}-{p}" for f, p in TRAVERSAL_CASES])
def test_early_exit_stops_at_the_first_wanted_neighbour(plain_driver, fmt, params, graph):
    """for_each with a callback that returns bool (bottom-up BFS's parent search) stops right
    after the first neighbour the callback wants, in items that start mid-list (pointers,
    segments, intervals), and hands out every rank of the item when none is wanted."""
    layout = layout_of(fmt, params, graph, False)
    by_slot, firsts, degrees = _slot_order(layout)
    chunk = layout.device_chunk_size
    vertices = np.arange(layout.num_vertices)
    for item_size in sorted({chunk, 3 * chunk + 1, max(1, int(degrees.max()))}):
        for modulus, residue in ((1, 0), (7, 3), (2**40, -1)):  # first rank, some, none
            got = _call(plain_driver, layout, EARLY, item_size, modulus, residue, False,
                        vertices)
            want = []
            for v in vertices:
                for begin in range(0, degrees[v], item_size):
                    end = min(begin + item_size, degrees[v])
                    values = by_slot[firsts[v] + begin:firsts[v] + end]
                    hits = np.flatnonzero(values % modulus == residue)
                    want += ([firsts[v] + begin + hits[0], hits[0] + 1] if hits.size
                             else [-1, end - begin])
            assert np.array_equal(got, np.asarray(want, dtype=np.int64))


#: The compressed layouts whose list decoders restart mid-list bottom-up from the first level,
#: CSR with the default switch (the driver runs blocks as CPU threads: each case takes seconds),
#: and ef's default stride top-down with the drivers' default cut (warp_list_cut: lists of 32
#: ranks or more to warps, each shorter than its one warp item of 512 ranks).
BFS_CASES = [("cgr", PARAMS["cgr"][1], "bottom-up"), ("ef", PARAMS["ef"][1], "bottom-up"),
             ("csr", {}, "beamer"), ("ef", {}, "top-down")]
BFS_GRAPH = rmat_edgelist(8, seed=3)


@pytest.mark.parametrize("fmt, params, rule", BFS_CASES,
                         ids=[f"{f}-{p}-{r}" for f, p, r in BFS_CASES])
def test_bfs_kernels_match_scipy(plain_driver, fmt, params, rule):
    """BFS's own kernels, driven level by level as bfs.py drives them (device-sized item scans
    on grids of 3 blocks, tiles on 2, Beamer's switch on the device), give scipy's hop
    distances from two sources on an undirected R-MAT graph (scale 8), and a predecessor one
    level up along an edge for every reached vertex: with the default switch constants, and
    bottom-up from the first level on (each unvisited vertex's parent search stops at the first
    neighbour in the frontier)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    layout = cgc.CompressedGraph(directed=False, format=fmt, **params).from_pandas_edgelist(
        BFS_GRAPH, renumber=False)._layout
    n = layout.num_vertices
    owner, neighbours, _ = layout.to_coo()
    sources = np.array([0, n // 2])
    matrix = csr_matrix((np.ones(owner.size), (owner, neighbours)), shape=(n, n))
    hops = shortest_path(matrix, unweighted=True, indices=sources).min(axis=0)
    warp_items = layout_item_size(layout, 32, 32)
    cut = warp_list_cut(layout) if rule == "top-down" else warp_items
    code = {"top-down": 0, "beamer": 1, "bottom-up": 2}[rule]
    out = _call(plain_driver, layout, BFS, layout_item_size(layout), warp_items, cut, code,
                np.r_[n, sources])
    dist, pred, bottom_up_levels = out[:n], out[n:2 * n], out[-1]
    reached = np.isfinite(hops)
    assert np.array_equal(dist[reached], hops[reached].astype(np.int64))
    assert (dist[~reached] == np.iinfo(np.int64).max).all() and (pred[~reached] == -1).all()
    inner = reached & (dist > 0)
    assert (pred[dist == 0] == -1).all()
    assert np.array_equal(dist[pred[inner]], dist[inner] - 1)
    edges = set(zip(owner.tolist(), neighbours.tolist()))
    assert all((int(p), int(v)) in edges for p, v in zip(pred[inner], np.flatnonzero(inner)))
    assert (bottom_up_levels == 0) if rule == "top-down" else (bottom_up_levels > 0)


VIRTUAL = 8  # the driver's mode: transforms/virtual_parts.cuh's for_each_part


@pytest.mark.parametrize("graph", ["hub", "loops"])
@pytest.mark.parametrize("fmt, params", CASES, ids=[f"{f}-{p}" for f, p in CASES])
def test_virtual_parts_follow_the_definition(driver, fmt, params, graph):
    """The virtual split's passes hand out every rank of every list once, part j of a family
    of n taking ranks j, j + n, ... (strided: csr, fl, ef, from any rank, through the forward
    pointers on ef) or the run j * S .. j * S + S - 1 (contiguous), each part in rank order."""
    from cugraph_compressed.transforms.virtual import Parts

    layout = layout_of(fmt, params, graph, True)
    by_slot, firsts, degrees = _slot_order(layout)
    vertices = np.arange(layout.num_vertices)
    owner = np.repeat(vertices, degrees)
    rank = np.arange(layout.num_edges) - firsts[owner]
    c, m = vertices.size, layout.num_edges
    for part_size in (1, 3, 8, int(degrees.max()) + 1):
        for coalesce in (True, False):
            parts = Parts.of(layout, part_size, coalesce)
            values = _call(driver, layout, VIRTUAL, parts.size, 32, NEVER, coalesce, vertices)
            assert values.size == 1 + 2 * c + 4 * m
            assert np.array_equal(values[1:1 + c], firsts)
            assert np.array_equal(values[1 + c:1 + 2 * c], degrees)
            neighbours, writes, steps, leaders = values[1 + 2 * c:].reshape(4, m)
            assert np.array_equal(writes, np.ones(m, dtype=np.int64))
            assert np.array_equal(neighbours, by_slot)
            part, step = parts.part_and_step(rank, degrees[owner])
            assert np.array_equal(steps, step)
            assert np.array_equal(leaders - firsts[owner],
                                  part if parts.strided else part * parts.size)


@pytest.fixture(scope="module")
def host_reads_driver(request, tmp_path_factory):
    """The views and the core as a host-placed graph's kernels run them (kernels/traverse.cuh:
    one-rank items in aligned groups of 32 slots, warps from aligned groups, Elias-Fano's
    windows from whole lines)."""
    return _driver(request, tmp_path_factory, "host_reads")


#: Host reads change the schedule of csr and fl (the random-access views: 32-bit ids, and
#: fields of an odd width) and ef's warp windows (the default k).  The CPU shim runs a block
#: as 256 threads: the cases are few, hub's long list (warp items that start mid-list, off the
#: aligned group) on csr only.
HOST_READS_CASES = [("csr", {}, "rmat", "split"), ("csr", {}, "rmat", "warps"),
                    ("csr", {}, "hub", "split"), ("fl", PARAMS["fl"][1], "rmat", "split"),
                    ("fl", PARAMS["fl"][1], "rmat", "warps"), ("ef", {}, "rmat", "split"),
                    ("ef", {}, "rmat", "warps")]


@pytest.mark.parametrize("fmt, params, graph, lists", HOST_READS_CASES,
                         ids=[f"{f}-{p}-{g}-{s}" for f, p, g, s in HOST_READS_CASES])
def test_host_reads_visit_every_edge_once(host_reads_driver, fmt, params, graph, lists):
    """The host-reads schedule hands out every rank of every list in the vertex set exactly
    once, through threads (padded aligned groups), warps (started at the aligned group, the
    ranks before the item dropped) or both, over all vertices and over a scrambled frontier;
    ef's warp decoder, its windows from whole lines, started mid-list decodes like the host."""
    layout = layout_of(fmt, params, graph, False)
    _, neighbours, slots = layout.to_coo()
    owner_of_slot = np.repeat(np.arange(layout.num_vertices), np.asarray(layout.degrees()))
    frontier = np.random.default_rng(7).permutation(layout.num_vertices)[
        : layout.num_vertices // 3]
    chunk, warp_items = layout.device_chunk_size, warp_item_size(layout)
    warp_degree = warp_degree_of(lists, warp_items)
    for vertices in (None, frontier):
        _, _, _, by_slot, writes = run_view(host_reads_driver, layout, chunk, vertices,
                                            TRAVERSE, warp_items, warp_degree)
        inside = (np.ones(layout.num_edges, bool) if vertices is None
                  else np.isin(owner_of_slot, vertices))
        assert np.array_equal(writes, inside.astype(np.int64))
        assert np.array_equal(by_slot[slots][inside[slots]], neighbours[inside[slots]])
    if fmt != "ef":
        return
    for size in sorted({warp_items, 3 * chunk + 13}):  # ef's line-aligned windows, mid-list
        _, _, _, by_slot, writes = run_view(host_reads_driver, layout, 1, mode=WARP,
                                            warp_item_size=size)
        assert np.array_equal(writes, np.ones(layout.num_edges, dtype=np.int64))
        assert np.array_equal(by_slot[slots], neighbours)


@pytest.mark.parametrize("fmt, params", [("csr", {}), ("ef", {})], ids=["csr", "ef"])
def test_host_reads_pagerank_product_and_slot_windows(host_reads_driver, fmt, params):
    """PageRank's product (pull and push, lists split between threads and warps) and the slot
    windows come out exact from the host-reads build too."""
    layout = layout_of(fmt, params, "rmat", True)
    owner, neighbours, slots = layout.to_coo()
    n = layout.num_vertices
    scaled, share = np.arange(n) % 11 + 1, slots % 5 + 1
    warp_items = warp_item_size(layout)
    for warp_degree in (warp_items, 32):
        for mode, to, frm in ((PULL, owner, neighbours), (PUSH, neighbours, owner)):
            got = _call(host_reads_driver, layout, mode, layout_item_size(layout, ITEM_RANKS),
                        warp_items, warp_degree, True, np.arange(n))
            want = np.bincount(to, weights=scaled[frm] * share, minlength=n).astype(np.int64)
            assert np.array_equal(got, want)
    m = layout.num_edges
    _, neighbour = layout.decode_slots(0, m)
    ends = np.cumsum(np.asarray(layout.degrees()))
    for begin, end in ((0, m), (m // 3, m // 3 + 333)):
        u0, u1 = np.searchsorted(ends, [begin, end - 1], side="right")
        got = _call(host_reads_driver, layout, WINDOW, layout_item_size(layout), begin, end,
                    False, np.arange(u0, u1 + 1))
        assert np.array_equal(got, neighbour[begin:end])


@pytest.mark.parametrize("fmt, params", [("csr", {}), ("ef", PARAMS["ef"][1])],
                         ids=["csr", "ef"])
def test_host_reads_bfs_kernels_match_scipy(host_reads_driver, fmt, params):
    """BFS's kernels from the host-reads build: scipy's hop distances and valid predecessors,
    top-down and bottom-up (Beamer's switch)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    layout = cgc.CompressedGraph(directed=False, format=fmt, **params).from_pandas_edgelist(
        BFS_GRAPH, renumber=False)._layout
    n = layout.num_vertices
    owner, neighbours, _ = layout.to_coo()
    sources = np.array([0, n // 2])
    matrix = csr_matrix((np.ones(owner.size), (owner, neighbours)), shape=(n, n))
    hops = shortest_path(matrix, unweighted=True, indices=sources).min(axis=0)
    warp_items = layout_item_size(layout, 32, 32)
    out = _call(host_reads_driver, layout, BFS, layout_item_size(layout), warp_items, 32, 1,
                np.r_[n, sources])
    dist, pred = out[:n], out[n:2 * n]
    reached = np.isfinite(hops)
    assert np.array_equal(dist[reached], hops[reached].astype(np.int64))
    inner = reached & (dist > 0)
    assert np.array_equal(dist[pred[inner]], dist[inner] - 1)
    edges = set(zip(owner.tolist(), neighbours.tolist()))
    assert all((int(p), int(v)) in edges for p, v in zip(pred[inner], np.flatnonzero(inner)))


def split_layout(layout, vertex):
    """``layout`` with its per-edge buffers split at ``vertex`` as ``placement="auto"`` splits
    them (:mod:`cugraph_compressed._split`): each part an allocation of its own in the driver,
    so AddressSanitizer reports a read of either part past its end."""
    arrays = dict(layout.arrays)
    for name, starts in layout.edge_starts(np.asarray([vertex])).items():
        cut, whole = int(starts[0]), layout.arrays[name]
        arrays[name] = SplitArray(whole[:cut].copy(), whole[cut:].copy(), cut)
    return layout.with_arrays(arrays)


@pytest.mark.parametrize("fmt, params", TRAVERSAL_CASES,
                         ids=[f"{f}-{p}" for f, p in TRAVERSAL_CASES])
def test_split_views_decode_like_the_host(driver, fmt, params):
    """A layout whose per-edge buffers are split at a vertex (device part, host part: two
    allocations) decodes exactly as the whole layout, per warp and through the traversal core
    (threads and warps), at splits after the first list, after the longest and at two
    consecutive vertices, where the bit-packed layouts cut inside words that the list before
    and the list after share (read whole from the host part)."""
    layout = layout_of(fmt, params, "rmat", False)
    n = layout.num_vertices
    _, neighbours, slots = layout.to_coo()
    chunk = layout.device_chunk_size
    hub = int(np.argmax(np.asarray(layout.degrees())))  # the longest list, cut right after
    vertices = sorted({1, hub + 1, n // 2, n // 2 + 1})
    if fmt == "fl":  # some cut falls inside a word two lists share
        firsts = np.r_[0, np.cumsum(np.asarray(layout.degrees()))]
        assert any(firsts[v] * layout.index_width % 32 for v in vertices if 0 < v < n)
    for vertex in vertices:
        split = split_layout(layout, vertex)
        for mode, item_size in ((WARP, 1), (TRAVERSE, chunk)):
            values = _call(driver, split, mode, item_size, warp_item_size(layout),
                           warp_item_size(layout) if mode == TRAVERSE else NEVER, True,
                           np.arange(n))
            by_slot = values[1 + 2 * n:1 + 2 * n + layout.num_edges]
            assert np.array_equal(by_slot[slots], neighbours), (vertex, mode)
