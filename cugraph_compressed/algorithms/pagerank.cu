// PageRank's sparse product over the traversal core.  Pull (in-lists, or an undirected graph's
// symmetric lists): every item sums its edges' contributions privately and adds the sum to its
// owner.  Push (out-lists): each edge's contribution is added to its neighbour atomically.
// Short lists go one item per thread, where an item that is its owner's whole list stores its
// sum without an atomic; long ones one item per warp (pagerank_spmv<..., PerWarp>), whose lanes
// sum their ranks, reduce the sums by shuffles and add the total with one atomic from lane 0,
// always (a warp item holds a whole list only at exactly its size: no store shortcut there).
// kernels/traversal.py list_passes says where the cut lies.
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
      decode([&](int64_t slot, int64_t v) { sum += share.pulled(slot, v); });
      if constexpr (PerWarp) {
        sum = cgc::warp_sum(sum);
        if (cgc::lane_id() == 0) atomicAdd(out + u, sum);
      } else if (begin == 0 && end - begin < item_size) {
        out[u] = sum;  // the whole list: no one else adds
      } else {
        atomicAdd(out + u, sum);
      }
    } else {
      const double mine = (double)scaled[u];
      decode([&](int64_t slot, int64_t v) { share.push(out, mine, slot, v); });
    }
  });
}

// Everything an iteration does after its product, in one pass over the vertices: the new
// score fresh[v] = alpha * fresh[v] + teleport (spread / n, or spread * personal[v]), its L1
// change against scores[v], the next product's input scaled[v] = fresh[v] * inverse[v] and the
// next dangling mass.  inverse[v] is 1 / out-weight, or NaN for a dangling vertex (out-weight
// 0), whose share is its whole score, as cuGraph divides it by 1.  scores[v] is zeroed once
// read: it is the next product's output.  The two sums are reduced per block and added to
// sums[0] (change) and sums[1] (dangling mass) with one atomic each.
template <typename S>
__global__ void __launch_bounds__(cgc::BLOCK)
pagerank_update(double* fresh, double* scores, const S* inverse, const double* personal,
                int personalized, double alpha, double spread, int64_t n, S* scaled,
                double* sums) {
  __shared__ double partial[2][cgc::WARPS];
  double change = 0.0, mass = 0.0;
  const double uniform = spread / (double)n;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t v = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; v < n; v += stride) {
    const double x = alpha * fresh[v] + (personalized ? spread * personal[v] : uniform);
    fresh[v] = x;
    change += fabs(x - scores[v]);
    scores[v] = 0.0;
    const double inv = (double)inverse[v];
    const bool dangling = inv != inv;  // NaN
    scaled[v] = (S)(dangling ? x : x * inv);
    if (dangling) mass += x;
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
