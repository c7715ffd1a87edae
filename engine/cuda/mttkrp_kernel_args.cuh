// What the MTTKRP kernels take by value: the factor matrices and index arrays of up to
// kMaxModes modes, as plain pointers (fp32 rows, or float4 rows for the team kernels).
// Private to engine/cuda: gpu_mttkrp.cu includes it (nvcc, no separable compilation).
#pragma once

#include <cuda_runtime.h>
#include <cstdint>

namespace tscope::gpu {
namespace {

constexpr int kMaxModes = 16;

struct FactorPtrs {
    const float* f[kMaxModes];
};

struct IndexPtrs {
    const std::uint32_t* p[kMaxModes];
};

struct Factor4Ptrs {
    const float4* f[kMaxModes];
};

}  // namespace
}  // namespace tscope::gpu
