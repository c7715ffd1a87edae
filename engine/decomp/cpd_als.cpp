// CPD-ALS, mm-csf-mttkrp Alg. 1 (the ALS loop around MTTKRP), with the fit computed as SPLATT
// and Kolda & Bader do it: ||X - X^||^2 = ||X||^2 + ||X^||^2 - 2 <X, X^>, where
// ||X^||^2 = lambda^T (*_m A_m^T A_m) lambda and <X, X^> = sum_r lambda_r sum_i M(i,r) A_N(i,r)
// with M the last mode's MTTKRP. No dense tensor is ever formed.
#include "tscope/decomp/cpd_als.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

#include "cpd_device.hpp"
#include "cpd_fit.hpp"
#include "cpd_init.hpp"
#include "dense_linalg.hpp"
#include "fit_loop.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/io/text_file.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// One format per mode for the per-mode formats (CSF rooted at the mode, ...), one for all
// otherwise (MM-CSF, HiCOO).
std::vector<std::unique_ptr<SparseFormat>> build_formats(const CooTensor& t, const CpdOptions& o, RunControl& control) {
    std::vector<std::unique_ptr<SparseFormat>> formats;
    for (int m = 0; m < (format_is_per_mode(o.format) ? t.order() : 1); ++m) {
        FormatOptions fo;
        fo.mode = m;
        formats.push_back(build_format(o.format, t, fo, control));
    }
    return formats;
}

double inner_with_model(const DenseMatrix& mttkrp_out, const DenseMatrix& a, const std::vector<double>& lambda) {
    double s = 0;
    const auto rows = static_cast<std::int64_t>(a.rows);
#pragma omp parallel for reduction(+ : s) schedule(static) if (a.rows * a.cols > (1u << 16))
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::uint64_t r = 0; r < a.cols; ++r) s += mttkrp_out.at(std::uint64_t(i), r) * a.at(std::uint64_t(i), r) * lambda[r];
    return s;
}

}  // namespace

std::vector<FormatKind> cpd_formats(Backend backend) { return kernel_formats(KernelKind::MTTKRP, backend); }

const char* cpd_init_name(CpdInit init) { return init == CpdInit::Nvecs ? "nvecs" : "random"; }

CpdInit parse_cpd_init(const std::string& name) {
    if (name == "random") return CpdInit::Random;
    if (name == "nvecs") return CpdInit::Nvecs;
    throw InputError("--init for cpd must be random or nvecs, not '" + name + "'");
}

namespace {

// Every start of CPD-ALS on the host backends' formats, built once.
std::vector<CpdResult> cpd_host(const CooTensor& t, const CpdOptions& o, double norm_x,
                                const IterationCallback& on_iteration, RunControl& control) {
    const auto start = Clock::now();
    control.stage("building " + std::string(format_name(o.format)));
    const auto formats = build_formats(t, o, control);
    std::vector<MttkrpPlan> plans;  // cuda: each format goes to the device once
    for (const auto& f : formats) plans.emplace_back(o.backend, *f, o.rank);
    const double build_seconds = since(start);
    const int order = t.order();
    // the cuda backend does its dense steps with cuBLAS and cuSOLVER as well
    const linalg::Where dense = o.backend == Backend::Cuda ? linalg::Where::Gpu : linalg::Where::Host;

    auto run_start = [&](int k, Clock::time_point began) {
        const CpdOptions so = detail::start_options(o, k);
        CpdResult r;
        r.build_seconds = build_seconds;
        control.stage(so.init == CpdInit::Nvecs ? "nvecs: each unfolding's leading singular vectors" : "random starting factors");
        r.factors = detail::cpd_initial_factors(t, so.init, o.rank, so.seed, o.original_ids);
        std::vector<DenseMatrix> grams;
        for (const DenseMatrix& a : r.factors) grams.push_back(linalg::gram(a, dense));
        r.lambda.assign(o.rank, 1.0);
        r.setup_seconds = since(began);

        control.stage("CPD-ALS");
        const linalg::SerialBlas serial_blas;  // its dense steps are small: no second thread pool beside the kernels'
        detail::FitLoop loop(began, o.max_iters, o.tolerance, on_iteration, control);
        // Each mode's MTTKRP output is allocated once and then trades places with the factor it
        // becomes, so no iteration allocates (fresh pages fault in, zeroed, on every touch).
        std::vector<DenseMatrix> outputs;
        for (int n = 0; n < order; ++n) outputs.emplace_back(t.dim(n), o.rank);
        DenseMatrix last_m;  // the last mode's MTTKRP, for the fit's inner product
        for (int it = 1; it <= o.max_iters; ++it) {
            control.check();
            const auto t0 = Clock::now();
            IterationReport parts;
            parts.start = k;
            parts.mttkrp_seconds = parts.dense_seconds = 0;
            for (int n = 0; n < order; ++n) {
                MttkrpPlan& plan = plans[plans.size() == 1 ? 0 : static_cast<std::size_t>(n)];
                DenseMatrix& m = outputs[static_cast<std::size_t>(n)];
                auto t1 = Clock::now();
                plan.compute(n, r.factors, m, control);
                parts.mttkrp_seconds += since(t1);
                t1 = Clock::now();
                const DenseMatrix v = detail::hadamard_of_others(grams, n);
                if (n == order - 1) last_m = m;
                if (!linalg::solve_spd_right(m, v, dense)) ++r.pseudo_inverse_solves;
                r.lambda = linalg::normalize_columns(m);
                std::swap(r.factors[static_cast<std::size_t>(n)], m);  // the old factor's storage takes the next output
                grams[static_cast<std::size_t>(n)] = linalg::gram(r.factors[static_cast<std::size_t>(n)], dense);
                parts.dense_seconds += since(t1);
            }
            const auto t2 = Clock::now();
            // last_m is the last mode's MTTKRP, taken with every other factor current
            const double inner = inner_with_model(last_m, r.factors.back(), r.lambda);
            const double residual = norm_x + detail::model_norm_squared(grams, r.lambda) - 2 * inner;
            r.fit = detail::fit_from(norm_x, residual);
            parts.fit_seconds = since(t2);
            if (loop.converged(it, t0, r.fit, r.iterations, parts)) {
                r.converged = true;
                break;
            }
        }
        return r;
    };

    std::vector<CpdResult> results;
    for (int k = 0; k < o.restarts; ++k) {
        control.check();
        results.push_back(run_start(k, k == 0 ? start : Clock::now()));
    }
    return results;
}

}  // namespace

CpdResult cpd_als(const CooTensor& t, const CpdOptions& o, const IterationCallback& on_iteration, RunControl& control) {
    if (t.order() < 2) throw InputError("CPD needs a tensor of order 2 or more");
    if (o.rank == 0 || o.max_iters < 1) throw InputError("CPD needs a rank and at least one iteration");
    if (o.restarts < 1) throw InputError("--restarts must be at least 1");
    check_factors_fit(t.dims(), o.rank, static_cast<long double>(t.bytes()));
    if (!kernel_supports(KernelKind::MTTKRP, o.backend, o.format))
        throw InputError(std::string("MTTKRP has no ") + backend_name(o.backend) + " kernel for " + format_name(o.format));
    const double norm_x = squared_norm(t);
    check_values_decomposable(norm_x, t.nnz(), "CPD");
    if (o.backend == Backend::Cuda) check_values_fit_gpu(t);  // its MTTKRPs are fp32
    // the tensor side (formats, uploads, GPUs) is set up once, every start runs on it
    if (o.backend == Backend::Cuda && detail::cpd_runs_on_device(o.format))
        return detail::keep_best(detail::cpd_als_device(t, o, norm_x, on_iteration, control));
    return detail::keep_best(cpd_host(t, o, norm_x, on_iteration, control));
}

double cpd_dense_fit(const CooTensor& t, const std::vector<DenseMatrix>& factors, const std::vector<double>& lambda) {
    const int order = t.order();
    constexpr std::uint64_t kMaxCells = 50'000'000;
    std::uint64_t cells = 1;
    for (int m = 0; m < order; ++m) {  // checked before each product: dims of 2^32 wrapped to 0 (sweep 71a F3)
        if (t.dim(m) && cells > kMaxCells / t.dim(m)) throw InputError("cpd_dense_fit is for small tensors");
        cells *= t.dim(m);
    }
    std::vector<double> dense(cells, 0.0);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        std::uint64_t lin = 0;
        for (int m = 0; m < order; ++m) lin = lin * t.dim(m) + t.index(m, z);
        dense[lin] += t.value(z);
    }
    double diff = 0, norm = 0;
    std::vector<std::uint64_t> c(static_cast<std::size_t>(order), 0);
    for (std::uint64_t lin = 0; lin < cells; ++lin) {
        std::uint64_t rest = lin;
        for (int m = order - 1; m >= 0; --m) c[static_cast<std::size_t>(m)] = rest % t.dim(m), rest /= t.dim(m);
        double model = 0;
        for (std::size_t r = 0; r < lambda.size(); ++r) {
            double p = lambda[r];
            for (int m = 0; m < order; ++m) p *= factors[static_cast<std::size_t>(m)].at(c[static_cast<std::size_t>(m)], r);
            model += p;
        }
        diff += (dense[lin] - model) * (dense[lin] - model);
        norm += dense[lin] * dense[lin];
    }
    return 1 - std::sqrt(diff) / std::sqrt(norm);
}

std::vector<std::string> cpd_file_paths(const std::string& dir, int order) {
    std::vector<std::string> paths;
    for (int m = 0; m < order; ++m) paths.push_back(dir + "/mode" + std::to_string(m + 1) + ".mat");
    paths.push_back(dir + "/lambda.mat");
    return paths;
}

void write_cpd(const CpdResult& r, const std::string& dir) {
    std::filesystem::create_directories(dir);
    const std::vector<std::string> paths = cpd_file_paths(dir, static_cast<int>(r.factors.size()));
    DenseMatrix lambda(r.lambda.size(), 1);
    for (std::size_t i = 0; i < r.lambda.size(); ++i) lambda.at(i, 0) = r.lambda[i];
    std::vector<TextFile> files;
    for (std::size_t m = 0; m < r.factors.size(); ++m) files.push_back({paths[m], matrix_text(r.factors[m])});
    files.push_back({paths.back(), matrix_text(lambda)});
    write_text_files(files);  // one run's set, or the previous one whole
}

}  // namespace tscope
