// Every layout's device view; algorithm kernels include this one header and are instantiated
// per view type (the layout classes name their types in device_view_types()).  The members every
// view offers are listed in formats/csr.cuh: among them two decoders of a rank range, for_each
// (one thread) and warp_for_each (the 32 lanes of a warp; algorithms/traverse.cuh).
#pragma once
#include "formats/cgr.cuh"
#include "formats/csr.cuh"
#include "formats/elias_fano.cuh"
#include "formats/fixed_length.cuh"
