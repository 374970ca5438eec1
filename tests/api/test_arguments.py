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


def test_any_column_label_names_a_column():
    """Integer labels (``read_csv(header=None)``) and tuple labels work like strings."""
    numbered = pd.DataFrame({0: [0, 1, 2], 1: [1, 2, 0], 2: [1.0, 2.0, 3.0]})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        numbered, source=0, destination=1, weight=2)
    assert list(G.view_edge_list().columns) == [0, 1, 2]
    assert cgc.bfs(G, 0)["distance"].tolist() == [0, 1, 2]
    tupled = numbered.rename(columns={0: ("a", "src"), 1: ("a", "dst"), 2: ("w", "")})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        tupled, source=("a", "src"), destination=("a", "dst"), weight=("w", ""))
    assert cgc.sssp(G, 0)["distance"].tolist() == [0.0, 1.0, 3.0]


def test_several_id_columns_are_named_as_such():
    frame = pd.DataFrame({"a": [0, 1], "b": [1, 0], "c": [1, 1], "d": [0, 0]})
    with pytest.raises(NotImplementedError, match="several columns"):
        cgc.CompressedGraph().from_pandas_edgelist(frame, source=["a", "b"],
                                                   destination=["c", "d"])
    with pytest.raises(ValueError, match=r"columns \[\('x', 'y'\)\] are not in the edge frame"):
        cgc.CompressedGraph().from_pandas_edgelist(frame, source=("x", "y"), destination="c")


def test_categorical_ids_name_their_dtype():
    frame = pd.DataFrame({"source": pd.Categorical([0, 1]), "destination": [1, 0]})
    with pytest.raises(ValueError, match="dtype category: with renumber=False"):
        cgc.CompressedGraph().from_pandas_edgelist(frame, renumber=False)


@pytest.mark.parametrize("largest", [2**40, 2**62, 2**63 - 1])
@pytest.mark.parametrize("layout", sorted(cgc.FORMATS))
def test_ids_too_large_to_build_are_refused_before_allocating(layout, largest):
    """renumber=False makes max id + 1 vertices: a count no machine holds is a MemoryError
    naming the id, not an allocation failure, a NumPy dimension error or an overflow."""
    import numpy as np

    frame = pd.DataFrame({"source": np.array([0], np.int32),  # int32 beside int64 ids
                          "destination": np.array([largest], np.int64)})
    with pytest.raises(MemoryError, match=f"largest vertex id, {largest}, makes .*renumber=True"):
        cgc.CompressedGraph(format=layout).from_pandas_edgelist(frame, renumber=False)
    with pytest.raises(MemoryError, match="renumber=True"):
        cgc.estimate_nbytes(frame, format=layout, renumber=False)
    G = cgc.CompressedGraph(format=layout).from_pandas_edgelist(frame, renumber=True)
    assert G.number_of_vertices() == 2
