// Lets the device views (formats/*.cuh) and the traversal core (algorithms/traverse.cuh)
// compile as plain C++ on a CPU, so CI runs them under AddressSanitizer against the host
// decoders (tests/native/test_device_views_native.py).  shim_launch runs a grid block after
// block, a block as blockDim lanes: shared memory is static (one block at a time), __syncthreads
// a block barrier; atomics are std::atomic_ref.
//
// A lane is a fiber (ucontext) with a stack of its own, and the lanes of a block take turns on
// one OS thread: a lane runs until it waits at a barrier, then the next ready lane runs.  An OS
// thread per lane made every barrier a round of futex waits and context switches among 256
// threads on a CPU or two, minutes of kernel time per test; the fibers give the same
// interleavings a barrier allows, every run the same, and AddressSanitizer follows each switch
// (__sanitizer_start_switch_fiber), so it checks every lane's stack as its own.
//
// Warps are real: the lanes of a block form warps of 32, each with its own barrier and exchange
// slots, so warp-cooperative code (shuffles, ballots, scans) runs all 32 lanes through each
// collective, and a lane that misses a collective leaves the others waiting: the block aborts,
// naming the lanes, instead of passing.  Collectives take the full mask (0xFFFFFFFF, all 32
// lanes converged) or the calling lane's own bit; anything else aborts.  __activemask answers
// the calling lane alone: a lane cannot see which lanes are converged with it, and a lone lane
// is what a GPU that runs divergent lanes one at a time answers too, so code that is correct
// for any active mask is tested that way.
#pragma once
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <type_traits>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define SHIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHIM_ASAN 1
#endif
#endif
#ifdef SHIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define asm(...) ((void)0)  // the PTX in common.cuh is never called here

struct ShimDim3 { unsigned x = 0, y = 0, z = 0; };
// The running lane's: the scheduler sets threadIdx before it switches to a lane.  Outside a
// launch, device code called from the host runs as a grid of one thread (the drivers count
// items that way), so every launch leaves them so.
inline ShimDim3 threadIdx, blockIdx, blockDim{1, 1, 1}, gridDim{1, 1, 1};

struct ShimWarp;

// One lane of the running block: its fiber, its stack and what the lane's globals hold.
struct ShimLane {
  ucontext_t context{};
  unsigned index = 0;
  ShimWarp* warp = nullptr;
  unsigned exchanges = 0;  // exchanges this lane took part in
  unsigned counts = 0;     // __syncthreads_count calls this lane made
  bool done = false;
  const char* waits_at = nullptr;  // the barrier the lane waits at, if it does
  void* fake_stack = nullptr;  // AddressSanitizer's, while the lane is switched out
};

// The block that runs now: its lanes, the ones ready to run, and the scheduler's context.
struct ShimBlock {
  ucontext_t scheduler{};  // no stack named: AddressSanitizer's swapcontext clears none
  std::vector<ShimLane> lanes;
  std::deque<ShimLane*> ready;
  ShimLane* current = nullptr;
  void (*kernel)(void*) = nullptr;
  void* closure = nullptr;
  const void* scheduler_stack = nullptr;  // its bounds, for AddressSanitizer
  size_t scheduler_stack_size = 0;
};
inline ShimBlock* shim_block = nullptr;          // set while a block runs
inline ShimWarp* shim_warp = nullptr;            // the running lane's warp
inline unsigned shim_exchanges = 0;              // the running lane's exchange count

// From the running lane to the scheduler; returns when the scheduler switches back.
inline void shim_switch_out(bool finished) {
  ShimBlock& block = *shim_block;
  ShimLane& lane = *block.current;
  lane.exchanges = shim_exchanges;
#ifdef SHIM_ASAN
  // A finished lane's fake stack goes (nullptr); a waiting one keeps it for its return.
  __sanitizer_start_switch_fiber(finished ? nullptr : &lane.fake_stack, block.scheduler_stack,
                                 block.scheduler_stack_size);
#endif
  swapcontext(&lane.context, &block.scheduler);
#ifdef SHIM_ASAN
  __sanitizer_finish_switch_fiber(lane.fake_stack, nullptr, nullptr);
#endif
}

inline void shim_lane_main() {
#ifdef SHIM_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &shim_block->scheduler_stack,
                                  &shim_block->scheduler_stack_size);
#endif
  shim_block->kernel(shim_block->closure);
  shim_block->current->done = true;
  shim_switch_out(true);  // never resumed
  std::abort();
}

// A barrier of `expected` lanes: the last to arrive makes the others ready and runs on.
struct ShimBarrier {
  ShimBarrier(unsigned expected, const char* name) : expected(expected), name(name) {}
  unsigned expected, arrived = 0;
  const char* name;
  std::vector<ShimLane*> waiting;

  void arrive_and_wait() {
    if (++arrived == expected) {
      arrived = 0;
      for (ShimLane* lane : waiting) {
        lane->waits_at = nullptr;
        shim_block->ready.push_back(lane);
      }
      waiting.clear();
      return;
    }
    shim_block->current->waits_at = name;
    waiting.push_back(shim_block->current);
    shim_switch_out(false);
  }
};

// Lanes exchange values through two sets of slots used in turn: a lane can write the next
// exchange's set only after the barrier that every lane reaches once done reading it.
struct ShimWarp {
  explicit ShimWarp(unsigned lanes) : barrier(lanes, "its warp's collective") {}
  ShimBarrier barrier;
  uint64_t slots[2][32] = {};
};

// Lane stacks, kept from block to block: mapped once, a guard page below each, so a lane that
// overflows its stack faults instead of writing over another's.
constexpr size_t SHIM_STACK = 256 * 1024;
inline std::vector<char*> shim_stacks;

inline char* shim_stack(unsigned lane) {
  static const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  while (shim_stacks.size() <= lane) {
    void* map = mmap(nullptr, SHIM_STACK + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED || mprotect(map, page, PROT_NONE) != 0) {
      std::perror("shim: mapping a lane stack");
      std::abort();
    }
    shim_stacks.push_back((char*)map + page);
  }
  return shim_stacks[lane];
}

inline ShimBarrier* shim_block_barrier = nullptr;  // set while a block runs
// __syncthreads_count's tallies, used in turn (a block's call c adds to tally c % 3).
inline int shim_tallies[3];

// Runs kernel() as `grid` blocks of `block` lanes, one block at a time.
template <class Kernel>
inline void shim_launch(unsigned grid, unsigned block, Kernel&& kernel) {
  if (shim_block != nullptr) {
    std::fprintf(stderr, "shim_launch inside a running block\n");
    std::abort();
  }
  for (unsigned b = 0; b < grid; ++b) {
    ShimBlock running;
    ShimBarrier barrier(block, "__syncthreads");
    std::deque<ShimWarp> warps;
    for (unsigned lane0 = 0; lane0 < block; lane0 += 32)
      warps.emplace_back(std::min(32u, block - lane0));
    running.kernel = [](void* k) { (*static_cast<std::remove_reference_t<Kernel>*>(k))(); };
    running.closure = (void*)&kernel;
    running.lanes.resize(block);
    for (unsigned t = 0; t < block; ++t) {
      ShimLane& lane = running.lanes[t];
      lane.index = t;
      lane.warp = &warps[t / 32];
      char* stack = shim_stack(t);
#ifdef SHIM_ASAN
      ASAN_UNPOISON_MEMORY_REGION(stack, SHIM_STACK);  // what an earlier lane left poisoned
#endif
      getcontext(&lane.context);
      lane.context.uc_stack.ss_sp = stack;
      lane.context.uc_stack.ss_size = SHIM_STACK;
      lane.context.uc_link = nullptr;
      makecontext(&lane.context, shim_lane_main, 0);
      // AddressSanitizer's swapcontext clears the shadow of the stack named here on every
      // switch, which would drop the redzones of the lane's live frames: name none.
      lane.context.uc_stack.ss_sp = nullptr;
      lane.context.uc_stack.ss_size = 0;
      running.ready.push_back(&lane);
    }
    blockIdx.x = b;
    blockDim.x = block;
    gridDim.x = grid;
    shim_block = &running;
    shim_block_barrier = &barrier;
    for (int& tally : shim_tallies) tally = 0;
    while (!running.ready.empty()) {
      ShimLane* lane = running.ready.front();
      running.ready.pop_front();
      running.current = lane;
      threadIdx.x = lane->index;
      shim_warp = lane->warp;
      shim_exchanges = lane->exchanges;
#ifdef SHIM_ASAN
      void* fake_stack = nullptr;
      __sanitizer_start_switch_fiber(&fake_stack, shim_stack(lane->index), SHIM_STACK);
#endif
      swapcontext(&running.scheduler, &lane->context);
#ifdef SHIM_ASAN
      __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
    }
    shim_block = nullptr;
    shim_block_barrier = nullptr;
    shim_warp = nullptr;
    threadIdx = blockIdx = ShimDim3{};
    blockDim = gridDim = ShimDim3{1, 1, 1};
    for (const ShimLane& lane : running.lanes) {
      if (lane.done) continue;
      // No lane can run and some wait: a barrier that not every lane reaches.
      std::fprintf(stderr, "shim: block %u of %u: lane %u waits at %s for lanes that never "
                   "come\n", b, grid, lane.index, lane.waits_at);
      std::abort();
    }
  }
}

inline void __syncthreads() {
  if (shim_block_barrier == nullptr) {
    std::fprintf(stderr, "__syncthreads outside shim_launch\n");
    std::abort();
  }
  shim_block_barrier->arrive_and_wait();
}

// Every lane adds its vote to this call's tally, then waits for the block; once past the
// barrier, every lane has read the previous call's tally, so lane 0 clears it for the call
// after this one.
inline int __syncthreads_count(int predicate) {
  if (shim_block == nullptr) {
    std::fprintf(stderr, "__syncthreads_count outside shim_launch\n");
    std::abort();
  }
  const unsigned call = shim_block->current->counts++;
  if (predicate) ++shim_tallies[call % 3];
  __syncthreads();
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
using std::fma;
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
