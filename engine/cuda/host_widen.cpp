#include "cuda/host_widen.hpp"

namespace tscope::gpu {

void widen(const float* in, double* out, std::uint64_t n) {
    const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static) if (count > (1 << 18))
    for (std::int64_t i = 0; i < count; ++i) out[i] = in[i];
}

}  // namespace tscope::gpu
