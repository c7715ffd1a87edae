// Dense algebra on the GPU for the decompositions' cuda backend: cuBLAS for the Gram matrix,
// cuSOLVER for the Cholesky solve and the symmetric eigendecomposition (fp64). Row-major
// matrices as the engine stores them. Private; no CUDA types here.
#pragma once

#include <cstdint>

namespace tscope::gpu {

// g (cols x cols) = a^T a for row-major a (rows x cols).
void dense_gram(const double* a, std::uint64_t rows, std::uint64_t cols, double* g);
// m (rows x r, row-major) <- m V^{-1} by Cholesky (potrf + potrs); false, m untouched, when V is
// not positive definite or too badly conditioned for it (the caller falls back).
bool dense_solve_spd_right(double* m, std::uint64_t rows, const double* v, std::uint64_t r);
// Eigenvalues ascending into w and the eigenvectors as the columns of g (n x n, symmetric).
void dense_symmetric_eigen(double* g, std::uint64_t n, double* w);

}  // namespace tscope::gpu
