// CUDA MTTKRP: COO with atomics, and the fiber-parallel kernel for the CSF family.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <cuda_runtime.h>

#include <cub/block/block_radix_sort.cuh>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_util.cuh"
#include "fiber_length_order.cuh"
#include "float4_math.cuh"
#include "gpu_mttkrp.hpp"
#include "host_widen.hpp"
#include "mttkrp_launch.cuh"
#include "piece_ranges.cuh"
#include "resident_tensor.cuh"
#include "wide_teams.hpp"

namespace tscope::gpu {

namespace {

constexpr int kMaxModes = 16;

struct FactorPtrs {
    const float* f[kMaxModes];
};

struct IndexPtrs {
    const std::uint32_t* p[kMaxModes];
};

// COO for ranks the team kernel below cannot take (R % 4 != 0): one warp per nonzero
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
constexpr int kGroup = 16;
constexpr int kMaxRank = 128;

__global__ void fiber_kernel(std::uint64_t fibers, int levels, int target, std::uint64_t R, IndexPtrs anc,
                             FactorPtrs level_factor, const std::uint64_t* fiber_ptr, std::uint64_t base, const std::uint32_t* leaf,
                             const float* vals, float* out) {
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
                    for (int l = 0; l < levels; ++l) prefix *= level_factor.f[l][static_cast<std::uint64_t>(anc.p[l][f]) * R + r];
                    for (std::uint64_t z = lo; z < hi; ++z)
                        atomicAdd(&out[static_cast<std::uint64_t>(leaf[z]) * R + r], vals[z] * prefix);
                }
                continue;
            }
            const std::uint64_t target_row = anc.p[target][f];
            if (target_row != row) {  // flush the previous row's sum
                if (row != ~std::uint64_t{0}) {
#pragma unroll
                    for (int c = 0; c < kMaxRank / 32; ++c) {
                        const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                        if (c < chunks && r < R) atomicAdd(&out[row * R + r], acc[c]);
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
                if (c < chunks && r < R) atomicAdd(&out[row * R + r], acc[c]);
            }
        }
    }
}

// The same algorithms with a team of TEAM lanes per fiber, each lane owning four consecutive
// columns (one float4): a team reads a whole factor row in one 16-byte load per lane, and a
// warp works on 32 / TEAM fibers at once. With rank 32 a team is 8 lanes, so four fibers' chains
// of dependent loads (fiber pointer, leaf index, factor row) are in flight per warp instead of
// one, and each load instruction moves 512 bytes instead of 128. Needs R % 4 == 0 (rows stay
// 16-byte aligned); R / 4 <= TEAM.
struct Factor4Ptrs {
    const float4* f[kMaxModes];
};

// One tree's arrays on the device, as the team kernels read them, and how its work is cut into
// team groups: `group` consecutive fibers each, or (group_fiber set) `group` consecutive
// nonzeros each, group g starting in fiber group_fiber[g]. Fiber groups leave one team with a
// CSF's fiber of 100,000 nonzeros while its neighbours hold a few; nonzero groups clip every
// fiber to the group's range, so a long fiber is shared by several teams (each adds its part
// of the fiber's sum to the output row, as a B-CSF split fiber does) and every team gets the
// same number of nonzeros.
struct TeamTree {
    std::uint64_t fibers = 0, nnz = 0, base = 0;
    int levels = 0, target = 0;
    IndexPtrs anc{};
    Factor4Ptrs level_factor{};
    const std::uint64_t* fiber_ptr = nullptr;
    const std::uint32_t* leaf = nullptr;
    const float* vals = nullptr;
    std::uint64_t group = 0, groups = 0;
    const std::uint64_t* group_fiber = nullptr;  // null: fiber groups
};

// Fiber f's product of its ancestors' factor rows other than the output level's (this lane's
// float4 of it), and the output row (its ancestor at the target level; 0 when the target is the
// leaves). LEVELS as in team_fiber_group.
template <int LEVELS, class Z = std::uint64_t>
__device__ inline void fiber_head(const TeamTree& t, Z f, std::uint32_t R4, std::uint32_t col, float4& prefix,
                                  std::uint64_t& target_row) {
    prefix = make_float4(1.f, 1.f, 1.f, 1.f);
    target_row = 0;
    if constexpr (LEVELS > 0) {
#pragma unroll
        for (int l = 0; l < LEVELS; ++l) {
            const std::uint64_t a = t.anc.p[l][f];
            if (l != t.target) prefix = prefix * t.level_factor.f[l][a * R4 + col];
            else target_row = a;
        }
    } else {
        for (int l = 0; l < t.levels; ++l)
            if (l != t.target) prefix = prefix * t.level_factor.f[l][static_cast<std::uint64_t>(t.anc.p[l][f]) * R4 + col];
        if (t.target < t.levels) target_row = t.anc.p[t.target][f];
    }
}

// One fiber of a team group (levels: the tree's), its nonzeros [lo, hi), for the team lane owning
// column col: the sum of its values times their leaves' rows (leaf_col: the leaf factor's column
// col, as team_fiber_group gives it), times prefix, added to acc while the output row stays
// target_row and to the output when it changes (row: the row acc holds); where the target is the
// leaves, a vector atomic per nonzero instead.
template <class Z>
__device__ inline void team_fiber(const TeamTree& t, int levels, Z lo, Z hi, const float4& prefix,
                                  std::uint64_t target_row, const float4* __restrict__ leaf_col, std::uint32_t R4,
                                  std::uint32_t col, float4* out, float4& acc, std::uint64_t& row) {
    if (t.target == levels) {  // nonzero algorithm: one vector atomic per nonzero
        for (Z z = lo; z < hi; ++z)
            atomic_add4(out + static_cast<std::uint64_t>(t.leaf[z]) * R4 + col, t.vals[z] * prefix);
        return;
    }
    if (target_row != row) {
        if (row != ~std::uint64_t{0}) atomic_add4(out + row * R4 + col, acc);
        acc = make_float4(0.f, 0.f, 0.f, 0.f);
        row = target_row;
    }
    // Every lane of the team loads each leaf's index and value (one address across the team).
    // Loading them a team's width at a time, a lane each, and passing the indices round by
    // shuffles (three load instructions a gathered row down to little over one) ran slower on
    // one H200 (session 26, b57f2ba, h200-issue19-session26.json call 3): B-CSF on the nell-2
    // shape 3.24-3.61 ms a mode against 2.15-2.26, on the uniform one 3.76-4.00 bounded to five
    // blocks (48 registers, 48 bytes spilled) and 6.7-7.9 bounded to six (120 bytes spilled)
    // against 2.93-3.19: fibers of one to five nonzeros leave most of each shuffle round idle.
    // Loading each fiber's end and ancestor indices a fiber ahead (32-bit offsets within the
    // group, 48 registers bounded to five blocks, no spill) ran slower too (session 27, 9c57070,
    // h200-issue19-session27.json call 4, alternating in one binary): B-CSF on the nell-2 shape
    // 2.67-2.87 ms a mode against 2.14-2.24, 2.72-2.88 bounded to six blocks (80-100 bytes
    // spilled); MM-CSF 2.55-2.66 against 2.32-2.37; the uniform shape 3.14-3.30 against
    // 2.92-3.18; the real and 600K tensors up to 25% slower (JF17K alike).
    // Summing each fiber in batches of four nonzeros whose loads all issue before the first
    // add, its last one to three in one more batch (rank 32 compiled in, 40 registers at six
    // blocks with no spill, 48 at five), ran slower too (session 29, fd4b8df, TENSORSCOPE_
    // FIBER_TAIL, h200-issue19-session29.json call 2, alternating): B-CSF on the nell-2 shape
    // 2.50-2.68 ms a mode at six blocks and 2.22-2.36 at five against 2.14-2.26, MM-CSF
    // 2.65-3.15 and 2.41-2.60 against 2.33-2.39; the same loop compiled for rank 32 alone
    // ran as this one (B-CSF 2.14-2.26); removed.
    // Reading the tree's arrays (offsets, indices, values: each read once) as streaming loads
    // (ld.global.cs), so that L1 would keep the factor rows gathered again and again, and
    // with the factor rows also gathered with L1::evict_last, ran slower too (session 30,
    // 82b9124, TENSORSCOPE_FIBER_LOADS=stream|keep, h200-issue19-session30.json call 1,
    // alternating, the defaults' registers): B-CSF on the nell-2 shape 2.42-2.60 ms a mode
    // against 2.13-2.25, MM-CSF 2.83-2.94 against 2.30-2.36; the uniform shape (wide teams)
    // 3.11-4.08 against 2.49-2.98; delicious-4d's MM-CSF 14.1-18.4 against 10.2-16.4; the real
    // tensors (18-36 us a mode) within 7 us either way; removed.
    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 4
    for (Z z = lo; z < hi; ++z) fma4(sum, t.vals[z], leaf_col[static_cast<std::uint64_t>(t.leaf[z]) * R4]);
    add4(acc, sum * prefix);
}

// Team group g of tree t for the team lane owning column col. CLIP: the tree may be cut into
// nonzero groups (group_fiber set), so fibers are clipped to the group's range; without it the
// loop is the plain fiber-group one, which ran B-CSF about 25% faster on the nell-2 shape than
// the clipping loop on the same fiber groups (H100; 2.4-2.6 against 3.0-3.2 ms per mode).
// LEVELS: the tree's levels above the nonzeros where they are compiled in (2 and 3: tensors of
// order 3 and 4), else 0. Compiled in, the loop over levels unrolls and every array of the tree
// is named by a constant index; with a run-time count the loop stays a loop and each fiber looks
// its arrays up by a computed index. On the nell-2 shape (H100, rank 32) compiling them in took
// B-CSF from 2.40-2.57 to 2.24-2.38 ms a mode, CSF from 3.06-3.33 to 2.86-3.04 and MM-CSF from
// 2.67-2.75 to 2.38-2.48 (docs/bench/h100-issue19-session16.json).
// COL_BASE (the rank-32 loops, R4 compiled in: fiber_index32_kernel and trees_team_kernel's
// RANK32): each leaf's factor row addressed from the lane's column of the factor, a pointer the
// compiler cannot take apart, so that a row's address is one IMAD.WIDE. Left to itself the
// compiler folds the column back in, ((row * 8) | col) << 4 plus the base: four SASS instructions
// (IMAD.WIDE, LOP3, LEA, LEA.HI.X). Measured on one H200 (session 40, 8023f76, TENSORSCOPE_FIBER_
// ADDR, h200-issue19-session40.json call 4, nell-2 shape, rank 32, alternating twice): B-CSF's
// mode 1 executed 978M warp instructions against 1,103M (a scheduler issuing on 57% of its cycles
// against 63%), and B-CSF ran 1.739-1.843 ms a mode against 1.752-1.890, MM-CSF 1.797-1.907
// against 1.839-1.943 (in call 3 R4 compiled in alone gave MM-CSF 8% fewer instructions and
// 1.837-1.930 ms against 1.843-1.943). The gain is smaller than the instructions saved: the loop
// waits mostly on its loads (Nsight Compute, call 2: 9.4 of the 16.5 cycles between a warp's
// instructions stalled on an L1TEX result, 2.0 not selected).
// The rank-32 loops with a team's fibers taken 8 at a time, each lane loading one fiber's offsets
// and passing them round the team by shuffles (so that a fiber's nonzeros waited on a shuffle
// rather than on its offsets' loads; 40 registers and no spill in the single-tree loop, 64 in the
// trees'), ran slower (session 41, 6a21ab5, TENSORSCOPE_FIBER_HEADS, h200-issue19-session41.json
// call 2, one H200, alternating twice): on the nell-2 shape B-CSF 2.045-2.129 ms a mode against
// 1.762-1.860, MM-CSF 1.882-1.971 against 1.797-1.917; the uniform shape's MM-CSF mode 3 (8-lane
// trees) 3.15 against 2.92; removed. Held a fiber a lane as well, the ancestors' indices had taken
// the loop to 8-68 bytes of spill at 40 registers.
template <bool CLIP, int LEVELS, class Z = std::uint64_t, bool COL_BASE = false>
__device__ inline void team_fiber_group(const TeamTree& t, Z g, std::uint32_t R4, std::uint32_t col, float4* out) {
    const int levels = LEVELS > 0 ? LEVELS : t.levels;
    const float4* __restrict__ leaf_factor = t.level_factor.f[levels];
    const float4* __restrict__ leaf_col = COL_BASE ? opaque(leaf_factor + col) : leaf_factor + col;
    Z first = g * static_cast<Z>(t.group);
    Z last = first + t.group < t.fibers ? first + static_cast<Z>(t.group) : static_cast<Z>(t.fibers);
    std::uint64_t z_begin = 0, z_end = ~std::uint64_t{0};
    if (CLIP && t.group_fiber) {
        z_begin = g * t.group;
        z_end = z_begin + t.group < t.nnz ? z_begin + t.group : t.nnz;
        first = t.group_fiber[g], last = t.fibers;
    }
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    std::uint64_t row = ~std::uint64_t{0};
    for (Z f = first; f < last; ++f) {
        Z lo = static_cast<Z>(t.fiber_ptr[f] - t.base), hi = static_cast<Z>(t.fiber_ptr[f + 1] - t.base);
        if constexpr (CLIP) {
            if (lo >= z_end) break;
            lo = lo > z_begin ? lo : static_cast<Z>(z_begin), hi = hi < z_end ? hi : static_cast<Z>(z_end);
        }
        float4 prefix;
        std::uint64_t target_row;
        fiber_head<LEVELS>(t, f, R4, col, prefix, target_row);
        team_fiber(t, levels, lo, hi, prefix, target_row, leaf_col, R4, col, out, acc, row);
    }
    if (t.target < levels && row != ~std::uint64_t{0}) atomic_add4(out + row * R4 + col, acc);
}

// The flat loop over nonzero group g (group_fiber set) for a target above the leaves: one loop
// whose every step takes up to kFlatBatch nonzeros of the current fiber, all their leaf indices,
// values and factor rows loaded before the first add, and moves to the next fiber where that one
// ends. The fiber loop above runs each fiber as an inner loop unrolled by four, so a fiber of
// three nonzeros (nell-2's fibers average 3.5-4.7) runs its remainder as three chains of
// dependent loads one after another, and the teams of a warp wait for the longest of their four
// fibers (21 of 32 lanes active on average, by Nsight Compute); here the steps are alike and a
// short fiber's loads are in flight together. The next fiber's end is loaded a fiber ahead.
// Two nonzeros a step, at most 64 registers (four blocks of 256 resident): on the nell-2 shape
// (H100, rank 32) CSF took 2.49-2.73 ms a mode, against 2.64-2.95 for the clipped fiber loop in
// the same binary, 2.62-2.78 with one nonzero a step and 2.71-2.99 with three. Four a step took
// 80 registers and ran 3.5-4.0 ms, or spilled under the 64-register bound and ran 5.2-5.6 ms.
constexpr int kFlatBatch = 2;

template <int LEVELS>
__device__ inline void team_flat_group(const TeamTree& t, std::uint64_t g, std::uint32_t R4, std::uint32_t col, float4* out) {
    const int levels = LEVELS > 0 ? LEVELS : t.levels;
    const float4* __restrict__ leaf_factor = t.level_factor.f[levels];
    // offsets within the group in 32 bits (cut_by_nonzeros keeps a group under 2^24 nonzeros):
    // 64-bit ones held the kernel at 80 registers
    const std::uint64_t z0 = g * t.group;
    const std::uint32_t len = static_cast<std::uint32_t>(t.group < t.nnz - z0 ? t.group : t.nnz - z0);
    const std::uint32_t* __restrict__ leaf = t.leaf + z0;
    const float* __restrict__ vals = t.vals + z0;
    auto end_of = [&](std::uint64_t f) -> std::uint32_t {  // fiber f's end in the group, at most len
        if (f >= t.fibers) return len;
        const std::uint64_t e = t.fiber_ptr[f + 1] - t.base - z0;
        return e < len ? static_cast<std::uint32_t>(e) : len;
    };
    std::uint64_t f = t.group_fiber[g];
    std::uint32_t fiber_end = end_of(f), next_end = end_of(f + 1);
    float4 prefix;
    std::uint64_t head_row;
    fiber_head<LEVELS>(t, f, R4, col, prefix, head_row);
    auto row = static_cast<std::uint32_t>(head_row);  // an index of the output mode
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 acc = zero, sum = zero;
    for (std::uint32_t z = 0; z < len;) {
        // a batch never crosses a fiber's end, so the fiber switch below has one copy
        const std::uint32_t left = fiber_end - z, n = left < kFlatBatch ? left : kFlatBatch;
        std::uint32_t c[kFlatBatch];
        float v[kFlatBatch];
        float4 x[kFlatBatch];
#pragma unroll
        for (int k = 0; k < kFlatBatch; ++k)
            if (k < n) c[k] = leaf[z + k], v[k] = vals[z + k];
#pragma unroll
        for (int k = 0; k < kFlatBatch; ++k)
            if (k < n) x[k] = leaf_factor[static_cast<std::uint64_t>(c[k]) * R4 + col];
#pragma unroll
        for (int k = 0; k < kFlatBatch; ++k)
            if (k < n) fma4(sum, v[k], x[k]);
        z += n;
        if (z != fiber_end || z == len) continue;
        add4(acc, sum * prefix);  // fiber f ends inside the group: the next one starts
        sum = zero;
        ++f;
        fiber_end = next_end;
        next_end = end_of(f + 1);
        fiber_head<LEVELS>(t, f, R4, col, prefix, head_row);
        if (static_cast<std::uint32_t>(head_row) != row) {
            atomic_add4(out + static_cast<std::uint64_t>(row) * R4 + col, acc);
            acc = zero;
            row = static_cast<std::uint32_t>(head_row);
        }
    }
    add4(acc, sum * prefix);
    atomic_add4(out + static_cast<std::uint64_t>(row) * R4 + col, acc);
}

// Wide teams, for trees of short fibers at rank 32: the fiber loop with teams of 4 lanes, each
// holding two float4s of every row (columns col and col + 4), where the default's teams are 8
// lanes of one float4. A warp then walks 8 fibers at once instead of 4, and each lane has two
// independent row loads in flight for every nonzero, at the cost of registers (64 bounded to
// four blocks of 256, no spill at order 3 and 20 bytes at order 4; 48 at five blocks, 148-176
// bytes spilled). Measured on one H200 in
// session 28 (docs/bench/h200-issue19-session28.json), alternating with the default team kernel
// in one binary: the uniform shape (76.9M nonzeros, 1.2-1.4 a fiber) ran B-CSF 2.48-2.60 ms a
// mode against 2.92-3.18, and the nell-2 shape (3.7-4.7 a fiber) 2.54-2.66 against 2.14-2.25
// (five blocks: 2.63-2.77). Where fibers are long, a warp's four teams already keep enough
// loads in flight, and the fewer resident warps cost more than the wider teams give. Small trees
// lose too: the shared real tensors' trees (cut to the device, 1.2-5 nonzeros a piece) ran 3-6
// us slower a mode wide (MovieLens B-CSF 21-23 us against 17-22, Last.fm 31-34 against 29-32),
// their half as many lanes leaving the device emptier.
// COL_BASE: each leaf's row addressed from the lane's column through opaque(), as the 8-lane
// loops do, so that both of its float4s come from one IMAD.WIDE (the second at an immediate
// offset) rather than from two addresses the compiler folds. Measured on one H200 (session 41,
// 4aebdd9, TENSORSCOPE_FIBER_WIDE_ADDR, h200-issue19-session41.json call 1, the uniform shape,
// rank 32, alternating twice): MM-CSF's trees (trees_wide_kernel) took 2.741-2.743, 2.531-2.536
// and 2.902-2.910 ms on modes 1-3 against 2.837-2.845, 2.627-2.638 and 2.911-2.916 folded, but
// B-CSF's single tree (fiber_wide_kernel) 2.484-2.488, 2.509 and 2.596-2.611 against 2.455-2.466,
// 2.479-2.485 and 2.555-2.563; each kernel keeps its faster form.
template <int LEVELS, bool COL_BASE = false>
__device__ inline void team_fiber_group_wide(const TeamTree& t, std::uint64_t g, std::uint32_t col, float4* out) {
    static_assert(LEVELS > 0, "the levels are compiled in");
    constexpr std::uint32_t R4 = 8, half = 4;
    const std::uint32_t col2 = col + half;
    const float4* __restrict__ leaf_factor = t.level_factor.f[LEVELS];
    const float4* __restrict__ leaf_col = COL_BASE ? opaque(leaf_factor + col) : leaf_factor + col;
    const std::uint64_t first = g * t.group, last = first + t.group < t.fibers ? first + t.group : t.fibers;
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 acc = zero, acc2 = zero;
    std::uint64_t row = ~std::uint64_t{0};
    for (std::uint64_t f = first; f < last; ++f) {
        const std::uint64_t lo = t.fiber_ptr[f] - t.base, hi = t.fiber_ptr[f + 1] - t.base;
        float4 prefix = make_float4(1.f, 1.f, 1.f, 1.f), prefix2 = prefix;
        std::uint64_t target_row = 0;
#pragma unroll
        for (int l = 0; l < LEVELS; ++l) {
            const std::uint64_t a = t.anc.p[l][f];
            if (l != t.target) {
                prefix = prefix * t.level_factor.f[l][a * R4 + col];
                prefix2 = prefix2 * t.level_factor.f[l][a * R4 + col2];
            } else {
                target_row = a;
            }
        }
        if (t.target == LEVELS) {  // nonzero algorithm: vector atomics per nonzero
            for (std::uint64_t z = lo; z < hi; ++z) {
                float4* o = out + static_cast<std::uint64_t>(t.leaf[z]) * R4;
                atomic_add4(o + col, t.vals[z] * prefix);
                atomic_add4(o + col2, t.vals[z] * prefix2);
            }
            continue;
        }
        if (target_row != row) {
            if (row != ~std::uint64_t{0}) atomic_add4(out + row * R4 + col, acc), atomic_add4(out + row * R4 + col2, acc2);
            acc = zero, acc2 = zero;
            row = target_row;
        }
        float4 sum = zero, sum2 = zero;
#pragma unroll 4
        for (std::uint64_t z = lo; z < hi; ++z) {
            const float v = t.vals[z];
            const float4* r = leaf_col + static_cast<std::uint64_t>(t.leaf[z]) * R4;
            fma4(sum, v, r[0]);
            fma4(sum2, v, r[half]);
        }
        add4(acc, sum * prefix);
        add4(acc2, sum2 * prefix2);
    }
    if (t.target < LEVELS && row != ~std::uint64_t{0}) atomic_add4(out + row * R4 + col, acc), atomic_add4(out + row * R4 + col2, acc2);
}

// The wide loop's kernel: teams of 4 lanes, rank 32 only, bounded to BLOCKS blocks of 256.
template <int LEVELS, int BLOCKS>
__global__ void __launch_bounds__(256, BLOCKS) fiber_wide_kernel(TeamTree tree, float4* out) {
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 4;
    const std::uint32_t col = threadIdx.x % 4;
    for (std::uint64_t g = thread / 4; g < tree.groups; g += teams)
        team_fiber_group_wide<LEVELS, false>(tree, g, col, out);
}

// The wide loop with 32-bit fiber, nonzero and group numbers (session 31, 68a9dfc: 48 registers
// and 8-16 bytes spilled bounded to five blocks where this loop spills 148-176, 64 and none at
// four) was measured and removed: on one H200 (session 32, docs/bench/h200-issue19-session32.json,
// alternating twice in one binary) the uniform shape ran B-CSF 2.56-2.65 ms a mode bounded to five
// and 2.55-2.69 at four against 2.45-2.56 with this kernel, and delicious-4d's shape 8.18-9.36
// against 8.16-9.02 (one round).

// How a team walks its group: whole fibers (fiber groups), fibers clipped to a nonzero group,
// or the flat loop (nonzero groups; the clipped one where the target is the leaves).
enum GroupLoop : int { kFiberLoop = 0, kClippedLoop = 1, kFlatLoop = 2 };

// The blocks of 256 a team kernel asks to keep resident (its register bound), as measured on
// the nell-2 shape (H100, rank 32). Unbounded, the fiber loop takes 47 registers (five blocks);
// bounded to six it takes 40 and spills 36 bytes, and ran B-CSF in 2.14-2.26 ms a mode against
// 2.26-2.39, while MM-CSF's several-tree kernel (53 registers, four blocks) ran 2.56-3.20 ms
// bounded to six and 2.50-2.68 bounded to five, against 2.35-2.47 unbounded. Nsight Compute
// found both fiber loops latency-bound (L1 hit 54%, 1.3 of 7.8 resident warps eligible).
// With a run-time level count (orders 5 and up) the bound spilled 160 bytes: left unbounded.
// Asking the driver for the largest L1 the kernels' shared memory leaves (cudaFuncAttribute-
// PreferredSharedMemoryCarveout 0; session 37's Nsight Compute found it giving a kernel of no
// shared memory a 32 KB shared split) changed nothing (session 40, 76bb76a, TENSORSCOPE_L1_
// CARVEOUT, h200-issue19-session40.json call 1, alternating twice): on the nell-2 shape B-CSF
// 1.782-1.912 ms a mode against 1.766-1.901, MM-CSF 1.850-1.957 both ways, SpTTM's fiber teams
// 1.716-1.930 against 1.717-1.942; the uniform shape's wide kernels within 1%; SpTV's HOCSR one
// pass (uniform, mode 3) 0.581 ms against 0.548-0.551. Removed.
constexpr int team_min_blocks(int loop, int levels, bool several_trees) {
    if (loop == kFlatLoop) return 4;
    if (loop == kFiberLoop && levels > 0 && !several_trees) return 6;
    return 1;
}

template <int LOOP, int LEVELS, bool COL_BASE = false>
__device__ inline void team_group(const TeamTree& t, std::uint64_t g, std::uint32_t R4, std::uint32_t col,
                                  float4* out) {
    if constexpr (LOOP == kFlatLoop) {
        if (t.target < (LEVELS > 0 ? LEVELS : t.levels)) team_flat_group<LEVELS>(t, g, R4, col, out);
        else team_fiber_group<true, LEVELS>(t, g, R4, col, out);
    } else {
        team_fiber_group<LOOP == kClippedLoop, LEVELS, std::uint64_t, COL_BASE>(t, g, R4, col, out);
    }
}

// Output copies for these kernels (each team adding into copy team % C, summed after, as COO's
// and BLCO's do) were tried in session 28 (TENSORSCOPE_TREE_COPIES, 30b1570) and removed: on one
// H200 at rank 32 the nell-2 shape ran B-CSF 2.31-2.45 ms a mode with 4 or 16 copies against
// 2.13-2.25 with none, MM-CSF 2.52-2.63 against 2.31-2.37, and the shared real tensors 1.2-5x
// slower (docs/bench/h200-issue19-session28.json): the fiber loops do not wait on same-address
// atomics.
template <int TEAM, int LOOP, int LEVELS>
__global__ void __launch_bounds__(256, team_min_blocks(LOOP, LEVELS, false)) fiber_team_kernel(TeamTree tree, std::uint32_t R4, float4* out) {
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / TEAM;
    const std::uint32_t col = threadIdx.x % TEAM;  // this lane's float4 of every row
    if (col >= R4) return;                         // no shuffles below, so idle lanes may leave
    for (std::uint64_t g = thread / TEAM; g < tree.groups; g += teams) team_group<LOOP, LEVELS>(tree, g, R4, col, out);
}

// The rank-32 fiber loop over whole fibers (orders 3 and 4: B-CSF's and MM-CSF's single trees,
// CSF's where no fiber is cut) with its fiber, nonzero and group numbers in 32 bits, for trees of
// under 2^31 nonzeros and fibers (index32_fits), bounded to six blocks. The 64-bit numbers take
// two registers each: compiled for sm_90 this loop takes 40 registers and spills nothing, where
// fiber_team_kernel's spills 36 bytes at 40 (session 25's Nsight Compute run counted 21M spill
// requests in one nell-2 mode). Measured on one H200 (session 32, docs/bench/h200-issue19-
// session32.json calls 1 and 5, alternating twice in each): B-CSF on the nell-2 shape
// 1.763-1.893 and 1.757-1.896 ms a mode against 1.770-1.905 and 1.791-1.908 with the 64-bit loop
// (every mode faster in all four rounds, by 0.2-1.9%), a CPD iteration's MTTKRPs 5.46-5.50 ms
// against 5.50-5.62; the real tensors' CSF and B-CSF within their noise (11-35 us a mode either
// way). Bounded to eight blocks (32 registers, 84-128 bytes spilled) it ran nell-2 in 2.96-3.50
// ms. TENSORSCOPE_FIBER_INDEX=64 keeps the 64-bit loop, which trees of 2^31 nonzeros or fibers
// and up take, for comparisons and tests.
template <int LEVELS>
__global__ void __launch_bounds__(256, 6) fiber_index32_kernel(TeamTree tree, float4* out) {
    const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x, teams = gridDim.x * blockDim.x / 8;
    const auto groups = static_cast<std::uint32_t>(tree.groups);
    for (std::uint32_t g = thread / 8; g < groups; g += teams)
        team_fiber_group<false, LEVELS, std::uint32_t, true>(tree, g, 8, threadIdx.x % 8, out);
}

// The rank-32 loop over whole fibers with its leaves' factor rows copied ahead by cp.async was
// measured and removed (session 39, 316a8ec, TENSORSCOPE_FIBER_ASYNC, h200-issue19-session39.json
// call 3, one H200, alternating twice): each lane streamed its team group's nonzeros and kept S - 1
// rows in flight in S shared-memory slots of its own, whatever the fibers' boundaries (40
// registers, no spill, S x 4 KB a block). On the nell-2 shape B-CSF ran 2.57-2.74 ms a mode with
// 4 slots through L1 (cp.async.ca), 2.84-3.03 with 8 and 2.75-2.94 with 8 bypassing L1 (.cg),
// against 1.76-1.90 with this loop; CSF alike (2.56-3.01 against 1.76-1.90); the shared real
// tensors (one round, 10-33 us a mode) mixed, every way within 1e-5 of cpu-ref. Not profiled; a
// likely cause: a commit and a wait for every nonzero, and each row's trip through shared
// memory, cost more than the deeper queue of loads gave.

// MM-CSF's partitions in one launch: the fiber groups of every tree are numbered one after
// another and the teams stride over all of them, so a small partition does not leave the GPU
// idle while the next launch waits behind it, and the partitions' work is balanced across the
// whole grid (mm-csf Sec. 5: every partition runs its own algorithm, slice, fiber or nonzero,
// by where the mode sits in its tree).
// One launch per partition of the single-tree kernel (bounded to six blocks, as B-CSF's) instead
// measured 2.71-2.84 ms a mode on the nell-2 shape (three partitions of 22M, 19M and 36M
// nonzeros) against 2.31-2.39 (H200, session 23, h200-issue19-session23.json). Those launches
// on a stream each, forked from and joined to the caller's so that they overlap, measured
// 2.38-2.59 against 2.29-2.36 for this launch (session 30, 82b9124, TENSORSCOPE_MMCSF_STREAMS,
// h200-issue19-session30.json call 1, alternating twice).
// Why this launch stays behind B-CSF's on the nell-2 shape (session 43, b8b7e41, Nsight Compute,
// mode 1, rank 32, h200-issue19-session43.json call 1): L2 moved 436M sectors for it against 309M
// for B-CSF's mode-1 tree, of which 178M were reductions (44.6M row-sized atomics against 3.5M:
// the nonzero algorithm adds one per nonzero where the mode is a partition's leaves, the fiber
// algorithm one per fiber where it sits between) against 14M, and 257M reads against 295M; 1.63
// ms against 1.37.
// Keeping the output mode's most-added rows in each block's shared memory, where it is the
// leaves of some partitions, was measured and removed (session 52, f2a8112, TENSORSCOPE_MMCSF_HOT,
// h200-issue19-session52.json call 1, one H200, alternating twice): a resident grid (48 registers,
// five blocks of 256 an SM, 356 rows of 128 bytes each), the rows ranked once per mode by a
// histogram and a CUB sort of the leaves, each nonzero's row looked up in a 16-bit table and added
// by shared fp32 atomics (a compare-and-swap loop on sm_90, ATOMS.CAST.SPIN) where hot, at L2
// otherwise, the rows flushed once a block. It ran where the rows a block holds took a quarter of
// the leaves' nonzeros, which on the nell-2 shape they never do: MM-CSF's partitioning (mm-csf
// Alg. 5) sends to a mode's leaves the nonzeros of long fibers along it, whose rows are spread
// (the top 356 rows take 10.7%, 11.6% and 8.6% of modes 1-3's leaf nonzeros, the top 1,776, all a
// block's shared memory holds, 38%, 42% and 30%; counted on the host), so the nell-2 shape ran as
// before (MM-CSF 1.585-1.590, 1.510-1.515 and 1.773-1.776 ms a mode against 1.610-1.611,
// 1.510 and 1.769-1.772; Nsight Compute's mode 1 launch was the trees kernel either way, 178M
// L2 reduction sectors). Forced on, the uniform shape's mode 3 took 3.89 ms against 2.81, a
// lookup chained before each nonzero's add; on the real tensors it ran by default and lost,
// MovieLens 14-25 us a mode against 7-15, Last.fm 34-43 against 21-24, JF17K 20-32 against
// 25-27 (every row within 1e-6 of cpu-ref), the flushes of 660 blocks outweighing their adds.
// What each part of this launch costs (session 57, 4962e1e, TENSORSCOPE_MMCSF_TREES, h200-issue19-
// session57.json call 1, one H200, alternating twice, medians of 10; removed): on the nell-2 shape
// mode 1 took 1.615-1.626 ms with every partition, 0.949-0.960 with only the one whose leaves are
// the output mode (22.4M nonzeros, a row-sized atomic each), 0.353-0.354 with only the one rooted
// there (18.8M, the slice algorithm) and 0.717-0.725 with only the one between (35.7M, an atomic a
// fiber); mode 2's leaves (18.8M) 0.730-0.736 of 1.506-1.514, mode 3's (35.7M) 1.389-1.390 of
// 1.777-1.780; B-CSF 1.371-1.493 a mode. A nonzero at the output's leaves costs about 2.3x one
// whose leaf row is gathered. Adding those nonzeros into a copy of the output's rows in each
// block's shared memory instead (session 57, 329d0e6, TENSORSCOPE_MMCSF_PRIVATE, call 2; removed):
// blocks of 1,024 threads, one an SM, each owning four columns of every row (193 KB for mode 1's
// 12,092 rows; mode 3's 28,818 in two ranges), walking a 16th of the partition a warp-wide window
// of 32 nonzeros at a time (each nonzero's fiber from the window's fiber ends by one OR across the
// warp), the copy added to the output once a block. Every result stayed within 9.1e-6 of cpu-ref
// (test_mttkrp_cuda's rows with the switch 28/28), but shared fp32 atomics are a compare-and-swap
// loop on sm_90 and ran about one add a clock an SM: the leaves alone took 3.06, 2.54 and 7.93 ms,
// and MM-CSF 4.08-4.09, 3.66-3.67 and 8.63-8.73 ms a mode (uniform shape 3.61, 2.96-2.98, 16.2-16.3
// against 2.64-2.65, 2.30-2.31, 2.82).
// Nor do Hopper's bulk reductions (session 57, dc46f85, TENSORSCOPE_MMCSF_LEAVES, call 3; removed):
// the leaf partitions in a launch of their own, a warp taking 32 consecutive nonzeros at a time and
// then four, a team of 8 lanes a row, each row staged in shared memory (a ring of four steps a
// warp) and added by one lane's cp.reduce.async.bulk .add.f32 of 128 bytes, took the nell-2
// shape's leaves alone 1.355-1.365, 1.145-1.163 and 2.092-2.097 ms a mode, against 1.085-1.095,
// 0.848 and 1.510-1.518 for the lanes' vector atomics in the same walk and 0.947, 0.732 and
// 1.378-1.394 in this launch: L2's reductions cost by the sector, not by the request. Either way
// the leaves' own launch lost the overlap with the other partitions (MM-CSF whole 2.10-2.11,
// 1.95 and 2.21-2.22 ms with the atomics against 1.62, 1.51-1.52 and 1.77-1.78).
constexpr int kMaxTrees = 8;
struct TeamTrees {
    int count = 0;
    std::uint64_t first_group[kMaxTrees + 1] = {};
    TeamTree tree[kMaxTrees];
};

// Its 56 registers (four blocks, against the single-tree kernel's 47 unbounded) are not the cost
// of indexing the parameter by a run-time tree: a switch naming each tree by a constant index
// (session 31, compiled for sm_90 only, never run) took 56 unbounded too, 48 bounded to five
// blocks and 40 with 152-200 bytes spilled bounded to six.
// RANK32: R4 is 8, compiled in, and the leaves' rows addressed from each lane's column
// (team_fiber_group's COL_BASE).
template <int TEAM, int LOOP, int LEVELS, bool RANK32 = false>
__global__ void __launch_bounds__(256, team_min_blocks(LOOP, LEVELS, true))
    trees_team_kernel(TeamTrees trees, std::uint32_t R4, float4* out) {
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / TEAM;
    const std::uint32_t col = threadIdx.x % TEAM;
    if constexpr (RANK32) R4 = 8;
    if (col >= R4) return;
    int t = 0;
    for (std::uint64_t g = thread / TEAM; g < trees.first_group[trees.count]; g += teams) {
        while (g >= trees.first_group[t + 1]) ++t;  // g only grows: the tree index never goes back
        team_group<LOOP, LEVELS, RANK32>(trees.tree[t], g - trees.first_group[t], R4, col, out);
    }
}

// MM-CSF's trees in one launch with their groups interleaved was measured and removed (session
// 56, e216832, TENSORSCOPE_MMCSF_MIX, h200-issue19-session56.json call 4, one H200, rank 32,
// alternating twice, medians of 10). This launch numbers the groups tree after tree, so the grid
// walks the partitions in turn, the one whose leaves are the output mode (a vector atomic a
// nonzero) apart from the gathering ones; the experiment's kernel took rounds of about 2,048
// groups, each tree's stripe in proportion to its groups (56-62 registers, no spill), so that
// the atomics ran beside the gathers. Nell-2 shape, modes 1-3: 1.589-1.590, 1.537-1.549 and
// 1.799-1.808 ms against 1.615-1.618, 1.504-1.517 and 1.782-1.797 (B-CSF 1.362-1.385 ms a mode in
// the same runs); the uniform shape's mode 3 2.818 against 2.824-2.825 (its modes 1-2 run wide);
// within 8.8e-6 of cpu-ref. Mode 1 gained 2%, mode 2 lost 2%: the partitions' phases are not what
// keeps MM-CSF behind B-CSF.

// The kernel above at rank 32 over whole fibers with its group and fiber numbers in 32 bits
// (fiber_index32_kernel's loop; 56, 48 and 40 registers bounded to four, five and six blocks,
// spilling 8-60 bytes at six) was measured and removed (session 32, 82691dc, TENSORSCOPE_TREES_
// INDEX32, one H200, docs/bench/h200-issue19-session32.json call 5, alternating twice): the
// nell-2 shape ran MM-CSF 1.881-1.956 ms a mode at four, 1.870-1.952 at five and 1.959-2.228 at
// six against 1.849-1.956; the uniform shape's mode 3 (its modes 1 and 2 run wide) 2.839-2.842 at
// five against 2.967-2.972; the real tensors within their noise (11-35 us a mode).

// MM-CSF's trees in one launch with each block walking one tree (a share of the grid in
// proportion to the tree's nonzeros and fibers) by the single-tree loop with 32-bit numbers, bounded
// to five or six blocks (48 registers, or 40 and 48-84 bytes spilled, where the kernel above keeps
// four blocks at 56), was measured and removed (session 31, 3e1602a; session 32, one H200,
// docs/bench/h200-issue19-session32.json, alternating twice in one binary): the nell-2 shape ran
// MM-CSF 2.35-2.49 ms a mode bounded to five and 2.11-2.38 at six against 1.84-1.95 with this
// kernel; delicious-4d's shape 9.36-16.5 against 9.97-16.4 (faster in its modes 1 and 4 by 6%,
// one round); the real tensors slower but JF17K (18-22 us against 24-25). Not profiled; one
// suspect is the fixed shares, which leave a light tree's blocks idle while a heavy tree runs on.

// walk(tree, group, col) for every fiber group of every tree of one launch, by teams of TEAM
// lanes striding over the groups of all the trees numbered one after another, as
// trees_team_kernel does (which keeps its own loop: its registers were measured with it).
template <int TEAM, class Walk>
__device__ inline void for_tree_groups(const TeamTrees& trees, Walk&& walk) {
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / TEAM;
    const std::uint32_t col = threadIdx.x % TEAM;
    int t = 0;
    for (std::uint64_t g = thread / TEAM; g < trees.first_group[trees.count]; g += teams) {
        while (g >= trees.first_group[t + 1]) ++t;
        walk(trees.tree[t], g - trees.first_group[t], col);
    }
}

// The wide loop (team_fiber_group_wide) over several trees in one launch: MM-CSF's partitions
// where they all hold short fibers (wide_blocks).
template <int LEVELS, int BLOCKS>
__global__ void __launch_bounds__(256, BLOCKS) trees_wide_kernel(TeamTrees trees, float4* out) {
    for_tree_groups<4>(trees, [&](const TeamTree& t, std::uint64_t g, std::uint32_t col) {
        team_fiber_group_wide<LEVELS, true>(t, g, col, out);
    });
}

// COO with a team of TEAM lanes per group of `group` consecutive nonzeros, each lane owning one
// float4 of every row (as the fiber teams above). The team sums in registers while the output
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
__device__ inline void flush_row(double* out, std::uint64_t row, std::uint64_t R, std::uint32_t col, float4 acc, float4* stage,
                                 unsigned mask) {
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
struct CooOut {
    double* f64 = nullptr;
    float4* f32 = nullptr;
    unsigned copies = 1;
    std::uint64_t stride4 = 0;  // float4s from one copy to the next
};

template <int TEAM>
__device__ inline void coo_flush(const CooOut& o, std::uint64_t unit, std::uint64_t row, std::uint32_t R4, std::uint32_t col, float4 acc,
                                 float4* stage, unsigned mask) {
    if (o.f64) {
        flush_row<TEAM>(o.f64, row, 4ull * R4, col, acc, stage, mask);
        return;
    }
    if (col < R4) atomic_add4(o.f32 + (unit % o.copies) * o.stride4 + row * R4 + col, acc);
}

template <int TEAM>
__global__ void __launch_bounds__(256) coo_team_kernel(std::uint64_t nnz, std::uint64_t group, int order, int mode, std::uint32_t R4,
                                                       IndexPtrs idx, const float* __restrict__ vals, Factor4Ptrs factors,
                                                       CooOut out) {
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
#pragma unroll 4
        for (std::uint64_t z = first; z < last; ++z) {
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (active) {
                v = make_float4(vals[z], vals[z], vals[z], vals[z]);
                for (int m = 0; m < order; ++m)
                    if (m != mode) v = v * factors.f[m][static_cast<std::uint64_t>(idx.p[m][z]) * R4 + col];
            }
            const std::uint64_t r = out_idx[z];
            if (r != row) {
                coo_flush<TEAM>(out, g, row, R4, col, acc, stage, mask);
                acc = make_float4(0.f, 0.f, 0.f, 0.f);
                row = r;
            }
            add4(acc, v);
        }
        coo_flush<TEAM>(out, g, row, R4, col, acc, stage, mask);
    }
}

// Nonzeros per COO team: on the nell-2 shape (rank 32, H100) groups of 8 / 16 / 64 / 128 took
// 14.5 / 8.2 / 4.5 / 3.6 ms for the first mode and 19.4 / 12.8 / 8.1 / 7.3 ms for the second
// (runs of one row get longer in one team's registers); a slice still spreads over many teams.
constexpr std::uint64_t kCooGroup = 128;

// Per COO mode, the longest fp32 chain of adds the team kernel makes into one row: a row's runs
// (a flush each) plus its nonzeros / kCooGroup (a long run flushes once per group). counts[i] +=
// kCooGroup per run start and 1 per nonzero of row i (counts zeroed), so counts[i] / kCooGroup is
// row i's chain; a warp's nonzeros of one row are added by one lane (a heavy row's millions of
// nonzeros would otherwise queue on one address).

__global__ void coo_chain_kernel(const std::uint32_t* idx, std::uint64_t nnz, unsigned long long* counts) {
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t z = thread; z - lane < nnz; z += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {  // warp-uniform
        const bool in = z < nnz;
        const unsigned row = in ? idx[z] : 0xffffffffu;
        const bool start = in && (z == 0 || idx[z - 1] != row);
        const unsigned peers = __match_any_sync(0xffffffffu, row);
        const unsigned starts = __ballot_sync(0xffffffffu, start) & peers;
        if (in && __ffs(peers) - 1 == static_cast<int>(lane))
            atomicAdd(&counts[row], kCooGroup * __popc(starts) + __popc(peers));
    }
}

template <class T>
__global__ void max_kernel(const T* a, std::uint64_t n, T* out) {
    T m = 0;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        m = max(m, a[i]);
    atomicMax(out, m);
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

template <int TEAM>
__global__ void __launch_bounds__(kCooTileThreads) coo_tile_kernel(std::uint64_t nnz, int order, int mode, std::uint32_t R4, int key_bits,
                                                                   IndexPtrs idx, const float* __restrict__ vals, Factor4Ptrs factors,
                                                                   CooOut out) {
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
        bool any = false;
#pragma unroll 4
        for (int j = first; j < first + kShare; ++j) {
            const std::uint64_t z = base + s.tile.pos[j];
            if (z >= nnz) break;  // the padding: last in the tile
            const std::uint32_t r = s.tile.row[j];
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (active) {
                v = make_float4(vals[z], vals[z], vals[z], vals[z]);
                for (int m = 0; m < order; ++m)
                    if (m != mode) v = v * factors.f[m][static_cast<std::uint64_t>(idx.p[m][z]) * R4 + col];
            }
            if (r != row) {
                coo_flush<TEAM>(out, unit, row, R4, col, acc, stage, mask);
                acc = make_float4(0.f, 0.f, 0.f, 0.f);
                row = r;
            }
            add4(acc, v);
            any = true;
        }
        if (any) coo_flush<TEAM>(out, unit, row, R4, col, acc, stage, mask);
    }
}

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
// binary search, an atomic per column.
__global__ void blco_kernel(BlcoView v, int order, int mode, std::uint64_t R, FactorPtrs factors, float* out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t z = warp; z < v.nnz; z += warps) {
        std::uint64_t lo = 0, hi = v.blocks;
        while (hi - lo > 1) {
            const std::uint64_t mid = (lo + hi) / 2;
            if (v.block_ptr[mid] <= z + v.base) lo = mid;
            else hi = mid;
        }
        const std::uint64_t key = v.keys[z];
        const float x = v.vals[z];
        for (std::uint64_t r = lane; r < R; r += 32) {
            float p = x;
            for (int m = 0; m < order; ++m)
                if (m != mode) p *= factors.f[m][blco_index(v, m, key, lo) * R + r];
            atomicAdd(&out[blco_index(v, mode, key, lo) * R + r], p);
        }
    }
}

// ORDER: the tensor's order where it is compiled in (3-5: the loop over modes unrolls), else 0.
// ONE_BLOCK: the index fits 64 bits, so every nonzero is in block 0 (BLCO Sec. 4.1): its high
// bits are read once per thread, and no nonzero looks up its block. On the nell-2 shape (H100,
// rank 32) that took a mode from 4.59-4.62 ms to 2.82-3.00 ms, same errors (h100-blco-one-block.json).
template <int TEAM, int ORDER, bool ONE_BLOCK>
__global__ void __launch_bounds__(256) blco_team_kernel(BlcoView v, std::uint64_t group, int order_rt, int mode, std::uint32_t R4,
                                                        Factor4Ptrs factors, float4* out_copies, unsigned copies,
                                                        std::uint64_t copy_stride4) {
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
        std::uint64_t lo = 0, hi = ONE_BLOCK ? 1 : v.blocks;  // the block holding `first`: block_ptr[b] <= first < block_ptr[b + 1]
        while (hi - lo > 1) {
            const std::uint64_t mid = (lo + hi) / 2;
            if (v.block_ptr[mid] <= first + v.base) lo = mid;
            else hi = mid;
        }
        std::uint64_t b = lo;
        float4* out = out_copies + (g % copies) * copy_stride4;
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        std::uint64_t row = out_index(v.keys[first], b);
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
                atomic_add4(out + row * R4 + col, acc);
                acc = make_float4(0.f, 0.f, 0.f, 0.f);
                row = r;
            }
            add4(acc, p);
        }
        atomic_add4(out + row * R4 + col, acc);
    }
}

// Picks the team kernel's TEAM, the smallest power of two >= R4, and calls go(team_tag).
template <class Go>
void with_team_size(std::uint32_t R4, Go&& go) {
    if (R4 <= 1) go(std::integral_constant<int, 1>{});
    else if (R4 <= 2) go(std::integral_constant<int, 2>{});
    else if (R4 <= 4) go(std::integral_constant<int, 4>{});
    else if (R4 <= 8) go(std::integral_constant<int, 8>{});
    else if (R4 <= 16) go(std::integral_constant<int, 16>{});
    else go(std::integral_constant<int, 32>{});
}

// The team kernel wherever the rows are whole float4s; the warp kernel otherwise. Groups of 8
// fibers per team: on the nell-2 shape (rank 32, H100) groups of 4 and 8 ran within 3% of each
// other, 16 about 7% slower, 32 and 64 20-30% slower (docs/bench/logs/h100-mttkrp-team-groups.json).
// With fibers cut at 32 and then 16 (one H200, session 31, h200-issue19-session31.json calls 2
// and 4), groups of 4 ran B-CSF 1.83-1.99 ms a mode against 1.88-1.99 at 32, then 1.79-1.97
// against 1.79-1.92 at 16, and MM-CSF 1.86-1.94 against 1.88-1.99, then 1.88-1.98 against
// 1.87-1.97; groups of 16 (at 32) 1.95-2.18: 8 stays.
bool use_team(std::uint64_t R) { return R % 4 == 0 && R <= kMaxRank; }
constexpr std::uint64_t kTeamGroup = 8;

// A tree's device arrays and the MTTKRP mode's level in it (levels when the mode is the leaves),
// cut into groups of kTeamGroup fibers (or the tree's own group_fibers).
TeamTree team_tree(const Fibers& meta, const std::uint32_t* const* anc, const std::uint64_t* fiber_ptr, std::uint64_t base,
                   const std::uint32_t* leaf, const float* vals, int mode, const float* const* factors) {
    TeamTree t;
    t.fibers = meta.fibers, t.nnz = meta.nnz, t.base = base, t.levels = meta.levels, t.target = meta.levels;
    for (int l = 0; l <= meta.levels; ++l) {
        const int m = meta.level_mode[static_cast<std::size_t>(l)];
        t.level_factor.f[l] = reinterpret_cast<const float4*>(factors[m]);
        if (m == mode) t.target = l;
    }
    for (int l = 0; l < meta.levels; ++l) t.anc.p[l] = anc[l];
    t.fiber_ptr = fiber_ptr, t.leaf = leaf, t.vals = vals;
    t.group = meta.group_fibers ? meta.group_fibers : kTeamGroup, t.groups = (t.fibers + t.group - 1) / t.group;
    return t;
}

// Cuts a resident tree of nnz nonzeros into nonzero groups of kNonzeroGroupFibers mean fibers'
// worth, their first fibers found into stream-ordered pool memory (returned; the caller frees
// it after the kernel). On the nell-2 shape (H100, rank 32) groups of 8 mean fibers ran CSF
// and MM-CSF 0-10% faster than groups of 32 but flushed into the heavy rows often enough for
// fp32 errors of 1.1-1.3e-5 against cpu-ref; groups of 32 stayed at or below 8e-6.
// A tree too small to give every resident team one such group (the device's SMs x 2048 threads
// over teams of 8 lanes, rank 32) gets smaller ones, down to one mean fiber, until it does: a
// team walks its group serially, so with a few thousand groups on a device of 33,792 teams the
// time was the length of one team's walk. On one H200 (session 25, gpu-advisor-h200-de48527.json)
// CSF took 110-320 us a mode on the evaluation's tensors of 0.1-0.6M nonzeros, 1.2-5x B-CSF,
// whose groups of 8 fibers gave four times as many. Sized to fill the device, in the same binary
// alternating with the fixed size (h200-issue19-session25.json, call 5): CSF on MovieLens 76-93 us
// a mode against 100-319, Last.fm 78-92 against 114-184, JF17K 75-93 against 123-155 (max
// relative error 1e-6 or less), and on the nell-2 shape, whose groups are as before, 2.45-2.66 ms
// both ways. TENSORSCOPE_CSF_GROUPS=fixed keeps 32 mean
// fibers a group whatever the tree's size, for comparisons.
constexpr std::uint64_t kNonzeroGroupFibers = 32;

std::uint64_t nonzero_group(std::uint64_t nnz, std::uint64_t fibers) {
    const bool fixed = env_is("TENSORSCOPE_CSF_GROUPS", "fixed");
    const std::uint64_t mean = (nnz + fibers - 1) / fibers, group = kNonzeroGroupFibers * mean;
    if (fixed) return group;
    const std::uint64_t teams = static_cast<std::uint64_t>(sm_count()) * 2048 / 8;
    if ((nnz + group - 1) / group >= teams) return group;
    return std::max(mean, (nnz + teams - 1) / teams);
}

std::uint64_t* cut_by_nonzeros(TeamTree& t, std::uint64_t nnz, cudaStream_t stream) {
    if (t.fibers == 0 || nnz == 0) return nullptr;
    t.nnz = nnz;
    // at most 2^24 nonzeros, so that the flat loop's 32-bit offsets within a group hold (reached
    // only where fibers average over 512K nonzeros)
    t.group = std::min<std::uint64_t>(nonzero_group(nnz, t.fibers), std::uint64_t{1} << 24);
    t.groups = (nnz + t.group - 1) / t.group;
    void* p = nullptr;
    check(cudaMallocAsync(&p, t.groups * sizeof(std::uint64_t), stream), "allocating the MTTKRP work groups");
    auto* group_fiber = static_cast<std::uint64_t*>(p);
    // group_fiber[g] = the fiber holding nonzero g * group
    launch_piece_ranges(t.groups, t.group, t.fibers, t.fiber_ptr, t.base, group_fiber, stream);
    t.group_fiber = group_fiber;
    return group_fiber;
}

// The tree levels compiled into the fiber kernels (orders 3 and 4), 0 for any other count.
// TENSORSCOPE_FIBER_GENERIC=1 takes the run-time count everywhere, for comparisons.
template <class Go>
void with_levels(int levels, Go&& go) {
    const bool generic = env_is("TENSORSCOPE_FIBER_GENERIC", "1");
    if (!generic && levels == 2) go(std::integral_constant<int, 2>{});
    else if (!generic && levels == 3) go(std::integral_constant<int, 3>{});
    else go(std::integral_constant<int, 0>{});
}

// Whether trees cut into nonzero groups (CSF's; B-CSF's and MM-CSF's split fibers keep fiber
// groups) run the flat loop (team_flat_group) rather than the clipped fiber loop.
// TENSORSCOPE_FIBER_LOOP=fibers keeps the clipped loop, for comparisons.
bool flat_loop() {
    return !env_is("TENSORSCOPE_FIBER_LOOP", "fibers");
}

// Whether a tree's nonzeros and fibers number under 2^31, so that fiber_index32_kernel's numbers
// fit 32 bits with room for its stride (a grid's teams, under 2^20) past the last group.
bool index32_fits(const TeamTree& t) { return t.nnz < (std::uint64_t{1} << 31) && t.fibers < (std::uint64_t{1} << 31); }

// Which launches run wide (wide_teams.hpp): trees of short fibers, by the measurements above.
LaunchShape shape_of(const TeamTree& t) { return {t.levels, false, t.group_fiber != nullptr, t.nnz, t.fibers, t.groups}; }
LaunchShape shape_of(const TeamTrees& trees) {
    LaunchShape s{trees.tree[0].levels, true, false, 0, 0, trees.first_group[trees.count]};
    for (int t = 0; t < trees.count; ++t) {
        const TeamTree& x = trees.tree[t];
        s.clipped = s.clipped || x.group_fiber, s.nnz += x.nnz, s.fibers += x.fibers;
        if (x.target == x.levels) s.leaf_nnz += x.nnz;
    }
    return s;
}

template <int LEVELS>
void launch_wide_kernel(const TeamTree& tree, int blocks, float4* out, cudaStream_t stream) {
    const int grid = grid_for(tree.groups * 4);
    if (blocks == 4)
        fiber_wide_kernel<LEVELS, 4><<<grid, 256, 0, stream>>>(tree, out);
    else if (blocks == 5)
        fiber_wide_kernel<LEVELS, 5><<<grid, 256, 0, stream>>>(tree, out);
    else
        fiber_wide_kernel<LEVELS, 6><<<grid, 256, 0, stream>>>(tree, out);
}
template <int LEVELS>
void launch_wide_kernel(const TeamTrees& trees, int blocks, float4* out, cudaStream_t stream) {
    const int grid = grid_for(trees.first_group[trees.count] * 4);
    if (blocks == 4)
        trees_wide_kernel<LEVELS, 4><<<grid, 256, 0, stream>>>(trees, out);
    else if (blocks == 5)
        trees_wide_kernel<LEVELS, 5><<<grid, 256, 0, stream>>>(trees, out);
    else
        trees_wide_kernel<LEVELS, 6><<<grid, 256, 0, stream>>>(trees, out);
}
// The wide kernel for a launch where wide_blocks asks for it; false where it does not.
template <class Trees>
bool launched_wide(const Trees& trees, const LaunchShape& s, std::uint32_t R4, float* out, cudaStream_t stream) {
    const int wide = wide_blocks(s, R4, static_cast<std::uint64_t>(sm_count()) * 2048, std::getenv("TENSORSCOPE_FIBER_WIDE"));
    if (!wide) return false;
    auto* out4 = reinterpret_cast<float4*>(out);
    if (s.levels == 2)
        launch_wide_kernel<2>(trees, wide, out4, stream);
    else
        launch_wide_kernel<3>(trees, wide, out4, stream);
    return true;
}

// Three schedules of the fiber groups were measured against this grid-stride one and removed
// (session 31, one H200, nell-2 shape, rank 32, fibers cut at 32, ms a mode, the default in
// brackets; docs/bench/h200-issue19-session31.json): groups handed out at run time from a device
// counter to a resident grid, 4 / 16 a take, B-CSF 1.94-2.11 / 2.41-2.61 [1.87-2.00], MM-CSF
// 2.32-2.54 / 2.62-2.81 [1.86-1.98], and 4-7x slower on the real tensors; groups of whole fibers
// cut by work (a fiber's nonzeros plus 4), 64 / 128 units, B-CSF 2.01-2.20 / 2.06-2.20, MM-CSF
// 2.17-2.25 / 2.21-2.24; grids of a block per 32 groups, B-CSF 1.89-2.02, MM-CSF 2.16-2.30. A
// host model of the schedule (docs/bench/model-team-schedule-nell2.json) had ranked the first
// two ahead: the fixed shares were not what held the kernel back.

// Whether fiber_index32_kernel runs a tree: rank 32, whole fibers, orders 3 and 4, under 2^31
// nonzeros and fibers, and TENSORSCOPE_FIBER_INDEX=64 unset.
bool index32_applies(const TeamTree& t, const LaunchShape& s, std::uint32_t R4) {
    return !env_is("TENSORSCOPE_FIBER_INDEX", "64") && rank32_whole_fibers(s, R4) && index32_fits(t);
}

// Launches the team kernel whose TEAM is the smallest power of two >= R / 4 (or the wide kernel,
// wide_blocks) on one tree, or on several in one launch.
void launch_team_kernel(const TeamTree& tree, std::uint64_t R, float* out, cudaStream_t stream) {
    const auto R4 = static_cast<std::uint32_t>(R / 4);
    if (tree.groups == 0) return;
    const LaunchShape shape = shape_of(tree);
    if (launched_wide(tree, shape, R4, out, stream)) return;
    if (index32_applies(tree, shape, R4)) {
        auto* kernel = tree.levels == 3 ? fiber_index32_kernel<3> : fiber_index32_kernel<2>;
        kernel<<<grid_for(tree.groups * 8), 256, 0, stream>>>(tree, reinterpret_cast<float4*>(out));
        return;
    }
    with_team_size(R4, [&](auto team_tag) {
        with_levels(tree.levels, [&](auto levels_tag) {
            constexpr int team = decltype(team_tag)::value, levels = decltype(levels_tag)::value;
            auto* out4 = reinterpret_cast<float4*>(out);
            const int grid = grid_for(tree.groups * team);
            if (!tree.group_fiber) fiber_team_kernel<team, kFiberLoop, levels><<<grid, 256, 0, stream>>>(tree, R4, out4);
            else if (flat_loop()) fiber_team_kernel<team, kFlatLoop, levels><<<grid, 256, 0, stream>>>(tree, R4, out4);
            else fiber_team_kernel<team, kClippedLoop, levels><<<grid, 256, 0, stream>>>(tree, R4, out4);
        });
    });
}

// MM-CSF's trees in one launch. The trees travel as a kernel parameter: a table of them in
// device memory, read through the cache, ran 5-15% slower on the nell-2 shape.
void launch_team_kernel(const TeamTrees& trees, std::uint64_t R, float* out, cudaStream_t stream) {
    const auto R4 = static_cast<std::uint32_t>(R / 4);
    const std::uint64_t groups = trees.first_group[trees.count];
    if (groups == 0) return;
    const LaunchShape shape = shape_of(trees);
    if (launched_wide(trees, shape, R4, out, stream)) return;
    const bool clip = shape.clipped;  // some tree cut into nonzero groups
    bool flat = flat_loop();          // and every tree, where the flat loop is on
    for (int t = 0; t < trees.count; ++t) flat = flat && trees.tree[t].group_fiber;
    with_team_size(R4, [&](auto team_tag) {
        with_levels(trees.tree[0].levels, [&](auto levels_tag) {  // every tree of one tensor has its order - 1 levels
            constexpr int team = decltype(team_tag)::value, levels = decltype(levels_tag)::value;
            auto* out4 = reinterpret_cast<float4*>(out);
            const int grid = grid_for(groups * team);
            if (!clip && team == 8 && R4 == 8)  // rank 32: R4 compiled in
                trees_team_kernel<team, kFiberLoop, levels, true><<<grid, 256, 0, stream>>>(trees, R4, out4);
            else if (!clip)
                trees_team_kernel<team, kFiberLoop, levels><<<grid, 256, 0, stream>>>(trees, R4, out4);
            else if (flat) trees_team_kernel<team, kFlatLoop, levels><<<grid, 256, 0, stream>>>(trees, R4, out4);
            else trees_team_kernel<team, kClippedLoop, levels><<<grid, 256, 0, stream>>>(trees, R4, out4);
        });
    });
}

// Uploads the factors; returns the device copies (null for the output mode).
std::vector<DeviceArray<float>> upload_factors(const Dense& d) {
    std::vector<DeviceArray<float>> out;
    for (std::size_t m = 0; m < d.factors.size(); ++m)
        out.emplace_back(static_cast<int>(m) == d.mode || !d.factors[m] ? DeviceArray<float>()
                                                                        : DeviceArray<float>(d.factors[m], d.rows[m] * d.rank));
    return out;
}


}  // namespace

double copy_bandwidth_gbps() {
    use_device();
    const std::uint64_t n = std::uint64_t{1} << 30;
    DeviceArray<char> a(n), b(n);
    check(cudaMemset(a.get(), 1, n), "clearing");
    double best = 0;
    for (int r = 0; r < 5; ++r) {
        Event t0, t1;
        t0.record();
        check(cudaMemcpy(b.get(), a.get(), n, cudaMemcpyDeviceToDevice), "copying on the device");
        t1.record();
        const double s = Event::seconds(t0, t1);
        if (2.0 * n / s / 1e9 > best) best = 2.0 * n / s / 1e9;
    }
    return best;
}

ResidentTensor::ResidentTensor(const Coo& c) : impl_(std::make_unique<Impl>()) {
    use_device();
    Event t0, t1;
    t0.record();
    impl_->coo = true;
    impl_->nnz = c.nnz;
    for (auto* p : c.idx) impl_->idx.emplace_back(p, c.nnz);
    impl_->vals = DeviceArray<float>(c.vals, c.nnz);
    impl_->measure_coo_shape();
    t1.record();
    upload_s_ = Event::seconds(t0, t1);
}

ResidentTensor::ResidentTensor(const std::vector<Fibers>& parts) : impl_(std::make_unique<Impl>()) {
    use_device();
    Event t0, t1;
    t0.record();
    for (const Fibers& p : parts) {
        Impl::Part dp;
        dp.meta = p;
        dp.meta.anc.clear();
        dp.meta.fiber_ptr = nullptr, dp.meta.leaf = nullptr, dp.meta.vals = nullptr;
        dp.fiber_ptr = DeviceArray<std::uint64_t>(p.fiber_ptr, p.fibers + 1);
        dp.leaf = DeviceArray<std::uint32_t>(p.leaf, p.nnz);
        dp.vals = DeviceArray<float>(p.vals, p.nnz);
        for (auto* a : p.anc) dp.anc.emplace_back(a, p.fibers);
        if (p.order_on_device) order_fibers_by_length(dp);
        impl_->parts.push_back(std::move(dp));
    }
    t1.record();
    upload_s_ = Event::seconds(t0, t1);
}

namespace {

// counts[i] = the nonzeros whose mode-`mode` index is i (counts zeroed).
__global__ void blco_row_count_kernel(BlcoView v, int mode, unsigned* counts) {
    for (std::uint64_t z = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; z < v.nnz;
         z += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        std::uint64_t lo = 0, hi = v.blocks;
        while (hi - lo > 1) {
            const std::uint64_t mid = (lo + hi) / 2;
            if (v.block_ptr[mid] <= z) lo = mid;
            else hi = mid;
        }
        atomicAdd(&counts[blco_index(v, mode, v.keys[z], lo)], 1u);
    }
}

// Per mode, the most nonzeros that add into one output row.
std::vector<std::uint64_t> longest_rows(const ResidentTensor::Impl::BlcoArrays& a, std::uint64_t nnz) {
    BlcoView v;
    v.nnz = nnz, v.blocks = a.blocks, v.keys = a.keys.get(), v.block_ptr = a.block_ptr.get();
    for (std::size_t m = 0; m < a.dims.size(); ++m) v.high[m] = a.high[m].get(), v.shift[m] = a.shift[m], v.width[m] = a.width[m];
    std::vector<std::uint64_t> longest;
    DeviceArray<unsigned> top(1);
    for (std::size_t m = 0; m < a.dims.size(); ++m) {
        DeviceArray<unsigned> counts(a.dims[m]);
        check(cudaMemset(counts.get(), 0, a.dims[m] * sizeof(unsigned)), "clearing the row counts");
        check(cudaMemset(top.get(), 0, sizeof(unsigned)), "clearing the row counts");
        blco_row_count_kernel<<<grid_for(nnz), 256>>>(v, static_cast<int>(m), counts.get());
        max_kernel<<<grid_for(a.dims[m]), 256>>>(counts.get(), a.dims[m], top.get());
        unsigned host = 0;
        check(cudaMemcpy(&host, top.get(), sizeof host, cudaMemcpyDeviceToHost), "counting the output rows");
        longest.push_back(host);
    }
    return longest;
}

}  // namespace

ResidentTensor::ResidentTensor(const Blco& b) : impl_(std::make_unique<Impl>()) {
    use_device();
    Event t0, t1;
    t0.record();
    impl_->nnz = b.nnz;
    auto a = std::make_unique<Impl::BlcoArrays>();
    a->keys = DeviceArray<std::uint64_t>(b.keys, b.nnz);
    a->vals = DeviceArray<float>(b.vals, b.nnz);
    a->block_ptr = DeviceArray<std::uint64_t>(b.block_ptr, b.blocks + 1);
    for (const std::uint64_t* h : b.high) a->high.emplace_back(h, b.blocks);
    a->blocks = b.blocks, a->shift = b.shift, a->width = b.width, a->dims = b.dims;
    a->longest_row = longest_rows(*a, b.nnz);
    impl_->blco = std::move(a);
    t1.record();
    upload_s_ = Event::seconds(t0, t1);
}

ResidentTensor::ResidentTensor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ResidentTensor::~ResidentTensor() = default;
ResidentTensor::ResidentTensor(ResidentTensor&&) noexcept = default;

std::uint64_t ResidentTensor::device_bytes() const {
    std::uint64_t b = impl_->vals.size() * 4 + impl_->copies.size() * 4;
    for (const auto& i : impl_->idx) b += i.size() * 4;
    if (const auto& a = impl_->blco) {
        b += a->keys.size() * 8 + a->vals.size() * 4 + a->block_ptr.size() * 8;
        for (const auto& h : a->high) b += h.size() * 8;
    }
    for (const Impl::Part& p : impl_->parts) {
        b += p.fiber_ptr.size() * 8 + p.leaf.size() * 4 + p.vals.size() * 4;
        for (const auto& a : p.anc) b += a.size() * 4;
    }
    return b;
}

std::uint64_t ResidentTensor::nnz() const {
    if (impl_->coo || impl_->nnz) return impl_->nnz;
    std::uint64_t n = 0;  // uploaded trees
    for (const Impl::Part& p : impl_->parts) n += p.meta.nnz;
    return n;
}

std::vector<ResidentTensor::HostCopy> ResidentTensor::download() const {
    std::vector<HostCopy> out;
    for (const Impl::Part& p : impl_->parts) {
        HostCopy h;
        h.fiber_ptr.resize(p.fiber_ptr.size());
        p.fiber_ptr.download(h.fiber_ptr.data());
        for (const auto& a : p.anc) {
            h.anc.emplace_back(a.size());
            a.download(h.anc.back().data());
        }
        h.leaf.resize(p.leaf.size());
        p.leaf.download(h.leaf.data());
        h.vals.resize(p.vals.size());
        p.vals.download(h.vals.data());
        out.push_back(std::move(h));
    }
    return out;
}

void ResidentTensor::Impl::measure_coo_shape() {
    const std::vector<const std::uint32_t*> index = coo_index();
    coo_shape.assign(index.size(), CooModeShape{});
    DeviceArray<unsigned> largest(1);
    DeviceArray<unsigned long long> longest(1);
    for (std::size_t m = 0; m < index.size() && nnz; ++m) {
        CooModeShape& s = coo_shape[m];
        const std::uint32_t* idx_m = index[m];
        check(cudaMemset(largest.get(), 0, sizeof(unsigned)), "clearing the COO row chains");
        max_kernel<<<grid_for(nnz), 256>>>(idx_m, nnz, largest.get());
        unsigned last = 0;
        largest.download(&last);
        s.rows = std::uint64_t{last} + 1;
        DeviceArray<unsigned long long> counts(s.rows);
        check(cudaMemset(counts.get(), 0, s.rows * sizeof(unsigned long long)), "clearing the COO row chains");
        check(cudaMemset(longest.get(), 0, sizeof(unsigned long long)), "clearing the COO row chains");
        coo_chain_kernel<<<grid_for(nnz), 256>>>(idx_m, nnz, counts.get());
        max_kernel<<<grid_for(s.rows), 256>>>(counts.get(), s.rows, longest.get());
        unsigned long long top = 0;
        longest.download(&top);
        s.longest_chain = top / kCooGroup;
    }
}

namespace {

// The COO kernels into `out`: the team kernel where rows are whole float4s, sorting tiles first
// where key_bits > 0 (the bits of the mode's largest index); the warp kernel (R % 4 != 0) takes
// only the fp64 output.
void launch_coo_kernels(std::uint64_t nnz, int order, const std::uint32_t* const* idx, const float* vals, int mode, std::uint64_t R,
                        const float* const* factors, CooOut out, cudaStream_t stream, int key_bits = 0) {
    IndexPtrs ip{};
    FactorPtrs fp{};
    for (int m = 0; m < order; ++m) ip.p[m] = idx[m], fp.f[m] = factors[m];
    if (nnz == 0) return;
    if (use_team(R)) {
        Factor4Ptrs fp4{};
        for (int m = 0; m < order; ++m) fp4.f[m] = reinterpret_cast<const float4*>(factors[m]);
        const auto R4 = static_cast<std::uint32_t>(R / 4);
        const std::uint64_t groups = (nnz + kCooGroup - 1) / kCooGroup;
        with_team_size(R4, [&](auto team_tag) {
            constexpr int team = decltype(team_tag)::value;
            if (key_bits > 0) {
                const std::uint64_t tiles = (nnz + kCooTile - 1) / kCooTile;
                coo_tile_kernel<team><<<grid_for(tiles * kCooTileThreads, kCooTileThreads), kCooTileThreads, 0, stream>>>(
                    nnz, order, mode, R4, key_bits, ip, vals, fp4, out);
                return;
            }
            coo_team_kernel<team><<<grid_for(groups * team), 256, 0, stream>>>(nnz, kCooGroup, order, mode, R4, ip, vals, fp4, out);
        });
    } else {
        coo_kernel<<<grid_for(nnz * 32), 256, 0, stream>>>(nnz, order, mode, R, ip, vals, fp, out.f64);
    }
    check(cudaGetLastError(), "launching the COO MTTKRP kernel");
}

}  // namespace

void launch_coo_mttkrp(std::uint64_t nnz, int order, const std::uint32_t* const* idx, const float* vals, int mode, std::uint64_t R,
                       const float* const* factors, double* out, cudaStream_t stream) {
    CooOut o;
    o.f64 = out;
    launch_coo_kernels(nnz, order, idx, vals, mode, R, factors, o, stream);
}

void launch_fiber_mttkrp(const Fibers& meta, const std::uint32_t* const* anc, const std::uint64_t* fiber_ptr, std::uint64_t base,
                         const std::uint32_t* leaf, const float* vals, int mode, std::uint64_t R, const float* const* factors,
                         float* out, cudaStream_t stream) {
    if (meta.fibers == 0) return;
    IndexPtrs ap{};
    FactorPtrs lf{};
    int target = meta.levels;
    for (int l = 0; l <= meta.levels; ++l) {
        const int m = meta.level_mode[static_cast<std::size_t>(l)];
        lf.f[l] = factors[m];
        if (m == mode) target = l;
    }
    for (int l = 0; l < meta.levels; ++l) ap.p[l] = anc[l];
    if (use_team(R)) {
        launch_team_kernel(team_tree(meta, anc, fiber_ptr, base, leaf, vals, mode, factors), R, out, stream);
    } else {
        fiber_kernel<<<grid_for((meta.fibers + kGroup - 1) / kGroup * 32), 256, 0, stream>>>(meta.fibers, meta.levels, target, R, ap, lf,
                                                                                           fiber_ptr, base, leaf, vals, out);
    }
    check(cudaGetLastError(), "launching the CSF MTTKRP kernel");
}

// TENSORSCOPE_BLCO_GENERIC=1 runs the generic team kernel on one-block tensors too, for comparisons.
bool blco_generic() {
    return env_is("TENSORSCOPE_BLCO_GENERIC", "1");
}

void launch_blco_mttkrp(const BlcoTable& table, const std::uint64_t* keys, const float* vals, std::uint64_t base, std::uint64_t nnz,
                        int mode, std::uint64_t R, const float* const* factors, float* out, cudaStream_t stream,
                        OutputCopies copies) {
    if (nnz == 0) return;
    BlcoView v;
    v.nnz = nnz, v.base = base, v.blocks = table.blocks, v.keys = keys, v.vals = vals, v.block_ptr = table.block_ptr;
    const int order = static_cast<int>(table.width.size());
    Factor4Ptrs fp4{};
    for (int m = 0; m < order; ++m) {
        const auto k = static_cast<std::size_t>(m);
        v.high[m] = table.high[k], v.shift[m] = table.shift[k], v.width[m] = table.width[k];
        fp4.f[m] = reinterpret_cast<const float4*>(factors[m]);
    }
    if (!use_team(R)) {  // one output: the warp kernel's atomics are per nonzero anyway
        FactorPtrs fp{};
        for (int m = 0; m < order; ++m) fp.f[m] = factors[m];
        blco_kernel<<<grid_for(nnz * 32), 256, 0, stream>>>(v, order, mode, R, fp, out);
    } else {
        const auto R4 = static_cast<std::uint32_t>(R / 4);
        const std::uint64_t groups = (nnz + kCooGroup - 1) / kCooGroup;
        float4* out4 = reinterpret_cast<float4*>(out);
        with_team_size(R4, [&](auto team_tag) {
            constexpr int team = decltype(team_tag)::value;
            auto launch = [&](auto kernel) {
                kernel<<<grid_for(groups * team), 256, 0, stream>>>(v, kCooGroup, order, mode, R4, fp4, out4, copies.count, copies.stride / 4);
            };
            const bool one = table.blocks == 1 && !blco_generic();
            if (one && order == 3) launch(blco_team_kernel<team, 3, true>);
            else if (one && order == 4) launch(blco_team_kernel<team, 4, true>);
            else if (one && order == 5) launch(blco_team_kernel<team, 5, true>);
            else launch(blco_team_kernel<team, 0, false>);
        });
    }
    check(cudaGetLastError(), "launching the BLCO MTTKRP kernel");
}

namespace {

// Output copies (BLCO paper Sec. 4.3's concern: the order that makes one copy serve every mode
// scatters each output row's updates over the whole tensor, so fp32 atomics add up thousands of
// them one after another). Each group of nonzeros adds into copy g % C, and the copies are summed
// in fp64 at the end: a row's longest fp32 chain is its nonzeros / C. C gives chains of about
// kChainPerCopy, within kCopiesBytes (kept in L2 beside the factors). On the nell-2 shape one copy
// gave errors of 1.7-2.8e-5 (docs/bench/h100-blco.json). TENSORSCOPE_BLCO_COPIES caps C (1: one
// output), for comparisons.
constexpr std::uint64_t kChainPerCopy = 1024;
constexpr std::uint64_t kCopiesBytes = 24ull << 20;
constexpr unsigned kMaxCopies = 64;

unsigned copies_cap() {
    static const unsigned cap = [] {
        const unsigned long v = env_unsigned("TENSORSCOPE_BLCO_COPIES", 0);
        return v >= 1 ? static_cast<unsigned>(std::min<unsigned long>(v, kMaxCopies)) : kMaxCopies;
    }();
    return cap;
}

// Copies for an output of `rows` rows whose longest row takes `chain` atomic adds.
unsigned copies_for(std::uint64_t chain, std::uint64_t rows, std::uint64_t R) {
    const std::uint64_t want = (chain + kChainPerCopy - 1) / kChainPerCopy;
    const std::uint64_t fit = kCopiesBytes / std::max<std::uint64_t>(rows * R * sizeof(float), 1);
    return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>({want, fit, copies_cap()})));
}

unsigned output_copies(const ResidentTensor::Impl::BlcoArrays& a, int mode, std::uint64_t R) {
    return copies_for(a.longest_row[static_cast<std::size_t>(mode)], a.dims[static_cast<std::size_t>(mode)], R);
}

// `count` zeroed outputs of n floats in buf, grown when it is smaller (stream-ordered clear).
float* zeroed_copies(DeviceArray<float>& buf, std::uint64_t n, unsigned count) {
    if (buf.size() < n * count) buf = DeviceArray<float>(n * count);
    check(cudaMemsetAsync(buf.get(), 0, n * count * sizeof(float)), "clearing the output copies");
    return buf.get();
}

// out[i] += the copies' sum at i, in fp64.
template <class Out>
__global__ void sum_copies_kernel(const float* copies, unsigned count, std::uint64_t n, Out* out) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        double s = out[i];
        for (unsigned c = 0; c < count; ++c) s += copies[c * n + i];
        out[i] = static_cast<Out>(s);
    }
}

// The resident COO: fp32 vector atomics into output copies (about kChainPerCopy adds per row in
// each), summed in fp64 into out_d. On the nell-2 shape (H100, rank 32) that took the third
// mode, whose heavy rows' updates are scattered over the order, from 37.6 ms (one fp64 atomic
// per column and nonzero, queued on the heavy rows) to 5.2-5.8 ms. Where the copies that fit
// leave a row a chain above kMaxCooChain fp32 adds, the tiles are sorted first (coo_tile_kernel).
// The warp kernel (R % 4 != 0) adds into out_d in fp64. Where one copy is all there is
// (coo_single_copy) and the caller passes no out_d, the kernels add into out_f (fp32, zeroed)
// instead: out_d would only be that copy widened, which the caller does.
constexpr std::uint64_t kMaxCooChain = 1ull << 16;
void launch_resident_coo(ResidentTensor::Impl& t, int mode, std::uint64_t R, const float* const* factors, float* out_f,
                         double* out_d) {
    const std::vector<const std::uint32_t*> idx = t.coo_index();
    const int order = static_cast<int>(idx.size());
    CooOut o;
    if (!use_team(R) || t.nnz == 0) {
        if (!out_d && t.nnz) throw Error("the COO MTTKRP needs its fp64 output at this rank");
        o.f64 = out_d;
        launch_coo_kernels(t.nnz, order, idx.data(), t.vals.get(), mode, R, factors, o, nullptr);
        return;
    }
    const CooModeShape& shape = t.coo_shape[static_cast<std::size_t>(mode)];
    o.copies = copies_for(shape.longest_chain, shape.rows, R);
    // the tile sort where the copies leave the team kernel's chains long (TENSORSCOPE_COO_KERNEL=team|tile
    // forces one, for comparisons)
    const char* force = std::getenv("TENSORSCOPE_COO_KERNEL");
    const bool tiles = force ? std::string(force) == "tile" : shape.longest_chain / o.copies > kMaxCooChain;
    int key_bits = 0;  // all ones in key_bits exceed every row, so a tile's padding sorts last
    if (tiles)
        while (key_bits < 32 && (std::uint64_t{1} << key_bits) - 1 < shape.rows) ++key_bits;
    const std::uint64_t n = shape.rows * R;
    if (!out_d) {
        if (o.copies != 1) throw Error("the COO MTTKRP needs its fp64 output for this mode (several output copies)");
        o.f32 = reinterpret_cast<float4*>(out_f), o.stride4 = n / 4;
        launch_coo_kernels(t.nnz, order, idx.data(), t.vals.get(), mode, R, factors, o, nullptr, key_bits);
        return;
    }
    float* copies = zeroed_copies(t.copies, n, o.copies);
    o.f32 = reinterpret_cast<float4*>(copies), o.stride4 = n / 4;
    launch_coo_kernels(t.nnz, order, idx.data(), t.vals.get(), mode, R, factors, o, nullptr, key_bits);
    sum_copies_kernel<<<grid_for(n), 256>>>(copies, o.copies, n, out_d);
    check(cudaGetLastError(), "summing the output copies");
}

// Whether the resident COO's team kernels add mode's products at rank R into a single fp32
// output copy (its rows too many for two copies in kCopiesBytes, or its chains short): the
// fp64 sum is then that copy widened. mttkrp() then widens it on the host, as it does the
// fiber formats' fp32 output (accumulates_in_double(mode, R) is false and launch() adds into
// out_f where the caller passes no out_d), rather than clearing the copy and summing it into fp64 on the
// device within the kernels' time: on the delicious-4d shape's mode 2 (17M rows at rank 32)
// that is 2.2 GB cleared and 11 GB more read and written. Measured on one H200 at rank 32
// (h200-issue19-session39.json call 2, alternating twice), mode 2 took 13.66-13.67 ms against
// 16.98-16.99 summed on the device (984 GFLOP/s against 792) and mode 3 13.84 against 14.32-14.33.
bool coo_single_copy(const ResidentTensor::Impl& t, int mode, std::uint64_t R) {
    if (!t.coo || !use_team(R) || t.nnz == 0) return false;
    const CooModeShape& shape = t.coo_shape[static_cast<std::size_t>(mode)];
    return copies_for(shape.longest_chain, shape.rows, R) == 1;
}

void launch_blco(const ResidentTensor::Impl::BlcoArrays& a, DeviceArray<float>& copy_buf, std::uint64_t nnz, int mode, std::uint64_t R,
                 const float* const* factors, float* out_f) {
    BlcoTable table;
    table.blocks = a.blocks, table.block_ptr = a.block_ptr.get(), table.shift = a.shift, table.width = a.width;
    for (const auto& h : a.high) table.high.push_back(h.get());
    const unsigned count = use_team(R) ? output_copies(a, mode, R) : 1;
    if (count == 1) {
        launch_blco_mttkrp(table, a.keys.get(), a.vals.get(), 0, nnz, mode, R, factors, out_f, nullptr);
        return;
    }
    const std::uint64_t n = a.dims[static_cast<std::size_t>(mode)] * R;
    float* copies = zeroed_copies(copy_buf, n, count);
    launch_blco_mttkrp(table, a.keys.get(), a.vals.get(), 0, nnz, mode, R, factors, copies, nullptr, OutputCopies{count, n});
    sum_copies_kernel<<<grid_for(n), 256>>>(copies, count, n, out_f);
    check(cudaGetLastError(), "summing the output copies");
}

}  // namespace

void ResidentTensor::launch(int mode, std::uint64_t R, const float* const* factors, float* out_f, double* out_d) const {
    DeviceScope on(impl_->device);
    if (const auto& a = impl_->blco) {
        launch_blco(*a, impl_->copies, impl_->nnz, mode, R, factors, out_f);
        return;
    }
    if (impl_->coo) {
        launch_resident_coo(*impl_, mode, R, factors, out_f, out_d);
        return;
    }
    auto anc_of = [](const Impl::Part& p) {
        std::vector<const std::uint32_t*> anc;
        for (const auto& a : p.anc) anc.push_back(a.get());
        return anc;
    };
    if (impl_->parts.size() <= kMaxTrees && use_team(R)) {
        // the trees (MM-CSF's partitions) in one launch; groups of nonzeros where fibers were
        // not already cut to a bounded length
        TeamTrees trees;
        std::vector<std::uint64_t*> scratch;
        for (const Impl::Part& p : impl_->parts) {
            TeamTree& t = trees.tree[trees.count];
            t = team_tree(p.meta, anc_of(p).data(), p.fiber_ptr.get(), 0, p.leaf.get(), p.vals.get(), mode, factors);
            if (!p.meta.split_fibers)
                if (std::uint64_t* s = cut_by_nonzeros(t, p.meta.nnz, nullptr)) scratch.push_back(s);
            trees.first_group[trees.count + 1] = trees.first_group[trees.count] + t.groups;
            ++trees.count;
        }
        if (trees.count == 1) launch_team_kernel(trees.tree[0], R, out_f, nullptr);
        else launch_team_kernel(trees, R, out_f, nullptr);
        check(cudaGetLastError(), "launching the CSF MTTKRP kernel");
        for (std::uint64_t* s : scratch) check(cudaFreeAsync(s, nullptr), "freeing the MTTKRP work groups");
        return;
    }
    for (const Impl::Part& p : impl_->parts)
        launch_fiber_mttkrp(p.meta, anc_of(p).data(), p.fiber_ptr.get(), 0, p.leaf.get(), p.vals.get(), mode, R, factors, out_f, nullptr);
}

bool ResidentTensor::accumulates_in_double(int mode, std::uint64_t R) const {
    return impl_->coo && !coo_single_copy(*impl_, mode, R);
}

void ResidentTensor::mttkrp(const Dense& d, Timing& timing) const {
    use_device();
    Event t0, t1, t2, t3;
    t0.record();
    std::vector<DeviceArray<float>> factors = upload_factors(d);
    std::vector<const float*> fp;
    for (const auto& f : factors) fp.push_back(f.get());
    const std::uint64_t out_n = d.rows[static_cast<std::size_t>(d.mode)] * d.rank;
    // COO: fp64, millions of atomic adds go into one heavy row (but where one fp32 copy takes
    // them all, coo_single_copy); fibers: fp32, the groups flush rarely, so fp32 atomics stay accurate
    const bool in_double = accumulates_in_double(d.mode, d.rank);
    DeviceArray<double> out_d(in_double ? out_n : 0);
    DeviceArray<float> out_f(in_double ? 0 : out_n);
    out_d.zero();
    out_f.zero();
    t1.record();
    launch(d.mode, d.rank, fp.data(), out_f.get(), out_d.get());  // out_d null where !in_double
    t2.record();
    if (in_double) {
        out_d.download(d.out);
    } else {
        const std::unique_ptr<float[]> result(new float[out_n]);  // the download fills it
        out_f.download(result.get());
        widen(result.get(), d.out, out_n);
    }
    t3.record();
    timing.upload_s = Event::seconds(t0, t1);
    timing.kernel_s = Event::seconds(t1, t2);
    timing.download_s = Event::seconds(t2, t3);
}

void mttkrp_coo(const Coo& coo, const Dense& d, Timing& timing) {
    const ResidentTensor t(coo);
    t.mttkrp(d, timing);
    timing.upload_s += t.upload_seconds();
}

void mttkrp_fibers(const std::vector<Fibers>& parts, const Dense& d, Timing& timing) {
    const ResidentTensor t(parts);
    t.mttkrp(d, timing);
    timing.upload_s += t.upload_seconds();
}

}  // namespace tscope::gpu
