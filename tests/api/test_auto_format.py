"""``format="auto"`` chooses as documented and builds what the explicit format builds.

The reference sizes come from building every layout explicitly (``G.nbytes``), and the rule
is written out here once more: drop candidates over the limit, take the smallest, prefer the
fastest of csr, fl, ef, cgr within 10% of it."""
import numpy as np
import pandas as pd
import pytest
from graphs import assert_same_graph, random_edges

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist

SPEED = ["csr", "fl", "ef", "cgr"]


def runs_edges():
    """400 lists of 300 consecutive ids each: CGR's intervals make it the smallest."""
    rng = np.random.default_rng(1)
    src = np.repeat(np.arange(400), 300)
    dst = (np.repeat(rng.integers(0, 4000, 400), 300) + np.tile(np.arange(300), 400)) % 4000
    return pd.DataFrame({"source": src, "destination": dst})


def property_edges():
    """Random edges whose float64 weights, int64 edge ids and int32 types outweigh the
    structure: csr is within 10% of ef."""
    df = random_edges(1 << 16, 60_000, 3)
    df["w"] = np.random.default_rng(0).random(len(df))
    df["eid"] = np.arange(len(df), dtype=np.int64)
    df["et"] = np.int32(2)
    return df


#: name -> (frame, directed, build kwargs, auto parameters)
GRAPHS = {
    "sparse random": (lambda: random_edges(2000, 8000, 1), True, {"renumber": False}, {}),
    "fl near ef": (lambda: random_edges(2048, 20_000, 1), True, {"renumber": False}, {}),
    "rmat": (lambda: rmat_edgelist(12, seed=1), False, {"renumber": False}, {}),
    "runs": (runs_edges, True, {"renumber": False}, {}),
    "properties": (property_edges, True, {"edge_attr": ["w", "eid", "et"]},
                   {"candidates": ["ef", "csr"]}),
}


def expected_choice(sizes, limit=None):
    fitting = {f: s for f, s in sizes.items() if limit is None or s <= limit}
    smallest = min(fitting.values())
    return next(f for f in SPEED if f in fitting and fitting[f] <= 1.1 * smallest)


def explicit_sizes(df, directed, kwargs, candidates=SPEED):
    return {fmt: cgc.CompressedGraph(directed=directed, format=fmt)
            .from_pandas_edgelist(df, **kwargs).nbytes for fmt in candidates}


@pytest.mark.parametrize("name", GRAPHS)
def test_auto_picks_by_the_explicit_sizes_and_builds_the_same_graph(name):
    make, directed, kwargs, params = GRAPHS[name]
    df = make()
    sizes = explicit_sizes(df, directed, kwargs, params.get("candidates", SPEED))
    G = cgc.CompressedGraph(directed=directed, format="auto", **params)
    assert G.format == "auto" and G.format_choice is None
    G.from_pandas_edgelist(df, **kwargs)
    chosen = expected_choice(sizes)
    assert G.format == chosen
    choice = G.format_choice
    assert choice["chosen"] == chosen and choice["nbytes"] == sizes
    assert list(choice["nbytes"]) == [f for f in SPEED if f in sizes]  # fastest first
    assert G.nbytes == sizes[chosen] and G.build_stats["format_choice"] == choice
    assert G.layout_params == cgc.FORMATS[chosen].check_params()
    explicit = cgc.CompressedGraph(directed=directed, format=chosen)
    assert_same_graph(G, explicit.from_pandas_edgelist(df, **kwargs))
    if "edge_attr" not in kwargs:  # estimate_nbytes reads ids (and weights) only
        assert cgc.estimate_nbytes(df, format="auto", directed=directed, **kwargs,
                                   **params) == G.nbytes


def test_the_cases_cover_every_branch_of_the_rule():
    """The graphs above reach every layout, and a faster layout within 10% beats a smaller
    one (fl over ef; csr over ef among those two)."""
    chosen, preferred = set(), 0
    for name, (make, directed, kwargs, params) in GRAPHS.items():
        sizes = explicit_sizes(make(), directed, kwargs, params.get("candidates", SPEED))
        pick = expected_choice(sizes)
        chosen.add(pick)
        preferred += sizes[pick] > min(sizes.values())
    assert chosen == set(SPEED) and preferred >= 2


def test_reason_names_the_rule():
    df = random_edges(2048, 20_000, 1)
    G = cgc.CompressedGraph(directed=True, format="auto").from_pandas_edgelist(df, renumber=False)
    assert G.format == "fl"
    assert "within 10%" in G.format_choice["reason"] and "faster" in G.format_choice["reason"]
    assert repr(G).startswith("CompressedGraph(format='fl', directed=True, vertices=2048")


def test_max_nbytes_drops_the_layouts_over_it():
    df = random_edges(2048, 20_000, 1)
    sizes = explicit_sizes(df, True, {"renumber": False})
    limit = (sizes["fl"] + sizes["ef"]) // 2  # fl, preferred without a limit, no longer fits
    assert sizes["ef"] <= limit < sizes["fl"]
    G = cgc.CompressedGraph(directed=True, format="auto", max_nbytes=limit)
    G.from_pandas_edgelist(df, renumber=False)
    assert G.format == expected_choice(sizes, limit) == "ef"
    assert G.format_choice["limit"] == limit and "exceed" in G.format_choice["reason"]
    smallest = min(sizes.values())
    G = cgc.CompressedGraph(directed=True, format="auto", max_nbytes=smallest - 1)
    with pytest.raises(MemoryError, match=f"no layout fits in {smallest - 1:,} bytes"):
        G.from_pandas_edgelist(df, renumber=False)
    assert G.format == "auto" and G.format_choice is None  # the graph stays empty
    with pytest.raises(ValueError, match="empty"):
        G.number_of_vertices()


def test_default_limit_is_the_memory_less_the_budget(monkeypatch):
    from cugraph_compressed import _backend

    monkeypatch.setattr(_backend, "total_memory", lambda backend: 10_000_000)
    df = random_edges(100, 300, 4)
    G = cgc.CompressedGraph(format="auto").from_edge_chunks([df], memory_budget=1_000_000)
    assert G.format_choice["limit"] == 9_000_000


def test_auto_under_a_small_budget_builds_the_same_graph():
    """Several vertex ranges (aligned for every candidate) and several chunks: the chosen
    layout's buffers are those of the explicit whole-frame build."""
    df = rmat_edgelist(12, seed=2)
    chunks = [df.iloc[i:i + 20_000] for i in range(0, len(df), 20_000)]
    G = cgc.CompressedGraph(directed=False, format="auto")
    G.from_edge_chunks(chunks, memory_budget=1 << 18)
    assert G.build_stats["ranges"] > 1
    explicit = cgc.CompressedGraph(directed=False, format=G.format)
    assert_same_graph(G, explicit.from_pandas_edgelist(df))


def test_auto_store_transposed_reorients_as_the_chosen_layout():
    df = random_edges(500, 3000, 6, weighted=True)
    # Sorted order: degree order would rank the transposed graph's vertices by in-degree.
    G = cgc.CompressedGraph(directed=True, format="auto", vertex_order="sorted")
    G.from_pandas_edgelist(df, weight="weight", store_transposed=True)
    explicit = cgc.CompressedGraph(directed=True, format=G.format, vertex_order="sorted")
    explicit.from_pandas_edgelist(df, weight="weight")
    got, want = cgc.bfs(G, start=int(df["source"][0])), cgc.bfs(explicit, int(df["source"][0]))
    pd.testing.assert_frame_equal(got, want)
    assert_same_graph(G, explicit)  # re-encoded in place as out-lists, in the chosen layout


@pytest.mark.parametrize("params, error, match", [
    ({"k": 64}, TypeError, "takes the parameters candidates and max_nbytes, got k"),
    ({"candidates": "ef"}, TypeError, "list of layout names"),
    ({"candidates": []}, ValueError, "at least one"),
    ({"candidates": ["ef", "zip"]}, ValueError, "'zip'"),
    ({"candidates": ["ef", "ef"]}, ValueError, "distinct"),
    ({"max_nbytes": 0}, ValueError, "max_nbytes must be >= 1, got 0"),
    ({"max_nbytes": "1GB"}, TypeError, "max_nbytes must be an integer"),
])
def test_bad_auto_parameters(params, error, match):
    with pytest.raises(error, match=match):
        cgc.CompressedGraph(format="auto", **params)


def test_unknown_format_still_names_the_layouts():
    with pytest.raises(ValueError, match="not a known layout"):
        cgc.CompressedGraph(format="zip")


def test_repr_of_graphs():
    assert repr(cgc.CompressedGraph(format="auto")) == \
        "CompressedGraph(format='auto', directed=False, empty)"
    df = pd.DataFrame({"source": [0, 1, 2], "destination": [1, 2, 2]})
    G = cgc.CompressedGraph(format="csr").from_pandas_edgelist(df, renumber=False)
    assert repr(G) == (f"CompressedGraph(format='csr', directed=False, vertices=3, "
                       f"stored_edges=5, nbytes={G.nbytes}, backend='host')")


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["fl near ef", "rmat", "runs"])
def test_device_auto_builds_the_same_graph(name):
    import cudf

    make, directed, kwargs, params = GRAPHS[name]
    df = make()
    frame = cudf.from_pandas(df)
    sizes = {fmt: cgc.CompressedGraph(directed=directed, format=fmt)
             .from_cudf_edgelist(frame, **kwargs).nbytes for fmt in SPEED}
    G = cgc.CompressedGraph(directed=directed, format="auto").from_cudf_edgelist(frame, **kwargs)
    assert G.backend == "device" and G.format == expected_choice(sizes)
    assert G.format_choice["nbytes"] == sizes
    host = cgc.CompressedGraph(directed=directed, format=G.format)
    assert_same_graph(G, host.from_pandas_edgelist(df, **kwargs))
