// MM-CSF's partitioning on the device (gpu_mmcsf_partition.hpp): the host's blocked pass
// (engine/formats/mmcsf_partition.cpp, which says why its labels are the serial pass's) with each
// of its parallel loops a kernel. Per mode, the fiber ids come from a stable sort of the nonzeros
// by the other modes (sort_permutation), numbered where an index changes. Per block of nonzeros
// in input order: the runs of a fiber's members inside the block (find_runs_kernel), a first guess
// from the lengths at the block's start, then sweeps (each fiber's length at each member given
// the guess, then each nonzero's longest orientation) until the guess stops changing or the
// sweeps run out; the settled prefix is kept and the fibers shortened by it.
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>
#include <utility>

#include "cuda_util.cuh"
#include "device_coo.cuh"
#include "gpu_mmcsf_partition.hpp"
#include "permutation_kernels.cuh"

namespace tscope::gpu {

namespace {

constexpr int kMaxModes = 16;

__device__ inline std::uint64_t first_item() {
    return blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
}
__device__ inline std::uint64_t item_stride() { return gridDim.x * static_cast<std::uint64_t>(blockDim.x); }

// Every mode's fibers as the kernels read them (detail::FiberIds on the host): the fiber through
// each nonzero, each fiber's length now, the nonzeros fiber by fiber (input order inside each),
// where each fiber starts among them (+ the end), where each nonzero is among them; and the
// average lengths that break ties.
struct FiberView {
    int order = 0;
    const std::uint32_t* fid[kMaxModes];
    std::uint32_t* len[kMaxModes];
    const std::uint32_t* members[kMaxModes];
    const std::uint32_t* start[kMaxModes];
    const std::uint32_t* position[kMaxModes];
    double average[kMaxModes];
};

// A fiber's members inside the block: [first, end) of its mode's members (two or more).
struct Run {
    std::uint32_t first, end;
};

// One block's scratch (the host's DynamicBlock): per mode each nonzero's fiber length now, whether
// it is its fiber's only member in the block, the runs of several; the guess and the next one.
// Runs of kLongRun members or more are walked by a warp each, the others by a thread each: a
// power-law tensor's longest fibers hold thousands of a block's members. With a thread a run the
// nell-2 shape's MM-CSF build (this partition and the trees) took 1.05-1.08 s on one H200, with a
// warp a long run 0.39-0.44 s (session 42, calls 3-5).
struct BlockView {
    std::uint64_t lo = 0, n = 0;
    std::uint32_t* cur[kMaxModes];
    std::uint8_t* alone[kMaxModes];
    Run* runs[kMaxModes];
    Run* long_runs[kMaxModes];
    unsigned long long* run_count = nullptr;   // per mode
    unsigned long long* long_count = nullptr;  // per mode
    std::uint8_t* guess = nullptr;
    std::uint8_t* next = nullptr;
};

constexpr std::uint32_t kLongRun = 32;

// Alg. 5 lines 4-13 for one nonzero whose fibers have lengths cur(m): the longest; ties to the
// orientation with the higher average fiber length, then to the lower mode (as the host's longest).
template <class Len>
__device__ inline std::uint8_t longest(const FiberView& f, Len cur) {
    int best = 0;
    std::uint32_t best_len = cur(0);
    for (int m = 1; m < f.order; ++m) {
        const std::uint32_t l = cur(m);
        if (l > best_len || (l == best_len && f.average[m] > f.average[best])) best = m, best_len = l;
    }
    return static_cast<std::uint8_t>(best);
}

struct OtherModes {
    const std::uint32_t* idx[kMaxModes];
    int count = 0;
};

// number[u] = 1 where sorted nonzero u starts a fiber (an index of the other modes changes), else 0.
__global__ void fiber_start_kernel(OtherModes others, const std::uint32_t* sorted, std::uint32_t* number,
                                   std::uint64_t n) {
    for (std::uint64_t u = first_item(); u < n; u += item_stride()) {
        bool starts = u == 0;
        for (int k = 0; !starts && k < others.count; ++k)
            starts = others.idx[k][sorted[u]] != others.idx[k][sorted[u - 1]];
        number[u] = starts;
    }
}

// With number[u] = 1 + the fiber of sorted nonzero u (the starts, summed): the fiber through each
// nonzero, where each sits among the sorted ones, and where each fiber starts.
__global__ void number_kernel(const std::uint32_t* sorted, const std::uint32_t* number, std::uint64_t n,
                              std::uint32_t* fid, std::uint32_t* position, std::uint32_t* start) {
    for (std::uint64_t u = first_item(); u < n; u += item_stride()) {
        const std::uint32_t f = number[u] - 1;
        fid[sorted[u]] = f;
        position[sorted[u]] = static_cast<std::uint32_t>(u);
        if (u == 0 || number[u - 1] != number[u]) start[f] = static_cast<std::uint32_t>(u);
    }
}

__global__ void length_kernel(std::uint32_t* start, std::uint32_t* len, std::uint64_t fibers, std::uint64_t n) {
    for (std::uint64_t f = first_item(); f <= fibers; f += item_stride()) {
        if (f == fibers)
            start[f] = static_cast<std::uint32_t>(n);
        else
            len[f] = (f + 1 < fibers ? start[f + 1] : static_cast<std::uint32_t>(n)) - start[f];
    }
}

// The host's DynamicBlock::find_runs for mode m: a member whose predecessor in its fiber lies
// before the block starts a run, which goes on while the members stay inside the block.
__global__ void find_runs_kernel(FiberView f, BlockView b, int m) {
    const std::uint64_t hi = b.lo + b.n;
    const std::uint32_t* members = f.members[m];
    for (std::uint64_t i = first_item(); i < b.n; i += item_stride()) {
        const std::uint64_t z = b.lo + i;
        const std::uint32_t p = f.position[m][z], fiber = f.fid[m][z];
        b.alone[m][i] = 0;
        if (p != f.start[m][fiber] && members[p - 1] >= b.lo) continue;  // not the first in the block
        b.cur[m][i] = f.len[m][fiber];
        // the run ends at the fiber's first member from the block's end on (members rise in a fiber)
        std::uint32_t e = p + 1, end = f.start[m][fiber + 1];
        while (e < end) {
            const std::uint32_t mid = e + (end - e) / 2;
            if (members[mid] < hi)
                e = mid + 1;
            else
                end = mid;
        }
        if (e == p + 1)
            b.alone[m][i] = 1;
        else if (e - p < kLongRun)
            b.runs[m][atomicAdd(&b.run_count[m], 1ull)] = Run{p, e};
        else
            b.long_runs[m][atomicAdd(&b.long_count[m], 1ull)] = Run{p, e};
    }
}

// The first guess: each nonzero's longest orientation by the lengths at the block's start.
__global__ void guess_kernel(FiberView f, BlockView b) {
    for (std::uint64_t i = first_item(); i < b.n; i += item_stride()) {
        const std::uint64_t z = b.lo + i;
        b.guess[i] = longest(f, [&](int m) { return f.len[m][f.fid[m][z]]; });
    }
}

// cur along each run of mode m: the fiber's length at the block's start, less the earlier members
// of the block that the guess sends elsewhere.
__global__ void count_lengths_kernel(FiberView f, BlockView b, int m) {
    const std::uint64_t runs = b.run_count[m];
    const std::uint32_t* members = f.members[m];
    for (std::uint64_t r = first_item(); r < runs; r += item_stride()) {
        const Run run = b.runs[m][r];
        std::uint32_t length = b.cur[m][members[run.first] - b.lo];
        for (std::uint32_t q = run.first; q < run.end; ++q) {
            const std::uint64_t i = members[q] - b.lo;
            b.cur[m][i] = length;
            if (b.guess[i] != m) --length;
        }
    }
}

// count_lengths_kernel for the long runs, a warp a run: each 32 members at once, each lane's
// length less the members before it in the 32 that go elsewhere (a ballot's count).
__global__ void count_long_kernel(FiberView f, BlockView b, int m) {
    const std::uint64_t runs = b.long_count[m];
    const std::uint32_t* members = f.members[m];
    const unsigned lane = threadIdx.x % 32, below = (1u << lane) - 1;
    for (std::uint64_t r = first_item() / 32; r < runs; r += item_stride() / 32) {
        const Run run = b.long_runs[m][r];
        std::uint32_t length = b.cur[m][members[run.first] - b.lo];
        for (std::uint32_t q = run.first + lane; q - lane < run.end; q += 32) {
            const bool in = q < run.end;
            const std::uint64_t i = in ? members[q] - b.lo : 0;
            const unsigned away = __ballot_sync(0xffffffffu, in && b.guess[i] != m);
            if (in) b.cur[m][i] = length - __popc(away & below);
            length -= __popc(away);
        }
    }
}

// next from cur; *first: the first position where it differs from the guess (left at n if none).
__global__ void decide_kernel(FiberView f, BlockView b, unsigned long long* first) {
    for (std::uint64_t i = first_item(); i < b.n; i += item_stride()) {
        const std::uint8_t next = longest(f, [&](int m) { return b.cur[m][i]; });
        b.next[i] = next;
        if (next != b.guess[i]) atomicMin(first, static_cast<unsigned long long>(i));
    }
}

// Shortens each mode-m fiber by its members among the block's first `count` that went elsewhere
// (a run and a lone member each name a fiber of their own: no two threads share one).
__global__ void commit_kernel(FiberView f, BlockView b, int m, std::uint64_t count) {
    const std::uint64_t runs = b.run_count[m];
    const std::uint32_t* members = f.members[m];
    for (std::uint64_t r = first_item(); r < runs; r += item_stride()) {
        const Run run = b.runs[m][r];
        std::uint32_t away = 0;
        for (std::uint32_t q = run.first; q < run.end && members[q] - b.lo < count; ++q)
            away += b.guess[members[q] - b.lo] != m;
        f.len[m][f.fid[m][members[run.first]]] -= away;
    }
    for (std::uint64_t i = first_item(); i < count; i += item_stride())
        if (b.alone[m][i] && b.guess[i] != m) --f.len[m][f.fid[m][b.lo + i]];
}

// commit_kernel for the long runs, a warp a run.
__global__ void commit_long_kernel(FiberView f, BlockView b, int m, std::uint64_t count) {
    const std::uint64_t runs = b.long_count[m];
    const std::uint32_t* members = f.members[m];
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t r = first_item() / 32; r < runs; r += item_stride() / 32) {
        const Run run = b.long_runs[m][r];
        std::uint32_t away = 0;
        for (std::uint32_t q = run.first + lane; q - lane < run.end; q += 32) {
            const bool counted = q < run.end && members[q] - b.lo < count && b.guess[members[q] - b.lo] != m;
            away += __popc(__ballot_sync(0xffffffffu, counted));
        }
        if (lane == 0) f.len[m][f.fid[m][members[run.first]]] -= away;
    }
}

// The paper's loop for nonzeros [from, to), one at a time (a block's unsettled rest): one thread.
__global__ void serial_kernel(FiberView f, std::uint64_t from, std::uint64_t to, std::uint8_t* part) {
    for (std::uint64_t z = from; z < to; ++z) {
        const std::uint8_t best = longest(f, [&](int m) { return f.len[m][f.fid[m][z]]; });
        part[z] = best;
        for (int m = 0; m < f.order; ++m)
            if (m != best) --f.len[m][f.fid[m][z]];
    }
}

struct ModeFibers {
    DeviceArray<std::uint32_t> fid, len, members, start, position;
    std::uint64_t fibers = 0;
};

// Mode m's fibers: the nonzeros sorted stably by the other modes, in mode order (as the host's
// sorted_order), numbered where an index changes.
ModeFibers mode_fibers(const DeviceCoo::Impl& c, int m) {
    const std::uint64_t n = c.nnz;
    std::vector<int> others;
    OtherModes view;
    for (int o = 0; o < static_cast<int>(c.idx.size()); ++o)
        if (o != m) others.push_back(o), view.idx[view.count++] = c.idx[static_cast<std::size_t>(o)].get();
    DeviceArray<std::uint32_t> perm(n), perm_alt(n), keys(n), keys_alt(n);
    iota_kernel<<<grid_for(n), 256>>>(perm.get(), n);
    check(cudaGetLastError(), "numbering the nonzeros");
    const std::uint32_t* sorted = sort_permutation(c, others, n, perm, perm_alt, keys, keys_alt);
    ModeFibers out;
    out.members = std::move(sorted == perm.get() ? perm : perm_alt);
    DeviceArray<std::uint32_t>& number = keys;  // the keys are free once sorted
    fiber_start_kernel<<<grid_for(n), 256>>>(view, out.members.get(), number.get(), n);
    check(cudaGetLastError(), "flagging fiber starts");
    std::size_t bytes = 0;
    check(cub::DeviceScan::InclusiveSum(nullptr, bytes, number.get(), number.get(), n), "sizing the scan");
    DeviceArray<unsigned char> temp(bytes);
    check(cub::DeviceScan::InclusiveSum(temp.get(), bytes, number.get(), number.get(), n), "numbering the fibers");
    std::uint32_t fibers = 0;
    check(cudaMemcpy(&fibers, number.get() + (n - 1), sizeof fibers, cudaMemcpyDeviceToHost), "counting the fibers");
    out.fibers = fibers;
    out.fid = DeviceArray<std::uint32_t>(n);
    out.position = std::move(keys_alt);
    out.start = DeviceArray<std::uint32_t>(out.fibers + 1);
    out.len = DeviceArray<std::uint32_t>(out.fibers);
    number_kernel<<<grid_for(n), 256>>>(out.members.get(), number.get(), n, out.fid.get(), out.position.get(),
                                        out.start.get());
    length_kernel<<<grid_for(out.fibers + 1), 256>>>(out.start.get(), out.len.get(), out.fibers, n);
    check(cudaGetLastError(), "measuring the fibers");
    return out;
}

// One block's arrays, sized for blocks of up to `size` nonzeros.
struct BlockArrays {
    std::vector<DeviceArray<std::uint32_t>> cur;
    std::vector<DeviceArray<std::uint8_t>> alone;
    std::vector<DeviceArray<Run>> runs, long_runs;
    DeviceArray<unsigned long long> run_count, long_count, first;
    DeviceArray<std::uint8_t> guess, next;
    BlockView view;

    BlockArrays(int order, std::uint64_t size)
        : run_count(static_cast<std::uint64_t>(order)),
          long_count(static_cast<std::uint64_t>(order)),
          first(1),
          guess(size),
          next(size) {
        for (int m = 0; m < order; ++m) {
            cur.emplace_back(size), alone.emplace_back(size);
            runs.emplace_back(size / 2 + 1), long_runs.emplace_back(size / kLongRun + 1);  // by their least members
            view.cur[m] = cur.back().get(), view.alone[m] = alone.back().get();
            view.runs[m] = runs.back().get(), view.long_runs[m] = long_runs.back().get();
        }
        view.run_count = run_count.get(), view.long_count = long_count.get(), view.guess = guess.get(),
        view.next = next.get();
    }
};

// The host's DynamicBlock::solve: labels nonzeros from lo on, at most n of them, as the serial
// pass would; returns how many (at least one), f's lengths left as the serial pass leaves them.
std::uint64_t solve_block(const FiberView& f, BlockArrays& a, std::uint64_t lo, std::uint64_t n, int max_sweeps,
                          std::uint8_t* part, MmcsfPartitionStats& stats) {
    BlockView& b = a.view;
    b.lo = lo, b.n = n;
    const int grid = grid_for(n);
    const std::size_t counts = sizeof(unsigned long long) * static_cast<std::size_t>(f.order);
    check(cudaMemset(b.run_count, 0, counts), "clearing the runs");
    check(cudaMemset(b.long_count, 0, counts), "clearing the runs");
    for (int m = 0; m < f.order; ++m) find_runs_kernel<<<grid, 256>>>(f, b, m);
    guess_kernel<<<grid, 256>>>(f, b);
    check(cudaGetLastError(), "guessing the block's labels");
    std::uint64_t fixed = 0;  // labels [0, fixed) are final
    for (int sweep = 0; sweep < max_sweeps && fixed < n; ++sweep) {
        for (int m = 0; m < f.order; ++m) {
            count_lengths_kernel<<<grid, 256>>>(f, b, m);
            count_long_kernel<<<grid, 256>>>(f, b, m);
        }
        unsigned long long first = n;
        a.first.upload(&first);
        decide_kernel<<<grid, 256>>>(f, b, a.first.get());
        check(cudaGetLastError(), "sweeping the block");
        a.first.download(&first);
        std::swap(b.guess, b.next);
        ++stats.sweeps;
        fixed = first == n ? n : std::max<std::uint64_t>(fixed, first + 1);
    }
    ++stats.blocks;
    check(cudaMemcpy(part + lo, b.guess, fixed, cudaMemcpyDeviceToDevice), "keeping the block's labels");
    for (int m = 0; m < f.order; ++m) {
        commit_kernel<<<grid, 256>>>(f, b, m, fixed);
        commit_long_kernel<<<grid, 256>>>(f, b, m, fixed);
    }
    check(cudaGetLastError(), "shortening the fibers");
    return fixed;
}

}  // namespace

std::vector<std::uint8_t> mmcsf_partition(const DeviceCoo& coo, const MmcsfPartitionOptions& options,
                                          MmcsfPartitionStats* stats) {
    use_device();
    const DeviceCoo::Impl& c = coo.impl();
    const int order = static_cast<int>(c.idx.size());
    const std::uint64_t n = c.nnz;
    if (order > kMaxModes) throw Error("MM-CSF's partitioning on the device takes tensors of up to 16 modes");
    if (n >= 0xffffffffull) throw Error("MM-CSF's partitioning on the device takes fewer than 2^32 - 1 nonzeros");
    MmcsfPartitionStats local;
    std::vector<std::uint8_t> out(n);
    if (n == 0) {
        if (stats) *stats = local;
        return out;
    }
    std::vector<ModeFibers> modes;
    FiberView f;
    f.order = order;
    for (int m = 0; m < order; ++m) {
        modes.push_back(mode_fibers(c, m));
        const ModeFibers& mf = modes.back();
        f.fid[m] = mf.fid.get(), f.len[m] = mf.len.get(), f.members[m] = mf.members.get();
        f.start[m] = mf.start.get(), f.position[m] = mf.position.get();
        f.average[m] = static_cast<double>(n) / static_cast<double>(mf.fibers);
    }
    const std::uint64_t size = std::min(n, std::max<std::uint64_t>(1, options.block));
    BlockArrays block(order, size);
    DeviceArray<std::uint8_t> part(n);
    for (std::uint64_t lo = 0; lo < n;) {
        const std::uint64_t count = std::min(size, n - lo);
        const std::uint64_t done = solve_block(f, block, lo, count, options.max_sweeps, part.get(), local);
        // as the host: a block that settled under an eighth of itself leaves its rest to the serial loop
        if (done < count && done * 8 < count) {
            serial_kernel<<<1, 1>>>(f, lo + done, lo + count, part.get());
            check(cudaGetLastError(), "placing a block's rest one by one");
            local.serial_nonzeros += count - done;
            lo += count;
        } else {
            lo += done;
        }
    }
    part.download(out.data());
    if (stats) *stats = local;
    return out;
}

}  // namespace tscope::gpu
