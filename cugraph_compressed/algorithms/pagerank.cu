// PageRank's sparse product over the traversal core: every item sums its edges' contributions
// privately and adds them to its owner with one atomic (pull, in-lists) or adds each edge's
// contribution to the neighbour (push, out-lists).
#include "algorithms/traverse.cuh"

template <class View, typename D, typename W>
__global__ void __launch_bounds__(cgc::BLOCK)
pagerank_spmv(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n,
              int64_t total, int64_t item_size, const W* weights, int weighted,
              const double* scaled, int pull, double* out) {
  const View g = View::load(view);
  cgc::for_each_item(g, unused, 1, scan, n, total, item_size,
                     [&](int64_t, int64_t u, int64_t first, int64_t begin, int64_t end) {
    if (pull) {
      double sum = 0.0;
      g.for_each(u, first, begin, end, [&](int64_t slot, int64_t v) {
        sum += scaled[v] * (weighted ? (double)weights[slot] : 1.0);
      });
      atomicAdd(out + u, sum);
    } else {
      const double mine = scaled[u];
      g.for_each(u, first, begin, end, [&](int64_t slot, int64_t v) {
        atomicAdd(out + v, mine * (weighted ? (double)weights[slot] : 1.0));
      });
    }
  });
}
