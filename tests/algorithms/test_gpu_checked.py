"""The checked kernels on the GPU (``TraversalConfig(checked=True)``, kernels/common.cuh).

On valid graphs every algorithm returns exactly what the unchecked kernels return.  On a layout
whose largest buffer has 64 random bytes changed, validate() not run, every algorithm that
decodes every list (WCC, PageRank) ends in LayoutInvariantError, never in an illegal memory
access that would poison the CUDA context; BFS and SSSP, which decode the lists they reach,
raise it too or return what the intact graph gives; and the process then builds and runs a
fresh graph correctly.
"""
import numpy as np
import pandas as pd
import pytest
from graphs import check_sssp_against_cugraph, compressed_graph, device_frame, start_vertex

import cugraph_compressed as cgc

pytestmark = pytest.mark.gpu
DEVICE_LAYOUTS = cgc.supported()["bfs"]["device"]
SEEDS = range(8)
CHECKED = cgc.TraversalConfig(checked=True)


def graph(layout, directed=False, checked=True):
    G = compressed_graph("random", directed, layout)
    if checked:
        G.traversal = CHECKED
    return G


ALGORITHMS = {"bfs": lambda G, s: cgc.bfs(G, s), "sssp": lambda G, s: cgc.sssp(G, s),
              "pagerank": lambda G, s: cgc.pagerank(G, tol=1e-6),
              "wcc": lambda G, s: cgc.weakly_connected_components(G)}


def run(G, name, source):
    """Algorithm ``name``'s result on G, as pandas, sorted by vertex."""
    frame = ALGORITHMS[name](G, source).to_pandas()
    return frame.sort_values("vertex").reset_index(drop=True)


def run_all(G, source):
    return {name: run(G, name, source) for name in ALGORITHMS
            if name != "wcc" or not G.is_directed()}


def corrupt_largest_buffer(G, seed, count=64):
    """Change ``count`` random bytes of the largest buffer of G's layout, in place."""
    import cupy as cp

    buffers = [w for w in G._layout.view_words(lambda array: array) if hasattr(w, "nbytes")]
    raw = max(buffers, key=lambda a: a.nbytes).view(cp.uint8).reshape(-1)
    rng = np.random.default_rng(seed)
    at = rng.choice(raw.size, size=count, replace=False)
    raw[cp.asarray(at)] ^= cp.asarray(rng.integers(1, 256, size=count, dtype=np.uint8))


def assert_same_answer(name, got, want):
    """Equal results up to what the kernels leave open: which of several predecessors a vertex
    gets (the first to claim it), the order of PageRank's atomic sums, component labels."""
    if name == "pagerank":
        assert np.allclose(got["pagerank"], want["pagerank"], rtol=1e-5, atol=1e-9)
    elif name == "wcc":  # the same partition: labels map one to one
        pairs = pd.DataFrame({"a": got["labels"], "b": want["labels"]}).drop_duplicates()
        assert not pairs["a"].duplicated().any() and not pairs["b"].duplicated().any()
    else:
        assert got["distance"].equals(want["distance"]), name
        assert (got["predecessor"] == -1).equals(want["predecessor"] == -1), name
        if name == "bfs":  # every predecessor one level up
            reached = got[got["predecessor"] >= 0]
            up = got["distance"].to_numpy()[reached["predecessor"].to_numpy()]
            assert np.array_equal(up, reached["distance"].to_numpy() - 1)


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("directed", [True, False], ids=["dir", "undir"])
def test_checked_kernels_give_the_unchecked_results(layout, directed):
    source = start_vertex("random")
    plain = run_all(graph(layout, directed, checked=False), source)
    checked = run_all(graph(layout, directed), source)
    assert plain.keys() == checked.keys()
    for name in plain:
        assert_same_answer(name, checked[name], plain[name])


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_corrupted_buffers_raise_and_leave_the_process_usable(layout):
    source = start_vertex("random")
    intact = run_all(graph(layout), source)
    for seed in SEEDS:
        G = graph(layout)
        corrupt_largest_buffer(G, seed)
        for name in ("wcc", "pagerank"):
            with pytest.raises(cgc.LayoutInvariantError, match="corrupted"):
                run(G, name, source)
        for name in ("bfs", "sssp"):
            try:
                got = run(G, name, source)
            except cgc.LayoutInvariantError:
                continue
            assert_same_answer(name, got, intact[name])
        del G
    # The context is intact: a fresh graph builds and runs, unchecked, correctly.
    fresh = graph(layout, checked=False)
    check_sssp_against_cugraph("random", False, cgc.sssp(fresh, source))


def test_environment_variable_turns_checks_on(monkeypatch):
    monkeypatch.setenv("CUGRAPH_COMPRESSED_CHECKED", "1")
    G = cgc.CompressedGraph(directed=False, format="ef").from_cudf_edgelist(
        device_frame("random").copy(deep=False), renumber=False)
    assert G.traversal.checked
    corrupt_largest_buffer(G, 0)
    with pytest.raises(cgc.LayoutInvariantError, match="corrupted"):
        cgc.weakly_connected_components(G)
