// Every layout's device view; algorithm kernels include this one header and are instantiated
// per view type (the layout classes name their types in device_view_types()).
#pragma once
#include "formats/cgr.cuh"
#include "formats/csr.cuh"
#include "formats/elias_fano.cuh"
#include "formats/fixed_length.cuh"
