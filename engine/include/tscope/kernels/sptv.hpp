// SpTV, the tensor-times-vector product in mode n (hocfs-sptv-pipeline Sec. 6.1, Alg. 3-6):
//   Y(i_others) = sum over i_n of X(..., i_n, ...) * v(i_n)
// The result is what the paper returns, a sparse matrix (for order 3) of fiber results: one
// value per non-empty mode-n fiber, as an order-(N-1) CooTensor over the other modes in
// ascending order, sorted. Flops: 2 nnz.
#pragma once

#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

// The oracle: serial, from coordinates.
CooTensor sptv_reference(const CooTensor& t, int mode, const std::vector<double>& v);

// Each format computes SpTV for the mode it was built to contract: COO, HOCSR, HOCFS and CSF
// built with sptv_options(), CFB built for the mode. InputError for another mode.
// cuda: fp32 values on the device; timing (optional) gets its transfers and kernel apart.
CooTensor sptv(Backend backend, const SparseFormat& format, int mode, const std::vector<double>& v,
               RunControl& control = no_control(), DeviceTiming* timing = nullptr);
bool sptv_supports(Backend backend, FormatKind kind);
// How to build `kind` so that it contracts `mode`: the other modes first, the mode last
// (HOCSR's columns, HOCFS's Aj, CSF's leaves; COO sorted so its fibers are contiguous).
FormatOptions sptv_options(FormatKind kind, int order, int mode);

// max relative error of a against the reference when both have the same coordinates in the
// same order; infinity otherwise.
double sparse_max_relative_error(const CooTensor& a, const CooTensor& reference);

}  // namespace tscope
