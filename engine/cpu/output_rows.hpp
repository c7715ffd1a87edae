// Where threads add rows of a dense output: their own copy (summed at the end) or the shared
// one with atomic adds when the copies would not fit the memory budget. Private to the engine.
#pragma once

#include <cstdint>
#include <memory>
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

// A zeroed scratch array of doubles taken from a small process-wide pool: the private output
// copies are tens of MB, and faulting fresh pages in on every kernel call costs more than the
// kernel's own scatter (measured: 3 MM-CSF partitions x 2 threads x 25 MB per mode).
class PooledBuffer {
public:
    explicit PooledBuffer(std::size_t n);
    ~PooledBuffer();
    PooledBuffer(PooledBuffer&&) noexcept = default;
    PooledBuffer(const PooledBuffer&) = delete;
    PooledBuffer& operator=(const PooledBuffer&) = delete;
    double* data() { return buf_->data(); }
    const double* data() const { return buf_->data(); }

private:
    std::unique_ptr<Column<double>> buf_;
};

// Where threads add rows of the output. One OutputRows may serve several passes over parts of
// a tensor (MM-CSF's partitions): add() for rows other threads may also touch, add_owned() for a
// row only this thread touches in the current pass; finish() once at the end.
class OutputRows {
public:
    OutputRows(DenseMatrix& out, bool shared_rows);
    // Adds v[0..R) to row r.
    void add(std::uint64_t r, const double* v) {
        const std::uint64_t R = out_.cols;
        if (private_) {
            double* dst = mine() + r * R;
            for (std::uint64_t c = 0; c < R; ++c) dst[c] += v[c];
        } else if (atomic_) {
            double* dst = out_.row(r);
            for (std::uint64_t c = 0; c < R; ++c) {
#pragma omp atomic
                dst[c] += v[c];
            }
        } else {
            add_owned(r, v);
        }
    }
    // Adds x * v[0..R) to row r.
    void add_scaled(std::uint64_t r, double x, const double* v) {
        const std::uint64_t R = out_.cols;
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
    void prefetch(std::uint64_t r) const {
        const std::uint64_t R = out_.cols;
        const double* dst = private_ ? mine() + r * R : out_.row(r);
        for (std::uint64_t c = 0; c < R; c += 8) __builtin_prefetch(dst + c, 1);
    }
    void add_owned(std::uint64_t r, const double* v) {
        double* dst = out_.row(r);
        for (std::uint64_t c = 0, R = out_.cols; c < R; ++c) dst[c] += v[c];
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
    const double* mine() const { return const_cast<OutputRows*>(this)->mine(); }

    DenseMatrix& out_;
    bool private_ = false, atomic_ = false;
    std::vector<PooledBuffer> copies_;  // for threads 1 .. T-1
};

}  // namespace tscope::detail
