// Kernels of the algorithms on a virtually split graph (transforms/virtual_device.py).
//
// A pass hands out the lists of a vertex set as the traversal core's items (traverse.cuh:
// count_items, a prefix sum, for_each_item), one per thread, items of `item_size` ranks: list u
// of degree d gets n = ceil(d / item_size) items, its virtual vertices, and item j is part j of
// the family.  `coalesce` and a view with random access (RankAccess: csr, fl, ef): part j decodes
// ranks j, j + n, j + 2n, ... (Tigr's edge-array coalescing: at each step the threads of a
// family, consecutive in the grid, read consecutive ranks).  Otherwise part j is the item's
// contiguous ranks, the core's own decode (cgr always: its residual gaps are sequential within
// a segment, so contiguous segments are its independent starts).  Values stay on the physical
// vertex: the per-edge routines are the algorithms' own (bfs.cu's Discover, sssp.cu's Relax,
// components.cu's Hook) or, for PageRank's product, one atomic per part.
#include "algorithms/bfs.cu"
#include "algorithms/components.cu"
#include "algorithms/sssp.cu"
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

// BFS, one top-down level: the first to claim v (bfs.cu's Discover) writes its level and
// predecessor and appends it to the next frontier.
template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
virtual_bfs_expand(const uint64_t* view, const D* frontier, const int64_t* scan, int64_t n,
                   int64_t total, int64_t item_size, int coalesce, uint32_t* visited, D* dist,
                   D* pred, D* next, unsigned long long* next_size, D next_level) {
  const View g = View::load(view);
  const Discover<D> discover{visited, dist, pred, next, next_size, next_level};
  for_each_part(g, frontier, 0, scan, n, total, item_size, coalesce,
                [&](int64_t u, auto&& decode) {
    decode([&](int64_t, int64_t v) { discover(u, v); });
  });
}

// SSSP, one Bellman-Ford round over the frontier: sssp.cu's Relax with no far pile (its split
// is the cutoff, which every kept candidate is below), so every improved vertex joins the next
// frontier once (the `queued` bitmap).
template <class View, typename D, typename W>
__global__ void __launch_bounds__(cgc::BLOCK)
virtual_sssp_relax(const uint64_t* view, const D* frontier, const int64_t* scan, int64_t n,
                   int64_t total, int64_t item_size, int coalesce, const W* weights,
                   W cutoff, W* dist, uint32_t* queued, D* next,
                   unsigned long long* next_size) {
  const View g = View::load(view);
  const Relax<D, W, Distances<W>> relax{weights, cutoff, cutoff, Distances<W>{dist},
                                        queued, nullptr, next, next_size};
  for_each_part(g, frontier, 0, scan, n, total, item_size, coalesce,
                [&](int64_t u, auto&& decode) {
    const W du = dist[u];
    decode([&](int64_t slot, int64_t v) { relax(u, du, slot, v); });
  });
}

// WCC: every edge links the trees of its ends (components.cu's Hook, smaller end first).
template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
virtual_wcc_hook(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n,
                 int64_t total, int64_t item_size, int coalesce, D* parent) {
  const View g = View::load(view);
  const Hook<D> hook{parent};
  for_each_part(g, unused, 1, scan, n, total, item_size, coalesce,
                [&](int64_t u, auto&& decode) {
    decode([&](int64_t, int64_t v) { hook(u, v); });
  });
}

// PageRank's product over every list: pull adds values[v] * w(slot) into u's entry (a part's
// sum, one atomic), push adds values[u] * w(slot) into each v's.  Sums are float64.
template <class View, typename D, typename W>
__global__ void __launch_bounds__(cgc::BLOCK)
virtual_pagerank_spmv(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n,
                      int64_t total, int64_t item_size, int coalesce, const W* weights,
                      int weighted, const double* values, int pull, double* out) {
  const View g = View::load(view);
  for_each_part(g, unused, 1, scan, n, total, item_size, coalesce,
                [&](int64_t u, auto&& decode) {
    if (pull) {
      double sum = 0.0;
      decode([&](int64_t slot, int64_t v) {
        sum += values[v] * (weighted ? (double)weights[slot] : 1.0);
      });
      if (sum != 0.0) atomicAdd(out + u, sum);
    } else {
      const double mine = values[u];
      decode([&](int64_t slot, int64_t v) {
        atomicAdd(out + v, mine * (weighted ? (double)weights[slot] : 1.0));
      });
    }
  });
}
