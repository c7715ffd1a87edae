// Tucker decomposition by higher-order orthogonal iteration (spttm-sspttm-tucker-gpu Alg. 6):
// for each mode n, the TTM chain Y = X x_m U_m (m != n: one SpTTM, then SspTTMs) gives Y_(n),
// whose leading R_n left singular vectors become U_n. After the last mode, the core is
// G = U_N^T Y_(N) and the fit 1 - sqrt(||X||^2 - ||G||^2) / ||X|| (orthonormal factors).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/decomp/decomposition.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

struct TuckerOptions {
    std::vector<std::uint64_t> ranks = {8};  // per mode; one value applies to every mode
    int max_iters = 25;
    double tolerance = 1e-5;
    std::uint64_t seed = 1;
    // true: HOSVD start, U_n from the range of X_(n) (a randomized range finder: X_(n) times a
    // seeded random sketch of its non-empty columns, R_n + 10 wide); false: random orthonormal.
    bool hosvd_init = true;
    // A relabelled tensor's ids in the file (--reorder), per mode: either start's random numbers
    // are drawn by them, as CpdOptions::original_ids. Empty: the tensor's own ids.
    std::vector<std::vector<std::uint64_t>> original_ids;
    Backend backend = Backend::Omp;  // the SpTTM/SspTTM chain: omp or cuda
};

struct TuckerResult {
    std::vector<DenseMatrix> factors;   // I_n x R_n, orthonormal columns
    std::vector<std::uint64_t> core_dims;
    std::vector<double> core;           // row-major, mode 1 most significant
    std::vector<IterationReport> iterations;
    double fit = 0;
    bool converged = false;
    double setup_seconds = 0;
};

TuckerResult tucker_hooi(const CooTensor& t, const TuckerOptions& options, const IterationCallback& on_iteration = {},
                         RunControl& control = no_control());

// Y_(n) of the TTM chain as a dense I_n x prod_{m != n} R_m matrix (Kronecker order: the other
// modes ascending, the first most significant), through SpTTM + SspTTMs. Exposed for tests.
DenseMatrix tucker_ttm_chain(const CooTensor& t, int mode, const std::vector<DenseMatrix>& factors,
                             Backend backend = Backend::Omp);

// DIR/mode1.mat ... (factors) and DIR/core.tns (the core, FROSTT text), each written whole or
// not at all.
void write_tucker(const TuckerResult& r, const std::string& dir);
// The files write_tucker writes for an order-N result, the factors' first.
std::vector<std::string> tucker_file_paths(const std::string& dir, int order);

}  // namespace tscope
