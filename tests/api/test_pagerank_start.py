"""benchmarks/pagerank_start.py's model: its uniform run is the package's PageRank (the same
step stops it), its fixed point is networkx's, and both first steps end within ``tol`` of it."""
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import pagerank_start  # noqa: E402

import cugraph_compressed as cgc  # noqa: E402
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402

SCALE = 10


@pytest.fixture(scope="module")
def graph():
    df = rmat_edgelist(SCALE, seed=42, weighted=False, backend="host")
    df = df[df["source"] != df["destination"]].drop_duplicates(["source", "destination"])
    sources, targets = df["source"].to_numpy(np.int64), df["destination"].to_numpy(np.int64)
    return sources, targets, pagerank_start.Model(1 << SCALE, sources, targets)


def test_fixed_point_is_networkx_pagerank(graph):
    sources, targets, model = graph
    g = nx.DiGraph()
    g.add_nodes_from(range(model.n))
    g.add_edges_from(zip(sources.tolist(), targets.tolist()))
    ref = nx.pagerank(g, alpha=0.85, tol=1e-15, max_iter=1000)
    want = np.array([ref[v] for v in range(model.n)])
    assert np.abs(model.fixed_point() - want).sum() < 1e-10


@pytest.mark.parametrize("tol", [1e-5, 1e-6])
def test_uniform_run_stops_where_the_package_does(graph, tol):
    sources, targets, model = graph
    G = cgc.CompressedGraph(directed=True)
    G.from_pandas_edgelist(pd.DataFrame({"source": sources, "destination": targets}),
                           renumber=False, store_transposed=True)
    assert G.number_of_vertices() == model.n
    result = cgc.pagerank(G, tol=tol)
    got = np.zeros(model.n)
    got[result["vertex"].to_numpy()] = result["pagerank"].to_numpy()
    _, scores = model.run(tol)
    # One step more or fewer moves the scores by about tol; float32 shares by far less.
    assert np.abs(got - scores).sum() < 5e-8
    assert np.abs(model.step(scores) - scores).sum() > 1e-7


@pytest.mark.parametrize("tol", [1e-5, 1e-6])
def test_both_first_steps_end_within_tol_of_the_fixed_point(graph, tol):
    _, _, model = graph
    exact = model.fixed_point()
    for proportional in (False, True):
        _, scores = model.run(tol, proportional_first=proportional)
        assert scores.sum() == pytest.approx(1.0)
        assert np.abs(scores - exact).sum() < tol


def test_rmat_model_keeps_the_ids_that_appear_in_an_edge():
    model = pagerank_start.rmat_model(8)
    touched = np.asarray(model.matrix.sum(axis=0)).ravel() + np.asarray(
        model.matrix.sum(axis=1)).ravel()
    assert model.n < 1 << 8 and (touched > 0).all()
