// Lets the device views (formats/*.cuh) and the traversal core (algorithms/traverse.cuh)
// compile as plain C++ on a CPU, so CI runs them under AddressSanitizer against the host
// decoders (tests/native/test_device_views_native.py).  shim_launch runs a grid block after block, a
// block as blockDim std::threads: shared memory is static (one block at a time), __syncthreads
// a block barrier; atomics are std::atomic_ref.
//
// Warps are real: the threads of a block form warps of 32 lanes, each with its own barrier and
// exchange slots, so warp-cooperative code (shuffles, ballots, scans) runs its lanes
// concurrently and a lane that misses a collective deadlocks the test instead of passing it.
// Collectives take the full mask (0xFFFFFFFF, all 32 lanes converged) or the calling lane's own
// bit; anything else aborts.  __activemask answers the calling lane alone: a CPU thread cannot
// see which lanes are converged with it, and a lone lane is what a GPU that runs divergent lanes
// one at a time answers too, so code that is correct for any active mask is tested that way.
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <barrier>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <thread>
#include <type_traits>
#include <vector>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define asm(...) ((void)0)  // the PTX in common.cuh is never called here

struct ShimDim3 { unsigned x = 0, y = 0, z = 0; };
inline thread_local ShimDim3 threadIdx, blockIdx, blockDim{1, 1, 1}, gridDim{1, 1, 1};

// Lanes exchange values through two sets of slots used in turn: a lane can write the next
// exchange's set only after the barrier that every lane reaches once done reading it.
struct ShimWarp {
  explicit ShimWarp(std::ptrdiff_t lanes) : barrier(lanes) {}
  std::barrier<> barrier;
  uint64_t slots[2][32] = {};
};
inline std::barrier<>* shim_block_barrier = nullptr;  // set while a block runs
inline thread_local ShimWarp* shim_warp = nullptr;     // this thread's warp while a block runs
inline thread_local unsigned shim_exchanges = 0;       // exchanges this lane took part in
// __syncthreads_count's tallies, used in turn (call c adds to tally c % 3), and the calls this
// thread made in its block.
inline std::atomic<int> shim_tallies[3];
inline thread_local unsigned shim_counts = 0;

// Runs kernel() as `grid` blocks of `block` threads, one block at a time.
template <class Kernel>
inline void shim_launch(unsigned grid, unsigned block, Kernel&& kernel) {
  for (unsigned b = 0; b < grid; ++b) {
    std::barrier<> barrier(block);
    std::deque<ShimWarp> warps;
    for (unsigned lane0 = 0; lane0 < block; lane0 += 32)
      warps.emplace_back(std::min(32u, block - lane0));
    shim_block_barrier = &barrier;
    for (auto& tally : shim_tallies) tally = 0;
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < block; ++t)
      threads.emplace_back([&, t] {
        threadIdx.x = t;
        blockIdx.x = b;
        blockDim.x = block;
        gridDim.x = grid;
        shim_warp = &warps[t / 32];
        shim_exchanges = 0;
        shim_counts = 0;
        kernel();
      });
    for (auto& thread : threads) thread.join();
    shim_block_barrier = nullptr;
  }
}

inline void __syncthreads() { shim_block_barrier->arrive_and_wait(); }

// Every thread adds its vote to this call's tally, then waits for the block; once past the
// barrier, every thread has read the previous call's tally, so thread 0 clears it for the call
// after this one.
inline int __syncthreads_count(int predicate) {
  const unsigned call = shim_counts++;
  if (predicate) ++shim_tallies[call % 3];
  shim_block_barrier->arrive_and_wait();
  const int count = shim_tallies[call % 3];
  if (threadIdx.x == 0) shim_tallies[(call + 2) % 3] = 0;
  return count;
}

inline unsigned shim_lane() { return threadIdx.x & 31u; }

// True when `mask` is the calling lane alone; false when it is the full warp (then the warp
// must have 32 lanes); aborts on any other mask.
inline bool shim_lone(unsigned mask) {
  if (mask == 1u << shim_lane()) return true;
  if (mask != 0xFFFFFFFFu || shim_warp == nullptr) {
    std::fprintf(stderr, "warp collective with mask %08x on lane %u: the shim takes the full "
                 "warp or the lane alone\n", mask, shim_lane());
    std::abort();
  }
  return false;
}

// Writes `value` to this lane's slot of the current set and waits for the whole warp; the set
// stays readable until the lane's next exchange.
inline uint64_t* shim_publish(uint64_t value) {
  uint64_t* slots = shim_warp->slots[shim_exchanges++ & 1];
  slots[shim_lane()] = value;
  shim_warp->barrier.arrive_and_wait();
  return slots;
}

// Every lane of the warp publishes `value`; each gets lane `src`'s.
inline uint64_t shim_exchange(unsigned mask, uint64_t value, unsigned src) {
  if (shim_lone(mask)) {
    if (src != shim_lane()) std::abort();  // reading a lane outside the mask
    return value;
  }
  uint64_t* slots = shim_publish(value);
  return slots[src];
}

template <typename T>
inline uint64_t shim_bits(T value) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T>
inline T shim_from_bits(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

inline unsigned __activemask() { return 1u << shim_lane(); }
inline void __syncwarp(unsigned mask = 0xFFFFFFFFu) {
  if (!shim_lone(mask)) shim_warp->barrier.arrive_and_wait();
}
template <typename T>
inline T __shfl_sync(unsigned mask, T value, int src, int width = 32) {
  if (width != 32) std::abort();
  return shim_from_bits<T>(shim_exchange(mask, shim_bits(value), (unsigned)src & 31u));
}
template <typename T>
inline T __shfl_up_sync(unsigned mask, T value, unsigned delta, int width = 32) {
  if (width != 32) std::abort();
  const unsigned lane = shim_lane(), src = lane >= delta ? lane - delta : lane;
  return shim_from_bits<T>(shim_exchange(mask, shim_bits(value), src));
}
template <typename T>
inline T __shfl_down_sync(unsigned mask, T value, unsigned delta, int width = 32) {
  if (width != 32) std::abort();
  const unsigned lane = shim_lane(), src = lane + delta < 32 ? lane + delta : lane;
  return shim_from_bits<T>(shim_exchange(mask, shim_bits(value), src));
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  const unsigned mine = predicate ? 1u << shim_lane() : 0u;
  if (shim_lone(mask)) return mine;
  const uint64_t* slots = shim_publish(mine);
  unsigned votes = 0;
  for (int lane = 0; lane < 32; ++lane) votes |= (unsigned)slots[lane];
  return votes;
}

using std::fabs;
using std::max;
using std::min;

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }

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
