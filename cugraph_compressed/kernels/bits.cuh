// Reading and writing fields of a bit stream (layout documented in formats/bits.py):
// bit i is bit (i % 32) of word i / 32, least significant first; streams carry tail padding,
// so reading the two words at a data position never leaves the buffer (of a valid layout: a
// checked build bounds every read, kernels/common.cuh).
#pragma once
#include "kernels/common.cuh"

namespace cgc {

// A field read in two steps, so a decoder can issue the loads early and take the bits out
// when it needs them: load_bits loads the two words holding the field at bit position `pos`,
// take_bits takes its `width` (0..32) bits out.  `words` is a Buffer<uint32_t> or, for a
// per-edge stream, an EdgeBuffer<uint32_t> (each of the two words read goes to its own part,
// so a field across the split of a split stream reads right).
struct LoadedBits {
  uint32_t first, second;
  int shift;
};
template <class Words>
__device__ __forceinline__ LoadedBits load_bits(const Words& words, uint64_t pos) {
  const uint64_t w = pos >> 5;
  return {words[w], words[w + 1], (int)(pos & 31)};
}
__device__ __forceinline__ uint32_t take_bits(const LoadedBits& loaded, int width) {
  const uint64_t window = (uint64_t)loaded.first | ((uint64_t)loaded.second << 32);
  const uint64_t mask = width >= 32 ? 0xFFFFFFFFull : ((1ull << width) - 1ull);
  return (uint32_t)((window >> loaded.shift) & mask);
}

// The `width` (0..32) bits at bit position `pos`, read at once.
template <class Words>
__device__ __forceinline__ uint32_t read_bits(const Words& words, uint64_t pos, int width) {
  return take_bits(load_bits(words, pos), width);
}

// A field of `width` (0..64) bits at `pos`, stored as its low 32 bits at pos and the rest at
// pos + 32 (how the layouts write fields wider than 32 bits).
template <class Words>
__device__ __forceinline__ uint64_t read_wide_bits(const Words& words, uint64_t pos, int width) {
  const uint64_t low = read_bits(words, pos, width < 32 ? width : 32);
  return width > 32 ? low | ((uint64_t)read_bits(words, pos + 32, width - 32) << 32) : low;
}

// OR `value` into the stream at bit position `pos` (at most two words are touched).
__device__ __forceinline__ void or_bits(uint32_t* words, uint64_t pos, uint32_t value) {
  const uint64_t shifted = (uint64_t)value << (pos & 31);
  const uint64_t w = pos >> 5;
  if ((uint32_t)shifted) atomicOr(words + w, (uint32_t)shifted);
  if (shifted >> 32) atomicOr(words + w + 1, (uint32_t)(shifted >> 32));
}

}  // namespace cgc
