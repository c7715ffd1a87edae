// Sparse FastTucker by SGD, as FasterTucker computes it (cufastertucker Sec. III, Alg. 2-5):
//   x^(i_1..i_N) = sum_r prod_n a(n)_{i_n} . b(n)_{:,r}
// with factor matrices A(n) (I_n x J_n) and core matrices B(n) (J_n x R), the Kruskal core.
// The reusable intermediates C(n) = A(n) B(n) (Alg. 3) are kept and refreshed after each
// mode's update; the shared intermediate B(n) Q(n)^T s^T is computed once per mode-n fiber of
// a B-CSF tree whose leaves are mode n and serves every nonzero of that fiber (Alg. 4-5).
// Factor rows take SGD steps per nonzero (Eq. 9-10); core matrices take one step per mode
// from the gradient summed over the training set (Eq. 11, Alg. 5 line 34).
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

// How the factor rows' SGD steps are scheduled. Hogwild (the paper's): workers take fibers and
// update the rows of their nonzeros in place while others read them, so the result depends on
// timing. Ordered: every fiber's shared intermediate first, then one worker per factor row
// applies that row's steps in the tree's order: the serial sweep's result with any number of
// workers, on CPU or GPU alike (reproducible, and the two backends agree within rounding), at
// the price of an F x J buffer and of heavy rows running serially.
enum class FtSchedule { Hogwild, Ordered };
const char* ft_schedule_name(FtSchedule s);               // hogwild, ordered
FtSchedule parse_ft_schedule(const std::string& name);   // InputError naming the choices

struct FasterTuckerOptions {
    std::vector<std::uint64_t> j_ranks = {16};  // J_n; one value applies to every mode
    std::uint64_t r_rank = 16;                   // R, the core's rank
    int epochs = 50;
    double lr_a = 0.0003, lr_b = 0.1;            // gamma_A (per nonzero), gamma_B (per mean gradient)
    double reg_a = 0.01, reg_b = 0.01;           // lambda_A, lambda_B
    double test_fraction = 0.1;                  // held out, chosen by the seed
    std::uint64_t seed = 1;
    std::uint64_t fiber_threshold = 128;         // B-CSF's sub-fiber length
    Backend backend = Backend::Omp;
    FtSchedule schedule = FtSchedule::Hogwild;
};

struct FasterTuckerResult {
    std::vector<DenseMatrix> a;  // I_n x J_n
    std::vector<DenseMatrix> b;  // J_n x R
    std::vector<IterationReport> iterations;
    std::uint64_t train_nnz = 0, test_nnz = 0;
    double global_mean = 0;      // of the training values
    double mean_predictor_test_rmse = 0;  // what always predicting the global mean scores
    double setup_seconds = 0;
};

FasterTuckerResult faster_tucker(const CooTensor& t, const FasterTuckerOptions& options,
                                 const IterationCallback& on_iteration = {}, RunControl& control = no_control());

// x^ at one coordinate from the model (for tests and predictions).
double faster_tucker_predict(const FasterTuckerResult& model, const std::uint64_t* coord);

}  // namespace tscope
