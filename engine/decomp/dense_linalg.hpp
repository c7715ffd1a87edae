// The small dense algebra the decompositions need, on OpenBLAS and LAPACKE. Matrices are the
// engine's row-major DenseMatrix. Private to engine/decomp.
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/run_control.hpp"

namespace tscope::linalg {

// Where the dense steps run: Host is OpenBLAS/LAPACK; Gpu is cuBLAS/cuSOLVER (the cuda
// backend of the decompositions), with the small R x R leftovers on the host.
enum class Where { Host, Gpu };

// A^T A (cols x cols), both triangles filled.
DenseMatrix gram(const DenseMatrix& a, Where where = Where::Host);
// a <- a .* b (same shape).
void hadamard(DenseMatrix& a, const DenseMatrix& b);
// C = op(A) op(B).
DenseMatrix multiply(const DenseMatrix& a, bool transpose_a, const DenseMatrix& b, bool transpose_b);
// m <- m V^{-1} for a symmetric V (R x R): Cholesky (potrf/potrs); when V is not positive
// definite, m V^+ through V's eigendecomposition (syevd). Returns false when it fell back.
bool solve_spd_right(DenseMatrix& m, const DenseMatrix& v, Where where = Where::Host);
// V^{-1} of a symmetric R x R V on the host: Cholesky (potrf, potri) where V is positive definite
// and not near singular; V's pseudo-inverse through its eigendecomposition otherwise (*exact is
// then false). What the device CPD sends back for A = M V^{-1}.
DenseMatrix spd_inverse(const DenseMatrix& v, bool* exact = nullptr);
// Divides each column by its 2-norm; returns the norms (a zero column keeps norm 0).
std::vector<double> normalize_columns(DenseMatrix& a);
// The k leading left singular vectors of y (rows x cols, k <= min(rows, cols)): eigenvectors
// of y^T y give the right ones, y V gives the left directions, a QR makes them orthonormal.
// control is checked between the passes of the randomized method (wide y on both sides: at
// rank 128 a Tucker mode's 3,000 x 16,384 y took a second, seen by no cancel).
DenseMatrix leading_left_singular_vectors(const DenseMatrix& y, std::uint64_t k, Where where = Where::Host,
                                          RunControl& control = no_control());
// An orthonormal basis of a's columns (QR, thin Q).
DenseMatrix orthonormalize(const DenseMatrix& a);
double frobenius_squared(const DenseMatrix& a);

// OpenBLAS runs on a thread pool of its own, beside the OpenMP team of the sparse kernels. After
// each call its threads spin for a while, and the MTTKRP that follows shares the cores with them:
// on 2 cores a CPD-ALS iteration's MTTKRP then took 0.047-0.155 s instead of 0.046-0.059 s (the 5M
// power-law tensor, rank 16). Loops that alternate kernels with small dense steps (an N x R by
// R x R solve, an R x R Gram) hold one of these for their length: OpenBLAS runs on the calling
// thread, gram(), normalize_columns() and the host solve_spd_right() split a tall matrix's rows over the OpenMP team
// instead, and the previous thread count comes back when it ends.
class SerialBlas {
public:
    SerialBlas();
    ~SerialBlas();
    SerialBlas(const SerialBlas&) = delete;
    SerialBlas& operator=(const SerialBlas&) = delete;

private:
    int previous_;
};

}  // namespace tscope::linalg
