"""The public API mirrors cuGraph's: names, parameters, defaults, and a light import."""
import inspect
import subprocess
import sys

import pytest

import cugraph_compressed as cgc

# Signatures of cuGraph 26.10 (DESIGN.md section 2), written out as cuGraph documents them.
CUGRAPH_SIGNATURES = {
    "from_cudf_edgelist": "(self, input_df, source='source', destination='destination', "
                          "edge_attr=None, weight=None, edge_id=None, edge_type=None, renumber=True, "
                          "store_transposed=False, symmetrize=None, vertices=None)",
    "bfs": "(G, start=None, depth_limit=None, i_start=None, directed=None, return_predecessors=True)",
    "sssp": "(G, source=None, method=None, directed=None, return_predecessors=None, unweighted=None, "
            "overwrite=None, indices=None, cutoff=None)",
    "pagerank": "(G, alpha=0.85, personalization=None, precomputed_vertex_out_weight=None, max_iter=100, "
                "tol=1.0e-5, nstart=None, dangling=None, fail_on_nonconvergence=True)",
    "weakly_connected_components": "(G, directed=None, connection=None, return_labels=None)",
    "connected_components": "(G, directed=None, connection='weak', return_labels=None)",
}

ALGORITHMS = ["bfs", "sssp", "pagerank", "weakly_connected_components", "connected_components"]


def params(signature):
    return [(p.name, p.default) for p in signature.parameters.values()]


def spec(text):
    namespace = {}
    exec(f"def f{text}: pass", namespace)
    return inspect.signature(namespace["f"])


@pytest.mark.parametrize("name", ALGORITHMS)
def test_algorithm_signatures(name):
    assert params(inspect.signature(getattr(cgc, name))) == params(spec(CUGRAPH_SIGNATURES[name]))


def test_graph_builders_signature():
    expected = params(spec(CUGRAPH_SIGNATURES["from_cudf_edgelist"]))[2:]
    for method in (cgc.CompressedGraph.from_cudf_edgelist, cgc.CompressedGraph.from_pandas_edgelist):
        assert params(inspect.signature(method))[2:] == expected


def test_graph_constructor_defaults_to_undirected():
    assert not cgc.CompressedGraph().is_directed()
    assert inspect.signature(cgc.CompressedGraph).parameters["directed"].default is False


def test_import_loads_no_gpu_library():
    code = "import sys, cugraph_compressed; print(sorted({'cupy', 'cudf', 'rmm', 'cugraph'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_supported_lists_every_algorithm_and_layout():
    table = cgc.supported()
    assert "bfs" in table and "csr" in table["bfs"]["device"]
    for where in table.values():
        assert where["host"] == sorted(cgc.FORMATS)
        assert set(where["device"]) <= set(cgc.FORMATS)
