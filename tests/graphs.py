"""Test graphs and independent references (SciPy), shared by the test modules."""
from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse import csgraph


def random_edges(num_vertices, num_edges, seed, dtype=np.int64, weighted=False):
    """A random edge frame with self loops and parallel edges left in on purpose."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "source": rng.integers(0, num_vertices, num_edges).astype(dtype),
        "destination": rng.integers(0, num_vertices, num_edges).astype(dtype),
    })
    if weighted:
        df["weight"] = rng.random(num_edges).astype(np.float32) + np.float32(0.01)
    return df


def adjacency(src, dst, num_vertices, directed):
    """0/1 SciPy CSR adjacency of the distinct edges (both directions when undirected)."""
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    if not directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    a = sp.coo_matrix((np.ones(src.size), (src, dst)), shape=(num_vertices, num_vertices)).tocsr()
    a.data[:] = 1.0
    return a


def weighted_adjacency(df, num_vertices, directed):
    """SciPy CSR of the edge frame's weights after our dedup rule (smallest weight per pair;
    an undirected edge given both ways gets the mean of the two smallest)."""
    edges = df.groupby(["source", "destination"], as_index=False)["weight"].min()
    src, dst, w = (edges[c].to_numpy() for c in ("source", "destination", "weight"))
    w = w.astype(np.float64)
    if not directed:
        table = pd.DataFrame({"u": np.concatenate([src, dst]), "v": np.concatenate([dst, src]),
                              "w": np.concatenate([w, w]), "given": np.r_[np.ones(src.size), np.zeros(src.size)]})
        table = table[(table["given"] == 1) | (table["u"] != table["v"])]
        mean = table.groupby(["u", "v"], as_index=False)["w"].mean()
        src, dst, w = mean["u"].to_numpy(), mean["v"].to_numpy(), mean["w"].to_numpy()
    a = sp.csr_matrix((w, (src, dst)), shape=(num_vertices, num_vertices))
    a.sort_indices()
    return a


def reference_bfs(a, sources, depth_limit=None):
    """Hop distances from the nearest source (float, inf = unreachable), by SciPy."""
    dist = csgraph.shortest_path(a, unweighted=True, directed=True, indices=np.unique(sources))
    dist = np.atleast_2d(dist).min(axis=0)
    if depth_limit is not None:
        dist[dist > depth_limit] = np.inf
    return dist


def check_bfs_result(dist, pred, a, sources, depth_limit, sentinel):
    """Distances equal SciPy's; every predecessor is an in-edge one hop closer to a source."""
    expected = reference_bfs(a, sources, depth_limit)
    reached = np.isfinite(expected)
    assert np.array_equal(dist[reached], expected[reached].astype(np.int64))
    assert np.all(dist[~reached] == sentinel)
    assert np.all(pred[~reached] == -1)
    sources = np.unique(sources)
    assert np.all(pred[sources] == -1) and np.all(dist[sources] == 0)
    others = np.flatnonzero(reached)
    others = others[~np.isin(others, sources)]
    p = pred[others]
    assert np.all(p >= 0)
    assert np.all(np.asarray(a[p, others]).ravel() > 0), "predecessor is not an in-edge"
    assert np.array_equal(dist[p] + 1, dist[others])


def check_against_scipy(df, result, directed, sources, depth_limit=None, vertices=None, ids=None):
    """Map user ids to 0..n-1 independently (sorted distinct ids) and compare with SciPy."""
    if ids is None:
        parts = [df["source"].to_numpy(), df["destination"].to_numpy()]
        if vertices is not None:
            parts.append(np.asarray(vertices))
        ids = np.unique(np.concatenate(parts))
    position = pd.Index(ids)
    a = adjacency(position.get_indexer(df["source"]), position.get_indexer(df["destination"]),
                  len(ids), directed)
    assert len(result) == len(ids)
    order = position.get_indexer(result["vertex"])
    assert np.array_equal(np.sort(order), np.arange(len(ids)))
    dist = np.empty(len(ids), np.int64)
    dist[order] = result["distance"].to_numpy()
    raw_pred = result["predecessor"]
    has_pred = raw_pred.to_numpy() != -1
    pred = np.full(len(ids), -1, np.int64)
    pred[order[has_pred]] = position.get_indexer(raw_pred[has_pred])
    sentinel = np.iinfo(result["distance"].dtype).max
    check_bfs_result(dist, pred, a, position.get_indexer(np.atleast_1d(sources)), depth_limit, sentinel)


def device_rmat_sorted(scale, seed=42):
    """Sorted, deduplicated R-MAT edges on the GPU (CuPy ``src``, ``dst``) and ``2**scale``:
    what a layout encoder receives from ``from_cudf_edgelist``."""
    import cupy as cp

    from cugraph_compressed._edgelist import sort_and_dedup
    from cugraph_compressed.generators import rmat_edgelist

    df = rmat_edgelist(scale, seed=seed, backend="device")
    src, dst = df["source"].values, df["destination"].values
    del df
    src, dst, _ = sort_and_dedup(src, dst, {}, 2**scale, cp)
    return src, dst, 2**scale


def bits_of(words, first_bit, count):
    """Bits ``first_bit .. first_bit + count - 1`` of a host stream, as a stream of their own."""
    from cugraph_compressed.formats._bits import read_fields, stream_words

    k = np.arange(-(-count // 32), dtype=np.int64)
    widths = np.minimum(32, count - 32 * k)
    out = np.zeros(stream_words(count), np.uint32)
    out[:k.size] = read_fields(words, first_bit + 32 * k, widths).astype(np.uint32)
    return out


def sampled_lists(dedup, n):
    """Vertex ranges ``[a, b)`` of a deduplicated cuDF edge frame over ``n`` vertices (its head,
    middle, tail and its largest list) with their edges on the host, sorted:
    ``(a, b, src, dst)`` each, ``src`` and ``dst`` int64."""
    import cupy as cp

    hub = int(cp.argmax(cp.bincount(dedup["source"].values, minlength=n)))
    for a, b in [(0, 2000), (n // 2 - 1000, n // 2 + 1000), (n - 2000, n), (hub, hub + 1)]:
        part = dedup[(dedup["source"] >= a) & (dedup["source"] < b)].to_pandas()
        part = part.sort_values(["source", "destination"])
        yield a, b, part["source"].to_numpy(np.int64), part["destination"].to_numpy(np.int64)
