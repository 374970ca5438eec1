// Device view of the `csr` layout (buffers and invariants: formats/csr.py).
//
// Every layout's view offers the same members, so each algorithm kernel is written once:
//   load(args)        the view from the argument block built by the layout's device_view()
//   first_edge(v)     property slot of v's first decoded neighbour
//   degree(v)         length of v's list
//   chunk_size()      ranks a decoder can start at: multiples of it (1 = random access)
//   for_each(v, first, begin, end, f)   f(slot, neighbour) for ranks begin .. end - 1, in one
//                                       thread
//   warp_for_each(v, first, begin, end, f)   the same, called by the 32 lanes of a warp with
//                                       the same arguments; each rank goes to exactly one lane
//                                       (algorithms/traverse.cuh: for_each_warp_item)
// Random access: lane i takes ranks begin + i, begin + i + 32, ..., so a warp reads consecutive
// indices (one coalesced load per 32 ranks).
#pragma once
#include "kernels/common.cuh"

namespace cgc {

template <typename V, typename O>
struct CsrView {
  const O* offsets;
  const V* indices;

  __device__ static CsrView load(const uint64_t* args) {
    return {reinterpret_cast<const O*>(args[0]), reinterpret_cast<const V*>(args[1])};
  }
  __device__ __forceinline__ int64_t first_edge(int64_t v) const { return (int64_t)offsets[v]; }
  __device__ __forceinline__ int64_t degree(int64_t v) const {
    return (int64_t)offsets[v + 1] - (int64_t)offsets[v];
  }
  __device__ __forceinline__ int64_t chunk_size() const { return 1; }
  template <class F>
  __device__ __forceinline__ void for_each(int64_t v, int64_t first, int64_t begin, int64_t end,
                                           F&& f) const {
    for (int64_t r = begin; r < end; ++r) f(first + r, (int64_t)indices[first + r]);
  }
  template <class F>
  __device__ __forceinline__ void warp_for_each(int64_t v, int64_t first, int64_t begin,
                                                int64_t end, F&& f) const {
    for (int64_t r = begin + lane_id(); r < end; r += WARP)
      f(first + r, (int64_t)indices[first + r]);
  }
};

}  // namespace cgc
