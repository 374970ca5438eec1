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

// A reader of consecutive fields from bit position `pos` on, for decoders whose next field's
// position depends on the field before (gap codes).  It holds the next 32..63 bits in a
// register and the word after them already loaded, so taking a field waits on no load: a
// refill uses the word loaded one refill earlier and issues the next load.  The last word it
// loads holds bit position() + 63 at most, so from any position up to the end of the data it
// stays within the stream's two words of tail padding (formats/bits.py).  The stream is passed
// to each call, not held, so the view holding it stays in registers.
struct BitCursor {
  uint64_t bits;   // the stream from the cursor on, least significant first; zeros past `avail`
  int avail;       // valid bits in `bits`: 32..63 between calls
  uint32_t ahead;  // the word after them
  uint64_t next;   // the index of the word after `ahead`

  template <class Words>
  __device__ __forceinline__ BitCursor(const Words& words, uint64_t pos) {
    const LoadedBits window = load_bits(words, pos);
    bits = (uint64_t)(window.first >> window.shift);
    avail = 32 - window.shift;
    ahead = window.second;
    next = (pos >> 5) + 2;
    refill(words);
  }
  template <class Words>
  __device__ __forceinline__ void refill(const Words& words) {
    if (avail < 32) {
      bits |= (uint64_t)ahead << avail;
      avail += 32;
      ahead = words[next++];
    }
  }
  // The bit position of the cursor.
  __device__ __forceinline__ uint64_t position() const {
    return ((next - 1) << 5) - (uint64_t)avail;
  }
  // The next 32 bits, not taken.
  __device__ __forceinline__ uint32_t peek() const { return (uint32_t)bits; }
  // Moves past `n` (0..32) bits.
  template <class Words>
  __device__ __forceinline__ void skip(const Words& words, int n) {
    bits >>= n;
    avail -= n;
    refill(words);
  }
  // Takes the next `n` (0..64) bits.
  template <class Words>
  __device__ __forceinline__ uint64_t take(const Words& words, int n) {
    const int low = n < 32 ? n : 32;
    uint64_t value = bits & ((1ull << low) - 1ull);
    skip(words, low);
    if (n > 32) {
      value |= (bits & ((1ull << (n - 32)) - 1ull)) << 32;
      skip(words, n - 32);
    }
    return value;
  }
};

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
