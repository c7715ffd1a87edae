// cuBLAS / cuSOLVER for the decompositions' dense steps on the GPU.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <cmath>
#include <string>
#include <vector>

#include "cuda_util.cuh"
#include "dense_status.cuh"
#include "gpu_dense.hpp"

namespace tscope::gpu {

namespace {

class Blas {
public:
    Blas() { check_blas(cublasCreate(&h_), "starting cuBLAS"); }
    ~Blas() { cublasDestroy(h_); }
    Blas(const Blas&) = delete;
    Blas& operator=(const Blas&) = delete;
    cublasHandle_t get() const { return h_; }

private:
    cublasHandle_t h_{};
};

class Solver {
public:
    Solver() { check_solver(cusolverDnCreate(&h_), "starting cuSOLVER"); }
    ~Solver() { cusolverDnDestroy(h_); }
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;
    cusolverDnHandle_t get() const { return h_; }

private:
    cusolverDnHandle_t h_{};
};

}  // namespace

void dense_gram(const double* a, std::uint64_t rows, std::uint64_t cols, double* g) {
    use_device();
    Blas blas;
    DeviceArray<double> da(a, rows * cols), dg(cols * cols);
    dg.zero();
    // row-major a is column-major X = a^T (cols x rows); g = X X^T
    const double one = 1.0, zero = 0.0;
    if (rows)
        check_blas(cublasDsyrk(blas.get(), CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, static_cast<int>(cols), static_cast<int>(rows), &one, da.get(),
                               static_cast<int>(cols), &zero, dg.get(), static_cast<int>(cols)),
                   "forming the Gram matrix");
    dg.download(g);
    for (std::uint64_t i = 0; i < cols; ++i)  // column-major upper = row-major lower: mirror it
        for (std::uint64_t j = i + 1; j < cols; ++j) g[i * cols + j] = g[j * cols + i];
}

bool dense_solve_spd_right(double* m, std::uint64_t rows, const double* v, std::uint64_t r) {
    use_device();
    Solver solver;
    const int n = static_cast<int>(r);
    DeviceArray<double> dv(v, r * r), dm(m, rows * r);  // m^T column-major, leading dimension r
    DeviceArray<int> info(1);
    int work_n = 0;
    check_solver(cusolverDnDpotrf_bufferSize(solver.get(), CUBLAS_FILL_MODE_LOWER, n, dv.get(), n, &work_n), "sizing the Cholesky");
    DeviceArray<double> work(work_n > 0 ? static_cast<std::uint64_t>(work_n) : 1);
    check_solver(cusolverDnDpotrf(solver.get(), CUBLAS_FILL_MODE_LOWER, n, dv.get(), n, work.get(), work_n, info.get()), "factoring");
    int h_info = 0;
    info.download(&h_info);
    if (h_info != 0) return false;
    // a Cholesky of a numerically singular V succeeds with tiny pivots: judge by the diagonal
    std::vector<double> l(r * r);
    dv.download(l.data());
    double lo = INFINITY, hi = 0;
    for (std::uint64_t i = 0; i < r; ++i) lo = std::fmin(lo, std::fabs(l[i * r + i])), hi = std::fmax(hi, std::fabs(l[i * r + i]));
    if (!(hi > 0) || (lo / hi) * (lo / hi) < 1e-12) return false;
    if (rows) {
        check_solver(cusolverDnDpotrs(solver.get(), CUBLAS_FILL_MODE_LOWER, n, static_cast<int>(rows), dv.get(), n, dm.get(), n, info.get()),
                     "solving");
        info.download(&h_info);
        if (h_info != 0) throw Error("the cuSOLVER Cholesky solve failed");
    }
    dm.download(m);
    return true;
}

void dense_symmetric_eigen(double* g, std::uint64_t n, double* w) {
    use_device();
    Solver solver;
    const int nn = static_cast<int>(n);
    DeviceArray<double> dg(g, n * n), dw(n);
    DeviceArray<int> info(1);
    int work_n = 0;
    check_solver(cusolverDnDsyevd_bufferSize(solver.get(), CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, nn, dg.get(), nn, dw.get(), &work_n),
                 "sizing the eigendecomposition");
    DeviceArray<double> work(work_n > 0 ? static_cast<std::uint64_t>(work_n) : 1);
    check_solver(cusolverDnDsyevd(solver.get(), CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, nn, dg.get(), nn, dw.get(), work.get(), work_n,
                                  info.get()),
                 "the eigendecomposition");
    int h_info = 0;
    info.download(&h_info);
    if (h_info != 0) throw Error("the cuSOLVER eigendecomposition did not converge");
    // column-major eigenvectors (columns) read row-major are rows: transpose back
    std::vector<double> z(n * n);
    dg.download(z.data());
    for (std::uint64_t i = 0; i < n; ++i)
        for (std::uint64_t j = 0; j < n; ++j) g[i * n + j] = z[j * n + i];
    dw.download(w);
}

}  // namespace tscope::gpu
