// Bit-stream writers for the GPU encoders (stream layout: formats/bits.py).
#include "kernels/bits.cuh"

// values[i] (fits its field) at bit positions[i]; fields are disjoint, so OR-ing is order-free.
extern "C" __global__ void pack_fields(const uint32_t* values, const int64_t* positions, int64_t n,
                                       uint32_t* words) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
    cgc::or_bits(words, (uint64_t)positions[i], values[i]);
}

// values[i] at bit first_bit + i * width.
extern "C" __global__ void pack_fixed(const uint32_t* values, int64_t n, int width,
                                      int64_t first_bit, uint32_t* words) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
    cgc::or_bits(words, (uint64_t)(first_bit + i * (int64_t)width), values[i]);
}
