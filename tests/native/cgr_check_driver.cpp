// Runs formats/cgr.cu's cgr_check_lists kernel on the CPU (see cuda_host_shim.h), every buffer in
// an allocation of exactly its size, so AddressSanitizer reports any read past the layout's
// buffers, however corrupt they are.  Serves requests until stdin ends, one window each.
//
// Request (little-endian int64): five buffers (edge_offsets, edge_offsets_high, bit_offsets,
// bit_offsets_high, stream), each its byte size and bytes padded to 8; then v0, v1, last, bound,
// k, min_interval_length, segment_size, capacity.  Reply: the kernel's three out words, then the
// suspects it listed (at most capacity).
#include "cuda_host_shim.h"
#include "formats/cgr.cu"

#include <cstdio>
#include <cstdlib>
#include <vector>

static bool next(int64_t& x) { return std::fread(&x, 8, 1, stdin) == 1; }

static int64_t must() {
  int64_t x;
  if (!next(x)) std::exit(3);
  return x;
}

int main() {
  int64_t first;
  while (next(first)) {
    std::vector<char*> buffers;
    std::vector<int64_t> sizes;
    for (int b = 0; b < 5; ++b) {
      const int64_t bytes = b ? must() : first;
      char* data = static_cast<char*>(std::malloc(bytes ? bytes : 1));
      const int64_t padded = (bytes + 7) / 8 * 8;
      std::vector<char> raw(padded);
      if (padded && std::fread(raw.data(), 1, padded, stdin) != (size_t)padded) return 3;
      if (bytes) std::memcpy(data, raw.data(), bytes);
      buffers.push_back(data);
      sizes.push_back(bytes);
    }
    const int64_t v0 = must(), v1 = must(), last = must(), bound = must(), k = must(),
                  min_len = must(), seg = must(), capacity = must();
    unsigned long long out[3] = {~0ull, ~0ull, 0ull};
    std::vector<int64_t> suspects(capacity);
    // One warp: the kernel is a grid-stride loop, so any launch covers every list.
    shim_launch(1, 32, [&] {
      cgr_check_lists(reinterpret_cast<const uint32_t*>(buffers[0]),
                      reinterpret_cast<const int64_t*>(buffers[1]), sizes[1] / 8,
                      reinterpret_cast<const uint32_t*>(buffers[2]),
                      reinterpret_cast<const int64_t*>(buffers[3]), sizes[3] / 8,
                      reinterpret_cast<const uint32_t*>(buffers[4]), sizes[4] / 4, v0, v1, last,
                      bound, (int)k, min_len, seg, out, suspects.data(), capacity);
    });
    std::fwrite(out, 8, 3, stdout);
    const int64_t listed = (int64_t)out[2] < capacity ? (int64_t)out[2] : capacity;
    if (listed) std::fwrite(suspects.data(), 8, listed, stdout);
    std::fflush(stdout);
    for (char* data : buffers) std::free(data);
  }
  return 0;
}
