"""Building a graph: cuGraph's semantics and cuGraph's exceptions for bad input."""
import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc


def frame(src, dst, **extra):
    return pd.DataFrame({"source": src, "destination": dst, **extra})


def build(df, directed=True, **kwargs):
    return cgc.CompressedGraph(directed=directed).from_pandas_edgelist(df, **kwargs)


# -- bad input ------------------------------------------------------------------------------------
def test_non_pandas_input_is_a_type_error():
    with pytest.raises(TypeError, match="not a pandas DataFrame"):
        cgc.CompressedGraph().from_pandas_edgelist({"source": [0], "destination": [1]})


def test_pandas_frame_given_to_from_cudf_edgelist_is_a_type_error():
    with pytest.raises(TypeError, match="cudf.DataFrame"):
        cgc.CompressedGraph().from_cudf_edgelist(frame([0], [1]))


def test_a_column_serves_one_role():
    df = frame([0, 1], [1, 2], w=[1.0, 2.0])
    with pytest.raises(ValueError, match="weight='source' names the column source reads too"):
        build(df, weight="source")
    with pytest.raises(ValueError, match="destination='source' names the column source"):
        build(df, destination="source")
    with pytest.raises(ValueError, match="edge_id='w' names the column weight reads too"):
        build(df.assign(e=[0, 1]), edge_attr=["w", "w", "e"])


def test_ids_of_types_that_cannot_be_ordered_are_named():
    with pytest.raises(TypeError, match=r"vertex ids of types \['int', 'str'\] cannot be "
                                        "ordered together"):
        build(frame([0, "a"], ["b", 1]))


def test_vertex_ids_past_the_available_host_memory_are_refused(monkeypatch):
    """renumber=False makes a vertex of every id up to the largest: past the host memory
    available now that is a MemoryError naming the id, before anything is allocated (a
    second such graph beside a first was killed by the kernel, not refused)."""
    from cugraph_compressed import _backend

    monkeypatch.setattr(_backend, "available_memory", lambda backend: 1 << 30)
    with pytest.raises(MemoryError, match=r"largest vertex id, 999999999, .* more than the "
                                          r"1\.0 GiB of host memory available"):
        build(frame([0], [999_999_999]), renumber=False)
    build(frame([0], [999_999_999]))  # renumbered: two vertices


def test_available_host_memory_is_at_most_the_total():
    from cugraph_compressed import _backend

    assert 0 < _backend.available_memory("host") <= _backend.total_memory("host")


def test_a_repeated_column_label_is_refused():
    df = pd.DataFrame([[0, 1, 2]], columns=["source", "destination", "destination"])
    with pytest.raises(ValueError, match="2 columns labelled 'destination'"):
        build(df)
    build(pd.DataFrame([[0, 1, 2, 3]], columns=["source", "destination", "x", "x"]))  # unread


def test_missing_columns_are_named():
    with pytest.raises(ValueError, match="'dst'"):
        build(frame([0], [1]), destination="dst")
    with pytest.raises(ValueError, match="'w'"):
        build(frame([0], [1]), weight="w")


def test_unsigned_ids_need_renumbering():
    df = frame(np.array([0, 1], np.uint32), np.array([1, 2], np.uint32))
    with pytest.raises(ValueError, match="uint32.*[Uu]nsigned"):
        build(df, renumber=False)
    G = build(df)  # renumbered, as cuGraph does
    assert G.renumbered and G.number_of_vertices() == 3
    assert cgc.bfs(G, np.uint32(2))["vertex"].dtype == np.uint32


@pytest.mark.parametrize("ids", [["a", "b"], [0.5, 1.5], np.array([0, 1], np.int16)])
def test_non_int32_int64_ids_need_renumbering(ids):
    with pytest.raises(ValueError, match="renumber"):
        build(frame(ids, ids[::-1]), renumber=False)


def test_negative_ids_without_renumbering_name_the_value():
    with pytest.raises(ValueError, match="-7"):
        build(frame([0, -7], [1, 2]), renumber=False)


def test_null_ids_are_rejected():
    df = frame(pd.array([0, None], dtype="Int64"), pd.array([1, 2], dtype="Int64"))
    with pytest.raises(ValueError, match="1 null"):
        build(df)


def test_edge_attr_excludes_weight():
    df = frame([0], [1], w=[1.0])
    with pytest.raises(ValueError, match="edge_attr"):
        build(df, edge_attr="w", weight="w")
    with pytest.raises(ValueError, match="2 columns"):
        build(df, edge_attr=["w", "w"])


def test_symmetrize_only_for_undirected():
    with pytest.raises(ValueError, match="symmetrized"):
        build(frame([0], [1]), directed=True, symmetrize=True)


def test_edge_ids_cannot_be_symmetrized():
    df = frame([0], [1], eid=[5])
    with pytest.raises(ValueError, match="Edge Ids or Types"):
        build(df, directed=False, edge_id="eid")


def test_undirected_without_symmetrize_needs_symmetric_input():
    with pytest.raises(ValueError, match="not symmetric"):
        build(frame([0], [1]), directed=False, symmetrize=False)
    G = build(frame([0, 1], [1, 0]), directed=False, symmetrize=False)
    assert G.number_of_edges() == 1


def test_second_load_is_a_runtime_error():
    G = build(frame([0], [1]))
    with pytest.raises(RuntimeError, match="already has values"):
        G.from_pandas_edgelist(frame([0], [1]))


def test_unknown_format_and_layout_parameter():
    with pytest.raises(ValueError, match="'zip'.*csr"):
        cgc.CompressedGraph(format="zip")
    with pytest.raises(TypeError):
        cgc.CompressedGraph(format="csr", block_size=3)
    with pytest.raises(TypeError, match="force_64bit"):
        cgc.CompressedGraph(format="csr", force_64bit="yes")


@pytest.mark.parametrize("vertices, match", [
    ([0, 1, 1, 2], "duplicate"),
    ([0, 1], "missing from vertices"),
])
def test_vertices_must_cover_the_edges_once(vertices, match):
    with pytest.raises(ValueError, match=match):
        build(frame([0, 1], [1, 2]), vertices=vertices)


@pytest.mark.parametrize("renumber, vertices, match", [
    (True, [0, 0, 1], "1 duplicate"),          # as many ids as distinct endpoints, one twice
    (True, [2, 0, 1, 3, 3], "1 duplicate"),
    (True, [5, 2, 0], "missing from vertices"),
    (False, [0, 1, 1], "1 duplicate"),
    (False, [0, 1], "0 .. V-1"),               # in order, but the edges name vertex 2
    (False, [0, 2, 1], "0 .. V-1"),
])
def test_vertices_are_checked_whichever_way_they_are_ranked(renumber, vertices, match):
    """Distinct ids covering the endpoints are ranked by binary search without counting
    distinct ids; every other ``vertices`` is still refused with the message naming why."""
    with pytest.raises(ValueError, match=match):
        build(frame([0, 1], [1, 2]), renumber=renumber, vertices=vertices)


@pytest.mark.parametrize("empty", [[], (), iter([]), pd.Series([]), pd.Series([], dtype=np.int64)],
                         ids=["list", "tuple", "iterator", "object-series", "int64-series"])
def test_empty_vertices_name_the_missing_ids(empty):
    """No ids given: the edges' ids are all missing (an empty list takes the edges' dtype; an
    empty Series once reported a negative count of duplicates), and with no edges either the
    graph is empty."""
    with pytest.raises(ValueError, match=r"3 vertex id\(s\) missing from vertices \(0 ids"):
        build(frame([0, 1], [1, 2]), vertices=empty)
    with pytest.raises(ValueError, match="0 .. V-1"):
        build(frame([0, 1], [1, 2]), renumber=False, vertices=empty)
    assert build(frame([], []), vertices=empty).number_of_vertices() == 0


def test_vertices_in_any_order_rank_like_the_edges_ids():
    G = build(frame([30, 10], [10, 20]), vertices=[20, 40, 30, 10])
    assert G.nodes().tolist() == [10, 20, 30, 40]
    edges = G.view_edge_list()
    assert sorted(zip(edges["source"], edges["destination"])) == [(10, 20), (30, 10)]


@pytest.mark.parametrize("kind", [pd.Index, pd.array, np.array, iter])
def test_vertices_of_any_1d_kind(kind):
    """An Index, an extension array, a NumPy array or an iterator is taken as a Series."""
    G = build(frame([30, 10], [10, 20]), vertices=kind([20, 40, 30, 10]))
    assert G.nodes().tolist() == [10, 20, 30, 40]


def test_vertices_without_renumbering_must_be_0_to_v_minus_1():
    with pytest.raises(ValueError, match="0 .. V-1"):
        build(frame([0, 1], [1, 2]), renumber=False, vertices=[2, 1, 0])
    G = build(frame([0, 1], [1, 2]), renumber=False, vertices=[0, 1, 2])
    assert G.number_of_vertices() == 3


def test_bfs_argument_errors_match_cugraph():
    G = build(frame([0, 1], [1, 2]), renumber=False)
    with pytest.raises(TypeError, match="must specify 'start'"):
        cgc.bfs(G)
    with pytest.raises(TypeError, match="both"):
        cgc.bfs(G, start=0, i_start=0)
    with pytest.raises(TypeError, match="directed"):
        cgc.bfs(G, 0, directed=True)
    with pytest.raises(ValueError, match="start vertex 3 .*0 .. 2"):
        cgc.bfs(G, 3)
    with pytest.raises(ValueError, match="start vertex -1"):
        cgc.bfs(G, [0, -1])
    with pytest.raises(ValueError, match="empty"):
        cgc.bfs(G, [])
    with pytest.raises(TypeError, match="depth_limit"):
        cgc.bfs(G, 0, depth_limit=1.5)
    assert cgc.bfs(G, i_start=1)["distance"].tolist()[1:] == [0, 1]


def test_bfs_on_an_unbuilt_graph():
    with pytest.raises(ValueError, match="empty"):
        cgc.bfs(cgc.CompressedGraph(), 0)


def test_bfs_on_a_foreign_graph_goes_to_cugraph():
    import importlib.util

    if importlib.util.find_spec("cugraph") is None:
        with pytest.raises(TypeError, match="not importable"):
            cgc.bfs(object(), 0)


def test_string_start_not_in_graph():
    G = build(frame(["a", "b"], ["b", "c"]))
    with pytest.raises(ValueError, match="'z'"):
        cgc.bfs(G, "z")


# -- semantics ------------------------------------------------------------------------------------
def test_parallel_edges_keep_the_smallest_weight():
    df = frame([0, 0, 0, 1], [1, 1, 1, 2], w=[5.0, 2.0, 7.0, 1.0])
    edges = build(df, weight="w", renumber=False).view_edge_list()
    assert edges.to_dict("list") == {"source": [0, 1], "destination": [1, 2], "w": [2.0, 1.0]}


def test_undirected_edge_given_both_ways_gets_the_mean_weight():
    df = frame([0, 1, 1], [1, 0, 0], weight=[2.0, 4.0, 9.0])
    G = build(df, directed=False, weight="weight", renumber=False)
    assert G.view_edge_list().to_dict("list") == {"source": [0], "destination": [1],
                                                  "weight": [3.0]}
    assert G.number_of_edges() == 1 and G.number_of_edges(directed_edges=True) == 2


@pytest.mark.parametrize("dtype, big", [(np.float32, 3e38), (np.float64, 1.7e308)])
def test_the_mean_weight_of_the_largest_weights_is_finite(dtype, big):
    """The two directions' mean is their halves' sum: (a + b) / 2 overflowed to inf."""
    df = frame([0, 1], [1, 0], w=np.array([big, big], dtype))
    G = build(df, directed=False, weight="w", renumber=False)
    assert G.view_edge_list()["w"].tolist() == [float(dtype(big))]
    df = frame([0, 1], [1, 0], w=np.array([big, big / 2], dtype))
    got = build(df, directed=False, weight="w", renumber=False).view_edge_list()["w"]
    assert got.tolist() == [float(dtype(big) / 2 + dtype(big / 2) / 2)]


def test_undirected_edge_counts_self_loops_once():
    G = build(frame([0, 1, 2], [0, 2, 1]), directed=False, renumber=False)
    assert G.number_of_edges() == 2
    assert G.number_of_edges(directed_edges=True) == 3


def test_edge_properties_follow_their_edge():
    df = frame([2, 0, 1, 0], [0, 1, 2, 1], w=[1.0, 3.0, 2.0, 0.5], eid=[10, 11, 12, 13],
               et=[7, 8, 9, 6])
    G = build(df, edge_attr=["w", "eid", "et"], renumber=False)
    edges = G.view_edge_list().sort_values(["source", "destination"]).reset_index(drop=True)
    assert edges.to_dict("list") == {"source": [0, 1, 2], "destination": [1, 2, 0],
                                     "w": [0.5, 2.0, 1.0], "eid": [13, 12, 10], "et": [6, 9, 7]}


def test_integer_weights_become_floats():
    G = build(frame([0], [1], w=np.array([3], np.int32)), weight="w")
    assert G.view_edge_list()["w"].dtype == np.float32
    G = build(frame([0], [1], w=np.array([3], np.int64)), weight="w")
    assert G.view_edge_list()["w"].dtype == np.float64


def test_float16_weights_are_stored_as_float32(tmp_path):
    """cuGraph takes float32 or float64 weights, and a saved graph holds those: float16 ones
    are widened (exactly), so the graph saves, loads and pickles."""
    import pickle

    w = np.array([0.5, 1.5, 2.25], np.float16)
    G = build(frame([0, 1, 2], [1, 2, 0], w=w), weight="w")
    edges = G.view_edge_list()
    assert edges["w"].dtype == np.float32 and edges["w"].tolist() == [0.5, 1.5, 2.25]
    G.save(tmp_path / "g.cgc")
    loaded = cgc.CompressedGraph.load(tmp_path / "g.cgc")
    pd.testing.assert_frame_equal(loaded.view_edge_list(), edges)
    pd.testing.assert_frame_equal(pickle.loads(pickle.dumps(G)).view_edge_list(), edges)


@pytest.mark.skipif(np.dtype(np.longdouble).itemsize <= 8, reason="longdouble is float64 here")
def test_weights_wider_than_float64_are_refused():
    with pytest.raises(ValueError, match=r"weight column 'w' has dtype float\d+; weights must "
                                         r"be float32 or float64"):
        build(frame([0], [1], w=np.array([1.0], np.longdouble)), weight="w")


def test_vertex_dtype_rules():
    i32 = np.array([0, 1], np.int32)
    i64 = np.array([1, 2], np.int64)
    assert build(frame(i32, i32[::-1])).vertex_dtype == np.int32
    assert build(frame(i64, i64[::-1])).vertex_dtype == np.int64
    assert build(frame(i32, i64)).vertex_dtype == np.int64  # mixed widths widen
    strings = frame(["a", "b"], ["b", "c"])
    assert build(strings).vertex_dtype == np.int32
    # cuGraph: renumbered ids are int64 when any column read is int64, weights included.
    assert build(strings.assign(w=np.array([1, 2], np.int64)), weight="w").vertex_dtype == np.int64


def test_view_edge_list_of_undirected_graph_lists_each_edge_once():
    df = frame([3, 1, 2, 2], [1, 3, 3, 2])
    edges = build(df, directed=False, renumber=False).view_edge_list()
    pairs = sorted(zip(edges["source"], edges["destination"]))
    assert pairs == [(1, 3), (2, 2), (2, 3)]


def test_nodes_and_sizes():
    df = frame(np.array([5, 9], np.int32), np.array([9, 7], np.int32))
    G = build(df)
    assert G.nodes().tolist() == [5, 7, 9]
    sizes = G.nbytes_by_component()
    assert (sizes["offsets"] == 4 * 4 and sizes["indices"] == 2 * 4
            and sizes["renumber_map"] == 3 * 4)
    assert G.nbytes == sum(sizes.values())


@pytest.mark.parametrize("id_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("weight_dtype", [np.float32, np.float64])
def test_edgeless_frames_keep_their_weight_dtype(id_dtype, weight_dtype):
    """A frame without rows still says its weights' dtype, kept as a frame with rows keeps it
    (it once fell back to float32: SSSP on a float64 graph of no edges gave float32 distances,
    and its unreachable mark was float32's largest value); the ids take vertices' dtype."""
    df = pd.DataFrame({"src": np.array([], id_dtype), "dst": np.array([], id_dtype),
                       "w": np.array([], weight_dtype)})
    G = cgc.CompressedGraph(directed=True)
    G.from_pandas_edgelist(df, source="src", destination="dst", weight="w",
                           vertices=pd.Series([0, 1, 2], dtype=id_dtype))
    assert G.vertex_dtype == id_dtype
    result = cgc.sssp(G, 0)
    assert result["distance"].dtype == weight_dtype
    assert result["distance"].tolist() == [0.0] + [np.finfo(weight_dtype).max] * 2
    assert result["vertex"].dtype == id_dtype
    empty = cgc.CompressedGraph(directed=True)
    empty.from_pandas_edgelist(df, source="src", destination="dst", weight="w")
    assert empty.number_of_vertices() == 0
    assert empty._properties["weight"].dtype == weight_dtype
