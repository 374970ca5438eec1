// Item counts for the traversal core (see traverse.cuh), one instantiation per view.
#include "algorithms/traverse.cuh"

template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
count_items(const uint64_t* view, const D* vertices, int all, int64_t n, int64_t item_size,
            int64_t* counts) {
  const View g = View::load(view);
  cgc::count_items_impl(g, vertices, all, n, item_size, counts);
}
