// Each parent's fibers of a device-built tree ordered by length, longest first, as the host
// upload orders large trees (csf_flat::order_by_length, engine/kernels/csf_flatten.hpp, which
// says why and what was measured). Private to engine/cuda.
#pragma once

#include "resident_tensor.cuh"

namespace tscope::gpu {

// Whether the device build orders its trees this way: TENSORSCOPE_DEVICE_FIBER_ORDER=length, for
// comparison (off by default: not yet measured on the CPD's trees), and only where the tree fills
// the device (8 fibers or more for each resident team of 8 lanes, as the upload's is_small).
bool device_order_applies(std::uint64_t fibers);

// The part's fibers reordered within each parent (the run of fibers sharing every level above the
// fibers' own), longest first, ties in their order, each fiber's ancestors and nonzeros moving with
// it. Needs about 8 bytes a nonzero and 40 a fiber of device memory beside the part while it runs.
void order_fibers_by_length(ResidentTensor::Impl::Part& part);

}  // namespace tscope::gpu
