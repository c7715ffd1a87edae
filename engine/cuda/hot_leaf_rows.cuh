// A block's hot leaf rows in shared memory (mmcsf_hot_leaves.cuh ranks them): where they live,
// how a team adds into them, and how the block adds them into the output at its end. Rank 32
// only (a row is 8 float4s, one a team lane). Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "float4_math.cuh"

namespace tscope::gpu {

// What a launch passes its kernel: the ranks below `rows` live in shared memory.
struct HotLaunch {
    const std::uint16_t* slot = nullptr;
    const std::uint32_t* row = nullptr;
    std::uint32_t rows = 0;
};

namespace {  // each .cu file gets its own copy (no separable compilation)

// A hot row of rank 32 is 32 floats of shared memory. The lane owning float4 `col` of the row
// keeps component k at (k * 8 + col) ^ ((slot & 3) * 8): the 8 lanes of one team touch 8
// consecutive banks, and the four teams of a warp, whose slots differ, mostly different ones.
__device__ inline std::uint32_t hot_offset(std::uint32_t slot, std::uint32_t col, std::uint32_t k) {
    return slot * 32 + ((k * 8 + col) ^ ((slot & 3) * 8));
}

// Adds v into the lane's float4 of hot row `slot`. sm_90 compiles a shared fp32 atomicAdd to a
// compare-and-swap loop (ATOMS.CAST.SPIN), four of them here, all in the SM.
__device__ inline void hot_add4(float* rows, std::uint32_t slot, std::uint32_t col, float4 v) {
    atomicAdd(rows + hot_offset(slot, col, 0), v.x);
    atomicAdd(rows + hot_offset(slot, col, 1), v.y);
    atomicAdd(rows + hot_offset(slot, col, 2), v.z);
    atomicAdd(rows + hot_offset(slot, col, 3), v.w);
}

__device__ inline void clear_hot_rows(float* rows, std::uint32_t count) {
    for (std::uint32_t i = threadIdx.x; i < count * 32; i += blockDim.x) rows[i] = 0.f;
}

// The block's hot rows added into the output (rank 32, as float4s), one vector atomic for each
// float4 the block touched.
__device__ inline void flush_hot_rows(const float* rows, const HotLaunch& hot, float4* out) {
    for (std::uint32_t i = threadIdx.x; i < hot.rows * 8; i += blockDim.x) {
        const std::uint32_t slot = i / 8, col = i % 8;
        const float4 v = make_float4(rows[hot_offset(slot, col, 0)], rows[hot_offset(slot, col, 1)],
                                     rows[hot_offset(slot, col, 2)], rows[hot_offset(slot, col, 3)]);
        if (v.x != 0.f || v.y != 0.f || v.z != 0.f || v.w != 0.f)
            atomic_add4(out + static_cast<std::uint64_t>(hot.row[slot]) * 8 + col, v);
    }
}

}  // namespace
}  // namespace tscope::gpu
