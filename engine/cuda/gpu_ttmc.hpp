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

// The peers kernel on arrays already on the device, on the default stream (HLS's TTMc sparse
// part, gpu_hls.cu, takes it too): idx[m], factors[m] (rows x ranks[m] fp32; the mode's unused)
// for m < order, nnz values; out (rows x cols, fp64) accumulates.
void launch_ttmc_peers(std::uint64_t nnz, int order, int mode, std::uint64_t cols, const std::uint32_t* const* idx,
                       const float* const* factors, const std::uint64_t* ranks, const float* vals, double* out);

}  // namespace tscope::gpu
