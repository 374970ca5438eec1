// Device view of the `cgr` layout (buffers, codes, list layout and decode order:
// formats/cgr.py).
//
// A list is [ header code(E) ][ segment table, when it has >= 2 residual segments ]
// [ intervals: (start, length) codes ][ residual segments ], decoded intervals first.  A decoder
// can start at any rank: interval ranks walk the interval codes from the list's first one
// (without expanding the intervals before the range), residual ranks jump through the table to
// the segment holding the first one (gaps restart from the vertex id at every segment) and skip
// forward inside it.  chunk_size() is the segment size, so an item skips fewer residuals than it
// emits (items start E ranks off the segment starts); no table covers the intervals, so each
// item that starts among a list's intervals walks them from the first.
// * for_each (one thread): the intervals, then the residuals one after the other.
// * warp_for_each (32 lanes), in two phases.  Intervals: every lane walks the interval codes
//   (the same loads, served as broadcasts; each code's length depends on the previous one, so
//   the walk itself is sequential) and lane i emits ranks begin + i, begin + i + 32, ... of
//   each interval, consecutive lanes writing consecutive slots.  Residuals: gaps are
//   sequential within a segment and independent across segments, so lane i decodes segments
//   s0 + i, s0 + i + 32, ... of the range, each from its table entry (a list of one segment has
//   no table: lane 0 decodes it after the interval walk).  Warp items of 32 segments give every
//   lane one segment.
// Checked builds (kernels/common.cuh) also refuse codes longer than any value needs, interval
// counts beyond the list, intervals that leave it, and residuals out of order.
#pragma once
#include "kernels/bits.cuh"

namespace cgc {

struct CgrView {
  static constexpr int WORDS = 10;
  Buffer<uint32_t> edge_offsets;     // low 32 bits of first_edge(v)
  Buffer<int64_t> edge_high;         // first v whose first_edge reaches each multiple of 2**32
  int64_t edge_high_count;
  Buffer<uint32_t> bit_offsets;      // the same split of first_bit(v)
  Buffer<int64_t> bit_high;
  int64_t bit_high_count;
  EdgeBuffer<uint32_t> stream;
  int k;                             // zeta-k (1: Elias gamma)
  int64_t min_len;                   // min_interval_length
  int64_t seg;                       // segment_size
  CGC_VIEW_BOUNDS(WORDS)

  static constexpr int TABLE_WIDTH_BITS = 6;

  __device__ static CgrView load(const uint64_t* args) {
    CgrView g{buffer<uint32_t, WORDS>(args, 0), buffer<int64_t, WORDS>(args, 1), (int64_t)args[2],
              buffer<uint32_t, WORDS>(args, 3), buffer<int64_t, WORDS>(args, 4), (int64_t)args[5],
              edge_buffer<uint32_t, WORDS>(args, 6), (int)args[7], (int64_t)args[8], (int64_t)args[9]};
    g.load_bounds(args);
    return g;
  }

  // Offset i from its low 32 bits and the number of high entries <= i (most graphs have none).
  __device__ static __forceinline__ int64_t join(Buffer<uint32_t> low, Buffer<int64_t> high,
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

  // x of the code(x) at the cursor, which moves past it: h zeros and a one, s - 1 payload bits
  // q and, when q >= t, one more bit (formats/cgr.py, "Codes").
  __device__ __forceinline__ uint64_t code(BitCursor& in) const {
    const uint32_t low = in.peek();
    const int h = low ? __ffs(low) - 1 : 32;  // 32 zeros: only gamma's largest values
    const int s = (h + 1) * k;
    // No value a list holds needs more than 64 payload bits; past the stream, all bits read 0.
    CGC_REQUIRE(s <= 64, FAULT_CODE, -1, return ~0ull >> 1)
    const uint64_t t = 1ull << (h * k);
    if (h < 32) {
      in.skip(stream, h + 1);
    } else {
      in.skip(stream, 32);
      in.skip(stream, 1);
    }
    const uint64_t q = in.take(stream, s - 1);
    if (q < t) return q + t - 1;
    return ((q << 1) | in.take(stream, 1)) - 1;
  }
  __device__ static __forceinline__ int64_t unzigzag(uint64_t z) {
    return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
  }

  // Where list v's parts begin: E interval edges, S residual segments, the segment table
  // (W-bit entries at `table`, present when S >= 2) and the first interval code.
  struct List {
    int64_t E, S;
    uint64_t table;
    int W;
    uint64_t intervals;
  };
  __device__ __forceinline__ List list(int64_t v, int64_t degree) const {
    BitCursor in(stream, (uint64_t)join(bit_offsets, bit_high, bit_high_count, v));
    const int64_t E = (int64_t)code(in);
    const int64_t S = (degree - E + seg - 1) / seg;
    if (S < 2) return {E, S, in.position(), 0, in.position()};
    const int W = (int)in.take(stream, TABLE_WIDTH_BITS);
    const uint64_t table = in.position();
    return {E, S, table, W, table + (uint64_t)(S * W)};
  }
  // Where residual segment s begins: its table entry is its offset from the end of the table; a
  // list of one segment has none, the segment follows the intervals (ending at `after`).
  __device__ __forceinline__ uint64_t segment(const List& L, int64_t s, uint64_t after) const {
    if (L.S < 2) return after;
    return L.intervals + read_wide_bits(stream, L.table + (uint64_t)(s * L.W), L.W);
  }

  // Interval ranks begin .. stop - 1 (stop <= E), every LANES-th from begin + lane; returns the
  // position after the last code read (the end of the intervals when stop == E).  An
  // early-exit callback (emit) that returns true sets `stopped` and ends the walk there.
  template <int LANES, class F>
  __device__ __forceinline__ uint64_t intervals(int64_t v, int64_t first, uint64_t pos,
                                                int64_t begin, int64_t stop, int lane,
                                                bool& stopped, F&& f) const {
    static_assert((LANES & (LANES - 1)) == 0, "the lane stride is a power of two");
    BitCursor in(stream, pos);
    int64_t next = v;  // the first id after the previous interval (v: none yet)
    for (int64_t rank = 0; rank < stop;) {
      const uint64_t gap = code(in);
      const int64_t start = rank ? next + (int64_t)gap + 1 : v + unzigzag(gap);
      const int64_t length = (int64_t)code(in) + min_len;
      // An interval within the list (the walk always moves on; every lane sees the same codes)
      CGC_REQUIRE(length >= 1 && length <= bounds.edges - rank, FAULT_CODE, v,
                  return in.position())
      const int64_t from = max(begin, rank), to = min(stop, rank + length);
      for (int64_t r = from + ((begin + lane - from) & (LANES - 1)); r < to; r += LANES)
        if (emit(f, first + r, start + (r - rank))) {
          stopped = true;
          return in.position();
        }
      rank += length;
      next = start + length;
    }
    return in.position();
  }

  // Residual ranks j0 .. j1 - 1 (list ranks E + j), decoding from residual j, the first of the
  // segment at `pos`, on across segments; true when an early-exit callback stopped it.
  template <class F>
  __device__ __forceinline__ bool residuals(int64_t v, int64_t first, int64_t E, uint64_t pos,
                                            int64_t j, int64_t j0, int64_t j1, F&& f) const {
    BitCursor in(stream, pos);
    int64_t value = 0, left = 0;  // left: residuals still to come in the current segment
    CGC_IF_CHECKED(const int64_t j_start = j;)
    for (; j < j1; ++j) {
      const uint64_t x = code(in);
      CGC_IF_CHECKED(const int64_t previous = value;)
      if (left == 0) {
        value = v + unzigzag(x);
        left = seg;
      } else {
        value += (int64_t)x + 1;
      }
      // Residuals increase, across segments too (a segment restarts its gaps, not the order)
      CGC_REQUIRE(j == j_start || value > previous, FAULT_ORDER, v)
      --left;
      if (j >= j0 && emit(f, first + E + j, value)) return true;
    }
    return false;
  }

  // The intervals must be walked when the range starts among them, or to find the residuals
  // of a list of one segment (which has no table).
  __device__ __forceinline__ static bool walks_intervals(const List& L, int64_t begin) {
    return begin < L.E || (L.S == 1 && L.E > 0);
  }

  template <class F>
  __device__ __forceinline__ void for_each(int64_t v, int64_t first, int64_t begin, int64_t end,
                                           F&& f) const {
    if (begin >= end) return;  // an empty list has no bits, not even a header
    const List L = list(v, first_edge(v + 1) - first);
    CGC_REQUIRE(L.E >= 0 && L.E <= first_edge(v + 1) - first, FAULT_CODE, v, return)
    uint64_t after = L.intervals;  // the end of the intervals, once walked
    bool stopped = false;
    if (walks_intervals(L, begin))
      after = intervals<1>(v, first, after, begin, min(end, L.E), 0, stopped, f);
    if (stopped || end <= L.E) return;
    const int64_t j0 = max(begin, L.E) - L.E, s = j0 / seg;
    residuals(v, first, L.E, segment(L, s, after), s * seg, j0, end - L.E, f);
  }

  // Called by all 32 lanes of a warp with the same arguments; each rank goes to one lane.
  template <class F>
  __device__ __forceinline__ void warp_for_each(int64_t v, int64_t first, int64_t begin,
                                                int64_t end, F&& f) const {
    if (begin >= end) return;
    const List L = list(v, first_edge(v + 1) - first);
    CGC_REQUIRE(L.E >= 0 && L.E <= first_edge(v + 1) - first, FAULT_CODE, v, return)  // every lane
    const int lane = (int)lane_id();
    uint64_t after = L.intervals;
    bool stopped = false;  // warp decodes take void callbacks only: never set
    if (walks_intervals(L, begin))
      after = intervals<WARP>(v, first, after, begin, min(end, L.E), lane, stopped, f);
    if (end <= L.E) return;
    const int64_t j0 = max(begin, L.E) - L.E, j1 = end - L.E;
    for (int64_t s = j0 / seg + lane; s * seg < j1; s += WARP)
      residuals(v, first, L.E, segment(L, s, after), s * seg, max(j0, s * seg),
                min(j1, (s + 1) * seg), f);
  }
};

}  // namespace cgc
