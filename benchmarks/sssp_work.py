#!/usr/bin/env python3
"""Work of the GPU SSSP's schedule, modelled on the CPU: edges relaxed and rounds of frontier
Bellman-Ford against near-far with several split steps, on an R-MAT graph with uniform weights
in [0, 1).  It chose ``algorithms.sssp.BUCKET_EDGES``; GPU times come from ``run.py``.

    python3 benchmarks/sssp_work.py 18 dir
"""
import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


class Csr:
    """Out-lists of an R-MAT graph with uniform random weights (parallel edges kept)."""

    def __init__(self, scale, directed, seed=3):
        df = rmat_edgelist(scale, seed=seed)
        src = df["source"].to_numpy(np.int64)
        dst = df["destination"].to_numpy(np.int64)
        if not directed:
            src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        weight = np.random.default_rng(0).random(src.size)
        order = np.lexsort((dst, src))
        self.n = 1 << scale
        self.dst, self.weight = dst[order], weight[order]
        self.offsets = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=self.n))])
        self.degree = np.diff(self.offsets)

    def out_edges(self, frontier):
        """(source, target, weight) of every out-edge of the frontier."""
        counts = self.degree[frontier]
        owner = np.repeat(np.arange(frontier.size), counts)
        starts = np.repeat(self.offsets[frontier] - np.cumsum(counts) + counts, counts)
        at = starts + np.arange(counts.sum())
        return frontier[owner], self.dst[at], self.weight[at]


def near_far(g, source, step):
    """The GPU schedule (sssp.cu): rounds relax the near frontier; improved vertices at or above
    the split wait in the far set until the near one is empty.  step=inf is Bellman-Ford.
    Returns (distances, edges relaxed, rounds)."""
    dist = np.full(g.n, np.inf)
    dist[source] = 0.0
    near, far = np.array([source]), np.zeros(g.n, bool)
    split, relaxed, rounds = step, 0, 0
    while True:
        while near.size:
            u, v, w = g.out_edges(near)
            relaxed, rounds = relaxed + u.size, rounds + 1
            best = np.full(g.n, np.inf)
            np.minimum.at(best, v, dist[u] + w)
            targets = np.unique(v)
            improved = targets[best[targets] < dist[targets]]
            dist[improved] = best[improved]
            near = improved[dist[improved] < split]
            far[improved[dist[improved] >= split]] = True
        waiting = np.flatnonzero(far)
        waiting = waiting[dist[waiting] >= split]  # the others were relaxed in a near pile
        far[:] = False
        if not waiting.size:
            return dist, relaxed, rounds
        split = max(split, dist[waiting].min()) + step  # empty buckets skipped
        near = waiting[dist[waiting] < split]
        far[waiting[dist[waiting] >= split]] = True


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scale", type=int)
    p.add_argument("direction", choices=("dir", "undir"))
    p.add_argument("--steps", type=float, nargs="+", default=[0.05, 0.1, 0.2, 0.4, 0.8, 1.6])
    args = p.parse_args(argv)
    g = Csr(args.scale, args.direction == "dir")
    edges = g.dst.size
    source = int(np.argmax(g.degree))
    exact, relaxed, rounds = near_far(g, source, np.inf)
    print(f"R-MAT {args.scale} {args.direction}, {edges:,} edges, mean degree {edges / g.n:.1f}")
    print(f"  Bellman-Ford: {relaxed / edges:.2f} x edges relaxed, {rounds} rounds")
    for step in args.steps:
        dist, relaxed, rounds = near_far(g, source, step)
        assert np.allclose(dist, exact, equal_nan=True)
        print(f"  near-far, step {step}: {relaxed / edges:.2f} x edges relaxed, {rounds} rounds")


if __name__ == "__main__":
    main()
