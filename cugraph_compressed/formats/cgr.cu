// Device validation of the `cgr` layout: invariants 4 to 9 of a window of lists (formats/cgr.py,
// CGRLayout.validate), one thread a list, with the rules of the host check
// (CGRLists.check_steps), so both name the same rule and list for the same buffers.
//
// The host check runs its checks in steps, each over every list of the window before the next;
// the first step some list breaks is reported, at the first list breaking it.  A list's own
// first broken step does not depend on the other lists, so each thread finds its list's and
// the window keeps the least (step, list) by atomicMin on a packed word.  Two exceptions follow
// the host's order: steps 2 and 3 (a malformed header, too many interval edges) are one group
// ordered by list; step 11 (an id out of range) is ordered by (interval before residual, the
// interval's number or the residual's rank in its segment, list), kept in a second word.
//
// Reads go through Reader, which clamps every position to the window's `last` bit, as the
// host's reader does (so even codes that run past a list decode to the same garbage lengths,
// which a later table entry is compared with), and never reads past the stream's words.
//
// Rule 9 (sorted, distinct, canonical) is decided here only where it surely holds: residuals
// strictly increasing across segments, none inside or next to an interval, no run of
// min_interval_length consecutive residuals.  A list where that fails is a suspect, listed for
// the host, which decodes and re-encodes the suspects alone.
#include "formats/cgr.cuh"

namespace cgc {
namespace cgr_check {

constexpr unsigned long long NONE = ~0ull;
constexpr int64_t MAX_VALUE = (1ll << 33) - 2;  // the largest x code(x) holds (formats/bits.py)
constexpr int LIST_BITS = 21;                   // a window holds fewer than 2**21 lists
constexpr int SUSPECT = 12;                     // check_list's answer for a rule 9 suspect

__device__ __forceinline__ uint64_t low_mask(int width) {
  return width >= 64 ? ~0ull : (1ull << width) - 1ull;
}
// Wrapping int64 addition (numpy's, and the GPU's, without C++'s undefined overflow).
__device__ __forceinline__ int64_t wrap_add(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a + (uint64_t)b);
}
__device__ __forceinline__ int trailing_zeros(uint64_t x) {  // x != 0
  const unsigned low = (unsigned)x;
  return low ? __ffs((int)low) - 1 : 31 + __ffs((int)(unsigned)(x >> 32));
}
__device__ __forceinline__ int bit_length(uint64_t x) { return 64 - __clzll((long long)x); }

// The stream as the host check's reader of a window sees it (formats/bits.py, BitReader).
struct Reader {
  const uint32_t* words;
  int64_t size;  // words of the whole stream
  int64_t last;  // the window's first bit past its data words: reads start at or before it

  // The 64 bits from min(p, last) on.
  __device__ __forceinline__ uint64_t window(int64_t p) const {
    const int64_t c = p < last ? p : last;
    const int64_t w = c >> 5;
    const uint64_t lo = w < size ? words[w] : 0u, hi = w + 1 < size ? words[w + 1] : 0u;
    return (lo | (hi << 32)) >> (c & 31);
  }
  // BitReader.fields: `width` (0..64) bits at p, the high half from p + 32.
  __device__ __forceinline__ uint64_t field(int64_t p, int width) const {
    const int64_t c = p < last ? p : last;
    uint64_t out = window(c) & low_mask(width < 32 ? width : 32);
    if (width > 32) {
      const int64_t high = c + 32 < last ? c + 32 : last;
      out |= (window(high) & low_mask(width - 32)) << 32;
    }
    return out;
  }
};

struct Code {
  int64_t x, length;
  bool ok;
};

// BitReader.codes: code(x) at `pos`, ok when well formed and ending by `limit`.
__device__ __forceinline__ Code read_code(const Reader& r, int64_t pos, int k, int64_t limit) {
  const int64_t safe = pos < r.last ? pos : r.last;
  const uint64_t win = r.window(safe);
  int h = win ? trailing_zeros(win) : -1;
  bool ok = h >= 0 && h <= 32 / k && pos <= r.last;
  if (!ok) h = 0;
  const int s = (h + 1) * k;
  const int64_t t = 1ll << (h * k);
  const int64_t rest = safe + h + 1 < r.last ? safe + h + 1 : r.last;
  int64_t q, extra;
  if (s > 33) {
    q = (int64_t)r.field(rest, s - 1);
    extra = (int64_t)r.field(safe + h + s, 1);
  } else {
    const uint64_t bits = r.window(rest);
    q = (int64_t)(bits & low_mask(s - 1));
    extra = (int64_t)((bits >> (s - 1)) & 1ull);
  }
  const bool wide = q >= t;
  const int64_t x = (wide ? ((q << 1) | extra) - t : q) + t - 1;
  const int64_t length = h + s + (wide ? 1 : 0);
  return {x, length, ok && x <= MAX_VALUE && pos + length <= limit};
}

struct Params {
  int k;
  int64_t min_len, seg, bound;
};

// Walks the intervals of a list that passed the host's interval step, one at a time: for the
// rule 9 test of residuals against them.
struct Intervals {
  int64_t pos, covered, E, v, start, end;  // [start, end): the current interval
  bool any;
  __device__ __forceinline__ void next(const Reader& r, const Params& p, int64_t limit) {
    if (covered >= E) {
      any = false;
      return;
    }
    const Code gap = read_code(r, pos, p.k, limit);
    const Code len = read_code(r, pos + gap.length, p.k, limit);
    start = covered ? wrap_add(end, gap.x + 1) : v + CgrView::unzigzag((uint64_t)gap.x);
    end = wrap_add(start, len.x + p.min_len);
    covered += len.x + p.min_len;
    pos += gap.length + len.length;
    any = true;
  }
};

// The first step of the host check that list v (bits [begin, end), `degree` edges) breaks, 0
// when none, SUSPECT when rule 9 is left to the host; for step 11, `order` gets (kind, pass)
// shifted past the list bits.
__device__ int check_list(const Reader& r, const Params& p, int64_t v, int64_t begin, int64_t end,
                          int64_t degree, uint64_t& order) {
  if (degree == 0) return end > begin ? 1 : 0;
  const Code head = read_code(r, begin, p.k, end);
  if (!head.ok) return 2;
  const int64_t E = head.x;
  if (E > degree) return 3;
  const int64_t n_res = degree - E, S = (n_res + p.seg - 1) / p.seg;
  const bool table = S >= 2;
  const int64_t table_at = begin + head.length + CgrView::TABLE_WIDTH_BITS;
  const int W = table ? (int)r.field(begin + head.length, CgrView::TABLE_WIDTH_BITS) : 0;
  if (table && W == 0) return 4;
  const int64_t body = table ? table_at + S * W : begin + head.length;
  if (body > end) return 5;

  // Intervals (step 6), noting the first id out of range (step 11, kind 0).
  order = NONE;
  int64_t pos = body;
  if (E > 0) {
    int64_t covered = 0, next = 0;
    for (int64_t pass = 0;; ++pass) {
      const Code gap = read_code(r, pos, p.k, end);
      const Code len = read_code(r, pos + gap.length, p.k, end);
      const int64_t start = pass ? wrap_add(next, gap.x + 1)
                                 : v + CgrView::unzigzag((uint64_t)gap.x);
      const int64_t length = len.x + p.min_len;
      pos += gap.length + len.length;
      if (!gap.ok || !len.ok || length > E - covered) return 6;
      covered += length;
      next = wrap_add(start, length);
      if (order == NONE && (start < 0 || wrap_add(start, length - 1) >= p.bound))
        order = (uint64_t)pass << LIST_BITS;
      if (covered == E) break;
    }
  }

  // Residual segments, one after the other: entry j must be where segment j - 1 ended (7), the
  // table's width the bit length of its last entry (8), every code well formed inside the
  // list (9), the last ending at the list's end (10).
  int64_t last_value = 0, run = 0;
  bool suspect = false, bad = false;
  Intervals itv{body, 0, E, v, 0, 0, false};
  if (n_res > 0) itv.next(r, p, end);
  for (int64_t j = 0; j < S; ++j) {
    if (table) {
      const uint64_t entry = r.field(table_at + j * W, W);
      if (entry != (uint64_t)(pos - body)) return 7;
      if (j == S - 1 && W != bit_length(entry)) return 8;
    }
    if (pos > r.last) pos = r.last + 1;  // as the host starts a segment (CGRLists._segment_plan)
    const int64_t count = min(p.seg, n_res - j * p.seg);
    int64_t value = 0;
    for (int64_t i = 0; i < count; ++i) {
      const Code c = read_code(r, pos, p.k, end);
      pos += c.length;
      if (!c.ok) {
        bad = true;
        break;
      }
      value = i ? wrap_add(value, c.x + 1) : v + CgrView::unzigzag((uint64_t)c.x);
      if (value < 0 || value >= p.bound) {  // step 11, kind 1: after every interval
        const uint64_t mine = (1ull << 62) | ((uint64_t)i << LIST_BITS);
        order = mine < order ? mine : order;
      }
      if (suspect) continue;
      // Rule 9 (see the top): the residuals so far increase, none touches an interval.
      if (j || i) {
        if (value <= last_value) {
          suspect = true;
          continue;
        }
        run = value == wrap_add(last_value, 1) ? run + 1 : 1;
      } else {
        run = 1;
      }
      last_value = value;
      while (itv.any && itv.end < value) itv.next(r, p, end);
      suspect = run >= p.min_len || (itv.any && wrap_add(itv.start, -1) <= value);
    }
  }
  if (bad) return 9;
  if (pos != end) return 10;
  if (order != NONE) return 11;
  return suspect ? SUSPECT : 0;
}

}  // namespace cgr_check
}  // namespace cgc

// Lists v0 .. v1 - 1 (fewer than 2**21) of a layout whose offsets are checked: out[0] gets the
// least (step group << 56 | list - v0 << 8 | step) of the lists breaking a step (step 11:
// group 11 alone), out[1] the least (kind << 62 | pass << 21 | list - v0) of the lists breaking
// step 11, out[2] counts the suspects of rule 9, the first `capacity` of them in `suspects`.
// `last`: 32 * ceil(first_bit(v1) / 32), where the host's reader of the window clamps.
extern "C" __global__ void cgr_check_lists(
    const uint32_t* edge_offsets, const int64_t* edge_high, int64_t edge_high_count,
    const uint32_t* bit_offsets, const int64_t* bit_high, int64_t bit_high_count,
    const uint32_t* stream, int64_t stream_words, int64_t v0, int64_t v1, int64_t last,
    int64_t bound, int k, int64_t min_len, int64_t seg, unsigned long long* out,
    int64_t* suspects, int64_t capacity) {
  using namespace cgc;
  using namespace cgc::cgr_check;
  const Reader r{stream, stream_words, last};
  const Params p{k, min_len, seg, bound};
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t v = v0 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; v < v1; v += stride) {
    const int64_t e0 = CgrView::join(edge_offsets, edge_high, edge_high_count, v);
    const int64_t e1 = CgrView::join(edge_offsets, edge_high, edge_high_count, v + 1);
    const int64_t b0 = CgrView::join(bit_offsets, bit_high, bit_high_count, v);
    const int64_t b1 = CgrView::join(bit_offsets, bit_high, bit_high_count, v + 1);
    uint64_t order = NONE;
    const int step = check_list(r, p, v, b0, b1, e1 - e0, order);
    const unsigned long long local = (unsigned long long)(v - v0);
    if (step == SUSPECT) {
      const unsigned long long at = atomicAdd(out + 2, 1ull);
      if ((int64_t)at < capacity) suspects[at] = v;
    } else if (step == 11) {
      atomicMin(out, (11ull << 56) | 11ull);
      atomicMin(out + 1, (unsigned long long)order | local);
    } else if (step) {
      const unsigned long long group = step == 3 ? 2 : step;
      atomicMin(out, (group << 56) | (local << 8) | (unsigned long long)step);
    }
  }
}
