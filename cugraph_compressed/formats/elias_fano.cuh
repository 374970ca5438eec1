// Device view of the `ef` layout (two-level entries, list coding, bit order and padding:
// formats/elias_fano.py).
//
// A list of n values is [ m = (n - 1) / k forward pointers ][ n lows of l bits ][ upper bits ],
// value i being ((position of the i-th one - up - i) << l) | low_i.  One thread decodes a rank
// range sequentially: it starts at the one of rank 0 (bit up) or of rank j * k (pointer j), walks
// the upper bits word by word and reads each value's low bits at lo + i * l.
#pragma once
#include "kernels/bits.cuh"

namespace cgc {

struct EfView {
  const int64_t* blocks;  // rows of 4: first, start, record bit position, widths
  const uint32_t* records;
  const uint32_t* data;
  int64_t k;       // forward-pointer stride
  int log2_block;  // log2 of the entries per row

  __device__ static EfView load(const uint64_t* args) {
    return {reinterpret_cast<const int64_t*>(args[0]), reinterpret_cast<const uint32_t*>(args[1]),
            reinterpret_cast<const uint32_t*>(args[2]), (int64_t)args[3], (int)args[4]};
  }

  // Where entry e's record lies: its row, its bit position in `records` and the row's widths.
  struct Record {
    const int64_t* row;
    uint64_t at;
    int we, wb, wl;
  };
  __device__ __forceinline__ Record record(int64_t e) const {
    const int64_t b = e >> log2_block;
    const int64_t* row = blocks + 4 * b;
    const uint32_t widths = (uint32_t)row[3];  // we | wb << 8 | wl << 16
    const int we = widths & 0xFF, wb = (widths >> 8) & 0xFF, wl = (widths >> 16) & 0xFF;
    const int64_t at = row[2] + (e - (b << log2_block)) * (we + wb + wl);
    return {row, (uint64_t)at, we, wb, wl};
  }
  __device__ __forceinline__ int64_t first_of(const Record& r) const {
    return r.row[0] + (int64_t)read_wide_bits(records, r.at, r.we);
  }

  __device__ __forceinline__ int64_t first_edge(int64_t v) const { return first_of(record(v)); }
  __device__ __forceinline__ int64_t degree(int64_t v) const {
    return first_of(record(v + 1)) - first_of(record(v));
  }
  __device__ __forceinline__ int64_t chunk_size() const { return k; }

  template <class F>
  __device__ __forceinline__ void for_each(int64_t v, int64_t first, int64_t begin, int64_t end,
                                           F&& f) const {
    if (begin >= end) return;  // rank `begin` must exist: the scan below counts ones up to it
    const Record rec = record(v);
    const int64_t n = first_of(record(v + 1)) - first_of(rec);
    const uint64_t start = (uint64_t)rec.row[1] + read_wide_bits(records, rec.at + rec.we, rec.wb);
    const int l = (int)read_bits(records, rec.at + rec.we + rec.wb, rec.wl);
    const int64_t m = (n - 1) / k;
    const int w_fp = m ? 64 - __clzll(2 * n - 1) : 0;  // bit_length(2n - 1)
    const uint64_t lo = start + (uint64_t)(m * w_fp);
    const uint64_t up = lo + (uint64_t)(n * l);
    // Start at the one of rank j * k, j = begin / k: bit up for j = 0, else pointer j (at
    // start + (j - 1) * w_fp) holds its position - up - j * k.
    const int64_t j = begin / k;
    int64_t rank = j * k;
    uint64_t from = up;
    if (j) from += (uint64_t)rank + read_wide_bits(data, start + (uint64_t)((j - 1) * w_fp), w_fp);
    uint64_t w = from >> 5;
    uint32_t word = data[w] & (0xFFFFFFFFu << (from & 31));  // bits before `from` are not uppers
    // Skip to rank `begin`: whole words by popcount, then the lowest ones of its word.  The list
    // has n > begin ones, so no skipped word lies past the list's end.
    for (int c = __popc(word); rank + c <= begin; c = __popc(word)) {
      rank += c;
      word = data[++w];
    }
    for (; rank < begin; ++rank) word &= word - 1;
    // Every one up to rank end - 1 <= n - 1 is this list's: the scan stops at the list's last bit
    // at the latest, and the next list's bits in that word are never looked at.
    for (; rank < end; ++rank) {
      while (!word) word = data[++w];
      const uint64_t p = (w << 5) + (uint64_t)(__ffs(word) - 1);
      word &= word - 1;
      const uint64_t high = p - up - (uint64_t)rank;
      f(first + rank, (int64_t)((high << l) | read_bits(data, lo + (uint64_t)(rank * l), l)));
    }
  }
};

}  // namespace cgc
