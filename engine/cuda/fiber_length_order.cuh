// Each parent's fibers of a large tree, device-built (the CPD's) or uploaded (bench's, the Kernels
// tab's), ordered by length on the device, longest first. csf_flat::order_by_length
// (engine/kernels/csf_flatten.hpp) is its host reference and says why; mttkrp_cuda.cpp's
// upload_trees and fiber_length_order.cu say what was measured. Private to engine/cuda.
#pragma once

#include "resident_tensor.cuh"

namespace tscope::gpu {

// Whether a device-built tree (the CPD's) is ordered: where it fills the device (8 fibers or more
// for each resident team of 8 lanes, as the upload's is_small), unless TENSORSCOPE_FIBER_ORDER=tree
// keeps every tree's order, for comparisons. The uploaded ones ask by Fibers::order_on_device.
bool device_order_applies(std::uint64_t fibers);

// Device bytes the ordering holds beside the part at its peak: the sort's keys and ids, double
// buffered (24 a fiber), or the moved offsets, ancestors and nonzeros (16 a fiber, 8 a nonzero).
std::uint64_t ordering_bytes(std::uint64_t fibers, std::uint64_t nnz);

// The part's fibers reordered within each parent (the run of fibers sharing every level above the
// fibers' own), longest first, ties in their order, each fiber's ancestors and nonzeros moving with
// it. Where the device has less than ordering_bytes and a margin free, the part keeps its order
// (the kernels' results are the same, 8-22% slower on the CPD's trees): returns whether it ordered.
bool order_fibers_by_length(ResidentTensor::Impl::Part& part);

}  // namespace tscope::gpu
