// Runs a device view's decoder on the CPU (see cuda_host_shim.h), every buffer in an allocation
// of exactly its size, so AddressSanitizer reports any read past a layout's buffers.  Modes:
//   0  each vertex's list, item after item of `item size` ranks, by for_each in one thread;
//   1  the traversal core as the GPU kernels run it: the lists of degree < `warp degree` in
//      items of `item size` (count_items, a prefix sum, for_each_item with BLOCK threads per
//      tile, for_each), the others in items of `warp item size` (for_each_warp_item, BLOCK / 32
//      warps per tile, warp_for_each);
//   2  each vertex's list, item after item of `warp item size` ranks, by warp_for_each in one
//      warp of 32 lanes;
//   3, 4  PageRank's product (algorithms/pagerank.cu) over every vertex, pulling (3) or pushing
//      (4), with scaled[v] = v % 11 + 1 and weight[slot] = slot % 5 + 1: the lists of degree <
//      `warp degree` by pagerank_spmv<..., false> in items of `item size`, the others by
//      pagerank_spmv<..., true> in items of `warp item size`, the kernels' own code;
//   5  the window of property slots [`warp item size`, `warp degree`) decoded by
//      kernels/traverse.cu's decode_slots over the lists of the vertex set, in items of `item
//      size`: the kernel's own code, writing into an allocation of exactly the window;
//   6  early exit: each vertex's list, item after item of `item size` ranks, by for_each with a
//      callback that stops at the first neighbour x with x % `warp item size` == `warp degree`;
//   7  BFS by algorithms/bfs.cu's kernels, driven as bfs.py drives them (the device-sized item
//      scan of kernels/traverse.cu, bfs_decide, bfs_frontier_bits, bfs_expand through threads
//      for lists of degree < `warp degree` in items of `item size` and through warps in items
//      of `warp item size`, bfs_bottom_up), on small fixed grids; `all` picks the direction
//      rule (0 top-down only, 1 the default Beamer constants, 2 bottom-up from the first level
//      on) and the vertices are the vertex count, then the sources;
//   8  the virtual split's parts (transforms/virtual_parts.cuh): the vertex set's lists in
//      parts of `item size` ranks by for_each_part (count_items, a prefix sum, BLOCK threads
//      per tile), strided where `all` is 1 and the view has random access;
//   9  PageRank by algorithms/pagerank.cu's kernels, driven as pagerank.py drives them: with
//      weight[slot] = slot % 5 + 1, out-weights by the product with every share 1 the other
//      way, their reciprocals (NaN where 0) in the share type, then from 1 / n per iteration
//      the product (pulling or pushing, split as in modes 3 and 4) and pagerank_update, until
//      the L1 change is below tol or max_iter iterations ran, then pagerank_scores; the
//      vertices are n, pull, wide (float64 shares, else float32), max_iter, alpha and tol (as
//      float64 bits), personalized, started, then if personalized the n teleport values and
//      if started the n start scores (float64 bits; else 1 / n each);
//  -1  (stdin holds nothing else) the shim's warp collectives;
//  -2  (stdin holds nothing else) a block whose lane 37 skips a __syncwarp its warp's other
//      lanes reach: the shim must abort, naming a waiting lane.
//
// stdin (little-endian int64 unless said): mode; view index; buffer count, then per buffer its
// byte size and bytes (padded to 8); word count, then per word a tag (0 scalar, 1 buffer) and
// the scalar or the buffer index; edge count; item size; warp item size; warp degree; `all`
// (mode 1: the vertex set is every vertex); vertex count and the vertices.
// stdout (int64): chunk_size(); per vertex first_edge and degree; per property slot the
// neighbour written there (-1 if none) and how many times it was written.  Modes 3 and 4: per
// vertex its entry of the product (small integers, exact in float64 whatever the order).
// Mode 5: per slot of the window the neighbour written there (-1 if none).  Mode 6: per item,
// the slot where the decode stopped (-1: it did not) and how many ranks it handed out.  Mode 7:
// per vertex its distance, per vertex its predecessor, then the number of bottom-up levels.
// Mode 9: the iteration count, then per vertex its score (float64 bits).
// Mode 8: as modes 0-2, then per slot its step (its position among its part's ranks) and the
// slot of its part's first rank.
// Built with -DCGC_CHECKED (kernels/common.cuh), the views bound every read and record faults
// instead: the degrees are the core's (list_degree), the decoders' neighbours pass the core's
// range check (CGC_EDGES), and the output ends with the two words of cgc_fault.
#include "cuda_host_shim.h"
#include "kernels/traverse.cuh"
#include "algorithms/bfs.cu"
#include "algorithms/pagerank.cu"
#include "kernels/traverse.cu"
#include "transforms/virtual_parts.cuh"

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// Generated by the test: for_view(index, f) calls f with a null pointer to view type `index`.
#include "view_types.h"

static int64_t next() {
  int64_t x;
  if (std::fread(&x, 8, 1, stdin) != 1) std::exit(3);
  return x;
}

static void put(const std::vector<int64_t>& values) {
  if (!values.empty()) std::fwrite(values.data(), 8, values.size(), stdout);
}

struct Items {
  int64_t size, min_degree, max_degree;
};

// The vertex set's items of lists with degree in [min_degree, max_degree): their counts (one
// thread, stride 1), prefix-summed; calls launch(scan, total).
template <class View, class Launch>
static void with_items(const View& g, const long long* vertices, int all, int64_t n,
                       const Items& items, Launch&& launch) {
  std::vector<int64_t> scan(n);
  cgc::count_items_impl(g, vertices, all, n, items.size, items.min_degree, items.max_degree,
                        scan.data());
  std::partial_sum(scan.begin(), scan.end(), scan.begin());
  launch(scan.data(), n ? scan[n - 1] : (int64_t)0);
}

// Every item of the vertex set, as the GPU kernels see them (for_each_list_item): short lists
// tile after tile of BLOCK threads, one item each; long ones tile after tile of BLOCK / 32
// warps, one item each.
template <class View, class F>
static void traverse(const View& g, const long long* vertices, int all, int64_t n,
                     const Items& thread_items, const Items& warp_items, F&& f) {
  with_items(g, vertices, all, n, thread_items, [&](const int64_t* scan, int64_t total) {
    const int64_t tile = cgc::BLOCK * cgc::ITEMS;
    shim_launch((unsigned)((total + tile - 1) / tile), cgc::BLOCK, [&] {
      cgc::for_each_list_item<false>(g, vertices, all, scan, n, total, thread_items.size,
                                     [&](int64_t, int64_t, int64_t, auto&& decode) { decode(f); });
    });
  });
  with_items(g, vertices, all, n, warp_items, [&](const int64_t* scan, int64_t total) {
    const int64_t tile = cgc::WARPS * cgc::ITEMS;
    shim_launch((unsigned)((total + tile - 1) / tile), cgc::BLOCK, [&] {
      cgc::for_each_list_item<true>(g, vertices, all, scan, n, total, warp_items.size,
                                    [&](int64_t, int64_t, int64_t, auto&& decode) { decode(f); });
    });
  });
}

// PageRank's product as pagerank.py launches it: lists of degree < `warp degree` through
// threads in items of `item size`, the others through warps in items of `warp item size`.
struct ProductItems {
  int64_t item_size, warp_item_size, warp_degree;
};

// out += the product of `shares` by the PageRank kernels (out = A shares pulling, A^T shares
// pushing), each rank weighted by weights[slot].
template <class View, typename S>
static void spmv(const uint64_t* args, const ProductItems& items, int64_t n, const float* weights,
                 const S* shares, int pull, double* out) {
  const View g = View::load(args);
  const long long* all = nullptr;
  with_items(g, all, 1, n, Items{items.item_size, 0, items.warp_degree},
             [&](const int64_t* scan, int64_t total) {
    const int64_t tile = cgc::BLOCK * cgc::ITEMS;
    shim_launch((unsigned)((total + tile - 1) / tile), cgc::BLOCK, [&] {
      pagerank_spmv<View, long long, float, S, false>(args, all, scan, n, total, items.item_size,
                                                      1, weights, 1, shares, pull, out);
    });
  });
  with_items(g, all, 1, n, Items{items.warp_item_size, items.warp_degree, INT64_MAX},
             [&](const int64_t* scan, int64_t total) {
    const int64_t tile = cgc::WARPS * cgc::ITEMS;
    shim_launch((unsigned)((total + tile - 1) / tile), cgc::BLOCK, [&] {
      pagerank_spmv<View, long long, float, S, true>(args, all, scan, n, total,
                                                     items.warp_item_size, 1, weights, 1, shares,
                                                     pull, out);
    });
  });
}

static std::vector<float> slot_weights(int64_t num_edges) {
  std::vector<float> weights(num_edges);
  for (int64_t slot = 0; slot < num_edges; ++slot) weights[slot] = (float)(slot % 5 + 1);
  return weights;
}

// Modes 3 and 4: the product out = A x (pull) or A^T x (push) by the PageRank kernels.
template <class View>
static void pagerank_product(const uint64_t* args, int64_t num_edges, int pull,
                             const ProductItems& items, int64_t n) {
  const std::vector<float> weights = slot_weights(num_edges);
  std::vector<float> scaled(n);  // shares are stored in the weight type
  std::vector<double> out(n, 0.0);
  for (int64_t v = 0; v < n; ++v) scaled[v] = (float)(v % 11 + 1);
  spmv<View>(args, items, n, weights.data(), scaled.data(), pull, out.data());
  std::vector<int64_t> result(n);
  for (int64_t v = 0; v < n; ++v) result[v] = (int64_t)out[v];
  put(result);
}

static double from_bits(int64_t bits) {
  double x;
  std::memcpy(&x, &bits, 8);
  return x;
}

// Mode 9: PageRank by algorithms/pagerank.cu's kernels, driven as pagerank.py drives them, each
// update on a grid of 3 blocks (its vertex loop wraps).
template <class View, typename S>
static void pagerank(const uint64_t* args, int64_t num_edges, const ProductItems& items,
                     const std::vector<long long>& in) {
  const int64_t n = in.at(0), max_iter = in.at(3);
  const int pull = (int)in.at(1), personalized = (int)in.at(6), started = (int)in.at(7);
  const double alpha = from_bits(in.at(4)), tol = from_bits(in.at(5));
  std::vector<double> personal(personalized ? n : 0), first(n, 1.0 / (double)n);
  for (size_t v = 0; v < personal.size(); ++v) personal[v] = from_bits(in.at(8 + v));
  for (int64_t v = 0; started && v < n; ++v) first[v] = from_bits(in.at(8 + personal.size() + v));
  const std::vector<float> weights = slot_weights(num_edges);
  // Out-weights: the product with every share 1, the other way; their reciprocals, NaN at 0.
  std::vector<double> out_weight(n, 0.0);
  const std::vector<S> ones(n, (S)1);
  spmv<View>(args, items, n, weights.data(), ones.data(), !pull, out_weight.data());
  std::vector<S> inverse(n), shares(n);
  for (int64_t v = 0; v < n; ++v)
    inverse[v] = (S)(out_weight[v] == 0.0 ? std::nan("") : 1.0 / out_weight[v]);
  std::vector<double> second(n, 0.0), sums(4, 0.0);
  double *product = first.data(), *before = second.data();
  const double* teleport = personalized ? personal.data() : product;  // read if personalized
  constexpr unsigned GRID = 3;
  struct Step {
    double alpha, spread;
  };
  auto update = [&](int64_t k, Step step, Step last) {
    double* pair = &sums[2 * (k % 2)];
    shim_launch(GRID, cgc::BLOCK, [&] {
      pagerank_update<S>(product, before, inverse.data(), teleport, personalized, step.alpha,
                         step.spread, last.alpha, last.spread, n, shares.data(), pair,
                         &sums[2 * (1 - k % 2)]);
    });
    return std::pair<double, double>(pair[0], pair[1]);
  };
  Step step{1.0, 0.0}, last{0.0, 0.0};
  double mass = update(0, step, last).second, change = 0.0;
  int64_t iterations = 0;
  do {
    std::swap(product, before);
    spmv<View>(args, items, n, weights.data(), shares.data(), pull, product);
    last = step;
    step = Step{alpha, alpha * mass + (1.0 - alpha)};
    ++iterations;
    std::tie(change, mass) = update(iterations, step, last);
  } while (!(change < tol) && iterations < max_iter);
  shim_launch(GRID, cgc::BLOCK, [&] {
    pagerank_scores(product, teleport, personalized, step.alpha, step.spread, n);
  });
  std::vector<int64_t> out{iterations};
  for (int64_t v = 0; v < n; ++v) {
    int64_t bits;
    std::memcpy(&bits, &product[v], 8);
    out.push_back(bits);
  }
  put(out);
}

// Mode 5: decode_slots as kernels/traversal.py SlotDecoder launches it.
template <class View>
static void decode_window(const uint64_t* args, const std::vector<long long>& vertices,
                          int64_t item_size, int64_t slot0, int64_t slot1) {
  const View g = View::load(args);
  const int64_t n = (int64_t)vertices.size();
  std::vector<int64_t> window(slot1 - slot0, -1);
  with_items(g, vertices.data(), 0, n, Items{item_size, 0, INT64_MAX},
             [&](const int64_t* scan, int64_t total) {
    const int64_t tile = cgc::BLOCK * cgc::ITEMS;
    shim_launch((unsigned)((total + tile - 1) / tile), cgc::BLOCK, [&] {
      decode_slots<View, long long>(args, vertices.data(), scan, n, total, item_size, slot0,
                                    slot1, window.data());
    });
  });
  put(window);
}

// Mode 6: for_each with a callback that returns true at the first wanted neighbour.
template <class View>
static void early_exit(const uint64_t* args, const std::vector<long long>& vertices,
                       int64_t item_size, int64_t modulus, int64_t residue) {
  const View g = View::load(args);
  std::vector<int64_t> out;
  for (long long v : vertices) {
    const int64_t first = g.first_edge(v), degree = cgc::list_degree(g, v);
    for (int64_t begin = 0; begin < degree; begin += item_size) {
      int64_t stop = -1, calls = 0;
      auto wanted = [&](int64_t slot, int64_t x) -> bool {
        ++calls;
        if (x % modulus != residue) return false;
        stop = slot;
        return true;
      };
      g.for_each(v, first, begin, std::min(begin + item_size, degree), CGC_EDGES(g, v, wanted));
      out.push_back(stop);
      out.push_back(calls);
    }
  }
  put(out);
}

// Mode 7: BFS from `sources` over the n vertices, every launch on a small grid (any grid must
// do) and, but for the tile loops (BLOCK threads), of small blocks (any whole warps must do),
// each level's sizes read between launches as the device would.
template <class View>
static void bfs(const uint64_t* args, int64_t n, int64_t num_edges,
                const std::vector<long long>& sources, int64_t item_size, int64_t warp_item_size,
                int64_t warp_degree, int rule) {
  using D = long long;
  constexpr unsigned SCAN_BLOCKS = 3, TILES = 2;
  const int64_t words = (n + 31) / 32;
  std::vector<D> dist(n, INT64_MAX), pred(n, -1), queues[2] = {std::vector<D>(n + 1),
                                                               std::vector<D>(n + 1)};
  std::vector<uint32_t> visited(words + 1), seen(words + 1), bits(words + 1);
  std::vector<int64_t> scan(n + 1), sums(SCAN_BLOCKS + 1);
  unsigned long long sizes[2] = {0, 0}, state[4] = {0, 0, (unsigned long long)num_edges, 0};
  unsigned long long always = 0, edges_unused = 0;
  const double alpha = rule == 2 ? 1e30 : 15.0, beta = rule == 2 ? 1e30 : 18.0;
  const int64_t count = (int64_t)sources.size();
  shim_launch(1, cgc::BLOCK, [&] {
    bfs_seed<D>(sources.data(), count, visited.data(), dist.data(), queues[0].data(), &sizes[0]);
  });
  int64_t bottom_up_levels = 0;
  for (int64_t level = 0; sizes[level % 2]; ++level) {
    const int cur = level % 2, nxt = 1 - cur;
    sizes[nxt] = 0;
    const D* frontier = queues[cur].data();
    shim_launch(TILES, cgc::WARP, [&] {
      bfs_frontier_bits(visited.data(), seen.data(), bits.data(), words);
    });
    const Items passes[2] = {{item_size, 0, warp_degree}, {warp_item_size, warp_degree, INT64_MAX}};
    for (int p = 0; p < 2; ++p) {
      const Items& it = passes[p];
      shim_launch(SCAN_BLOCKS, 2 * cgc::WARP, [&] {
        scan_items_reduce<View, D>(args, frontier, &sizes[cur], p ? state : &always, it.size,
                                   it.min_degree, it.max_degree, sums.data(),
                                   p ? &edges_unused : &state[FRONTIER_EDGES]);
      });
      if (p == 0) {
        shim_launch(1, 1, [&] { bfs_decide(state, &sizes[cur], n, alpha, beta, rule != 0); });
        bottom_up_levels += state[DIRECTION] == BOTTOM_UP;
      }
      shim_launch(1, 2 * cgc::WARP, [&] { scan_items_spine(state, sums.data(), SCAN_BLOCKS); });
      shim_launch(SCAN_BLOCKS, 2 * cgc::WARP, [&] {
        scan_items_finish<View, D>(args, frontier, &sizes[cur], state, it.size, it.min_degree,
                                   it.max_degree, sums.data(), scan.data());
      });
      shim_launch(TILES, cgc::BLOCK, [&] {
        if (p) bfs_expand<View, D, true>(args, frontier, &sizes[cur], state, scan.data(),
                                         &sums[SCAN_BLOCKS], it.size, visited.data(),
                                         dist.data(), pred.data(), queues[nxt].data(),
                                         &sizes[nxt], (D)(level + 1));
        else bfs_expand<View, D, false>(args, frontier, &sizes[cur], state, scan.data(),
                                        &sums[SCAN_BLOCKS], it.size, visited.data(),
                                        dist.data(), pred.data(), queues[nxt].data(),
                                        &sizes[nxt], (D)(level + 1));
      });
    }
    shim_launch(TILES, 2 * cgc::WARP, [&] {
      bfs_bottom_up<View, D>(args, n, state, bits.data(), visited.data(), dist.data(),
                             pred.data(), queues[nxt].data(), &sizes[nxt], (D)(level + 1));
    });
  }
  std::vector<int64_t> out(dist.begin(), dist.end());
  out.insert(out.end(), pred.begin(), pred.end());
  out.push_back(bottom_up_levels);
  put(out);
}

// Mode 8: what for_each_part hands out, slot by slot.
template <class View>
static void virtual_parts(const uint64_t* args, int64_t num_edges, int64_t part_size,
                          int coalesce, const std::vector<long long>& vertices) {
  const View g = View::load(args);
  std::vector<int64_t> head{g.chunk_size()}, firsts, degrees;
  std::vector<int64_t> neighbours(num_edges, -1), hits(num_edges, 0);
  std::vector<int64_t> steps(num_edges, -1), leaders(num_edges, -1);
  for (long long v : vertices) {
    firsts.push_back(g.first_edge(v));
    degrees.push_back(cgc::list_degree(g, v));
  }
  const int64_t n = (int64_t)vertices.size();
  with_items(g, vertices.data(), 0, n, Items{part_size, 0, INT64_MAX},
             [&](const int64_t* scan, int64_t total) {
    const int64_t tile = cgc::BLOCK * cgc::ITEMS;
    shim_launch((unsigned)((total + tile - 1) / tile), cgc::BLOCK, [&] {
      for_each_part(g, vertices.data(), 0, scan, n, total, part_size, coalesce,
                    [&](int64_t, auto&& decode) {
        int64_t step = 0, leader = -1;
        decode([&](int64_t slot, int64_t value) {
          if (slot < 0 || slot >= num_edges) std::abort();
          if (leader < 0) leader = slot;
          std::atomic_ref<int64_t>(neighbours[slot]).store(value);
          std::atomic_ref<int64_t>(hits[slot]).fetch_add(1);
          std::atomic_ref<int64_t>(steps[slot]).store(step++);
          std::atomic_ref<int64_t>(leaders[slot]).store(leader);
        });
      });
    });
  });
  for (const auto* part : {&head, &firsts, &degrees, &neighbours, &hits, &steps, &leaders})
    put(*part);
}

template <class View>
static void run(int64_t mode, const uint64_t* args, int64_t num_edges, int64_t item_size,
                int64_t warp_item_size, int64_t warp_degree, int all,
                const std::vector<long long>& vertices) {
  const View g = View::load(args);
  std::vector<int64_t> head{g.chunk_size()}, firsts, degrees;
  std::vector<int64_t> neighbours(num_edges, -1), hits(num_edges, 0);
  auto record = [&](int64_t slot, int64_t value) {
    if (slot < 0 || slot >= num_edges) std::abort();
    std::atomic_ref<int64_t>(neighbours[slot]).store(value);
    std::atomic_ref<int64_t>(hits[slot]).fetch_add(1);
  };
  for (long long v : vertices) {
    firsts.push_back(g.first_edge(v));
    degrees.push_back(cgc::list_degree(g, v));
  }
  if (mode == 0) {
    for (size_t i = 0; i < vertices.size(); ++i)
      for (int64_t begin = 0; begin < degrees[i]; begin += item_size)
        g.for_each(vertices[i], firsts[i], begin, std::min(begin + item_size, degrees[i]),
                   CGC_EDGES(g, vertices[i], record));
  } else if (mode == 1) {
    traverse(g, vertices.data(), all, (int64_t)vertices.size(), Items{item_size, 0, warp_degree},
             Items{warp_item_size, warp_degree, INT64_MAX}, record);
  } else {
    shim_launch(1, cgc::WARP, [&] {
      for (size_t i = 0; i < vertices.size(); ++i)
        for (int64_t begin = 0; begin < degrees[i]; begin += warp_item_size)
          g.warp_for_each(vertices[i], firsts[i], begin,
                          std::min(begin + warp_item_size, degrees[i]),
                          CGC_EDGES(g, vertices[i], record));
    });
  }
  put(head);
  put(firsts);
  put(degrees);
  put(neighbours);
  put(hits);
}

// Mode -1: the shim's warp collectives, on two warps of a block at once; prints the failures.
static void check_warp_shim() {
  std::atomic<int> failures{0};
  auto expect = [&](bool ok) { if (!ok) ++failures; };
  shim_launch(2, 64, [&] {
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const int64_t mine = ((int64_t)(warp + 2 * blockIdx.x) << 40) | lane;  // wider than 32 bits
    const int64_t from = ((int64_t)(warp + 2 * blockIdx.x) << 40) | ((lane + 5) & 31);
    expect(__shfl_sync(0xFFFFFFFFu, mine, (int)((lane + 5) & 31)) == from);
    int sum = (int)lane + 1;  // inclusive scan by shuffles up
    for (unsigned d = 1; d < 32; d *= 2) {
      const int up = __shfl_up_sync(0xFFFFFFFFu, sum, d);
      if (lane >= d) sum += up;
    }
    expect(sum == (int)((lane + 1) * (lane + 2) / 2));
    expect(cgc::warp_inclusive_sum((int)lane + 1) == (int)((lane + 1) * (lane + 2) / 2));
    // warp_sum: lane 0 gets the total (the other lanes' partial sums are not defined).
    const double total = cgc::warp_sum((double)(lane + 1) + 0.5 * warp);
    if (lane == 0) expect(total == 528.0 + 16.0 * warp);
    const int64_t bits = cgc::warp_sum((int64_t)1 << (lane + 8));  // every lane its own bit
    if (lane == 0) expect(bits == (int64_t)0xFFFFFFFF << 8);
    expect(__ballot_sync(0xFFFFFFFFu, lane % 3 == warp) == (warp ? 0x92492492u : 0x49249249u));
    __syncwarp();
    expect(__activemask() == 1u << lane);
    expect(__shfl_sync(__activemask(), mine, (int)lane) == mine);
    expect(__ballot_sync(__activemask(), 1) == 1u << lane);
  });
  std::printf("%d\n", failures.load());
}

int main() {
  const int64_t mode = next();
  if (mode == -1) {
    check_warp_shim();
    return 0;
  }
  if (mode == -2) {
    shim_launch(1, 64, [] {
      if (threadIdx.x != 37) __syncwarp();
    });
    return 0;
  }
  const int64_t view = next();
  std::vector<void*> buffers(next());
  for (auto& buffer : buffers) {
    const int64_t bytes = next();
    buffer = std::malloc(bytes ? bytes : 1);
    if (bytes && std::fread(buffer, 1, bytes, stdin) != (size_t)bytes) return 3;
    for (int64_t pad = (8 - bytes % 8) % 8; pad > 0; --pad) std::fgetc(stdin);
  }
  std::vector<uint64_t> args(next());
  for (auto& word : args) {
    const int64_t tag = next(), value = next();
    word = tag ? (uint64_t)(uintptr_t)buffers.at(value) : (uint64_t)value;
  }
  const int64_t num_edges = next(), item_size = next(), warp_item_size = next();
  const int64_t warp_degree = next();
  const int all = (int)next();
  std::vector<long long> vertices(next());
  for (auto& v : vertices) v = next();
  for_view(view, [&](auto* tag) {
    using View = std::remove_pointer_t<decltype(tag)>;
    const ProductItems items{item_size, warp_item_size, warp_degree};
    if (mode == 3 || mode == 4) {
      pagerank_product<View>(args.data(), num_edges, mode == 3, items, (int64_t)vertices.size());
      return;
    }
    if (mode == 9) {
      if (vertices.at(2)) pagerank<View, double>(args.data(), num_edges, items, vertices);
      else pagerank<View, float>(args.data(), num_edges, items, vertices);
      return;
    }
    if (mode == 6) {
      early_exit<View>(args.data(), vertices, item_size, warp_item_size, warp_degree);
      return;
    }
    if (mode == 7) {
      bfs<View>(args.data(), vertices.at(0), num_edges,
                std::vector<long long>(vertices.begin() + 1, vertices.end()), item_size,
                warp_item_size, warp_degree, all);
      return;
    }
    if (mode == 8) {
      virtual_parts<View>(args.data(), num_edges, item_size, all, vertices);
      return;
    }
    if (mode == 5) {
      decode_window<std::remove_pointer_t<decltype(tag)>>(args.data(), vertices, item_size,
                                                          warp_item_size, warp_degree);
      return;
    }
    run<std::remove_pointer_t<decltype(tag)>>(mode, args.data(), num_edges, item_size,
                                              warp_item_size, warp_degree, all, vertices);
  });
  for (void* buffer : buffers) std::free(buffer);
#ifdef CGC_CHECKED
  put({(int64_t)cgc_fault[0], (int64_t)cgc_fault[1]});
#endif
  return 0;
}
