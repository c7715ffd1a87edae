// Each parent's fibers of a device-built tree ordered by length, longest first, as the host
// upload orders large trees (csf_flat::order_by_length, engine/kernels/csf_flatten.hpp, which
// says why and what was measured). Private to engine/cuda.
#pragma once

#include "resident_tensor.cuh"

namespace tscope::gpu {

// Whether the device orders trees this way, TENSORSCOPE_DEVICE_FIBER_ORDER=length (off by default:
// not yet measured): the device build's (the CPD's) where the tree fills the device (8 fibers or
// more for each resident team of 8 lanes, as the upload's is_small); the uploaded ones ask by
// Fibers::order_on_device, in place of the host's ordering (mttkrp_cuda.cpp's upload_trees).
bool device_order_applies(std::uint64_t fibers);

// The part's fibers reordered within each parent (the run of fibers sharing every level above the
// fibers' own), longest first, ties in their order, each fiber's ancestors and nonzeros moving with
// it. Needs about 8 bytes a nonzero and 40 a fiber of device memory beside the part while it runs.
void order_fibers_by_length(ResidentTensor::Impl::Part& part);

}  // namespace tscope::gpu
