// Item counts for the traversal core (see traverse.cuh), one instantiation per view.
#include "kernels/traverse.cuh"

template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
count_items(const uint64_t* view, const D* vertices, int all, int64_t n, int64_t item_size,
            int64_t min_degree, int64_t max_degree, int64_t* counts) {
  const View g = View::load(view);
  cgc::count_items_impl(g, vertices, all, n, item_size, min_degree, max_degree, counts);
}

// Every list decoded through the view: neighbours[slot] for every edge (tests compare it with
// the host decoder; it is the device side of Layout.to_coo).
template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
decode_items(const uint64_t* view, const D* unused, const int64_t* scan, int64_t n, int64_t total,
             int64_t item_size, int64_t* neighbours) {
  const View g = View::load(view);
  cgc::for_each_item(g, unused, 1, scan, n, total, item_size,
                     [&](int64_t, int64_t u, int64_t first, int64_t begin, int64_t end) {
    auto write = [&](int64_t slot, int64_t v) { neighbours[slot] = v; };
    g.for_each(u, first, begin, end, CGC_EDGES(g, u, write));
  });
}
