// The argument checks every kernel, format and command shares, written once so that they
// say the same thing everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tscope {

class CooTensor;

// InputError "<label> <mode + 1> is out of range: the tensor has <order> modes" unless
// 0 <= mode < order (mode is 0-based; users see modes numbered from 1).
void check_mode(int mode, int order, const std::string& label = "mode");
// Error with query_gpu()'s reason where this process has no usable GPU.
void require_gpu();
// InputError "<what> would need <bytes> of memory; this machine has <memory>" where `bytes`
// passes this machine's memory (or what one allocation can be).
void check_fits_memory(long double bytes, const std::string& what);
// InputError, before any allocation, when a rows x cols matrix of doubles cannot be held: its
// size overflows or passes this machine's memory. `what` starts the message ("mode 3 has
// 9.2e18 indices; its rank-8 factor"), which goes on "would need 590 EB".
void check_dense_fits(std::uint64_t rows, std::uint64_t cols, const std::string& what);
// The same for `words` 8-byte values per index of each mode: "mode 3 has 9.2e18 indices; <what>
// would need ...". `what` names the tables ("its rank-8 factor").
void check_per_index_fits(const std::vector<std::uint64_t>& dims, std::uint64_t words, const std::string& what);
// The same for each mode's factor of a tensor at a rank; then all of them together with the
// longest mode's output and `beside_bytes` already held (the tensor).
void check_factors_fit(const std::vector<std::uint64_t>& dims, std::uint64_t rank, long double beside_bytes = 0);
// InputError unless a decomposition's doubles can hold this tensor's scale: ||X||^2
// (`squared_norm`) times the nonzero count, which bounds the Grams of a factor before it is
// normalised ((sum |x|)^2 <= nnz ||X||^2), must stay finite. Values near 1e308 otherwise fail
// later as a Cholesky solve or an eigendecomposition that "did not converge". The sum must
// also not underflow to 0: a fit of that means nothing.
void check_values_decomposable(double squared_norm, std::uint64_t nnz, const std::string& method);
// The GPU computes in fp32, and its kernels flush subnormal floats to zero: why a value of `t`
// would not survive there (past float's normal range either way), naming the first such value;
// empty where every value does. Sweep 65 on an H200: 1e39 became inf (CPD's eigensolver "did
// not converge"), and 1e-40 became 0 (CPD reported fit 0, "converged", exit 0).
std::string gpu_value_refusal(const CooTensor& t);
// InputError with gpu_value_refusal's reason, where it gives one.
void check_values_fit_gpu(const CooTensor& t);

}  // namespace tscope
