// Device view of the `csr` layout (buffers and invariants: formats/csr.py).
//
// Every layout's view offers the same members, so each algorithm kernel is written once:
//   WORDS             how many words of the argument block are its own (Layout.view_words);
//                     a checked build reads the bounds after them (kernels/common.cuh)
//   load(args)        the view from the argument block built by the layout's device_view()
//   first_edge(v)     property slot of v's first decoded neighbour
//   degree(v)         length of v's list
//   chunk_size()      ranks a decoder can start at: multiples of it (1 = random access)
//   for_each(v, first, begin, end, f)   f(slot, neighbour) for ranks begin .. end - 1, in one
//                                       thread; a callback returning bool stops the decode by
//                                       returning true (early exit, kernels/common.cuh emit)
//   warp_for_each(v, first, begin, end, f)   the same, called by the 32 lanes of a warp with
//                                       the same arguments; each rank goes to exactly one lane
//                                       (kernels/traverse.cuh: for_each_warp_item)
// Random access: lane i takes ranks begin + i, begin + i + 32, ..., so a warp reads consecutive
// indices (one coalesced load per 32 ranks).
// Checked builds (kernels/common.cuh) also compare each neighbour with the one of the rank
// before it: lists are strictly increasing.
#pragma once
#include "kernels/common.cuh"

namespace cgc {

template <typename V, typename O>
struct CsrView {
  static constexpr int WORDS = 2;  // offsets, indices
  Buffer<O> offsets;
  EdgeBuffer<V> indices;
  CGC_VIEW_BOUNDS(WORDS)

  __device__ static CsrView load(const uint64_t* args) {
    CsrView g{buffer<O, WORDS>(args, 0), edge_buffer<V, WORDS>(args, 1)};
    g.load_bounds(args);
    return g;
  }
  __device__ __forceinline__ int64_t first_edge(int64_t v) const { return (int64_t)offsets[v]; }
  __device__ __forceinline__ int64_t degree(int64_t v) const {
    return (int64_t)offsets[v + 1] - (int64_t)offsets[v];
  }
  __device__ __forceinline__ int64_t chunk_size() const { return 1; }
  // The neighbour at `slot` (traverse.cuh reads one-rank items' ahead of handing them on).
  __device__ __forceinline__ int64_t at(int64_t slot) const { return (int64_t)indices[slot]; }
  template <class F>
  __device__ __forceinline__ void for_each(int64_t v, int64_t first, int64_t begin, int64_t end,
                                           F&& f) const {
    for (int64_t r = begin; r < end; ++r) {
      CGC_REQUIRE(r == 0 || indices[first + r - 1] < indices[first + r], FAULT_ORDER, v)
      if (emit(f, first + r, (int64_t)indices[first + r])) return;
    }
  }
  template <class F>
  __device__ __forceinline__ void warp_for_each(int64_t v, int64_t first, int64_t begin,
                                                int64_t end, F&& f) const {
    for (int64_t r = begin + lane_id(); r < end; r += WARP) {
      CGC_REQUIRE(r == 0 || indices[first + r - 1] < indices[first + r], FAULT_ORDER, v)
      f(first + r, (int64_t)indices[first + r]);
    }
  }
};

}  // namespace cgc
