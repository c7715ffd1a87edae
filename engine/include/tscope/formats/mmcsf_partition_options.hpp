// How MM-CSF's dynamic partitioning (balanced_formats.hpp's mmcsf_partition, and the device's in
// engine/cuda/gpu_mmcsf_partition.hpp) cuts its work, and how the pass went. Plain C++17: the
// CUDA sources include it.
#pragma once

#include <cstdint>

namespace tscope {

struct MmcsfPartitionOptions {
    std::uint64_t block = std::uint64_t{1} << 22;  // nonzeros solved together
    int max_sweeps = 12;                           // before a block's unsettled rest moves on
};

// Blocks solved, sweeps over them, nonzeros left to the serial loop (the rest of a block that
// settled less than an eighth of itself in max_sweeps).
struct MmcsfPartitionStats {
    std::uint64_t blocks = 0, sweeps = 0, serial_nonzeros = 0;
};

}  // namespace tscope
