// The CPU-only build's CUDA MTTKRP: there is none.
#include "gpu_mttkrp.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

double copy_bandwidth_gbps() { return 0; }

void mttkrp_coo(const Coo&, const Dense&, Timing&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
void mttkrp_fibers(const std::vector<Fibers>&, const Dense&, Timing&) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}

struct ResidentTensor::Impl {};
ResidentTensor::ResidentTensor(const Coo&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
ResidentTensor::ResidentTensor(const std::vector<Fibers>&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
ResidentTensor::~ResidentTensor() = default;
void ResidentTensor::mttkrp(const Dense&, Timing&) const { throw Error("no CUDA device (this build has no CUDA backend)"); }

}  // namespace tscope::gpu
