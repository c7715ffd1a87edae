// Why the tiny mode goes to the leaves, and only there: every nonzero gathers its leaf's factor
// row, and every fiber its ancestors' rows; the fibers of one parent follow each other, so the
// rows that go to memory are about one a tree node (distinct prefixes, which level_order_model.cpp
// counts). SPLATT's order puts the shortest modes near the root, so that the upper levels hold few
// nodes; where the factors below the root are all past L2, though, each of those levels' rows comes
// from DRAM, and a factor small enough for L1 serves its rows from there wherever it sits. At the
// leaves it takes the gathers with the most nodes. On delicious-4d's shape
// (cpu-level-order-model.json) the distinct rows gathered from the three large factors fall from
// 254.4M to 206.0M on mode 1 (1,3,2,4 for SPLATT's 1,4,3,2), from 258.2M to 214.4M on mode 2
// (2,1,3,4 for 2,4,1,3) and from 254.4M to 206.0M on mode 3 (3,1,2,4 for 3,4,1,2). Measured on
// one H100 (session 95, gpu-session95c.sh at f16b4a18, h100-session95-level-order.json, rank 32,
// medians of 5, alternating twice; mode 3 once): B-CSF took 7.04-7.05 ms against 7.82-7.83 on mode 1, 7.23-7.24 against 7.93-7.94 on mode
// 2 and 6.97 against 7.60-7.61 on mode 3 (1,855-1,929 GFLOP/s against 1,693-1,768), CSF alike.
// Where the factors below the root fit L2 the shorter mode at the leaves lost: on the nell-2 and
// uniform shapes (factors of 1.2-3.7 MB) 1-3-2, 2-3-1 and 3-1-2 ran CSF and B-CSF 1-10% slower
// (mttkrp_cuda.cpp), hence both conditions. On the CPU the same order is slower: delicious-4d's
// B-CSF mode 1 on the OpenMP backend (2 threads, this project's 2-core VM, three alternating
// rounds, cpu-level-order-leaf-del4d.json) took 23.98-25.87 s against 17.89-19.49 by SPLATT's
// order, so the rule stays the GPU's.
// MM-CSF's partitions keep their own mode at the leaves, so there the tiny mode goes just above
// them. On one H200 (session 97, h200-session97.json, every partition so; medians of 5,
// alternating twice) delicious-4d's modes 1-3 took 8.81-8.86, 9.42-9.44 and 9.14-9.17 ms against
// 9.82, 10.05 and 9.92 by the paper's order, mode 4 (then adding into its 1,443 rows) 9.18-9.20
// against 8.95: the sweep 5.5% less. Without the two conditions it lost: the uniform shape's
// sweep (the swap arbitrary there, every mode alike) took 6.6% more, nell-2's 1.7% less.
#include "kernels/gpu_level_order.hpp"

#include <algorithm>

#include "cuda/env_switch.hpp"
#include "formats/format_builders.hpp"
#include "tscope/formats/balanced_formats.hpp"

namespace tscope {

namespace {

// Whether the levels [first, last) of a tree, shortest mode first, have that mode's fp32 factor
// small enough for an SM's L1 and every other one's larger than the L2: the tiny mode then goes
// to the lowest of those levels.
bool tiny_mode_goes_down(const std::vector<std::uint64_t>& dims, std::vector<int>::const_iterator first,
                         std::vector<int>::const_iterator last, std::uint64_t rank, std::uint64_t l2_bytes) {
    const auto factor_bytes = [&](int m) { return dims[static_cast<std::size_t>(m)] * rank * sizeof(float); };
    return rank > 0 && l2_bytes > 0 && last - first >= 2 && factor_bytes(*first) <= kGpuLeafFactorBytes &&
           std::all_of(first + 1, last, [&](int m) { return factor_bytes(m) > l2_bytes; });
}

}  // namespace

std::vector<int> gpu_level_order(const std::vector<std::uint64_t>& dims, int mode, std::uint64_t rank,
                                 std::uint64_t l2_bytes) {
    std::vector<int> order = default_mode_order(dims, mode);
    // below the root, shortest first
    if (tiny_mode_goes_down(dims, order.begin() + 1, order.end(), rank, l2_bytes))
        std::rotate(order.begin() + 1, order.begin() + 2, order.end());
    return order;
}

std::vector<int> gpu_mmcsf_partition_order(const std::vector<std::uint64_t>& dims, int leaf, std::uint64_t rank,
                                           std::uint64_t l2_bytes) {
    std::vector<int> order = mmcsf_partition_order(dims, leaf);
    // above the leaves, shortest (the root) first
    if (tiny_mode_goes_down(dims, order.begin(), order.end() - 1, rank, l2_bytes))
        std::rotate(order.begin(), order.begin() + 1, order.end() - 1);
    return order;
}

std::vector<std::vector<int>> gpu_mmcsf_orders(const std::vector<std::uint64_t>& dims, std::uint64_t rank,
                                               std::uint64_t l2_bytes) {
    if (gpu::env_is("TENSORSCOPE_MMCSF_LEVELS", "paper")) return {};  // for measuring one against the other
    std::vector<std::vector<int>> orders;
    for (int p = 0; p < static_cast<int>(dims.size()); ++p)
        orders.push_back(gpu_mmcsf_partition_order(dims, p, rank, l2_bytes));
    return orders != mmcsf_partition_orders(dims) ? orders : std::vector<std::vector<int>>{};
}

std::string levels_text(const std::vector<int>& order) { return "levels " + modes_text(order); }

std::string partition_levels_text(const std::vector<std::vector<int>>& orders) {
    std::string s = "partitions' levels";
    for (std::size_t p = 0; p < orders.size(); ++p) s.append(p ? "; " : " ").append(modes_text(orders[p]));
    return s;
}

}  // namespace tscope
