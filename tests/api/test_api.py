"""The public API mirrors cuGraph's: names, parameters, defaults, and a light import."""
import inspect
import subprocess
import sys

import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed.algorithms import FUNCTIONS

# Signatures of cuGraph 26.10, written out as cuGraph documents them (python/cugraph/cugraph
# traversal, link_analysis, components and structure/graph_classes.py).
CUGRAPH_SIGNATURES = {
    "from_cudf_edgelist": "(self, input_df, source='source', destination='destination', "
                          "edge_attr=None, weight=None, edge_id=None, edge_type=None, "
                          "renumber=True, store_transposed=False, symmetrize=None, "
                          "vertices=None)",
    "bfs": "(G, start=None, depth_limit=None, i_start=None, directed=None, "
           "return_predecessors=True)",
    "sssp": "(G, source=None, method=None, directed=None, return_predecessors=None, "
            "unweighted=None, overwrite=None, indices=None, cutoff=None)",
    "pagerank": "(G, alpha=0.85, personalization=None, precomputed_vertex_out_weight=None, "
                "max_iter=100, tol=1.0e-5, nstart=None, dangling=None, "
                "fail_on_nonconvergence=True)",
    "weakly_connected_components": "(G, directed=None, connection=None, return_labels=None)",
    "connected_components": "(G, directed=None, connection='weak', return_labels=None)",
}

ALGORITHMS = sorted(FUNCTIONS)


def params(signature):
    return [(p.name, p.default) for p in signature.parameters.values()]


def spec(text):
    namespace = {}
    exec(f"def f{text}: pass", namespace)
    return inspect.signature(namespace["f"])


def test_every_cugraph_function_is_registered():
    assert set(ALGORITHMS) == set(CUGRAPH_SIGNATURES) - {"from_cudf_edgelist"}


@pytest.mark.parametrize("name", ALGORITHMS)
def test_algorithm_signatures(name):
    assert params(inspect.signature(getattr(cgc, name))) == params(spec(CUGRAPH_SIGNATURES[name]))


def test_graph_builders_signature():
    expected = params(spec(CUGRAPH_SIGNATURES["from_cudf_edgelist"]))[2:]
    for method in (cgc.CompressedGraph.from_cudf_edgelist,
                   cgc.CompressedGraph.from_pandas_edgelist):
        assert params(inspect.signature(method))[2:] == expected


def test_graph_constructor_defaults_to_undirected():
    assert not cgc.CompressedGraph().is_directed()
    assert inspect.signature(cgc.CompressedGraph).parameters["directed"].default is False


def test_import_loads_no_gpu_library():
    code = ("import sys, cugraph_compressed; "
            "print(sorted({'cupy', 'cudf', 'rmm', 'cugraph'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_supported_lists_every_algorithm_and_layout():
    table = cgc.supported()
    assert "bfs" in table and "csr" in table["bfs"]["device"]
    for where in table.values():
        assert where["host"] == sorted(cgc.FORMATS)
        assert set(where["device"]) <= set(cgc.FORMATS)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "1024", True])
@pytest.mark.parametrize("knob", ["warp_item_ranks", "warp_list_ranks", "sort_frontiers_from"])
def test_traversal_config_rejects_bad_knobs(knob, bad):
    with pytest.raises(ValueError, match=knob):
        cgc.TraversalConfig(**{knob: bad})


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-2.5, ValueError),
                                        (float("inf"), ValueError), (float("nan"), ValueError),
                                        ("15", TypeError), (True, TypeError)])
@pytest.mark.parametrize("knob", ["bottom_up_alpha", "bottom_up_beta"])
def test_traversal_config_rejects_bad_bfs_switch(knob, bad, error):
    with pytest.raises(error, match=knob):
        cgc.TraversalConfig(**{knob: bad})


def test_warp_item_ranks_auto_picks_by_layout():
    """"auto" (the default) makes warp items of 128 ranks on the random-access layouts and of
    1024 or more on the others; an int applies to every layout."""
    from cugraph_compressed.kernels.traversal import warp_item_size

    edges = pd.DataFrame({"source": [0, 1, 2], "destination": [1, 2, 0]})
    sizes = {}
    for fmt in ("csr", "fl", "ef", "cgr"):
        G = cgc.CompressedGraph(directed=True, format=fmt).from_pandas_edgelist(edges)
        assert cgc.TraversalConfig().warp_item_ranks == "auto"
        layout = G.view().adjacency("out").layout
        sizes[fmt] = warp_item_size(layout, cgc.TraversalConfig())
        assert warp_item_size(layout, cgc.TraversalConfig(warp_item_ranks=2048)) >= 2048
    assert sizes["csr"] == sizes["fl"] == 128
    assert sizes["ef"] >= 1024 and sizes["cgr"] >= 1024


def test_warp_list_ranks_sets_the_cut_between_thread_and_warp_launches():
    """"auto" (the default) sends csr's, fl's and ef's lists of 32 ranks or more to warps and
    cgr's lists of 128 or more; None is one warp item, an int applies to every layout; csr
    and fl have a warp launch only with thread items longer than one rank (PageRank's)."""
    from cugraph_compressed.kernels.traversal import ALL_DEGREES, list_passes, warp_item_size

    edges = pd.DataFrame({"source": [0, 1, 2], "destination": [1, 2, 0]})
    for fmt in ("csr", "fl", "ef", "cgr"):
        G = cgc.CompressedGraph(directed=True, format=fmt).from_pandas_edgelist(edges)
        layout = G.view().adjacency("out").layout
        long_list = warp_item_size(layout, cgc.TraversalConfig())
        cuts = {}
        for ranks in ("auto", None, 100):
            config = cgc.TraversalConfig(warp_list_ranks=ranks)
            if fmt in ("csr", "fl"):
                assert list_passes(layout, config) == [(1, ALL_DEGREES, False)]
            passes = list_passes(layout, config, thread_ranks=32)
            (thread_size, thread_degrees, first), (warp_size, warp_degrees, second) = passes
            assert (first, second) == (False, True) and warp_size == long_list
            assert thread_degrees[1] == warp_degrees[0] and warp_degrees[1] == ALL_DEGREES[1]
            cuts[ranks] = warp_degrees[0]
        assert cuts[None] == long_list and cuts[100] == 100
        assert cuts["auto"] == (128 if fmt == "cgr" else 32)


def test_traversal_config_bfs_switch_values():
    assert cgc.TraversalConfig(bottom_up_alpha=None).bottom_up_alpha is None
    assert cgc.TraversalConfig(bottom_up_alpha=4, bottom_up_beta=0.5).bottom_up_beta == 0.5
    with pytest.raises(TypeError, match="bottom_up_beta"):
        cgc.TraversalConfig(bottom_up_beta=None)


def test_graph_traversal_config_is_checked_and_kept():
    import pandas as pd

    df = pd.DataFrame({"source": [0], "destination": [1]})
    G = cgc.CompressedGraph().from_pandas_edgelist(df)
    assert G.traversal == cgc.TraversalConfig()
    G.traversal = cgc.TraversalConfig(warp_item_ranks=None, sort_frontiers_from=64)
    assert G.view().config == cgc.TraversalConfig(warp_item_ranks=None, sort_frontiers_from=64)
    with pytest.raises(TypeError, match="TraversalConfig"):
        G.traversal = {"warp_item_ranks": None}


def test_empty_graph_is_refused_by_every_algorithm():
    for function in FUNCTIONS.values():
        with pytest.raises(ValueError, match="empty"):
            function(cgc.CompressedGraph())
