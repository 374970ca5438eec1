// The BFS::traverse_impl instantiations the EFG binary carries, in place of EFG's
// inst_trav.h: that one instantiates the cross product of every integer width (304 copies of
// the BFS kernels and their CUB sorts), a binary far past the 40 MiB the benchmark can carry
// to the GPU host, and hours of nvcc on a small machine.
//
// EFG picks the widths from the graph (EFLayout::set_ef_params): Value from the vertex count,
// Edge from the edge count, SkipValue from twice the largest degree, Degree from the largest
// degree and Offset from the number of EF chunks. Directed R-MAT graphs of edge factor 16 take
// 32-bit vertex ids, edge counts and chunk offsets from scale 16 to 28; their largest
// out-degree passes 2^15 near scale 20 and 2^16 near scale 22. Scale 14 (16-bit ids) is kept
// for quick checks. A graph needing other widths stops with a message naming them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace efg_peer {

template <typename V, typename E, typename S, typename D, typename O>
struct Widths {
    using Value = V;
    using Edge = E;
    using SkipValue = S;
    using Degree = D;
    using Offset = O;
};

using Built = std::tuple<
    // Value     Edge      SkipValue Degree    Offset
    Widths<uint32_t, uint32_t, uint16_t, uint16_t, uint32_t>,  // R-MAT 16-18
    Widths<uint32_t, uint32_t, uint32_t, uint16_t, uint32_t>,  // R-MAT 20
    Widths<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>,  // R-MAT 22-28
    Widths<uint16_t, uint32_t, uint16_t, uint16_t, uint32_t>>; // R-MAT 14

template <typename W>
bool matches(size_t v, size_t d, size_t s, size_t e, size_t o) {
    return sizeof(typename W::Value) == v && sizeof(typename W::Degree) == d &&
           sizeof(typename W::SkipValue) == s && sizeof(typename W::Edge) == e &&
           sizeof(typename W::Offset) == o;
}

// Calls f(W{}) for the first built W matching the widths; false when none does.
template <typename F, typename... W>
bool dispatch(size_t v, size_t d, size_t s, size_t e, size_t o, F&& f, std::tuple<W...>*) {
    return ((matches<W>(v, d, s, e, o) && (f(W{}), true)) || ...);
}

}  // namespace efg_peer

// Same arguments as the macro of inst_trav.h: the widths in bytes, then the member function
// template to call and its arguments.
#define INSTANTIATE_TRAVERSE(v_size, deg_size, skip_size, e_size, off_size, func, ...)     \
    do {                                                                                  \
        bool built_ = efg_peer::dispatch(                                                 \
            v_size, deg_size, skip_size, e_size, off_size,                                \
            [&](auto w_) {                                                                \
                using W = decltype(w_);                                                   \
                this->template func<typename W::Value, typename W::Edge,                  \
                                    typename W::SkipValue, typename W::Degree,            \
                                    typename W::Offset>(__VA_ARGS__);                     \
            },                                                                            \
            static_cast<efg_peer::Built*>(nullptr));                                      \
        if (!built_) {                                                                    \
            fprintf(stderr,                                                               \
                    "ERROR: this EFG build has no BFS for the graph's integer widths "    \
                    "(bytes: value %d, edge %d, skip %d, degree %d, offset %d); add them " \
                    "to benchmarks/efg/instantiations.h and rebuild\n",                   \
                    (int)(v_size), (int)(e_size), (int)(skip_size), (int)(deg_size),      \
                    (int)(off_size));                                                     \
            exit(3);                                                                      \
        }                                                                                 \
    } while (0)
