// Device view of the `cgr` layout (buffers, codes, list layout and decode order:
// formats/cgr.py).
//
// A list is [ header code(E) ][ segment table, when it has >= 2 residual segments ]
// [ intervals: (start, length) codes ][ residual segments ], decoded intervals first.  One thread
// decodes a rank range sequentially from any rank: interval ranks walk the interval codes from
// the list's first one (without expanding the intervals before the range), residual ranks jump
// through the table to the segment holding the first one (gaps restart from the vertex id at
// every segment) and skip forward inside it.  chunk_size() is the segment size, so an item skips
// fewer residuals than it emits (items start E ranks off the segment starts); no table covers
// the intervals, so each item that starts among a list's intervals walks them from the first.
#pragma once
#include "kernels/bits.cuh"

namespace cgc {

struct CgrView {
  const uint32_t* edge_offsets;      // low 32 bits of first_edge(v)
  const int64_t* edge_high;          // first v whose first_edge reaches each multiple of 2**32
  int64_t edge_high_count;
  const uint32_t* bit_offsets;       // the same split of first_bit(v)
  const int64_t* bit_high;
  int64_t bit_high_count;
  const uint32_t* stream;
  int k;                             // zeta-k (1: Elias gamma)
  int64_t min_len;                   // min_interval_length
  int64_t seg;                       // segment_size

  static constexpr int TABLE_WIDTH_BITS = 6;

  __device__ static CgrView load(const uint64_t* args) {
    return {reinterpret_cast<const uint32_t*>(args[0]), reinterpret_cast<const int64_t*>(args[1]),
            (int64_t)args[2],
            reinterpret_cast<const uint32_t*>(args[3]), reinterpret_cast<const int64_t*>(args[4]),
            (int64_t)args[5],
            reinterpret_cast<const uint32_t*>(args[6]), (int)args[7], (int64_t)args[8],
            (int64_t)args[9]};
  }

  // Offset i from its low 32 bits and the number of high entries <= i (most graphs have none).
  __device__ static __forceinline__ int64_t join(const uint32_t* low, const int64_t* high,
                                                 int64_t count, int64_t i) {
    return (int64_t)low[i] + (upper_bound(high, (int64_t)0, count, i) << 32);
  }
  __device__ __forceinline__ int64_t first_edge(int64_t v) const {
    return join(edge_offsets, edge_high, edge_high_count, v);
  }
  __device__ __forceinline__ int64_t degree(int64_t v) const {
    return first_edge(v + 1) - first_edge(v);
  }
  __device__ __forceinline__ int64_t chunk_size() const { return seg; }

  // x of the code(x) at `pos`, which moves past it: h zeros and a one, s - 1 payload bits q and,
  // when q >= t, one more bit (formats/cgr.py, "Codes").
  __device__ __forceinline__ uint64_t code(uint64_t& pos) const {
    const uint32_t low = read_bits(stream, pos, 32);
    const int h = low ? __ffs(low) - 1 : 32;  // 32 zeros: only gamma's largest values
    const int s = (h + 1) * k;
    const uint64_t t = 1ull << (h * k);
    // The s bits after the unary part (payload, then the possible extra bit); most codes are
    // short enough to take them from the 32 bits already read.
    const uint64_t bits = h + 1 + s <= 32 ? (uint64_t)(low >> (h + 1))
                                          : read_wide_bits(stream, pos + h + 1, s);
    pos += h + s;
    const uint64_t q = bits & ((1ull << (s - 1)) - 1);
    if (q < t) return q + t - 1;
    pos += 1;
    return ((q << 1) | ((bits >> (s - 1)) & 1)) - 1;
  }
  __device__ static __forceinline__ int64_t unzigzag(uint64_t z) {
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
  }

  template <class F>
  __device__ __forceinline__ void for_each(int64_t v, int64_t first, int64_t begin, int64_t end,
                                           F&& f) const {
    if (begin >= end) return;  // an empty list has no bits, not even a header
    uint64_t pos = (uint64_t)join(bit_offsets, bit_high, bit_high_count, v);
    const int64_t E = (int64_t)code(pos);
    const int64_t S = (first_edge(v + 1) - first - E + seg - 1) / seg;
    const uint64_t table = pos + TABLE_WIDTH_BITS;
    int W = 0;
    if (S >= 2) {
      W = (int)read_bits(stream, pos, TABLE_WIDTH_BITS);
      pos = table + (uint64_t)(S * W);
    }
    // Intervals, when the range starts among them or a single segment follows them (no table
    // says where it starts); the walk stops at the range's end or at E.
    if (begin < E || (S == 1 && E > 0)) {
      const int64_t stop = min(end, E);
      int64_t next = v;  // the first id after the previous interval (v: none yet)
      for (int64_t rank = 0; rank < stop;) {
        const uint64_t gap = code(pos);
        const int64_t start = rank ? next + (int64_t)gap + 1 : v + unzigzag(gap);
        const int64_t length = (int64_t)code(pos) + min_len;
        for (int64_t r = max(begin, rank); r < min(stop, rank + length); ++r)
          f(first + r, start + (r - rank));
        rank += length;
        next = start + length;
      }
    }
    if (end <= E) return;
    // Residuals from the first of the segment holding residual rank j0.
    const int64_t j0 = max(begin, E) - E;
    int64_t j = j0 - j0 % seg;
    if (S >= 2)  // entry j / seg: the segment's offset from the end of the table
      pos = table + (uint64_t)(S * W) + read_wide_bits(stream, table + (uint64_t)(j / seg * W), W);
    int64_t value = 0, left = 0;  // left: residuals still to come in the current segment
    for (; E + j < end; ++j) {
      const uint64_t x = code(pos);
      if (left == 0) {
        value = v + unzigzag(x);
        left = seg;
      } else {
        value += (int64_t)x + 1;
      }
      --left;
      if (j >= j0) f(first + E + j, value);
    }
  }
};

}  // namespace cgc
