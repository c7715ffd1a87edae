// The cuda backend of MTTKRP and TTMc on HLS (hls-tcu-sptmcm Alg. 1-2): expands the dense
// tiles and unpacks the sparse nonzeros into gpu_hls.hpp's arrays (fp32; the tensor cores take
// fp16), runs, and writes the fp64 result. Private.
#pragma once

#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"

namespace tscope::detail {

// false when `format` is not HLS. kron: TTMc (out: dims[mode] x R_a R_b), else MTTKRP.
bool hls_cuda(const SparseFormat& format, int mode, bool kron, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
              DeviceTiming* timing);

}  // namespace tscope::detail
