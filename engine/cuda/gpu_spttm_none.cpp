// The CPU-only build's CUDA SpTTM: there is none.
#include "gpu_spttm.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

struct SpttmDevice::Impl {};

SpttmDevice::SpttmDevice(const SpttmInput&, std::uint64_t, std::uint64_t, Timing&) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}
SpttmDevice::SpttmDevice(const SspttmInput&, std::uint64_t, std::uint64_t, Timing&) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}
SpttmDevice::~SpttmDevice() = default;
void SpttmDevice::compute(SpttmKernel, const float*, float*, Timing&) {}

void SpttmDevice::update_values(const float*, Timing&) {}

}  // namespace tscope::gpu
