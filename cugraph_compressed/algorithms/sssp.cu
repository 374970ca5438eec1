// Single-source shortest paths by near-far (delta-stepping with two piles): a round relaxes the
// near frontier; an improved vertex below `split` joins the next near frontier, one at or above
// it is marked in the `far` bitmap.  When the near pile runs dry, sssp_promote moves the far
// vertices below the next split into the near frontier.  A final pass names a predecessor for
// every reached vertex.  Weights are non-negative (checked by the driver), so atomic minima on the
// bits of the distances are atomic minima of the values.  Both passes over lists run short lists
// one item per thread and long ones one item per warp (_device.list_passes says where the cut lies), with
// the same per-edge routine.
#include "kernels/traverse.cuh"

// Relaxing the edge (u, v) at `slot` from u's distance du: a smaller distance below the cutoff
// is kept by atomic minimum; the thread that lowered it queues v in the near frontier (below
// `split`, once per round through the `queued` bitmap) or marks it far.  The driver caps the
// cutoff at the weight type's largest finite value, so a sum that overflows to inf, or one equal
// to cuGraph's "unreachable" sentinel, is never kept.
template <typename D, typename W>
struct Relax {
  const W* weights;
  W cutoff;
  W split;
  W* dist;
  uint32_t* queued;
  uint32_t* far;
  D* next;
  unsigned long long* next_size;

  __device__ __forceinline__ void operator()(W du, int64_t slot, int64_t v) const {
    const W candidate = du + weights[slot];
    if (!(candidate < cutoff && candidate < dist[v] &&
          candidate < cgc::atomic_min_nonneg(dist + v, candidate)))
      return;
    const uint32_t bit = 1u << (v & 31);
    if (candidate >= split)
      atomicOr(far + (v >> 5), bit);
    else if (!(atomicOr(queued + (v >> 5), bit) & bit))
      cgc::append((D)v, next, next_size);
  }
};

// Frontier lists cut into items of one thread each, or (PerWarp) the long ones into items of one
// warp each, decoded by its 32 lanes together.  Each thread reads du itself: while another item
// lowers dist[u], the items of one list, or the lanes of one warp, may read different values;
// each is a path length, and whoever lowered it queued u (or marked it far) to be relaxed
// again.  No collective depends on du.
template <class View, typename D, typename W, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
sssp_relax(const uint64_t* view, const D* frontier, const int64_t* scan, int64_t n, int64_t total,
           int64_t item_size, const W* weights, W cutoff, W split, W* dist, uint32_t* queued,
           uint32_t* far, D* next, unsigned long long* next_size) {
  const View g = View::load(view);
  const Relax<D, W> relax{weights, cutoff, split, dist, queued, far, next, next_size};
  cgc::for_each_list_item<PerWarp>(g, frontier, 0, scan, n, total, item_size,
                                   [&](int64_t u, int64_t, int64_t, auto&& decode) {
    const W du = dist[u];
    decode([&](int64_t slot, int64_t v) { relax(du, slot, v); });
  });
}

// Move the far vertices with lo <= dist < hi to the near frontier `next`; drop those below lo
// (improved into an earlier near pile since they were marked, so already relaxed at their
// distance) and keep the rest, whose smallest distance goes to `*least`.  One thread per word.
template <typename D, typename W>
__global__ void __launch_bounds__(cgc::BLOCK)
sssp_promote(uint32_t* far, int64_t words, const W* dist, W lo, W hi, uint32_t* queued, D* next,
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

// Clear the queued bits of a frontier (before relaxing it, so its vertices can be queued again).
template <typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
sssp_unqueue(const D* frontier, int64_t n, uint32_t* queued) {
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
