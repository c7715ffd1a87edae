// The MTTKRP kernels for any rank: a warp a nonzero (COO) or a warp a group of fibers (the CSF
// family), lane r owning columns r, r + 32, ... The team kernels (mttkrp_fiber_teams.cuh,
// mttkrp_coo_teams.cuh) take every rank that is a multiple of 4.
// Private to engine/cuda: gpu_mttkrp.cu includes it (nvcc, no separable compilation).
#pragma once

#include <cstdint>

#include "hot_out.cuh"
#include "mttkrp_kernel_args.cuh"

namespace tscope::gpu {
namespace {

// COO for ranks the team kernels cannot take (R % 4 != 0): one warp per nonzero
// (grid-stride), lane r handles columns r, r+32, ...
__global__ void coo_kernel(std::uint64_t nnz, int order, int mode, std::uint64_t R, IndexPtrs idx, const float* vals,
                           FactorPtrs factors, double* out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t z = warp; z < nnz; z += warps) {
        const float x = vals[z];
        for (std::uint64_t r = lane; r < R; r += 32) {
            float v = x;
            for (int m = 0; m < order; ++m)
                if (m != mode) v *= factors.f[m][static_cast<std::uint64_t>(idx.p[m][z]) * R + r];
            atomicAdd(&out[static_cast<std::uint64_t>(idx.p[mode][z]) * R + r], static_cast<double>(v));
        }
    }
}

// One warp per group of kGroup consecutive fibers (mm-csf Alg. 6: fiber groups, atomics only
// where the output row changes). target < levels: each fiber's nonzeros times their leaf
// rows, times the rows of every ancestor level but the target, accumulate in registers while
// consecutive fibers share the target's row. target == levels: the nonzero algorithm, one
// atomic per nonzero. Lane r handles columns r, r + 32, ... (R <= kMaxRank).
// hot: where the target level's ids past out_rows are hot rows' copies (hot_out.cuh's HotTarget).
constexpr int kGroup = 16;
constexpr int kMaxRank = 128;

// Where output row (or hot copy) `row` starts: in out, or among hot's copies.
__device__ inline float* warp_row(float* out, const HotTarget& hot, std::uint64_t row, std::uint64_t R) {
    return row < hot.out_rows ? out + row * R : hot.copies + (row - hot.out_rows) * R;
}

__global__ void fiber_kernel(std::uint64_t fibers, int levels, int target, std::uint64_t R, IndexPtrs anc,
                             FactorPtrs level_factor, const std::uint64_t* fiber_ptr, std::uint64_t base,
                             const std::uint32_t* leaf, const float* vals, float* out, HotTarget hot) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    const float* leaf_factor = level_factor.f[levels];
    const int chunks = static_cast<int>((R + 31) / 32);
    const std::uint64_t groups = (fibers + kGroup - 1) / kGroup;
    for (std::uint64_t g = warp; g < groups; g += warps) {
        const std::uint64_t first = g * kGroup;
        const std::uint64_t last = first + kGroup < fibers ? first + kGroup : fibers;
        float acc[kMaxRank / 32];  // indexed by unrolled constants only: stays in registers
#pragma unroll
        for (int c = 0; c < kMaxRank / 32; ++c) acc[c] = 0.0f;
        std::uint64_t row = ~std::uint64_t{0};
        for (std::uint64_t f = first; f < last; ++f) {
            const std::uint64_t lo = fiber_ptr[f] - base, hi = fiber_ptr[f + 1] - base;
            if (target == levels) {  // nonzero algorithm
#pragma unroll
                for (int c = 0; c < kMaxRank / 32; ++c) {
                    const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                    if (c >= chunks || r >= R) continue;
                    float prefix = 1.0f;
                    for (int l = 0; l < levels; ++l)
                        prefix *= level_factor.f[l][static_cast<std::uint64_t>(anc.p[l][f]) * R + r];
                    for (std::uint64_t z = lo; z < hi; ++z)
                        atomicAdd(warp_row(out, hot, leaf[z], R) + r, vals[z] * prefix);
                }
                continue;
            }
            const std::uint64_t target_row = anc.p[target][f];
            if (target_row != row) {  // flush the previous row's sum
                if (row != ~std::uint64_t{0}) {
#pragma unroll
                    for (int c = 0; c < kMaxRank / 32; ++c) {
                        const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                        if (c < chunks && r < R) atomicAdd(warp_row(out, hot, row, R) + r, acc[c]);
                        acc[c] = 0.0f;
                    }
                }
                row = target_row;
            }
            // The fiber's leaf indices and values come in 32 at a time, one per lane (one
            // coalesced load each), and are handed round with shuffles; the leaf rows' loads
            // then do not wait on one another, so several are in flight per warp.
            float sum[kMaxRank / 32];
#pragma unroll
            for (int c = 0; c < kMaxRank / 32; ++c) sum[c] = 0.0f;
            for (std::uint64_t base = lo; base < hi; base += 32) {
                const std::uint64_t mine = base + lane;
                const std::uint32_t my_leaf = mine < hi ? leaf[mine] : 0u;
                const float my_val = mine < hi ? vals[mine] : 0.0f;
                const int n = static_cast<int>(hi - base < 32 ? hi - base : 32);
#pragma unroll 4
                for (int k = 0; k < n; ++k) {
                    const std::uint64_t row_k = static_cast<std::uint64_t>(__shfl_sync(0xffffffffu, my_leaf, k)) * R;
                    const float x = __shfl_sync(0xffffffffu, my_val, k);
#pragma unroll
                    for (int c = 0; c < kMaxRank / 32; ++c) {
                        const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                        if (c < chunks && r < R) sum[c] += x * leaf_factor[row_k + r];
                    }
                }
            }
#pragma unroll
            for (int c = 0; c < kMaxRank / 32; ++c) {
                const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                if (c >= chunks || r >= R) continue;
                float prefix = 1.0f;
                for (int l = 0; l < levels; ++l)
                    if (l != target) prefix *= level_factor.f[l][static_cast<std::uint64_t>(anc.p[l][f]) * R + r];
                acc[c] += sum[c] * prefix;
            }
        }
        if (target < levels && row != ~std::uint64_t{0}) {
#pragma unroll
            for (int c = 0; c < kMaxRank / 32; ++c) {
                const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                if (c < chunks && r < R) atomicAdd(warp_row(out, hot, row, R) + r, acc[c]);
            }
        }
    }
}

}  // namespace
}  // namespace tscope::gpu
