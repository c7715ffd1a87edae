// MTTKRP on BLCO by teams of lanes: the COO team walk over BLCO's keys.
// Private to engine/cuda: gpu_mttkrp.cu includes it (nvcc, no separable compilation).
#pragma once

#include <cstdint>
#include "float4_math.cuh"
#include "hot_out.cuh"
#include "mttkrp_kernel_args.cuh"

namespace tscope::gpu {
namespace {

// BLCO (Nguyen et al., ICS 2022, Sec. 4): the COO team kernel's walk over groups of nonzeros in
// BLCO's order, each index recovered from the nonzero's key by a shift and a mask (and its
// block's high bits): one copy of the tensor serves every mode. Runs of one output row are
// summed in the team's registers before an atomic (the paper's reduction of equal output rows
// before the atomics). The output is fp32, added with sm_90's vector atomics into copies that are
// summed in fp64 (launch_blco): on the nell-2 shape (H100, rank 32) 2.8-3.0 ms a mode with errors
// of 0.9-1.5e-6 (one output: 1.6-3.3e-5), against 9.0-11.3 ms and 2e-9 for the COO kernel's
// staged fp64 flush (docs/bench/h100-blco.json, h100-blco-copies.json, h100-blco-one-block.json).
struct BlcoView {
    std::uint64_t nnz = 0, blocks = 0;
    std::uint64_t base = 0;  // the tensor's nonzero number of keys[0] (a streamed chunk's first)
    const std::uint64_t* keys = nullptr;
    const float* vals = nullptr;
    const std::uint64_t* block_ptr = nullptr;
    const std::uint64_t* high[kMaxModes] = {};
    unsigned shift[kMaxModes] = {}, width[kMaxModes] = {};
};

// A mode's index from its high bits (already shifted into place) and its w-bit field of the key.
__device__ inline std::uint64_t blco_field(std::uint64_t high_shifted, std::uint64_t key, unsigned shift, unsigned w) {
    return w == 64 ? key : high_shifted | ((key >> shift) & ((std::uint64_t{1} << w) - 1));
}

__device__ inline std::uint64_t blco_high(const BlcoView& v, int m, std::uint64_t block) {
    return v.width[m] < 64 ? v.high[m][block] << v.width[m] : 0;
}

__device__ inline std::uint64_t blco_index(const BlcoView& v, int m, std::uint64_t key, std::uint64_t block) {
    return blco_field(blco_high(v, m, block), key, v.shift[m], v.width[m]);
}

// Ranks the team kernel cannot take (R % 4 != 0): one warp per nonzero, its block found by a
// binary search, an atomic per column. hot (words null: none): a hot row's nonzeros add into its
// copies (R floats each), kHotSpan nonzeros of the tensor's order to one copy before the next,
// so that its fp32 chains stay short (one output: a row of 250,000 nonzeros chains as many).
__global__ void blco_kernel(BlcoView v, int order, int mode, std::uint64_t R, FactorPtrs factors, float* out,
                            HotOut hot) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t z = warp; z < v.nnz; z += warps) {
        std::uint64_t lo = 0, hi = v.blocks;
        while (hi - lo > 1) {
            const std::uint64_t mid = (lo + hi) / 2;
            if (v.block_ptr[mid] <= z + v.base)
                lo = mid;
            else
                hi = mid;
        }
        const std::uint64_t key = v.keys[z];
        const float x = v.vals[z];
        const std::uint64_t row = blco_index(v, mode, key, lo);
        float* to = out + row * R;
        if (hot.words) {
            const HotLook look = hot_look(hot, row);
            if (look.copies)
                to = reinterpret_cast<float*>(hot.copies) +
                     (std::uint64_t{look.base} + static_cast<std::uint32_t>((z + v.base) / kHotSpan) % look.copies) * R;
        }
        for (std::uint64_t r = lane; r < R; r += 32) {
            float p = x;
            for (int m = 0; m < order; ++m)
                if (m != mode) p *= factors.f[m][blco_index(v, m, key, lo) * R + r];
            atomicAdd(to + r, p);
        }
    }
}

// ORDER: the tensor's order where it is compiled in (3-5: the loop over modes unrolls), else 0.
// ONE_BLOCK: the index fits 64 bits, so every nonzero is in block 0 (BLCO Sec. 4.1): its high
// bits are read once per thread, and no nonzero looks up its block. On the nell-2 shape (H100,
// rank 32) that took a mode from 4.59-4.62 ms to 2.82-3.00 ms, same errors (h100-blco-one-block.json).
// HOT: the launch has hot rows (hot_out.cuh), each run's row looked up as the run starts.
template <int TEAM, int ORDER, bool ONE_BLOCK, bool HOT>
__global__ void __launch_bounds__(256)
    blco_team_kernel(BlcoView v, std::uint64_t group, int order_rt, int mode, std::uint32_t R4, Factor4Ptrs factors,
                     float4* out_copies, unsigned copies, std::uint64_t copy_stride4, HotOut hot) {
    const int order = ORDER ? ORDER : order_rt;
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t team = thread / TEAM;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / TEAM;
    const std::uint32_t col = threadIdx.x % TEAM;
    if (col >= R4) return;  // no shuffles or staging below: idle lanes may leave
    // one block: each mode's high bits, shifted into place, held in registers (m is unrolled)
    std::uint64_t high0[ORDER ? ORDER : 1] = {};
    if constexpr (ONE_BLOCK) {
#pragma unroll
        for (int m = 0; m < ORDER; ++m) high0[m] = blco_high(v, m, 0);
    }
    auto index = [&](int m, std::uint64_t key, std::uint64_t b) -> std::uint64_t {
        if constexpr (ONE_BLOCK) return blco_field(high0[m], key, v.shift[m], v.width[m]);
        return blco_index(v, m, key, b);
    };
    // the output mode's, read once (mode is not a compile-time constant)
    const unsigned out_w = v.width[mode], out_shift = v.shift[mode];
    const std::uint64_t out_high = ONE_BLOCK ? blco_high(v, mode, 0) : 0;
    auto out_index = [&](std::uint64_t key, std::uint64_t b) -> std::uint64_t {
        if constexpr (ONE_BLOCK) return blco_field(out_high, key, out_shift, out_w);
        return blco_index(v, mode, key, b);
    };
    const std::uint64_t groups = (v.nnz + group - 1) / group;
    for (std::uint64_t g = team; g < groups; g += teams) {
        const std::uint64_t first = g * group;
        const std::uint64_t last = first + group < v.nnz ? first + group : v.nnz;
        std::uint64_t lo = 0,
                      hi = ONE_BLOCK ? 1
                                     : v.blocks;  // the block holding `first`: block_ptr[b] <= first < block_ptr[b + 1]
        while (hi - lo > 1) {
            const std::uint64_t mid = (lo + hi) / 2;
            if (v.block_ptr[mid] <= first + v.base)
                lo = mid;
            else
                hi = mid;
        }
        std::uint64_t b = lo;
        float4* out = out_copies + (g % copies) * copy_stride4;
        HotLook look;
        auto flush = [&](std::uint64_t r, float4 a) {  // a hot row's into its copy (hot_out.cuh)
            float4* to = out + r * R4;
            if constexpr (HOT)
                if (float4* h = hot_target(hot, look, g, R4)) to = h;
            atomic_add4(to + col, a);
        };
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        std::uint64_t row = out_index(v.keys[first], b);
        if constexpr (HOT) look = hot_look(hot, row);
        // Loading 2, 4 or 8 nonzeros ahead (all their rows before any add) ran 4%, 10% and 70%
        // slower on the nell-2 shape (H100, rank 32; docs/bench/h100-blco-copies.json).
        for (std::uint64_t z = first; z < last; ++z) {
            if constexpr (!ONE_BLOCK)
                while (z + v.base >= v.block_ptr[b + 1]) ++b;
            const std::uint64_t key = v.keys[z];
            float4 p = make_float4(v.vals[z], v.vals[z], v.vals[z], v.vals[z]);
            if constexpr (ORDER > 0) {
#pragma unroll
                for (int m = 0; m < ORDER; ++m)
                    if (m != mode) p = p * factors.f[m][index(m, key, b) * R4 + col];
            } else {
                for (int m = 0; m < order; ++m)
                    if (m != mode) p = p * factors.f[m][index(m, key, b) * R4 + col];
            }
            const std::uint64_t r = out_index(key, b);
            if (r != row) {
                flush(row, acc);
                acc = make_float4(0.f, 0.f, 0.f, 0.f);
                row = r;
                if constexpr (HOT) look = hot_look(hot, row);
            }
            add4(acc, p);
        }
        flush(row, acc);
    }
}

}  // namespace
}  // namespace tscope::gpu
