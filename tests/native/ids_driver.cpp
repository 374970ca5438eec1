// Runs vertex_ids.cu's kernels on the CPU (see cuda_host_shim.h) under AddressSanitizer: the
// order's inverse, then a result column of user ids.  One request on stdin (little-endian
// int64): n, then order, internal and users, n values each; reply: the n user ids.  The
// kernels take int32 order and internal ids and int64 user ids here, one of the type
// combinations the package instantiates; several blocks of a small grid cover n with strides.
#include "cuda_host_shim.h"
#include "vertex_ids.cu"

#include <cstdio>
#include <cstdlib>
#include <vector>

static std::vector<int64_t> read_values(int64_t n) {
  std::vector<int64_t> values(n);
  if (n && std::fread(values.data(), 8, n, stdin) != (size_t)n) std::exit(3);
  return values;
}

int main() {
  int64_t n;
  if (std::fread(&n, 8, 1, stdin) != 1) return 3;
  const std::vector<int64_t> order64 = read_values(n), internal64 = read_values(n),
                             users = read_values(n);
  const std::vector<int> order(order64.begin(), order64.end()),
      internal(internal64.begin(), internal64.end());
  std::vector<int> inverse(n, -1);
  std::vector<long long> out(n, 0);
  const std::vector<long long> user_ids(users.begin(), users.end());
  shim_launch(3, 64, [&] { invert_order<int>(order.data(), n, inverse.data()); });
  shim_launch(3, 64, [&] {
    users_in_rows<int, int, long long>(order.data(), internal.data(), inverse.data(),
                                       user_ids.data(), n, out.data());
  });
  std::fwrite(out.data(), 8, n, stdout);
  return 0;
}
