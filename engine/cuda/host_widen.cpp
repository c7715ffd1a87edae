#include "cuda/host_widen.hpp"

namespace tscope::gpu {

namespace {
constexpr std::int64_t kParallelFrom = 1 << 18;  // below this, one thread is quicker than a team
}

void widen(const float* in, double* out, std::uint64_t n) {
    const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static) if (count > kParallelFrom)
    for (std::int64_t i = 0; i < count; ++i) out[i] = in[i];
}

float* Staging::data() {
    if (!data_) data_ = std::make_unique_for_overwrite<float[]>(n_);
    return data_.get();
}

}  // namespace tscope::gpu
