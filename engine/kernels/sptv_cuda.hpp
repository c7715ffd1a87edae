// The cuda side of SptvPlan: the format flattened (fp32 values, 32-bit indices) and uploaded
// once in prepare; each compute uploads the vector, runs the kernel and writes the fiber values
// into the result laid out on the host (the same layout as the omp backend's). Private.
#pragma once

#include <functional>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"

namespace tscope::detail {

struct SptvCudaPrepared {
    CooTensor layout;  // the result's fibers and coordinates, values zero
    std::function<void(const double* v, double* out, DeviceTiming* timing)> values;
    std::uint64_t packed = 0;  // the vector's entries the device copies ahead of it (SptvPlan::vector_packed)
    bool replays = false;      // SptvPlan::replays_graph
};

// InputError for a format without a CUDA SpTV kernel or built for another mode, or a mode of
// 2^32 - 1 or more; tscope::Error where the device cannot hold the format.
SptvCudaPrepared sptv_prepare_cuda(const SparseFormat& format, int mode);

}  // namespace tscope::detail
