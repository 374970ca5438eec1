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
  constexpr int TILE = BFS_BLOCK * BFS_ITEMS;
  __shared__ int64_t owners[3];      // frontier range [lo, hi) of this tile, scan[lo - 1]
  __shared__ int64_t tile_scan[TILE];  // scan[lo, hi) when it fits: searched ITEMS times per thread
  const int64_t tile_begin = (int64_t)blockIdx.x * TILE;
  const int64_t tile_end = min(tile_begin + (int64_t)TILE, total);
  if (threadIdx.x == 0) {
    owners[0] = upper_bound(scan, (int64_t)0, n, tile_begin);
    owners[1] = upper_bound(scan, owners[0], n, tile_end - 1) + 1;
    owners[2] = owners[0] ? scan[owners[0] - 1] : 0;
  }
  __syncthreads();
  const int64_t lo = owners[0], hi = owners[1], before = owners[2];
  // Zero-degree frontier vertices can make the range longer than the tile; then search globally.
  const bool local = hi - lo <= TILE;
  if (local)
    for (int64_t k = threadIdx.x; k < hi - lo; k += BFS_BLOCK) tile_scan[k] = scan[lo + k];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < BFS_ITEMS; ++j) {
    const int64_t e = tile_begin + (int64_t)j * BFS_BLOCK + threadIdx.x;
    bool take = false;
    int64_t v = 0;
    if (e < tile_end) {
      int64_t i, start;  // owner's frontier index and the scan value before it: start <= e < scan[i]
      if (local) {
        const int64_t k = upper_bound(tile_scan, (int64_t)0, hi - lo, e);
        i = lo + k;
        start = k ? tile_scan[k - 1] : before;
      } else {
        i = upper_bound(scan, lo, hi, e);
        start = i > lo ? scan[i - 1] : before;
      }
      const int64_t u = frontier[i];
      v = g.neighbor(g.begin(u), e - start);
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

#ifndef __CUDACC_RTC__
// nvcc builds (register and spill reports) need explicit instantiations; NVRTC uses name expressions.
template __global__ void bfs_seed<int>(const int*, int64_t, uint32_t*, int*, int*, unsigned long long*);
template __global__ void bfs_csr_degrees<int, int, int>(const int*, const int*, const int*, int64_t, int64_t*);
template __global__ void bfs_csr_expand<int, int, int>(const int*, const int*, const int*, const int64_t*,
    int64_t, int64_t, uint32_t*, int*, int*, int*, unsigned long long*, int);
#endif
