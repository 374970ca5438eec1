// PageRank's sparse product over the traversal core.  Pull (in-lists, or an undirected graph's
// symmetric lists): every item sums its edges' contributions privately and adds the sum to its
// owner.  Push (out-lists): each edge's contribution is added to its neighbour atomically.
// Short lists go one item per thread; long ones one item per warp (pagerank_spmv<..., PerWarp>),
// whose lanes sum their ranks and reduce the sums by shuffles, lane 0 holding the total.  An
// item that is its owner's whole list (it starts the list and is shorter than a full item)
// stores its sum; others add it with an atomic.  Lists from the warp cut up to a warp item's
// size are whole warp items.  kernels/traversal.py list_passes says where the cut lies.
#include "kernels/traverse.cuh"

// What an edge carries: the score share of its far end (pull) or of its owner (push), times the
// edge's weight when the graph is weighted.  Shares are stored as S (float32 or float64,
// pagerank.py says when) and every sum is taken in float64.
template <typename W, typename S>
struct Share {
  const W* weights;
  int weighted;
  const S* scaled;

  __device__ __forceinline__ double operator()(int64_t slot, double score) const {
    return score * (weighted ? (double)weights[slot] : 1.0);
  }
  // Pull: what the edge (u, v) at `slot` adds to u's sum.
  __device__ __forceinline__ double pulled(int64_t slot, int64_t v) const {
    return (*this)(slot, (double)scaled[v]);
  }
  // Push: add u's share `mine` through the edge at `slot` to v.
  __device__ __forceinline__ void push(double* out, double mine, int64_t slot, int64_t v) const {
    atomicAdd(out + v, (*this)(slot, mine));
  }
};

// A pull sum with DEPTH shares in flight at once.  A decoder hands on one neighbour after
// another, and adding each share as it came held the next decode until the share's load
// arrived: in a warp item over ef or cgr lists, each lane decodes a rank (or a segment) after
// another, with one load in flight.  Here an edge's share (and weight) is loaded into one of
// DEPTH slots, taken in turn, and added when its slot comes round again or at the end, in the
// edges' order: the same sum, to the bit, as adding each at once.  Every slot index is a
// constant of an unrolled loop, so the slots stay in registers and each load writes its own.
template <typename W, typename S, int DEPTH = 4>
struct PullSum {
  static_assert((DEPTH & (DEPTH - 1)) == 0, "slots are taken in turn modulo DEPTH");
  S share[DEPTH];
  W weight[DEPTH];
  int64_t edges = 0;
  double sum = 0.0;

  __device__ __forceinline__ void add_slot(const Share<W, S>& s, int i) {
    sum += (double)share[i] * (s.weighted ? (double)weight[i] : 1.0);
  }
  // Edge (u, v) at `slot`: adds the share DEPTH edges back, loads this one's.
  __device__ __forceinline__ void add(const Share<W, S>& s, int64_t slot, int64_t v) {
    const int k = (int)(edges & (DEPTH - 1));
#pragma unroll
    for (int i = 0; i < DEPTH; ++i) {
      if (i != k) continue;
      if (edges >= DEPTH) add_slot(s, i);
      share[i] = s.scaled[v];
      if (s.weighted) weight[i] = s.weights[slot];
    }
    ++edges;
  }
  // The sum of every edge added: the shares still in their slots, oldest first.
  __device__ __forceinline__ double total(const Share<W, S>& s) {
    const int64_t held = edges < DEPTH ? edges : DEPTH;
#pragma unroll
    for (int j = 0; j < DEPTH; ++j) {
      if (j >= held) break;
      const int k = (int)((edges - held + j) & (DEPTH - 1));
#pragma unroll
      for (int i = 0; i < DEPTH; ++i)
        if (i == k) add_slot(s, i);
    }
    return sum;
  }
};

// Every list of `vertices` (`every`: all vertices) cut into items of one thread each, or
// (PerWarp) into items of one warp each, decoded by its 32 lanes together; the warp pass is
// handed only the long lists.  `pull` is the same for every lane, and every lane leaves the
// decode, so all 32 reach the shuffles.
template <class View, typename D, typename W, typename S, bool PerWarp>
__global__ void __launch_bounds__(cgc::BLOCK)
pagerank_spmv(const uint64_t* view, const D* vertices, const int64_t* scan, int64_t n,
              int64_t total, int64_t item_size, int every, const W* weights, int weighted,
              const S* scaled, int pull, double* out) {
  const View g = View::load(view);
  const Share<W, S> share{weights, weighted, scaled};
  cgc::for_each_list_item<PerWarp>(g, vertices, every, scan, n, total, item_size,
                                   [&](int64_t u, int64_t begin, int64_t end, auto&& decode) {
    if (pull) {
      double sum = 0.0;
      // csr and fl neighbours are read, not decoded, so their loads overlap as they are; in a
      // thread item over ef or cgr the slots cost more registers than they hide (ptxas: cgr's
      // thread pass spills).
      if constexpr (PerWarp && !cgc::RandomAccess<View>::value) {
        PullSum<W, S> in_flight;
        decode([&](int64_t slot, int64_t v) { in_flight.add(share, slot, v); });
        sum = in_flight.total(share);
      } else {
        decode([&](int64_t slot, int64_t v) { sum += share.pulled(slot, v); });
      }
      if constexpr (PerWarp) sum = cgc::warp_sum(sum);
      if (!PerWarp || cgc::lane_id() == 0) {
        const bool whole = begin == 0 && end - begin < item_size;  // no one else adds to u
        if (whole) out[u] = sum;
        else atomicAdd(out + u, sum);
      }
    } else {
      const double mine = (double)scaled[u];
      decode([&](int64_t slot, int64_t v) { share.push(out, mine, slot, v); });
    }
  });
}

// Vertices per thread and round of pagerank_update's loop: 2 keeps it at 64 registers (4 blocks
// an SM); 4 took 114 and spilled when held to 64.
constexpr int UPDATE_BATCH = 2;

// A vertex's score made from its product entry by an iteration with damping `alpha` and
// teleport `teleport` (spread / n, or spread * personal[v]).  One fused multiply-add, never
// contracted otherwise: a score made again from the same entry and scalars is the same double.
__device__ __forceinline__ double pagerank_score(double product, double alpha, double teleport) {
  return fma(alpha, product, teleport);
}

// Everything an iteration does after its product, in one pass over the vertices.  Scores are
// never stored: this iteration's score is made from `product` with (alpha, spread) and the
// last one's from `before`, the last product, with (last_alpha, last_spread).  Per vertex: the
// L1 change between the two, the next product's input scaled[v] = score * inverse[v], the
// dangling mass, and before[v] zeroed (it is the next product's output).  inverse[v] is
// 1 / out-weight, or NaN for a dangling vertex (out-weight 0), whose share is its whole score,
// as cuGraph divides it by 1.  The two sums are reduced per block and added to sums[0] (change)
// and sums[1] (dangling mass) with one atomic each; block 0 zeroes `next_sums`, the pair the
// next update adds to, so no launch of its own clears them.
template <typename S>
__global__ void __launch_bounds__(cgc::BLOCK)
pagerank_update(const double* __restrict__ product, double* __restrict__ before,
                const S* __restrict__ inverse, const double* __restrict__ personal,
                int personalized, double alpha, double spread, double last_alpha,
                double last_spread, int64_t n, S* __restrict__ scaled,
                double* __restrict__ sums, double* __restrict__ next_sums) {
  __shared__ double partial[2][cgc::WARPS];
  if (blockIdx.x == 0 && threadIdx.x < 2) next_sums[threadIdx.x] = 0.0;
  double change = 0.0, mass = 0.0;
  const double uniform = spread / (double)n, last_uniform = last_spread / (double)n;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  // UPDATE_BATCH vertices a stride apart per thread, every load of the batch issued before
  // any store (__restrict__ above lets none wait for a store): loads in flight, not the
  // arithmetic, bound a streaming pass, and one vertex per thread left too few of them.
  // Rounds are not unrolled: that would only multiply the registers.
#pragma unroll 1
  for (int64_t first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; first < n;
       first += UPDATE_BATCH * stride) {
    double y[UPDATE_BATCH] = {}, last_y[UPDATE_BATCH] = {}, p[UPDATE_BATCH] = {};
    S inv[UPDATE_BATCH] = {};
#pragma unroll
    for (int k = 0; k < UPDATE_BATCH; ++k) {
      const int64_t v = first + k * stride;
      if (v < n) {
        y[k] = product[v];
        last_y[k] = before[v];
        inv[k] = inverse[v];
        if (personalized) p[k] = personal[v];
      }
    }
#pragma unroll
    for (int k = 0; k < UPDATE_BATCH; ++k) {
      const int64_t v = first + k * stride;
      if (v >= n) break;
      const double x = pagerank_score(y[k], alpha, personalized ? spread * p[k] : uniform);
      const double last_x = pagerank_score(last_y[k], last_alpha,
                                           personalized ? last_spread * p[k] : last_uniform);
      before[v] = 0.0;
      const bool dangling = inv[k] != inv[k];  // NaN
      scaled[v] = (S)(dangling ? x : x * (double)inv[k]);
      change += fabs(x - last_x);
      if (dangling) mass += x;
    }
  }
  change = cgc::warp_sum(change);
  mass = cgc::warp_sum(mass);
  const unsigned warp = threadIdx.x / cgc::WARP;
  if (cgc::lane_id() == 0) {
    partial[0][warp] = change;
    partial[1][warp] = mass;
  }
  __syncthreads();
  if (threadIdx.x < 2) {
    double total = 0.0;
    for (int w = 0; w < cgc::WARPS; ++w) total += partial[threadIdx.x][w];
    atomicAdd(sums + threadIdx.x, total);
  }
}

// The scores of the last iteration, written over its product (pagerank_score with the scalars
// of that iteration): the values whose change its update measured.
__global__ void __launch_bounds__(cgc::BLOCK)
pagerank_scores(double* product, const double* personal, int personalized, double alpha,
                double spread, int64_t n) {
  const double uniform = spread / (double)n;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t v = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; v < n; v += stride)
    product[v] = pagerank_score(product[v], alpha, personalized ? spread * personal[v] : uniform);
}
