// MM-CSF's hot leaves. Where an MTTKRP's mode is the leaves of some of MM-CSF's partitions, those
// partitions run the nonzero algorithm (mm-csf Sec. 5): one row-sized atomic add into the output
// per nonzero, at L2. On the nell-2 shape those adds were 178M of the 436M sectors L2 moved for
// MM-CSF's mode 1, against 14M of B-CSF's 309M (session 43's Nsight Compute, gpu_mttkrp.cu). A
// power-law mode sends most of them to a few hundred rows. This ranks a mode's rows by the
// nonzeros at the leaves that add into them, once per resident tensor and mode, so that the
// launch can keep the first few hundred in each block's shared memory and flush them once at its
// end (hot_leaf_rows.cuh, gpu_mttkrp.cu's trees_hot_kernel). Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "cuda_util.cuh"

namespace tscope::gpu {

constexpr std::uint16_t kNotHot = 0xffff;
constexpr std::uint32_t kHotRanked = 2048;  // rows ranked at most (a block's shared memory holds 1,776)

// A mode's rows ranked by the nonzeros at the leaves that add into them, most first; only rows
// that take two or more are ranked (a row added once gains nothing in shared memory).
struct HotLeaves {
    DeviceArray<std::uint16_t> slot;     // per row of the mode: its rank, or kNotHot
    DeviceArray<std::uint32_t> row;      // per rank: the row
    std::vector<std::uint64_t> covered;  // covered[k]: the nonzeros that add into ranks 0..k
    std::uint64_t leaf_nnz = 0;          // the nonzeros at the leaves, in all
};

// Ranks the rows named by the leaf arrays given (device pointer, length), on the device (a
// histogram and a CUB radix sort of the rows by count). Throws tscope::Error where the device
// has no room for the counts (4 bytes a row and 16 for the sort).
HotLeaves rank_hot_leaves(const std::vector<std::pair<const std::uint32_t*, std::uint64_t>>& leaves);

}  // namespace tscope::gpu
