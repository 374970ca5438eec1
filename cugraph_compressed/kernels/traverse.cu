// Item counts for the traversal core (see traverse.cuh), one instantiation per view.
#include "kernels/traverse.cuh"

template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
count_items(const uint64_t* view, const D* vertices, int all, int64_t n, int64_t item_size,
            int64_t min_degree, int64_t max_degree, int64_t* counts) {
  const View g = View::load(view);
  cgc::count_items_impl(g, vertices, all, n, item_size, min_degree, max_degree, counts);
}

// The neighbours at property slots [slot0, slot1) of the lists of `vertices` (those holding
// them), each written at neighbours[slot - slot0]: a window of a layout's edges, decoded
// through its view (the device side of Layout.decode_slots; kernels/traversal.py SlotDecoder).
// An item starts where the view can start decoding, so items that only meet the window decode
// ranks outside it too, and those are not written; items wholly outside it return at once.
template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
decode_slots(const uint64_t* view, const D* vertices, const int64_t* scan, int64_t n,
             int64_t total, int64_t item_size, int64_t slot0, int64_t slot1,
             int64_t* neighbours) {
  const View g = View::load(view);
  cgc::for_each_item(g, vertices, 0, scan, n, total, item_size,
                     [&](int64_t, int64_t u, int64_t first, int64_t begin, int64_t end) {
    if (first + end <= slot0 || first + begin >= slot1) return;
    auto write = [&](int64_t slot, int64_t v) {
      if (slot >= slot0 && slot < slot1) neighbours[slot - slot0] = v;
    };
    g.for_each(u, first, begin, end, CGC_EDGES(g, u, write));
  }, blockIdx.x);
}

// The item scan of a device-sized pass (traverse.cuh: scan_items_*) over vertices[0, *size).
// Each step does nothing while `*gate` is not 0: a driver enqueues passes that the device may
// decide to skip (BFS: a bottom-up level has no top-down pass).
template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
scan_items_reduce(const uint64_t* view, const D* vertices, const unsigned long long* size,
                  const unsigned long long* gate, int64_t item_size, int64_t min_degree,
                  int64_t max_degree, int64_t* sums, unsigned long long* edges) {
  if (*gate) return;
  const View g = View::load(view);
  cgc::scan_items_reduce(g, vertices, (int64_t)*size, item_size, min_degree, max_degree, sums,
                         edges);
}

__global__ void __launch_bounds__(cgc::BLOCK)
scan_items_spine(const unsigned long long* gate, int64_t* sums, int64_t blocks) {
  if (*gate) return;
  cgc::scan_items_spine(sums, blocks);
}

template <class View, typename D>
__global__ void __launch_bounds__(cgc::BLOCK)
scan_items_finish(const uint64_t* view, const D* vertices, const unsigned long long* size,
                  const unsigned long long* gate, int64_t item_size, int64_t min_degree,
                  int64_t max_degree, const int64_t* sums, int64_t* scan) {
  if (*gate) return;
  const View g = View::load(view);
  cgc::scan_items_finish(g, vertices, (int64_t)*size, item_size, min_degree, max_degree, sums,
                         scan);
}
