// HLS on the GPU (hls-tcu-sptmcm Alg. 1-2): dense 16^3 tiles on the tensor cores (WMMA, fp16
// inputs, fp32 accumulation): a tile unfolded in the output mode (16 x 256) times the 256 rows
// of the other two modes' Khatri-Rao product (MTTKRP) or Kronecker product (TTMc), built on the
// fly 16 x 16 at a time; the sparse nonzeros on CUDA cores, a warp each. Private; plain arrays.
#pragma once

#include <array>
#include <cstdint>

#include "gpu_timing.hpp"

namespace tscope::gpu {

struct HlsDevInput {
    std::uint64_t tiles = 0;
    const float* cells = nullptr;           // tiles x 4096, cell (i,j,k) at i*256 + j*16 + k
    const std::uint32_t* origin = nullptr;  // tiles x 3: each tile's first index per mode
    std::uint64_t nnz = 0;                  // the sparse part
    std::array<const std::uint32_t*, 3> idx{};
    const float* vals = nullptr;
    std::array<std::uint64_t, 3> dims{};
};

// MTTKRP (kron = false: out is dims[mode] x R, factors[m] dims[m] x R) or TTMc (kron = true:
// out is dims[mode] x R_a R_b over the other two modes a < b, factors[m] dims[m] x ranks[m]).
// fp64 output, written on return.
void hls_multiply(const HlsDevInput& x, int mode, bool kron, const std::array<const float*, 3>& factors,
                  const std::array<std::uint64_t, 3>& ranks, double* out, Timing& timing);

}  // namespace tscope::gpu
