// The CPU-only build's device group: there is none.
#include "gpu_collective.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

struct DeviceGroup::Impl {};
bool nccl_built() { return false; }

DeviceGroup::DeviceGroup(const std::vector<int>&, bool) { throw Error("no CUDA device (this build has no CUDA backend)"); }
DeviceGroup::~DeviceGroup() = default;
void DeviceGroup::allreduce(const std::vector<void*>&, std::uint64_t, bool) {}
void DeviceGroup::allgather(const std::vector<void*>&, const std::vector<std::uint64_t>&, bool) {}
void DeviceGroup::reduce_scatter(const std::vector<void*>&, const std::vector<std::uint64_t>&, bool) {}
void DeviceGroup::synchronize() const {}

}  // namespace tscope::gpu
