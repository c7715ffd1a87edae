// CUDA MTTKRP, the host side: which kernel each format, mode and rank gets, their launches, and
// the tensor kept on the device (ResidentTensor). The kernels: mttkrp_warp_kernels.cuh (any rank),
// mttkrp_fiber_teams.cuh (the CSF family), mttkrp_coo_teams.cuh and mttkrp_blco_teams.cuh.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <cuda_runtime.h>

#include <string>
#include <type_traits>
#include <vector>

#include "cuda_util.cuh"
#include "fiber_length_order.cuh"
#include "float4_math.cuh"
#include "gpu_mttkrp.hpp"
#include "host_widen.hpp"
#include "mttkrp_blco_teams.cuh"
#include "mttkrp_coo_teams.cuh"
#include "mttkrp_fiber_teams.cuh"
#include "mttkrp_kernel_args.cuh"
#include "mttkrp_launch.cuh"
#include "mttkrp_warp_kernels.cuh"
#include "piece_ranges.cuh"
#include "resident_tensor.cuh"
#include "shared_tiles_rule.hpp"
#include "wide_teams.hpp"

namespace tscope::gpu {

int level_of(const Fibers& meta, int mode) {
    for (int l = 0; l <= meta.levels; ++l)
        if (meta.level_mode[static_cast<std::size_t>(l)] == mode) return l;
    return meta.levels;
}

namespace {

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
    t.fibers = meta.fibers, t.nnz = meta.nnz, t.base = base, t.levels = meta.levels, t.target = level_of(meta, mode);
    for (int l = 0; l <= meta.levels; ++l)
        t.level_factor.f[l] = reinterpret_cast<const float4*>(factors[meta.level_mode[static_cast<std::size_t>(l)]]);
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

// The tree levels compiled into the fiber kernels (orders 3, 4 and 5), 0 for any other count.
// TENSORSCOPE_FIBER_GENERIC=1 takes the run-time count everywhere, for comparisons;
// TENSORSCOPE_FIBER_LEVELS=3 keeps order 5's four levels at run time. Compiled in (session 93, one
// H100, alternating twice, h100-session93.json), CSF and B-CSF on the 5-order test shapes ran
// 1.11-1.14x faster (vast5d, power-law: 0.854-1.026 ms a mode against 0.970-1.171) and
// 1.15-1.21x (uni5d, uniform: 2.999-3.119 against 3.519-3.666), every mode within 3.7e-6 of cpu-ref.
template <class Go>
void with_levels(int levels, Go&& go) {
    const bool generic = env_is("TENSORSCOPE_FIBER_GENERIC", "1");
    if (!generic && levels == 2) go(std::integral_constant<int, 2>{});
    else if (!generic && levels == 3) go(std::integral_constant<int, 3>{});
    else if (!generic && levels == 4 && !env_is("TENSORSCOPE_FIBER_LEVELS", "3"))
        go(std::integral_constant<int, 4>{});
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

// Which launches run wide (wide_teams.hpp): trees of short fibers, by the measurements in
// mttkrp_fiber_teams.cuh.
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

// The single tree's wide kernel at its default bound (four blocks), with its warp sums of one
// output row (mttkrp_fiber_teams.cuh's WARP_SUM, where a warp's teams all end on the row: the
// default since session 82); TENSORSCOPE_FIBER_WARP_SUM=0 turns them off, for comparisons.
template <int LEVELS>
void launch_wide4(const TeamTree& tree, int grid, float4* out, cudaStream_t stream) {
    if (env_is("TENSORSCOPE_FIBER_WARP_SUM", "0"))
        fiber_wide_kernel<LEVELS, 4><<<grid, 256, 0, stream>>>(tree, out);
    else
        fiber_wide_kernel<LEVELS, 4, true><<<grid, 256, 0, stream>>>(tree, out);
}

// TENSORSCOPE_FIBER_WIDE_GRID=N: the single tree's wide kernel in at most N blocks, so that tests
// run its grid-stride loop (and the warp sums' warp_full) over more than one pass on small trees.
template <int LEVELS>
void launch_wide_kernel(const TeamTree& tree, int blocks, float4* out, cudaStream_t stream) {
    const int full = grid_for(tree.groups * 4);
    const auto cap = env_unsigned("TENSORSCOPE_FIBER_WIDE_GRID", 0);
    const int grid = cap && cap < static_cast<unsigned long>(full) ? static_cast<int>(cap) : full;
    if (blocks == 4)
        launch_wide4<LEVELS>(tree, grid, out, stream);
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

// Whether the 8-lane rank-32 loops over whole fibers add a warp's four teams' last sums of one
// output row once (mttkrp_fiber_teams.cuh's warp_one_row): by default on MM-CSF's several trees
// and off on a single tree; TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 turns them on for both, =0 off.
// Measured on one H100 (session 83, docs/bench/h100-session83.json call 1, the nell-2 shape, rank
// 32, two rounds alternating, ms a mode): MM-CSF 1.807-1.813, 1.571-1.586 and 1.970-1.998 with
// them against 1.834-1.848, 1.620-1.629 and 1.990-1.996; B-CSF's single tree 1.418-1.421,
// 1.421-1.422 and 1.538-1.539 against 1.409-1.411, 1.417 and 1.522-1.528.
bool team_warp_sum(bool several_trees) {
    if (several_trees) return !env_is("TENSORSCOPE_FIBER_TEAM_WARP_SUM", "0");
    return env_is("TENSORSCOPE_FIBER_TEAM_WARP_SUM", "1");
}

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
        const bool sums = team_warp_sum(false);
        auto* kernel = tree.levels == 3 ? (sums ? fiber_index32_kernel<3, true> : fiber_index32_kernel<3>)
                                        : (sums ? fiber_index32_kernel<2, true> : fiber_index32_kernel<2>);
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
            if constexpr (team == 8) {
                if (!clip && R4 == 8) {  // rank 32: R4 compiled in
                    if (team_warp_sum(true))
                        trees_team_kernel<team, kFiberLoop, levels, true, true>
                            <<<grid, 256, 0, stream>>>(trees, R4, out4);
                    else
                        trees_team_kernel<team, kFiberLoop, levels, true><<<grid, 256, 0, stream>>>(trees, R4, out4);
                    return;
                }
            }
            if (!clip)
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

void add_shared_tiles(ResidentTensor::Impl::Part& p, std::uint64_t rank, std::size_t trees) {
    // none where the root has hot rows (add_hot_rows, called first): the tiles add a row's sums
    // once a run in each tile into the output itself, so a root of a few heavy rows would chain
    // them in fp32 as the fiber kernels did before session 92; the fiber kernels run it, over
    // the rows' copies
    if (!p.hot.empty() && p.hot[0].copies) return;
    std::vector<const std::uint32_t*> anc;
    for (const auto& a : p.anc) anc.push_back(a.get());
    p.tiles = build_shared_tiles(p.meta.levels, p.meta.level_mode.data(), p.meta.fibers, p.meta.nnz, anc.data(),
                                 p.fiber_ptr.get(), p.leaf.get(), p.vals.get(), rank, trees);
}

std::vector<std::uint32_t> hot_row_ids(const std::uint32_t* host, std::uint64_t n, bool runs, std::uint64_t limit) {
    use_device();
    const DeviceArray<std::uint32_t> a(host, n);
    const HotRemap m = remap_hot_rows(a.get(), n, runs, limit);
    std::vector<std::uint32_t> out(host, host + n);
    if (m.copies) m.ids.download(out.data());
    return out;
}

void add_hot_rows(std::vector<ResidentTensor::Impl::Part>& parts) {
    const bool below_root = parts.size() >= 2;
    for (ResidentTensor::Impl::Part& p : parts) {
        const int levels = p.meta.levels;
        p.hot.clear();
        p.hot.resize(static_cast<std::size_t>(levels) + 1);
        for (int l = 0; l <= (below_root ? levels : 0); ++l) {
            const bool leaves = l == levels;
            p.hot[static_cast<std::size_t>(l)] =
                remap_hot_rows(leaves ? p.leaf.get() : p.anc[static_cast<std::size_t>(l)].get(),
                               leaves ? p.meta.nnz : p.meta.fibers, !leaves);
        }
    }
}

ResidentTensor::ResidentTensor(const std::vector<Fibers>& parts, std::uint64_t tiles_rank)
    : impl_(std::make_unique<Impl>()) {
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
    // the tiles once every tree is up, so that their room checks see all of them
    add_hot_rows(impl_->parts);  // first: a hot root takes no tiles
    for (Impl::Part& dp : impl_->parts) add_shared_tiles(dp, tiles_rank, impl_->parts.size());
    t1.record();
    upload_s_ = Event::seconds(t0, t1);
}

namespace {

// counts[i] = the nonzeros whose mode-`mode` index is i (counts zeroed).
template <class Count>
__global__ void blco_row_count_kernel(BlcoView v, int mode, Count* counts) {
    for (std::uint64_t z = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; z < v.nnz;
         z += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        std::uint64_t lo = 0, hi = v.blocks;
        while (hi - lo > 1) {
            const std::uint64_t mid = (lo + hi) / 2;
            if (v.block_ptr[mid] <= z) lo = mid;
            else hi = mid;
        }
        atomicAdd(&counts[blco_index(v, mode, v.keys[z], lo)], Count{1});
    }
}

// Per mode, the most nonzeros that add into one output row, counted in `Count`, and the rows past
// the hot-row limit (each nonzero may be a flush: BLCO's order scatters a row's nonzeros).
template <class Count>
void count_rows_in(ResidentTensor::Impl::BlcoArrays& a, std::uint64_t nnz) {
    BlcoView v;
    v.nnz = nnz, v.blocks = a.blocks, v.keys = a.keys.get(), v.block_ptr = a.block_ptr.get();
    for (std::size_t m = 0; m < a.dims.size(); ++m) v.high[m] = a.high[m].get(), v.shift[m] = a.shift[m], v.width[m] = a.width[m];
    a.longest_row.clear(), a.hot.clear();
    DeviceArray<Count> top(1);
    for (std::size_t m = 0; m < a.dims.size(); ++m) {
        DeviceArray<Count> counts(a.dims[m]);
        check(cudaMemset(counts.get(), 0, a.dims[m] * sizeof(Count)), "clearing the row counts");
        check(cudaMemset(top.get(), 0, sizeof(Count)), "clearing the row counts");
        blco_row_count_kernel<<<grid_for(nnz), 256>>>(v, static_cast<int>(m), counts.get());
        max_kernel<<<grid_for(a.dims[m]), 256>>>(counts.get(), a.dims[m], top.get());
        Count host = 0;
        check(cudaMemcpy(&host, top.get(), sizeof host, cudaMemcpyDeviceToHost), "counting the output rows");
        a.longest_row.push_back(host);
        a.hot.emplace_back();
        if (const std::uint64_t limit = hot_chain_limit(); host > limit)
            a.hot.back() = upload_hot_slots(download_chains(counts, 1), limit);
    }
}

// 32-bit counts where no row can reach 2^32 nonzeros (half the memory), else 64-bit (sweep
// 71a F4: a row of 2^32 wrapped and chose too few fp32 copies).
void count_rows(ResidentTensor::Impl::BlcoArrays& a, std::uint64_t nnz) {
    if (nnz < (std::uint64_t{1} << 32))
        count_rows_in<unsigned>(a, nnz);
    else
        count_rows_in<unsigned long long>(a, nnz);
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
    count_rows(*a, b.nnz);
    impl_->blco = std::move(a);
    t1.record();
    upload_s_ = Event::seconds(t0, t1);
}

ResidentTensor::ResidentTensor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ResidentTensor::~ResidentTensor() = default;
ResidentTensor::ResidentTensor(ResidentTensor&&) noexcept = default;

std::uint64_t ResidentTensor::device_bytes() const {
    std::uint64_t b = impl_->vals.size() * 4 + (impl_->copies.size() + impl_->hot_copies.size()) * 4;
    for (const HotSlots& h : impl_->coo_hot) b += h.bytes();
    for (const auto& i : impl_->idx) b += i.size() * 4;
    if (const auto& a = impl_->blco) {
        b += a->keys.size() * 8 + a->vals.size() * 4 + a->block_ptr.size() * 8;
        for (const auto& h : a->high) b += h.size() * 8;
        for (const HotSlots& h : a->hot) b += h.bytes();
    }
    for (const Impl::Part& p : impl_->parts) {
        b += p.fiber_ptr.size() * 8 + p.leaf.size() * 4 + p.vals.size() * 4;
        for (const auto& a : p.anc) b += a.size() * 4;
        for (const HotRemap& h : p.hot) b += h.ids.size() * 4 + h.rows.size() * sizeof(HotRow);
    }
    return b + shared_tiles_bytes();
}

namespace {

// Whether tree p's launch for mode at rank R runs over its shared-memory tiles (launch(),
// shared_tiles() and hot_rows() ask alike).
bool tiles_run(const ResidentTensor::Impl::Part& p, int mode, std::uint64_t R) {
    return p.tiles && shared_tiles_apply(*p.tiles, mode, R);
}

}  // namespace

std::uint64_t ResidentTensor::shared_tiles_bytes() const {
    std::uint64_t b = 0;
    for (const Impl::Part& p : impl_->parts)
        if (const auto& t = p.tiles) b += (t->row.size() + t->jk.size() + t->vals.size()) * 4 + t->items.size() * 16;
    return b;
}

ResidentTensor::TileTraffic ResidentTensor::shared_tiles(int mode, std::uint64_t R) const {
    TileTraffic sum;
    for (const Impl::Part& p : impl_->parts)
        if (tiles_run(p, mode, R)) {
            sum.blocks += p.tiles->items.size();
            sum.row_adds += p.tiles->row_runs;
            sum.nonzeros += p.meta.nnz;
        }
    if (sum.blocks) sum.block_bytes = tile_bytes(R);
    return sum;
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

namespace {

// Nonzeros a resident COO's team walks (coo_group.hpp): resident teams of 8 lanes (rank 32's),
// 2,048 threads an SM, at every rank (each rank's own teams measured no better for COO, session
// 78 call 1: see coo_group.hpp). TENSORSCOPE_COO_GROUP=N forces N, for comparisons. A streamed
// chunk's teams keep kCooGroup (gpu_streamed.cu).
std::uint64_t coo_group_for(std::uint64_t nnz) {
    const std::uint64_t teams = coo_resident_teams(static_cast<std::uint64_t>(sm_count()), 8);
    return coo_group(nnz, teams, env_unsigned("TENSORSCOPE_COO_GROUP", 0));
}

// A resident BLCO's at rank R (blco_group): its own rule, over the rank's own teams.
std::uint64_t blco_group_for(std::uint64_t nnz, std::uint64_t R) {
    const std::uint64_t lanes = coo_team_lanes(R);
    const std::uint64_t teams = coo_resident_teams(static_cast<std::uint64_t>(sm_count()), lanes);
    return blco_group(nnz, teams, lanes, env_unsigned("TENSORSCOPE_COO_GROUP", 0));
}

}  // namespace

void ResidentTensor::Impl::measure_coo_shape() {
    coo_group = coo_group_for(nnz);
    const std::vector<const std::uint32_t*> index = coo_index();
    coo_shape.assign(index.size(), CooModeShape{});
    coo_hot.clear();
    coo_hot.resize(index.size());
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
        row_chain_kernel<<<grid_for(nnz), 256>>>(idx_m, nnz, coo_group, counts.get());
        max_kernel<<<grid_for(s.rows), 256>>>(counts.get(), s.rows, longest.get());
        unsigned long long top = 0;
        longest.download(&top);
        s.longest_chain = top / coo_group;
        // the rows that take copies of their own where the output's copies do not fit (launch_resident_coo)
        if (const std::uint64_t limit = hot_chain_limit(); s.longest_chain > limit)
            coo_hot[m] = upload_hot_slots(download_chains(counts, coo_group), limit);
    }
}

namespace {

// The COO kernels into `out`: the team kernel, `group` nonzeros a team, where rows are whole
// float4s, sorting tiles first where key_bits > 0 (the bits of the mode's largest index); the
// warp kernel (R % 4 != 0) takes only the fp64 output.
void launch_coo_kernels(std::uint64_t nnz, int order, const std::uint32_t* const* idx, const float* vals, int mode,
                        std::uint64_t R, const float* const* factors, CooOut out, cudaStream_t stream,
                        std::uint64_t group = kCooGroup, int key_bits = 0) {
    IndexPtrs ip{};
    FactorPtrs fp{};
    for (int m = 0; m < order; ++m) ip.p[m] = idx[m], fp.f[m] = factors[m];
    if (nnz == 0) return;
    if (use_team(R)) {
        Factor4Ptrs fp4{};
        for (int m = 0; m < order; ++m) fp4.f[m] = reinterpret_cast<const float4*>(factors[m]);
        const auto R4 = static_cast<std::uint32_t>(R / 4);
        const std::uint64_t groups = (nnz + group - 1) / group;
        with_team_size(R4, [&](auto team_tag) {
            constexpr int team = decltype(team_tag)::value;
            auto pick = [&](auto order_tag, auto hot_tag) {
                constexpr int ord = decltype(order_tag)::value;
                constexpr bool hot = decltype(hot_tag)::value;
                if (key_bits > 0) {
                    const std::uint64_t tiles = (nnz + kCooTile - 1) / kCooTile;
                    coo_tile_kernel<team, ord, hot>
                        <<<grid_for(tiles * kCooTileThreads, kCooTileThreads), kCooTileThreads, 0, stream>>>(
                            nnz, order, mode, R4, key_bits, ip, vals, fp4, out);
                    return;
                }
                coo_team_kernel<team, ord, hot>
                    <<<grid_for(groups * team), 256, 0, stream>>>(nnz, group, order, mode, R4, ip, vals, fp4, out);
            };
            // the hot rows' lookups only where there are some
            auto with_hot = [&](auto order_tag) {
                if (out.hot.words)
                    pick(order_tag, std::true_type{});
                else
                    pick(order_tag, std::false_type{});
            };
            // The order compiled in where it is 3, 4 or 5 (coo_term): the pointers leave the stack
            // frame and a nonzero's loads unroll. It takes 52-60 registers against 40 (four blocks
            // of 256 an SM against six), yet on one H100 (session 90, h100-session90-coo-order.json,
            // rank 32) COO ran 1.32-1.65x faster on delicious-4d's shape, 1.36-1.47x on the nell-2
            // shape and 1.24-1.42x on the uniform one (checked on the first two); order 5 (session
            // 92, h100-session92.json call 2, alternating twice) 1.39-2.05x on a
            // vast-2015-mc1-5d-shaped tensor and 2.06-2.63x on a uniform 5-order one, checked
            // within 7.1e-6. The highest order compiled in: 5, or 4 with TENSORSCOPE_COO_ORDER=4,
            // or 0 with =0 (the order at run time), for comparisons.
            const int top = env_is("TENSORSCOPE_COO_ORDER", "0") ? 0 : env_is("TENSORSCOPE_COO_ORDER", "4") ? 4 : 5;
            if (order > top)
                with_hot(std::integral_constant<int, 0>{});
            else if (order == 3)
                with_hot(std::integral_constant<int, 3>{});
            else if (order == 4)
                with_hot(std::integral_constant<int, 4>{});
            else if (order == 5)
                with_hot(std::integral_constant<int, 5>{});
            else
                with_hot(std::integral_constant<int, 0>{});
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

void launch_fiber_mttkrp(const Fibers& meta, const std::uint32_t* const* anc, const std::uint64_t* fiber_ptr,
                         std::uint64_t base, const std::uint32_t* leaf, const float* vals, int mode, std::uint64_t R,
                         const float* const* factors, float* out, cudaStream_t stream, HotTarget hot) {
    if (meta.fibers == 0) return;
    IndexPtrs ap{};
    FactorPtrs lf{};
    const int target = level_of(meta, mode);
    for (int l = 0; l <= meta.levels; ++l) lf.f[l] = factors[meta.level_mode[static_cast<std::size_t>(l)]];
    for (int l = 0; l < meta.levels; ++l) ap.p[l] = anc[l];
    if (use_team(R)) {
        TeamTree t = team_tree(meta, anc, fiber_ptr, base, leaf, vals, mode, factors);
        t.out_rows = hot.out_rows, t.hot = reinterpret_cast<float4*>(hot.copies);
        launch_team_kernel(t, R, out, stream);
    } else {
        fiber_kernel<<<grid_for((meta.fibers + kGroup - 1) / kGroup * 32), 256, 0, stream>>>(
            meta.fibers, meta.levels, target, R, ap, lf, fiber_ptr, base, leaf, vals, out, hot);
    }
    check(cudaGetLastError(), "launching the CSF MTTKRP kernel");
}

// TENSORSCOPE_BLCO_GENERIC=1 runs the generic team kernel on one-block tensors too, for comparisons.
bool blco_generic() {
    return env_is("TENSORSCOPE_BLCO_GENERIC", "1");
}

void launch_blco_mttkrp(const BlcoTable& table, const std::uint64_t* keys, const float* vals, std::uint64_t base,
                        std::uint64_t nnz, int mode, std::uint64_t R, const float* const* factors, float* out,
                        cudaStream_t stream, OutputCopies copies, std::uint64_t group) {
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
    if (!use_team(R)) {  // one output (its hot rows' copies aside): the warp kernel's atomics are per nonzero anyway
        FactorPtrs fp{};
        for (int m = 0; m < order; ++m) fp.f[m] = factors[m];
        blco_kernel<<<grid_for(nnz * 32), 256, 0, stream>>>(v, order, mode, R, fp, out, copies.hot);
    } else {
        const auto R4 = static_cast<std::uint32_t>(R / 4);
        const std::uint64_t groups = (nnz + group - 1) / group;
        float4* out4 = reinterpret_cast<float4*>(out);
        with_team_size(R4, [&](auto team_tag) {
            constexpr int team = decltype(team_tag)::value;
            auto launch = [&](auto kernel) {
                kernel<<<grid_for(groups * team), 256, 0, stream>>>(v, group, order, mode, R4, fp4, out4, copies.count,
                                                                    copies.stride / 4, copies.hot);
            };
            const bool one = table.blocks == 1 && !blco_generic();
            auto pick = [&](auto hot_tag) {  // the hot rows' lookups only where there are some
                constexpr bool hot = decltype(hot_tag)::value;
                if (one && order == 3)
                    launch(blco_team_kernel<team, 3, true, hot>);
                else if (one && order == 4)
                    launch(blco_team_kernel<team, 4, true, hot>);
                else if (one && order == 5)
                    launch(blco_team_kernel<team, 5, true, hot>);
                else
                    launch(blco_team_kernel<team, 0, false, hot>);
            };
            if (copies.hot.words)
                pick(std::true_type{});
            else
                pick(std::false_type{});
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

unsigned copies_cap() {  // read at each launch: the tests set it for one check
    const unsigned long v = env_unsigned("TENSORSCOPE_BLCO_COPIES", 0);
    return v >= 1 ? static_cast<unsigned>(std::min<unsigned long>(v, kMaxCopies)) : kMaxCopies;
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

// The hot rows of tree p where `mode` is one of its levels and has some (null otherwise).
const HotRemap* hot_remap(const ResidentTensor::Impl::Part& p, int mode) {
    for (std::size_t l = 0; l < p.hot.size(); ++l)
        if (p.meta.level_mode[l] == mode && p.hot[l].copies) return &p.hot[l];
    return nullptr;
}

// Tree p's device arrays for mode's launch: its ancestors' and leaves', the mode's level
// renumbered to its hot rows' copies where h is given (those copies' rows at `copies`).
struct TreeArrays {
    std::vector<const std::uint32_t*> anc;
    const std::uint32_t* leaf = nullptr;
    HotTarget hot;
};
TreeArrays tree_arrays(const ResidentTensor::Impl::Part& p, int mode, const HotRemap* h, float* copies) {
    TreeArrays a;
    for (const auto& x : p.anc) a.anc.push_back(x.get());
    a.leaf = p.leaf.get();
    if (h) {
        const int level = level_of(p.meta, mode);
        (level == p.meta.levels ? a.leaf : a.anc[static_cast<std::size_t>(level)]) = h->ids.get();
        a.hot = HotTarget{h->bound, copies};
    }
    return a;
}

// A COO's or BLCO's mode's hot rows where its launch takes them: one output copy is all that
// fits (`copies`; null otherwise: the copies keep its chains short), and some row's chain is long.
const HotSlots* applied_hot(const std::vector<HotSlots>& hot, int mode, unsigned copies) {
    const HotSlots* h = &hot[static_cast<std::size_t>(mode)];
    return copies == 1 && h->copies ? h : nullptr;
}

// applied_hot's, their copies zeroed in buf for a launch at rank R.
const HotSlots* hot_rows_for(const std::vector<HotSlots>& hot, int mode, unsigned copies, std::uint64_t R,
                             DeviceArray<float>& buf) {
    const HotSlots* h = applied_hot(hot, mode, copies);
    if (h) zeroed_copies(buf, h->copies * R, 1);
    return h;
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
    const HotSlots* hot = hot_rows_for(t.coo_hot, mode, o.copies, R, t.hot_copies);
    if (hot) o.hot = hot->view(t.hot_copies.get());
    // the tile sort where the copies leave the team kernel's chains long; not where hot rows cut
    // them (its sort was for their accuracy; it is slower where rows are not scattered, such as a
    // COO's first mode, sorted already). TENSORSCOPE_COO_KERNEL=team|tile forces one, for comparisons.
    const char* force = std::getenv("TENSORSCOPE_COO_KERNEL");
    const bool tiles = force ? std::string(force) == "tile" : !hot && shape.longest_chain / o.copies > kMaxCooChain;
    int key_bits = 0;  // all ones in key_bits exceed every row, so a tile's padding sorts last
    if (tiles)
        while (key_bits < 32 && (std::uint64_t{1} << key_bits) - 1 < shape.rows) ++key_bits;
    const std::uint64_t n = shape.rows * R;
    if (!out_d) {
        if (o.copies != 1) throw Error("the COO MTTKRP needs its fp64 output for this mode (several output copies)");
        o.f32 = reinterpret_cast<float4*>(out_f), o.stride4 = n / 4;
        launch_coo_kernels(t.nnz, order, idx.data(), t.vals.get(), mode, R, factors, o, nullptr, t.coo_group, key_bits);
        if (hot) add_hot_copies(hot->rows, R, t.hot_copies.get(), out_f);
        return;
    }
    float* copies = zeroed_copies(t.copies, n, o.copies);
    o.f32 = reinterpret_cast<float4*>(copies), o.stride4 = n / 4;
    launch_coo_kernels(t.nnz, order, idx.data(), t.vals.get(), mode, R, factors, o, nullptr, t.coo_group, key_bits);
    sum_copies_kernel<<<grid_for(n), 256>>>(copies, o.copies, n, out_d);
    check(cudaGetLastError(), "summing the output copies");
    if (hot) add_hot_copies(hot->rows, R, t.hot_copies.get(), out_d);
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

void launch_blco(const ResidentTensor::Impl::BlcoArrays& a, DeviceArray<float>& copy_buf, DeviceArray<float>& hot_buf,
                 std::uint64_t nnz, int mode, std::uint64_t R, const float* const* factors, float* out_f) {
    BlcoTable table;
    table.blocks = a.blocks, table.block_ptr = a.block_ptr.get(), table.shift = a.shift, table.width = a.width;
    for (const auto& h : a.high) table.high.push_back(h.get());
    const unsigned count = use_team(R) ? output_copies(a, mode, R) : 1;
    const std::uint64_t group = blco_group_for(nnz, R);
    if (count == 1) {
        OutputCopies one;
        const HotSlots* hot = hot_rows_for(a.hot, mode, count, R, hot_buf);  // the warp kernel's too
        if (hot) one.hot = hot->view(hot_buf.get());
        launch_blco_mttkrp(table, a.keys.get(), a.vals.get(), 0, nnz, mode, R, factors, out_f, nullptr, one, group);
        if (hot) add_hot_copies(hot->rows, R, hot_buf.get(), out_f);
        return;
    }
    const std::uint64_t n = a.dims[static_cast<std::size_t>(mode)] * R;
    float* copies = zeroed_copies(copy_buf, n, count);
    launch_blco_mttkrp(table, a.keys.get(), a.vals.get(), 0, nnz, mode, R, factors, copies, nullptr,
                       OutputCopies{count, n}, group);
    sum_copies_kernel<<<grid_for(n), 256>>>(copies, count, n, out_f);
    check(cudaGetLastError(), "summing the output copies");
}

}  // namespace

void ResidentTensor::launch(int mode, std::uint64_t R, const float* const* factors, float* out_f, double* out_d) const {
    DeviceScope on(impl_->device);
    if (const auto& a = impl_->blco) {
        launch_blco(*a, impl_->copies, impl_->hot_copies, impl_->nnz, mode, R, factors, out_f);
        return;
    }
    if (impl_->coo) {
        launch_resident_coo(*impl_, mode, R, factors, out_f, out_d);
        return;
    }
    // the trees whose tiles run this mode go over them (MM-CSF's partition rooted at the mode,
    // where its fibers are short); the others through the fiber kernels, adding into the same
    // output (every kernel adds by atomics)
    std::vector<const Impl::Part*> rest;
    for (const Impl::Part& p : impl_->parts) {
        if (tiles_run(p, mode, R))
            launch_shared_tiles(*p.tiles, R, factors, out_f);
        else
            rest.push_back(&p);
    }
    if (rest.empty()) return;
    // the trees' hot rows (a root's, or MM-CSF's partitions whose leaves or a level between are
    // the mode): their copies one tree after another, summed into the rows after the launches
    std::vector<std::pair<const HotRemap*, std::uint64_t>> hot_rows;  // each tree's, where its copies start
    std::uint64_t hot_total = 0;
    for (const Impl::Part* part : rest) {
        const HotRemap* h = hot_remap(*part, mode);
        hot_rows.emplace_back(h, hot_total);
        if (h) hot_total += h->copies;
    }
    float* hot = hot_total ? zeroed_copies(impl_->copies, hot_total * R, 1) : nullptr;
    if (rest.size() <= kMaxTrees && use_team(R)) {
        // the trees (MM-CSF's partitions) in one launch; groups of nonzeros where fibers were
        // not already cut to a bounded length
        TeamTrees trees;
        std::vector<std::uint64_t*> scratch;
        for (std::size_t k = 0; k < rest.size(); ++k) {
            const Impl::Part& p = *rest[k];
            const TreeArrays a = tree_arrays(p, mode, hot_rows[k].first, hot + hot_rows[k].second * R);
            TeamTree& t = trees.tree[trees.count];
            t = team_tree(p.meta, a.anc.data(), p.fiber_ptr.get(), 0, a.leaf, p.vals.get(), mode, factors);
            t.out_rows = a.hot.out_rows, t.hot = reinterpret_cast<float4*>(a.hot.copies);
            if (!p.meta.split_fibers)
                if (std::uint64_t* s = cut_by_nonzeros(t, p.meta.nnz, nullptr)) scratch.push_back(s);
            trees.first_group[trees.count + 1] = trees.first_group[trees.count] + t.groups;
            ++trees.count;
        }
        if (trees.count == 1) launch_team_kernel(trees.tree[0], R, out_f, nullptr);
        else launch_team_kernel(trees, R, out_f, nullptr);
        check(cudaGetLastError(), "launching the CSF MTTKRP kernel");
        for (std::uint64_t* s : scratch) check(cudaFreeAsync(s, nullptr), "freeing the MTTKRP work groups");
    } else {
        // a launch a tree (ranks the team kernels do not take, or more trees than one launch holds)
        for (std::size_t k = 0; k < rest.size(); ++k) {
            const Impl::Part& p = *rest[k];
            const TreeArrays a = tree_arrays(p, mode, hot_rows[k].first, hot + hot_rows[k].second * R);
            launch_fiber_mttkrp(p.meta, a.anc.data(), p.fiber_ptr.get(), 0, a.leaf, p.vals.get(), mode, R, factors,
                                out_f, nullptr, a.hot);
        }
    }
    for (const auto& [h, at] : hot_rows)
        if (h) add_hot_copies(h->rows, R, hot + at * R, out_f);
}

ResidentTensor::HotRowUse ResidentTensor::hot_rows(int mode, std::uint64_t R) const {
    HotRowUse use;
    auto add = [&](const DeviceArray<HotRow>& rows, std::uint64_t copies) {
        use.rows += rows.size(), use.copies += copies;
    };
    const auto m = static_cast<std::size_t>(mode);
    const HotSlots* slots = nullptr;
    if (const auto& a = impl_->blco) {  // BLCO's warp kernel has one output (COO's adds in fp64)
        slots = applied_hot(a->hot, mode, use_team(R) ? output_copies(*a, mode, R) : 1);
    } else if (impl_->coo) {
        const CooModeShape& shape = impl_->coo_shape[m];
        if (use_team(R) && impl_->nnz)
            slots = applied_hot(impl_->coo_hot, mode, copies_for(shape.longest_chain, shape.rows, R));
    } else {  // as launch() chooses: every tree the fiber kernels run, those whose tiles run this mode aside
        for (const Impl::Part& p : impl_->parts)
            if (const HotRemap* h = tiles_run(p, mode, R) ? nullptr : hot_remap(p, mode)) add(h->rows, h->copies);
    }
    if (slots) add(slots->rows, slots->copies);
    return use;
}

void ResidentTensor::reserve_copies(int mode, std::uint64_t R) const {
    if (!impl_->coo || !use_team(R) || impl_->nnz == 0) return;
    DeviceScope on(impl_->device);
    const CooModeShape& shape = impl_->coo_shape[static_cast<std::size_t>(mode)];
    const unsigned copies = copies_for(shape.longest_chain, shape.rows, R);
    const std::uint64_t n = shape.rows * R * copies;
    if (impl_->copies.size() < n) impl_->copies = DeviceArray<float>(n);
    hot_rows_for(impl_->coo_hot, mode, copies, R, impl_->hot_copies);
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
