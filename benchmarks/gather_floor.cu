// Floors of the passes over a CSR index array (benchmarks/profile_call.py --floor): PageRank's
// pull product and a top-down BFS.  The edges are walked in slot order by a grid-stride loop, so every warp load is 32
// consecutive slots, the work is perfectly balanced, and there are no list bounds, no owner
// search, no reduction per list and no stores but one per thread.  Any pass that reads each
// edge's index (and weight) and gathers its neighbour's share, or probes its bit, costs at
// least this much.
// Each thread issues UNROLL slots' loads before it uses any of them, so loads stay in flight.
constexpr int UNROLL = 4;

// Only the index stream (and the weight stream when `weights` is set): what reading the
// lists costs without the gathers.
template <typename I>
__global__ void index_stream(const I* __restrict__ indices, const float* __restrict__ weights,
                             long long m, float* __restrict__ out) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.f;
  long long e = tid;
  for (; e + (UNROLL - 1) * stride < m; e += UNROLL * stride) {
    float x[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) {
      x[k] = (float)indices[e + k * stride];
      if (weights) x[k] *= weights[e + k * stride];
    }
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) sum += x[k];
  }
  for (; e < m; e += stride) sum += (float)indices[e] * (weights ? weights[e] : 1.f);
  out[tid] = sum;
}

// The same walk, each slot gathering its neighbour's share (times its weight when `weights`
// is set): the product's reads, nothing else.
template <typename I>
__global__ void gather(const I* __restrict__ indices, const float* __restrict__ weights,
                       const float* __restrict__ share, long long m, float* __restrict__ out) {
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
    for (int k = 0; k < UNROLL; ++k) {
      x[k] = share[v[k]];
      if (weights) x[k] *= weights[e + k * stride];
    }
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) sum += x[k];
  }
  for (; e < m; e += stride) sum += share[indices[e]] * (weights ? weights[e] : 1.f);
  out[tid] = sum;
}

// The same walk, each slot probing its neighbour's bit in a visited bitmap: what a top-down BFS
// that scans these lists reads at least (its claims, distance and frontier writes come on top).
template <typename I>
__global__ void probe(const I* __restrict__ indices, const unsigned* __restrict__ bitmap,
                      long long m, float* __restrict__ out) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned hits = 0;
  long long e = tid;
  for (; e + (UNROLL - 1) * stride < m; e += UNROLL * stride) {
    I v[UNROLL];
    unsigned word[UNROLL];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) v[k] = indices[e + k * stride];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) word[k] = bitmap[v[k] >> 5];
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) hits += (word[k] >> (v[k] & 31)) & 1u;
  }
  for (; e < m; e += stride) hits += (bitmap[indices[e] >> 5] >> (indices[e] & 31)) & 1u;
  out[tid] = (float)hits;
}
