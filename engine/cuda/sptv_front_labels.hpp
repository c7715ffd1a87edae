// How SpTV's shared front (sptv_shared_front.cuh) renumbers a product's columns, once when the
// plan is made: the `capacity` most-read entries of the vector become 0 .. n-1, the most read
// first, and every other column c becomes c with the top bit set (kColdColumn), so that the kernel
// tells the two apart by the sign and finds a cold entry at its own place in the vector as given. Plain C++17, no CUDA,
// so that the numbering is tested on machines without a GPU (tests/engine/cuda/
// test_sptv_front_labels.cpp). Private to the engine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace tscope::gpu {

constexpr std::uint32_t kColdColumn = 1u << 31;  // a column outside the front (vectors under 2^31 entries)

struct FrontLabels {
    std::vector<std::uint32_t> label;  // label[c]: column c's new number
    std::vector<std::uint32_t> ids;    // ids[k]: the original column the front's k-th entry holds
    double coverage = 0;               // the share of the nonzeros whose column is in the front
};

// From counts[c], the nonzeros in column c: a column read no time takes no place in the front;
// ties in count go to the lower column (so the numbering is deterministic).
inline FrontLabels front_labels(const std::vector<std::uint32_t>& counts, std::uint32_t capacity) {
    FrontLabels f;
    const auto columns = static_cast<std::uint32_t>(counts.size());
    std::vector<std::uint32_t> order(columns);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return counts[a] > counts[b]; });
    std::uint32_t n = 0;
    while (n < columns && n < capacity && counts[order[n]] > 0) ++n;
    f.ids.assign(order.begin(), order.begin() + n);
    f.label.resize(columns);
    for (std::uint32_t c = 0; c < columns; ++c) f.label[c] = c | kColdColumn;
    std::uint64_t total = 0, front = 0;
    for (std::uint32_t c : counts) total += c;
    for (std::uint32_t k = 0; k < n; ++k) {
        f.label[f.ids[k]] = k;
        front += counts[f.ids[k]];
    }
    f.coverage = total ? static_cast<double>(front) / static_cast<double>(total) : 0.0;
    return f;
}

}  // namespace tscope::gpu
