"""Host placement on the GPU: per-edge buffers and properties in pinned, mapped host memory.

* every algorithm on every layout in both placements answers as cuGraph does (BFS distances
  exactly with valid predecessors, SSSP within float tolerance with valid predecessors,
  PageRank within L1 1e-5, WCC partitions equal) and as the device placement does;
* the RMM peak of each algorithm on a host-placed graph is per-vertex state only (below a
  bound per vertex and below the host-placed payload, so copying the lists to the GPU per call
  would fail);
* a host-placed build writes the bits of the host reference encoder while its device peak
  stays far below the payload;
* ``to_placement`` round trips bit-identical buffers; pinned bytes go back to zero when the
  graph goes; a MemoryError while placing (the pinned allocator failing, or an RMM limit)
  leaves the graph intact and leaks neither pinned nor device bytes;
* ``load(placement="host")`` and pickles keep the buffers bit for bit, in pinned memory;
* ``placement="auto"``: every algorithm on every layout equals the device placement at splits
  before the first list, in the middle (inside a word two lists share, for the bit-packed
  layouts) and after the last; a budget decides the split, shared budgets hold, the RMM peak
  of a call stays per-vertex state, pinned bytes go back to zero, pickles and saved graphs
  keep the split, and a MemoryError while splitting leaks nothing.
"""
import gc
import pickle

import numpy as np
import pandas as pd
import pytest
from graphs import (
    PAGERANK_ARGS,
    by_vertex,
    call_peak,
    check_bfs_against_cugraph,
    check_sssp_against_cugraph,
    cugraph_result,
    device_frame,
    num_vertices,
    start_vertex,
)

import cugraph_compressed as cgc
from cugraph_compressed import _pinned
from cugraph_compressed._backend import to_host
from cugraph_compressed._split import SplitArray
from cugraph_compressed.generators import rmat_chunks, rmat_edgelist
from cugraph_compressed.memory_budget import STATE_BYTES_PER_VERTEX

pytestmark = [pytest.mark.gpu, pytest.mark.filterwarnings("ignore:Pagerank expects")]

LAYOUTS = sorted(cgc.FORMATS)
PLACEMENTS = ["device", "host"]
CASES = [("random", True), ("random", False), ("rmat18", True), ("rmat18", False)]
CASE_IDS = [f"{name}-{'dir' if directed else 'undir'}" for name, directed in CASES]
SLACK = 1 << 20
#: Peak bytes per vertex of each call on a graph with int32 ids and float32 weights (the
#: bounds of tests/algorithms/test_gpu_vertex_state.py; SSSP: distances, predecessors, two
#: frontiers, two bit sets, the pass scans and its result frame).
BOUNDS = STATE_BYTES_PER_VERTEX


def placed(name, directed, layout, placement, **kwargs):
    """A weighted graph of a GPU_GRAPHS frame in ``placement``."""
    G = cgc.CompressedGraph(directed=directed, format=layout, placement=placement)
    return G.from_cudf_edgelist(device_frame(name).copy(deep=False), renumber=False,
                                weight="weight", **kwargs)


def numpy_of(array):
    """A NumPy copy of a NumPy, CuPy or pinned CuPy array (pinned: read on the host)."""
    if _pinned.is_pinned(array):
        import cupy

        cupy.cuda.Device().synchronize()
        return _pinned.host_view(array).copy()
    return array.get() if hasattr(array, "get") else np.asarray(array)


def assert_bit_identical(G, H):
    """The layouts' buffers and the properties of G and H hold the same bits."""
    assert list(G._layout.arrays) == list(H._layout.arrays)
    for mine, theirs in ((G._layout.arrays, H._layout.arrays), (G._properties, H._properties)):
        assert sorted(mine) == sorted(theirs)
        for name, array in theirs.items():
            if array is None:
                assert mine[name] is None, name
                continue
            got, want = numpy_of(mine[name]), numpy_of(array)
            assert got.dtype == want.dtype and got.shape == want.shape, name
            assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), name


def assert_placed(G, placement):
    """Every per-edge buffer and property is pinned exactly when ``placement`` is "host";
    the per-vertex buffers never are; nbytes_by_placement says the same."""
    layout = G._layout
    host = 0
    for name, array in layout.arrays.items():
        if array is None:
            continue
        pinned = _pinned.is_pinned(array)
        assert pinned == (placement == "host" and name in layout.edge_buffers), name
        host += int(array.nbytes) if pinned else 0
    for name, values in G._properties.items():
        assert _pinned.is_pinned(values) == (placement == "host"), name
        host += int(values.nbytes) if placement == "host" else 0
    assert G.placement == placement
    sizes = G.nbytes_by_placement()
    assert sizes["host"] == host and sizes["device"] + sizes["host"] == G.nbytes


def partition_equal(a, b):
    pairs = pd.DataFrame({"a": a, "b": b}).drop_duplicates()
    return pairs["a"].is_unique and pairs["b"].is_unique


# -- every algorithm x layout x placement -----------------------------------------------------
@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_algorithms_match_cugraph_and_the_device_placement(case, layout, placement):
    name, directed = case
    n = num_vertices(name)
    G = placed(name, directed, layout, placement)
    assert_placed(G, placement)
    bfs = cgc.bfs(G, start_vertex(name))
    check_bfs_against_cugraph(name, directed, bfs)
    sssp = cgc.sssp(G, start_vertex(name))
    check_sssp_against_cugraph(name, directed, sssp)
    wcc = None if directed else by_vertex(cgc.weakly_connected_components(G), n)["labels"]
    if wcc is not None:
        assert partition_equal(wcc, cugraph_result(name, False, "wcc")["labels"])
    T = placed(name, directed, layout, placement, store_transposed=True)
    assert_placed(T, placement)
    result, _ = cgc.pagerank(T, **PAGERANK_ARGS)
    ref = cugraph_result(name, directed, "pagerank", store_transposed=True)
    scores = by_vertex(result, n)["pagerank"].astype(np.float64)
    assert np.abs(scores - ref["pagerank"].astype(np.float64)).sum() < 1e-5
    if placement == "host":  # the same answers as the device placement
        D = placed(name, directed, layout, "device")
        assert np.array_equal(by_vertex(bfs, n)["distance"],
                              by_vertex(cgc.bfs(D, start_vertex(name)), n)["distance"])
        assert np.allclose(by_vertex(sssp, n)["distance"],
                           by_vertex(cgc.sssp(D, start_vertex(name)), n)["distance"],
                           rtol=1e-6)
        if wcc is not None:
            assert partition_equal(wcc, by_vertex(cgc.weakly_connected_components(D),
                                                  n)["labels"])
        D = placed(name, directed, layout, "device", store_transposed=True)
        theirs, _ = cgc.pagerank(D, **PAGERANK_ARGS)
        assert np.abs(scores - by_vertex(theirs, n)["pagerank"]).sum() < 1e-6


@pytest.mark.parametrize("layout", LAYOUTS)
def test_reoriented_host_placed_graph_stays_host_placed(layout):
    """A directed graph stored transposed re-encodes its out-lists for BFS and SSSP into its
    own placement, and answers as cuGraph."""
    name = "rmat18"
    G = placed(name, True, layout, "host", store_transposed=True)
    check_bfs_against_cugraph(name, True, cgc.bfs(G, start_vertex(name)))
    assert not G._in_lists
    assert_placed(G, "host")
    check_sssp_against_cugraph(name, True, cgc.sssp(G, start_vertex(name)))


# -- GPU memory of the algorithms -------------------------------------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["directed", "undirected"])
def test_algorithm_peak_on_a_host_placed_graph_is_vertex_state(layout, directed):
    import cudf

    df = rmat_edgelist(18, seed=7)
    df["weight"] = np.random.default_rng(7).uniform(0.05, 1.05, len(df)).astype(np.float32)
    G = cgc.CompressedGraph(directed=directed, format=layout, placement="host")
    G.from_cudf_edgelist(cudf.from_pandas(df), renumber=False, weight="weight")
    n, payload = G.number_of_vertices(), G.nbytes_by_placement()["host"]
    assert G.vertex_dtype == np.int32
    calls = {"bfs": lambda: cgc.bfs(G, 0), "sssp": lambda: cgc.sssp(G, 0),
             "pagerank": lambda: cgc.pagerank(G, tol=1e-6)}
    if not directed:
        calls["weakly_connected_components"] = lambda: cgc.weakly_connected_components(G)
    for name, call in calls.items():
        peak = call_peak(call)
        assert peak <= BOUNDS[name] * n + SLACK, (
            f"{name} on {layout}: {peak / n:.1f} bytes per vertex, bound {BOUNDS[name]}")
        assert peak < payload, f"{name} on {layout}: peak {peak} >= payload {payload}"
    assert_placed(G, "host")


# -- the build --------------------------------------------------------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["directed", "undirected"])
def test_host_placed_build_writes_the_host_reference_bits(layout, directed):
    """Many ranges and runs (a 1 MiB budget), so runs share boundary words: the staged
    writes give exactly the NumPy reference encoder's buffers."""
    chunks = rmat_chunks(14, 8, chunk_edges=40_000, seed=11, weighted=True)
    H = cgc.CompressedGraph(directed=directed, format=layout).from_edge_chunks(
        chunks, weight="weight", renumber=False, memory_budget=1 << 20)
    G = cgc.CompressedGraph(directed=directed, format=layout, placement="host")
    G.from_edge_chunks(chunks, weight="weight", renumber=False, backend="device",
                       memory_budget=1 << 20)
    assert G.backend == "device"
    assert G.build_stats["ranges"] > 1
    assert_placed(G, "host")
    assert_bit_identical(G, H)
    G.validate()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_host_placed_build_peak_is_far_below_the_payload(layout):
    """Float64 weights and int64 edge ids make the per-edge payload about 17 bytes an edge,
    against a 8 MiB budget and 65,536 vertices: the host-placed build's device peak (input
    frames held before it) stays under the payload, and under the device-placed build's peak
    less 90% of it."""
    import cupy
    import rmm

    frames = []
    for frame in rmat_chunks(16, 32, chunk_edges=1 << 20, seed=4, weighted=True,
                             backend="device"):
        first = sum(len(f) for f in frames)
        frame["weight"] = frame["weight"].astype(np.float64)
        frame["eid"] = cupy.arange(first, first + len(frame), dtype=np.int64)
        frames.append(frame)
    peaks, built = {}, {}
    rmm.statistics.enable_statistics()
    previous = rmm.mr.get_current_device_resource()
    try:
        for placement in PLACEMENTS:
            gc.collect()
            rmm.statistics.push_statistics()
            G = cgc.CompressedGraph(directed=True, format=layout, placement=placement)
            G.from_edge_chunks(frames, weight="weight", edge_id="eid", renumber=False,
                               memory_budget=8 << 20)
            peaks[placement] = rmm.statistics.pop_statistics().peak_bytes
            built[placement] = G
    finally:
        rmm.mr.set_current_device_resource(previous)
    payload = built["host"].nbytes_by_placement()["host"]
    assert peaks["host"] < payload, (peaks, payload)
    assert peaks["host"] <= peaks["device"] - 0.9 * payload, (peaks, payload)
    assert_bit_identical(built["host"], built["device"])


# -- moving, freeing, failing -----------------------------------------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
def test_to_placement_round_trips_bit_identical_buffers(layout):
    name = "rmat18"
    reference = placed(name, False, layout, "device")
    G = placed(name, False, layout, "device")
    assert G.to_placement("host") is G
    assert_placed(G, "host")
    assert_bit_identical(G, reference)
    check_bfs_against_cugraph(name, False, cgc.bfs(G, start_vertex(name)))
    G.to_placement("host")  # already there: nothing moves
    assert_placed(G, "host")
    G.to_placement("device")
    assert_placed(G, "device")
    assert_bit_identical(G, reference)
    check_sssp_against_cugraph(name, False, cgc.sssp(G, start_vertex(name)))


def test_pinned_bytes_go_back_to_zero_when_the_graph_goes():
    gc.collect()
    before = cgc.pinned_nbytes()
    G = placed("rmat18", False, "ef", "host")
    held = G.nbytes_by_placement()["host"]
    assert held > 0 and cgc.pinned_nbytes() - before == held
    result = cgc.bfs(G, start_vertex("rmat18"))
    copy = pickle.loads(pickle.dumps(G))
    assert cgc.pinned_nbytes() - before == 2 * held
    del G, copy, result
    gc.collect()
    assert cgc.pinned_nbytes() == before


def memory_error_of(call) -> str:
    """The message of the MemoryError ``call()`` raises.  Caught here, so that no traceback
    (whose frames hold the failed call's arrays) outlives the check of what is still held."""
    try:
        call()
    except MemoryError as exc:
        return str(exc)
    raise AssertionError("no MemoryError")


def failing_after(calls):
    """A stand-in for _pinned.empty that pins ``calls`` blocks, then raises MemoryError."""
    real = _pinned.empty
    count = [0]

    def empty(shape, dtype):
        count[0] += 1
        if count[0] > calls:
            raise MemoryError("injected: pinning fails")
        return real(shape, dtype)

    return empty


def test_memory_error_while_pinning_leaves_the_graph_intact(monkeypatch):
    import rmm

    G = placed("rmat18", False, "csr", "device")
    arrays, properties = dict(G._layout.arrays), dict(G._properties)
    # A host-placed ef build first: what the first one caches for good (kernels, argument
    # blocks) is not a leak of the failed one below.
    placed("random", False, "ef", "host")
    gc.collect()
    pinned = cgc.pinned_nbytes()
    previous = rmm.mr.get_current_device_resource()
    limited = rmm.mr.LimitingResourceAdaptor(previous, allocation_limit=1 << 40)
    rmm.mr.set_current_device_resource(limited)
    try:
        device = limited.get_allocated_bytes()
        monkeypatch.setattr(_pinned, "empty", failing_after(1))  # the indices, not the weights
        assert "injected" in memory_error_of(lambda: G.to_placement("host"))
        gc.collect()
        assert cgc.pinned_nbytes() == pinned
        assert limited.get_allocated_bytes() == device
        assert G.placement == "device"
        assert all(G._layout.arrays[k] is v for k, v in arrays.items())
        assert all(G._properties[k] is v for k, v in properties.items())
        # A host-placed build failing at its properties leaves no graph and nothing pinned.
        H = cgc.CompressedGraph(directed=False, format="ef", placement="host")
        monkeypatch.setattr(_pinned, "empty", failing_after(1))
        assert "injected" in memory_error_of(lambda: H.from_cudf_edgelist(
            device_frame("rmat18").copy(deep=False), renumber=False, weight="weight"))
        gc.collect()
        assert cgc.pinned_nbytes() == pinned
        assert limited.get_allocated_bytes() == device
        with pytest.raises(ValueError, match="empty"):
            H.number_of_vertices()
    finally:
        rmm.mr.set_current_device_resource(previous)
    monkeypatch.undo()
    check_bfs_against_cugraph("rmat18", False, cgc.bfs(G, start_vertex("rmat18")))


def test_memory_error_while_moving_to_the_gpu_leaves_the_graph_intact():
    import rmm

    G = placed("rmat18", False, "cgr", "host")
    arrays, properties = dict(G._layout.arrays), dict(G._properties)
    gc.collect()
    pinned = cgc.pinned_nbytes()
    previous = rmm.mr.get_current_device_resource()
    limited = rmm.mr.LimitingResourceAdaptor(previous, allocation_limit=1 << 40)
    rmm.mr.set_current_device_resource(limited)
    try:
        device = limited.get_allocated_bytes()
        # Room for the stream (the first buffer moved) but not for the weights after it.
        room = int(G._layout.arrays["stream"].nbytes) + (1 << 16)
        rmm.mr.set_current_device_resource(
            rmm.mr.LimitingResourceAdaptor(limited, allocation_limit=room))
        try:
            memory_error_of(lambda: G.to_placement("device"))
        finally:
            rmm.mr.set_current_device_resource(limited)
        gc.collect()
        assert limited.get_allocated_bytes() == device
        assert cgc.pinned_nbytes() == pinned
    finally:
        rmm.mr.set_current_device_resource(previous)
    assert G.placement == "host"
    assert all(G._layout.arrays[k] is v for k, v in arrays.items())
    assert all(G._properties[k] is v for k, v in properties.items())
    check_sssp_against_cugraph("rmat18", False, cgc.sssp(G, start_vertex("rmat18")))


# -- saved and pickled ------------------------------------------------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
def test_load_into_host_placement_round_trip(tmp_path, layout):
    name = "rmat18"
    G = placed(name, False, layout, "device")
    path = tmp_path / "graph.cgc"
    G.save(path)
    H = cgc.CompressedGraph.load(path, placement="host")
    assert H.backend == "device"
    assert_placed(H, "host")
    assert_bit_identical(H, G)
    check_bfs_against_cugraph(name, False, cgc.bfs(H, start_vertex(name)))
    # Saved from host placement: the same file bytes; pickles keep the placement.
    H.save(tmp_path / "again.cgc")
    assert (tmp_path / "again.cgc").read_bytes() == path.read_bytes()
    P = pickle.loads(pickle.dumps(H))
    assert_placed(P, "host")
    assert_bit_identical(P, G)
    assert_placed(cgc.CompressedGraph.load(path), "device")


# -- the host-reads kernels ---------------------------------------------------------------------
def with_config(G, **changes):
    import dataclasses

    G.traversal = dataclasses.replace(G.traversal, **changes)
    return G


# -- placement="auto" -------------------------------------------------------------------------
def shared_word_split(layout):
    """A split vertex near the middle whose cut falls inside a word the list before it also
    uses (the word is read from the host part by both lists), or the middle when none is."""
    n = layout.num_vertices
    vertices = np.arange(n // 2, min(n, n // 2 + 4096))
    (cut,) = layout.edge_starts(np.r_[vertices - 1, vertices]).values()
    degrees = to_host(layout.degrees())
    before, at = cut[:vertices.size], cut[vertices.size:]
    shared = vertices[(before == at) & (degrees[vertices - 1] > 0)]
    return int(shared[0]) if shared.size else n // 2


def assert_split(G, split):
    """G's per-edge buffers are cut at ``split`` as its choice says, both parts where they
    should be, and nbytes_by_placement counts them."""
    layout, choice = G._layout, G.placement_choice
    assert G.placement == "auto" and choice["split_vertex"] == split
    starts = layout.edge_starts(np.asarray([split]))
    device = 0
    for name in layout.edge_buffers:
        array, cut = layout.arrays[name], int(starts[name][0])
        if isinstance(array, SplitArray):
            assert array.split == cut and _pinned.is_pinned(array.host)
            assert not _pinned.is_pinned(array.device)
        else:
            assert cut in (0, array.size) and _pinned.is_pinned(array) == (cut == 0)
        device += cut * array.itemsize
    assert choice["device"] == device
    sizes = G.nbytes_by_placement()
    assert sizes["device"] + sizes["host"] == G.nbytes


def answers(G, name, directed):
    """BFS and SSSP distances and (undirected) WCC labels, by vertex: what does not depend
    on the order atomics land in (predecessors among equals and float sums do; they are
    checked against cuGraph and with a tolerance)."""
    n = num_vertices(name)
    out = {"bfs": by_vertex(cgc.bfs(G, start_vertex(name)), n)["distance"],
           "sssp": by_vertex(cgc.sssp(G, start_vertex(name)), n)["distance"]}
    if not directed:
        out["wcc"] = by_vertex(cgc.weakly_connected_components(G), n)["labels"]
    return out


def assert_same_answers(got, want):
    assert sorted(got) == sorted(want)
    for key in want:
        if key == "wcc":
            assert partition_equal(got[key], want[key])
        else:
            np.testing.assert_array_equal(got[key], want[key], err_msg=key)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_host_reads_answer_as_the_plain_kernels_and_the_device_placement(case, layout):
    """The host-reads build (aligned groups, warps from aligned lines, lists of >= 32 ranks on
    warps) and frontiers sorted out of core give the device placement's answers: BFS and SSSP
    distances and WCC labels bit for bit, PageRank as the device placement does (L1 < 1e-6, its
    float64 atomics add in any order)."""
    from cugraph_compressed.kernels.traversal import Traversal

    name, directed = case
    n = num_vertices(name)
    source = start_vertex(name)
    D = placed(name, directed, layout, "device")
    want = {"bfs": by_vertex(cgc.bfs(D, source), n)["distance"],
            "sssp": by_vertex(cgc.sssp(D, source), n)["distance"]}
    if not directed:
        want["wcc"] = by_vertex(cgc.weakly_connected_components(D), n)["labels"]
    del D
    DT = placed(name, directed, layout, "device", store_transposed=True)
    ref, _ = cgc.pagerank(DT, **PAGERANK_ARGS)
    ref = by_vertex(ref, n)["pagerank"].astype(np.float64)
    del DT
    for settings in ({"host_reads": True, "host_sort_frontiers_from": None},
                     {"host_reads": False, "host_sort_frontiers_from": None},
                     {"host_reads": True, "host_sort_frontiers_from": 1}):
        H = with_config(placed(name, directed, layout, "host"), **settings)
        run = Traversal(H._layout, np.int32, H.traversal)
        assert run.host and run.host_reads == settings["host_reads"]
        assert np.array_equal(by_vertex(cgc.bfs(H, source), n)["distance"], want["bfs"])
        assert np.array_equal(by_vertex(cgc.sssp(H, source), n)["distance"], want["sssp"])
        if not directed:
            assert np.array_equal(by_vertex(cgc.weakly_connected_components(H), n)["labels"],
                                  want["wcc"])
        T = with_config(placed(name, directed, layout, "host", store_transposed=True),
                        **settings)
        scores, _ = cgc.pagerank(T, **PAGERANK_ARGS)
        assert np.abs(by_vertex(scores, n)["pagerank"].astype(np.float64) - ref).sum() < 1e-6


def test_bench_rows_carry_reads_on_the_gpu():
    """A device run with both placements: our rows carry the read counts (the same for both
    placements of a layout), cuGraph's none; lines vs csr relate the layouts' counts."""
    from cugraph_compressed.bench import format_reads, run_benchmark

    record = run_benchmark([12], directed=[True, False], formats=["csr", "ef", "fl"],
                           repeats=1, encode_repeats=0, num_sources=1, backend="device",
                           placements=["device", "host"], git_commit="test",
                           log=lambda _: None)
    ours = [r for r in record["results"] if r["contender"] != "cugraph" and r["ms"]]
    assert ours and all(r["lines"] > 0 and r["read_bytes"] > 0 and r["bound_ms"] > 0
                        for r in ours)
    assert all(r["check"] == "ok" for r in ours)
    assert all(r["lines"] is None for r in record["results"] if r["contender"] == "cugraph")
    lines = {(r["format"], r["algorithm"], r["directed"], r["placement"]): r for r in ours}
    for (fmt, alg, directed, placement), r in lines.items():
        twin = lines[fmt, alg, directed, "device" if placement == "host" else "host"]
        assert r["lines"] == twin["lines"] and r["read_bytes"] == twin["read_bytes"]
        csr = lines["csr", alg, directed, placement]
        assert r["lines_vs_csr"] == pytest.approx(r["lines"] / csr["lines"])
    assert "csr@host" in format_reads(record)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_auto_placement_equals_the_device_placement_at_every_split(case, layout):
    """BFS and SSSP distances equal the device placement's exactly, WCC partitions are equal
    and PageRank scores within L1 1e-6 (float sums land in any order), with the split before
    the first list, in a word shared by two lists, and after the last; BFS and SSSP
    predecessors are checked against cuGraph."""
    name, directed = case
    D = placed(name, directed, layout, "device")
    want = answers(D, name, directed)
    DT = placed(name, directed, layout, "device", store_transposed=True)
    want_pr = by_vertex(cgc.pagerank(DT, **PAGERANK_ARGS)[0], num_vertices(name))["pagerank"]
    n = D.number_of_vertices()
    for split in (0, shared_word_split(D._layout), n):
        G = placed(name, directed, layout, "device").to_placement("auto", split_vertex=split)
        assert_split(G, split)
        assert_same_answers(answers(G, name, directed), want)
        check_bfs_against_cugraph(name, directed, cgc.bfs(G, start_vertex(name)))
        check_sssp_against_cugraph(name, directed, cgc.sssp(G, start_vertex(name)))
        T = placed(name, directed, layout, "device", store_transposed=True)
        T.to_placement("auto", split_vertex=split)
        got_pr = by_vertex(cgc.pagerank(T, **PAGERANK_ARGS)[0], num_vertices(name))["pagerank"]
        assert np.abs(got_pr.astype(np.float64) - want_pr).sum() < 1e-6


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_budget_decides_the_split(layout):
    """A build under ``placement="auto"`` and a budget keeps on the GPU the largest prefix
    of lists whose payload fits the budget less the per-vertex arrays and state: the next
    list would not fit; nothing of the payload was whole on the GPU."""
    name = "rmat18"
    D = placed(name, False, layout, "device")
    want = answers(D, name, False)
    payload = sum(int(D._layout.arrays[k].nbytes) for k in D._layout.edge_buffers)
    resident = D.nbytes_by_placement()["device"] - payload - int(D._properties["weight"].nbytes)
    n = D.number_of_vertices()
    state = n * max(STATE_BYTES_PER_VERTEX.values())
    budget = resident + state + payload // 2
    G = cgc.CompressedGraph(directed=False, format=layout, placement="auto",
                            memory_budget=budget)
    G.from_cudf_edgelist(device_frame(name).copy(deep=False), renumber=False, weight="weight")
    choice = G.placement_choice
    split = choice["split_vertex"]
    assert 0 < split < n and choice["share"] == payload // 2
    assert choice["device"] <= payload // 2 < int(G._layout.split_nbytes([split + 1])[0])
    assert choice["properties"] == "host" and "fit" in choice["reason"]
    assert_split(G, split)
    assert G.nbytes_by_placement()["device"] <= budget - state
    assert_same_answers(answers(G, name, False), want)


def test_graphs_share_one_budget():
    """Two graphs given one MemoryBudget: the second gets what the first left, goes partly
    to the host, and the first's draw comes back when it goes; a device-placed graph that
    does not fit raises MemoryError naming its bytes under 'device'."""
    name = "rmat18"
    D = placed(name, False, "ef", "device")
    payload = sum(int(D._layout.arrays[k].nbytes) for k in D._layout.edge_buffers)
    weights = int(D._properties["weight"].nbytes)
    need = D.nbytes_by_placement()["device"] + D.number_of_vertices() * max(
        STATE_BYTES_PER_VERTEX.values())
    budget = cgc.MemoryBudget(need + need - payload // 2 - weights)
    A = cgc.CompressedGraph(format="ef", placement="auto", memory_budget=budget)
    A.from_cudf_edgelist(device_frame(name).copy(deep=False), renumber=False, weight="weight")
    assert A.placement_choice["split_vertex"] == A.number_of_vertices()  # all of it fits
    B = cgc.CompressedGraph(format="ef", placement="auto", memory_budget=budget)
    B.from_cudf_edgelist(device_frame(name).copy(deep=False), renumber=False, weight="weight")
    assert 0 < B.placement_choice["split_vertex"] < B.number_of_vertices()
    assert budget.used <= budget.nbytes and len(budget.draws()) == 2
    C = cgc.CompressedGraph(format="ef", placement="device", memory_budget=budget)
    message = memory_error_of(lambda: C.from_cudf_edgelist(
        device_frame(name).copy(deep=False), renumber=False, weight="weight"))
    assert "under 'device'" in message
    with pytest.raises(ValueError, match="empty"):
        C.number_of_vertices()
    used = budget.used
    del A
    gc.collect()
    assert budget.used < used and len(budget.draws()) == 1
    B.to_placement("auto")  # placed again: the room A left moves the split up
    assert B.placement_choice["split_vertex"] == B.number_of_vertices()
    check_bfs_against_cugraph(name, False, cgc.bfs(B, start_vertex(name)))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_algorithm_peak_on_an_auto_graph_is_vertex_state(layout):
    """The graph's device share is allocated before the calls: each call's RMM peak above it
    is its per-vertex state, and the graph holds its per-vertex arrays and its share only."""
    import cudf

    df = rmat_edgelist(18, seed=7)
    df["weight"] = np.random.default_rng(7).uniform(0.05, 1.05, len(df)).astype(np.float32)
    G = cgc.CompressedGraph(directed=False, format=layout, placement="auto")
    G.from_cudf_edgelist(cudf.from_pandas(df), renumber=False, weight="weight")
    n = G.number_of_vertices()
    G.to_placement("auto", split_vertex=n // 4)
    choice = G.placement_choice
    resident = G.nbytes_by_placement()["device"] - choice["device"]
    assert resident < G.nbytes_by_component()["weight"] + n * 16  # per-vertex arrays only
    calls = {"bfs": lambda: cgc.bfs(G, 0), "sssp": lambda: cgc.sssp(G, 0),
             "pagerank": lambda: cgc.pagerank(G, tol=1e-6),
             "weakly_connected_components": lambda: cgc.weakly_connected_components(G)}
    for name, call in calls.items():
        peak = call_peak(call)
        assert peak <= BOUNDS[name] * n + SLACK, (
            f"{name} on {layout}: {peak / n:.1f} bytes per vertex, bound {BOUNDS[name]}")


def test_auto_pinned_bytes_go_back_to_zero_and_pickles_keep_the_split(tmp_path):
    gc.collect()
    before = cgc.pinned_nbytes()
    G = placed("rmat18", False, "cgr", "device")
    split = shared_word_split(G._layout)
    G.to_placement("auto", split_vertex=split)
    held = G.nbytes_by_placement()["host"]
    assert held > 0 and cgc.pinned_nbytes() - before == held
    P = pickle.loads(pickle.dumps(G))
    assert_split(P, split)
    assert_bit_identical(P, placed("rmat18", False, "cgr", "device").to_placement(
        "auto", split_vertex=split))
    G.save(tmp_path / "g.cgc")
    L = cgc.CompressedGraph.load(tmp_path / "g.cgc", placement="auto",
                                 memory_budget=G.nbytes * 4)
    assert L.placement_choice["split_vertex"] == L.number_of_vertices()
    assert_bit_identical(L, placed("rmat18", False, "cgr", "device"))
    check_bfs_against_cugraph("rmat18", False, cgc.bfs(P, start_vertex("rmat18")))
    G.to_placement("device")
    assert_placed(G, "device")
    del G, P, L
    gc.collect()
    assert cgc.pinned_nbytes() == before


def test_memory_error_while_splitting_leaves_the_graph_intact(monkeypatch):
    import rmm

    G = placed("rmat18", False, "fl", "device")
    arrays, properties = dict(G._layout.arrays), dict(G._properties)
    placed("random", False, "fl", "device").to_placement("auto", split_vertex=5)  # warm caches
    gc.collect()
    pinned = cgc.pinned_nbytes()
    previous = rmm.mr.get_current_device_resource()
    limited = rmm.mr.LimitingResourceAdaptor(previous, allocation_limit=1 << 40)
    rmm.mr.set_current_device_resource(limited)
    try:
        device = limited.get_allocated_bytes()
        monkeypatch.setattr(_pinned, "empty", failing_after(0))  # the host part of the split
        n = G.number_of_vertices()
        assert "injected" in memory_error_of(lambda: G.to_placement("auto", split_vertex=n // 2))
        gc.collect()
        assert cgc.pinned_nbytes() == pinned
        assert limited.get_allocated_bytes() == device
    finally:
        rmm.mr.set_current_device_resource(previous)
    monkeypatch.undo()
    assert G.placement == "device" and G.placement_choice is None
    assert all(G._layout.arrays[k] is v for k, v in arrays.items())
    assert all(G._properties[k] is v for k, v in properties.items())
    budget = cgc.MemoryBudget(1 << 10)
    assert "under 'device'" in memory_error_of(lambda: G.to_placement("auto",
                                                                      memory_budget=budget))
    assert G.placement == "device" and budget.used == 0


@pytest.mark.parametrize("layout", ["ef", "cgr"])
def test_format_auto_sizes_ignore_the_placement(layout):
    choices = [cgc.CompressedGraph(format="auto", placement=placement).from_cudf_edgelist(
        device_frame("rmat18").copy(deep=False), renumber=False).format_choice
        for placement in ("device", "host", "auto")]
    assert choices[0] == choices[1] == choices[2]


def test_saved_graphs_stage_through_the_package_pinned_blocks(tmp_path, monkeypatch):
    """Saving and loading a device graph stage through _pinned blocks (counted, freed with
    the transfer), never CuPy's pinned pool."""
    import cupy

    G = placed("rmat18", False, "ef", "device")
    gc.collect()
    before = cgc.pinned_nbytes()
    blocks = []
    real = _pinned.PinnedBlock

    class Counted(real):
        def __init__(self, nbytes):
            super().__init__(nbytes)
            blocks.append(nbytes)

    def pool(*args, **kwargs):
        raise AssertionError("CuPy's pinned pool was used")

    monkeypatch.setattr(_pinned, "PinnedBlock", Counted)
    monkeypatch.setattr(cupy.cuda, "PinnedMemory", pool)
    G.save(tmp_path / "g.cgc")
    H = cgc.CompressedGraph.load(tmp_path / "g.cgc")
    assert len(blocks) >= 4  # two for the save, two for the load
    assert_bit_identical(H, G)
    gc.collect()
    assert cgc.pinned_nbytes() == before


@pytest.mark.parametrize("layout", LAYOUTS)
def test_auto_build_peak_is_the_host_build_and_the_device_share(layout):
    """An auto build writes the payload into pinned memory range by range, then moves the
    prefix that fits to the GPU: its device peak is the host-placed build's plus the device
    share, never the whole payload on the GPU."""
    import rmm

    frames = list(rmat_chunks(16, 16, chunk_edges=1 << 19, seed=4, backend="device"))
    D = cgc.CompressedGraph(directed=True, format=layout).from_edge_chunks(
        frames, renumber=False, memory_budget=8 << 20)
    payload = sum(int(D._layout.arrays[k].nbytes) for k in D._layout.edge_buffers)
    resident = D.nbytes_by_placement()["device"] - payload
    state = D.number_of_vertices() * max(STATE_BYTES_PER_VERTEX.values())
    del D
    peaks, built = {}, {}
    rmm.statistics.enable_statistics()
    previous = rmm.mr.get_current_device_resource()
    try:
        for placement in ("host", "auto"):
            gc.collect()
            rmm.statistics.push_statistics()
            G = cgc.CompressedGraph(directed=True, format=layout, placement=placement,
                                    memory_budget=resident + state + payload // 4)
            G.from_edge_chunks(frames, renumber=False, memory_budget=8 << 20)
            peaks[placement] = rmm.statistics.pop_statistics().peak_bytes
            built[placement] = G
    finally:
        rmm.mr.set_current_device_resource(previous)
    share = built["auto"].placement_choice["device"]
    assert 0 < share <= payload // 4
    assert peaks["auto"] <= peaks["host"] + share + SLACK, (peaks, share, payload)
