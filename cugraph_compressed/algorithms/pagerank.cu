// PageRank's sparse product over the traversal core.  Pull (in-lists, or an undirected graph's
// symmetric lists): every item sums its edges' contributions privately and stores the sum to its
// owner, with an atomic only when the owner's list spans several items.  Push (out-lists): each
// edge's contribution is added to its neighbour atomically.
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
      if (begin == 0 && end - begin < item_size) out[u] = sum;  // the whole list: no one else adds
      else atomicAdd(out + u, sum);
    } else {
      const double mine = scaled[u];
      g.for_each(u, first, begin, end, [&](int64_t slot, int64_t v) {
        atomicAdd(out + v, mine * (weighted ? (double)weights[slot] : 1.0));
      });
    }
  });
}
