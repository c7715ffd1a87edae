// The inner loop of SpTTM on COO (spttm Alg. 1, lines 4-8): one output fiber row
//   out(0..R-1) = sum over j in [lo, hi) of vals[j] * U(ind[j], 0..R-1).
// The result (fibers x R doubles, hundreds of MB) is written once and never read back by the
// kernel, so with AVX2 the row is summed in registers, 16 columns at a time, and sent to
// memory with streaming stores: no read-for-ownership of its cache lines, which halves the
// write traffic that dominates this kernel. The sums are the plain loop's, term for term in
// the same order, each a fused multiply-add, so the results do not depend on the path taken.
// Private to the engine's CPU kernels.
#pragma once

#include <cstdint>

#include "prefetch_row.hpp"
#include "streaming_stores.hpp"
#include "tscope/kernels/dense_matrix.hpp"

namespace tscope::spttm_rows {

// How far ahead U's rows are prefetched: they are random reads across up to tens of MB.
constexpr std::uint64_t kPrefetchAhead = 16;

template <class I>
inline void prefetch_row(const I* ind, std::uint64_t j, std::uint64_t nnz, const DenseMatrix& u) {
    if (j + kPrefetchAhead >= nnz) return;
    detail::prefetch_row(u.row(ind[j + kPrefetchAhead]), u.cols);
}

// Any R, any alignment: plain stores.
template <class I, class V>
inline void fiber_row_plain(const I* ind, const V* vals, std::uint64_t lo, std::uint64_t hi, std::uint64_t nnz,
                            const DenseMatrix& u, double* out) {
    const std::uint64_t R = u.cols;
    for (std::uint64_t r = 0; r < R; ++r) out[r] = 0.0;
    for (std::uint64_t j = lo; j < hi; ++j) {
        prefetch_row(ind, j, nnz, u);
        const double v = static_cast<double>(vals[j]);
        const double* row = u.row(ind[j]);
        for (std::uint64_t r = 0; r < R; ++r) out[r] = __builtin_fma(v, row[r], out[r]);
    }
}

#ifdef TS_CPU_AVX2_FMA
// Columns [c, c + 4 * W) of one fiber row, W registers wide, streamed out.
template <int W, class I, class V>
inline void fiber_block(const I* ind, const V* vals, std::uint64_t lo, std::uint64_t hi, std::uint64_t nnz,
                        const DenseMatrix& u, std::uint64_t c, bool prefetch, double* out) {
    __m256d acc[W];
    for (int w = 0; w < W; ++w) acc[w] = _mm256_setzero_pd();
    for (std::uint64_t j = lo; j < hi; ++j) {
        if (prefetch) prefetch_row(ind, j, nnz, u);
        const __m256d v = _mm256_set1_pd(static_cast<double>(vals[j]));
        const double* row = u.row(ind[j]) + c;
        for (int w = 0; w < W; ++w) acc[w] = _mm256_fmadd_pd(v, _mm256_loadu_pd(row + 4 * w), acc[w]);
    }
    for (int w = 0; w < W; ++w) _mm256_stream_pd(out + c + 4 * w, acc[w]);
}
#endif

// The row of one fiber into out (R = u.cols doubles); `stream` as streaming::usable(result, R) said.
// After streaming, the caller fences (streaming::fence) before others read the result.
template <class I, class V>
inline void fiber_row(const I* ind, const V* vals, std::uint64_t lo, std::uint64_t hi, std::uint64_t nnz,
                      const DenseMatrix& u, bool stream, double* out) {
#ifdef TS_CPU_AVX2_FMA
    if (stream) {
        const std::uint64_t R = u.cols;
        std::uint64_t c = 0;
        for (; c + 16 <= R; c += 16) fiber_block<4>(ind, vals, lo, hi, nnz, u, c, c == 0, out);
        for (; c < R; c += 4) fiber_block<1>(ind, vals, lo, hi, nnz, u, c, c == 0, out);
        return;
    }
#endif
    (void)stream;
    fiber_row_plain(ind, vals, lo, hi, nnz, u, out);
}

}  // namespace tscope::spttm_rows
