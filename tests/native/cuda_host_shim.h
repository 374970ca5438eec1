// Lets the device views (formats/*.cuh) and the traversal core (algorithms/traverse.cuh)
// compile as plain C++ on a CPU, so CI runs them under AddressSanitizer against the host
// decoders (tests/test_device_views_native.py).  A block runs as BLOCK std::threads: shared
// memory is static (one block at a time), __syncthreads a barrier; atomics are std::atomic_ref.
#pragma once
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstring>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define asm(...) ((void)0)  // the PTX in common.cuh is never called here

struct ShimDim3 { unsigned x = 0, y = 0, z = 0; };
inline thread_local ShimDim3 threadIdx, blockIdx, blockDim{1, 1, 1}, gridDim{1, 1, 1};
inline std::barrier<>* shim_block_barrier = nullptr;  // set while a block runs
inline void __syncthreads() { shim_block_barrier->arrive_and_wait(); }

using std::max;
using std::min;

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline unsigned __activemask() { return 1u; }
template <typename T> inline T __shfl_sync(unsigned, T value, int) { return value; }

template <typename T> inline T atomicOr(T* a, T v) { return std::atomic_ref<T>(*a).fetch_or(v); }
template <typename T> inline T atomicAdd(T* a, T v) { return std::atomic_ref<T>(*a).fetch_add(v); }
template <typename T> inline T atomicMin(T* a, T v) {
  std::atomic_ref<T> r(*a);
  T old = r.load();
  while (v < old && !r.compare_exchange_weak(old, v)) {}
  return old;
}

inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
inline double __longlong_as_double(long long u) { double d; std::memcpy(&d, &u, 8); return d; }
inline long long __double_as_longlong(double d) { long long u; std::memcpy(&u, &d, 8); return u; }
