// Breadth-first search: level-synchronous over the traversal core (traverse.cuh), top-down or
// bottom-up (direction-optimizing, Beamer et al.) over in-lists: an undirected graph's own
// lists, or those a directed graph keeps beside its out-lists
// (TraversalConfig.directed_bottom_up).  Top-down, a vertex is
// claimed by the first thread to set its bit in the `visited` bitmap; only that thread writes
// its distance and predecessor and appends it to the next frontier.  Each top-down level expands
// the frontier's short lists one item per thread and its long ones one item per warp
// (bfs_expand<..., PerWarp>); kernels/traversal.py list_passes says where the cut lies.  Every
// size (frontier, items) stays in device memory and the direction is decided on the device
// (bfs_decide), so the driver enqueues both directions' kernels and the other one returns.
#include "kernels/traverse.cuh"

// Claim each source (duplicates collapse) and write the first frontier.
template <typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
bfs_seed(const D* sources, int64_t n, uint32_t* visited, D* dist, D* frontier,
         unsigned long long* frontier_size) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) {
    const D s = sources[i];
    if (cgc::claim_bit(visited, s)) {
      dist[s] = 0;
      cgc::append(s, frontier, frontier_size);
    }
  }
}

// What reaching v from u does: the first to claim v writes its distance and predecessor and
// appends it to the next frontier.
template <typename D>
struct Discover {
  uint32_t* visited;
  D* dist;
  D* pred;
  D* next;
  unsigned long long* next_size;
  D level;

  __device__ __forceinline__ void operator()(int64_t u, int64_t v) const {
    reach(u, v, visited[v >> 5]);
  }
  // The same, `seen` being v's visited word read a moment ago.
  __device__ __forceinline__ void reach(int64_t u, int64_t v, uint32_t seen) const {
    if (cgc::claim_bit_seen(visited, v, seen)) {
      dist[v] = level;
      pred[v] = (D)u;
      cgc::append((D)v, next, next_size);
    }
  }
};

// Up to PROBES neighbours of one thread's decode whose visited words are read together.  A
// decoder hands on one neighbour after another, and testing each one's word at once holds the
// next decode until that word arrives: over ef and cgr lists, whose thread and lane decodes
// are many ranks long, one load in flight a thread.  Batched, PROBES are.
template <typename D, int PROBES = 4>
struct Probes {
  D v[PROBES];  // the newest first; registers, as every index is a constant
  int count = 0;

  // Adds neighbour x of u, testing the batch once it is full.
  __device__ __forceinline__ void add(const Discover<D>& discover, int64_t u, int64_t x) {
#pragma unroll
    for (int i = PROBES - 1; i > 0; --i) v[i] = v[i - 1];
    v[0] = (D)x;
    if (++count == PROBES) test(discover, u);
  }
  // Tests the batch: every word read before any is used.
  __device__ __forceinline__ void test(const Discover<D>& discover, int64_t u) {
    uint32_t seen[PROBES];
#pragma unroll
    for (int i = 0; i < PROBES; ++i)
      if (i < count) seen[i] = discover.visited[v[i] >> 5];
#pragma unroll
    for (int i = 0; i < PROBES; ++i)
      if (i < count) discover.reach(u, v[i], seen[i]);
    count = 0;
  }
};

// The level's direction, word 0 of the run's state (the gate of the top-down passes: 0 runs them).
constexpr unsigned long long TOP_DOWN = 0, BOTTOM_UP = 1;
// The state words: direction, edges of the frontier (added by the frontier's item scan),
// unexplored edges, the previous frontier's size.
enum { DIRECTION, FRONTIER_EDGES, UNEXPLORED_EDGES, PREVIOUS_SIZE };

// Top-down: the frontier's lists cut into items of one thread each, or (PerWarp) the long ones
// into items of one warp each, decoded by its 32 lanes together.  The frontier's size and the
// item total are read from device memory (traverse.cuh: for_each_list_item_tiles); a bottom-up
// level returns at once.
// Over csr and fl lists the pass waits on its loads, so it is held to 32 registers and 8 blocks
// share an SM to hide them (benchmarks/results/ab-bfs-launch-bounds); ef's and cgr's decoders
// would spill there, so they get no bound (0).
template <class View>
constexpr int expand_min_blocks = cgc::RandomAccess<View>::value ? 8 : 0;

template <class View, typename D, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK, expand_min_blocks<View>)
bfs_expand(const uint64_t* view, const D* frontier, const unsigned long long* size,
           const unsigned long long* state, const int64_t* scan, const int64_t* total,
           int64_t item_size, uint32_t* visited, D* dist, D* pred, D* next,
           unsigned long long* next_size, D next_level) {
  if (state[DIRECTION] != TOP_DOWN) return;
  const View g = View::load(view);
  const Discover<D> discover{visited, dist, pred, next, next_size, next_level};
  cgc::for_each_list_item_tiles<PerWarp>(g, frontier, scan, (int64_t)*size, *total, item_size,
                                         [&](int64_t u, int64_t, int64_t, auto&& decode) {
    if constexpr (cgc::RandomAccess<View>::value) {  // their thread items: one rank, read ahead
      decode([&](int64_t, int64_t v) { discover(u, v); });
    } else {
      Probes<D> probes;
      decode([&](int64_t, int64_t v) { probes.add(discover, u, v); });
      probes.test(discover, u);
    }
  });
}

// Beamer's switch, once per level (one thread), after the frontier's item scan has added the
// frontier's edges: top-down turns bottom-up when the frontier's edges exceed the unexplored
// edges over `alpha` (each top-down level takes its frontier's edges off the unexplored ones);
// bottom-up turns back when the frontier shrinks and holds at most n / `beta` vertices.  A
// graph without in-lists to scan (`enabled` 0: a directed graph without its in-lists beside)
// stays top-down.
__global__ void bfs_decide(unsigned long long* state, const unsigned long long* size, int64_t n,
                           double alpha, double beta, int enabled) {
  const unsigned long long frontier = *size, edges = state[FRONTIER_EDGES];
  unsigned long long& unexplored = state[UNEXPLORED_EDGES];
  if (state[DIRECTION] == TOP_DOWN) {
    if (enabled && (double)edges * alpha > (double)unexplored)
      state[DIRECTION] = BOTTOM_UP;
    else
      unexplored -= edges < unexplored ? edges : unexplored;
  } else if (frontier < state[PREVIOUS_SIZE] && (double)frontier * beta <= (double)n) {
    state[DIRECTION] = TOP_DOWN;
  }
  state[PREVIOUS_SIZE] = frontier;
  state[FRONTIER_EDGES] = 0;
}

// The frontier as a bitmap: the vertices claimed since the last level began (visited now, not
// in the snapshot `seen`); the snapshot moves on.  One thread per word.
__global__ void __launch_bounds__(cgc::BLOCK)
bfs_frontier_bits(const uint32_t* visited, uint32_t* seen, uint32_t* frontier_bits,
                  int64_t words) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; w < words; w += stride) {
    const uint32_t now = visited[w];
    frontier_bits[w] = now & ~seen[w];
    seen[w] = now;
  }
}

// Bottom-up: every unvisited vertex scans its in-list (`view`: an undirected graph's lists, a
// directed graph's in-lists) and stops at the first neighbour in the frontier bitmap, its parent
// (one level up, so its distance is exact).
// Warp w takes the 32 vertices of visited word w, w + warps, ...: only it writes that word, so
// the lanes' finds are ORed in with a ballot and a plain store, and appended with one atomic.
// A top-down level returns at once.
template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
bfs_bottom_up(const uint64_t* view, int64_t n, const unsigned long long* state,
              const uint32_t* frontier_bits, uint32_t* visited, D* dist, D* pred, D* next,
              unsigned long long* next_size, D next_level) {
  if (state[DIRECTION] != BOTTOM_UP) return;
  const View g = View::load(view);
  const int64_t words = (n + 31) / 32;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x / cgc::WARP);
  const unsigned lane = cgc::lane_id();
  for (int64_t w = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / cgc::WARP; w < words;
       w += warps) {
    const uint32_t seen = visited[w];
    const int64_t v = w * 32 + lane;
    int64_t parent = -1;
    if (v < n && !((seen >> lane) & 1u)) {
      const int64_t degree = cgc::list_degree(g, v);
      auto in_frontier = [&](int64_t, int64_t u) -> bool {
        if (!((frontier_bits[u >> 5] >> (u & 31)) & 1u)) return false;
        parent = u;
        return true;  // the first parent will do: stop decoding
      };
      g.for_each(v, g.first_edge(v), 0, degree, CGC_EDGES(g, v, in_frontier));
    }
    const unsigned found = __ballot_sync(cgc::FULL_WARP, parent >= 0);
    if (!found) continue;
    unsigned long long base = 0;
    if (lane == 0) {
      visited[w] = seen | found;
      base = atomicAdd(next_size, (unsigned long long)__popc(found));
    }
    base = __shfl_sync(cgc::FULL_WARP, base, 0);
    if (parent >= 0) {
      dist[v] = next_level;
      pred[v] = (D)parent;
      next[base + __popc(found & cgc::lanemask_lt())] = (D)v;
    }
  }
}
