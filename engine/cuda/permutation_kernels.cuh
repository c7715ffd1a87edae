// Permutations on the device: the identity, which the device format build (gpu_format_build.cu)
// and MM-CSF's partitioning (gpu_mmcsf_partition.cu) sort and SpTV's hot columns
// (sptv_hot_columns.cuh) number with, and out[i] = in[perm[i]], a
// permutation applied to an array, as the format build and the fiber ordering
// (fiber_length_order.cu) move a tree's arrays into their order. Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

// p[i] = base + i. The loop counts in 64 bits: a 32-bit index near 2^32 would wrap past n.
__global__ void iota_kernel(std::uint32_t* p, std::uint64_t n, std::uint32_t base = 0) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        p[i] = base + static_cast<std::uint32_t>(i);
}

template <class T>
__global__ void gather_kernel(const T* in, const std::uint32_t* perm, T* out, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        out[i] = in[perm[i]];
}

}  // namespace
}  // namespace tscope::gpu
