// Small device helpers shared by every kernel source.
#pragma once

#ifdef __CUDACC_RTC__  // NVRTC has no C library headers
typedef int int32_t;
typedef long long int64_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#else  // nvcc, for offline inspection (-Xptxas -v, cuobjdump)
#include <cstdint>
#endif

namespace cgc {

// Index of the first element of sorted `a[lo, hi)` greater than `x` (hi when none is).
template <typename T, typename I>
__device__ __forceinline__ I upper_bound(const T* a, I lo, I hi, T x) {
  while (lo < hi) {
    I mid = lo + (hi - lo) / 2;
    if (a[mid] <= x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// Append `value` to `out` when `take` holds, with one atomic per warp.  Every lane of the warp
// must call it (it votes).
template <typename T>
__device__ __forceinline__ void warp_append(bool take, T value, T* out, unsigned long long* count) {
  unsigned ballot = __ballot_sync(0xffffffffu, take);
  if (ballot == 0) return;
  int leader = __ffs(ballot) - 1;
  unsigned long long base = 0;
  if (lane_id() == (unsigned)leader) base = atomicAdd(count, (unsigned long long)__popc(ballot));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (take) out[base + __popc(ballot & lanemask_lt())] = value;
}

// Set bit `v` of `bitmap`; true when this call set it (the caller claimed `v`).
template <typename V>
__device__ __forceinline__ bool claim_bit(uint32_t* bitmap, V v) {
  uint32_t mask = 1u << (uint32_t)(v & 31);
  uint32_t* word = bitmap + (v >> 5);
  if (*word & mask) return false;  // cheap read first: most edges hit visited vertices
  return !(atomicOr(word, mask) & mask);
}

}  // namespace cgc
