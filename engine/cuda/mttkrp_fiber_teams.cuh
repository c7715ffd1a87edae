// MTTKRP on the CSF family (CSF, B-CSF, MM-CSF's partitions) by teams of lanes, a float4 of
// every factor row a lane.
// Private to engine/cuda: gpu_mttkrp.cu includes it (nvcc, no separable compilation).
#pragma once

#include <cstdint>
#include "float4_math.cuh"
#include "mttkrp_kernel_args.cuh"
#include "wide_teams.hpp"

namespace tscope::gpu {
namespace {

// The same algorithms with a team of TEAM lanes per fiber, each lane owning four consecutive
// columns (one float4): a team reads a whole factor row in one 16-byte load per lane, and a
// warp works on 32 / TEAM fibers at once. With rank 32 a team is 8 lanes, so four fibers' chains
// of dependent loads (fiber pointer, leaf index, factor row) are in flight per warp instead of
// one, and each load instruction moves 512 bytes instead of 128. Needs R % 4 == 0 (rows stay
// 16-byte aligned); R / 4 <= TEAM.
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
    // The output level's heavy rows in copies (hot_rows.cuh; MM-CSF's partitions whose leaves or
    // a level between are the output): that level's array then holds ids from out_rows on for
    // them, whose rows live in hot. ~0: every id is an output row.
    std::uint64_t out_rows = ~std::uint64_t{0};
    float4* hot = nullptr;
};

// Where output row (or hot copy) `row` of tree t starts: in out, or in t's copies.
__device__ inline float4* row_at(const TeamTree& t, float4* out, std::uint64_t row, std::uint32_t R4) {
    return row < t.out_rows ? out + row * R4 : t.hot + (row - t.out_rows) * R4;
}

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
            if (l != t.target)
                prefix = prefix * t.level_factor.f[l][a * R4 + col];
            else
                target_row = a;
        }
    } else {
        for (int l = 0; l < t.levels; ++l)
            if (l != t.target)
                prefix = prefix * t.level_factor.f[l][static_cast<std::uint64_t>(t.anc.p[l][f]) * R4 + col];
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
        for (Z z = lo; z < hi; ++z) atomic_add4(row_at(t, out, t.leaf[z], R4) + col, t.vals[z] * prefix);
        return;
    }
    if (target_row != row) {
        if (row != ~std::uint64_t{0}) atomic_add4(row_at(t, out, row, R4) + col, acc);
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

// A float4 summed across a warp's lanes d apart, for the warp sums below.
__device__ inline void shfl_xor_add(float4& a, int d) {
    constexpr unsigned all = 0xffffffffu;
    a.x += __shfl_xor_sync(all, a.x, d), a.y += __shfl_xor_sync(all, a.y, d);
    a.z += __shfl_xor_sync(all, a.z, d), a.w += __shfl_xor_sync(all, a.w, d);
}

// A warp's sums of one output row, where every team of the warp ends its group on that row (the
// wide kernel's WARP_SUM below; the 8-lane loops' under TENSORSCOPE_FIBER_TEAM_WARP_SUM=1).
// warp_one_row: whether every lane's row is the same real one (~0: the team adds nothing); every
// lane of the warp must call it. sum_across_teams: a column's lanes (LANES apart, the teams'
// width) summed across the warp, each then holding the warp's total.
__device__ inline bool warp_one_row(std::uint64_t row) {
    int same = 0;
    __match_all_sync(0xffffffffu, static_cast<unsigned long long>(row), &same);
    return same && row != ~std::uint64_t{0};
}
// The same where the warp's teams may walk several trees (MM-CSF's), each with its own hot rows'
// copies (TeamTree::hot): a copy's id is that tree's alone, so the rows must also share the copies.
__device__ inline bool warp_one_row(std::uint64_t row, const float4* hot) {
    int same = 0;
    __match_all_sync(0xffffffffu, reinterpret_cast<unsigned long long>(hot), &same);
    return warp_one_row(row) && same;
}
template <int LANES>
__device__ inline void sum_across_teams(float4& a) {
    for (int d = LANES; d < 32; d *= 2) shfl_xor_add(a, d);
}

// The 8-lane loops' warp sums (session 82, unmeasured; off) run on the single tree's rank-32 loop
// (fiber_index32_kernel) and MM-CSF's (trees_team_kernel's RANK32 over whole fibers); a team
// whose tree adds a nonzero at a time (its leaves the output) joins with no row. A host count
// (docs/bench/cpu-warp-sum-model.json) gives the nell-2 shape's B-CSF 2.35M-2.85M group-end adds a
// mode, 0.61M-0.78M with these sums, its hottest row's 24.8K-32.6K a quarter: at the 1.4-1.8 ns a
// hot-row add the wide kernel's sums saved on delicious-4d's shape, about 0.04 ms a mode.
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
template <bool CLIP, int LEVELS, class Z = std::uint64_t, bool COL_BASE = false, bool WARP_SUM = false>
__device__ inline void team_fiber_group(const TeamTree& t, Z g, std::uint32_t R4, std::uint32_t col, float4* out,
                                        bool warp_full = false) {
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
    if (t.target >= levels) row = ~std::uint64_t{0};  // the nonzero algorithm added in the loop
    if constexpr (WARP_SUM) {
        if (warp_full && warp_one_row(row, t.hot)) {
            sum_across_teams<8>(acc);
            if (threadIdx.x % 32 < 8) atomic_add4(row_at(t, out, row, R4) + col, acc);
            return;
        }
    }
    if (row != ~std::uint64_t{0}) atomic_add4(row_at(t, out, row, R4) + col, acc);
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
__device__ inline void team_flat_group(const TeamTree& t, std::uint64_t g, std::uint32_t R4, std::uint32_t col,
                                       float4* out) {
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
            atomic_add4(row_at(t, out, row, R4) + col, acc);
            acc = zero;
            row = static_cast<std::uint32_t>(head_row);
        }
    }
    add4(acc, sum * prefix);
    atomic_add4(row_at(t, out, row, R4) + col, acc);
}

// Asking L2 for a wide team's rows before it walks its group was measured and removed (session 81,
// TENSORSCOPE_FIBER_PREFETCH; session 82, docs/bench/h200-session82.json call 1, one H200, one
// round each): the team's 4 lanes, a fiber a lane in turn, issued cp.async.bulk.prefetch.L2 for the
// leaves' rows (up to two a fiber) or also every gathered ancestor's (once where the fiber before
// did not share it). The reason to try: delicious-4d's shape's rows would take 46-58% of its
// B-CSF time at L2's measured gather rate, two of its factors (2.2 GB and 317 MB) past L2. Its
// B-CSF took 8.37-10.20 ms a mode with the leaves' rows and 9.37-11.03 with all, against
// 7.87-10.05 without: the prefetches' extra walk over the group's indices cost more than the
// warmed lines gave (20 more bytes spilled at order 3).

// A warp's sums of one output row (TENSORSCOPE_FIBER_WARP_SUM; session 81). The 8 teams of a
// warp walk 8 consecutive groups, so in a slice of many groups they end on one row; each then
// adds its last sum to it, and L2 takes those row-sized atomics on one line one after another.
// The reason: delicious-4d's shape's mode 4 (1,443 rows, Zipf-distributed) took 10 ms against
// 7.8-8.9 for the other modes; by the generator's law its first row holds 1 / H(1,443) = 12.7% of
// the 140M nonzeros, about 1.8M groups of 8 fibers whose teams each add the row once: 14M 16-byte
// atomics on one 128-byte line. The sums need every lane of the warp at the call (warp_full:
// the warp's 8 groups all exist), as a full-mask shuffle does.
// WARP_SUM (the default since session 82): where all 8 teams end on one row, their sums are
// added by shuffles and one team adds the total. On one H200 (session 82, docs/bench/
// h200-session82.json calls 1-2, rank 32, in one binary, three rounds against four)
// delicious-4d's shape ran B-CSF 7.25-7.26, 7.32-7.33, 7.10-7.11 and 7.65-7.69 ms on modes 1-4
// against 8.00-8.02, 8.69-8.76, 7.87-7.89 and 9.91-10.05 without (CSF alike). The nell-2 shape's
// longer fibers take the 8-lane team kernel: its times stayed put.
// A segmented form (=runs, session 82: any run of consecutive teams on one row summed by a scan
// over the teams, the run's last team adding the total; 12 bytes spilled at order 4) was measured
// and removed: on one H100 (session 83, docs/bench/h100-session83.json call 1, delicious-4d's
// shape, B-CSF, rank 32, two rounds alternating) it took 8.24-8.25, 8.19-8.20, 7.92-7.93 and
// 9.16-9.18 ms on modes 1-4 against 8.10, 8.22-8.25, 7.89-7.91 and 8.82-8.83 with the warp's teams all on one row.

// Keeping a fiber's upper ancestors' product across fibers of one parent was measured and removed
// (session 83, TENSORSCOPE_FIBER_ANCESTOR_REUSE=1, orders 4 and up; 52 bytes spilled at order 4
// against 8). The reason to try: on delicious-4d's shape a fiber holds 1.2 nonzeros and 47-63% of
// the pieces repeat the piece before's parent (docs/bench/cpu-ancestor-reuse-model.json), so
// that the rows gathered a nonzero would fall from 2.64-2.70 to 2.12-2.29. On one H100 (session
// 84, docs/bench/h100-session84.json call 1, B-CSF, rank 32, one round) it took 9.91, 9.53 and
// 11.20 ms on modes 1, 3 and 4 against 8.09, 7.91 and 8.84 without (not profiled: it holds the
// kept product in registers, spills more and branches on the parent at every fiber). With the
// 17M-row mode under the root (--mode-order 1,2,4,3 and 3,2,4,1), where the kept product spans
// that 2.2 GB factor's rows, it took 9.94 and 9.72.

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
template <int LEVELS, bool COL_BASE = false, bool WARP_SUM = false>
__device__ inline void team_fiber_group_wide(const TeamTree& t, std::uint64_t g, std::uint32_t col, float4* out,
                                             bool warp_full = false) {
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
                float4* o = row_at(t, out, t.leaf[z], R4);
                atomic_add4(o + col, t.vals[z] * prefix);
                atomic_add4(o + col2, t.vals[z] * prefix2);
            }
            continue;
        }
        if (target_row != row) {
            if (row != ~std::uint64_t{0}) {
                float4* o = row_at(t, out, row, R4);
                atomic_add4(o + col, acc), atomic_add4(o + col2, acc2);
            }
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
    if (t.target < LEVELS && row != ~std::uint64_t{0}) {
        if constexpr (WARP_SUM) {
            if (warp_full && warp_one_row(row)) {
                sum_across_teams<4>(acc), sum_across_teams<4>(acc2);
                float4* o = row_at(t, out, row, R4);
                if (threadIdx.x % 32 < 4) atomic_add4(o + col, acc), atomic_add4(o + col2, acc2);
                return;
            }
        }
        float4* o = row_at(t, out, row, R4);
        atomic_add4(o + col, acc), atomic_add4(o + col2, acc2);
    }
}

// The wide loop's kernel: teams of 4 lanes, rank 32 only, bounded to BLOCKS blocks of 256.
template <int LEVELS, int BLOCKS, bool WARP_SUM = false>
__global__ void __launch_bounds__(256, BLOCKS) fiber_wide_kernel(TeamTree tree, float4* out) {
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 4;
    const std::uint32_t col = threadIdx.x % 4, in_warp = threadIdx.x % 32 / 4;  // the team's place in its warp
    for (std::uint64_t g = thread / 4; g < tree.groups; g += teams)
        team_fiber_group_wide<LEVELS, false, WARP_SUM>(tree, g, col, out, g - in_warp + 7 < tree.groups);
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
    // order 5's four levels (compiled in since session 93) spilled 60 bytes at six blocks' 40 registers
    if (loop == kFiberLoop && levels == 4 && !several_trees) return 4;
    if (loop == kFiberLoop && levels > 0 && !several_trees) return 6;
    return 1;
}

template <int LOOP, int LEVELS, bool COL_BASE = false, bool WARP_SUM = false>
__device__ inline void team_group(const TeamTree& t, std::uint64_t g, std::uint32_t R4, std::uint32_t col, float4* out,
                                  bool warp_full = false) {
    if constexpr (LOOP == kFlatLoop) {
        if (t.target < (LEVELS > 0 ? LEVELS : t.levels))
            team_flat_group<LEVELS>(t, g, R4, col, out);
        else
            team_fiber_group<true, LEVELS>(t, g, R4, col, out);
    } else {
        team_fiber_group<LOOP == kClippedLoop, LEVELS, std::uint64_t, COL_BASE, WARP_SUM && LOOP == kFiberLoop>(
            t, g, R4, col, out, warp_full);
    }
}

// Output copies for these kernels (each team adding into copy team % C, summed after, as COO's
// and BLCO's do) were tried in session 28 (TENSORSCOPE_TREE_COPIES, 30b1570) and removed: on one
// H200 at rank 32 the nell-2 shape ran B-CSF 2.31-2.45 ms a mode with 4 or 16 copies against
// 2.13-2.25 with none, MM-CSF 2.52-2.63 against 2.31-2.37, and the shared real tensors 1.2-5x
// slower (docs/bench/h200-issue19-session28.json): the fiber loops do not wait on same-address
// atomics.
template <int TEAM, int LOOP, int LEVELS>
__global__ void __launch_bounds__(256, team_min_blocks(LOOP, LEVELS, false))
    fiber_team_kernel(TeamTree tree, std::uint32_t R4, float4* out) {
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
template <int LEVELS, bool WARP_SUM = false>
__global__ void __launch_bounds__(256, 6) fiber_index32_kernel(TeamTree tree, float4* out) {
    const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x, teams = gridDim.x * blockDim.x / 8;
    const auto groups = static_cast<std::uint32_t>(tree.groups);
    const std::uint32_t in_warp = threadIdx.x % 32 / 8;  // the team's place in its warp
    for (std::uint32_t g = thread / 8; g < groups; g += teams)
        team_fiber_group<false, LEVELS, std::uint32_t, true, WARP_SUM>(tree, g, 8, threadIdx.x % 8, out,
                                                                       g - in_warp + 3 < groups);
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
template <int TEAM, int LOOP, int LEVELS, bool RANK32 = false, bool WARP_SUM = false>
__global__ void __launch_bounds__(256, team_min_blocks(LOOP, LEVELS, true))
    trees_team_kernel(TeamTrees trees, std::uint32_t R4, float4* out) {
    static_assert(!WARP_SUM || (RANK32 && TEAM == 8 && LOOP == kFiberLoop), "warp sums: whole warps of 8-lane teams");
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / TEAM;
    const std::uint32_t col = threadIdx.x % TEAM;
    if constexpr (RANK32) R4 = 8;
    if (col >= R4) return;
    int t = 0;
    const std::uint64_t groups = trees.first_group[trees.count], in_warp = threadIdx.x % 32 / TEAM;
    for (std::uint64_t g = thread / TEAM; g < groups; g += teams) {
        while (g >= trees.first_group[t + 1]) ++t;  // g only grows: the tree index never goes back
        team_group<LOOP, LEVELS, RANK32, WARP_SUM>(trees.tree[t], g - trees.first_group[t], R4, col, out,
                                                   g - in_warp + 3 < groups);
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

}  // namespace
}  // namespace tscope::gpu
