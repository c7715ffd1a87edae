// Which fiber kernel a rank-32 launch of CSF-family trees takes on the GPU: the team kernel (8
// lanes of one float4 a fiber) or the wide one (4 lanes of two float4s; mttkrp_fiber_teams.cuh, where
// the measurements behind the rule are). Plain C++17, no CUDA, so that the rule is tested on
// machines without a GPU (tests/engine/cuda/test_wide_teams.cpp). Private to the engine.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

namespace tscope::gpu {

// What the rule looks at in one launch: its trees' levels (the order - 1), whether any is cut into
// nonzero groups (clipped fibers: the wide loop walks whole fibers only), whether it is MM-CSF's
// several trees, and their nonzeros, fibers and groups (of 8 fibers, or fewer where cut to fit);
// leaf_nnz, the nonzeros of trees whose leaves are the output mode (the nonzero algorithm: an
// atomic a nonzero, where the others sum a fiber first).
struct LaunchShape {
    int levels = 0;
    bool several = false, clipped = false;
    std::uint64_t nnz = 0, fibers = 0, groups = 0, leaf_nnz = 0;
};

// Fewer nonzeros a fiber than this, on average, and the wide kernel runs.
constexpr std::uint64_t kWideFiber = 2;

// Where the wide fiber kernel compiled for rank 32 applies at all: R4 (the rank / 4) is 8, and
// the trees (order 3 or 4, their levels compiled in) walk whole fibers.
inline bool rank32_whole_fibers(const LaunchShape& s, std::uint32_t R4) {
    return R4 == 8 && !s.clipped && (s.levels == 2 || s.levels == 3);
}

// Where MM-CSF's several trees run wide, measured on one H200 in session 29 (trees_wide_kernel
// against the team kernel, h200-issue19-session29.json call 1): on the uniform shape, whose
// largest partition (63M of 76.9M nonzeros, 1.5 a fiber) has mode 3 as its leaves, modes 1 and 2
// ran 2.67-2.86 ms wide against 3.38-3.40, mode 3 3.36 against 3.00; on the delicious-4d shape
// (order 4) every mode ran slower wide (10.4-27.3 ms against 10.2-16.4 in session 27). So: order
// 3, and most nonzeros summed a fiber at a time rather than added one by one.
inline bool several_trees_wide(const LaunchShape& s) { return s.levels == 2 && 2 * s.leaf_nnz < s.nnz; }

// The blocks of 256 the wide kernel is bounded to for this launch, 0 for the team kernel. Four
// where the wide kernel applies (rank32_whole_fibers; for several trees several_trees_wide too)
// and the trees average under kWideFiber nonzeros a fiber, and give every one of the device's
// resident threads a lane (groups x 4 >= resident). forced, TENSORSCOPE_FIBER_WIDE's value (null
// where unset): 4, 5 or 6 runs the wide kernel bounded to that many blocks, another number the
// team kernel, "trees" lets several trees skip several_trees_wide (for comparisons), anything
// else the rule.
inline int wide_blocks(const LaunchShape& s, std::uint32_t R4, std::uint64_t resident, const char* forced) {
    if (!rank32_whole_fibers(s, R4)) return 0;
    if (forced && *forced >= '0' && *forced <= '9') {
        const unsigned long b = std::strtoul(forced, nullptr, 10);
        return b >= 4 && b <= 6 ? static_cast<int>(b) : 0;
    }
    if (s.several && !several_trees_wide(s) && !(forced && std::string(forced) == "trees")) return 0;
    return s.nnz < kWideFiber * s.fibers && s.groups * 4 >= resident ? 4 : 0;
}

}  // namespace tscope::gpu
