// The ef layout's GPU encoder (format and host reference: formats/elias_fano.py).  A run of
// lists a .. a + count - 1 (the sentinel, when in the run, is an empty list) takes one pass
// per step: the input checks over its edges, per-list numbers over its entries, the rows of
// `blocks` (sizing), then the records over its entries and the codes over its edges
// (writing).  Ids are read as unsigned 32- or 64-bit words (the template arguments): the
// driver views int32/int64 arrays as such, without a copy.  Every field is ORed into a
// zeroed stream with atomics, so runs and ranges sharing a word may be written in any order.
#include "kernels/bits.cuh"

namespace {

__device__ __forceinline__ int64_t bit_length(uint64_t x) { return 64 - __clzll((long long)x); }

// An id as int64: a 32-bit word sign-extended when its array is signed, a 64-bit word as it
// is (an unsigned id of 2**63 or more then reads negative, outside every range, as it is).
template <typename T>
__device__ __forceinline__ int64_t as_int64(T word, int is_signed) {
  if (sizeof(T) == 4 && is_signed) return (int64_t)(int32_t)word;
  return (int64_t)word;
}

// The position of a lane past the end of its input: after every field, so positions stay
// non-decreasing with the lane, and far from overflowing when a field offset is added.
constexpr uint64_t PAST_END = 1ull << 62;

// OR one field per lane into the stream, called by all 32 lanes of a warp: the lanes of
// each run of neighbours aiming at one word combine their bits (a segmented OR scan over
// shuffles), then the run's last lane issues the atomics.  Correct for any positions; fast
// when they do not decrease with the lane (consecutive edges or entries), as then lanes on
// one word are neighbours and a word costs one atomic per warp instead of one per field.
// A lane with nothing to write passes value 0 (past the input, at PAST_END).
__device__ __forceinline__ void warp_or_bits(uint32_t* words, uint64_t pos, uint32_t value) {
  const unsigned lane = cgc::lane_id();
  const uint64_t word = pos >> 5;
  uint64_t bits = (uint64_t)value << (pos & 31);  // words `word` and `word + 1`
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    const uint64_t other_bits = __shfl_up_sync(cgc::FULL_WARP, bits, d);
    const uint64_t other_word = __shfl_up_sync(cgc::FULL_WARP, word, d);
    if (lane >= d && other_word == word) bits |= other_bits;
  }
  const uint64_t next_word = __shfl_down_sync(cgc::FULL_WARP, word, 1);
  if (lane == 31 || next_word != word) {
    if ((uint32_t)bits) atomicOr(words + word, (uint32_t)bits);
    if (bits >> 32) atomicOr(words + word + 1, (uint32_t)(bits >> 32));
  }
}

// Where the loops below start: the first item of the thread's warp (block sizes are
// multiples of 32), so a warp's lanes take consecutive items and leave the loop together.
__device__ __forceinline__ int64_t warp_first_item() {
  return blockIdx.x * (int64_t)blockDim.x + (threadIdx.x & ~31u);
}

}  // namespace

// Sets *bad when an entry is not part of sorted lists of distinct values below value_bound
// owned by lists 0 .. num_lists - 1 (an id out of range, lists out of order, a value not
// above the one before it in its list); the driver then names the first bad entry the host
// way.  Nothing else is written.
template <typename O, typename V>
__global__ void ef_check(const O* owner, const V* values, int64_t size, int owner_signed,
                         int values_signed, int64_t num_lists, int64_t value_bound,
                         uint32_t* bad) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < size; i += stride) {
    const int64_t o = as_int64(owner[i], owner_signed), x = as_int64(values[i], values_signed);
    bool wrong = o < 0 || o >= num_lists || x < 0 || x >= value_bound;
    if (i > 0) {
      const int64_t before = as_int64(owner[i - 1], owner_signed);
      wrong |= o < before || (o == before && x <= as_int64(values[i - 1], values_signed));
    }
    if (wrong) *bad = 1;
  }
}

// Per entry e of the run (first: count + 1 run-local value offsets): l[e] and, in
// sizes[e + 1], the bits of its code (pointers, lows, uppers); both arrays arrive zeroed, so
// empty lists write nothing and a prefix sum of sizes gives every entry's run-local start.
template <typename V>
__global__ void ef_entries(const V* values, const int64_t* first, int64_t count, int64_t k,
                           unsigned char* l, int64_t* sizes) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < count; e += stride) {
    const int64_t n = first[e + 1] - first[e];
    if (n == 0) continue;
    const int64_t u = (int64_t)values[first[e + 1] - 1] + 1;
    const int64_t low_bits = max(bit_length(u / n) - 1, (int64_t)0);
    const int64_t m = (n - 1) / k;
    const int64_t w_fp = m > 0 ? bit_length(2 * n - 1) : 0;
    l[e] = (unsigned char)low_bits;
    sizes[e + 1] = m * w_fp + n * low_bits + n + ((u - 1) >> low_bits);
  }
}

// Row r of the run's rows of `blocks` (`rows`, 4 int64 each; row r holds the run's entries
// r * B .. min(r * B + B, count) - 1): every column but the record offset [2], and the bits
// of its records in record_sizes[r + 1] (record_sizes[0] holds the run's first record bit,
// so a prefix sum gives every row's record offset).  first and start are run-local
// (value_base and data_base: the run's first value and data bit); row_l: each row's top l.
extern "C" __global__ void ef_rows(const int64_t* first, const int64_t* start,
                                   const unsigned char* row_l, int64_t count, int64_t B,
                                   int64_t value_base, int64_t data_base, int64_t* rows,
                                   int64_t* record_sizes) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t num_rows = (count + B - 1) / B;
  for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < num_rows; r += stride) {
    const int64_t head = r * B, last = min(head + B, count) - 1;
    const int64_t we = bit_length(first[last] - first[head]);
    const int64_t wb = bit_length(start[last] - start[head]);
    const int64_t wl = bit_length(row_l[r]);
    rows[4 * r] = first[head] + value_base;
    rows[4 * r + 1] = start[head] + data_base;
    rows[4 * r + 3] = we | wb << 8 | wl << 16;
    record_sizes[r + 1] = (last - head + 1) * (we + wb + wl);
  }
}

// The records of entries a .. a + count - 1 (first, start and l run-local as ef_entries and
// a prefix sum left them; *bit_base the run's first data bit, blocks final): value offset,
// bit offset and l, each relative to its row's head, ORed into `records`.
extern "C" __global__ void ef_records(const int64_t* blocks, const int64_t* first,
                                      const int64_t* start, const unsigned char* l,
                                      const int64_t* bit_base, int64_t a, int64_t count,
                                      int64_t value_base, int log2_block, uint32_t* records) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t e0 = warp_first_item(); e0 < count; e0 += stride) {
    const int64_t e = e0 + cgc::lane_id();
    // Fields wider than 32 bits go as their low 32 bits at p and the rest at p + 32.
    uint64_t at = PAST_END, we = 0, wb = 0, offset = 0, bit = 0;
    uint32_t low_bits = 0;
    if (e < count) {
      const int64_t entry = a + e, row = entry >> log2_block;
      const int64_t* head = blocks + 4 * row;
      const int64_t widths = head[3];
      we = widths & 0xFF;
      wb = (widths >> 8) & 0xFF;
      at = head[2] + (entry - (row << log2_block)) * (int64_t)(we + wb + ((widths >> 16) & 0xFF));
      offset = first[e] + value_base - head[0];
      bit = *bit_base + start[e] - head[1];
      low_bits = l[e];
    }
    warp_or_bits(records, at, (uint32_t)offset);
    warp_or_bits(records, at + 32, (uint32_t)(offset >> 32));
    warp_or_bits(records, at + we, (uint32_t)bit);
    warp_or_bits(records, at + we + 32, (uint32_t)(bit >> 32));
    warp_or_bits(records, at + we + wb, low_bits);
  }
}

// The codes of the run's edges (owner[i] its list, values[i] its value; first, start, l and
// *bit_base as for ef_records): per edge its low bits and its upper one bit, and for an edge
// of rank j * k (j >= 1) forward pointer j, ORed into `data`.
template <typename O, typename V>
__global__ void ef_codes(const O* owner, const V* values, int64_t size, int64_t a,
                         const int64_t* first, const int64_t* start, const unsigned char* l,
                         const int64_t* bit_base, int64_t k, uint32_t* data) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i0 = warp_first_item(); i0 < size; i0 += stride) {
    const int64_t i = i0 + cgc::lane_id();
    uint64_t low_at = PAST_END, up_at = PAST_END;
    uint32_t low = 0, one = 0;
    if (i < size) {
      const int64_t e = (int64_t)owner[i] - a, f = first[e], n = first[e + 1] - f;
      const int64_t rank = i - f, s = *bit_base + start[e];
      const int low_bits = l[e];
      const uint64_t x = (uint64_t)values[i];
      const int64_t m = n > k ? (n - 1) / k : 0;  // (n - 1) // k without a division mostly
      const int64_t w_fp = m > 0 ? bit_length(2 * n - 1) : 0;
      const int64_t lo = s + m * w_fp, up = lo + n * low_bits;
      low = (uint32_t)(x & ((1ull << low_bits) - 1ull));
      low_at = lo + rank * low_bits;
      one = 1;
      up_at = up + (int64_t)(x >> low_bits) + rank;
      if (rank >= k && rank % k == 0)  // pointer j = rank / k, at s + (j - 1) * w_fp
        cgc::or_bits(data, s + (rank / k - 1) * w_fp, (uint32_t)(x >> low_bits));
    }
    warp_or_bits(data, low_at, low);
    warp_or_bits(data, up_at, one);
  }
}
