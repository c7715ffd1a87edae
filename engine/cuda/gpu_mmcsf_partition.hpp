// MM-CSF's partitioning (mm-csf Alg. 5, the dynamic strategy) on the device, from the COO copy
// the device builds start from: what the CPD on the GPU needs before it builds MM-CSF's trees
// there. The host's mmcsf_partition (engine/formats/mmcsf_partition.cpp) took 8.7-11.8 s of the
// CPD's setup on the nell-2 shape (76.9M nonzeros) on an H200's 16-core host, against 0.03 s for
// the trees' build on the device; on the device the partition and the build took 0.39-0.44 s and
// the setup 0.77-0.89 s, the same fit (session 42, h200-issue19-session42.json, calls 1-2 and 5).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu_mttkrp.hpp"
#include "tscope/formats/mmcsf_partition_options.hpp"

namespace tscope::gpu {

// Each nonzero's partition, label for label the host's mmcsf_partition with the same options:
// the same fiber ids (a stable sort per mode by the other modes), the same blocks in input order
// solved by the same Jacobi sweeps (each a few kernels), the same serial pass for a block's
// unsettled rest; `stats` counts as the host's does. Throws Error("out of GPU memory ...") where
// the device lacks room: about 20 bytes a nonzero for each mode, beside the COO.
std::vector<std::uint8_t> mmcsf_partition(const DeviceCoo& coo, const MmcsfPartitionOptions& options = {},
                                          MmcsfPartitionStats* stats = nullptr);

}  // namespace tscope::gpu
