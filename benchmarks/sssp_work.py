#!/usr/bin/env python3
"""Work of the GPU SSSP's schedule, modelled on the CPU: edges relaxed and rounds of frontier
Bellman-Ford against near-far with several split steps, on an R-MAT graph with uniform weights
in [0, 1).  Chooses ``algorithms.sssp.BUCKET_EDGES``; GPU times come from run.py.

    python3 benchmarks/sssp_work.py 18 dir
"""
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))
from cugraph_compressed.generators import rmat_edgelist  # noqa: E402

scale = int(sys.argv[1]); directed = sys.argv[2] == "dir"
df = rmat_edgelist(scale, seed=3)
s = df["source"].to_numpy().astype(np.int64); d = df["destination"].to_numpy().astype(np.int64)
if not directed:
    s, d = np.concatenate([s, d]), np.concatenate([d, s])
n = 1 << scale
rng = np.random.default_rng(0); w = rng.random(s.size)
order = np.lexsort((d, s)); s, d, w = s[order], d[order], w[order]
off = np.zeros(n + 1, np.int64); np.add.at(off, s + 1, 1); off = np.cumsum(off)
deg = np.diff(off)
src = int(np.argmax(deg))

def expand(front):
    cnt = deg[front]; tot = cnt.sum()
    own = np.repeat(np.arange(front.size), cnt)
    base = np.repeat(off[front] - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt)
    idx = base + np.arange(tot)
    return front[own], d[idx], w[idx]

def run(delta):
    dist = np.full(n, np.inf); dist[src] = 0
    near = np.array([src]); far = np.zeros(n, bool); split = delta if delta else np.inf
    scanned = rounds = 0
    while True:
        while near.size:
            u, v, ww = expand(near); scanned += u.size; rounds += 1
            cand = dist[u] + ww
            best = np.full(n, np.inf); np.minimum.at(best, v, cand)
            t = np.unique(v); imp = t[best[t] < dist[t]]
            dist[imp] = best[imp]
            near = imp[dist[imp] < split]; far[imp[dist[imp] >= split]] = True
        fv = np.flatnonzero(far)
        fv = fv[dist[fv] >= split]  # stale ones were processed already
        far[:] = False
        if not fv.size: break
        split = max(split, dist[fv].min()) + delta
        near = fv[dist[fv] < split]; far[fv[dist[fv] >= split]] = True
    return scanned, rounds, dist

base = run(0)
print(f"scale {scale} {sys.argv[2]} E={s.size} bf scanned {base[0]/s.size:.2f}E rounds {base[1]}")
for delta in [0.05, 0.1, 0.2, 0.4, 0.8, 1.6]:
    sc, r, dist = run(delta)
    assert np.allclose(dist, base[2])
    print(f"  delta {delta}: scanned {sc/s.size:.2f}E rounds {r}")
