// out[i] = in[perm[i]] on the device: a permutation applied to an array, as the device format
// builds (gpu_format_build.cu) and their fiber ordering (fiber_length_order.cu) move a tree's
// arrays into their order. Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

template <class T>
__global__ void gather_kernel(const T* in, const std::uint32_t* perm, T* out, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        out[i] = in[perm[i]];
}

}  // namespace
}  // namespace tscope::gpu
