// Breadth-first search kernels: level-synchronous, top-down, load-balanced over frontier edges.
//
// Per level the driver (algorithms/bfs.py) launches `degrees` over the frontier, takes an
// inclusive prefix sum of the degrees (`scan`), then `expand` with one thread per frontier edge:
// each block owns a contiguous tile of BLOCK * ITEMS edges, finds the frontier vertices that own
// them by binary search in `scan`, and decodes the neighbours through the layout's view.  A long
// list is therefore shared by as many threads and blocks as it has edges.  A vertex is claimed
// by the first thread to set its bit in the `visited` bitmap; only that thread writes its
// distance and predecessor and appends it to the next frontier (one atomic per warp).
#include "kernels/common.cuh"
#include "formats/csr.cuh"

namespace cgc {

constexpr int BFS_BLOCK = 256;
constexpr int BFS_ITEMS = 4;

// Claim each source (duplicates collapse) and write the first frontier.
template <typename D>
__device__ void bfs_seed_impl(const D* sources, int64_t n, uint32_t* visited, D* dist,
                              D* frontier, unsigned long long* frontier_size) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t rounds = (n + stride - 1) / stride;  // the same for all threads: warp votes stay whole
  for (int64_t r = 0; r < rounds; ++r) {
    const int64_t i = r * stride + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    bool take = false;
    D s = 0;
    if (i < n) {
      s = sources[i];
      take = claim_bit(visited, s);
      if (take) dist[s] = 0;
    }
    warp_append(take, s, frontier, frontier_size);
  }
}

template <typename View, typename D>
__device__ void bfs_degrees_impl(const View& g, const D* frontier, int64_t n, int64_t* degrees) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
    degrees[i] = g.degree(frontier[i]);
}

template <typename View, typename D>
__device__ void bfs_expand_impl(const View& g, const D* frontier, const int64_t* scan, int64_t n,
                                int64_t total, uint32_t* visited, D* dist, D* pred, D* next,
                                unsigned long long* next_size, D next_level) {
  __shared__ int64_t owners[2];  // frontier index range [owners[0], owners[1]) of this tile
  const int64_t tile_begin = (int64_t)blockIdx.x * BFS_BLOCK * BFS_ITEMS;
  const int64_t tile_end = min(tile_begin + (int64_t)BFS_BLOCK * BFS_ITEMS, total);
  if (threadIdx.x == 0) {
    owners[0] = upper_bound(scan, (int64_t)0, n, tile_begin);
    owners[1] = upper_bound(scan, owners[0], n, tile_end - 1) + 1;
  }
  __syncthreads();
  const int64_t lo = owners[0], hi = owners[1];
#pragma unroll
  for (int j = 0; j < BFS_ITEMS; ++j) {
    const int64_t e = tile_begin + (int64_t)j * BFS_BLOCK + threadIdx.x;
    bool take = false;
    int64_t v = 0;
    if (e < tile_end) {
      const int64_t i = upper_bound(scan, lo, hi, e);  // scan[i - 1] <= e < scan[i]
      const int64_t rank = e - (i ? scan[i - 1] : 0);
      const int64_t u = frontier[i];
      v = g.neighbor(g.begin(u), rank);
      take = claim_bit(visited, v);
      if (take) {
        dist[v] = next_level;
        pred[v] = (D)u;
      }
    }
    warp_append(take, (D)v, next, next_size);
  }
}

}  // namespace cgc

template <typename D>
__global__ void __launch_bounds__(cgc::BFS_BLOCK)
bfs_seed(const D* sources, int64_t n, uint32_t* visited, D* dist, D* frontier,
         unsigned long long* frontier_size) {
  cgc::bfs_seed_impl(sources, n, visited, dist, frontier, frontier_size);
}

template <typename V, typename O, typename D>
__global__ void __launch_bounds__(cgc::BFS_BLOCK)
bfs_csr_degrees(const O* offsets, const V* indices, const D* frontier, int64_t n, int64_t* degrees) {
  const cgc::CsrView<V, O> g{offsets, indices};
  cgc::bfs_degrees_impl(g, frontier, n, degrees);
}

template <typename V, typename O, typename D>
__global__ void __launch_bounds__(cgc::BFS_BLOCK)
bfs_csr_expand(const O* offsets, const V* indices, const D* frontier, const int64_t* scan,
               int64_t n, int64_t total, uint32_t* visited, D* dist, D* pred, D* next,
               unsigned long long* next_size, D next_level) {
  const cgc::CsrView<V, O> g{offsets, indices};
  cgc::bfs_expand_impl(g, frontier, scan, n, total, visited, dist, pred, next, next_size, next_level);
}
