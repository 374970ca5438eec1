// Result columns of internal vertex ids in user ids, on the device (_ids.py,
// VertexIds.users_in_rows), for a renumbered graph kept in a permuted internal order: row r of
// a result is the vertex of rank r (order[r], its internal id), and a value naming internal
// id p becomes users[rank of p].  One scatter for the ranks and one pass for the column,
// where the array version took a gather into row order, the ranks' arange and scatter, a
// mask, two selects and two gathers, each a pass over n with its own temporary.
#include "kernels/common.cuh"

// inverse[order[r]] = r: the rank of each internal id.
template <typename I>
__global__ void __launch_bounds__(cgc::BLOCK)
invert_order(const I* order, int64_t n, I* inverse) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < n; r += stride)
    inverse[order[r]] = (I)r;
}

// out[r]: the user id of the internal id that `internal` holds for the vertex of rank r, or -1
// where it holds none (a negative id: no predecessor, say).
template <typename I, typename D, typename T>
__global__ void __launch_bounds__(cgc::BLOCK)
users_in_rows(const I* order, const D* internal, const I* inverse, const T* users, int64_t n,
              T* out) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < n; r += stride) {
    const D p = internal[order[r]];
    out[r] = p < 0 ? (T)-1 : users[inverse[p]];
  }
}
