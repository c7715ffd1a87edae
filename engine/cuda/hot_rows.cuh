// fp32 copies of an MM-CSF partition's heavy output rows (hot_rows_rule.hpp says which and why):
// the partition's index array at that level (its leaves, or a level between) copied once with
// each hot row's positions renumbered to the row's copies, so that the team kernels add a hot
// row's terms into several places (TeamTree::out_rows, row_at in mttkrp_fiber_teams.cuh) and
// a launch sums the copies into the row after (hot_sum_kernel, in fp64).
// Private to engine/cuda: resident_tensor.cuh includes it (nvcc, no separable compilation).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "hot_rows_rule.hpp"

namespace tscope::gpu {

// One level's renumbered index array and its hot rows. ids: the array with hot rows' positions
// as copy ids (bound + base + k); bound: one past the array's largest row, where the copies'
// ids start. Empty (no copies) where no row's chain passes kHotChain.
struct HotRemap {
    DeviceArray<std::uint32_t> ids;
    DeviceArray<HotRow> rows;
    std::uint32_t count = 0;  // hot rows
    std::uint64_t bound = 0;
    std::uint64_t copies = 0;  // copies of all of them (rows of the launch's rank each)
};

namespace {

__global__ void hot_max_kernel(const std::uint32_t* a, std::uint64_t n, unsigned* top) {
    unsigned m = 0;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        m = max(m, a[i]);
    for (int d = 16; d > 0; d /= 2) m = max(m, __shfl_xor_sync(0xffffffffu, m, d));  // a warp's, then one atomic
    if (threadIdx.x % 32 == 0) atomicMax(top, m);
}

// counts[r] += 8 for each position of row r where every position is an add (leaves: a vector
// atomic a nonzero), else 8 for each run's first position and 1 for the others (a level between:
// a flush a run, and one a group of about 8 fibers in a long run): chain = counts / 8. A warp's
// positions of one row go in one atomic (a heavy row's millions would queue on one address).
__global__ void hot_chain_kernel(const std::uint32_t* a, std::uint64_t n, bool runs, unsigned long long* counts) {
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i - lane < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {  // warp-uniform
        const bool in = i < n;
        const unsigned row = in ? a[i] : 0xffffffffu;
        const unsigned add = !in ? 0u : !runs || i == 0 || a[i - 1] != row ? 8u : 1u;
        const unsigned peers = __match_any_sync(0xffffffffu, row);
        unsigned sum = 0;  // the peers' adds: every lane takes part in each shuffle
        for (int j = 0; j < 32; ++j) {
            const unsigned other = __shfl_sync(0xffffffffu, add, j);
            if (peers >> j & 1u) sum += other;
        }
        if (in && __ffs(peers) - 1 == static_cast<int>(lane))
            atomicAdd(&counts[row], static_cast<unsigned long long>(sum));
    }
}

// ids[i] = a[i], or where a[i] is hot row s (slot[a[i]] = s), its copy bound + base + (i / kHotSpan) % copies.
__global__ void hot_remap_kernel(const std::uint32_t* a, std::uint64_t n, const std::uint32_t* slot, const HotRow* hot,
                                 std::uint32_t bound, std::uint32_t* ids) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const std::uint32_t r = a[i], s = slot[r];
        if (s == 0xffffffffu) {
            ids[i] = r;
        } else {
            const HotRow h = hot[s];
            ids[i] = bound + h.base + static_cast<std::uint32_t>((i / kHotSpan) % h.copies);
        }
    }
}

}  // namespace

// The level's array a (n positions; runs: a level between, else the leaves) renumbered where
// its rows' chains pass kHotChain (TENSORSCOPE_HOT_CHAIN sets another limit: the tests' small
// tensors take copies with a small one). One pass for the largest row, one for the chains
// (downloaded: the rule runs on the host), one to renumber. Where the device has too little
// free memory for the renumbered array, none.
inline HotRemap remap_hot_rows(const std::uint32_t* a, std::uint64_t n, bool runs,
                               std::uint64_t limit = std::max(1ul, env_unsigned("TENSORSCOPE_HOT_CHAIN", kHotChain))) {
    HotRemap m;
    if (n == 0) return m;
    const unsigned grid = static_cast<unsigned>(std::min<std::uint64_t>((n + 255) / 256, 65536));
    DeviceArray<unsigned> top(1);
    top.zero();
    hot_max_kernel<<<grid, 256>>>(a, n, top.get());
    check(cudaGetLastError(), "finding a tree level's largest row");
    unsigned largest = 0;
    top.download(&largest);
    const std::uint64_t bound = std::uint64_t{largest} + 1;
    // room allowing (twice what is allocated here, the rest left to the MTTKRP's own buffers):
    // short of it the level keeps its one place a row, as before session 86
    if (free_device_bytes() < 2 * (bound * 12 + n * 4)) return m;
    DeviceArray<unsigned long long> counts(bound);
    counts.zero();
    hot_chain_kernel<<<grid, 256>>>(a, n, runs, counts.get());
    check(cudaGetLastError(), "counting a tree level's adds a row");
    std::vector<unsigned long long> raw(bound);
    counts.download(raw.data());
    std::vector<std::uint64_t> chains(bound);
    for (std::uint64_t r = 0; r < bound; ++r) chains[r] = raw[r] / 8;
    const std::vector<HotRow> hot = plan_hot_rows(chains, limit);
    if (hot.empty()) return m;
    std::vector<std::uint32_t> slot(bound, 0xffffffffu);
    for (std::size_t s = 0; s < hot.size(); ++s) slot[hot[s].row] = static_cast<std::uint32_t>(s);
    DeviceArray<std::uint32_t> dslot(slot.data(), bound);
    m.rows = DeviceArray<HotRow>(hot.data(), hot.size());
    m.ids = DeviceArray<std::uint32_t>(n);
    hot_remap_kernel<<<grid, 256>>>(a, n, dslot.get(), m.rows.get(), static_cast<std::uint32_t>(bound), m.ids.get());
    check(cudaGetLastError(), "renumbering a tree level's hot rows");
    m.count = static_cast<std::uint32_t>(hot.size()), m.bound = bound, m.copies = hot_copies(hot);
    return m;
}

namespace {

// out[row][c] += the sum of the row's copies at column c (in fp64), for each of the n hot rows.
__global__ void hot_sum_kernel(const HotRow* hot, std::uint32_t n, std::uint32_t R, const float* copies, float* out) {
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k < std::uint64_t{n} * R;
         k += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const HotRow h = hot[k / R];
        const std::uint64_t c = k % R;
        double s = 0;
        for (std::uint32_t j = 0; j < h.copies; ++j) s += copies[(std::uint64_t{h.base} + j) * R + c];
        out[std::uint64_t{h.row} * R + c] += static_cast<float>(s);
    }
}

}  // namespace

}  // namespace tscope::gpu
