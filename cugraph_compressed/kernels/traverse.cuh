// The traversal core shared by every algorithm kernel: work over the lists of a vertex set
// (a frontier, or all vertices), split into items of a fixed number of ranks and spread evenly
// over threads or warps, whatever the degree skew.
//
// Protocol: the driver launches count_items over the vertex set (only the lists whose degree
// lies in [min_degree, max_degree) get items), takes an inclusive prefix sum of the counts
// (`scan`), then a kernel that calls for_each_item or for_each_warp_item.  Each block owns a
// tile of consecutive items, finds their owners by binary search in `scan` and hands each item
// to the caller's functor:
//   f(i, u, first, begin, end)   i: index in the vertex set, u: the vertex, first: property slot
//                                of u's first neighbour, ranks begin .. end - 1 of u's list.
// An item covers `item_size` ranks, a multiple of the view's chunk_size() (where its decoder
// can start), so long lists are shared by many threads, warps and blocks.
//
// Two granularities, one protocol:
// * for_each_item: one item per thread (a tile of BLOCK * ITEMS items per block); f decodes it
//   with View::for_each, sequentially.
// * for_each_warp_item: one item per warp (a tile of WARPS * ITEMS items per block); the 32
//   lanes call f together with the same arguments and f decodes the item with
//   View::warp_for_each, which hands every rank to exactly one lane.  item_size must also be a
//   multiple of 32.  Lanes share the work of one list as the format allows (consecutive ranks
//   for random-access layouts, a cooperative scan of the upper bits for Elias-Fano, one
//   segment per lane for CGR), so reads are coalesced and a long list does not wait on one
//   thread.  Drivers send only lists long enough to fill a warp item this way.
// Algorithm kernels take the granularity as a template flag and use for_each_list_item, which
// picks the item loop and hands their routine the matching decoder: one kernel per pass.
//
// Host reads (-DCGC_HOST_READS: the build kernels/traversal.py loads for a graph whose per-edge
// buffers are in pinned host memory, read zero-copy over PCIe, where a request costs a whole
// 128-byte line): warps read lists in line-aligned, coalesced requests, as EMOGI does.  For the
// random-access views (csr, fl: RandomAccess below) the core schedules it, the views' loads
// unchanged:
// * one-rank thread items: a list's items are padded in front to its group of 32 slots (the
//   lead: first_edge % 32) and behind to a multiple of 32, so every warp of a tile takes the 32
//   slots of one aligned group of one list (one 128-byte line of 32-bit indices), lanes
//   outside the list idle;
// * warp items: the warp starts at the aligned group holding the item's first slot and drops
//   the ranks before the item (lanes masked), so every step of its 32 lanes loads one group.
// Elias-Fano's warp decoder starts its upper-bit window at the line holding its first word
// (formats/elias_fano.cuh).  Checked builds keep the plain schedule (a CSR view's order check
// reads the rank before a masked one, another list's).  What is read and how results come out
// is the same: every rank still goes to exactly one thread.
#pragma once
#include "kernels/common.cuh"
#include "formats/views.cuh"

namespace cgc {

constexpr int ITEMS = 4;  // items per thread (BLOCK, WARPS: kernels/common.cuh)

template <typename D>
__device__ __forceinline__ int64_t member(const D* vertices, int all, int64_t i) {
  return all ? i : (int64_t)vertices[i];
}

// Views whose every rank is a start and whose rank r of list v is slot first + r, even for
// ranks outside the list (formats/csr.cuh, formats/fixed_length.cuh).
template <class View> struct RandomAccess { static constexpr bool value = false; };
template <typename V, typename O> struct RandomAccess<CsrView<V, O>> {
  static constexpr bool value = true;
};
template <> struct RandomAccess<FlView> { static constexpr bool value = true; };

#if defined(CGC_HOST_READS) && !defined(CGC_CHECKED)
#define CGC_ALIGNED_READS 1
#endif
// Slots of an aligned group: what the 32 lanes of a warp load in one step.
constexpr int64_t GROUP = WARP;

// Whether items of `item_size` ranks are scheduled in aligned groups (host reads above).
template <class View>
__device__ __forceinline__ constexpr bool grouped(int64_t item_size) {
#ifdef CGC_ALIGNED_READS
  return RandomAccess<View>::value && item_size == 1;
#else
  return false;
#endif
}

// Items of a list of `degree` ranks whose first slot is `first`.
template <class View>
__device__ __forceinline__ int64_t items_in(int64_t first, int64_t degree, int64_t item_size) {
  if (grouped<View>(item_size))
    return degree ? ((first & (GROUP - 1)) + degree + GROUP - 1) / GROUP * GROUP : 0;
  return (degree + item_size - 1) / item_size;
}

// The length of u's list as the core hands it out: a checked build (kernels/common.cuh) takes a
// list that leaves [0, E] for an empty one and records the fault.
template <class View>
__device__ __forceinline__ int64_t list_degree(const View& g, int64_t u) {
#ifdef CGC_CHECKED
  const int64_t first = g.first_edge(u), next = g.first_edge(u + 1);
  CGC_REQUIRE(0 <= first && first <= next && next <= g.bounds.edges, FAULT_LIST_EXTENT, u,
              return 0)
  return next - first;
#else
  return g.degree(u);
#endif
}

#ifdef CGC_CHECKED
// The decoder's callback `edge` of u's list, passing on only neighbours in [0, V) at slots in
// [0, E): what the algorithms index their arrays with.
template <class View, class F>
__device__ __forceinline__ auto checked_edges(const View& g, int64_t u, F& edge) {
  return [&g, u, &edge](int64_t slot, int64_t v) -> bool {
    if ((uint64_t)v < (uint64_t)g.bounds.vertices && (uint64_t)slot < (uint64_t)g.bounds.edges)
      return emit(edge, slot, v);  // an early-exit callback's answer goes back to the decoder
    fault(FAULT_NEIGHBOUR, u);
    return false;
  };
}
#define CGC_EDGES(g, u, edge) ::cgc::checked_edges(g, u, edge)
#else
#define CGC_EDGES(g, u, edge) edge
#endif

// Items of the lists whose degree is in [min_degree, max_degree), none for the others.
template <class View, typename D>
__device__ void count_items_impl(const View& g, const D* vertices, int all, int64_t n,
                                 int64_t item_size, int64_t min_degree, int64_t max_degree,
                                 int64_t* counts) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
    const int64_t u = member(vertices, all, i);
    const int64_t degree = list_degree(g, u);
    const bool in_range = degree >= min_degree && degree < max_degree;
    counts[i] = in_range ? items_in<View>(grouped<View>(item_size) ? g.first_edge(u) : 0,
                                          degree, item_size) : 0;
  }
}

// The first index i in [lo, hi) with scan[i] > key (hi when none), searched by the whole block
// together: each round its BLOCK threads probe BLOCK evenly spaced entries and count those at
// most `key`, which narrows the range about BLOCK-fold; a few rounds of parallel loads where one
// thread's binary search makes log2(hi - lo) dependent ones while the block waits at a barrier.
// Every thread of the block calls it with the same arguments and gets the answer.
__device__ __forceinline__ int64_t block_upper_bound(const int64_t* scan, int64_t lo, int64_t hi,
                                                     int64_t key) {
  while (hi - lo > BLOCK) {
    const int64_t span = hi - lo;
    // Probe t sits at lo + span * (t + 1) / (BLOCK + 1): strictly increasing, inside [lo, hi).
    auto probe = [&](int64_t t) { return lo + span * (t + 1) / (BLOCK + 1); };
    const int below = __syncthreads_count(scan[probe(threadIdx.x)] <= key);
    const int64_t next_lo = below ? probe(below - 1) + 1 : lo;
    hi = below < BLOCK ? probe(below) : hi;  // scan[probe(below)] > key: the answer at most
    lo = next_lo;
  }
  const int64_t i = lo + threadIdx.x;
  return lo + __syncthreads_count(i < hi && scan[i] <= key);
}

// The same search by the 32 lanes of a converged warp (all call it with the same arguments).
__device__ __forceinline__ int64_t warp_upper_bound(const int64_t* scan, int64_t lo, int64_t hi,
                                                    int64_t key) {
  const int64_t lane = lane_id();
  while (hi - lo > WARP) {
    const int64_t span = hi - lo;
    auto probe = [&](int64_t t) { return lo + span * (t + 1) / (WARP + 1); };
    const int below = __popc(__ballot_sync(FULL_WARP, scan[probe(lane)] <= key));
    const int64_t next_lo = below ? probe(below - 1) + 1 : lo;
    hi = below < WARP ? probe(below) : hi;
    lo = next_lo;
  }
  return lo + __popc(__ballot_sync(FULL_WARP, lo + lane < hi && scan[lo + lane] <= key));
}

// The members [lo, hi) owning the tile of items [begin, end) (end > begin), searched by the
// whole block (block_upper_bound).  A tile of `reach` items spans at most `reach` members that
// have items, so hi is first searched in [lo, lo + reach): one or two rounds of coalesced loads
// (leaving scan[lo, hi) in L1) where a search over [lo, n) takes log_BLOCK(n); a tile that also
// spans members without items searches on from there.
template <int64_t reach>
__device__ __forceinline__ void tile_members(const int64_t* scan, int64_t n, int64_t begin,
                                             int64_t end, int64_t& lo, int64_t& hi) {
  lo = block_upper_bound(scan, 0, n, begin);
  const int64_t near = min(n, lo + reach);
  int64_t last = block_upper_bound(scan, lo, near, end - 1);
  if (last == near) last = block_upper_bound(scan, near, n, end - 1);
  hi = last + 1;
}

// Hands `item` of vertex-set member i, vertex u whose first slot is `first` (and which has
// `before` items ahead of it), to f.
template <class View, class F>
__device__ __forceinline__ void visit_owned(const View& g, int64_t i, int64_t u, int64_t first,
                                            int64_t before, int64_t item, int64_t item_size,
                                            F&& f) {
  if (grouped<View>(item_size)) {  // one rank, after the lead's idle items
    const int64_t rank = item - before - (first & (GROUP - 1));
    if (rank >= 0 && rank < list_degree(g, u)) f(i, u, first, rank, rank + 1);
    return;
  }
  const int64_t begin = (item - before) * item_size;
  f(i, u, first, begin, min(begin + item_size, list_degree(g, u)));
}

// The same for member i, whose vertex and first slot are read here.
template <class View, typename D, class F>
__device__ __forceinline__ void visit_item(const View& g, const D* vertices, int all, int64_t i,
                                           int64_t before, int64_t item, int64_t item_size, F&& f) {
  const int64_t u = member(vertices, all, i);
  visit_owned(g, i, u, g.first_edge(u), before, item, item_size, f);
}

// A one-rank item's neighbour, read before the item is handed on (for_each_item<true>).
struct Loaded {
  int64_t slot, v;
};

// The items of tile `tile` (blockIdx.x for one tile per block), one per thread.  With Preload,
// a random-access view's one-rank items (an unchecked, plain build's) are handed on as
// f(i, u, first, rank, rank + 1, Loaded{slot, neighbour}): each thread reads all its items'
// neighbours first, then hands them on, so those loads are in flight together instead of each
// waiting for the item before it (whose callback's stores and atomics no later load moves above).
template <bool Preload = false, class View, typename D, class F>
__device__ void for_each_item(const View& g, const D* vertices, int all, const int64_t* scan,
                              int64_t n, int64_t total, int64_t item_size, F&& f,
                              int64_t tile) {
  constexpr int TILE = BLOCK * ITEMS;
  // Random-access views' items are one rank each, so an item's owner lookup costs as much as
  // its rank: their tiles also stage each member's first slot and vertex, read once a member
  // here instead of by each of its items in a chain of dependent loads.  The decoding views'
  // items are many ranks, and the registers staging takes there cost them a block an SM.
  constexpr bool staged = RandomAccess<View>::value;
  constexpr int STAGED = staged ? TILE : 1;
  __shared__ int64_t tile_scan[TILE];    // scan[lo, hi) when it fits
  __shared__ int64_t tile_first[STAGED];
  __shared__ D tile_vertex[STAGED];
  __shared__ unsigned short tile_owner[TILE];  // then each item's k: its member is lo + k
  const int64_t tile_begin = tile * TILE;
  const int64_t tile_end = min(tile_begin + (int64_t)TILE, total);
  // The tile's vertex-set range [lo, hi) and the items before it.
  int64_t lo, hi;
  tile_members<TILE>(scan, n, tile_begin, tile_end, lo, hi);
  const int64_t before = lo ? scan[lo - 1] : 0;
  // Vertices without items can make the range longer than the tile; then search globally.
  const bool local = hi - lo <= TILE;  // the same for the whole block
  if (local) {
    for (int64_t k = threadIdx.x; k < hi - lo; k += BLOCK) {
      tile_scan[k] = scan[lo + k];
      if constexpr (staged) {
        const int64_t u = member(vertices, all, lo + k);
        tile_vertex[k] = (D)u;
        tile_first[k] = g.first_edge(u);
      }
    }
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) tile_owner[j * BLOCK + threadIdx.x] = 0;
    __syncthreads();
    // Each item's owner without a search per item: every non-empty list but the first marks
    // its first item with its k, and a running maximum over the tile carries each mark to the
    // list's other items (a load-balanced search).
    for (int64_t k = 1 + threadIdx.x; k < hi - lo; k += BLOCK)
      if (tile_scan[k] > tile_scan[k - 1])
        tile_owner[tile_scan[k - 1] - tile_begin] = (unsigned short)k;
    __syncthreads();
    int running[ITEMS], mine = 0;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      mine = max(mine, (int)tile_owner[threadIdx.x * ITEMS + j]);
      running[j] = mine;
    }
    const int carried = block_exclusive_max(mine);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      tile_owner[threadIdx.x * ITEMS + j] = (unsigned short)max(carried, running[j]);
  }
  __syncthreads();
  // A list has as many one-rank items as ranks, so such an item lies inside it: its extent
  // need not be read (a checked build reads it, and checks it).
#ifdef CGC_CHECKED
  constexpr bool one_rank_build = false;
#else
  constexpr bool one_rank_build = staged;
#endif
  if constexpr (Preload && one_rank_build) {
    if (local && item_size == 1 && !grouped<View>(item_size)) {  // the same for the block
      // An item's slot: its member's first slot plus its rank (the items before it in the
      // member's list), all in shared memory.
      auto slot_of = [&](int j, int64_t item) {
        const int k = tile_owner[j * BLOCK + threadIdx.x];
        return tile_first[k] + item - (k ? tile_scan[k - 1] : before);
      };
      int64_t v[ITEMS];
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const int64_t item = tile_begin + (int64_t)j * BLOCK + threadIdx.x;
        v[j] = item < tile_end ? g.at(slot_of(j, item)) : 0;
      }
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) {
        const int64_t item = tile_begin + (int64_t)j * BLOCK + threadIdx.x;
        if (item >= tile_end) continue;
        const int k = tile_owner[j * BLOCK + threadIdx.x];
        const int64_t slot = slot_of(j, item), first = tile_first[k];
        f(lo + k, (int64_t)tile_vertex[k], first, slot - first, slot - first + 1,
          Loaded{slot, v[j]});
      }
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const int64_t item = tile_begin + (int64_t)j * BLOCK + threadIdx.x;
    if (item >= tile_end) continue;
    if (local) {
      const int64_t k = tile_owner[j * BLOCK + threadIdx.x];
      const int64_t ahead = k ? tile_scan[k - 1] : before;
      if constexpr (staged) {
        const int64_t u = tile_vertex[k], first = tile_first[k];
        if (one_rank_build && item_size == 1 && !grouped<View>(item_size)) {
          f(lo + k, u, first, item - ahead, item - ahead + 1);
          continue;
        }
        visit_owned(g, lo + k, u, first, ahead, item, item_size, f);
      } else {
        visit_item(g, vertices, all, lo + k, ahead, item, item_size, f);
      }
    } else {
      const int64_t i = upper_bound(scan, lo, hi, item);
      visit_item(g, vertices, all, i, i > lo ? scan[i - 1] : before, item, item_size, f);
    }
  }
}

// Warp w of a block takes items w, w + WARPS, ... of the block's tile.  The block first finds
// the tile's members [lo, hi) (tile_members; every thread of the block calls this with the
// same tile).  Each warp's lanes then search an item's owner together (warp_upper_bound) in
// [previous owner, hi), items being increasing: usually one or two ballot rounds of L1 hits,
// and the lanes stay converged to call f together.
template <class View, typename D, class F>
__device__ void for_each_warp_item(const View& g, const D* vertices, int all, const int64_t* scan,
                                   int64_t n, int64_t total, int64_t item_size, F&& f,
                                   int64_t tile) {
  constexpr int TILE = WARPS * ITEMS;
  const int64_t tile_begin = tile * TILE;
  const int64_t tile_end = min(tile_begin + (int64_t)TILE, total);
  int64_t lo, hi;
  tile_members<TILE>(scan, n, tile_begin, tile_end, lo, hi);
  // hi waits in shared memory, read for each search: a register held across the decode would
  // raise the warp kernels' peak (PageRank's past 64 registers, a block fewer per SM).
  __shared__ int64_t tile_hi;
  if (threadIdx.x == 0) tile_hi = hi;
  __syncthreads();
  int64_t i = lo;
  for (int64_t item = tile_begin + threadIdx.x / WARP; item < tile_end; item += WARPS) {
    i = warp_upper_bound(scan, i, tile_hi, item);
    visit_item(g, vertices, all, i, i ? scan[i - 1] : 0, item, item_size, f);
  }
}

// One item loop at either granularity (PerWarp: for_each_warp_item, else for_each_item).  f is
// called as f(u, begin, end, decode) for each item; decode(edge) calls edge(slot, v) for every
// rank of the item through View::warp_for_each or View::for_each, so f reads the same both ways
// and only a collective after the decode (a warp's reduction) needs `if constexpr (PerWarp)`.
template <bool PerWarp, bool Preload = false, class View, typename D, class F>
__device__ __forceinline__ void list_item_tile(const View& g, const D* vertices, int all,
                                               const int64_t* scan, int64_t n, int64_t total,
                                               int64_t item_size, int64_t tile, F&& f) {
  auto visit = [&](int64_t, int64_t u, int64_t first, int64_t begin, int64_t end,
                   auto... loaded) {
    auto decode = [&](auto&& edge) {
      if constexpr (sizeof...(loaded) > 0) {  // one rank, its neighbour read already
        (emit(edge, loaded.slot, loaded.v), ...);
        return;
      }
#ifdef CGC_ALIGNED_READS
      if constexpr (PerWarp && RandomAccess<View>::value) {
        // From the aligned group holding slot first + begin; the ranks before begin (lanes of
        // the group's head) are loaded with the group and dropped.
        const int64_t head = (first + begin) & (GROUP - 1);
        const int64_t from = first + begin;
        g.warp_for_each(u, first, begin - head, end, [&](int64_t slot, int64_t v) {
          if (slot >= from) edge(slot, v);
        });
        return;
      }
#endif
      if constexpr (PerWarp) g.warp_for_each(u, first, begin, end, CGC_EDGES(g, u, edge));
      else g.for_each(u, first, begin, end, CGC_EDGES(g, u, edge));
    };
    f(u, begin, end, decode);
  };
  if constexpr (PerWarp) for_each_warp_item(g, vertices, all, scan, n, total, item_size, visit,
                                            tile);
  else for_each_item<Preload>(g, vertices, all, scan, n, total, item_size, visit, tile);
}

template <bool PerWarp, class View, typename D, class F>
__device__ __forceinline__ void for_each_list_item(const View& g, const D* vertices, int all,
                                                   const int64_t* scan, int64_t n, int64_t total,
                                                   int64_t item_size, F&& f) {
  list_item_tile<PerWarp>(g, vertices, all, scan, n, total, item_size, blockIdx.x, f);
}

// Device-sized passes: the vertex-set size and the item total stay in device memory, so a
// driver enqueues a pass over a frontier whose size the host has not read (BFS's levels).  The
// grid is fixed: a block takes tiles blockIdx.x, blockIdx.x + gridDim.x, ... (the loop bound
// is the same for every thread of a block, so the tile's barriers are all met).  These are the
// frontier passes of BFS and SSSP, whose csr and fl items are one rank: their neighbours are
// read ahead (for_each_item<true>); the other passes' one-rank-item code would only cost them
// registers (PageRank's thread items are 32 ranks).
template <bool PerWarp, class View, typename D, class F>
__device__ __forceinline__ void for_each_list_item_tiles(const View& g, const D* vertices,
                                                         const int64_t* scan, int64_t n,
                                                         int64_t total, int64_t item_size,
                                                         F&& f) {
  constexpr int TILE = PerWarp ? WARPS * ITEMS : BLOCK * ITEMS;
  for (int64_t tile = blockIdx.x; tile * TILE < total; tile += gridDim.x) {
    list_item_tile<PerWarp, true>(g, vertices, 0, scan, n, total, item_size, tile, f);
    __syncthreads();  // the next tile rewrites the block's shared owner table (or tile_hi)
  }
}

// The item scan of a device-sized pass, in three fixed-grid steps over vertices[0, n): block b
// owns the chunk [b * c, (b + 1) * c) with c = ceil(n / gridDim.x).
// 1. scan_items_reduce: each block sums its chunk's item counts into sums[b]; with `edges`,
//    the degrees of every member (whatever the pass's degree range) are added there too (BFS's
//    frontier edge count).
// 2. scan_items_spine (one block): sums[0, blocks) become exclusive prefixes, sums[blocks] the
//    total.
// 3. scan_items_finish: each block writes the inclusive scan of its chunk from its prefix.
template <class View, typename D>
__device__ __forceinline__ int64_t items_of(const View& g, const D* vertices, int64_t i,
                                            int64_t item_size, int64_t min_degree,
                                            int64_t max_degree, int64_t& degree) {
  const int64_t u = (int64_t)vertices[i];
  degree = list_degree(g, u);
  if (degree < min_degree || degree >= max_degree) return 0;
  return items_in<View>(grouped<View>(item_size) ? g.first_edge(u) : 0, degree, item_size);
}

template <class View, typename D>
__device__ void scan_items_reduce(const View& g, const D* vertices, int64_t n, int64_t item_size,
                                  int64_t min_degree, int64_t max_degree, int64_t* sums,
                                  unsigned long long* edges) {
  const int64_t chunk = (n + gridDim.x - 1) / gridDim.x;
  const int64_t lo = min(n, (int64_t)blockIdx.x * chunk), hi = min(n, lo + chunk);
  int64_t items = 0, degrees = 0;
  for (int64_t i = lo + threadIdx.x; i < hi; i += blockDim.x) {
    int64_t degree;
    items += items_of(g, vertices, i, item_size, min_degree, max_degree, degree);
    degrees += degree;
  }
  int64_t block_items, block_degrees;
  block_inclusive_sum(items, block_items);
  block_inclusive_sum(degrees, block_degrees);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = block_items;
    if (edges && block_degrees) atomicAdd(edges, (unsigned long long)block_degrees);
  }
}

__device__ __forceinline__ void scan_items_spine(int64_t* sums, int64_t blocks) {
  int64_t carry = 0;
  for (int64_t base = 0; base < blocks; base += blockDim.x) {
    const int64_t b = base + threadIdx.x;
    const int64_t x = b < blocks ? sums[b] : 0;
    int64_t step;
    const int64_t inclusive = block_inclusive_sum(x, step);
    if (b < blocks) sums[b] = carry + inclusive - x;
    carry += step;
  }
  if (threadIdx.x == 0) sums[blocks] = carry;
}

template <class View, typename D>
__device__ void scan_items_finish(const View& g, const D* vertices, int64_t n, int64_t item_size,
                                  int64_t min_degree, int64_t max_degree, const int64_t* sums,
                                  int64_t* scan) {
  const int64_t chunk = (n + gridDim.x - 1) / gridDim.x;
  const int64_t lo = min(n, (int64_t)blockIdx.x * chunk), hi = min(n, lo + chunk);
  int64_t carry = sums[blockIdx.x];
  for (int64_t base = lo; base < hi; base += blockDim.x) {
    const int64_t i = base + threadIdx.x;
    int64_t degree, step;
    const int64_t x = i < hi ? items_of(g, vertices, i, item_size, min_degree, max_degree,
                                        degree) : 0;
    const int64_t inclusive = block_inclusive_sum(x, step);
    if (i < hi) scan[i] = carry + inclusive;
    carry += step;
  }
}

}  // namespace cgc
