// The CPU-only build's MM-CSF partitioning on the device: there is none.
#include "gpu_mmcsf_partition.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

std::vector<std::uint8_t> mmcsf_partition(const DeviceCoo&, const MmcsfPartitionOptions&, MmcsfPartitionStats*) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}

}  // namespace tscope::gpu
