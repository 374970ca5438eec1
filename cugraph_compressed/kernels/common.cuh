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

// Checked decoding (-DCGC_CHECKED; TraversalConfig.checked).  A checked build bounds every read
// of a layout buffer (Buffer<T>), every decode loop by its list, and meets what no valid layout
// holds (a list outside [0, E], a neighbour outside [0, V), a list out of order, an impossible
// code) by setting a bit of `cgc_fault` and skipping it; the driver (kernels/traversal.py) turns
// the bits into LayoutInvariantError after the run.  Never __trap(): it poisons the CUDA context
// of the whole process.  An unchecked build compiles none of it: Buffer<T> is a plain pointer and
// CGC_REQUIRE expands to nothing.
namespace cgc {
constexpr unsigned long long FAULT_OUTSIDE_BUFFER = 1;  // a read past the end of its buffer
constexpr unsigned long long FAULT_LIST_EXTENT = 2;     // first_edge or degree outside [0, E]
constexpr unsigned long long FAULT_NEIGHBOUR = 4;       // neighbour outside [0, V), slot outside [0, E)
constexpr unsigned long long FAULT_ORDER = 8;           // a list that is not strictly increasing
constexpr unsigned long long FAULT_CODE = 16;           // a code, pointer or count no list holds
}  // namespace cgc

#ifdef CGC_CHECKED
// The fault kinds met (OR of FAULT_*) and the least vertex whose list met one; the driver reads
// and resets them through the module's global of this (unmangled) name.
extern "C" {
__device__ unsigned long long cgc_fault[2] = {0ull, ~0ull};
}

namespace cgc {
__device__ __forceinline__ void fault(unsigned long long kind, int64_t vertex) {
  atomicOr(&cgc_fault[0], kind);
  if (vertex >= 0) atomicMin(&cgc_fault[1], (unsigned long long)vertex);
}

// A layout buffer that knows its length: a read past it faults and gives 0.
template <typename T>
struct Buffer {
  const T* data;
  uint64_t size;
  __device__ __forceinline__ T operator[](uint64_t i) const {
    if (i < size) return data[i];
    fault(FAULT_OUTSIDE_BUFFER, -1);
    return T(0);
  }
};

// A per-edge buffer that may be split between GPU and pinned host memory (placement="auto",
// cugraph_compressed/_split.py): elements [0, split) are read from `device`, the others from
// the host part.  `host` is the host part's address less split * sizeof(T), kept as an integer
// (it may point before the allocation, which a C++ pointer may not) until a load adds
// i * sizeof(T), so a load is one compare, one select and one add.  An unsplit buffer has split
// = ~0 (the compare always holds: device and host placement read as they did).
template <typename T>
struct EdgeBuffer {
  const T* device;
  uint64_t split;
  uint64_t host;
  uint64_t size;
  __device__ __forceinline__ T operator[](uint64_t i) const {
    if (i >= size) {
      fault(FAULT_OUTSIDE_BUFFER, -1);
      return T(0);
    }
    const uint64_t base = i < split ? (uint64_t)device : host;
    return *reinterpret_cast<const T*>(base + i * sizeof(T));
  }
};

// The vertex and edge counts of the layout a view reads.
struct Bounds {
  int64_t vertices, edges;
};
}  // namespace cgc

// Unless `condition` holds: record fault `kind` at `vertex` (-1: none), then run the rest
// (`return`, `break`, ...).  Callers keep a warp's lanes together: a collective that follows is
// reached by all of them or none.
#define CGC_IF_CHECKED(...) __VA_ARGS__
#define CGC_REQUIRE(condition, kind, vertex, ...) \
  if (!(condition)) {                             \
    ::cgc::fault(kind, vertex);                   \
    __VA_ARGS__;                                  \
  }
// A view's bounds member and the call that loads it from its argument block.
#define CGC_VIEW_BOUNDS(WORDS)                                      \
  ::cgc::Bounds bounds;                                             \
  __device__ __forceinline__ void load_bounds(const uint64_t* args) { \
    bounds = {(int64_t)args[WORDS], (int64_t)args[WORDS + 1]};      \
  }
#else
namespace cgc {
template <typename T>
using Buffer = const T*;

// A per-edge buffer split between GPU and pinned host memory: see the checked build's.
template <typename T>
struct EdgeBuffer {
  const T* device;
  uint64_t split;
  uint64_t host;
  __device__ __forceinline__ T operator[](uint64_t i) const {
    const uint64_t base = i < split ? (uint64_t)device : host;
    return *reinterpret_cast<const T*>(base + i * sizeof(T));
  }
};
}  // namespace cgc
#define CGC_IF_CHECKED(...)
#define CGC_REQUIRE(condition, kind, vertex, ...)
#define CGC_VIEW_BOUNDS(WORDS) \
  __device__ __forceinline__ void load_bounds(const uint64_t*) {}
#endif

namespace cgc {

// Buffer `word` of a view's argument block, which holds the view's own WORDS words, then the
// vertex and edge counts and, per word, the length of its buffer in elements (0 for a scalar),
// its split and its host part's address (edge_buffer): Layout.device_words.  Only a checked
// build reads the lengths.
template <typename T, int WORDS>
__device__ __forceinline__ Buffer<T> buffer(const uint64_t* args, int word) {
#ifdef CGC_CHECKED
  return {reinterpret_cast<const T*>(args[word]), args[WORDS + 2 + word]};
#else
  return reinterpret_cast<const T*>(args[word]);
#endif
}

// Per-edge buffer `word` of a view's argument block (Layout.edge_buffers): after the lengths,
// the block holds per word its split (the first element in host memory; ~0: none) and the
// address of its host part (Layout.device_words).  The host base is computed here, as an
// integer: args[3 * WORDS + 2 + word] - split * sizeof(T), wrapping as unsigned arithmetic does.
template <typename T, int WORDS>
__device__ __forceinline__ EdgeBuffer<T> edge_buffer(const uint64_t* args, int word) {
  const uint64_t split = args[2 * WORDS + 2 + word];
  const uint64_t host = args[3 * WORDS + 2 + word] - split * (uint64_t)sizeof(T);
#ifdef CGC_CHECKED
  return {reinterpret_cast<const T*>(args[word]), split, host, args[WORDS + 2 + word]};
#else
  return {reinterpret_cast<const T*>(args[word]), split, host};
#endif
}

// Index of the first element of sorted `a[lo, hi)` greater than `x` (hi when none is); `a` is a
// pointer or a Buffer.
template <typename A, typename I, typename T>
__device__ __forceinline__ I upper_bound(const A& a, I lo, I hi, T x) {
  while (lo < hi) {
    I mid = lo + (hi - lo) / 2;
    if (a[mid] <= x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

constexpr int WARP = 32;
constexpr unsigned FULL_WARP = 0xFFFFFFFFu;
// Threads of every block that runs a layout view (kernels/traversal.py launches them all so),
// and its warps: what sizes per-warp shared memory (formats/elias_fano.cuh).
constexpr int BLOCK = 256;
constexpr int WARPS = BLOCK / WARP;

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

// Inclusive prefix sum of `x` over the lanes of a converged warp (all 32 lanes call it).
template <typename T>
__device__ __forceinline__ T warp_inclusive_sum(T x) {
#pragma unroll
  for (int d = 1; d < WARP; d *= 2) {
    const T up = __shfl_up_sync(FULL_WARP, x, d);
    if (lane_id() >= (unsigned)d) x += up;
  }
  return x;
}

// Inclusive prefix sum of `x` over the threads of a block (every thread calls it, the block
// being whole warps); `total` gets the block's sum.
template <typename T>
__device__ __forceinline__ T block_inclusive_sum(T x, T& total) {
  __shared__ T warp_totals[32];
  x = warp_inclusive_sum(x);
  const unsigned warp = threadIdx.x / WARP, warps = blockDim.x / WARP;
  if (lane_id() == WARP - 1) warp_totals[warp] = x;
  __syncthreads();
  T before = 0;
  total = 0;
  for (unsigned w = 0; w < warps; ++w) {
    if (w < warp) before += warp_totals[w];
    total += warp_totals[w];
  }
  __syncthreads();  // the next call may overwrite warp_totals
  return before + x;
}

// Exclusive running maximum of `x` (non-negative) over the threads of a block (every thread
// calls it, the block being whole warps): the largest x of the threads before this one, 0 for
// the first.
__device__ __forceinline__ int block_exclusive_max(int x) {
  __shared__ int warp_max[32];
  const unsigned lane = lane_id(), warp = threadIdx.x / WARP;
#pragma unroll
  for (int d = 1; d < WARP; d <<= 1) {
    const int y = __shfl_up_sync(FULL_WARP, x, d);
    if (lane >= (unsigned)d) x = max(x, y);
  }
  if (lane == WARP - 1) warp_max[warp] = x;
  int before = __shfl_up_sync(FULL_WARP, x, 1);
  if (lane == 0) before = 0;
  __syncthreads();
  for (unsigned w = 0; w < warp; ++w) before = max(before, warp_max[w]);
  __syncthreads();  // the next call may overwrite warp_max
  return before;
}

// Calls a decoder's callback f(slot, v) and says whether the decode stops there: callbacks that
// return bool stop it by returning true (early exit: bottom-up BFS stops at the first parent);
// void ones never do.
template <class T> struct ReturnsVoid { static constexpr bool value = false; };
template <> struct ReturnsVoid<void> { static constexpr bool value = true; };
template <class F>
__device__ __forceinline__ bool emit(F& f, int64_t slot, int64_t v) {
  if constexpr (ReturnsVoid<decltype(f(slot, v))>::value) {
    f(slot, v);
    return false;
  } else {
    return (bool)f(slot, v);
  }
}

// The sum of `x` over the lanes of a converged warp (all 32 lanes call it), in lane 0; the
// other lanes get partial sums.  Shuffles down by 16, 8, 4, 2, 1: a fixed order of additions.
template <typename T>
__device__ __forceinline__ T warp_sum(T x) {
#pragma unroll
  for (int d = WARP / 2; d; d >>= 1) x += __shfl_down_sync(FULL_WARP, x, d);
  return x;
}

// The lanes below this one (%lanemask_lt, written out so the CPU shim of tests/native runs it).
__device__ __forceinline__ unsigned lanemask_lt() { return (1u << lane_id()) - 1u; }

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

// Set bit `v` of `bitmap`, read as `seen` (its word) a moment ago; true when this call set it
// (the caller claimed `v`).  A set bit in `seen` stays set: no atomic is needed for it.
template <typename V>
__device__ __forceinline__ bool claim_bit_seen(uint32_t* bitmap, V v, uint32_t seen) {
  const uint32_t mask = 1u << (uint32_t)(v & 31);
  if (seen & mask) return false;  // cheap read first: most edges hit visited vertices
  return !(atomicOr(bitmap + (v >> 5), mask) & mask);
}

// Set bit `v` of `bitmap`; true when this call set it (the caller claimed `v`).
template <typename V>
__device__ __forceinline__ bool claim_bit(uint32_t* bitmap, V v) {
  return claim_bit_seen(bitmap, v, bitmap[v >> 5]);
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
