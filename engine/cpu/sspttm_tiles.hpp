// The inner loop of SspTTM on sCOO (spttm Alg. 5, lines 6-11): one output chunk, an R x sy
// block stored row by row,
//   out(c, k) = sum over the merged input chunks j of U(i_j, c) * in_j(k).
// The plain loop updates the block in memory for every input chunk: a load and a store per
// multiply-add. With AVX2 the block is instead summed tile by tile in registers (2 rows of U's
// columns x 16 entries of a chunk, 8 registers), the merged input chunks re-read from L1 for
// each tile, and the tile is streamed out once. Every sum keeps the plain loop's order, one
// fused multiply-add per term, so the paths agree bit for bit. Private to the CPU kernels.
#pragma once

#include <cstdint>

#include "streaming_stores.hpp"
#include "tscope/kernels/dense_matrix.hpp"

namespace tscope::sspttm_tiles {

// One output chunk's inputs: chunk order[q] for q in [lo, hi), its mode index in `ind`, its
// sy values at vals + order[q] * sy.
template <class I, class V>
struct Group {
    const std::uint64_t* order;
    std::uint64_t lo, hi;
    const I* ind;
    const V* vals;
    std::uint64_t sy;
};

template <class I, class V>
inline void chunk_plain(const Group<I, V>& g, const DenseMatrix& u, double* out) {
    const std::uint64_t R = u.cols, sy = g.sy;
    for (std::uint64_t e = 0; e < R * sy; ++e) out[e] = 0.0;
    for (std::uint64_t q = g.lo; q < g.hi; ++q) {
        const std::uint64_t j = g.order[q];
        const V* __restrict in = g.vals + j * sy;
        const double* row = u.row(g.ind[j]);
        for (std::uint64_t c = 0; c < R; ++c) {
            const double w = row[c];
            double* __restrict dst = out + c * sy;  // the output chunk never overlaps the input
            for (std::uint64_t k = 0; k < sy; ++k) dst[k] = __builtin_fma(static_cast<double>(in[k]), w, dst[k]);
        }
    }
}

#ifdef TS_CPU_AVX2_FMA
inline __m256d load4(const double* p) { return _mm256_loadu_pd(p); }
inline __m256d load4(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }

// Rows [c, c + CR) x entries [k, k + 4 W) of the output chunk.
template <int CR, int W, class I, class V>
inline void tile(const Group<I, V>& g, const DenseMatrix& u, std::uint64_t c, std::uint64_t k, double* out) {
    __m256d acc[CR][W];
    for (int r = 0; r < CR; ++r)
        for (int w = 0; w < W; ++w) acc[r][w] = _mm256_setzero_pd();
    for (std::uint64_t q = g.lo; q < g.hi; ++q) {
        const std::uint64_t j = g.order[q];
        const V* in = g.vals + j * g.sy + k;
        const double* row = u.row(g.ind[j]) + c;
        __m256d x[W];
        for (int w = 0; w < W; ++w) x[w] = load4(in + 4 * w);
        for (int r = 0; r < CR; ++r) {
            const __m256d b = _mm256_set1_pd(row[r]);
            for (int w = 0; w < W; ++w) acc[r][w] = _mm256_fmadd_pd(x[w], b, acc[r][w]);
        }
    }
    for (int r = 0; r < CR; ++r)
        for (int w = 0; w < W; ++w) _mm256_stream_pd(out + (c + static_cast<std::uint64_t>(r)) * g.sy + k + 4 * w, acc[r][w]);
}

template <int W, class I, class V>
inline void tile_columns(const Group<I, V>& g, const DenseMatrix& u, std::uint64_t k, double* out) {
    std::uint64_t c = 0;
    for (; c + 2 <= u.cols; c += 2) tile<2, W>(g, u, c, k, out);
    if (c < u.cols) tile<1, W>(g, u, c, k, out);
}
#endif

// The output chunk of group g into out (R * sy doubles); `tiled` as streaming::usable(result, sy)
// said. After tiling, the caller fences (streaming::fence) before others read the result.
template <class I, class V>
inline void chunk(const Group<I, V>& g, const DenseMatrix& u, bool tiled, double* out) {
#ifdef TS_CPU_AVX2_FMA
    if (tiled) {
        std::uint64_t k = 0;
        for (; k + 16 <= g.sy; k += 16) tile_columns<4>(g, u, k, out);
        for (; k < g.sy; k += 4) tile_columns<1>(g, u, k, out);
        return;
    }
#endif
    (void)tiled;
    chunk_plain(g, u, out);
}

}  // namespace tscope::sspttm_tiles
