// The cuda backend of MTTKRP: flattens a format into the plain arrays of gpu_mttkrp.hpp (fp32
// values and factors, 32-bit indices), runs it on the GPU and converts the result back.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "cuda/env_switch.hpp"
#include "cuda/gpu_mttkrp.hpp"
#include "kernels/csf_flatten.hpp"
#include "kernels/mttkrp_cuda.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/mttkrp.hpp"

namespace tscope {

namespace {

using csf_flat::FlatTree;
using csf_flat::flatten;

// The longest fiber of a flattened tree (its nonzeros).
std::uint64_t longest_fiber(const FlatTree& t) {
    std::uint64_t longest = 0;
    const auto F = static_cast<std::int64_t>(t.fiber_ptr.size()) - 1;
#pragma omp parallel for reduction(max : longest)
    for (std::int64_t f = 0; f < F; ++f)
        longest = std::max(longest, t.fiber_ptr[static_cast<std::size_t>(f) + 1] - t.fiber_ptr[static_cast<std::size_t>(f)]);
    return longest;
}

// How a CSF tree runs. Since session 27 every CSF tree runs B-CSF's fiber groups: a tree with
// long fibers has them split on upload (as MM-CSF's partitions and B-CSF's trees are; since
// session 30 at gpu_fiber_split(), below, 128 before), so its teams walk short fibers, as B-CSF's
// do, and CSF differs from B-CSF on the GPU by what it stores, not by how fast it runs. The
// history, on one H200, every row checked against cpu-ref:
// - CSF's own kernel first cut a tree into equal nonzero groups walked by a flat loop (long
//   fibers shared between teams). On the evaluation's generated tensors, whose fibers are all
//   short, it measured 1.2-3.5x B-CSF (uniform-3d 335 against 117 us a sweep; session 25,
//   docs/bench/gpu-advisor.json at de48527): its teams walked 18 nonzeros or more each where
//   B-CSF's walked 8.
// - Trees with no fiber over 128 nonzeros ran as B-CSF's fiber groups (session 26,
//   h200-issue19-session26.json): uniform-3d 147 against 672 us a sweep, blocks-3d 99 against
//   606, Last.fm 178 against 374, the uniform tensor of nell-2's dims 2.92-3.18 ms a mode
//   against 3.83-4.28.
// - Small trees with long fibers joined them (cut to the device, fill_device; session 27): MovieLens
//   72-74 against 327-378 us, JF17K 109-113 against 490-525.
// - Large trees with long fibers split on upload (session 27, h200-issue19-session27.json call
//   5, alternating in one binary): the nell-2 shape 2.14-2.25 ms a mode against 2.45-2.69 for
//   the flat loop (B-CSF 2.13-2.24 in call 4); delicious-4d's mode 1 9.13-9.16 ms against
//   11.29-11.30 (session 28, alternating, two rounds). The split runs on the host with each
//   upload: a few seconds on 140M nonzeros, paid once by a resident tensor or a CPD, but once a
//   repeat by `bench`, which uploads for every run.
// TENSORSCOPE_CSF_LONG=flat keeps the flat loop for large trees with long fibers, and
// TENSORSCOPE_CSF_SHORT=nonzero-groups for every CSF tree, for comparisons.
enum class CsfRun { FiberGroups, SplitThenGroups, FlatLoop };

// The most nonzeros a fiber of the CSF family holds on the GPU: longer ones are cut into
// sub-fibers on upload ("to provide better work balance on GPU, long fibers are split into
// sub-fibers", mm-csf Sec. 6), whatever length the format itself was split at (B-CSF's
// --fiber-threshold, 128 by default, stays what the format stores and the CPU runs). On a
// power-law tensor most nonzeros sit in its long fibers, and a team walks its fibers' nonzeros
// one after another, so shorter pieces put more of them in flight at once. On one H200 (session
// 30, h200-issue19-session30.json calls 3-4, nell-2 shape, rank 32, alternating) B-CSF took
// 2.12-2.25 ms a mode split at 128, 1.93-2.09 at 48, 1.87-1.99 at 32, 1.87-1.99 at 24 and
// 1.79-1.92 at 16 (one round); CSF 2.13-2.25 at 128, 1.89-2.02 at 32; MM-CSF 2.32-2.39 at 128,
// 1.88-1.98 at 32, 1.86-1.96 at 16 (one round); the uniform shape's fibers (1.5 nonzeros) ran
// as before (B-CSF 2.47-2.58 at 32 and 128), the real tensors within 5 us a mode either way.
// Session 31 (h200-issue19-session31.json call 1, alternating) took it to 16: B-CSF 1.78-1.92 ms
// a mode at 16 against 1.87-1.98 at 32 and 1.79-1.92 at 8, MM-CSF 1.86-1.96 against 1.87-1.98;
// on the real tensors, where 16 also cuts the small trees finer (fill_device), a CSF, B-CSF or
// MM-CSF sweep took MovieLens 41-47 us against 52-60 at 32, Last.fm 69-86 against 76-96 and
// JF17K 94-111 against 97-112 (calls 1 and 4, with --check). The CPD's device-built trees
// (mttkrp_slots.cpp), cut at 32 instead of 128, took an iteration's MTTKRPs on the nell-2 shape
// from 6.59-6.71 to 5.76-5.87 ms (B-CSF) and from 6.96-7.09 to 5.85-5.94 (MM-CSF) (call 2); at 16
// they took 5.53-5.59 and 5.78-5.85 against 5.81-5.85 and 5.90-5.98 at 32 (call 4), and take
// this length since. Delicious-4d's MM-CSF ran alike at 16, 32 and 128 (10.1-17.0 ms a mode).
// TENSORSCOPE_FIBER_SPLIT=N sets another length, for comparisons.
// The trees' levels stay in the order the format was built in. SPLATT's order (default_mode_order:
// the others by increasing length) with the leaves from the shorter mode instead (1-3-2, 2-3-1,
// 3-1-2: a smaller factor to gather from, over 7-36% more fibers) ran CSF and B-CSF 1-10% slower
// on the nell-2 and uniform shapes (same calls, --mode-order); where a mode's factor fits L1 and
// the others are past L2 the bench and the device CPD build the GPU's trees with it at the leaves
// (kernels/gpu_level_order.cpp).
constexpr std::uint64_t kGpuFiberSplit = 16;

CsfRun csf_run(std::uint64_t longest, bool small) {
    if (gpu::env_is("TENSORSCOPE_CSF_SHORT", "nonzero-groups")) return CsfRun::FlatLoop;
    if (small || longest <= gpu_fiber_split()) return CsfRun::FiberGroups;  // a small one cut by fill_device
    return gpu::env_is("TENSORSCOPE_CSF_LONG", "flat") ? CsfRun::FlatLoop : CsfRun::SplitThenGroups;
}

// The teams the device holds at once (SMs x 2048 threads / 8 lanes); 0 without a device or where
// TENSORSCOPE_FIBER_FILL=0 turns the cut below off.
std::uint64_t resident_teams() {
    if (gpu::env_is("TENSORSCOPE_FIBER_FILL", "0")) return 0;
    const GpuInfo gpu = query_gpu();
    if (!gpu.available || gpu.multiprocessors <= 0) return 0;
    return static_cast<std::uint64_t>(gpu.multiprocessors) * 2048 / 8;
}

// A tree too small for the device: fewer than 8 fibers for each of its resident teams, so that
// groups of 8 fibers leave most teams idle while a few walk the long fibers.
bool is_small(const FlatTree& t, std::uint64_t teams) { return teams > 0 && t.fiber_ptr.size() - 1 < 8 * teams; }

// A tree run as fiber groups that is too small for the device, cut finer: its fibers split at
// max(32, nnz / teams) nonzeros (at most gpu_fiber_split()) and grouped a few to a team
// (csf_flat::fill_cut), so that no team walks far more than the others. Returns the fibers per
// group (0: the kernel's 8). `longest`: its longest fiber.
// Why: on one H200 MovieLens's B-CSF tree for mode 1 (2,782 fibers of up to 128 nonzeros in 348
// groups for 33,792 team slots, the longest group 761 nonzeros) took 92-94 us, its mode-2 tree
// (8,114 groups, the longest 78) 26-28 us, while CSF's flat loop, its nonzero groups sized to fill
// the device (about 3 nonzeros each), took 103-145 us (h200-issue19-session26.json). Cut this
// way (session 27, H200, alternating with the uncut trees in one binary, every row checked
// against cpu-ref; docs/bench/h200-issue19-session27.json), B-CSF's sweep went from 202-215 to
// 56-59 us on MovieLens, 169-181 to 91-94 on Last.fm, 292-297 to 88-96 on JF17K and 104-110 to
// 76-79 on blocks-3d; MM-CSF's from 266-276 to 60-63, 194-200 to 89-95 and 369-379 to 87-92; the
// nell-2 shape's trees are large and were not cut (2.13-2.24 ms a mode both ways).
std::uint64_t fill_device(FlatTree& t, std::uint64_t longest, std::uint64_t teams) {
    const csf_flat::FillCut c =
        csf_flat::fill_cut(t.fiber_ptr.size() - 1, t.leaf.size(), teams, longest, gpu_fiber_split());
    if (c.split_at) t = csf_flat::split_fibers(std::move(t), c.split_at);
    return c.group;
}

// A large tree's fibers are ordered by length under each parent, longest first, on the device once
// uploaded (Fibers::order_on_device, engine/cuda/fiber_length_order.cu; csf_flat::order_by_length
// is its host reference), so that the four teams of a warp walk groups of like lengths.
// Measured on one H200 (session 41, eb65059, ordered on the host then, TENSORSCOPE_FIBER_ORDER,
// h200-issue19-session41.json call 3, rank 32, alternating): on the nell-2 shape B-CSF took
// 1.369-1.505 ms a mode (4,904-5,391 GFLOP/s) against 1.746-1.846 ms in the trees' order, CSF
// 1.368-1.504 against 1.744-1.850, MM-CSF 1.513-1.777 against 1.792-1.914 (two rounds); on the
// uniform shape B-CSF 2.31-2.47 against 2.46-2.59, CSF 2.30-2.46 against 2.49-2.57, MM-CSF
// 2.31-2.81 against 2.53-2.91 (one round). Nsight Compute on B-CSF's mode 1 (nell-2 shape): 31.0
// of a warp's 32 lanes active against 23.8, memory throughput 72% of peak against 56%. Trees too
// small for the device (is_small: the shared real tensors', cut to the device by fill_device) keep
// their order: JF17K's ran 5-7 us a mode slower ordered (21-30 against 18-26), Last.fm's 5-7
// faster, MovieLens's mixed (one round each, every row within 1.6e-6 of cpu-ref).
// TENSORSCOPE_FIBER_ORDER=tree keeps every tree's order, for comparisons. Ordered on the host, the
// nell-2 bench's seven uploads took 4-8 s longer in all on the H200's 16-core host (a stable sort
// then; placed by counting since, 0.87-0.89 s against 1.72-1.89 for a synthetic tree of 19M fibers
// on a 2-core VM); on the device the same kernels ran as fast and the host built sooner
// (session 42, fiber_length_order.cu has the numbers). Where the device lacks the memory to order
// a tree, the tree keeps its order.
// split: the trees' fibers are already cut to a bounded length (B-CSF's build); split_at > 0 cuts
// them here (MM-CSF's, and B-CSF's where its threshold is longer); csf: a CSF tree, its long
// fibers cut here too (at gpu_fiber_split(), or to the device where it is small; see csf_run).
// Either way the kernel walks whole-fiber groups and need not balance them;
// TENSORSCOPE_CSF_LONG=flat leaves a large CSF tree's long fibers to the flat loop.
template <class I, class V>
std::shared_ptr<gpu::ResidentTensor> upload_trees(const std::vector<const CsfFormat<I, V>*>& trees,
                                                  std::uint64_t tiles_rank, bool split = false,
                                                  std::uint64_t split_at = 0, bool csf = false) {
    const std::uint64_t teams = resident_teams();
    const bool by_length = !gpu::env_is("TENSORSCOPE_FIBER_ORDER", "tree");
    std::vector<FlatTree> flat;
    flat.reserve(trees.size());  // the views below point into these trees: no reallocation
    std::vector<gpu::Fibers> parts;
    for (const auto* t : trees) {
        FlatTree& f = flat.emplace_back(split_at ? csf_flat::split_fibers(flatten(*t), split_at) : flatten(*t));
        const bool small = is_small(f, teams);
        const std::uint64_t longest = csf || small ? longest_fiber(f) : 0;  // one pass, where it is asked
        const CsfRun run = csf ? csf_run(longest, small) : CsfRun::FiberGroups;
        if (run == CsfRun::SplitThenGroups) f = csf_flat::split_fibers(std::move(f), gpu_fiber_split());
        const bool grouped = split || split_at > 0 || (csf && run != CsfRun::FlatLoop);
        const std::uint64_t per_group = grouped && small ? fill_device(f, longest, teams) : 0;
        parts.push_back(f.view(t->order));
        parts.back().order_on_device = grouped && !small && by_length;
        parts.back().split_fibers = grouped;
        parts.back().group_fibers = per_group;
    }
    return std::make_shared<gpu::ResidentTensor>(parts, tiles_rank);
}

}  // namespace

std::uint64_t gpu_fiber_split() {
    return std::max<unsigned long>(1, gpu::env_unsigned("TENSORSCOPE_FIBER_SPLIT", kGpuFiberSplit));
}

std::shared_ptr<gpu::ResidentTensor> mttkrp_cuda_upload(const SparseFormat& format, std::uint64_t tiles_rank) {
    for (auto d : format.dims())
        if (d > std::numeric_limits<std::uint32_t>::max()) throw InputError("the CUDA MTTKRP needs every mode shorter than 2^32");
    using Resident = std::shared_ptr<gpu::ResidentTensor>;
    return visit_format(
        format, overloaded{[&]<class I, class V>(const CooFormat<I, V>& f) {
                               return std::make_shared<gpu::ResidentTensor>(flatten(f).view());
                           },
                           [&]<class I, class V>(const CsfFormat<I, V>& f) {
                               return upload_trees<I, V>({&f}, tiles_rank, false, 0, true);
                           },
                           [&]<class I, class V>(const BcsfFormat<I, V>& f) {
                               return upload_trees<I, V>({&f.csf}, tiles_rank, true,
                                                         f.threshold > gpu_fiber_split() ? gpu_fiber_split() : 0);
                           },
                           [&]<class I, class V>(const MmcsfFormat<I, V>& f) {
                               std::vector<const CsfFormat<I, V>*> trees;
                               for (const auto& p : f.partitions) trees.push_back(&p);
                               // its partitions' long fibers split as B-CSF's, at gpu_fiber_split()
                               // (TENSORSCOPE_MMCSF_UNSPLIT=1: whole fibers, cut into nonzero groups by the kernel)
                               if (gpu::env_is("TENSORSCOPE_MMCSF_UNSPLIT", "1"))
                                   return upload_trees(trees, tiles_rank);
                               return upload_trees(trees, tiles_rank, false, gpu_fiber_split());
                           },
                           [&]<class I, class V>(const BlcoFormat<I, V>& f) {
                               std::vector<float> vals(f.vals.begin(), f.vals.end());
                               gpu::Blco b;
                               b.nnz = f.vals.size(), b.blocks = f.blocks(), b.keys = f.keys.data(),
                               b.vals = vals.data(), b.block_ptr = f.block_ptr.data();
                               for (const auto& h : f.block_high) b.high.push_back(h.data());
                               b.shift = f.shift, b.width = f.width, b.dims = f.dims();
                               return std::make_shared<gpu::ResidentTensor>(b);
                           },
                           [&](const SparseFormat& f) -> Resident {
                               throw InputError("MTTKRP has no CUDA kernel for " + f.name());
                           }});
}

namespace {

// The GPU's fp32 copy of a factor, converted (and its pages first touched) on every thread:
// factors reach GBs at scale, and a zero-filled std::vector touched them all on one.
template <class Doubles>
Column<float> to_float(const Doubles& v) {
    Column<float> out(v.size());
    const auto n = static_cast<std::int64_t>(v.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = static_cast<float>(v[static_cast<std::size_t>(i)]);
    return out;
}

}  // namespace

void mttkrp_cuda_resident(const gpu::ResidentTensor& tensor, const SparseFormat& format, int mode,
                          const std::vector<DenseMatrix>& factors, DenseMatrix& out, DeviceTiming* timing) {
    if (out.cols > 128) throw InputError("the CUDA MTTKRP supports ranks up to 128");
    std::vector<Column<float>> host_factors(factors.size());
    gpu::Dense dense;
    dense.rank = out.cols;
    dense.mode = mode;
    for (std::size_t m = 0; m < factors.size(); ++m) {
        dense.rows.push_back(format.dims()[m]);
        if (static_cast<int>(m) != mode) host_factors[m] = to_float(factors[m].data);
        dense.factors.push_back(host_factors[m].empty() ? nullptr : host_factors[m].data());
    }
    out.data.resize(out.rows * out.cols);  // written whole by the download, straight into the caller's rows
    dense.out = out.data.data();
    gpu::Timing t;
    tensor.mttkrp(dense, t);
    if (timing) *timing = DeviceTiming{t.upload_s, t.kernel_s, t.download_s};
}

void mttkrp_cuda(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                 DeviceTiming* timing) {
    if (out.cols > 128) throw InputError("the CUDA MTTKRP supports ranks up to 128");
    const auto tensor = mttkrp_cuda_upload(format, out.cols);
    mttkrp_cuda_resident(*tensor, format, mode, factors, out, timing);
    if (timing) timing->upload_s += tensor->upload_seconds();
}

}  // namespace tscope
