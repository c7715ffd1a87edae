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
#include "kernels/gpu_level_order.hpp"

#include <algorithm>

#include "formats/format_builders.hpp"

namespace tscope {

std::vector<int> gpu_level_order(const std::vector<std::uint64_t>& dims, int mode, std::uint64_t rank,
                                 std::uint64_t l2_bytes) {
    std::vector<int> order = default_mode_order(dims, mode);
    const auto factor_bytes = [&](int m) { return dims[static_cast<std::size_t>(m)] * rank * sizeof(float); };
    // order[1] is the shortest mode below the root
    const bool moves = rank > 0 && l2_bytes > 0 && order.size() >= 3 && factor_bytes(order[1]) <= kGpuLeafFactorBytes &&
                       std::all_of(order.begin() + 2, order.end(), [&](int m) { return factor_bytes(m) > l2_bytes; });
    if (moves) std::rotate(order.begin() + 1, order.begin() + 2, order.end());
    return order;
}

std::string levels_text(const std::vector<int>& order) {
    std::string s = "levels";
    for (std::size_t k = 0; k < order.size(); ++k) s.append(k ? "," : " ").append(std::to_string(order[k] + 1));
    return s;
}

}  // namespace tscope
