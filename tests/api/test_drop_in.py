"""``import cugraph_compressed as cugraph``: ``Graph`` with cuGraph's constructor, the four
algorithms on it, every other name forwarded to cuGraph, and ``to_cugraph``.

On a machine without cuGraph the forwarding is tested with a stand-in ``cugraph`` module put
in ``sys.modules``; the GPU tests use the real one."""
import inspect
import sys
import types

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from graphs import random_edges

import cugraph_compressed as cugraph
from cugraph_compressed import _backend


def host(frame):
    """A pandas copy of a pandas or cuDF result (``Graph`` builds on the GPU where it can)."""
    return frame.to_pandas() if hasattr(frame, "to_pandas") else frame


@pytest.fixture
def host_only(monkeypatch):
    """``Graph.from_pandas_edgelist`` as on a machine without a usable GPU."""
    monkeypatch.setattr(_backend, "gpu_available", lambda: False)


@pytest.fixture
def fake_cugraph(monkeypatch):
    """A stand-in cuGraph with one algorithm we do not have, and our own names shadowed."""
    fake = types.ModuleType("cugraph")
    fake.katz_centrality = lambda G: "katz"
    fake.bfs = fake.Graph = fake.generators = "cuGraph's own"
    monkeypatch.setitem(sys.modules, "cugraph", fake)
    return fake


def test_graph_takes_cugraphs_constructor():
    signature = inspect.signature(cugraph.Graph)
    assert [(p.name, p.default) for p in signature.parameters.values()] == \
        [("m_graph", None), ("directed", False)]
    assert not cugraph.Graph().is_directed() and cugraph.Graph(directed=True).is_directed()
    assert cugraph.Graph().format == "auto" and isinstance(cugraph.Graph(), cugraph.CompressedGraph)
    with pytest.raises(TypeError, match="directed must be a bool"):
        cugraph.Graph(directed="yes")


def test_readme_flow_runs_on_the_swapped_module(host_only):
    """The calls of a cuGraph script, checked against networkx."""
    df = random_edges(300, 1500, 8, weighted=True)
    df = df[df["source"] != df["destination"]].drop_duplicates(["source", "destination"])
    G = cugraph.Graph(directed=True)
    G.from_pandas_edgelist(df, source="source", destination="destination", edge_attr="weight")
    assert G.backend == "host" and G.format in cugraph.FORMATS
    assert repr(G).startswith(f"Graph(format='{G.format}', directed=True")
    ref = nx.from_pandas_edgelist(df, "source", "destination", "weight", create_using=nx.DiGraph)
    start = int(df["source"].iloc[0])
    dist = host(cugraph.bfs(G, start=start)).set_index("vertex")["distance"]
    want = nx.single_source_shortest_path_length(ref, start)
    reached = dist[dist < np.iinfo(dist.dtype).max]
    assert reached.to_dict() == want
    lengths = host(cugraph.sssp(G, source=start)).set_index("vertex")["distance"]
    for v, d in nx.single_source_dijkstra_path_length(ref, start).items():
        assert lengths[v] == pytest.approx(d, rel=1e-5)
    with pytest.warns(UserWarning, match="store_transposed"):  # as cuGraph warns
        ranks = host(cugraph.pagerank(G, tol=1e-8)).set_index("vertex")["pagerank"]
    for v, r in nx.pagerank(ref, weight="weight", tol=1e-10).items():
        assert ranks[v] == pytest.approx(r, abs=1e-5)
    U = cugraph.Graph()
    U.from_pandas_edgelist(df, source="source", destination="destination")
    labels = host(cugraph.connected_components(U))
    parts = {frozenset(part["vertex"]) for _, part in labels.groupby("labels")}
    assert parts == {frozenset(c) for c in nx.connected_components(ref.to_undirected())}
    assert G.number_of_vertices() == ref.number_of_nodes()
    assert G.number_of_edges() == ref.number_of_edges()
    assert sorted(host(G.out_degree())["degree"]) == sorted(d for _, d in ref.out_degree())
    assert G.is_renumbered() == G.renumbered and not G.is_multigraph()
    assert list(host(G.edges()).columns) == ["source", "destination"]


def test_graph_builds_from_pandas_on_the_gpu_when_one_is_usable(monkeypatch):
    df = pd.DataFrame({"source": [0, 1], "destination": [1, 2]})
    monkeypatch.setattr(_backend, "gpu_available", lambda: False)
    assert cugraph.Graph().from_pandas_edgelist(df).backend == "host"
    assert cugraph.Graph()._pandas_backend() == "host"
    monkeypatch.setattr(_backend, "gpu_available", lambda: True)
    assert cugraph.Graph()._pandas_backend() == "device"
    # CompressedGraph keeps its rule: the frame type decides.
    assert cugraph.CompressedGraph().from_pandas_edgelist(df).backend == "host"
    with pytest.raises(TypeError, match="pdf input is not a pandas DataFrame"):
        cugraph.Graph().from_pandas_edgelist({"source": [0]})


def test_other_graph_methods_point_to_to_cugraph():
    G = cugraph.Graph()
    with pytest.raises(AttributeError, match="get_two_hop_neighbors.*G.to_cugraph()"):
        G.get_two_hop_neighbors()
    with pytest.raises(AttributeError, match="_private"):
        G._private
    assert not hasattr(G, "renumber_map")


def test_other_names_are_cugraphs(fake_cugraph):
    assert cugraph.katz_centrality("G") == "katz"
    assert cugraph.bfs is not fake_cugraph.bfs and cugraph.Graph is not fake_cugraph.Graph
    assert isinstance(cugraph.generators, types.ModuleType)  # our module, even if not imported
    assert cugraph.generators.__name__ == "cugraph_compressed.generators"
    with pytest.raises(AttributeError, match="no attribute 'no_such_name', and neither has "
                                             "cugraph"):
        cugraph.no_such_name
    with pytest.raises(AttributeError):
        cugraph._hidden  # private names are never forwarded


def test_other_names_without_cugraph(monkeypatch):
    monkeypatch.setitem(sys.modules, "cugraph", None)  # import cugraph raises ImportError
    with pytest.raises(AttributeError, match="'katz_centrality': it is not one of "
                                             "cugraph_compressed's names, and cuGraph.*is not "
                                             "installed"):
        cugraph.katz_centrality
    assert not hasattr(cugraph, "katz_centrality")
    assert cugraph.bfs.__module__.startswith("cugraph_compressed")


def test_m_graph_must_be_a_cugraph_multigraph(fake_cugraph):
    class MultiGraph:
        source_columns, destination_columns, weight_column = "s", "d", "w"

        def is_weighted(self):
            return True

        def view_edge_list(self):
            return pd.DataFrame({"s": [0, 0, 1], "d": [1, 1, 2], "weight": [2.0, 1.0, 3.0]},
                                index=[4, 5, 6])

    fake_cugraph.MultiGraph = MultiGraph
    with pytest.raises(TypeError, match="m_graph can only be an instance of a cugraph"):
        cugraph.Graph(m_graph=[(0, 1)])
    G = cugraph.Graph(MultiGraph(), directed=True)
    edges = host(G.view_edge_list())
    assert edges.to_dict("list") == {"s": [0, 1], "d": [1, 2], "w": [1.0, 3.0]}


def test_m_graph_without_cugraph(monkeypatch):
    monkeypatch.setitem(sys.modules, "cugraph", None)
    with pytest.raises(TypeError, match="m_graph can only be an instance"):
        cugraph.Graph(m_graph=object())


@pytest.mark.parametrize("directed", [True, False])
def test_to_cugraph_hands_over_the_graph(monkeypatch, directed):
    """With stand-ins for cuGraph and cuDF: the call cuGraph gets carries the graph."""
    calls = []

    class Graph:
        def __init__(self, directed=False):
            calls.append(("Graph", directed))

        def from_cudf_edgelist(self, edges, **kwargs):
            calls.append((edges, kwargs))

    monkeypatch.setitem(sys.modules, "cugraph", types.SimpleNamespace(Graph=Graph))
    monkeypatch.setitem(sys.modules, "cudf", types.SimpleNamespace(from_pandas=lambda x: x))
    df = pd.DataFrame({"a": ["x", "y", "y", "z"], "b": ["y", "x", "z", "z"],
                       "w": [1.0, 3.0, 2.0, 5.0]})
    G = cugraph.CompressedGraph(directed=directed, format="ef")
    G.from_pandas_edgelist(df, source="a", destination="b", weight="w", vertices=[*"xyzq"],
                           store_transposed=True)
    H = G.to_cugraph()
    assert isinstance(H, Graph) and calls[0] == ("Graph", directed)
    edges, kwargs = calls[1]
    assert kwargs == {"source": "a", "destination": "b", "weight": "w", "edge_id": None,
                      "edge_type": None, "renumber": True, "store_transposed": True,
                      "symmetrize": None if directed else False,
                      "vertices": kwargs["vertices"]}
    assert kwargs["vertices"].tolist() == ["q", "x", "y", "z"]
    got = sorted(edges.itertuples(index=False, name=None))
    if directed:
        want = sorted(df.itertuples(index=False, name=None))
    else:  # both directions, the pair given twice gets the mean weight, the loop once
        want = sorted([("x", "y", 2.0), ("y", "x", 2.0), ("y", "z", 2.0), ("z", "y", 2.0),
                       ("z", "z", 5.0)])
    assert got == want


def test_to_cugraph_without_cugraph(monkeypatch):
    monkeypatch.setitem(sys.modules, "cugraph", None)
    G = cugraph.CompressedGraph().from_pandas_edgelist(pd.DataFrame({"source": [0],
                                                                     "destination": [1]}))
    with pytest.raises(ImportError, match="to_cugraph needs cuGraph"):
        G.to_cugraph()


@pytest.mark.gpu
def test_graph_from_pandas_is_a_device_graph():
    df = random_edges(200, 800, 2)
    G = cugraph.Graph(directed=True).from_pandas_edgelist(df)
    assert G.backend == "device"
    import cudf

    assert isinstance(cugraph.bfs(G, start=int(df["source"][0])), cudf.DataFrame)


@pytest.mark.gpu
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("renumber", [True, False])
def test_to_cugraph_runs_cugraphs_own_algorithms(directed, renumber):
    import cudf
    import cugraph as real

    df = random_edges(500, 3000, 9, weighted=True)
    G = cugraph.Graph(directed=directed)
    G.from_cudf_edgelist(cudf.from_pandas(df), weight="weight", renumber=renumber,
                         vertices=cudf.Series(np.arange(502, dtype=np.int64)))
    H = G.to_cugraph()
    assert type(H) is real.Graph and H.is_directed() == directed
    assert H.number_of_vertices() == G.number_of_vertices() == 502
    assert H.number_of_edges() == G.number_of_edges()
    ours = G.degrees().to_pandas().sort_values("vertex", ignore_index=True)
    theirs = H.degrees().to_pandas().sort_values("vertex", ignore_index=True)
    pd.testing.assert_frame_equal(ours[theirs.columns], theirs, check_dtype=False)
    start = int(df["source"][0])
    ours = cugraph.sssp(G, start).to_pandas().sort_values("vertex", ignore_index=True)
    theirs = real.sssp(H, start).to_pandas().sort_values("vertex", ignore_index=True)
    np.testing.assert_allclose(ours["distance"], theirs["distance"], rtol=1e-6)
    assert len(real.katz_centrality(H, alpha=0.01)) == 502  # an algorithm we do not have


@pytest.mark.parametrize("built", [True, False])
def test_graph_stays_a_graph_through_pickle_copy_and_load(host_only, tmp_path, built):
    import copy
    import pickle

    G = cugraph.Graph(directed=True)
    df = random_edges(50, 200, 3)
    if built:
        G.from_pandas_edgelist(df)
    copies = [pickle.loads(pickle.dumps(G, protocol=p)) for p in (2, pickle.HIGHEST_PROTOCOL)]
    copies.append(copy.deepcopy(G))
    if built:
        G.save(tmp_path / "g.cgc")
        copies += [cugraph.Graph.load(tmp_path / "g.cgc")]
    for H in copies:
        assert type(H) is cugraph.Graph and H.is_directed()
        assert H.format == G.format
        if built:
            assert H.number_of_edges() == G.number_of_edges()
            start = int(df["source"].iloc[0])
            pd.testing.assert_frame_equal(
                host(cugraph.bfs(H, start=start)).sort_values("vertex").reset_index(drop=True),
                host(cugraph.bfs(G, start=start)).sort_values("vertex").reset_index(drop=True))
    # A plain CompressedGraph stays one, and load from the base class gives the base class.
    if built:
        assert type(cugraph.CompressedGraph.load(tmp_path / "g.cgc")) is cugraph.CompressedGraph
