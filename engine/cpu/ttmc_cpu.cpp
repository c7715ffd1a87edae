// TTMc on the CPU: the oracle and the OpenMP kernels on COO, CSF (slice algorithm) and HLS.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>

#include "cpu/cpu_kernels.hpp"
#include "output_rows.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/ttmc.hpp"
#include "tscope/parallel_errors.hpp"

namespace tscope {

namespace {

// out[0 .. |a|*|b|) = a kron b, scaled.
void kron(const double* a, std::uint64_t na, const double* b, std::uint64_t nb, double* out) {
    for (std::uint64_t i = 0; i < na; ++i)
        for (std::uint64_t j = 0; j < nb; ++j) out[i * nb + j] = a[i] * b[j];
}

// Kronecker product of the rows of every mode but `mode` (ascending), times x, into out;
// scratch holds the partial products.
void kron_rows(const std::vector<DenseMatrix>& factors, int mode, const std::uint64_t* idx, double x, double* out,
               std::vector<double>& scratch) {
    std::uint64_t len = 1;
    scratch.assign(1, x);
    std::vector<double> next;
    for (std::size_t m = 0; m < factors.size(); ++m) {
        if (static_cast<int>(m) == mode) continue;
        const DenseMatrix& u = factors[m];
        next.resize(len * u.cols);
        kron(scratch.data(), len, u.row(idx[m]), u.cols, next.data());
        scratch.swap(next);
        len *= u.cols;
    }
    std::copy(scratch.begin(), scratch.end(), out);
}

using detail::OutputRows;

// Nonzeros a chunk: kron_rows allocates for each nonzero, so its out of memory is caught a chunk
// at a time. Chunks dealt round robin (schedule(static, 1)) give every thread the nonzeros that
// schedule(static, kChunk) over the nonzeros gave it, in the same order.
constexpr std::int64_t kChunk = 1024;

template <class I, class V>
void coo_ttmc(const CooFormat<I, V>& f, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out) {
    const int order = static_cast<int>(f.idx.size());
    OutputRows rows(out, true);
    const auto nnz = static_cast<std::int64_t>(f.vals.size());
    ParallelErrors errors;
#pragma omp parallel
    {
        std::vector<double> v, scratch;
        std::vector<std::uint64_t> idx;
        errors.run([&] { v.resize(out.cols), idx.resize(static_cast<std::size_t>(order)); });
#pragma omp for schedule(static, 1)
        for (std::int64_t chunk = 0; chunk < (nnz + kChunk - 1) / kChunk; ++chunk)
            errors.run([&] {  // passed over once a thread has failed
                for (std::int64_t z = chunk * kChunk; z < std::min(nnz, (chunk + 1) * kChunk); ++z) {
                    for (int m = 0; m < order; ++m)
                        idx[static_cast<std::size_t>(m)] =
                            f.idx[static_cast<std::size_t>(m)][static_cast<std::size_t>(z)];
                    kron_rows(factors, mode, idx.data(), static_cast<double>(f.vals[static_cast<std::size_t>(z)]),
                              v.data(), scratch);
                    rows.add(idx[static_cast<std::size_t>(mode)], v.data());
                }
            });
    }
    errors.rethrow();
    rows.finish();
}

// CSF rooted at the mode, the others ascending: each slice owns its output row. A node's value
// is its row kron (the sum of its children's values); a leaf's is x times its row.
template <class I, class V>
void csf_ttmc(const CsfFormat<I, V>& c, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out) {
    std::vector<int> expected{mode};
    for (int m = 0; m < static_cast<int>(factors.size()); ++m)
        if (m != mode) expected.push_back(m);
    if (c.order != expected)
        throw InputError("TTMc on CSF needs mode " + std::to_string(mode + 1) + " at the root and the others ascending (ttmc_options)");
    const int n = static_cast<int>(c.order.size());
    const std::uint64_t cols = out.cols;
    ParallelErrors errors;  // a thread's sums not allocated
#pragma omp parallel
    {
        // per level: the sum of the children's values (length = prod of the ranks below)
        std::vector<std::vector<double>> sums;
        errors.run([&] {
            sums.resize(static_cast<std::size_t>(n));
            std::vector<std::uint64_t> len(static_cast<std::size_t>(n) + 1, 1);
            for (int l = n - 1; l >= 1; --l)
                len[static_cast<std::size_t>(l)] =
                    len[static_cast<std::size_t>(l) + 1] *
                    factors[static_cast<std::size_t>(c.order[static_cast<std::size_t>(l)])].cols;
            for (int l = 0; l < n; ++l) sums[static_cast<std::size_t>(l)].resize(len[static_cast<std::size_t>(l) + 1]);
        });
        // fills sums[l] with the sum over node's children (level l+1) of their values
        auto subtree = [&](auto& self, int l, std::uint64_t node) -> void {
            auto& s = sums[static_cast<std::size_t>(l)];
            std::fill(s.begin(), s.end(), 0.0);
            const auto& ptr = c.fptr[static_cast<std::size_t>(l)];
            const DenseMatrix& u = factors[static_cast<std::size_t>(c.order[static_cast<std::size_t>(l) + 1])];
            if (l == n - 2) {
                for (I z = ptr[node]; z < ptr[node + 1]; ++z) {
                    const double x = static_cast<double>(c.vals[z]);
                    const double* row = u.row(c.fids.back()[z]);
                    for (std::uint64_t r = 0; r < u.cols; ++r) s[r] += x * row[r];
                }
                return;
            }
            const auto& below = sums[static_cast<std::size_t>(l) + 1];
            for (I child = ptr[node]; child < ptr[node + 1]; ++child) {
                self(self, l + 1, child);
                const double* row = u.row(c.fids[static_cast<std::size_t>(l) + 1][child]);
                for (std::uint64_t r = 0; r < u.cols; ++r)
                    for (std::uint64_t k = 0; k < below.size(); ++k) s[r * below.size() + k] += row[r] * below[k];
            }
        };
#pragma omp for schedule(dynamic, 16)
        for (std::int64_t s = 0; s < static_cast<std::int64_t>(c.nodes(0)); ++s) {
            if (errors.failed()) continue;  // a slice at a time
            subtree(subtree, 0, static_cast<std::uint64_t>(s));
            double* dst = out.row(c.fids[0][static_cast<std::size_t>(s)]);
            const auto& top = sums[0];
            for (std::uint64_t k = 0; k < cols; ++k) dst[k] += top[k];
        }
    }
    errors.rethrow();
}

// HLS: dense tiles by Eq. 7 slice by slice, Y(i, :, :) += B_tile^T (X(i, :, :) C_tile), the
// sparse part by Eq. 3.
template <class I, class V>
void hls_ttmc(const HlsFormat<I, V>& f, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out) {
    const int a = mode == 0 ? 1 : 0, b = mode == 2 ? 1 : 2;
    const DenseMatrix& A = factors[static_cast<std::size_t>(a)];
    const DenseMatrix& B = factors[static_cast<std::size_t>(b)];
    const std::uint64_t Ra = A.cols, Rb = B.cols;
    OutputRows rows(out, true);
    const auto sparse = static_cast<std::int64_t>(f.nnz_vals.size());
    ParallelErrors errors;  // a thread's buffers, and the sparse part's kron_rows (chunks as coo_ttmc's)
#pragma omp parallel
    {
        std::vector<double> tile, t, y, scratch;
        errors.run(
            [&] { tile.resize(kHlsTileCells), t.resize(static_cast<std::size_t>(kHlsTile) * Rb), y.resize(Ra * Rb); });
#pragma omp for schedule(dynamic, 4) nowait
        for (std::int64_t q = 0; q < static_cast<std::int64_t>(f.tiles()); ++q) {
            if (errors.failed()) continue;  // a tile at a time
            const auto qu = static_cast<std::uint64_t>(q);
            std::array<std::uint64_t, 3> lo{};
            std::array<int, 3> span{};
            f.expand_tile(qu, tile.data(), lo, span);
            for (int i = 0; i < span[static_cast<std::size_t>(mode)]; ++i) {
                std::fill(t.begin(), t.end(), 0.0);  // T = X(i, :, :) B_tile
                bool any = false;
                for (int ja = 0; ja < span[static_cast<std::size_t>(a)]; ++ja)
                    for (int jb = 0; jb < span[static_cast<std::size_t>(b)]; ++jb) {
                        std::array<int, 3> c{};
                        c[static_cast<std::size_t>(mode)] = i;
                        c[static_cast<std::size_t>(a)] = ja;
                        c[static_cast<std::size_t>(b)] = jb;
                        const double x = tile[static_cast<std::size_t>(c[0] * 256 + c[1] * 16 + c[2])];
                        if (x == 0.0) continue;
                        any = true;
                        const double* brow = B.row(lo[static_cast<std::size_t>(b)] + static_cast<std::uint64_t>(jb));
                        double* trow = t.data() + static_cast<std::size_t>(ja) * Rb;
                        for (std::uint64_t r = 0; r < Rb; ++r) trow[r] += x * brow[r];
                    }
                if (!any) continue;
                std::fill(y.begin(), y.end(), 0.0);  // Y(i) = A_tile^T T, as a kron sum over the rows
                for (int ja = 0; ja < span[static_cast<std::size_t>(a)]; ++ja) {
                    const double* arow = A.row(lo[static_cast<std::size_t>(a)] + static_cast<std::uint64_t>(ja));
                    const double* trow = t.data() + static_cast<std::size_t>(ja) * Rb;
                    for (std::uint64_t ra = 0; ra < Ra; ++ra)
                        for (std::uint64_t rb = 0; rb < Rb; ++rb) y[ra * Rb + rb] += arow[ra] * trow[rb];
                }
                rows.add(lo[static_cast<std::size_t>(mode)] + static_cast<std::uint64_t>(i), y.data());
            }
        }
#pragma omp for schedule(static, 1)
        for (std::int64_t chunk = 0; chunk < (sparse + kChunk - 1) / kChunk; ++chunk)
            errors.run([&] {
                for (std::int64_t z = chunk * kChunk; z < std::min(sparse, (chunk + 1) * kChunk); ++z) {
                    const auto c = hls_unpack(f.nnz_inds[static_cast<std::size_t>(z)], f.nnz_linear_bits);
                    kron_rows(factors, mode, c.data(), static_cast<double>(f.nnz_vals[static_cast<std::size_t>(z)]),
                              y.data(), scratch);
                    rows.add(c[static_cast<std::size_t>(mode)], y.data());
                }
            });
    }
    errors.rethrow();
    rows.finish();
}

}  // namespace

void ttmc_reference(const CooTensor& t, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                    RunControl& control) {
    out.fill(0.0);
    std::vector<double> v(out.cols), scratch;
    std::vector<std::uint64_t> idx(static_cast<std::size_t>(t.order()));
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        if ((z & 0xffff) == 0) control.check();
        for (int m = 0; m < t.order(); ++m) idx[static_cast<std::size_t>(m)] = t.index(m, z);
        kron_rows(factors, mode, idx.data(), t.value(z), v.data(), scratch);
        double* dst = out.row(idx[static_cast<std::size_t>(mode)]);
        for (std::uint64_t c = 0; c < out.cols; ++c) dst[c] += v[c];
    }
}

void ttmc_omp(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out) {
    out.fill(0.0);
    visit_format(format, overloaded{
        [&]<class I, class V>(const CooFormat<I, V>& f) { coo_ttmc(f, mode, factors, out); },
        [&]<class I, class V>(const CsfFormat<I, V>& f) { csf_ttmc(f, mode, factors, out); },
        [&]<class I, class V>(const HlsFormat<I, V>& f) { hls_ttmc(f, mode, factors, out); },
        [&](const SparseFormat& f) { throw InputError("TTMc has no omp kernel for " + f.name()); }});
}

}  // namespace tscope
