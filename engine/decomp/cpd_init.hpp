// CPD-ALS's starting factors (shared by the host and the device CPD). Private to engine/decomp.
#pragma once

#include <vector>

#include "tscope/decomp/cpd_als.hpp"

namespace tscope::detail {

// One I_n x R matrix per mode: random (seeded per mode), or nvecs, the R leading left singular
// vectors of each unfolding X_(n) (columns past min(R, I_n, X_(n)'s columns) random).
std::vector<DenseMatrix> cpd_initial_factors(const CooTensor& t, CpdInit init, std::uint64_t rank, std::uint64_t seed);

}  // namespace tscope::detail
