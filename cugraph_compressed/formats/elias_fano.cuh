// Device view of the `ef` layout (two-level entries, list coding, bit order and padding:
// formats/elias_fano.py).
//
// A list of n values is [ m = (n - 1) / k forward pointers ][ n lows of l bits ][ upper bits ],
// value i being ((position of the i-th one - up - i) << l) | low_i.  Both decoders start at the
// one of rank 0 (bit up) or of rank j * k (pointer j), so chunk_size() is k, and read each
// value's low bits at lo + i * l.
// * for_each (one thread): walks the upper bits word by word, one one after the other.
// * warp_for_each (32 lanes): the warp loads 32 consecutive upper-bit words at a time (one per
//   lane, coalesced), popcounts them and scans the counts, which ranks every one of the window;
//   each lane writes the window position of its word's ones to the warp's table in shared
//   memory at their ranks, then each lane takes one wanted rank, reads its position there and
//   its low bits, so 32 values are decoded per step without searching the window per rank.
//   Its loads run a step ahead of use (the next window's words while this window's steps
//   run, each step's low bits while the step before's values go to the callback), so a step
//   waits on the callback's memory traffic only, not on the decoder's too.
// Checked builds (kernels/common.cuh) also check each list's entry, that the decoders start
// and stop among its upper bits (no scan runs past its last word) and that values increase.
#pragma once
#include "kernels/bits.cuh"

namespace cgc {

struct EfView {
  static constexpr int WORDS = 5;  // blocks, records, data, k, log2_block
  Buffer<int64_t> blocks;  // rows of 4: first, start, record bit position, widths
  Buffer<uint32_t> records;
  EdgeBuffer<uint32_t> data;
  int64_t k;       // forward-pointer stride
  int log2_block;  // log2 of the entries per row
  CGC_VIEW_BOUNDS(WORDS)

  __device__ static EfView load(const uint64_t* args) {
    EfView g{buffer<int64_t, WORDS>(args, 0), buffer<uint32_t, WORDS>(args, 1),
             edge_buffer<uint32_t, WORDS>(args, 2), (int64_t)args[3], (int)args[4]};
    g.load_bounds(args);
    return g;
  }

  // Where entry e's record lies: its row, its bit position in `records` and the row's widths.
  struct Record {
    int64_t row;  // index of the row's first word in `blocks`
    uint64_t at;
    int we, wb, wl;
  };
  __device__ __forceinline__ Record record(int64_t e) const {
    const int64_t b = e >> log2_block;
    const int64_t row = 4 * b;
    const uint32_t widths = (uint32_t)blocks[row + 3];  // we | wb << 8 | wl << 16
    const int we = widths & 0xFF, wb = (widths >> 8) & 0xFF, wl = (widths >> 16) & 0xFF;
    const int64_t at = blocks[row + 2] + (e - (b << log2_block)) * (we + wb + wl);
    return {row, (uint64_t)at, we, wb, wl};
  }
  __device__ __forceinline__ int64_t first_of(const Record& r) const {
    return blocks[r.row] + (int64_t)read_wide_bits(records, r.at, r.we);
  }

  __device__ __forceinline__ uint64_t start_of(const Record& r) const {
    return (uint64_t)blocks[r.row + 1] + read_wide_bits(records, r.at + r.we, r.wb);
  }

  __device__ __forceinline__ int64_t first_edge(int64_t v) const { return first_of(record(v)); }
  __device__ __forceinline__ int64_t degree(int64_t v) const {
    return first_of(record(v + 1)) - first_of(record(v));
  }
  __device__ __forceinline__ int64_t chunk_size() const { return k; }

  // What decoding a list needs: where its pointers (start), lows (lo) and uppers (up) begin,
  // where the next list begins (stop), and its low and pointer widths.
  struct List {
    uint64_t start, lo, up, stop;
    int l, w_fp;
    CGC_IF_CHECKED(int64_t n;)
  };
  __device__ __forceinline__ List list(int64_t v) const {
    const Record rec = record(v), next = record(v + 1);
    const int64_t n = first_of(next) - first_of(rec);
    const uint64_t start = start_of(rec);
    const int l = (int)read_bits(records, rec.at + rec.we + rec.wb, rec.wl);
    const int64_t m = (n - 1) / k;
    const int w_fp = m ? 64 - __clzll(2 * n - 1) : 0;  // bit_length(2n - 1)
    const uint64_t lo = start + (uint64_t)(m * w_fp);
    return {start, lo, lo + (uint64_t)(n * l), start_of(next), l, w_fp CGC_IF_CHECKED(, n)};
  }
#ifdef CGC_CHECKED
  // What every list's entry gives (checked builds): its parts in order inside `data`, room for
  // n ones in its upper bits, lows of at most 32 bits.
  __device__ __forceinline__ bool sound(const List& L) const {
    return L.start <= L.lo && L.lo <= L.up && L.up <= L.stop && L.stop <= 32 * data.size &&
           L.stop - L.up >= (uint64_t)L.n && L.l <= 32;
  }
  // The one the decoders start from lies among the list's upper bits.
  __device__ __forceinline__ static bool inside(const List& L, uint64_t p) {
    return L.up <= p && p < L.stop;
  }
#endif
  // Position of the one of rank j * k: bit up for j = 0, else pointer j (at start + (j - 1) *
  // w_fp) holds its position - up - j * k.
  __device__ __forceinline__ uint64_t pointed_one(const List& L, int64_t j) const {
    if (!j) return L.up;
    const uint64_t pointer = L.start + (uint64_t)((j - 1) * L.w_fp);
    return L.up + (uint64_t)(j * k) + read_wide_bits(data, pointer, L.w_fp);
  }
  // The low bits of rank `rank`, loaded (kernels/bits.cuh: load_bits) but not yet taken out.
  // The warp decoder loads a step's before it hands the previous step's values to its
  // callback, so the load is in flight while the callback's own memory traffic runs (the
  // callback's stores and atomics keep the compiler from moving a later load above them).  The
  // thread decoder reads them when it needs them: loading ahead cost it registers (48 to 58-62
  // with nvcc 13 for sm_90: 4 blocks per multiprocessor, not 5).
  __device__ __forceinline__ LoadedBits lows(const List& L, int64_t rank) const {
    return load_bits(data, L.lo + (uint64_t)(rank * L.l));
  }
  // Value of rank `rank`, whose one is at bit p.
  __device__ __forceinline__ int64_t value(const List& L, uint64_t p, int64_t rank) const {
    const uint64_t high = p - L.up - (uint64_t)rank;
    return (int64_t)((high << L.l) | take_bits(lows(L, rank), L.l));
  }

  template <class F>
  __device__ __forceinline__ void for_each(int64_t v, int64_t first, int64_t begin, int64_t end,
                                           F&& f) const {
    if (begin >= end) return;  // rank `begin` must exist: the scan below counts ones up to it
    const List L = list(v);
    CGC_REQUIRE(sound(L), FAULT_CODE, v, return)
    int64_t rank = begin / k * k;
    const uint64_t from = pointed_one(L, begin / k);
    CGC_REQUIRE(inside(L, from), FAULT_CODE, v, return)
    CGC_IF_CHECKED(const uint64_t last = (L.stop - 1) >> 5; int64_t previous = -1;)
    uint64_t w = from >> 5;
    uint32_t word = data[w] & (0xFFFFFFFFu << (from & 31));  // bits before `from` are not uppers
    // Skip to rank `begin`: whole words by popcount, then the lowest ones of its word.  The list
    // has n > begin ones, so no skipped word lies past the list's end.
    for (int c = __popc(word); rank + c <= begin; c = __popc(word)) {
      CGC_REQUIRE(w < last, FAULT_CODE, v, return)  // fewer ones than the list's length
      rank += c;
      word = data[++w];
    }
    for (; rank < begin; ++rank) word &= word - 1;
    // Every one up to rank end - 1 <= n - 1 is this list's: the scan stops at the list's last bit
    // at the latest, and the next list's bits in that word are never looked at.
    for (; rank < end; ++rank) {
      while (!word) {
        CGC_REQUIRE(w < last, FAULT_CODE, v, return)
        word = data[++w];
      }
      const uint64_t p = (w << 5) + (uint64_t)(__ffs(word) - 1);
      word &= word - 1;
      const int64_t x = value(L, p, rank);
      CGC_REQUIRE(p < L.stop, FAULT_CODE, v)  // a one of the next list's
      CGC_REQUIRE(x > previous, FAULT_ORDER, v)
      CGC_IF_CHECKED(previous = x;)
      if (emit(f, first + rank, x)) return;  // an early-exit callback is done
    }
  }

  // The calling warp's table of window positions (warp_for_each): the bit (0 .. 1023) of the
  // window of each of its ones, by target; each lane writes its own word's, so a step reads its
  // values' positions instead of searching the window for them.  Declared outside the template
  // so a kernel holds one table whatever callbacks it decodes with (2 KB a warp).
  __device__ __forceinline__ static unsigned short* warp_spots() {
    __shared__ unsigned short spots[WARPS][WARP * WARP];
    return spots[threadIdx.x / WARP];
  }

  // Called by all 32 lanes of a warp with the same arguments; each rank goes to one lane.
  template <class F>
  __device__ __forceinline__ void warp_for_each(int64_t v, int64_t first, int64_t begin,
                                                int64_t end, F&& f) const {
    if (begin >= end) return;
    const List L = list(v);
    CGC_REQUIRE(sound(L), FAULT_CODE, v, return)  // the same for every lane: they return together
    const unsigned lane = lane_id();
    // The low bits of this lane's rank in the next step, loaded a step ahead (lows): the
    // first step's (rank begin + lane) with the first window's upper bits.
    LoadedBits low = begin + lane < end ? lows(L, begin + lane) : LoadedBits{0u, 0u, 0};
    int64_t rank = begin / k * k;  // rank of the first one of the window
    const uint64_t from = pointed_one(L, begin / k);
    CGC_REQUIRE(inside(L, from), FAULT_CODE, v, return)
    const uint64_t last = (L.stop - 1) >> 5;  // the list's last word: lanes past it load nothing
    CGC_IF_CHECKED(int64_t previous = -1;)  // the value of the rank before the step's first
#ifdef CGC_HOST_READS
    // Host reads (kernels/traverse.cuh): windows start at the 128-byte line holding `from`, so
    // every step loads whole lines; the lanes before `from`'s word load nothing.
    const uint64_t start = (from >> 5) & ~(uint64_t)(WARP - 1);
#else
    const uint64_t start = from >> 5;
#endif
    // Lane i's word of the window at w, word w + i: none past the list's last word or before
    // `from`'s, whose bits before `from` are cleared.  The next list's bits in the last word
    // follow this list's n ones, so none of their ones gets a wanted rank.
    auto window_word = [&](uint64_t w) {
      const uint64_t mine = w + lane;
      uint32_t word = mine <= last && mine >= from >> 5 ? data[mine] : 0u;
      if (mine == from >> 5) word &= 0xFFFFFFFFu << (from & 31);
      return word;
    };
    unsigned short* const spot = warp_spots();
    uint32_t next_word = window_word(start);
    for (uint64_t w = start; rank < end; w += WARP) {
      CGC_REQUIRE(w <= last, FAULT_CODE, v, return)  // fewer ones than the list's length
      const uint32_t word = next_word;
      const int count = __popc(word);
      const int through = warp_inclusive_sum(count);  // ones in words w .. w + lane
      const int ones = __shfl_sync(FULL_WARP, through, WARP - 1);
      // The next window's words load while this one's steps run, if it has wanted ranks.
      if (rank + ones < end) next_word = window_word(w + WARP);
      // The window holds ranks rank .. rank + ones - 1, its ones' targets 0 .. ones - 1; the
      // wanted targets are [lo, hi), which lanes take 32 at a time (step t: lane i takes t + i).
      // The value of target x, whose one is bit b of the window (bit b % 32 of word
      // w + b / 32), has high part w * 32 + b - up - (rank + x) = window_high + b - x.
      const int lo = (int)min(max(begin - rank, (int64_t)0), (int64_t)ones);
      const int hi = (int)min(end - rank, (int64_t)ones);
      const int64_t window_high = (int64_t)(w << 5) - (int64_t)L.up - rank;
      __syncwarp();  // every lane has read the last window's spots
      int target = through - count;  // of this lane's lowest one
      for (uint32_t rest = word; rest; rest &= rest - 1)
        spot[target++] = (unsigned short)(lane * 32 + __ffs(rest) - 1);
      __syncwarp();
#pragma unroll 1  // unrolled, it held 70 registers (3 blocks a multiprocessor, not 4)
      for (int t = lo; t < hi; t += WARP) {
        const int mine = t + (int)lane;
        // This step's low bits, loaded a step ago, then the next step's loads: mine + 32, or,
        // after the window's last step, the next window's first step, whose ranks start where
        // this window's end (rank + hi, then its target lane).
        const uint32_t low_bits = take_bits(low, L.l);
        const int64_t next = rank + (t + WARP < hi ? mine + WARP : hi + (int)lane);
        if (next < end) low = lows(L, next);
        auto value_of = [&](int bit) {
          return ((window_high + bit - mine) << L.l) | (int64_t)low_bits;
        };
#ifdef CGC_CHECKED
        // Each lane's value above the one of the rank before (lane 0: the previous step's last).
        int64_t x = (int64_t)(~0ull >> 1);  // lanes without a rank: above any value
        if (mine < hi) {
          CGC_REQUIRE(((w << 5) + spot[mine]) < L.stop, FAULT_CODE, v)  // a one of the next list's
          x = value_of(spot[mine]);
        }
        const int64_t up = __shfl_up_sync(FULL_WARP, x, 1);
        CGC_REQUIRE(mine >= hi || x > (lane ? up : previous), FAULT_ORDER, v)
        previous = __shfl_sync(FULL_WARP, x, min(WARP - 1, hi - 1 - t));
#endif
        if (mine < hi) f(first + rank + mine, value_of(spot[mine]));
      }
      rank += ones;
    }
  }
};

}  // namespace cgc
