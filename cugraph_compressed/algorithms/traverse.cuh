// The traversal core shared by every algorithm kernel: work over the lists of a vertex set
// (a frontier, or all vertices), split into items of a fixed number of ranks and spread evenly
// over thread blocks, whatever the degree skew.
//
// Protocol: the driver launches count_items over the vertex set, takes an inclusive prefix sum
// of the counts (`scan`), then a kernel that calls for_each_item.  Each block owns a tile of
// BLOCK * ITEMS consecutive items, finds their owners by binary search in its slice of `scan`
// (in shared memory when it fits) and hands each item to the caller's functor:
//   f(i, u, first, begin, end)   i: index in the vertex set, u: the vertex, first: property slot
//                                of u's first neighbour, ranks begin .. end - 1 of u's list.
// An item covers `item_size` ranks, a multiple of the view's chunk_size() (where its decoder
// can start), so long lists are shared by many threads and blocks.
#pragma once
#include "kernels/common.cuh"
#include "formats/views.cuh"

namespace cgc {

constexpr int BLOCK = 256;
constexpr int ITEMS = 4;

template <typename D>
__device__ __forceinline__ int64_t member(const D* vertices, int all, int64_t i) {
  return all ? i : (int64_t)vertices[i];
}

template <class View, typename D>
__device__ void count_items_impl(const View& g, const D* vertices, int all, int64_t n,
                                 int64_t item_size, int64_t* counts) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
    counts[i] = (g.degree(member(vertices, all, i)) + item_size - 1) / item_size;
}

template <class View, typename D, class F>
__device__ void for_each_item(const View& g, const D* vertices, int all, const int64_t* scan,
                              int64_t n, int64_t total, int64_t item_size, F&& f) {
  constexpr int TILE = BLOCK * ITEMS;
  __shared__ int64_t owners[3];        // vertex-set range [lo, hi) of this tile, scan[lo - 1]
  __shared__ int64_t tile_scan[TILE];  // scan[lo, hi) when it fits
  const int64_t tile_begin = (int64_t)blockIdx.x * TILE;
  const int64_t tile_end = min(tile_begin + (int64_t)TILE, total);
  if (threadIdx.x == 0) {
    owners[0] = upper_bound(scan, (int64_t)0, n, tile_begin);
    owners[1] = upper_bound(scan, owners[0], n, tile_end - 1) + 1;
    owners[2] = owners[0] ? scan[owners[0] - 1] : 0;
  }
  __syncthreads();
  const int64_t lo = owners[0], hi = owners[1], before = owners[2];
  // Vertices without items can make the range longer than the tile; then search globally.
  const bool local = hi - lo <= TILE;
  if (local)
    for (int64_t k = threadIdx.x; k < hi - lo; k += BLOCK) tile_scan[k] = scan[lo + k];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int64_t item = tile_begin + (int64_t)j * BLOCK + threadIdx.x;
    if (item >= tile_end) continue;
    int64_t i, start;  // owner's index in the vertex set, and items before it
    if (local) {
      const int64_t k = upper_bound(tile_scan, (int64_t)0, hi - lo, item);
      i = lo + k;
      start = k ? tile_scan[k - 1] : before;
    } else {
      i = upper_bound(scan, lo, hi, item);
      start = i > lo ? scan[i - 1] : before;
    }
    const int64_t u = member(vertices, all, i);
    const int64_t begin = (item - start) * item_size;
    const int64_t end = min(begin + item_size, g.degree(u));
    f(i, u, g.first_edge(u), begin, end);
  }
}

}  // namespace cgc
