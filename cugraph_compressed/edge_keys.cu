// The range gather of the streaming build (_build.py, keyed edges): the edges of one chunk
// piece whose list owner lies in [v0, v1), as packed (owner << 32 | neighbour) keys appended
// to the range's key buffer.  One read of the piece, one write per kept key: the mask, the
// compactions and the packing of the array version cost a dozen passes.  Key order within
// the buffer is whatever the atomics give; the build sorts the keys next.
#include "kernels/common.cuh"

constexpr int GATHER_BLOCK = 256;  // _edgelist._GATHER_BLOCK

// Keys of owner[i] -> neighbour[i] with v0 <= owner[i] < v1 and, with `both`, of
// neighbour[i] -> owner[i] with v0 <= neighbour[i] < v1 (an undirected edge seen from its
// other end).  `count` counts every kept key; keys from slot `capacity` on are not written,
// so the caller detects an overflow (a chunk that grew since it was counted) afterwards.
template <typename I>
__global__ void __launch_bounds__(GATHER_BLOCK)
gather_pairs(const I* owner, const I* neighbour, int64_t n, int64_t v0, int64_t v1, int both,
             uint64_t* keys, unsigned long long* count, uint64_t capacity) {
  const int lane = threadIdx.x & 31;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  // Whole warps iterate together (the ballots need every lane), each lane one edge.
  for (int64_t base = blockIdx.x * (int64_t)blockDim.x + (threadIdx.x & ~31); base < n;
       base += stride) {
    const int64_t i = base + lane;
    int64_t o = 0, nb = 0;
    if (i < n) {
      o = (int64_t)owner[i];
      nb = (int64_t)neighbour[i];
    }
    const bool forward = i < n && o >= v0 && o < v1;
    const bool backward = both && i < n && nb >= v0 && nb < v1;
    const unsigned f = __ballot_sync(0xFFFFFFFFu, forward);
    const unsigned b = __ballot_sync(0xFFFFFFFFu, backward);
    const unsigned total = __popc(f) + __popc(b);
    unsigned long long at = 0;
    if (lane == 0 && total) at = atomicAdd(count, (unsigned long long)total);  // one per warp
    at = __shfl_sync(0xFFFFFFFFu, at, 0);
    const unsigned below = (1u << lane) - 1u;
    if (forward) {
      const uint64_t slot = at + __popc(f & below);
      if (slot < capacity) keys[slot] = ((uint64_t)o << 32) | (uint64_t)nb;
    }
    if (backward) {
      const uint64_t slot = at + __popc(f) + __popc(b & below);
      if (slot < capacity) keys[slot] = ((uint64_t)nb << 32) | (uint64_t)o;
    }
  }
}
