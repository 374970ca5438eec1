// Weakly connected components by hooking with compare-and-swap (as in ECL-CC): one pass over
// the edges links the trees of both ends, always the larger root under the smaller, so after
// the pass and a final compression every vertex points at the smallest vertex of its
// component.  Each undirected edge is stored both ways; only u < v is processed.  Short lists
// go one item per thread, long ones one item per warp (_device.list_passes says where the cut lies),
// with the same hooking routine.
#include "kernels/traverse.cuh"

template <typename D>
__device__ __forceinline__ D find_root(D* parent, D v) {
  D p = parent[v];
  while (p != v) {
    const D grand = parent[p];
    if (grand != p) parent[v] = grand;  // path halving; a stale write is still an ancestor
    v = p;
    p = grand;
  }
  return v;
}

// Hooking the edge (u, v), once per undirected edge (u < v): link the trees of both ends.
template <typename D>
struct Hook {
  D* parent;

  __device__ __forceinline__ void operator()(int64_t u, int64_t v) const {
    if (v <= u) return;
    D a = find_root(parent, (D)u), b = find_root(parent, (D)v);
    while (a != b) {
      if (a < b) { const D t = a; a = b; b = t; }  // hook the larger root a under b
      const D seen = atomicCAS(reinterpret_cast<typename cgc::AtomicWord<D>::type*>(parent + a),
                               (typename cgc::AtomicWord<D>::type)a,
                               (typename cgc::AtomicWord<D>::type)b);
      if (seen == a) break;
      a = find_root(parent, (D)seen);
      b = find_root(parent, b);
    }
  }
};

// Every list cut into items of one thread each, or (PerWarp) the long ones into items of one
// warp each, decoded by its 32 lanes together.
template <class View, typename D, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
wcc_hook(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n, int64_t total,
         int64_t item_size, D* parent) {
  const View g = View::load(view);
  const Hook<D> hook{parent};
  cgc::for_each_list_item<PerWarp>(g, unused, 1, scan, n, total, item_size,
                                   [&](int64_t u, int64_t, int64_t, auto&& decode) {
    decode([&](int64_t, int64_t v) { hook(u, v); });
  });
}

// Point every vertex at its root.  No path splitting here: a splitting write that lands after
// the owner's final write would leave a non-root label behind.  Without it every write stores
// a root, so concurrent walks still end at roots.
template <typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
wcc_compress(D* parent, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t v = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; v < n; v += stride) {
    D root = parent[v];
    while (parent[root] != root) root = parent[root];
    parent[v] = root;
  }
}
