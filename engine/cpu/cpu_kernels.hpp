// The OpenMP kernels behind the public kernel interfaces. Private to the engine.
#pragma once

#include "tscope/kernels/mttkrp.hpp"

namespace tscope {

void mttkrp_omp(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                RunControl& control);

}  // namespace tscope
