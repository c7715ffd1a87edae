// The level order of the CSF family's trees for the CUDA MTTKRP (kernels/gpu_level_order.cpp):
// SPLATT's order unless a tiny mode belongs at the leaves. Private to the engine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tscope {

// The most bytes a factor may take to go to the leaves: the L1 and shared memory of an H100's or
// H200's SM (256 KiB). Delicious-4d's 1,443-row factor at rank 32, the one case measured, takes 185 KB.
constexpr std::uint64_t kGpuLeafFactorBytes = 256 * 1024;

// The modes' order for a tree rooted at `mode` whose MTTKRP runs on the GPU at `rank`, on a
// device with `l2_bytes` of L2: SPLATT's (default_mode_order: the others by increasing length),
// but with the shortest other mode moved to the leaves where its fp32 factor fits
// kGpuLeafFactorBytes while every other mode below the root has a factor larger than the L2.
// rank 0 (not known yet) or l2_bytes 0 (no device) keeps SPLATT's order.
std::vector<int> gpu_level_order(const std::vector<std::uint64_t>& dims, int mode, std::uint64_t rank,
                                 std::uint64_t l2_bytes);

// MM-CSF's partition whose leaves are mode `leaf`, run on the GPU: the paper's order
// (mmcsf_partition_order: the other modes by increasing length, root first), but with the
// shortest of those moved from the root to just above the leaves (the leaves are the partition's
// own mode) under gpu_level_order's two conditions. rank 0 or l2_bytes 0 keeps the paper's.
std::vector<int> gpu_mmcsf_partition_order(const std::vector<std::uint64_t>& dims, int leaf, std::uint64_t rank,
                                           std::uint64_t l2_bytes);
// Every partition's, indexed by leaf mode (FormatOptions::mmcsf_orders), or none where each is the
// paper's or TENSORSCOPE_MMCSF_LEVELS=paper asks for the paper's.
std::vector<std::vector<int>> gpu_mmcsf_orders(const std::vector<std::uint64_t>& dims, std::uint64_t rank,
                                               std::uint64_t l2_bytes);

// A tree's levels as a bench row's path and the advisor's caveat name them, 1-based: "levels 1,3,2,4".
std::string levels_text(const std::vector<int>& order);
// MM-CSF's partitions' levels, the same way: "partitions' levels 3,4,2,1; 1,3,4,2; ...".
std::string partition_levels_text(const std::vector<std::vector<int>>& orders);

}  // namespace tscope
