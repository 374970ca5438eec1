// Device view of the `fl` layout (buffers, bit order and padding: formats/fixed_length.py).
// Random access: entry k of a stream of width w is the field at bit k * w (fields wider than
// 32 bits are read as their low 32 bits and the rest), so every rank is a valid start.  In
// warp_for_each lane i takes ranks begin + i, begin + i + 32, ...: the warp reads 32 consecutive
// fields, i.e. 32 * w consecutive bits, with coalesced loads.  Checked builds also compare each
// neighbour with the one of the rank before it: lists are strictly increasing.
#pragma once
#include "kernels/bits.cuh"

namespace cgc {

struct FlView {
  static constexpr int WORDS = 4;  // offsets, indices, offset_width, index_width
  Buffer<uint32_t> offsets;
  EdgeBuffer<uint32_t> indices;
  int offset_width;
  int index_width;
  CGC_VIEW_BOUNDS(WORDS)

  __device__ static FlView load(const uint64_t* args) {
    FlView g{buffer<uint32_t, WORDS>(args, 0), edge_buffer<uint32_t, WORDS>(args, 1), (int)args[2],
             (int)args[3]};
    g.load_bounds(args);
    return g;
  }
  template <class Stream>
  __device__ static __forceinline__ int64_t field(const Stream& stream, int64_t k, int width) {
    return (int64_t)read_wide_bits(stream, (uint64_t)k * (uint64_t)width, width);
  }
  __device__ __forceinline__ int64_t first_edge(int64_t v) const { return field(offsets, v, offset_width); }
  __device__ __forceinline__ int64_t degree(int64_t v) const {
    return field(offsets, v + 1, offset_width) - field(offsets, v, offset_width);
  }
  __device__ __forceinline__ int64_t chunk_size() const { return 1; }
  // The neighbour at `slot` (traverse.cuh reads one-rank items' ahead of handing them on).
  __device__ __forceinline__ int64_t at(int64_t slot) const {
    return field(indices, slot, index_width);
  }
  template <class F>
  __device__ __forceinline__ void for_each(int64_t v, int64_t first, int64_t begin, int64_t end,
                                           F&& f) const {
    for (int64_t r = begin; r < end; ++r) {
      CGC_REQUIRE(r == 0 || field(indices, first + r - 1, index_width) <
                                field(indices, first + r, index_width), FAULT_ORDER, v)
      if (emit(f, first + r, field(indices, first + r, index_width))) return;
    }
  }
  template <class F>
  __device__ __forceinline__ void warp_for_each(int64_t v, int64_t first, int64_t begin,
                                                int64_t end, F&& f) const {
    for (int64_t r = begin + lane_id(); r < end; r += WARP) {
      CGC_REQUIRE(r == 0 || field(indices, first + r - 1, index_width) <
                                field(indices, first + r, index_width), FAULT_ORDER, v)
      f(first + r, field(indices, first + r, index_width));
    }
  }
};

}  // namespace cgc
