// The CPU-only build's CUDA SpTV: there is none.
#include "gpu_sptv.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

struct SptvDevice::Impl {};

SptvDevice::SptvDevice(const SptvRows&, std::uint64_t, Timing&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
SptvDevice::SptvDevice(const SptvEll&, std::uint64_t, Timing&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
SptvDevice::SptvDevice(const SptvTuples&, std::uint64_t, Timing&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
SptvDevice::~SptvDevice() = default;
std::uint64_t SptvDevice::outputs() const { return 0; }
std::uint64_t SptvDevice::packed() const { return 0; }
bool SptvDevice::replays() const { return false; }
void SptvDevice::compute(const float*, float*, Timing&) {}

}  // namespace tscope::gpu
