// Kernels of the algorithms on a virtually split graph (transforms/virtual_device.py), each a
// pass over the parts of a vertex set's lists (virtual_parts.cuh).  Values stay on the physical
// vertex: the per-edge routines are the algorithms' own (bfs.cu's Discover, sssp.cu's Relax,
// components.cu's Hook) or, for PageRank's product, one atomic per part.
#include "algorithms/bfs.cu"
#include "algorithms/components.cu"
#include "algorithms/sssp.cu"
#include "kernels/traverse.cuh"
#include "transforms/virtual_parts.cuh"

// BFS, one top-down level: the first to claim v (bfs.cu's Discover) writes its level and
// predecessor and appends it to the next frontier.
template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
virtual_bfs_expand(const uint64_t* view, const D* frontier, const int64_t* scan, int64_t n,
                   int64_t total, int64_t item_size, int coalesce, uint32_t* visited, D* dist,
                   D* pred, D* next, unsigned long long* next_size, D next_level) {
  const View g = View::load(view);
  const Discover<D> discover{visited, dist, pred, next, next_size, next_level};
  for_each_part(g, frontier, 0, scan, n, total, item_size, coalesce,
                [&](int64_t u, auto&& decode) {
    decode([&](int64_t, int64_t v) { discover(u, v); });
  });
}

// SSSP, one Bellman-Ford round over the frontier: sssp.cu's Relax with no far pile (its split
// is the cutoff, which every kept candidate is below), so every improved vertex joins the next
// frontier once (the `queued` bitmap).
template <class View, typename D, typename W>
__global__ void __launch_bounds__(cgc::BLOCK)
virtual_sssp_relax(const uint64_t* view, const D* frontier, const int64_t* scan, int64_t n,
                   int64_t total, int64_t item_size, int coalesce, const W* weights,
                   W cutoff, W* dist, uint32_t* queued, D* next,
                   unsigned long long* next_size) {
  const View g = View::load(view);
  const Relax<D, W, Distances<W>> relax{weights, cutoff, cutoff, Distances<W>{dist},
                                        queued, nullptr, next, next_size};
  for_each_part(g, frontier, 0, scan, n, total, item_size, coalesce,
                [&](int64_t u, auto&& decode) {
    const W du = dist[u];
    decode([&](int64_t slot, int64_t v) { relax(u, du, slot, v); });
  });
}

// WCC: every edge links the trees of its ends (components.cu's Hook, smaller end first).
template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
virtual_wcc_hook(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n,
                 int64_t total, int64_t item_size, int coalesce, D* parent) {
  const View g = View::load(view);
  const Hook<D> hook{parent};
  for_each_part(g, unused, 1, scan, n, total, item_size, coalesce,
                [&](int64_t u, auto&& decode) {
    decode([&](int64_t, int64_t v) { hook(u, v); });
  });
}

// PageRank's product over every list: pull adds values[v] * w(slot) into u's entry (a part's
// sum, one atomic), push adds values[u] * w(slot) into each v's.  Sums are float64.
template <class View, typename D, typename W>
__global__ void __launch_bounds__(cgc::BLOCK)
virtual_pagerank_spmv(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n,
                      int64_t total, int64_t item_size, int coalesce, const W* weights,
                      int weighted, const double* values, int pull, double* out) {
  const View g = View::load(view);
  for_each_part(g, unused, 1, scan, n, total, item_size, coalesce,
                [&](int64_t u, auto&& decode) {
    if (pull) {
      double sum = 0.0;
      decode([&](int64_t slot, int64_t v) {
        sum += values[v] * (weighted ? (double)weights[slot] : 1.0);
      });
      if (sum != 0.0) atomicAdd(out + u, sum);
    } else {
      const double mine = values[u];
      decode([&](int64_t slot, int64_t v) {
        atomicAdd(out + v, mine * (weighted ? (double)weights[slot] : 1.0));
      });
    }
  });
}
