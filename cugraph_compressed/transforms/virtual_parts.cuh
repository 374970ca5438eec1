// The virtual split's parts (transforms/virtual.py): lists handed out as the traversal core's
// items (kernels/traverse.cuh: count_items, a prefix sum, for_each_item), one per thread, items
// of `item_size` ranks: list u of degree d gets n = ceil(d / item_size) items, its virtual
// vertices, and item j is part j of the family.  With `coalesce` and a view with random access
// (RankAccess: csr, fl, ef), part j decodes ranks j, j + n, j + 2n, ... (Tigr's edge-array
// coalescing: at each step the threads of a family, consecutive in the grid, read consecutive
// ranks).  Otherwise part j is the item's contiguous ranks, the core's own decode (cgr always:
// its residual gaps are sequential within a segment, so contiguous segments are its
// independent starts).
#pragma once
#include "kernels/traverse.cuh"

// Views whose lists can be decoded from any rank (strided parts).
template <class View>
struct RankAccess {
  static constexpr bool value = false;
};
template <typename V, typename O>
struct RankAccess<cgc::CsrView<V, O>> {
  static constexpr bool value = true;
};
template <>
struct RankAccess<cgc::FlView> {
  static constexpr bool value = true;
};
template <>
struct RankAccess<cgc::EfView> {
  static constexpr bool value = true;
};

// Ranks j, j + n, j + 2n, ... below d of v's list (first slot `first`): f(slot, neighbour).
template <typename V, typename O, class F>
__device__ __forceinline__ void for_each_strided(const cgc::CsrView<V, O>& g, int64_t v,
                                                 int64_t first, int64_t j, int64_t n, int64_t d,
                                                 F&& f) {
  for (int64_t r = j; r < d; r += n) {
    CGC_REQUIRE(r == 0 || g.indices[first + r - 1] < g.indices[first + r], cgc::FAULT_ORDER, v)
    f(first + r, (int64_t)g.indices[first + r]);
  }
}

template <class F>
__device__ __forceinline__ void for_each_strided(const cgc::FlView& g, int64_t v, int64_t first,
                                                 int64_t j, int64_t n, int64_t d, F&& f) {
  for (int64_t r = j; r < d; r += n) {
    const int64_t x = cgc::FlView::field(g.indices, first + r, g.index_width);
    CGC_REQUIRE(r == 0 || cgc::FlView::field(g.indices, first + r - 1, g.index_width) < x,
                cgc::FAULT_ORDER, v)
    f(first + r, x);
  }
}

// Elias-Fano: a cursor (rank, word w, the ones of `word` being ranks >= rank) moves forward
// from rank to rank; it jumps to the forward pointer of a rank's block when that pointer lies
// ahead of it (the stride spans more than a block), else it skips ones by popcount.
template <class F>
__device__ __forceinline__ void for_each_strided(const cgc::EfView& g, int64_t v, int64_t first,
                                                 int64_t j, int64_t n, int64_t d, F&& f) {
  if (j >= d) return;
  const cgc::EfView::List L = g.list(v);
  CGC_REQUIRE(g.sound(L), cgc::FAULT_CODE, v, return)
  CGC_IF_CHECKED(const uint64_t last = (L.stop - 1) >> 5;)
  int64_t rank = -1;
  uint64_t w = 0;
  uint32_t word = 0;
  for (int64_t r = j; r < d; r += n) {
    const int64_t block = r / g.k;
    if (block * g.k > rank) {
      const uint64_t from = g.pointed_one(L, block);
      CGC_REQUIRE(cgc::EfView::inside(L, from), cgc::FAULT_CODE, v, return)
      rank = block * g.k;
      w = from >> 5;
      word = g.data[w] & (0xFFFFFFFFu << (from & 31));  // bits before `from` are not uppers
    }
    // The list holds d > r ones, so no skipped word lies past its end.
    for (int c = __popc(word); rank + c <= r; c = __popc(word)) {
      CGC_REQUIRE(w < last, cgc::FAULT_CODE, v, return)
      rank += c;
      word = g.data[++w];
    }
    for (; rank < r; ++rank) word &= word - 1;
    const uint64_t p = (w << 5) + (uint64_t)(__ffs(word) - 1);
    CGC_REQUIRE(p < L.stop, cgc::FAULT_CODE, v, return)
    f(first + r, g.value(L, p, r));
    word &= word - 1;
    ++rank;
  }
}

// The parts of the lists of vertices[0, n) (all: every vertex): f(u, decode) per part, where
// decode(edge) calls edge(slot, v) for each rank of the part.  `coalesce` is a launch argument,
// not a template flag: one instantiation per view serves both kinds of parts.
template <class View, typename D, class F>
__device__ __forceinline__ void for_each_part(const View& g, const D* vertices, int all,
                                              const int64_t* scan, int64_t n, int64_t total,
                                              int64_t item_size, int coalesce, F&& f) {
  cgc::for_each_item(g, vertices, all, scan, n, total, item_size,
                     [&](int64_t, int64_t u, int64_t first, int64_t begin, int64_t end) {
    auto decode = [&](auto&& edge) {
      if constexpr (RankAccess<View>::value) {
        if (coalesce) {
          const int64_t d = cgc::list_degree(g, u);
          for_each_strided(g, u, first, begin / item_size, (d + item_size - 1) / item_size, d,
                           CGC_EDGES(g, u, edge));
          return;
        }
      }
      g.for_each(u, first, begin, end, CGC_EDGES(g, u, edge));
    };
    f(u, decode);
  }, blockIdx.x);
}
