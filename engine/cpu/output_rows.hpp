// Where threads add rows of a dense output: their own copy (summed at the end) or the shared
// one with atomic adds when the copies would not fit the memory budget. Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

#include "prefetch_row.hpp"
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

// Where threads add rows of the output. One OutputRows may serve several passes over parts of
// a tensor (MM-CSF's partitions): add() for rows other threads may also touch, add_owned() for a
// row only this thread touches in the current pass; finish() once at the end.
class OutputRows {
public:
    OutputRows(DenseMatrix& out, bool shared_rows);
    // Adds v[0..R) to row r. kR: R when known at compile time (0: out's columns).
    template <std::uint64_t kR = 0>
    void add(std::uint64_t r, const double* v) { add_scaled<kR>(r, 1.0, v); }
    // Adds x * v[0..R) to row r.
    template <std::uint64_t kR = 0>
    void add_scaled(std::uint64_t r, double x, const double* v) {
        const std::uint64_t R = kR != 0 ? kR : out_.cols;
        if (private_) {
            double* dst = mine() + r * R;
            for (std::uint64_t c = 0; c < R; ++c) dst[c] += x * v[c];
        } else if (atomic_) {
            double* dst = out_.row(r);
            for (std::uint64_t c = 0; c < R; ++c) {
#pragma omp atomic
                dst[c] += x * v[c];
            }
        } else {
            double* dst = out_.row(r);
            for (std::uint64_t c = 0; c < R; ++c) dst[c] += x * v[c];
        }
    }
    // Asks for row r ahead of an add: scattered adds are latency-bound otherwise.
    void prefetch(std::uint64_t r) {
        const std::uint64_t R = out_.cols;
        prefetch_row<1>(private_ ? mine() + r * R : out_.row(r), R);
    }
    template <std::uint64_t kR = 0>
    void add_owned(std::uint64_t r, const double* v) {
        const std::uint64_t R = kR != 0 ? kR : out_.cols;
        double* dst = out_.row(r);
        for (std::uint64_t c = 0; c < R; ++c) dst[c] += v[c];
    }
    // Sums the private copies into the output.
    void finish();

private:
    // Thread 0 adds straight into the output, threads 1.. into their copies: one copy fewer to
    // zero, to keep in cache and to sum (the output is only written through add* meanwhile).
    double* mine() {
        const int t = thread_id();
        return t == 0 ? out_.data.data() : copies_[static_cast<std::size_t>(t - 1)].data();
    }

    DenseMatrix& out_;
    bool private_ = false, atomic_ = false;
    std::vector<Column<double>> copies_;  // for threads 1 .. T-1
};

}  // namespace tscope::detail
