// Single-source shortest paths by near-far (delta-stepping with two piles): a round relaxes the
// near frontier; an improved vertex below `split` joins the next near frontier, one at or above
// it is marked in the `far` bitmap.  When the near pile runs dry, sssp_promote moves the far
// vertices below the next split into the near frontier.  With float weights and 32-bit ids each
// relaxation records the predecessor with the distance (Packed); otherwise a final pass names a
// predecessor for every reached vertex.  Weights are non-negative (checked by the driver), so atomic minima on the
// bits of the distances are atomic minima of the values.  Both passes over lists run short lists
// one item per thread and long ones one item per warp (_device.list_passes says where the cut lies), with
// the same per-edge routine.
#include "kernels/traverse.cuh"

// Where distances live.  Distances: one W per vertex; the predecessors are named afterwards
// (sssp_predecessors).  Packed (float weights, 32-bit ids): one 64-bit word per vertex, the
// distance's bits above the predecessor's, so one 64-bit atomic minimum keeps the smaller
// distance and, among equal ones, the smaller predecessor (non-negative floats order like their
// bits); the predecessor is then recorded with the distance.
template <typename W>
struct Distances {
  W* dist;
  __device__ __forceinline__ W operator[](int64_t v) const { return dist[v]; }
  // Lowers v's distance to `candidate` (reached from u); true when it was larger before.
  __device__ __forceinline__ bool lower(int64_t v, W candidate, int64_t) const {
    return candidate < dist[v] && candidate < cgc::atomic_min_nonneg(dist + v, candidate);
  }
};

struct Packed {
  unsigned long long* words;
  __device__ __forceinline__ float operator[](int64_t v) const {
    return __uint_as_float((uint32_t)(words[v] >> 32));
  }
  __device__ __forceinline__ bool lower(int64_t v, float candidate, int64_t u) const {
    const unsigned long long bits = (unsigned long long)__float_as_uint(candidate) << 32;
    if ((bits >> 32) > (words[v] >> 32)) return false;  // cheap read first: a longer path
    const unsigned long long was = atomicMin(words + v, bits | (uint32_t)u);
    return bits < (was & ~0xFFFFFFFFull);  // the distance itself went down
  }
};

// Relaxing the edge (u, v) at `slot` from u's distance du: a smaller distance below the cutoff
// is kept by atomic minimum; the thread that lowered it queues v in the near frontier (below
// `split`, once per round through the `queued` bitmap) or marks it far.  The driver caps the
// cutoff at the weight type's largest finite value, so a sum that overflows to inf, or one equal
// to cuGraph's "unreachable" sentinel, is never kept.
template <typename D, typename W, class Store>
struct Relax {
  const W* weights;
  W cutoff;
  W split;
  Store dist;
  uint32_t* queued;
  uint32_t* far;
  D* next;
  unsigned long long* next_size;

  __device__ __forceinline__ void operator()(int64_t u, W du, int64_t slot, int64_t v) const {
    const W candidate = du + weights[slot];
    if (!(candidate < cutoff && dist.lower(v, candidate, u))) return;
    const uint32_t bit = 1u << (v & 31);
    if (candidate >= split)
      atomicOr(far + (v >> 5), bit);
    else if (!(atomicOr(queued + (v >> 5), bit) & bit))
      cgc::append((D)v, next, next_size);
  }
};

// Frontier lists cut into items of one thread each, or (PerWarp) the long ones into items of one
// warp each, decoded by its 32 lanes together; the frontier's size and item total are read from
// device memory (kernels/traversal.py SizedPasses; `gate` is always open here).  Each thread
// reads du itself: while another item lowers dist[u], the items of one list, or the lanes of one
// warp, may read different values; each is a path length, and whoever lowered it queued u (or
// marked it far) to be relaxed again.  No collective depends on du.
template <class View, typename D, typename W, bool PerWarp, class Store, typename S>
__device__ __forceinline__ void relax_lists(const uint64_t* view, const D* frontier,
                                            const unsigned long long* size, const int64_t* scan,
                                            const int64_t* total, int64_t item_size,
                                            const W* weights, W cutoff, W split, S* dist,
                                            uint32_t* queued, uint32_t* far, D* next,
                                            unsigned long long* next_size) {
  const View g = View::load(view);
  const Relax<D, W, Store> relax{weights, cutoff, split, Store{dist}, queued, far, next,
                                 next_size};
  cgc::for_each_list_item_tiles<PerWarp>(g, frontier, scan, (int64_t)*size, *total, item_size,
                                         [&](int64_t u, int64_t, int64_t, auto&& decode) {
    const W du = relax.dist[u];
    decode([&](int64_t slot, int64_t v) { relax(u, du, slot, v); });
  });
}

template <class View, typename D, typename W, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
sssp_relax(const uint64_t* view, const D* frontier, const unsigned long long* size,
           const unsigned long long*, const int64_t* scan, const int64_t* total,
           int64_t item_size, const W* weights, W cutoff, W split, W* dist, uint32_t* queued,
           uint32_t* far, D* next, unsigned long long* next_size) {
  relax_lists<View, D, W, PerWarp, Distances<W>>(view, frontier, size, scan, total, item_size,
                                                 weights, cutoff, split, dist, queued, far, next,
                                                 next_size);
}

template <class View, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
sssp_relax_packed(const uint64_t* view, const int* frontier, const unsigned long long* size,
                  const unsigned long long*, const int64_t* scan, const int64_t* total,
                  int64_t item_size, const float* weights, float cutoff, float split,
                  unsigned long long* packed, uint32_t* queued, uint32_t* far, int* next,
                  unsigned long long* next_size) {
  relax_lists<View, int, float, PerWarp, Packed>(view, frontier, size, scan, total, item_size,
                                                 weights, cutoff, split, packed, queued, far,
                                                 next, next_size);
}

// Move the far vertices with lo <= dist < hi to the near frontier `next`; drop those below lo
// (improved into an earlier near pile since they were marked, so already relaxed at their
// distance) and keep the rest, whose smallest distance goes to `*least`.  One thread per word.
template <typename D, typename W, class Store>
__device__ __forceinline__ void promote(uint32_t* far, int64_t words, const Store dist, W lo,
                                        W hi, uint32_t* queued, D* next,
                                        unsigned long long* next_size, W* least) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t w = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; w < words; w += stride) {
    uint32_t bits = far[w];
    if (!bits) continue;
    uint32_t keep = 0;
    for (uint32_t rest = bits; rest; rest &= rest - 1) {
      const int b = __ffs(rest) - 1;
      const int64_t v = (w << 5) + b;
      const W d = dist[v];
      if (d >= hi) {
        keep |= 1u << b;
        cgc::atomic_min_nonneg(least, d);
      } else if (d >= lo && !(atomicOr(queued + w, 1u << b) & (1u << b))) {
        cgc::append((D)v, next, next_size);
      }
    }
    far[w] = keep;
  }
}

template <typename D, typename W>
__global__ void __launch_bounds__(cgc::BLOCK)
sssp_promote(uint32_t* far, int64_t words, W* dist, W lo, W hi, uint32_t* queued, D* next,
             unsigned long long* next_size, W* least) {
  promote<D, W, Distances<W>>(far, words, Distances<W>{dist}, lo, hi, queued, next,
                                 next_size, least);
}

__global__ void __launch_bounds__(cgc::BLOCK)
sssp_promote_packed(uint32_t* far, int64_t words, unsigned long long* packed, float lo,
                    float hi, uint32_t* queued, int* next, unsigned long long* next_size,
                    float* least) {
  promote<int, float, Packed>(far, words, Packed{packed}, lo, hi, queued,
                                                  next, next_size, least);
}

// Clear the queued bits of a frontier of *size vertices (before relaxing it, so its vertices
// can be queued again).
template <typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
sssp_unqueue(const D* frontier, const unsigned long long* size, uint32_t* queued) {
  const int64_t n = (int64_t)*size;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAnd(queued + (frontier[i] >> 5), ~(1u << (frontier[i] & 31)));
}

// pred[v] = some u with dist[u] + w(u, v) == dist[v]: the relaxation computed dist[v] exactly
// that way for at least one in-edge, so every reached vertex but the source gets one.  An
// unreached v is skipped: du + w(u, v) may equal its `unreached` (inf) by overflow or through an
// infinite weight, and the relaxation kept neither.
template <typename D, typename W>
struct NamePredecessor {
  const W* weights;
  const W* dist;
  W unreached;
  int64_t source;
  D* pred;

  __device__ __forceinline__ void operator()(int64_t u, W du, int64_t slot, int64_t v) const {
    const W dv = dist[v];
    if (v != source && dv != unreached && du + weights[slot] == dv) pred[v] = (D)u;
  }
};

// Every list cut into items of one thread each, or (PerWarp) the long ones into items of one
// warp each (its lanes read the same du, so an unreached owner sends the whole warp on to its
// next item).
template <class View, typename D, typename W, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
sssp_predecessors(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n,
                  int64_t total, int64_t item_size, const W* weights, const W* dist, W unreached,
                  int64_t source, D* pred) {
  const View g = View::load(view);
  const NamePredecessor<D, W> name{weights, dist, unreached, source, pred};
  cgc::for_each_list_item<PerWarp>(g, unused, 1, scan, n, total, item_size,
                                   [&](int64_t u, int64_t, int64_t, auto&& decode) {
    const W du = dist[u];
    if (du == unreached) return;
    decode([&](int64_t slot, int64_t v) { name(u, du, slot, v); });
  });
}
