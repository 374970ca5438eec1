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

// The range gather of the property path (_build.py, edges with properties): the rows of one
// chunk piece whose `owner` lies in [v0, v1), copied in input order (deduplication keeps the
// earliest of equal rows, so the order is part of the result) into the range's buffers.  The
// array version (a mask, an index, a gather and a copy per column, and a count read back per
// piece) spent most of a weighted build in launches, allocations and waits; here a piece is
// three launches and nothing is read back:
// 1. range_row_counts: each block counts the kept rows of its ROWS_PER_BLOCK rows;
// 2. the driver's inclusive sum makes those counts each block's end;
// 3. range_rows: each block writes its kept rows in order from the piece's base;
// 4. range_advance: the cursor moves past the piece.
// cursor[0] is the next forward slot (forward parts fill the buffers from the front);
// cursor[1] is one past the free slots at the back: a backward part (an undirected edge given
// towards the range) takes the piece's rows just below it, in input order.  Slots outside
// [0, capacity) are not written: the driver reads the cursor once per range and refuses one
// whose front passed its back (a chunk that grew since it was counted).
constexpr int ROWS_BLOCK = 256;
constexpr int64_t ROWS_PER_BLOCK = ROWS_BLOCK * 16;  // _edgelist._ROWS_PER_BLOCK

template <typename I>
__global__ void __launch_bounds__(ROWS_BLOCK)
range_row_counts(const I* owner, int64_t n, int64_t v0, int64_t v1, int64_t* counts) {
  const int64_t lo = (int64_t)blockIdx.x * ROWS_PER_BLOCK;
  const int64_t hi = min(n, lo + ROWS_PER_BLOCK);
  int64_t kept = 0;
  for (int64_t i = lo + threadIdx.x; i < hi; i += ROWS_BLOCK) {
    const int64_t o = (int64_t)owner[i];
    kept += o >= v0 && o < v1;
  }
  int64_t total;
  cgc::block_inclusive_sum(kept, total);
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

// The property columns range_rows copies (at most MAX_COLUMNS: _edgelist.EDGE_PROPERTIES),
// each a source and a destination address and an item size in bytes (1, 2, 4 or 8).
constexpr int MAX_COLUMNS = 3;
struct Columns {
  uint64_t src[MAX_COLUMNS], dst[MAX_COLUMNS];
  int64_t size[MAX_COLUMNS];
  int count;

  // Item `from` of every source to item `to` of its destination.
  __device__ __forceinline__ void copy(int64_t from, int64_t to) const {
#pragma unroll
    for (int c = 0; c < MAX_COLUMNS; ++c) {
      if (c >= count) break;
      switch (size[c]) {
        case 1: reinterpret_cast<unsigned char*>(dst[c])[to] =
                    reinterpret_cast<const unsigned char*>(src[c])[from]; break;
        case 2: reinterpret_cast<unsigned short*>(dst[c])[to] =
                    reinterpret_cast<const unsigned short*>(src[c])[from]; break;
        case 4: reinterpret_cast<uint32_t*>(dst[c])[to] =
                    reinterpret_cast<const uint32_t*>(src[c])[from]; break;
        default: reinterpret_cast<uint64_t*>(dst[c])[to] =
                     reinterpret_cast<const uint64_t*>(src[c])[from];
      }
    }
  }
};

// `ends`: the inclusive sum of range_row_counts' counts over the piece's `blocks` blocks (this
// launch's grid).  Every thread of a block runs the same rounds (the block sums need them all).
template <typename I>
__global__ void __launch_bounds__(ROWS_BLOCK)
range_rows(const I* owner, const I* neighbour, int64_t n, int64_t v0, int64_t v1,
           const int64_t* ends, int64_t blocks, const int64_t* cursor, int backward,
           int64_t capacity, I* out_owner, I* out_neighbour, int num_columns,
           uint64_t src0, uint64_t dst0, int64_t size0, uint64_t src1, uint64_t dst1,
           int64_t size1, uint64_t src2, uint64_t dst2, int64_t size2) {
  const Columns columns{{src0, src1, src2}, {dst0, dst1, dst2}, {size0, size1, size2},
                        num_columns};
  const int64_t base = (backward ? cursor[1] - ends[blocks - 1] : cursor[0]) +
                       (blockIdx.x ? ends[blockIdx.x - 1] : 0);
  const int64_t lo = (int64_t)blockIdx.x * ROWS_PER_BLOCK;
  const int64_t hi = min(n, lo + ROWS_PER_BLOCK);
  int64_t written = 0;
  for (int64_t start = lo; start < hi; start += ROWS_BLOCK) {
    const int64_t i = start + threadIdx.x;
    const I o = i < hi ? owner[i] : I(0);
    const bool keep = i < hi && (int64_t)o >= v0 && (int64_t)o < v1;
    int64_t in_round;
    const int64_t at = base + written + cgc::block_inclusive_sum((int64_t)keep, in_round) - 1;
    if (keep && at >= 0 && at < capacity) {
      out_owner[at] = o;
      out_neighbour[at] = neighbour[i];
      columns.copy(i, at);
    }
    written += in_round;
  }
}

__global__ void range_advance(const int64_t* ends, int64_t blocks, int backward,
                              int64_t* cursor) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    const int64_t total = ends[blocks - 1];
    if (backward) cursor[1] -= total;
    else cursor[0] += total;
  }
}
