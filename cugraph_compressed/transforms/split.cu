// Kernels of the algorithms on a split graph (transforms/algorithms.py).
//
// BFS: a 0/1 search, level by level, over the traversal core (traverse.cuh), seeded by
// bfs.cu's bfs_seed.  A hop into an
// original vertex (id < originals) costs 1, a hop into a synthetic one 0: a synthetic vertex
// reached while expanding level L belongs to level L and goes to a frontier of its own, which
// the driver expands within the same level until no synthetic vertex is newly reached; original
// vertices go to the next level's frontier.  A vertex is claimed by the first thread to set its
// bit in `visited`, which alone writes its distance and predecessor.
//
// WCC: the hooking of components.cu (find_root, Hook, wcc_compress), over edges that are not
// stored both ways: each edge is handed to Hook with its smaller end first.
#include "algorithms/components.cu"
#include "kernels/traverse.cuh"

// Reaching v from u while expanding level `level`.
template <typename D>
struct DiscoverSplit {
  uint32_t* visited;
  D* dist;
  D* pred;
  D* next;                              // originals: the next level's frontier
  unsigned long long* next_size;
  D* synthetic;                         // synthetic vertices: expanded within this level
  unsigned long long* synthetic_size;
  D level;
  int64_t originals;

  __device__ __forceinline__ void operator()(int64_t u, int64_t v) const {
    if (cgc::claim_bit(visited, v)) {
      pred[v] = (D)u;
      if (v < originals) {
        dist[v] = level + 1;
        cgc::append((D)v, next, next_size);
      } else {
        dist[v] = level;
        cgc::append((D)v, synthetic, synthetic_size);
      }
    }
  }
};

// Frontier lists cut into items of one thread each, or (PerWarp) the long ones into items of one
// warp each, decoded by its 32 lanes together.
template <class View, typename D, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
split_bfs_expand(const uint64_t* view, const D* frontier, const int64_t* scan, int64_t n,
                 int64_t total, int64_t item_size, uint32_t* visited, D* dist, D* pred, D* next,
                 unsigned long long* next_size, D* synthetic,
                 unsigned long long* synthetic_size, D level, int64_t originals) {
  const View g = View::load(view);
  const DiscoverSplit<D> discover{visited, dist,      pred,  next,     next_size,
                                  synthetic, synthetic_size, level, originals};
  cgc::for_each_list_item<PerWarp>(g, frontier, 0, scan, n, total, item_size,
                                   [&](int64_t u, int64_t, int64_t, auto&& decode) {
    decode([&](int64_t, int64_t v) { discover(u, v); });
  });
}

// Every list cut into items of one thread each, or (PerWarp) the long ones into items of one
// warp each; each edge links the trees of both its ends, whichever way it points.
template <class View, typename D, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
split_wcc_hook(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n,
               int64_t total, int64_t item_size, D* parent) {
  const View g = View::load(view);
  const Hook<D> hook{parent};
  cgc::for_each_list_item<PerWarp>(g, unused, 1, scan, n, total, item_size,
                                   [&](int64_t u, int64_t, int64_t, auto&& decode) {
    decode([&](int64_t, int64_t v) { hook(u < v ? u : v, u < v ? v : u); });
  });
}

// PageRank's product over the split lists, on the original edges they hold: an edge from the
// list of u to an original vertex v (v < originals) is the original edge between v and u's
// root r (u itself, or roots[u - originals] for a synthetic u); edges into synthetic vertices
// carry nothing (a synthetic vertex's sum reaches its root directly, undamped).  Pull: r adds
// values[v] * w(slot) over its edges (an item's sum, one atomic); push: each edge adds
// values[r] * w(slot) to v.  Sums are float64.  `every` pass over all lists, one item per
// thread, or (PerWarp) the long lists' items per warp, whose lanes reduce their sums first.
template <class View, typename D, typename W, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
split_pagerank_spmv(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n,
                    int64_t total, int64_t item_size, const W* weights, int weighted,
                    const double* values, const D* roots, int64_t originals, int pull,
                    double* out) {
  const View g = View::load(view);
  cgc::for_each_list_item<PerWarp>(g, unused, 1, scan, n, total, item_size,
                                   [&](int64_t u, int64_t, int64_t, auto&& decode) {
    const int64_t r = u < originals ? u : (int64_t)roots[u - originals];
    if (pull) {
      double sum = 0.0;
      decode([&](int64_t slot, int64_t v) {
        if (v < originals) sum += values[v] * (weighted ? (double)weights[slot] : 1.0);
      });
      if constexpr (PerWarp) {
        sum = cgc::warp_sum(sum);
        if (cgc::lane_id() == 0 && sum != 0.0) atomicAdd(out + r, sum);
      } else if (sum != 0.0) {
        atomicAdd(out + r, sum);
      }
    } else {
      const double mine = values[r];
      decode([&](int64_t slot, int64_t v) {
        if (v < originals) atomicAdd(out + v, mine * (weighted ? (double)weights[slot] : 1.0));
      });
    }
  });
}
