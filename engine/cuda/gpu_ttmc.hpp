// TTMc on the GPU from COO: a warp per 32 nonzeros sums those of one output row in registers, a
// lane a column of the Kronecker product of the other modes' rows, and adds each sum into the
// output row with fp64 atomics (gpu_ttmc.cu). Private; plain arrays only.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu_mttkrp.hpp"

namespace tscope::gpu {

// factors[m] is rows[m] x ranks[m] (fp32, row-major; the output mode's may be null). out:
// rows[mode] x prod of the other ranks, the other modes ascending, the first most significant.
struct TtmcDense {
    int mode = 0;
    std::vector<const float*> factors;
    std::vector<std::uint64_t> rows, ranks;
    double* out = nullptr;
};

void ttmc_coo(const Coo& coo, const TtmcDense& dense, Timing& timing);

}  // namespace tscope::gpu
