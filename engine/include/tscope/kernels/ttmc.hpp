// TTMc, the TTM chain (SpTTMChain of hls-tcu-sptmcm Eq. 3 and 7): the tensor multiplied by
// every factor matrix but mode n's, unfolded in mode n:
//   Y_(n)(i_n, :) = sum over nonzeros X(i_1..i_N) * kron_{m != n} U_m(i_m, :)
// U_m is I_m x R_m; Y_(n) is I_n x prod R_m. Kronecker order: the other modes ascending, the
// first most significant (Eq. 3: B(j,:) kron C(k,:)). This is what Tucker-HOOI feeds its SVD.
// Flops on the COO basis: 2 nnz prod R_m.
#pragma once

#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

// The oracle, serial over the COO nonzeros; `control` is checked every 64Ki nonzeros.
void ttmc_reference(const CooTensor& t, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                    RunControl& control = no_control());

// Formats: COO; CSF built with ttmc_options (the mode at the root, the others ascending);
// HLS (order 3). out must be dims[mode] x prod_{m != mode} factors[m].cols.
// cuda: COO only; timing (optional) gets its transfers and kernel apart.
void ttmc(Backend backend, const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors,
          DenseMatrix& out, RunControl& control = no_control(), DeviceTiming* timing = nullptr);
FormatOptions ttmc_options(int order, int mode);
std::uint64_t ttmc_columns(const std::vector<DenseMatrix>& factors, int mode);

}  // namespace tscope
