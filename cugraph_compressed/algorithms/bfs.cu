// Breadth-first search: level-synchronous and top-down over the traversal core (traverse.cuh).
// A vertex is claimed by the first thread to set its bit in the `visited` bitmap; only that
// thread writes its distance and predecessor and appends it to the next frontier.  Each level
// expands the frontier's short lists one item per thread and its long ones one item per warp
// (bfs_expand<..., PerWarp>); _device.list_passes says where the cut lies.
#include "kernels/traverse.cuh"

// Claim each source (duplicates collapse) and write the first frontier.
template <typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
bfs_seed(const D* sources, int64_t n, uint32_t* visited, D* dist, D* frontier,
         unsigned long long* frontier_size) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
    const D s = sources[i];
    if (cgc::claim_bit(visited, s)) {
      dist[s] = 0;
      cgc::append(s, frontier, frontier_size);
    }
  }
}

// What reaching v from u does: the first to claim v writes its distance and predecessor and
// appends it to the next frontier.
template <typename D>
struct Discover {
  uint32_t* visited;
  D* dist;
  D* pred;
  D* next;
  unsigned long long* next_size;
  D level;

  __device__ __forceinline__ void operator()(int64_t u, int64_t v) const {
    if (cgc::claim_bit(visited, v)) {
      dist[v] = level;
      pred[v] = (D)u;
      cgc::append((D)v, next, next_size);
    }
  }
};

// Frontier lists cut into items of one thread each, or (PerWarp) the long ones into items of one
// warp each, decoded by its 32 lanes together.
template <class View, typename D, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
bfs_expand(const uint64_t* view, const D* frontier, const int64_t* scan, int64_t n, int64_t total,
           int64_t item_size, uint32_t* visited, D* dist, D* pred, D* next,
           unsigned long long* next_size, D next_level) {
  const View g = View::load(view);
  const Discover<D> discover{visited, dist, pred, next, next_size, next_level};
  cgc::for_each_list_item<PerWarp>(g, frontier, 0, scan, n, total, item_size,
                                   [&](int64_t u, int64_t, int64_t, auto&& decode) {
    decode([&](int64_t, int64_t v) { discover(u, v); });
  });
}
