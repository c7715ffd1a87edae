// The device's copy of a COO tensor (gpu_format_build.cu uploads it) and the sort the device
// builds start from, shared by the format build and MM-CSF's partitioning on the device
// (gpu_mmcsf_partition.cu). Private to engine/cuda.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda_util.cuh"
#include "gpu_mttkrp.hpp"

namespace tscope::gpu {

struct DeviceCoo::Impl {
    int device = engine_device();
    std::uint64_t nnz = 0;
    std::vector<std::uint64_t> dims;
    std::vector<DeviceArray<std::uint32_t>> idx;
    DeviceArray<float> vals;
};

// Sorts the n nonzeros that `perm` lists so that they are in lexicographic order of the modes
// in `order` (root first), stably: one CUB radix sort per mode, least significant first.
// keys/keys_alt/perm_alt are scratch of n entries; returns perm or perm_alt, whichever holds
// the sorted list.
std::uint32_t* sort_permutation(const DeviceCoo::Impl& c, const std::vector<int>& order, std::uint64_t n,
                                DeviceArray<std::uint32_t>& perm, DeviceArray<std::uint32_t>& perm_alt,
                                DeviceArray<std::uint32_t>& keys, DeviceArray<std::uint32_t>& keys_alt);

}  // namespace tscope::gpu
