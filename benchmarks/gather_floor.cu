// Floors of the passes over a CSR index array (benchmarks/profile_call.py --floor, FLOORS):
// PageRank's pull product, a top-down BFS, SSSP's relaxations and WCC's label sweeps.  The
// edges are walked in slot order by a grid-stride loop, so every warp load is 32 consecutive
// slots, the work is perfectly balanced, and there are no list bounds, no owner search, no
// reduction per list and no stores but one per thread.  Any pass that reads each edge's index
// (and weight) and gathers its neighbour's value, or probes its bit, costs at least this much.
constexpr int UNROLL = 4;

// Every slot e (neighbour v = indices[e]) read as read(e, v), summed per thread into
// out[thread] so nothing is optimized away.  Each thread loads UNROLL slots' indices, then
// makes their reads, before it sums any of them, so loads stay in flight.
template <typename I, class Read>
__device__ __forceinline__ void walk(const I* __restrict__ indices, long long m,
                                     float* __restrict__ out, Read read) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.f;
  long long e = tid;
  for (; e + (UNROLL - 1) * stride < m; e += UNROLL * stride) {
    I v[UNROLL];
    float x[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) v[k] = indices[e + k * stride];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) x[k] = read(e + k * stride, v[k]);
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) sum += x[k];
  }
  for (; e < m; e += stride) sum += read(e, indices[e]);
  out[tid] = sum;
}

// Only the index stream (and the weight stream when `weights` is set): what reading the
// lists costs without the gathers.
template <typename I>
__global__ void index_stream(const I* __restrict__ indices, const float* __restrict__ weights,
                             long long m, float* __restrict__ out) {
  walk(indices, m, out, [&](long long e, I v) {
    return (float)v * (weights ? weights[e] : 1.f);
  });
}

// Each slot gathering its neighbour's share (times its weight when `weights` is set): the
// product's reads, nothing else.
template <typename I>
__global__ void gather(const I* __restrict__ indices, const float* __restrict__ weights,
                       const float* __restrict__ share, long long m, float* __restrict__ out) {
  walk(indices, m, out, [&](long long e, I v) {
    return share[v] * (weights ? weights[e] : 1.f);
  });
}

// Each slot probing its neighbour's bit in a visited bitmap (the sum counts the set bits):
// what a top-down BFS that scans these lists reads at least (its claims, distance and
// frontier writes come on top).
template <typename I>
__global__ void probe(const I* __restrict__ indices, const unsigned* __restrict__ bitmap,
                      long long m, float* __restrict__ out) {
  walk(indices, m, out, [&](long long, I v) {
    return (float)((bitmap[v >> 5] >> (v & 31)) & 1u);
  });
}
