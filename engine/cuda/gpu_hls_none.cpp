// The CPU-only build's HLS on the GPU: there is none.
#include "gpu_hls.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

void hls_multiply(const HlsDevInput&, int, bool, const std::array<const float*, 3>&, const std::array<std::uint64_t, 3>&, double*, Timing&) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}

}  // namespace tscope::gpu
