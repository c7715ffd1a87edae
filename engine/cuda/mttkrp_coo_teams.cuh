// MTTKRP on COO by teams of lanes, a float4 of every factor row a lane, summing runs of one
// output row before an atomic.
// Private to engine/cuda: gpu_mttkrp.cu includes it (nvcc, no separable compilation).
#pragma once

#include <cstdint>
#include <cub/block/block_radix_sort.cuh>
#include "coo_group.hpp"
#include "float4_math.cuh"
#include "hot_out.cuh"
#include "mttkrp_kernel_args.cuh"
#include "row_chains.cuh"

namespace tscope::gpu {
namespace {

// COO with a team of TEAM lanes per group of `group` consecutive nonzeros, each lane owning one
// float4 of every row (as the fiber teams of mttkrp_fiber_teams.cuh). The team sums in registers while the output
// row repeats and adds to the output only when it changes: a COO sorted with the output mode
// first repeats it for a whole slice, the next mode for a fiber, so the heavy rows of a
// power-law tensor take one atomic per run instead of one per nonzero. A run is added in fp32
// into output copies (coo_flush) or into one fp64 output (millions of adds into one row of the
// last sorted mode). An fp64 flush goes through shared memory
// so that the team's fp64 atomics cover consecutive columns: lane c adds columns c, c + TEAM,
// ..., four instructions of TEAM neighbouring doubles each, instead of four instructions whose
// lanes sit 32 bytes apart (which made the mode without runs 2.4x slower than a warp per
// nonzero).
template <int TEAM>
__device__ inline void flush_row(double* out, std::uint64_t row, std::uint64_t R, std::uint32_t col, float4 acc,
                                 float4* stage, unsigned mask) {
    stage[col] = acc;
    __syncwarp(mask);
    const float* cols = reinterpret_cast<const float*>(stage);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const std::uint64_t c = static_cast<std::uint64_t>(k) * TEAM + col;
        if (c < R) atomicAdd(out + row * R + c, static_cast<double>(cols[c]));
    }
    __syncwarp(mask);
}

// Where a COO team adds a run of one row: the one fp64 output through flush_row (a streamed
// chunk's), or with sm_90's fp32 vector atomics into output copy `unit % copies` (the resident
// tensor's; launch_resident_coo sums the copies in fp64). Copies spread a heavy row's adds over C
// addresses and cut its fp32 chains to a C-th, as BLCO's do (launch_blco).
// Where those copies do not fit (gpu_mttkrp.cu's copies_for: one copy), the mode's hot rows
// (hot_out.cuh) take copies of their own: rows past kHotChain adds.
struct CooOut {
    double* f64 = nullptr;
    float4* f32 = nullptr;
    unsigned copies = 1;
    std::uint64_t stride4 = 0;  // float4s from one copy to the next
    HotOut hot;                 // f32 only
};

// unit: the walk's group (its output copy); hot_unit: what picks a hot row's copy (the team
// kernel's group; the tile kernel's tile, since a row that sorts into the same share of every
// tile would otherwise keep to the copies that share's number picks).
// HOT: the launch has hot rows (o.hot), looked up in `look` (the row's, loaded at its run's
// start); without, the kernels are as they were before them.
template <int TEAM, bool HOT>
__device__ inline void coo_flush(const CooOut& o, std::uint64_t unit, std::uint64_t hot_unit, std::uint64_t row,
                                 const HotLook& look, std::uint32_t R4, std::uint32_t col, float4 acc, float4* stage,
                                 unsigned mask) {
    if (o.f64) {
        flush_row<TEAM>(o.f64, row, 4ull * R4, col, acc, stage, mask);
        return;
    }
    if (col >= R4) return;
    float4* to = o.f32 + (static_cast<std::uint32_t>(unit) % o.copies) * o.stride4 + row * R4;  // 32 bits: hot_target
    if constexpr (HOT)
        if (float4* hot = hot_target(o.hot, look, hot_unit, R4)) to = hot;
    atomic_add4(to + col, acc);
}

// Nonzero z's value times its rows of every factor but `mode`'s (this lane's float4 of each).
// ORDER: the tensor's order compiled in (3 or 4: the loop unrolls, so each mode's index and factor
// pointers are read from the kernel's parameters and the nonzero's loads can all be in flight
// together); 0 takes `order` at run time, which copies the pointer arrays to a 256-byte stack
// frame (ptxas) and reads them from there before each load, as TTMc's peers kernel did before
// its order was compiled in (gpu_ttmc.cu: faster on all but one of its tensors). Orders 3 and 4
// are compiled in since session 90 and order 5 since session 92 (1.24-2.63x on one H100,
// gpu_mttkrp.cu's launch_coo_kernels); TENSORSCOPE_COO_ORDER=0 keeps 0 (as do orders above 5),
// =4 compiles only 3 and 4 in.
template <int ORDER>
__device__ inline float4 coo_term(std::uint64_t z, int order, int mode, std::uint32_t R4, std::uint32_t col,
                                  const IndexPtrs& idx, const float* __restrict__ vals, const Factor4Ptrs& factors) {
    float4 v = make_float4(vals[z], vals[z], vals[z], vals[z]);
    if constexpr (ORDER > 0) {
#pragma unroll
        for (int m = 0; m < ORDER; ++m)
            if (m != mode) v = v * factors.f[m][static_cast<std::uint64_t>(idx.p[m][z]) * R4 + col];
    } else {  // a plain loop: the code as measured before session 90 (a `#pragma unroll` changes its PTX)
        for (int m = 0; m < order; ++m)
            if (m != mode) v = v * factors.f[m][static_cast<std::uint64_t>(idx.p[m][z]) * R4 + col];
    }
    return v;
}

template <int TEAM, int ORDER, bool HOT>
__global__ void __launch_bounds__(256)
    coo_team_kernel(std::uint64_t nnz, std::uint64_t group, int order, int mode, std::uint32_t R4, IndexPtrs idx,
                    const float* __restrict__ vals, Factor4Ptrs factors, CooOut out) {
    __shared__ float4 stage_all[256];
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t team = thread / TEAM;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / TEAM;
    const std::uint32_t col = threadIdx.x % TEAM;
    float4* stage = stage_all + (threadIdx.x - col);
    const unsigned mask = TEAM == 32 ? 0xffffffffu : ((1u << TEAM) - 1u) << (threadIdx.x % 32 - col);
    const bool active = col < R4;  // the others only help flush the columns of the active ones
    const std::uint32_t* __restrict__ out_idx = idx.p[mode];
    const std::uint64_t groups = (nnz + group - 1) / group;
    for (std::uint64_t g = team; g < groups; g += teams) {
        const std::uint64_t first = g * group;
        const std::uint64_t last = first + group < nnz ? first + group : nnz;
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        std::uint64_t row = out_idx[first];
        HotLook look;
        if constexpr (HOT) look = hot_look(out.hot, row);
#pragma unroll 4
        for (std::uint64_t z = first; z < last; ++z) {
            const float4 v =
                active ? coo_term<ORDER>(z, order, mode, R4, col, idx, vals, factors) : make_float4(0.f, 0.f, 0.f, 0.f);
            const std::uint64_t r = out_idx[z];
            if (r != row) {
                coo_flush<TEAM, HOT>(out, g, g, row, look, R4, col, acc, stage, mask);
                acc = make_float4(0.f, 0.f, 0.f, 0.f);
                row = r;
                if constexpr (HOT) look = hot_look(out.hot, row);
            }
            add4(acc, v);
        }
        coo_flush<TEAM, HOT>(out, g, g, row, look, R4, col, acc, stage, mask);
    }
}

// COO for a mode whose heavy rows' updates the nonzeros' order scatters (nell-2's third mode:
// its heaviest row has 3.1M runs of one nonzero). The team kernel then flushes nearly every
// nonzero, and even spread over the output copies that fit, the heavy row's fp32 chains run to
// half a million adds (errors of 1e-4 against cpu-ref). This kernel first sorts each tile of
// kCooTile consecutive nonzeros by output row in the block (cub::BlockRadixSort of the rows,
// positions as values; stable), then each team walks its share of the sorted tile as
// coo_team_kernel walks a group: registers while the row repeats, one flush per run. The sort
// lives in shared memory for one tile; the tensor is not touched. A tile of a Zipf(1) mode of
// 28,818 rows holds about 580 distinct rows for its 1,024 nonzeros, and its heaviest row's ~94
// nonzeros take one to three flushes instead of 94. On the nell-2 shape (H100, rank 32, fp32
// copies) the third mode took 5.8 ms against the team kernel's 5.2-5.5 ms, with errors of
// 2.8e-6 against 9.8e-5; on modes without heavy scattered rows it is slower (4.3-6.3 ms against
// 3.4-5.0), so it runs only where the team kernel's chains would be too long.
constexpr int kCooTileThreads = 256, kCooTileItems = 4, kCooTile = kCooTileThreads * kCooTileItems;

template <int TEAM, int ORDER, bool HOT>
__global__ void __launch_bounds__(kCooTileThreads)
    coo_tile_kernel(std::uint64_t nnz, int order, int mode, std::uint32_t R4, int key_bits, IndexPtrs idx,
                    const float* __restrict__ vals, Factor4Ptrs factors, CooOut out) {
    using Sort = cub::BlockRadixSort<std::uint32_t, kCooTileThreads, kCooTileItems, std::uint16_t>;
    __shared__ union {
        typename Sort::TempStorage sort;
        struct {
            std::uint32_t row[kCooTile];
            std::uint16_t pos[kCooTile];
        } tile;
    } s;
    __shared__ float4 stage_all[kCooTileThreads];
    constexpr int kShare = kCooTile / (kCooTileThreads / TEAM);  // sorted nonzeros per team
    const std::uint32_t col = threadIdx.x % TEAM;
    float4* stage = stage_all + (threadIdx.x - col);
    const unsigned mask = TEAM == 32 ? 0xffffffffu : ((1u << TEAM) - 1u) << (threadIdx.x % 32 - col);
    const bool active = col < R4;
    const std::uint32_t* __restrict__ out_idx = idx.p[mode];
    const int first = static_cast<int>(threadIdx.x / TEAM) * kShare;
    const std::uint64_t tiles = (nnz + kCooTile - 1) / kCooTile;
    for (std::uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const std::uint64_t base = t * kCooTile;
        std::uint32_t key[kCooTileItems];
        std::uint16_t pos[kCooTileItems];
#pragma unroll
        for (int k = 0; k < kCooTileItems; ++k) {
            const int p = static_cast<int>(threadIdx.x) * kCooTileItems + k;
            key[k] = base + p < nnz ? out_idx[base + p] : 0xffffffffu;  // padding sorts after every row of the tile
            pos[k] = static_cast<std::uint16_t>(p);
        }
        __syncthreads();  // the previous tile's walk is done with s
        Sort(s.sort).Sort(key, pos, 0, key_bits);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kCooTileItems; ++k) {
            const int p = static_cast<int>(threadIdx.x) * kCooTileItems + k;
            s.tile.row[p] = key[k], s.tile.pos[p] = pos[k];
        }
        __syncthreads();
        const std::uint64_t unit = t * (kCooTileThreads / TEAM) + threadIdx.x / TEAM;  // this share's output copy
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        std::uint32_t row = s.tile.row[first];
        HotLook look;  // not for the padding's row (a share of padding flushes nothing)
        if constexpr (HOT)
            if (row != 0xffffffffu) look = hot_look(out.hot, row);
        bool any = false;
#pragma unroll 4
        for (int j = first; j < first + kShare; ++j) {
            const std::uint64_t z = base + s.tile.pos[j];
            if (z >= nnz) break;  // the padding: last in the tile
            const std::uint32_t r = s.tile.row[j];
            const float4 v =
                active ? coo_term<ORDER>(z, order, mode, R4, col, idx, vals, factors) : make_float4(0.f, 0.f, 0.f, 0.f);
            if (r != row) {
                coo_flush<TEAM, HOT>(out, unit, t, row, look, R4, col, acc, stage, mask);
                acc = make_float4(0.f, 0.f, 0.f, 0.f);
                row = r;
                if constexpr (HOT) look = hot_look(out.hot, row);
            }
            add4(acc, v);
            any = true;
        }
        if (any) coo_flush<TEAM, HOT>(out, unit, t, row, look, R4, col, acc, stage, mask);
    }
}

}  // namespace
}  // namespace tscope::gpu
