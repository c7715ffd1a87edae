// The CPU-only build's CUDA TTMc: there is none.
#include "gpu_ttmc.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

void ttmc_coo(const Coo&, const TtmcDense&, Timing&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
void launch_ttmc_peers(std::uint64_t, int, int, std::uint64_t, const std::uint32_t* const*, const float* const*,
                       const std::uint64_t*, const float*, double*) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}

}  // namespace tscope::gpu
