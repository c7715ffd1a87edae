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
#include "hot_out.cuh"
#include "hot_rows_rule.hpp"
#include "row_chains.cuh"

namespace tscope::gpu {

// One level's renumbered index array and its hot rows. ids: the array with hot rows' positions
// as copy ids (bound + base + k); bound: one past the array's largest row, where the copies'
// ids start. Empty (no copies) where no row's chain passes kHotChain.
struct HotRemap {
    DeviceArray<std::uint32_t> ids;
    DeviceArray<HotRow> rows;
    std::uint64_t bound = 0;
    std::uint64_t copies = 0;  // copies of all of them (rows of the launch's rank each)
};

namespace {

// ids[i] = a[i], or where a[i] is hot row s (slot[a[i]] = s), its copy bound + base + (i / kHotSpan) % copies.
__global__ void hot_remap_kernel(const std::uint32_t* a, std::uint64_t n, const std::uint32_t* slot, const HotRow* hot,
                                 std::uint32_t bound, std::uint32_t* ids) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const std::uint32_t r = a[i], s = slot[r];
        if (s == kColdRow) {
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
// tensors take copies with a small one). One pass for the largest row and one for the chains
// (row_chains.cuh, as COO's upload counts them; downloaded: the rule runs on the host), one to
// renumber. Where the device has too little
// free memory for the renumbered array, none.
inline std::uint64_t hot_chain_limit() { return std::max(1ul, env_unsigned("TENSORSCOPE_HOT_CHAIN", kHotChain)); }

// The adds each row takes, from the device's counts: row_chain_kernel's at `group` (divided by
// it, as hot_rows_rule.hpp's row_chains), or a row's nonzeros (group 0 or 1).
template <class Count>
std::vector<std::uint64_t> download_chains(const DeviceArray<Count>& counts, std::uint64_t group) {
    std::vector<Count> raw(counts.size());
    counts.download(raw.data());
    std::vector<std::uint64_t> chains(raw.begin(), raw.end());
    if (group > 1)
        for (std::uint64_t& c : chains) c /= group;
    return chains;
}

inline HotRemap remap_hot_rows(const std::uint32_t* a, std::uint64_t n, bool runs,
                               std::uint64_t limit = hot_chain_limit()) {
    HotRemap m;
    if (n == 0) return m;
    DeviceArray<unsigned> top(1);
    top.zero();
    max_kernel<<<grid_for(n), 256>>>(a, n, top.get());
    check(cudaGetLastError(), "finding a tree level's largest row");
    unsigned largest = 0;
    top.download(&largest);
    const std::uint64_t bound = std::uint64_t{largest} + 1;
    // room allowing (twice what is allocated here, the rest left to the MTTKRP's own buffers):
    // short of it the level keeps its one place a row, as before session 86
    if (free_device_bytes() < 2 * (bound * 12 + n * 4)) return m;
    DeviceArray<unsigned long long> counts(bound);
    counts.zero();
    const std::uint64_t group = hot_group(runs);
    row_chain_kernel<<<grid_for(n), 256>>>(a, n, group, counts.get());
    check(cudaGetLastError(), "counting a tree level's adds a row");
    const std::vector<std::uint64_t> chains = download_chains(counts, group);
    const std::vector<HotRow> hot = plan_hot_rows(chains, limit);
    if (hot.empty()) return m;
    std::vector<std::uint32_t> slot(bound, kColdRow);
    for (std::size_t s = 0; s < hot.size(); ++s) slot[hot[s].row] = static_cast<std::uint32_t>(s);
    const DeviceArray<std::uint32_t> dslot(slot.data(), bound);
    m.rows = DeviceArray<HotRow>(hot.data(), hot.size());
    m.ids = DeviceArray<std::uint32_t>(n);
    hot_remap_kernel<<<grid_for(n), 256>>>(a, n, dslot.get(), m.rows.get(), static_cast<std::uint32_t>(bound),
                                           m.ids.get());
    check(cudaGetLastError(), "renumbering a tree level's hot rows");
    m.bound = bound, m.copies = hot_copies(hot);
    return m;
}

// A COO's or BLCO's mode's hot rows (hot_out.cuh): their bitmap and the rows, or none (copies
// 0) where no row's chain passes the limit or the device has too little free memory for them.
struct HotSlots {
    DeviceArray<std::uint32_t> words;  // HotBitmap's (HotOut::words)
    DeviceArray<HotRow> rows;
    std::uint64_t copies = 0;
    std::uint64_t bytes() const { return words.size() * 4 + rows.size() * sizeof(HotRow); }
    HotOut view(float* copies_buf) const {
        return copies ? HotOut{reinterpret_cast<const uint2*>(words.get()), rows.get(),
                               reinterpret_cast<float4*>(copies_buf)}
                      : HotOut{};
    }
};

// chains[r]: the adds row r takes (counted on the device; the caller downloads them only where
// the longest passes the limit).
inline HotSlots upload_hot_slots(const std::vector<std::uint64_t>& chains, std::uint64_t limit = hot_chain_limit()) {
    HotSlots h;
    const std::vector<HotRow> hot = plan_hot_rows(chains, limit);
    if (hot.empty() || free_device_bytes() < 2 * (chains.size() / 4 + 8 + hot.size() * sizeof(HotRow))) return h;
    const HotBitmap m = hot_bitmap(hot, chains.size());
    h.words = DeviceArray<std::uint32_t>(m.words.data(), m.words.size());
    h.rows = DeviceArray<HotRow>(hot.data(), hot.size());
    h.copies = hot_copies(hot);
    return h;
}

namespace {

// out[row][c] += the sum of the row's copies at column c (in fp64), for each of the n hot rows.
template <class Out>
__global__ void hot_sum_kernel(const HotRow* hot, std::uint32_t n, std::uint32_t R, const float* copies, Out* out) {
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k < std::uint64_t{n} * R;
         k += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const HotRow h = hot[k / R];
        const std::uint64_t c = k % R;
        double s = 0;
        for (std::uint32_t j = 0; j < h.copies; ++j) s += copies[(std::uint64_t{h.base} + j) * R + c];
        out[std::uint64_t{h.row} * R + c] += static_cast<Out>(s);
    }
}

}  // namespace

}  // namespace tscope::gpu
