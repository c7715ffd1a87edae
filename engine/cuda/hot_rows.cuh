// fp32 copies of a tree's heavy output rows (hot_rows_rule.hpp says which and why: every root's,
// an MM-CSF partition's below it): the tree's index array at that level (its leaves, or a level
// between) copied once with each hot row's positions renumbered to the row's copies (a streamed
// tree's in each chunk's copy, gpu_streamed.cu), so that the team kernels add a hot
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

// The chain limit: kHotChain, or TENSORSCOPE_HOT_CHAIN's (the tests' small tensors take copies
// with a small one).
inline std::uint64_t hot_chain_limit() { return std::max(1ul, env_unsigned("TENSORSCOPE_HOT_CHAIN", kHotChain)); }

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

// ids[i] = a[i], or where a[i] is a hot row h (looked up in its bitmap, hot_out.cuh), its copy
// bound + h.base + ((first + i) / kHotSpan) % h.copies: first is position 0's place in the level
// (a streamed chunk's first fiber or nonzero; 0 for a whole level). ids may be a (in place).
__global__ void hot_remap_kernel(const std::uint32_t* a, std::uint32_t* ids, std::uint64_t n, std::uint64_t first,
                                 HotOut hot, std::uint32_t bound) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const std::uint32_t r = a[i];
        const HotLook look = hot_look(hot, r);
        ids[i] =
            look.copies ? bound + look.base + static_cast<std::uint32_t>(((first + i) / kHotSpan) % look.copies) : r;
    }
}

}  // namespace

// A COO's or BLCO's mode's hot rows (hot_out.cuh), or a tree level's (their ids renumbered by
// hot_remap_kernel): their bitmap and the rows, or none (copies 0) where no row's chain passes
// the limit or the device has too little free memory for them.
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

// chains[r]: the adds row r takes (counted on the device, or on the host from a streamed
// tensor's arrays).
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

// The level's array a (n positions, in device memory; runs: a level between, else the leaves)
// renumbered where its rows' chains pass the limit. One pass for the largest row and one for the
// chains (row_chains.cuh, as COO's upload counts them; downloaded: the rule runs on the host), one
// to renumber. Where the device has too little free memory for the renumbered array, none.
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
    HotSlots hot = upload_hot_slots(download_chains(counts, group), limit);
    if (!hot.copies) return m;
    m.ids = DeviceArray<std::uint32_t>(n);
    hot_remap_kernel<<<grid_for(n), 256>>>(a, m.ids.get(), n, 0, hot.view(nullptr), static_cast<std::uint32_t>(bound));
    check(cudaGetLastError(), "renumbering a tree level's hot rows");
    m.rows = std::move(hot.rows);
    m.bound = bound, m.copies = hot.copies;
    return m;
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

// The hot rows' copies (R floats each, from `copies`) summed into their rows of out, on `stream`
// after the kernels that add into them.
template <class Out>
void add_hot_copies(const DeviceArray<HotRow>& rows, std::uint64_t R, const float* copies, Out* out,
                    cudaStream_t stream = nullptr) {
    const auto n = static_cast<std::uint32_t>(rows.size());
    hot_sum_kernel<<<grid_for(std::uint64_t{n} * R), 256, 0, stream>>>(rows.get(), n, static_cast<std::uint32_t>(R),
                                                                       copies, out);
    check(cudaGetLastError(), "adding the hot rows' copies");
}

}  // namespace tscope::gpu
