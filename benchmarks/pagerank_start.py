#!/usr/bin/env python3
"""Products PageRank needs from two first steps, modelled on the CPU with SciPy: cuGraph's
(from 1 / n, the dangling vertices' mass spread uniformly) and one that spreads the first
step's dangling mass in proportion to the rest of the step (the step's non-dangling result,
rescaled to sum 1).  Both then iterate cuGraph's way until the L1 change drops below ``tol``.

A start that holds more mass on dangling vertices than the fixed point does loses it only by
about ``alpha`` a step; the proportional first step would remove that excess at once.  The
model counts products and the L1 distance of the result from the fixed point (200 steps).
Graphs are the benchmark's PageRank graphs: directed, self-loops and parallel edges dropped,
and only the ids that appear in an edge (``renumber=True``)::

    python3 benchmarks/pagerank_start.py --scales 18 20 21 --tol 1e-5 1e-6
"""
import argparse
import sys
from pathlib import Path

import numpy as np
from scipy import sparse

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from cugraph_compressed.generators import rmat_edgelist  # noqa: E402


class Model:
    """cuGraph's PageRank iteration on the in-lists of ``sources -> targets`` (n vertices)."""

    def __init__(self, n, sources, targets, alpha=0.85):
        self.n, self.alpha = n, alpha
        self.matrix = sparse.csr_matrix((np.ones(sources.size), (targets, sources)),
                                        shape=(n, n))
        out = np.bincount(sources, minlength=n).astype(np.float64)
        self.dangling = out == 0
        self.inverse = np.where(self.dangling, 0.0, 1.0 / np.where(self.dangling, 1.0, out))

    def step(self, scores, proportional=False):
        """One step from ``scores``: the dangling mass spread uniformly (cuGraph), or in
        proportion to the rest of the step."""
        rest = self.alpha * (self.matrix @ (scores * self.inverse))
        if proportional:
            rest = rest + (1.0 - self.alpha) / self.n
            return rest / rest.sum()
        spread = self.alpha * scores[self.dangling].sum() + 1.0 - self.alpha
        return rest + spread / self.n

    def run(self, tol, proportional_first=False, max_iter=500):
        """(products, scores): steps from 1 / n until the L1 change is below ``tol``."""
        scores = np.full(self.n, 1.0 / self.n)
        for products in range(1, max_iter + 1):
            fresh = self.step(scores, proportional_first and products == 1)
            change = np.abs(fresh - scores).sum()
            scores = fresh
            if change < tol:
                return products, scores
        raise RuntimeError(f"no convergence to {tol} in {max_iter} steps")

    def fixed_point(self, steps=200):
        scores = np.full(self.n, 1.0 / self.n)
        for _ in range(steps):
            scores = self.step(scores)
        return scores


def rmat_model(scale, seed=42):
    """The benchmark's PageRank graph: ids that appear in an edge only (``renumber=True``;
    R-MAT leaves many of ``2**scale`` without edges, each of them dangling)."""
    df = rmat_edgelist(scale, seed=seed, weighted=False, backend="host")
    df = df[df["source"] != df["destination"]].drop_duplicates(["source", "destination"])
    ids, ends = np.unique(np.concatenate([df["source"].to_numpy(np.int64),
                                          df["destination"].to_numpy(np.int64)]),
                          return_inverse=True)
    return Model(ids.size, ends[:len(df)], ends[len(df):])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scales", type=int, nargs="+", default=[18, 20])
    p.add_argument("--tol", type=float, nargs="+", default=[1e-5, 1e-6])
    args = p.parse_args(argv)
    print("scale  dangling  tol     products: uniform  proportional   "
          "L1 from the fixed point: uniform  proportional")
    for scale in args.scales:
        model = rmat_model(scale)
        exact = model.fixed_point()
        for tol in args.tol:
            uniform, a = model.run(tol)
            proportional, b = model.run(tol, proportional_first=True)
            print(f"{scale:5}  {model.dangling.mean():8.2f}  {tol:6.0e}  {uniform:17}  "
                  f"{proportional:12}   {np.abs(a - exact).sum():32.1e}  "
                  f"{np.abs(b - exact).sum():12.1e}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
