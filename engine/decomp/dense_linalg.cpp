#include "dense_linalg.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "blas_buffers.hpp"
#include "cuda/gpu_dense.hpp"
#include "tscope/error.hpp"
#include "tscope/parallel_errors.hpp"

namespace tscope::linalg {

namespace {

// How many SerialBlas scopes are open (any thread): while one is, OpenBLAS runs on its caller
// and the tall N x R steps split their rows over the OpenMP team themselves.
std::atomic<int> serial_scopes{0};

// The row ranges of a tall matrix's steps: one per OpenMP thread, or one for all when the matrix
// is short or OpenBLAS keeps its own threads (it would then be called from each at once).
struct RowSplit {
    int parts = 1;
    std::uint64_t rows = 0;
    std::uint64_t lo(int p) const { return rows * std::uint64_t(p) / std::uint64_t(parts); }
    std::uint64_t hi(int p) const { return lo(p + 1); }
};

RowSplit split_rows(std::uint64_t rows) {
    constexpr std::uint64_t kMinRowsPerPart = 4096;  // below this a BLAS call costs more to start than to run
    RowSplit s{1, rows};
#ifdef _OPENMP
    if (serial_scopes.load() > 0 && !address_space_limited())  // limited: one thread, one OpenBLAS buffer
        s.parts = static_cast<int>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(std::uint64_t(omp_get_max_threads()), rows / kMinRowsPerPart)));
#endif
    return s;
}

int as_int(std::uint64_t n) {
    if (n > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) throw InputError("a dense matrix is too large for BLAS");
    return static_cast<int>(n);
}

}  // namespace

DenseMatrix gram(const DenseMatrix& a, Where where) {
    const int n = as_int(a.cols);
    DenseMatrix g(a.cols, a.cols);
    g.fill(0);
    if (where == Where::Gpu) {
        as_int(a.rows);
        gpu::dense_gram(a.data.data(), a.rows, a.cols, g.data.data());
        return g;
    }
    ensure_blas_buffers();  // before the parallel parts: it may throw
    // each part's rows into a Gram of its own, added in part order: the same sum on every run
    const RowSplit split = split_rows(a.rows);
    std::vector<DenseMatrix> parts(static_cast<std::size_t>(split.parts), DenseMatrix(a.cols, a.cols));
    ParallelErrors errors;  // as_int refuses a part of 2^31 rows or more
#pragma omp parallel for schedule(static, 1) num_threads(split.parts) if (split.parts > 1)
    for (int p = 0; p < split.parts; ++p)
        errors.run([&] {
            DenseMatrix& part = parts[static_cast<std::size_t>(p)];
            part.fill(0);
            if (split.hi(p) > split.lo(p))
                cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, n, as_int(split.hi(p) - split.lo(p)), 1.0,
                            a.row(split.lo(p)), n, 0.0, part.data.data(), n);
        });
    errors.rethrow();
    for (const DenseMatrix& part : parts)
        for (std::size_t k = 0; k < g.data.size(); ++k) g.data[k] += part.data[k];
    for (std::uint64_t i = 0; i < a.cols; ++i)
        for (std::uint64_t j = 0; j < i; ++j) g.at(i, j) = g.at(j, i);
    return g;
}

void hadamard(DenseMatrix& a, const DenseMatrix& b) {
    for (std::uint64_t i = 0; i < a.data.size(); ++i) a.data[i] *= b.data[i];
}

DenseMatrix multiply(const DenseMatrix& a, bool ta, const DenseMatrix& b, bool tb) {
    const std::uint64_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols, n = tb ? b.rows : b.cols;
    if ((tb ? b.cols : b.rows) != k) throw Error("matrix shapes do not match in a product");
    DenseMatrix c(m, n);
    c.fill(0);
    if (m && n && k) {
        ensure_blas_buffers();
        cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, as_int(m), as_int(n), as_int(k),
                    1.0, a.data.data(), as_int(a.cols), b.data.data(), as_int(b.cols), 0.0, c.data.data(), as_int(n));
    }
    return c;
}

namespace {

// V = Q diag(w) Q^T (ascending w) on either side.
void eigen(DenseMatrix& q, std::vector<double>& w, Where where) {
    w.assign(q.rows, 0.0);
    if (where == Where::Gpu) {
        gpu::dense_symmetric_eigen(q.data.data(), q.rows, w.data());
        return;
    }
    const int r = as_int(q.rows);
    ensure_blas_buffers();
    if (LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'V', 'U', r, q.data.data(), r, w.data()) != 0)
        throw Error("the eigendecomposition did not converge");
}

}  // namespace

namespace {

// The 1-norm, for the condition estimate: a Cholesky of a numerically singular V succeeds with
// tiny pivots and would return huge factors.
double one_norm(const DenseMatrix& v) {
    double anorm = 0;
    for (std::uint64_t j = 0; j < v.cols; ++j) {
        double col = 0;
        for (std::uint64_t i = 0; i < v.rows; ++i) col += std::fabs(v.at(i, j));
        anorm = std::max(anorm, col);
    }
    return anorm;
}

// A Cholesky factor of v (lower, column-major) when v is positive definite and rcond > 1e-12.
bool well_conditioned_cholesky(DenseMatrix& f) {
    const int r = as_int(f.rows);
    ensure_blas_buffers();             // for potrf here, and potri or potrs after it
    const double anorm = one_norm(f);  // of V, before potrf overwrites it
    double rcond = 0;
    return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', r, f.data.data(), r) == 0 &&
           LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', r, f.data.data(), r, anorm, &rcond) == 0 && rcond > 1e-12;
}

// V^+ = Q diag(1/w, small w dropped) Q^T from V = Q diag(w) Q^T.
DenseMatrix pseudo_inverse(const DenseMatrix& v, Where where) {
    const int r = as_int(v.rows);
    DenseMatrix q = v;
    std::vector<double> w;
    eigen(q, w, where);
    const double top = r ? std::fabs(*std::max_element(w.begin(), w.end(), [](double x, double y) { return std::fabs(x) < std::fabs(y); })) : 0;
    const double cutoff = top * r * std::numeric_limits<double>::epsilon();
    DenseMatrix scaled = q;  // Q diag(1/w)
    for (std::uint64_t i = 0; i < v.rows; ++i)
        for (std::uint64_t j = 0; j < v.cols; ++j) scaled.at(i, j) = std::fabs(w[j]) > cutoff ? q.at(i, j) / w[j] : 0.0;
    return multiply(scaled, false, q, true);
}

}  // namespace

DenseMatrix spd_inverse(const DenseMatrix& v, bool* exact) {
    DenseMatrix f = v;
    const bool ok = well_conditioned_cholesky(f);
    if (exact) *exact = ok;
    if (!ok) return pseudo_inverse(v, Where::Host);
    const int r = as_int(v.rows);
    if (LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', r, f.data.data(), r) != 0) throw Error("the Cholesky inverse failed");
    for (int i = 0; i < r; ++i)  // potri fills the lower triangle (column-major): mirror it
        for (int j = i + 1; j < r; ++j) f.data[static_cast<std::size_t>(j) * r + i] = f.data[static_cast<std::size_t>(i) * r + j];
    return f;
}

bool solve_spd_right(DenseMatrix& m, const DenseMatrix& v, Where where) {
    if (where == Where::Gpu && gpu::dense_solve_spd_right(m.data.data(), m.rows, v.data.data(), v.rows)) return true;
    // m is rows x r row-major, i.e. m^T column-major with leading dimension r: solve V m^T = m^T
    DenseMatrix f = v;
    if (where == Where::Host && well_conditioned_cholesky(f)) {
        const int r = as_int(v.rows);
        const RowSplit split = split_rows(m.rows);  // each row's solve is independent of the others
        std::atomic<bool> failed{false};
        ParallelErrors errors;  // as_int refuses a part of 2^31 rows or more
#pragma omp parallel for schedule(static, 1) num_threads(split.parts) if (split.parts > 1)
        for (int p = 0; p < split.parts; ++p)
            errors.run([&] {
                if (split.hi(p) > split.lo(p) &&
                    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', r, as_int(split.hi(p) - split.lo(p)), f.data.data(), r,
                                   m.row(split.lo(p)), r) != 0)
                    failed = true;
            });
        errors.rethrow();
        if (failed) throw Error("the Cholesky solve failed");
        return true;
    }
    m = multiply(m, false, pseudo_inverse(v, where), false);
    return false;
}

std::vector<double> normalize_columns(DenseMatrix& a) {
    // each part's sums of squares, added in part order: the same norms on every run
    const RowSplit split = split_rows(a.rows);
    std::vector<std::vector<double>> sums(static_cast<std::size_t>(split.parts), std::vector<double>(a.cols, 0.0));
    std::vector<double> norms(a.cols, 0.0);
#pragma omp parallel num_threads(split.parts) if (split.parts > 1)
    {
#pragma omp for schedule(static, 1)
        for (int p = 0; p < split.parts; ++p) {
            std::vector<double>& sum = sums[static_cast<std::size_t>(p)];
            for (std::uint64_t i = split.lo(p); i < split.hi(p); ++i)
                for (std::uint64_t j = 0; j < a.cols; ++j) sum[j] += a.at(i, j) * a.at(i, j);
        }
#pragma omp single
        for (std::uint64_t j = 0; j < a.cols; ++j) {
            for (const auto& sum : sums) norms[j] += sum[j];
            norms[j] = std::sqrt(norms[j]);
        }
#pragma omp for schedule(static, 1)
        for (int p = 0; p < split.parts; ++p)
            for (std::uint64_t i = split.lo(p); i < split.hi(p); ++i)
                for (std::uint64_t j = 0; j < a.cols; ++j)
                    if (norms[j] > 0) a.at(i, j) /= norms[j];  // a zero column stays as it is
    }
    return norms;
}

DenseMatrix orthonormalize(const DenseMatrix& a) {
    DenseMatrix q = a;
    const int m = as_int(a.rows), n = as_int(a.cols);
    if (!m || !n) return q;
    ensure_blas_buffers();
    std::vector<double> tau(std::min(a.rows, a.cols));
    if (LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, m, n, q.data.data(), n, tau.data()) != 0 ||
        LAPACKE_dorgqr(LAPACK_ROW_MAJOR, m, n, n, q.data.data(), n, tau.data()) != 0)
        throw Error("the QR factorisation failed");
    return q;
}

namespace {

// The k leading eigenvectors (columns, largest eigenvalue first) of a symmetric n x n g.
DenseMatrix top_eigenvectors(DenseMatrix g, std::uint64_t k, Where where) {
    std::vector<double> w;
    eigen(g, w, where);
    DenseMatrix v(g.rows, k);  // eigenvalues ascend: the last k columns
    for (std::uint64_t i = 0; i < g.rows; ++i)
        for (std::uint64_t j = 0; j < k; ++j) v.at(i, j) = g.at(i, g.rows - 1 - j);
    return v;
}

// Randomized subspace iteration (Halko, Martinsson and Tropp 2011, Alg. 4.4): Q spans
// y's leading l = k + 10 left directions after three power passes, then the small l x cols
// problem Q^T y gives them exactly. Each pass costs about rows x cols x l, where the Gram of
// either side would cost its side cubed (a 4096-column TTMc result: 51 s an iteration).
DenseMatrix randomized_left_vectors(const DenseMatrix& y, std::uint64_t k, Where where, RunControl& control) {
    const std::uint64_t l = std::min({k + 10, y.rows, y.cols});
    DenseMatrix omega(y.cols, l);
    std::uint64_t state = 0x9e3779b97f4a7c15ULL;  // fixed: the same answer on every run
    for (double& x : omega.data) {  // uniform in [-1, 1): any full-rank start does
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        x = static_cast<double>(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    }
    DenseMatrix q = orthonormalize(multiply(y, false, omega, false));
    for (int pass = 0; pass < 3; ++pass) {
        control.check();
        const DenseMatrix right = orthonormalize(multiply(y, true, q, false));
        control.check();
        q = orthonormalize(multiply(y, false, right, false));
    }
    control.check();
    const DenseMatrix b = multiply(q, true, y, false);  // l x cols
    return multiply(q, false, top_eigenvectors(multiply(b, false, b, true), k, where), false);
}

}  // namespace

DenseMatrix leading_left_singular_vectors(const DenseMatrix& y, std::uint64_t k, Where where, RunControl& control) {
    if (k > y.rows || k > y.cols)
        throw InputError("a rank of " + std::to_string(k) + " needs at least as many rows and columns (have " +
                         std::to_string(y.rows) + " x " + std::to_string(y.cols) + ")");
    // Exact for small problems: the Gram of the shorter side. Rows x rows gives the left vectors
    // directly; cols x cols gives the right ones, and y V their left directions.
    constexpr std::uint64_t kExactSide = 1024;
    if (y.rows <= y.cols && y.rows <= kExactSide) return top_eigenvectors(multiply(y, false, y, true), k, where);
    if (y.cols < y.rows && y.cols <= kExactSide)
        return orthonormalize(multiply(y, false, top_eigenvectors(gram(y, where), k, where), false));
    return randomized_left_vectors(y, k, where, control);
}

SerialBlas::SerialBlas() : previous_(openblas_get_num_threads()) {
    openblas_set_num_threads(1);
    ++serial_scopes;
}

SerialBlas::~SerialBlas() {
    --serial_scopes;
    openblas_set_num_threads(previous_);
}

double frobenius_squared(const DenseMatrix& a) {
    double s = 0;
    for (std::uint64_t i = 0; i < a.data.size(); ++i) s += a.data[i] * a.data[i];
    return s;
}

}  // namespace tscope::linalg
