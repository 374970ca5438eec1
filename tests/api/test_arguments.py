"""Arguments of the wrong type raise TypeError naming the parameter, instead of being read by
their truthiness or parsed from a string."""
import pandas as pd
import pytest

import cugraph_compressed as cgc

EDGES = pd.DataFrame({"source": [0, 1, 2], "destination": [1, 2, 0], "weight": [1.0, 2.0, 3.0]})


def graph(**kwargs):
    kwargs = {"store_transposed": True, **kwargs}
    return cgc.CompressedGraph(directed=True).from_pandas_edgelist(EDGES, weight="weight",
                                                                   **kwargs)


@pytest.mark.parametrize("bad", ["no", "False", 0, None, 1.0])
def test_directed_must_be_a_bool(bad):
    with pytest.raises(TypeError, match="directed must be a bool"):
        cgc.CompressedGraph(directed=bad)


@pytest.mark.parametrize("flag", ["renumber", "store_transposed", "symmetrize"])
def test_build_flags_must_be_bools(flag):
    with pytest.raises(TypeError, match=f"{flag} must be a bool, got 'yes'"):
        graph(**{flag: "yes"})


def test_estimate_flags_must_be_bools():
    with pytest.raises(TypeError, match="renumber must be a bool"):
        cgc.estimate_nbytes(EDGES, renumber="false")


@pytest.mark.parametrize("name, bad", [("alpha", "0.85"), ("tol", "1e-5"), ("alpha", True),
                                       ("fail_on_nonconvergence", "no")])
def test_pagerank_arguments_are_typed(name, bad):
    with pytest.raises(TypeError, match=f"{name} must be a"):
        cgc.pagerank(graph(), **{name: bad})


def test_numbers_of_any_real_type_are_accepted():
    import numpy as np

    scores = cgc.pagerank(graph(), alpha=np.float32(0.85), tol=1)["pagerank"]
    assert scores.sum() == pytest.approx(1.0, abs=1e-5)


def test_bfs_and_sssp_arguments_are_typed():
    with pytest.raises(TypeError, match="return_predecessors must be a bool"):
        cgc.bfs(graph(), 0, return_predecessors="no")
    with pytest.raises(TypeError, match="cutoff must be a number"):
        cgc.sssp(graph(), 0, cutoff="10")


def test_layout_invariant_error_is_exported():
    assert issubclass(cgc.LayoutInvariantError, ValueError)
