// Where threads add rows of a dense output: their own copy (summed at the end) or the shared
// one with atomic adds when the copies would not fit the memory budget. Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/kernels/dense_matrix.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tscope::detail {

inline int max_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

inline int thread_id() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

// Where threads add rows of the output: their own copy (summed afterwards) or the shared one
// with atomic adds.
class OutputRows {
public:
    OutputRows(DenseMatrix& out, bool shared_rows) : out_(out) {
        const int threads = max_threads();
        constexpr std::uint64_t kBudget = std::uint64_t{1} << 30;  // bytes for private copies
        private_ = shared_rows && threads > 1 && out.data.size() * 8 * static_cast<std::uint64_t>(threads) <= kBudget;
        atomic_ = shared_rows && threads > 1 && !private_;
        if (private_) {
            copies_.resize(static_cast<std::size_t>(threads));
            for (auto& c : copies_) c.assign(out.data.size(), 0.0);
        }
    }
    // Adds v[0..R) to row r.
    void add(std::uint64_t r, const double* v) {
        const std::uint64_t R = out_.cols;
        if (private_) {
            double* dst = copies_[static_cast<std::size_t>(thread_id())].data() + r * R;
            for (std::uint64_t c = 0; c < R; ++c) dst[c] += v[c];
        } else if (atomic_) {
            double* dst = out_.row(r);
            for (std::uint64_t c = 0; c < R; ++c) {
#pragma omp atomic
                dst[c] += v[c];
            }
        } else {
            double* dst = out_.row(r);
            for (std::uint64_t c = 0; c < R; ++c) dst[c] += v[c];
        }
    }
    // Sums the private copies into the output.
    void finish() {
        if (!private_) return;
        const auto n = static_cast<std::int64_t>(out_.data.size());
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < n; ++i) {
            double s = 0;
            for (const auto& c : copies_) s += c[static_cast<std::size_t>(i)];
            out_.data[static_cast<std::size_t>(i)] += s;
        }
    }

private:
    DenseMatrix& out_;
    bool private_ = false, atomic_ = false;
    std::vector<std::vector<double>> copies_;
};

}  // namespace tscope::detail
