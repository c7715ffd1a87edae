// nvecs without X_(n) or its Gram: subspace iteration (Halko, Martinsson, Tropp 2011, Alg. 4.4)
// on X_(n) X_(n)^T, each product two sparse passes: W = X_(n)^T Q scatters every nonzero's
// x * Q(row) into its fiber's row of W (the fibers of mode n are X_(n)'s columns), then
// Y = X_(n) W gathers them back. O(nnz k) a pass; nothing of size I_n x I_n or larger is formed.
#include "decomp/cpd_init.hpp"

#include <algorithm>

#include "decomp/dense_linalg.hpp"
#include "formats/format_builders.hpp"

namespace tscope::detail {

namespace {

constexpr int kPowerPasses = 4;

// Y = X_(n) X_(n)^T Q.
DenseMatrix unfolding_square_times(const CooTensor& t, int mode, const std::vector<std::uint32_t>& fiber, std::uint64_t fibers,
                                   const DenseMatrix& q) {
    const std::uint64_t k = q.cols;
    DenseMatrix w(fibers, k), y(q.rows, k);
    w.fill(0.0);
    y.fill(0.0);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        const double x = t.value(z);
        const double* in = q.row(t.index(mode, z));
        double* out = w.row(fiber[z]);
        for (std::uint64_t c = 0; c < k; ++c) out[c] += x * in[c];
    }
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        const double x = t.value(z);
        const double* in = w.row(fiber[z]);
        double* out = y.row(t.index(mode, z));
        for (std::uint64_t c = 0; c < k; ++c) out[c] += x * in[c];
    }
    return y;
}

DenseMatrix nvecs(const CooTensor& t, int mode, std::uint64_t rank, std::uint64_t seed, const std::vector<std::uint64_t>& ids) {
    std::uint64_t fibers = 0;
    const std::vector<std::uint32_t> fiber = mode_fiber_ids(t, mode, &fibers);
    const std::uint64_t k = std::min({rank, t.dim(mode), fibers});
    DenseMatrix out = random_matrix_by_ids(ids, t.dim(mode), rank, seed);  // columns past k stay random
    if (k == 0) return out;
    DenseMatrix q = random_matrix_by_ids(ids, t.dim(mode), k, seed ^ 0x5bd1e995ULL);
    for (int pass = 0; pass < kPowerPasses; ++pass) q = linalg::orthonormalize(unfolding_square_times(t, mode, fiber, fibers, q));
    const DenseMatrix u = linalg::leading_left_singular_vectors(unfolding_square_times(t, mode, fiber, fibers, q), k);
    for (std::uint64_t i = 0; i < out.rows; ++i)
        for (std::uint64_t c = 0; c < k; ++c) out.at(i, c) = u.at(i, c);
    return out;
}

}  // namespace

namespace {
std::uint64_t mode_seed(std::uint64_t seed, int mode) { return seed + 17 * std::uint64_t(mode); }
}  // namespace

DenseMatrix random_initial_factor(std::uint64_t dim, std::uint64_t rank, std::uint64_t seed, int mode,
                                  const std::vector<std::uint64_t>& ids) {
    return random_matrix_by_ids(ids, dim, rank, mode_seed(seed, mode));  // the random start, seed for seed on every backend
}

std::vector<DenseMatrix> cpd_initial_factors(const CooTensor& t, CpdInit init, std::uint64_t rank, std::uint64_t seed,
                                             const std::vector<std::vector<std::uint64_t>>& ids) {
    std::vector<DenseMatrix> f;
    for (int m = 0; m < t.order(); ++m) {
        const std::vector<std::uint64_t>& mode_ids = ids_of_mode(ids, m);
        f.push_back(init == CpdInit::Nvecs ? nvecs(t, m, rank, mode_seed(seed, m), mode_ids)
                                           : random_initial_factor(t.dim(m), rank, seed, m, mode_ids));
    }
    return f;
}

CpdOptions start_options(const CpdOptions& o, int k) {
    CpdOptions s = o;
    if (k > 0) s.init = CpdInit::Random, s.seed = o.seed + static_cast<std::uint64_t>(k);
    return s;
}

CpdResult keep_best(std::vector<CpdResult> starts) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < starts.size(); ++k)
        if (starts[k].fit > starts[best].fit) best = k;
    if (starts.size() == 1) return std::move(starts.front());
    std::vector<std::vector<IterationReport>> curves;
    std::vector<double> fits;
    for (const CpdResult& r : starts) curves.push_back(r.iterations), fits.push_back(r.fit);
    CpdResult kept = std::move(starts[best]);
    kept.starts = std::move(curves);
    kept.start_fits = std::move(fits);
    kept.best_start = static_cast<int>(best);
    return kept;
}

}  // namespace tscope::detail
