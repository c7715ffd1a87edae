// Which output rows get fp32 copies of their own (every tree's root, an MM-CSF partition's levels
// below it; a COO's or BLCO's modes where whole-output copies do not fit), and how an add picks one.
// Plain C++17, no CUDA, so that the rule is tested on machines without a GPU
// (tests/engine/cuda/test_hot_rows_rule.cpp); hot_rows.cuh applies it on the device.
// Private to the engine.
//
// Why: where the output mode is a partition's leaves (mm-csf Alg. 7, a vector atomic a nonzero)
// or a level between (Alg. 8, one a fiber), a heavy row takes its adds one after another in fp32.
// Session 86's standing on one H100 (docs/bench/h100-session86-standing.json) had delicious-4d's
// MM-CSF 3.0e-3 and 4.0e-3 from cpu-ref on modes 2 and 3, over the bench's 1e-4. A host model
// (docs/bench/scripts/fp32_chain_model.cpp, docs/bench/cpu-hot-rows-del4d.json: the shape's
// heaviest mode-2 row, 7,447,840 nonzeros, each term added in fp32 in file order, hashed U(0,1)
// factors) gives 1.3e-2 for the one chain, and split round-robin over copies:
// chains of 465K 2.3e-4, 116K 4.1e-5, 29K 6.3e-6, 7.3K 7.8e-7, 1.8K 7.7e-8. The same standing
// had delicious-4d's COO 2.5e-5 to 5.2e-5 from cpu-ref on modes 1-3 and its BLCO 5.4e-4 on mode
// 1: their output copies (gpu_mttkrp.cu's copies_for) fit 24 MB only for outputs of 3 MB and less.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

// The rule's lookups run on the device too where nvcc compiles this.
#if defined(__CUDACC__)
#define TSCOPE_HOST_DEVICE __host__ __device__
#else
#define TSCOPE_HOST_DEVICE
#endif

namespace tscope::gpu {

// The longest chain of fp32 adds a row keeps in one place: by the model above, under 2e-6.
constexpr std::uint64_t kHotChain = 8192;
// Positions (nonzeros or fibers) in a row that go to one copy before the next: runs of one row
// then stay in one copy, so a team still sums a run before it adds.
constexpr std::uint64_t kHotSpan = 256;

struct HotRow {
    std::uint32_t row = 0;     // the output row
    std::uint32_t base = 0;    // its first copy among the partition's
    std::uint32_t copies = 0;  // how many
};

// chains[r]: the adds row r takes. The rows whose chain passes `limit`, each with
// ceil(chain / limit) copies numbered one after another. None where the copies' ids, which
// follow the rows' (rows + base + k, in 32-bit index arrays), would not fit under 2^32.
inline std::vector<HotRow> plan_hot_rows(const std::vector<std::uint64_t>& chains, std::uint64_t limit = kHotChain) {
    std::vector<HotRow> hot;
    std::uint64_t copies = 0;
    for (std::uint64_t r = 0; r < chains.size(); ++r) {
        if (chains[r] <= limit) continue;
        const std::uint64_t c = (chains[r] + limit - 1) / limit;
        hot.push_back(
            HotRow{static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(copies), static_cast<std::uint32_t>(c)});
        copies += c;
    }
    if (chains.size() + copies >= (std::uint64_t{1} << 32)) hot.clear();
    return hot;
}

inline std::uint64_t hot_copies(const std::vector<HotRow>& hot) {
    return hot.empty() ? 0 : std::uint64_t{hot.back().base} + hot.back().copies;
}

// The id that position i of row `row` is added under: the row itself, or (a hot row) the copy
// rows + base + (i / kHotSpan) % copies, where rows is the array's id bound.
inline std::uint32_t hot_id(std::uint64_t i, std::uint32_t rows, const HotRow& h) {
    return static_cast<std::uint32_t>(rows + h.base + (i / kHotSpan) % h.copies);
}

// Positions a flush covers in a long run at a level between (a fiber group of the team kernels,
// about 8 fibers), or 0 at the leaves, where each position is an add: the `group` the device's
// count takes (row_chains.cuh's row_chain_kernel, as COO's upload counts its chains).
constexpr std::uint64_t hot_group(bool runs) { return runs ? 8 : 0; }

// The adds each row of an index array takes where a run of one row flushes once and a long run
// once more for each `group` of its positions, as row_chains.cuh's row_chain_kernel counts them
// (COO's teams: coo_group.hpp's group); group 0: every position is an add.
// A host array of n positions (a streamed tree's level: gpu_streamed.cu plans its hot rows so).
inline std::vector<std::uint64_t> row_chains(const std::uint32_t* a, std::uint64_t n, std::uint64_t group) {
    std::uint32_t top = 0;
    for (std::uint64_t i = 0; i < n; ++i) top = std::max(top, a[i]);
    std::vector<std::uint64_t> counts(n ? std::uint64_t{top} + 1 : 0);
    for (std::uint64_t i = 0; i < n; ++i) counts[a[i]] += (i == 0 || a[i - 1] != a[i] ? group : 0) + 1;
    for (std::uint64_t& c : counts) c /= std::max<std::uint64_t>(group, 1);
    return counts;
}

inline std::vector<std::uint64_t> row_chains(const std::vector<std::uint32_t>& a, std::uint64_t group) {
    return row_chains(a.data(), a.size(), group);
}

// The adds each row of a tree level's array takes: at a level between a run's first position and
// one more for each 8 of the row's positions; at the leaves every position.
inline std::vector<std::uint64_t> hot_chains(const std::vector<std::uint32_t>& a, bool runs) {
    return row_chains(a, hot_group(runs));
}

// The array with its hot rows' positions renumbered to their copies, as hot_rows.cuh's
// remap_hot_rows leaves it on the device (test_mttkrp_cuda compares the two).
inline std::vector<std::uint32_t> hot_ids(const std::vector<std::uint32_t>& a, bool runs,
                                          std::uint64_t limit = kHotChain) {
    const std::vector<std::uint64_t> chains = hot_chains(a, runs);
    const std::vector<HotRow> hot = plan_hot_rows(chains, limit);
    std::vector<std::uint32_t> out = a;
    if (hot.empty()) return out;
    std::vector<const HotRow*> slot(chains.size(), nullptr);
    for (const HotRow& h : hot) slot[h.row] = &h;
    const auto bound = static_cast<std::uint32_t>(chains.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        if (const HotRow* h = slot[a[i]]) out[i] = hot_id(i, bound, *h);
    return out;
}

// COO and BLCO (hot_out.cuh): their index arrays serve every mode, so a hot row's adds are not
// renumbered but looked up at each flush, in a bitmap of the hot rows with, for each word of 32
// rows, the hot rows before it (8 bytes per 32 rows: delicious-4d's 17M-row mode takes 4.3 MB,
// which stays in L2, where a 4-byte slot a row took 69 MB and a DRAM read a flush).
constexpr std::uint32_t kColdRow = 0xffffffffu;

TSCOPE_HOST_DEVICE inline std::uint32_t popcount32(std::uint32_t x) {
#ifdef __CUDA_ARCH__
    return static_cast<std::uint32_t>(__popc(x));
#else
    return static_cast<std::uint32_t>(__builtin_popcount(x));  // nvcc compiles CUDA as C++17: no std::popcount
#endif
}

// Word w of 32 rows at words[2w] (bit r % 32: row r is hot) beside the hot rows in the words
// before it at words[2w + 1]: the device loads both as one uint2 (hot_out.cuh's HotOut::words).
struct HotBitmap {
    std::vector<std::uint32_t> words;
    std::uint64_t size() const { return words.size() / 2; }  // words of 32 rows
};

// hot: plan_hot_rows's (in row order).
inline HotBitmap hot_bitmap(const std::vector<HotRow>& hot, std::uint64_t rows) {
    HotBitmap m;
    const std::uint64_t words = (rows + 31) / 32;
    m.words.assign(2 * words, 0u);
    for (const HotRow& h : hot) m.words[2 * (h.row / 32)] |= 1u << (h.row % 32);
    std::uint32_t sum = 0;
    for (std::uint64_t w = 0; w < words; ++w) m.words[2 * w + 1] = sum, sum += popcount32(m.words[2 * w]);
    return m;
}

// Row `row`'s number among the hot rows, or kColdRow, from its word of the bitmap and that word's
// count before (the device's flushes load both when a row's run starts: hot_out.cuh).
TSCOPE_HOST_DEVICE inline std::uint32_t hot_slot_in(std::uint32_t word, std::uint32_t before, std::uint64_t row) {
    const auto b = static_cast<std::uint32_t>(row % 32);
    if (!((word >> b) & 1u)) return kColdRow;
    return before + popcount32(word & ((1u << b) - 1u));
}

inline std::uint32_t hot_slot(const HotBitmap& m, std::uint64_t row) {
    return hot_slot_in(m.words[2 * (row / 32)], m.words[2 * (row / 32) + 1], row);
}

}  // namespace tscope::gpu
