// rmat_chunks' counter-based R-MAT stream on the device (generators.py; its docstring is the
// specification and _counter_edges the NumPy reference).  Every edge is a pure function of its
// index, so one thread computes one edge in registers and writes it straight into the chunk's
// columns: one kernel per chunk, no temporaries.
#include "kernels/common.cuh"

namespace rmat {
constexpr int BLOCK = 256;  // generators._BLOCK
constexpr uint64_t GOLDEN = 0x9E3779B97F4A7C15ull;  // SplitMix64's increment

// SplitMix64's finaliser; uint64 arithmetic wraps modulo 2**64, as NumPy's does.
__device__ __forceinline__ uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The 4-round Feistel bijection of [0, 2**scale): R the low ceil(scale / 2) bits, L the rest.
__device__ __forceinline__ uint64_t feistel(uint64_t x, int scale, uint64_t k1, uint64_t k2,
                                            uint64_t k3, uint64_t k4) {
  const int right_bits = (scale + 1) / 2;
  const uint64_t right_mask = (1ull << right_bits) - 1;
  const uint64_t left_mask = (1ull << (scale - right_bits)) - 1;
  uint64_t right = x & right_mask, left = x >> right_bits;
  right ^= mix(left ^ k1) & right_mask;
  left ^= mix(right ^ k2) & left_mask;
  right ^= mix(left ^ k3) & right_mask;
  left ^= mix(right ^ k4) & left_mask;
  return (left << right_bits) | right;
}
}  // namespace rmat

// Edges start .. start + count - 1 into source[0 .. count), destination and (if weighted)
// weight.  Id is int (scale <= 31) or long long; t1 .. t3 are the 32-bit quadrant thresholds,
// held in 64 bits because round(p * 2**32) may reach 2**32.  The edge index wraps modulo
// 2**64 like the rest of the arithmetic; a chunk has fewer than 2**31 rows.
template <typename Id>
__global__ void __launch_bounds__(rmat::BLOCK)
rmat_edges(uint64_t start, int64_t count, uint64_t edge_key, uint64_t k1, uint64_t k2,
           uint64_t k3, uint64_t k4, uint64_t t1, uint64_t t2, uint64_t t3, int scale,
           int scramble, int weighted, Id* source, Id* destination, float* weight) {
  using rmat::GOLDEN;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint64_t key = rmat::mix(((start + (uint64_t)i) * GOLDEN) ^ edge_key);
    uint64_t counter = key, src = 0, dst = 0;
    // One draw h[j] = mix(key + (j + 1) * G) settles two levels: its high half, then its low.
    for (int level = 0; level < scale; level += 2) {
      counter += GOLDEN;
      const uint64_t h = rmat::mix(counter);
      for (int half = 0; half < 2 && level + half < scale; ++half) {
        const uint64_t u = half == 0 ? h >> 32 : h & 0xFFFFFFFFull;
        // Quadrants (0,0) (0,1) (1,0) (1,1) cut [0, 2**32) at t1, t2, t3.
        const uint64_t above2 = u >= t2;
        src = (src << 1) | above2;
        dst = (dst << 1) | ((u >= t1) ^ above2 ^ (u >= t3));
      }
    }
    if (weighted) {  // h[ceil(scale / 2)]: the draw after the ids' last
      const uint64_t h = rmat::mix(counter + GOLDEN);
      weight[i] = (float)((h >> 40) + 1) * 0x1p-24f;  // at most 2**24 times a power of 2: exact
    }
    if (scramble) {
      src = rmat::feistel(src, scale, k1, k2, k3, k4);
      dst = rmat::feistel(dst, scale, k1, k2, k3, k4);
    }
    source[i] = (Id)src;  // < 2**scale: fits Id
    destination[i] = (Id)dst;
  }
}
