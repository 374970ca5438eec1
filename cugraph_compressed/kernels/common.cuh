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

constexpr int WARP = 32;
constexpr unsigned FULL_WARP = 0xFFFFFFFFu;

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

// Inclusive prefix sum of `x` over the lanes of a converged warp (all 32 lanes call it).
__device__ __forceinline__ int warp_inclusive_sum(int x) {
#pragma unroll
  for (int d = 1; d < WARP; d *= 2) {
    const int up = __shfl_up_sync(FULL_WARP, x, d);
    if (lane_id() >= (unsigned)d) x += up;
  }
  return x;
}

// The first lane whose `sorted` (non-decreasing over the lanes) is greater than this lane's `x`,
// 31 when none is: a binary search by shuffles, every lane its own x (all 32 lanes call it).
__device__ __forceinline__ int warp_upper_bound(int sorted, int x) {
  int lane = 0;
#pragma unroll
  for (int step = 16; step; step >>= 1) {
    const int probe = __shfl_sync(FULL_WARP, sorted, lane + step - 1);
    if (probe <= x) lane += step;
  }
  return lane;
}

// The sum of `x` over the lanes of a converged warp (all 32 lanes call it), in lane 0; the
// other lanes get partial sums.  Shuffles down by 16, 8, 4, 2, 1: a fixed order of additions.
template <typename T>
__device__ __forceinline__ T warp_sum(T x) {
#pragma unroll
  for (int d = WARP / 2; d; d >>= 1) x += __shfl_down_sync(FULL_WARP, x, d);
  return x;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// Append `value` to `out`, one atomic per group of converged lanes that append together.
// Safe in divergent code: only the calling lanes take part.
template <typename T>
__device__ __forceinline__ void append(T value, T* out, unsigned long long* count) {
  const unsigned active = __activemask();
  const int leader = __ffs(active) - 1;
  unsigned long long base = 0;
  if (lane_id() == (unsigned)leader) base = atomicAdd(count, (unsigned long long)__popc(active));
  base = __shfl_sync(active, base, leader);
  out[base + __popc(active & lanemask_lt())] = value;
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

namespace cgc {

// Non-negative floats order like their bit patterns read as unsigned integers, so atomicMin on
// the bits is an atomic minimum of the values.
__device__ __forceinline__ float atomic_min_nonneg(float* address, float value) {
  return __uint_as_float(atomicMin(reinterpret_cast<unsigned*>(address), __float_as_uint(value)));
}
__device__ __forceinline__ double atomic_min_nonneg(double* address, double value) {
  return __longlong_as_double((long long)atomicMin(reinterpret_cast<unsigned long long*>(address),
                                                   (unsigned long long)__double_as_longlong(value)));
}

}  // namespace cgc

namespace cgc {

// The integer type atomicCAS takes for a vertex type.
template <typename D> struct AtomicWord;
template <> struct AtomicWord<int> { typedef int type; };
template <> struct AtomicWord<long long> { typedef unsigned long long type; };

}  // namespace cgc
