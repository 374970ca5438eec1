"""What a round of the multi-worker algorithms carries: a rank's steps run here directly on
one-rank partitions (no cluster), so that the messages of every round can be counted."""
import importlib

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order, shortest_path

from cugraph_compressed.dask.partition import DST, SRC, WEIGHT, build_partition
from cugraph_compressed.generators import rmat_edgelist

FORMATS = ["csr", "ef", "fl", "cgr"]
# The modules, not the functions the package exports under the same names.
mg_bfs = importlib.import_module("cugraph_compressed.dask.bfs")
mg_components = importlib.import_module("cugraph_compressed.dask.components")


def _edges(scale=9):
    df = pd.DataFrame(rmat_edgelist(scale, 8, seed=3))
    src, dst = df.columns[:2]
    df = df[df[src] != df[dst]].drop_duplicates([src, dst])
    return df[src].to_numpy(np.int64), df[dst].to_numpy(np.int64), 1 << scale


def _partition(src, dst, n, layout, directed=True, backend="host"):
    frame = pd.DataFrame({SRC: src.astype(np.int32), DST: dst.astype(np.int32),
                          WEIGHT: np.ones(src.size, dtype=np.float32)})
    spec = {"directed": directed, "format": layout, "layout_params": {}, "placement": "host",
            "backend": backend, "weighted": False, "num_vertices": n, "renumbered": False,
            "weight_dtype": None, "vertex_dtype": np.dtype(np.int32)}
    if not directed:
        back = frame.rename(columns={SRC: DST, DST: SRC})
        frame = pd.concat([frame.assign(backward=False), back.assign(backward=True)],
                          ignore_index=True)
    return build_partition(0, [0, n], frame, spec)


def _rounds(step, partition, first_inbox, args):
    """The proposals each round sent, one rank passing its outbox to itself."""
    state = step(partition, None, args(0), *first_inbox)
    sent = [state.report]
    level = 0
    while state.report:
        level += 1
        state = step(partition, state, args(level), *state.outbox)
        sent.append(state.report)
    return state, sent


@pytest.mark.parametrize("layout", FORMATS)
def test_bfs_sends_only_vertices_not_yet_reached(layout):
    src, dst, n = _edges()
    partition = _partition(src, dst, n, layout)
    start = int(src[0])
    seed = [(np.array([start], dtype=np.int64), np.array([-1], dtype=np.int64))]
    state, sent = _rounds(mg_bfs._level, partition, seed, lambda level: (level, None))
    adjacency = sp.csr_matrix((np.ones(src.size), (src, dst)), shape=(n, n))
    hops = shortest_path(adjacency, unweighted=True, indices=start)
    reached = breadth_first_order(adjacency, start, return_predecessors=False)
    assert np.array_equal(np.sort(np.flatnonzero(np.isfinite(hops))), np.sort(reached))
    # A round proposes each vertex of the next level once, and nothing already reached.
    levels = np.bincount(hops[np.isfinite(hops)].astype(np.int64))
    assert sent == [*levels[1:].tolist(), 0]
    dist = state.data["dist"]
    assert np.array_equal(np.where(dist == np.iinfo(dist.dtype).max, np.inf, dist), hops)


@pytest.mark.parametrize("layout", ["csr", "cgr"])
def test_wcc_sends_only_lower_labels(layout):
    src, dst, n = _edges()
    partition = _partition(src, dst, n, layout, directed=False)
    state, sent = _rounds(mg_components._round, partition, [], lambda level: ())
    labels = state.data["labels"]
    # Every proposal lowers a label: the first round's at most one per vertex whose smallest
    # neighbour is below it, none once labels settle.
    neighbours = sp.csr_matrix((np.ones(2 * src.size), (np.r_[src, dst], np.r_[dst, src])),
                               shape=(n, n)).tolil().rows
    lower_neighbour = sum(1 for v, row in enumerate(neighbours) if row and min(row) < v)
    assert sent[0] == lower_neighbour
    _, components = sp.csgraph.connected_components(
        sp.csr_matrix((np.ones(src.size), (src, dst)), shape=(n, n)), directed=False)
    smallest = pd.Series(np.arange(n)).groupby(components).transform("min").to_numpy()
    assert np.array_equal(labels, smallest)


@pytest.mark.gpu
@pytest.mark.parametrize("layout", FORMATS)
def test_device_decode_matches_the_host_decoder(layout, monkeypatch):
    import cupy as cp

    from cugraph_compressed.dask import device_decode

    monkeypatch.setattr(device_decode, "WINDOW_SLOTS", 64)  # a frontier over many windows
    src, dst, n = _edges()
    host = _partition(src, dst, n, layout)
    device = _partition(src, dst, n, layout, backend="device")
    for frontier in (np.unique(src[::7]), np.unique(src[:1]), np.zeros(0, dtype=np.int64)):
        expected = host.decode(frontier)
        found = device.decode(cp.asarray(frontier))
        for want, got in zip(expected, found):
            assert np.array_equal(np.asarray(want), cp.asnumpy(got))
