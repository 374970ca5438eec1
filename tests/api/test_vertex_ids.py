"""One integer id translated without a Series (``VertexIds.to_internal_one``) answers as the
list path does, for every kind of map and order, on the host backend's NumPy arrays."""
import numpy as np
import pandas as pd
import pytest

from cugraph_compressed._ids import VertexIds


def ids_of(kind, order):
    """VertexIds of 6 vertices: not renumbered, or renumbered with sorted int32, int64 or
    uint64 user ids, in the sorted order or a permuted one."""
    if kind == "none":
        return VertexIds("host", 6, np.int32)
    dtype = {"int32": np.int32, "int64": np.int64, "uint64": np.uint64}[kind]
    users = pd.Series(np.array([2, 5, 9, 40, 41, 2**31 - 1], dtype=dtype))
    if order == "sorted":
        return VertexIds("host", 6, np.int32, users)
    internal_of = np.array([3, 0, 5, 1, 4, 2], dtype=np.int32)  # rank -> internal id
    return VertexIds("host", 6, np.int32, users, internal_of)


QUERIES = [0, 1, 2, 5, 6, 9, 40, 41, 42, 2**31 - 1, 2**31, 2**40, -1, -(2**40), 2**64 - 1]


@pytest.mark.parametrize("kind,order", [("none", "sorted")] + [
    (kind, order) for kind in ("int32", "int64", "uint64") for order in ("sorted", "permuted")])
def test_one_integer_id_answers_as_the_list_path(kind, order):
    ids = ids_of(kind, order)
    for value in QUERIES:
        for query in (value, np.int64(value) if -(2**63) <= value < 2**63 else np.uint64(value)):
            try:
                expected = int(ids.to_internal([query], "start")[0])
            except (ValueError, OverflowError) as exc:
                expected = exc
            if isinstance(expected, int):
                assert ids.to_internal_one(query, "start") == expected
                assert ids.to_internal(query, "start").tolist() == [expected]
                assert ids.to_internal(query, "start").dtype == np.int32
            else:
                with pytest.raises(ValueError, match=f"start vertex {value} is not in the graph"):
                    ids.to_internal_one(query, "start")


def test_one_id_finds_each_vertex_through_the_order():
    ids = ids_of("int64", "permuted")
    users = [2, 5, 9, 40, 41, 2**31 - 1]
    internal = [ids.to_internal_one(u, "start") for u in users]
    assert internal == [3, 0, 5, 1, 4, 2]  # internal_of of each rank
    assert ids.to_user(np.array(internal)).tolist() == users


def test_bools_and_strings_take_the_general_path():
    ids = ids_of("none", "sorted")
    with pytest.raises(ValueError, match="holds bool values"):
        ids.to_internal_one(True, "start")
    named = VertexIds("host", 2, np.int32, pd.Series(["a", "b"]))
    assert named.to_internal_one("b", "start") == 1
    with pytest.raises(ValueError, match="start vertex 'c' is not in the graph"):
        named.to_internal_one("c", "start")
    with pytest.raises(ValueError, match="start vertex 3 is not in the graph"):
        named.to_internal_one(3, "start")


@pytest.mark.parametrize("kind", ["int32", "int64", "uint64"])
def test_user_ids_of_internal_ids_with_missing_entries(kind):
    ids = ids_of(kind, "permuted")
    out = ids.to_user(np.array([3, -1, 2, 0], dtype=np.int32))
    if kind == "uint64":  # -1 does not fit: null
        assert out.isna().tolist() == [False, True, False, False]
        assert out.dropna().astype(np.uint64).tolist() == [2, 2**31 - 1, 5]
    else:
        assert out.dtype == np.dtype(kind) and out.tolist() == [2, -1, 2**31 - 1, 5]


@pytest.mark.parametrize("kind,order", [("none", "sorted")] + [
    (kind, order) for kind in ("int32", "uint64", "str") for order in ("sorted", "permuted")])
def test_sorted_users_are_the_user_ids_in_order(kind, order):
    """sorted_users (neighbors' answer) is to_user of the same ids, sorted, whatever the map
    (a string map goes through the Series path) and the order; no ids give none."""
    if kind == "str":
        users = pd.Series(["a", "bb", "c", "d", "e", "f"])
        internal_of = None if order == "sorted" else np.array([3, 0, 5, 1, 4, 2], np.int32)
        ids = VertexIds("host", 6, np.int32, users, internal_of)
    else:
        ids = ids_of(kind, order)
    for internal in ([], [4], [5, 0, 3], [1, 2, 3, 4, 5, 0]):
        internal = np.array(internal, dtype=np.int32)
        want = sorted(pd.Series(ids.to_user(internal)).tolist())
        assert pd.Series(ids.sorted_users(internal)).tolist() == want


def test_float_ids_are_the_integers_they_equal():
    """A whole float names the integer it equals exactly, on renumbered and plain graphs alike:
    float(2**53) is 2**53, never 2**53 + 1 (which a float64 comparison also matches); any
    other float is no vertex."""
    import cugraph_compressed as cgc

    big = 2**53
    frame = pd.DataFrame({"source": [big, big + 1], "destination": [1, 2]})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(frame)
    assert G.neighbors(float(big)).tolist() == [1]
    reached = cgc.bfs(G, float(big)).set_index("vertex")["distance"]
    assert reached[big] == 0 and reached[1] == 1 and reached[2] == np.iinfo(reached.dtype).max
    alone = cgc.CompressedGraph(directed=True).from_pandas_edgelist(frame.iloc[1:])
    assert not alone.has_node(float(big)) and alone.has_node(2.0)  # its ids: 2**53 + 1 and 2
    with pytest.raises(ValueError, match="start vertex 9007199254740992.0 is not in the graph"):
        cgc.bfs(alone, float(big))
    plain = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        pd.DataFrame({"source": [5, 0], "destination": [0, 1]}), renumber=False)
    assert plain.has_node(5.0) and plain.has_edge(5.0, 0) and plain.neighbors(5.0).tolist() == [0]
    assert cgc.bfs(plain, 5.0)["distance"].tolist()[:2] == [1, 2]
    assert not plain.has_node(5.5) and not plain.has_node(-1.0)
    with pytest.raises(ValueError, match="start vertex 5.5 is not in the graph"):
        cgc.bfs(plain, 5.5)
    huge = np.array([2**64 - 1, 5], dtype=np.uint64)
    wide = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        pd.DataFrame({"source": huge, "destination": huge[::-1].copy()}))
    assert not wide.has_node(float(2**64))  # past uint64: no vertex, not a wrapped one


def test_one_column_frames_of_ids_are_taken_as_their_column():
    """cuGraph takes start vertices and vertex subsets as a DataFrame too; ids are one column
    here, so a frame of several is refused by name."""
    import cugraph_compressed as cgc

    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        pd.DataFrame({"source": [0, 1, 2], "destination": [1, 2, 0]}))
    assert cgc.bfs(G, pd.DataFrame({"v": [1]})).sort_values("vertex")["distance"].tolist() \
        == [2, 0, 1]
    assert G.in_degree(pd.DataFrame({"v": [2]}))["degree"].tolist() == [1]
    with pytest.raises(ValueError, match="a DataFrame of 2 columns"):
        cgc.bfs(G, pd.DataFrame({"a": [0], "b": [1]}))
