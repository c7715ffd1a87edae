// CPD by alternating least squares (mm-csf-mttkrp Alg. 1): X ~ sum_r lambda_r a1_r o ... o aN_r.
// Each mode's update is an MTTKRP through the chosen format and backend, then a solve with the
// Hadamard product of the other modes' Gram matrices (Cholesky, or a pseudo-inverse when it is
// not positive definite), then column normalisation into lambda. The fit of every iteration
// comes from the last mode's MTTKRP and the Gram matrices, without forming the dense tensor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/decomp/decomposition.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

struct CpdOptions {
    std::uint64_t rank = 16;
    int max_iters = 50;
    double tolerance = 1e-5;   // stop when the fit changes by less
    std::uint64_t seed = 1;    // the random initial factors
    FormatKind format = FormatKind::CSF;  // MTTKRP's format: one of cpd_formats(backend)
    Backend backend = Backend::Omp;
};

struct CpdResult {
    std::vector<DenseMatrix> factors;  // I_n x R, unit columns
    std::vector<double> lambda;        // R
    std::vector<IterationReport> iterations;
    double fit = 0;
    bool converged = false;
    int pseudo_inverse_solves = 0;     // solves where Cholesky failed
    double setup_seconds = 0;          // format build (and, on the GPU, the upload)
    double build_seconds = 0;          // the formats alone
    double upload_seconds = 0;         // cuda: the tensor to the device
    bool built_on_device = false;      // cuda: the formats were built on the GPU (COO, CSF, B-CSF)
    std::uint64_t peak_device_bytes = 0;  // cuda: the engine's device arrays at their peak
    // cuda: the dense steps' device time over the run: A = M V^-1, normalisation, Grams
    double solve_seconds = 0, normalize_seconds = 0, gram_seconds = 0;
};

// The formats CPD-ALS can run its MTTKRPs on with a backend: the kernel registry's MTTKRP entries.
std::vector<FormatKind> cpd_formats(Backend backend);

CpdResult cpd_als(const CooTensor& t, const CpdOptions& options, const IterationCallback& on_iteration = {},
                  RunControl& control = no_control());

// ||X - X^||^2 by brute force over every cell: a check for small tensors in the tests.
double cpd_dense_fit(const CooTensor& t, const std::vector<DenseMatrix>& factors, const std::vector<double>& lambda);

// SPLATT-style output: DIR/mode1.mat ... modeN.mat and DIR/lambda.mat (one value per line).
void write_cpd(const CpdResult& r, const std::string& dir);

}  // namespace tscope
