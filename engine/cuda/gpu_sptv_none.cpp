// The CPU-only build's CUDA SpTV: there is none.
#include "gpu_sptv.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

namespace {
[[noreturn]] void none() { throw Error("no CUDA device (this build has no CUDA backend)"); }
}  // namespace

void sptv_rows(const SptvRows&, const float*, std::uint64_t, float*, Timing&) { none(); }
void sptv_ell(const SptvEll&, const float*, std::uint64_t, float*, Timing&) { none(); }
void sptv_segments(const SptvSegments&, const float*, std::uint64_t, float*, Timing&) { none(); }

}  // namespace tscope::gpu
