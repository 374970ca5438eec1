"""SSSP, PageRank and weakly connected components on the GPU, on every layout with a device
view, against cuGraph itself (inputs deduplicated before both libraries see them)."""
import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed.algorithms.components import weakly_connected_components
from cugraph_compressed.algorithms.pagerank import pagerank
from cugraph_compressed.algorithms.sssp import sssp
from cugraph_compressed.generators import rmat_edgelist
from graphs import random_edges

pytestmark = pytest.mark.gpu
DEVICE_LAYOUTS = cgc.supported()["sssp"]["device"]


def graphs():
    """(name, pandas frame, directed) triples: deduplicated, weighted, one direction per pair."""
    hub = pd.DataFrame({"source": np.zeros(120_000, np.int32),
                        "destination": np.arange(1, 120_001, dtype=np.int32)})
    out = []
    for name, df in [
        ("random", random_edges(20_000, 120_000, 80, dtype=np.int32)),
        ("rmat18", rmat_edgelist(18, seed=81)),
        ("hub", pd.concat([hub, random_edges(150_000, 300_000, 82, dtype=np.int32)], ignore_index=True)),
    ]:
        df = df[df["source"] != df["destination"]]
        df = df.assign(lo=np.minimum(df["source"], df["destination"]),
                       hi=np.maximum(df["source"], df["destination"]))
        df = df.drop_duplicates(["lo", "hi"])[["source", "destination"]].reset_index(drop=True)
        rng = np.random.default_rng(len(df))
        df["weight"] = (rng.random(len(df)) + 0.05).astype(np.float32)
        out += [(name, df, True), (name, df, False)]
    return out


GRAPHS = graphs()
IDS = [f"{name}-{'dir' if d else 'undir'}" for name, _, d in GRAPHS]


def both(df, directed, layout, **kwargs):
    import cudf
    import cugraph

    device_df = cudf.from_pandas(df)
    ours = cgc.CompressedGraph(directed=directed, format=layout).from_cudf_edgelist(
        device_df, renumber=False, weight="weight", **kwargs)
    theirs = cugraph.Graph(directed=directed)
    theirs.from_cudf_edgelist(device_df, source="source", destination="destination",
                              weight="weight", renumber=False, **kwargs)
    return ours, theirs


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("case", GRAPHS, ids=IDS)
def test_sssp_matches_cugraph(case, layout):
    import cugraph

    name, df, directed = case
    ours, theirs = both(df, directed, layout)
    source = int(df["source"][0])
    mine = sssp(ours, source).to_pandas().sort_values("vertex")
    ref = cugraph.sssp(theirs, source).to_pandas().sort_values("vertex")
    assert list(mine.columns) == list(ref.columns)
    assert mine["distance"].dtype == ref["distance"].dtype
    d, r = mine["distance"].to_numpy(np.float64), ref["distance"].to_numpy(np.float64)
    assert np.array_equal(d >= 3e38, r >= 3e38)
    reached = r < 3e38
    assert np.allclose(d[reached], r[reached], rtol=1e-5, atol=1e-6)
    # Every predecessor is an in-edge whose end is one weight closer to the source.
    pred = mine["predecessor"].to_numpy()
    edges = df if directed else pd.concat([df, df.rename(columns={"source": "destination", "destination": "source"})])
    weight = dict(zip(zip(edges["source"], edges["destination"]), edges["weight"]))
    vertices = np.flatnonzero(reached & (mine["vertex"].to_numpy() != source))
    for v in np.random.default_rng(0).choice(vertices, min(2000, vertices.size), replace=False):
        w = weight[(pred[v], v)]
        assert abs(d[pred[v]] + w - d[v]) <= 1e-5 * max(1.0, d[v])
    assert pred[source] == -1


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("case", GRAPHS, ids=IDS)
def test_pagerank_matches_cugraph(case, layout):
    import cugraph

    name, df, directed = case
    ours, theirs = both(df, directed, layout, store_transposed=True)
    # At tol=1e-8 float32 PageRank can sit on its rounding floor without meeting the L1 rule
    # (cuGraph does on the undirected graphs): both run to max_iter then, and are compared.
    mine, _ = pagerank(ours, tol=1e-8, max_iter=500, fail_on_nonconvergence=False)
    ref, _ = cugraph.pagerank(theirs, tol=1e-8, max_iter=500, fail_on_nonconvergence=False)
    mine, ref = mine.to_pandas().sort_values("vertex"), ref.to_pandas().sort_values("vertex")
    assert list(mine.columns) == list(ref.columns) and mine["pagerank"].dtype == ref["pagerank"].dtype
    assert np.abs(mine["pagerank"].to_numpy(np.float64) - ref["pagerank"].to_numpy(np.float64)).sum() < 1e-5


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_personalized_pagerank_matches_cugraph(layout):
    import cudf
    import cugraph

    _, df, _ = GRAPHS[2]
    ours, theirs = both(df, True, layout, store_transposed=True)
    pers = cudf.DataFrame({"vertex": np.array([3, 70, 900], np.int32), "values": np.array([1.0, 2.0, 0.5], np.float32)})
    mine = pagerank(ours, personalization=pers, tol=1e-8).to_pandas().sort_values("vertex")
    ref = cugraph.pagerank(theirs, personalization=pers, tol=1e-8).to_pandas().sort_values("vertex")
    assert np.abs(mine["pagerank"].to_numpy(np.float64) - ref["pagerank"].to_numpy(np.float64)).sum() < 1e-5


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
@pytest.mark.parametrize("case", [c for c in GRAPHS if not c[2]], ids=[i for i, c in zip(IDS, GRAPHS) if not c[2]])
def test_wcc_partition_matches_cugraph(case, layout):
    import cugraph

    name, df, _ = case
    sparse = df.iloc[::8]  # every 8th edge (of the hub's too): many components
    ours, theirs = both(sparse, False, layout)
    mine = weakly_connected_components(ours).to_pandas().sort_values("vertex")
    ref = cugraph.weakly_connected_components(theirs).to_pandas().sort_values("vertex")
    assert mine["labels"].dtype == ref["labels"].dtype
    pairs = pd.DataFrame({"a": mine["labels"].to_numpy(), "b": ref["labels"].to_numpy()}).drop_duplicates()
    assert pairs["a"].is_unique and pairs["b"].is_unique
    assert pairs.shape[0] > 1


@pytest.mark.parametrize("layout", DEVICE_LAYOUTS)
def test_device_results_equal_host_oracle(layout):
    import cudf

    _, df, _ = GRAPHS[0]
    host = cgc.CompressedGraph(directed=False, format=layout).from_pandas_edgelist(df, renumber=False, weight="weight", store_transposed=True)
    dev = cgc.CompressedGraph(directed=False, format=layout).from_cudf_edgelist(cudf.from_pandas(df), renumber=False, weight="weight", store_transposed=True)
    assert np.allclose(sssp(dev, 5).to_pandas()["distance"], sssp(host, 5)["distance"], rtol=1e-5)
    assert np.abs(pagerank(dev, tol=1e-9).to_pandas()["pagerank"] - pagerank(host, tol=1e-9)["pagerank"]).sum() < 1e-5
    assert np.array_equal(weakly_connected_components(dev).to_pandas()["labels"], weakly_connected_components(host)["labels"])


#: Layout parameters that make device decoding start mid-list often (small forward-pointer
#: strides and segments) or read unaligned fields, besides each layout's defaults.
VIEW_PARAMS = {"csr": [{"force_64bit": True}], "ef": [{"k": 3, "block_size": 2}, {"k": 16}],
               "fl": [{"index_width": 21, "offset_width": 27}],
               "cgr": [{"segment_size": 4, "min_interval_length": 2}]}
VIEW_CASES = [(layout, params) for layout in DEVICE_LAYOUTS
              for params in [{}] + VIEW_PARAMS.get(layout, [])]


@pytest.mark.parametrize("layout, params", VIEW_CASES, ids=[f"{l}-{p}" for l, p in VIEW_CASES])
@pytest.mark.parametrize("directed", [True, False])
def test_device_view_decodes_every_list(layout, params, directed):
    import cudf

    from cugraph_compressed.algorithms._device import decode_neighbours

    hub = pd.DataFrame({"source": np.full(5000, 7, np.int32), "destination": np.arange(5000, dtype=np.int32) * 13})
    df = pd.concat([rmat_edgelist(16, seed=83), hub], ignore_index=True)  # long lists, isolated ids
    G = cgc.CompressedGraph(directed=directed, format=layout, **params).from_cudf_edgelist(
        cudf.from_pandas(df), renumber=False)
    _, expected, positions = G._layout.to_coo()
    decoded = decode_neighbours(G._layout).get()
    assert np.array_equal(decoded[np.asarray(positions.get() if hasattr(positions, "get") else positions)],
                          np.asarray(expected.get() if hasattr(expected, "get") else expected))
