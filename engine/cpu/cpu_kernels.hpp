// The OpenMP kernels behind the public kernel interfaces. Private to the engine.
#pragma once

#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/sptv.hpp"

namespace tscope {

void mttkrp_omp(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                RunControl& control);

CooTensor sptv_omp(const SparseFormat& format, int mode, const std::vector<double>& v, RunControl& control);
// SpTV's result for a format without the values (zero): its fibers, in the format's fiber
// order, with their coordinates. The cuda backend fills in the values it computes.
CooTensor sptv_layout(const SparseFormat& format, int mode);
// The first nonzero of every mode-n fiber of a COO sorted with the mode last, plus nnz.
std::vector<std::uint64_t> coo_fiber_starts(const SparseFormat& coo, int mode);

}  // namespace tscope
