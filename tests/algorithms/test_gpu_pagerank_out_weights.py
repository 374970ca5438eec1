"""GPU PageRank keeps the out-weights it computed on the graph (run with -m gpu on a GPU
host)."""
import networkx as nx
import numpy as np
import pytest

import cugraph_compressed as cgc
import cugraph_compressed.algorithms.pagerank as module
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("layout", cgc.supported()["pagerank"]["device"])
def test_second_call_reuses_the_out_weights(layout, monkeypatch):
    import cudf

    df = rmat_edgelist(10, seed=2).drop_duplicates(["source", "destination"], ignore_index=True)
    G = cgc.CompressedGraph(directed=True, format=layout).from_cudf_edgelist(
        cudf.from_pandas(df), renumber=False, store_transposed=True)
    g = nx.DiGraph()
    g.add_nodes_from(range(int(max(df["source"].max(), df["destination"].max())) + 1))
    g.add_edges_from(zip(df["source"], df["destination"]))
    expected = nx.pagerank(g, tol=1e-10)
    first = cgc.pagerank(G, tol=1e-8).to_pandas().set_index("vertex")["pagerank"]
    calls, compute = [], module.out_weights_device

    def counted(*args):
        calls.append(1)
        return compute(*args)

    monkeypatch.setattr(module, "out_weights_device", counted)
    second = cgc.pagerank(G, tol=1e-8).to_pandas().set_index("vertex")["pagerank"]
    assert not calls
    for scores in (first, second):
        assert sum(abs(float(scores[v]) - p) for v, p in expected.items()) < 1e-4
    assert np.allclose(first.sort_index(), second.sort_index(), rtol=1e-5, atol=1e-9)
    cgc.bfs(G, int(df["source"].iloc[0]))  # re-encodes the in-lists: the structure changed
    third = cgc.pagerank(G, tol=1e-8).to_pandas().set_index("vertex")["pagerank"]
    assert calls == [1]  # computed afresh for the new structure
    assert sum(abs(float(third[v]) - p) for v, p in expected.items()) < 1e-4
