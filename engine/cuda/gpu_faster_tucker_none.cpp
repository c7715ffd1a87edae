// The CPU-only build's FasterTucker on the GPU: there is none.
#include "gpu_faster_tucker.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

struct FasterTuckerDevice::Impl {};
FasterTuckerDevice::FasterTuckerDevice(const std::vector<std::uint64_t>&, const std::vector<std::uint64_t>&, std::uint64_t,
                                       const std::vector<Fibers>&, const std::vector<RowEntries>&, const Entries&, const Entries&, const std::vector<const float*>&,
                                       const std::vector<const float*>&) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}
FasterTuckerDevice::~FasterTuckerDevice() = default;
double FasterTuckerDevice::epoch(float, float, float, float) { return 0; }
FtErrors FasterTuckerDevice::errors() const { return {}; }
void FasterTuckerDevice::download(const std::vector<float*>&, const std::vector<float*>&) const {}

}  // namespace tscope::gpu
