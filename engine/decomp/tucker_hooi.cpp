// Tucker-HOOI, spttm-sspttm-tucker-gpu Alg. 6. Each mode's TTM chain is prepared once (the
// papers' preprocessing stage: fibers, chunks and the results' indices) and computed again in
// every iteration with the current factors.
#include "tscope/decomp/tucker_hooi.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "../tensor/random.hpp"
#include "dense_linalg.hpp"
#include "fit_loop.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/io/text_file.hpp"
#include "tscope/kernels/spttm.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The chain for mode n: X sorted (n, o_1 .. o_k); SpTTM multiplies o_k, then SspTTM o_{k-1},
// ..., o_1, each on the last sparse mode (so Alg. 5 never re-sorts). The result keeps mode n
// sparse, one chunk per non-empty slice, dense modes o_1 .. o_k with o_1 most significant.
class TtmChain {
public:
    TtmChain(const CooTensor& t, int mode, const std::vector<std::uint64_t>& ranks, Backend backend) : mode_(mode) {
        FormatOptions o;
        o.mode_order.push_back(mode);
        for (int m = 0; m < t.order(); ++m)
            if (m != mode) o.mode_order.push_back(m);
        o.mode = mode;
        x_ = build_format(FormatKind::COO, t, o);
        const SparseFormat* input = x_.get();
        for (std::size_t k = o.mode_order.size() - 1; k >= 1; --k) {
            const int m = o.mode_order[k];
            modes_.push_back(m);
            plans_.push_back(SpttmPlan::prepare(*input, m, ranks[static_cast<std::size_t>(m)], backend));
            input = &plans_.back().result();
        }
        rows_ = t.dim(mode);
    }
    TtmChain(TtmChain&&) = default;

    // Y_(n): rows of empty slices stay zero.
    DenseMatrix compute(const std::vector<DenseMatrix>& factors, RunControl& control) {
        for (std::size_t s = 0; s < plans_.size(); ++s) plans_[s].compute(factors[static_cast<std::size_t>(modes_[s])], control);
        const SparseFormat& y = plans_.back().result();
        DenseMatrix out;
        visit_format(y, overloaded{[&]<class I>(const ScooFormat<I, double>& f) { unfold(f, out); },
                                   [](const SparseFormat&) { throw Error("the TTM chain returned an unexpected format"); }});
        return out;
    }

private:
    template <class I>
    void unfold(const ScooFormat<I, double>& f, DenseMatrix& out) const {
        const auto* y = &f;
        if (y->sparse_modes.size() != 1 || y->sparse_modes.front() != mode_) throw Error("the TTM chain left more than one sparse mode");
        const std::uint64_t cols = y->chunk_size();
        out = DenseMatrix(rows_, cols);
        out.fill(0.0);
        for (std::uint64_t c = 0; c < y->chunks(); ++c) {
            const std::uint64_t row = y->idx.front()[c];
            for (std::uint64_t j = 0; j < cols; ++j) out.at(row, j) = y->vals[c * cols + j];
        }
    }

    int mode_;
    std::uint64_t rows_ = 0;
    std::unique_ptr<SparseFormat> x_;
    std::vector<SpttmPlan> plans_;
    std::vector<int> modes_;
};

std::vector<std::uint64_t> ranks_for(const CooTensor& t, const std::vector<std::uint64_t>& given) {
    if (given.empty() || (given.size() != 1 && given.size() != static_cast<std::size_t>(t.order())))
        throw InputError("Tucker needs one rank, or one per mode (" + std::to_string(t.order()) +
                         "; --rank R or R1,R2,...)");
    std::vector<std::uint64_t> r;
    for (int m = 0; m < t.order(); ++m) {
        const std::uint64_t rank = given.size() == 1 ? given.front() : given[static_cast<std::size_t>(m)];
        if (rank == 0 || rank > t.dim(m))
            throw InputError("Tucker rank " + std::to_string(rank) + " for mode " + std::to_string(m + 1) +
                             " must be 1 to its length " + std::to_string(t.dim(m)) + " (--rank)");
        r.push_back(rank);
    }
    std::uint64_t others = 1;
    for (std::uint64_t x : r) others *= x;
    if (others > (1u << 24)) throw InputError("the Tucker core would have more than 2^24 entries");
    return r;
}

// HOSVD start: the range of X_(n) through a randomized range finder (Halko, Martinsson, Tropp
// 2011, Alg. 4.1): Y = X_(n) Omega, Omega a seeded random sign-free sketch of X_(n)'s columns
// (drawn from each column's coordinates, so no column is ever listed), R_n + 10 wide.
DenseMatrix sketch_range(const CooTensor& t, int mode, std::uint64_t rank, std::uint64_t seed,
                         const std::vector<std::vector<std::uint64_t>>& ids, RunControl& control) {
    // a column's random numbers come from its indices' ids in the file where the tensor was relabelled
    auto id = [&](int m, std::uint64_t z) { return ids.empty() ? t.index(m, z) : ids[static_cast<std::size_t>(m)][t.index(m, z)]; };
    const std::uint64_t width = std::min<std::uint64_t>(rank + 10, std::max<std::uint64_t>(rank, t.dim(mode)));
    DenseMatrix y(t.dim(mode), width);
    y.fill(0.0);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        if (z % (1u << 16) == 0) control.check();
        std::uint64_t h = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
        for (int m = 0; m < t.order(); ++m)
            if (m != mode) h = detail::splitmix64(h) ^ id(m, z);
        detail::Rng rng(h);
        double* row = y.row(t.index(mode, z));
        const double x = t.value(z);
        for (std::uint64_t c = 0; c < width; ++c) row[c] += x * (2 * rng.uniform() - 1);
    }
    return linalg::leading_left_singular_vectors(y, rank, linalg::Where::Host, control);
}

}  // namespace

DenseMatrix tucker_ttm_chain(const CooTensor& t, int mode, const std::vector<DenseMatrix>& factors, Backend backend) {
    std::vector<std::uint64_t> ranks;
    for (const DenseMatrix& f : factors) ranks.push_back(f.cols);
    TtmChain chain(t, mode, ranks, backend);
    return chain.compute(factors, no_control());
}

TuckerResult tucker_hooi(const CooTensor& t, const TuckerOptions& o, const IterationCallback& on_iteration, RunControl& control) {
    if (t.order() < 3) throw InputError("Tucker-HOOI needs a tensor of order 3 or more");
    if (o.max_iters < 1) throw InputError("Tucker needs at least one iteration");
    const std::vector<std::uint64_t> ranks = ranks_for(t, o.ranks);
    const int order = t.order();
    // Each mode's TTM chain ends in a dims[n] x prod(other ranks) matrix, held twice (the
    // semi-sparse product and its unfolding): refuse, in words, what cannot be held, before
    // anything runs (JF17K at rank 64 would need 2 x 24 GB)
    for (int n = 0; n < order; ++n) {
        long double width = 1;
        for (int m = 0; m < order; ++m)
            if (m != n) width *= static_cast<long double>(ranks[static_cast<std::size_t>(m)]);
        char cols[48];  // in floating point: past 2^64 it had been cut to 2^60 in the message (sweep 65)
        std::snprintf(cols, sizeof cols, width < 1e18L ? "%.0Lf" : "%.3Lg", width);
        check_fits_memory(static_cast<long double>(t.dim(n)) * width * 2 * 8,
                          "Tucker's TTM chain for mode " + std::to_string(n + 1) + " (" + std::to_string(t.dim(n)) +
                              " x " + cols + ", held twice)");
    }
    const double norm_x = squared_norm(t);
    check_values_decomposable(norm_x, t.nnz(), "Tucker");
    if (o.backend == Backend::Cuda) check_values_fit_gpu(t);  // its TTMs are fp32
    const auto start = Clock::now();
    TuckerResult r;
    control.stage("preparing the TTM chains");
    std::vector<TtmChain> chains;
    for (int n = 0; n < order; ++n) {
        control.check();
        chains.emplace_back(t, n, ranks, o.backend);
    }
    for (int m = 0; m < order; ++m)
        r.factors.push_back(o.hosvd_init ? sketch_range(t, m, ranks[static_cast<std::size_t>(m)],
                                                        o.seed + std::uint64_t(m), o.original_ids, control)
                                         : linalg::orthonormalize(random_matrix_by_ids(
                                               ids_of_mode(o.original_ids, m), t.dim(m),
                                               ranks[static_cast<std::size_t>(m)], o.seed + 31 * std::uint64_t(m))));
    r.setup_seconds = since(start);

    control.stage("Tucker-HOOI");
    detail::FitLoop loop(start, o.max_iters, o.tolerance, on_iteration, control);
    for (int it = 1; it <= o.max_iters; ++it) {
        control.check();
        const auto t0 = Clock::now();
        DenseMatrix y;
        for (int n = 0; n < order; ++n) {
            y = chains[static_cast<std::size_t>(n)].compute(r.factors, control);
            control.check();  // each mode's chain and its vectors take up to a second at rank 128 (sweep 65b)
            r.factors[static_cast<std::size_t>(n)] = linalg::leading_left_singular_vectors(
                y, ranks[static_cast<std::size_t>(n)],
                o.backend == Backend::Cuda ? linalg::Where::Gpu : linalg::Where::Host, control);
        }
        // G_(N) = U_N^T Y_(N): R_N x prod(R_1..R_{N-1}); the core is row-major with mode 1 first
        const DenseMatrix g = linalg::multiply(r.factors.back(), true, y, false);
        r.core_dims = ranks;
        r.core.assign(g.data.size(), 0.0);
        for (std::uint64_t last = 0; last < g.rows; ++last)
            for (std::uint64_t c = 0; c < g.cols; ++c) r.core[c * g.rows + last] = g.at(last, c);
        const double residual = norm_x - linalg::frobenius_squared(g);
        r.fit = detail::fit_from(norm_x, residual);
        if (loop.converged(it, t0, r.fit, r.iterations)) {
            r.converged = true;
            break;
        }
    }
    return r;
}

std::vector<std::string> tucker_file_paths(const std::string& dir, int order) {
    std::vector<std::string> paths;
    for (int m = 0; m < order; ++m) paths.push_back(dir + "/mode" + std::to_string(m + 1) + ".mat");
    paths.push_back(dir + "/core.tns");
    return paths;
}

void write_tucker(const TuckerResult& r, const std::string& dir) {
    std::filesystem::create_directories(dir);
    const std::vector<std::string> paths = tucker_file_paths(dir, static_cast<int>(r.factors.size()));
    std::vector<TextFile> files;
    for (std::size_t m = 0; m < r.factors.size(); ++m) files.push_back({paths[m], matrix_text(r.factors[m])});
    files.push_back({paths.back(), [&](std::ostream& out) {
                         out.precision(17);
                         std::vector<std::uint64_t> c(r.core_dims.size(), 0);
                         for (std::uint64_t lin = 0; lin < r.core.size(); ++lin) {
                             std::uint64_t rest = lin;
                             for (std::size_t m = r.core_dims.size(); m-- > 0;)
                                 c[m] = rest % r.core_dims[m], rest /= r.core_dims[m];
                             for (std::uint64_t x : c) out << x + 1 << ' ';
                             out << r.core[lin] << '\n';
                         }
                     }});
    write_text_files(files);  // one run's set, or the previous one whole
}

}  // namespace tscope
