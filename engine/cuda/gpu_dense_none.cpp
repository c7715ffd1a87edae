// The CPU-only build's GPU dense algebra: there is none.
#include "gpu_dense.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

void dense_gram(const double*, std::uint64_t, std::uint64_t, double*) { throw Error("no CUDA device (this build has no CUDA backend)"); }
bool dense_solve_spd_right(double*, std::uint64_t, const double*, std::uint64_t) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}
void dense_symmetric_eigen(double*, std::uint64_t, double*) { throw Error("no CUDA device (this build has no CUDA backend)"); }

}  // namespace tscope::gpu
