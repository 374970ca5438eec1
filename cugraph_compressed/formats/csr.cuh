// Device view of the `csr` layout (see formats/csr.py for the buffers and invariants).
#pragma once
#include "kernels/common.cuh"

namespace cgc {

template <typename V, typename O>
struct CsrView {
  const O* offsets;
  const V* indices;

  __device__ __forceinline__ int64_t begin(int64_t v) const { return (int64_t)offsets[v]; }
  __device__ __forceinline__ int64_t degree(int64_t v) const {
    return (int64_t)offsets[v + 1] - (int64_t)offsets[v];
  }
  // The k-th neighbour of v, given begin(v): O(1) random access.
  __device__ __forceinline__ int64_t neighbor(int64_t begin, int64_t k) const {
    return (int64_t)indices[begin + k];
  }
};

}  // namespace cgc
