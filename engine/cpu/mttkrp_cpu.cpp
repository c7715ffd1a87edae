// MTTKRP on the CPU: the serial oracle (cpu-ref) and the OpenMP kernels.
//
// CSF (and B-CSF, and each MM-CSF partition) computes mode n at whatever level L of its tree n
// sits (mm-csf Sec. 3 and 5): ancestors' factor rows are multiplied on the way down (a prefix
// product), the subtree below L is summed on the way up, and the two meet at the level-L node:
//   L = 0      slice algorithm (Alg. 2): each root owns its output row, no races;
//   0 < L < N-1 fiber algorithm (Alg. 7): rows are shared across roots;
//   L = N-1    nonzero algorithm (Alg. 8): one update per nonzero.
// Shared rows are written into per-thread copies that are summed at the end (or with atomics
// when the copies would not fit the memory budget).
#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cpu_kernels.hpp"
#include "output_rows.hpp"
#include "prefetch_row.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/parallel_errors.hpp"

namespace tscope {

namespace {

using detail::OutputRows;

// One CSF tree, mode at level L: accumulates into out. kR: the rank when it is known at
// compile time (the common 16, 32, 64), so that every row loop has a fixed trip count and is
// unrolled into vector registers; 0 for any other rank.
template <class I, class V, std::uint64_t kR = 0>
class CsfMttkrp {
public:
    CsfMttkrp(const CsfFormat<I, V>& c, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out)
        : c_(c), factors_(factors), out_(out), n_(static_cast<int>(c.order.size())), cols_(out.cols) {
        level_ = static_cast<int>(std::find(c.order.begin(), c.order.end(), mode) - c.order.begin());
    }

    bool shares_rows() const { return level_ > 0; }

    // Adds this tree's contribution through rows (finished by the caller).
    void run(RunControl& control, OutputRows& rows) {
        const auto roots = static_cast<std::int64_t>(c_.nodes(0));
        std::atomic<bool> stop{false};
        ParallelErrors errors;  // a thread's scratch not allocated: every thread stops
#pragma omp parallel
        {
            // per thread: a prefix product and a subtree sum per level
            std::vector<double> scratch;
            if (!errors.run([&] { scratch.resize(static_cast<std::size_t>(2 * n_ + 1) * R()); })) stop = true;
#pragma omp for schedule(dynamic, 16)
            for (std::int64_t s = 0; s < roots; ++s) {
                if (stop) continue;
                if ((s & 1023) == 0 && control.cancelled()) stop = true;
                down(0, static_cast<std::uint64_t>(s), nullptr, scratch.data(), rows);
            }
        }
        errors.rethrow();
        control.check();
    }

    void run(RunControl& control) {
        OutputRows rows(out_, shares_rows());
        run(control, rows);
        rows.finish();
    }

private:
    static constexpr std::uint64_t kAhead = 16;  // nonzeros; 16 beat 32 and 64 in interleaved runs, 8 tied
    std::uint64_t R() const {
        if constexpr (kR != 0) return kR;
        return cols_;
    }
    void prefetch_row(const double* row) const { detail::prefetch_row(row, R()); }
    const double* factor_row(int level, std::uint64_t node) const {
        const int m = c_.order[static_cast<std::size_t>(level)];
        return factors_[static_cast<std::size_t>(m)].row(c_.fids[static_cast<std::size_t>(level)][node]);
    }
    double* prefix_buf(double* scratch, int level) const { return scratch + static_cast<std::size_t>(level) * R(); }
    double* sum_buf(double* scratch, int level) const { return scratch + static_cast<std::size_t>(n_ + level) * R(); }

    // Walks down to level L carrying the product of the ancestors' rows (null: none yet).
    void down(int l, std::uint64_t node, const double* prefix, double* scratch, OutputRows& rows) const {
        if (l == level_) {
            if (l == n_ - 1) {  // nonzero algorithm: val * prefix
                // a leaf has ancestors: the CSF family refuses tensors of order 1 (GCC, seeing run()'s
                // null prefix at the root, would otherwise warn of a read past a zero-length array)
                if (!prefix) __builtin_unreachable();
                double* v = sum_buf(scratch, l);
                const double x = static_cast<double>(c_.vals[node]);
                for (std::uint64_t r = 0; r < R(); ++r) v[r] = x * prefix[r];
                rows.add<kR>(c_.fids.back()[node], v);
                return;
            }
            double* q = sum_buf(scratch, l);
            up(l, node, q, scratch);
            if (prefix)
                for (std::uint64_t r = 0; r < R(); ++r) q[r] *= prefix[r];
            if (l == 0)
                rows.add_owned<kR>(c_.fids[0][node], q);  // each root is visited once: no race
            else
                rows.add<kR>(c_.fids[static_cast<std::size_t>(l)][node], q);
            return;
        }
        double* p = prefix_buf(scratch, l);
        const double* row = factor_row(l, node);
        if (prefix)
            for (std::uint64_t r = 0; r < R(); ++r) p[r] = prefix[r] * row[r];
        else
            std::memcpy(p, row, R() * sizeof(double));
        const auto& ptr = c_.fptr[static_cast<std::size_t>(l)];
        if (l + 1 == n_ - 1 && level_ == n_ - 1) {  // children are nonzeros, each adds x * prefix to its row
            const auto& ids = c_.fids.back();
            const std::uint64_t end = ptr[node + 1];
            for (std::uint64_t z = ptr[node]; z < end; ++z) {
                if (z + kAhead < end) rows.prefetch(ids[z + kAhead]);
                rows.add_scaled<kR>(ids[z], static_cast<double>(c_.vals[z]), p);
            }
            return;
        }
        const std::uint64_t end = ptr[node + 1];
        for (std::uint64_t child = ptr[node]; child < end; ++child) {
            if (l + 1 == level_ && child + 2 < end) rows.prefetch(c_.fids[static_cast<std::size_t>(level_)][child + 2]);
            down(l + 1, child, p, scratch, rows);
        }
    }

    // q = sum over the subtree below `node` (level l < N-1) of val * prod of the rows of
    // levels l+1 .. N-1.
    void up(int l, std::uint64_t node, double* q, double* scratch) const {
        std::fill(q, q + R(), 0.0);
        const auto& ptr = c_.fptr[static_cast<std::size_t>(l)];
        if (l == n_ - 2) {  // children are nonzeros
            const auto& leaf = factors_[static_cast<std::size_t>(c_.order.back())];
            const auto& leaf_ids = c_.fids.back();
            const std::uint64_t end = ptr[node + 1];
            if constexpr (kR != 0) {  // the sum stays in registers across the fiber
                double acc[kR] = {};
                for (std::uint64_t z = ptr[node]; z < end; ++z) {
                    if (z + kAhead < c_.vals.size()) prefetch_row(leaf.row(leaf_ids[z + kAhead]));
                    const double x = static_cast<double>(c_.vals[z]);
                    const double* row = leaf.row(leaf_ids[z]);
                    for (std::uint64_t r = 0; r < kR; ++r) acc[r] += x * row[r];
                }
                std::memcpy(q, acc, sizeof(acc));
                return;
            }
            for (std::uint64_t z = ptr[node]; z < end; ++z) {
                // The rows are random reads from matrices larger than the cache: ask for the
                // row a few nonzeros ahead so that several misses are in flight at once.
                if (z + kAhead < c_.vals.size()) prefetch_row(leaf.row(leaf_ids[z + kAhead]));
                const double x = static_cast<double>(c_.vals[z]);
                const double* row = leaf.row(leaf_ids[z]);
                for (std::uint64_t r = 0; r < R(); ++r) q[r] += x * row[r];
            }
            return;
        }
        double* child_sum = sum_buf(scratch, l + 1);
        for (std::uint64_t child = ptr[node]; child < ptr[node + 1]; ++child) {
            if (child + 4 < ptr[node + 1]) prefetch_row(factor_row(l + 1, child + 4));
            up(l + 1, child, child_sum, scratch);
            const double* row = factor_row(l + 1, child);
            for (std::uint64_t r = 0; r < R(); ++r) q[r] += child_sum[r] * row[r];
        }
    }

    const CsfFormat<I, V>& c_;
    const std::vector<DenseMatrix>& factors_;
    DenseMatrix& out_;
    int n_;
    std::uint64_t cols_;  // R when kR is 0
    int level_ = 0;
};

// Calls f with the rank as a compile-time constant where CsfMttkrp has a fixed-size variant
// (std::integral_constant<std::uint64_t, R>), else with 0.
template <class F>
void with_rank(std::uint64_t R, F&& f) {
    switch (R) {
    case 16: return f(std::integral_constant<std::uint64_t, 16>{});
    case 32: return f(std::integral_constant<std::uint64_t, 32>{});
    case 64: return f(std::integral_constant<std::uint64_t, 64>{});
    default: return f(std::integral_constant<std::uint64_t, 0>{});
    }
}

template <class I, class V>
void coo_mttkrp(const CooFormat<I, V>& f, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                RunControl& control) {
    const int order = static_cast<int>(f.idx.size());
    const std::uint64_t R = out.cols;
    const auto nnz = static_cast<std::int64_t>(f.vals.size());
    OutputRows rows(out, true);
    std::atomic<bool> stop{false};
    ParallelErrors errors;  // a thread's row not allocated: every thread stops
#pragma omp parallel
    {
        std::vector<double> v;
        if (!errors.run([&] { v.resize(R); })) stop = true;
#pragma omp for schedule(static, 4096)
        for (std::int64_t z = 0; z < nnz; ++z) {
            if (stop) continue;
            if ((z & 0xffff) == 0 && control.cancelled()) stop = true;
            const double x = static_cast<double>(f.vals[static_cast<std::size_t>(z)]);
            for (std::uint64_t r = 0; r < R; ++r) v[r] = x;
            for (int m = 0; m < order; ++m) {
                if (m == mode) continue;
                const double* row = factors[static_cast<std::size_t>(m)].row(f.idx[static_cast<std::size_t>(m)][static_cast<std::size_t>(z)]);
                for (std::uint64_t r = 0; r < R; ++r) v[r] *= row[r];
            }
            rows.add(f.idx[static_cast<std::size_t>(mode)][static_cast<std::size_t>(z)], v.data());
        }
    }
    errors.rethrow();
    control.check();
    rows.finish();
}

// HiCOO's work items: a block, or a run of at most `cap` of a large block's nonzeros. Scheduling
// whole blocks left threads idle where a tensor has few of them: 100 x 80 x 60 x 40 x 30 fits
// one 128^5 block, and two threads ran its MTTKRP no faster than one (45.7 against 44.6 ms a
// sweep, docs/bench/cpu-advisor-2threads.json at 77a8b98; 40.0 against 40.8 for 81 blocks of
// 300^4). Every item still lies in one block, so its rows stay within the block's 2^b.
struct HicooPiece {
    std::uint64_t block, begin, end;
};

template <class I, class V>
std::vector<HicooPiece> hicoo_pieces(const HicooFormat<I, V>& f) {
    const std::uint64_t nnz = f.vals.size();
    // some 64 items a thread at least, none under 1024 nonzeros
    const std::uint64_t cap = std::max<std::uint64_t>(1024, nnz / (64 * static_cast<std::uint64_t>(detail::max_threads())) + 1);
    std::vector<HicooPiece> pieces;
    pieces.reserve(f.blocks());
    for (std::uint64_t b = 0; b < f.blocks(); ++b)
        for (std::uint64_t z = f.bptr[b]; z < f.bptr[b + 1]; z += cap) pieces.push_back({b, z, std::min<std::uint64_t>(z + cap, f.bptr[b + 1])});
    return pieces;
}

// HiCOO: blocks (and pieces of large ones) in parallel; a nonzero's index is (block coordinate
// << b) | offset.
template <class I, class V>
void hicoo_mttkrp(const HicooFormat<I, V>& f, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                  RunControl& control) {
    const int order = static_cast<int>(f.binds.size());
    const std::uint64_t R = out.cols;
    const std::vector<HicooPiece> pieces = hicoo_pieces(f);
    OutputRows rows(out, true);
    std::atomic<bool> stop{false};
    ParallelErrors errors;  // a thread's buffers not allocated: every thread stops
#pragma omp parallel
    {
        std::vector<double> v;
        std::vector<std::uint64_t> base;
        if (!errors.run([&] { v.resize(R), base.resize(static_cast<std::size_t>(order)); })) stop = true;
#pragma omp for schedule(dynamic, 64)
        for (std::int64_t p = 0; p < static_cast<std::int64_t>(pieces.size()); ++p) {
            if (stop) continue;
            if ((p & 1023) == 0 && control.cancelled()) stop = true;
            const HicooPiece& piece = pieces[static_cast<std::size_t>(p)];
            for (int m = 0; m < order; ++m)
                base[static_cast<std::size_t>(m)] = static_cast<std::uint64_t>(f.binds[static_cast<std::size_t>(m)][piece.block]) << f.bits;
            for (std::uint64_t z = piece.begin; z < piece.end; ++z) {
                const double x = static_cast<double>(f.vals[z]);
                for (std::uint64_t r = 0; r < R; ++r) v[r] = x;
                for (int m = 0; m < order; ++m) {
                    if (m == mode) continue;
                    const double* row = factors[static_cast<std::size_t>(m)].row(base[static_cast<std::size_t>(m)] | f.offset(m, z));
                    for (std::uint64_t r = 0; r < R; ++r) v[r] *= row[r];
                }
                rows.add(base[static_cast<std::size_t>(mode)] | f.offset(mode, z), v.data());
            }
        }
    }
    errors.rethrow();
    control.check();
    rows.finish();
}

// HLS (hls Sec. IV): dense tiles in the matrix-multiply form of Eq. 10, slice by slice of the
// tile: T = X(i, :, :) C_tile (16 x R), then A(i, :) += diag(B_tile^T T), i.e. the sum over the
// tile's rows of B_tile(j, :) .* T(j, :). The sparse part element-wise (Eq. 4).
template <class I, class V>
void hls_mttkrp(const HlsFormat<I, V>& f, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                RunControl& control) {
    const std::uint64_t R = out.cols;
    const int a = mode == 0 ? 1 : 0, b = mode == 2 ? 1 : 2;  // the other modes: rows and columns of a tile slice
    OutputRows rows(out, true);
    std::atomic<bool> stop{false};
    ParallelErrors errors;  // a thread's buffers not allocated: every thread stops
#pragma omp parallel
    {
        std::vector<double> tile, t, v;
        const bool ready = errors.run(
            [&] { tile.resize(kHlsTileCells), t.resize(static_cast<std::size_t>(kHlsTile) * R), v.resize(R); });
        if (!ready) stop = true;
#pragma omp for schedule(dynamic, 4) nowait
        for (std::int64_t q = 0; q < static_cast<std::int64_t>(f.tiles()); ++q) {
            if (stop) continue;
            if ((q & 255) == 0 && control.cancelled()) stop = true;
            const auto qu = static_cast<std::uint64_t>(q);
            std::array<std::uint64_t, 3> lo{};
            std::array<int, 3> span{};
            f.expand_tile(qu, tile.data(), lo, span);
            const DenseMatrix& A = factors[static_cast<std::size_t>(a)];
            const DenseMatrix& B = factors[static_cast<std::size_t>(b)];
            auto cell = [](int i0, int i1, int i2) { return static_cast<std::size_t>(i0 * 256 + i1 * 16 + i2); };
            for (int i = 0; i < span[static_cast<std::size_t>(mode)]; ++i) {
                // T = X(i, :, :) * B_tile : rows over mode a, R columns
                std::fill(t.begin(), t.end(), 0.0);
                bool any = false;
                for (int ja = 0; ja < span[static_cast<std::size_t>(a)]; ++ja) {
                    double* trow = t.data() + static_cast<std::size_t>(ja) * R;
                    for (int jb = 0; jb < span[static_cast<std::size_t>(b)]; ++jb) {
                        std::array<int, 3> c{};
                        c[static_cast<std::size_t>(mode)] = i;
                        c[static_cast<std::size_t>(a)] = ja;
                        c[static_cast<std::size_t>(b)] = jb;
                        const double x = tile[cell(c[0], c[1], c[2])];
                        if (x == 0.0) continue;
                        any = true;
                        const double* brow = B.row(lo[static_cast<std::size_t>(b)] + static_cast<std::uint64_t>(jb));
                        for (std::uint64_t r = 0; r < R; ++r) trow[r] += x * brow[r];
                    }
                }
                if (!any) continue;
                // diag(A_tile^T T): sum over the tile's rows of A_tile(ja, :) .* T(ja, :)
                std::fill(v.begin(), v.end(), 0.0);
                for (int ja = 0; ja < span[static_cast<std::size_t>(a)]; ++ja) {
                    const double* arow = A.row(lo[static_cast<std::size_t>(a)] + static_cast<std::uint64_t>(ja));
                    const double* trow = t.data() + static_cast<std::size_t>(ja) * R;
                    for (std::uint64_t r = 0; r < R; ++r) v[r] += arow[r] * trow[r];
                }
                rows.add(lo[static_cast<std::size_t>(mode)] + static_cast<std::uint64_t>(i), v.data());
            }
        }
        // the sparse part, element-wise (Eq. 4)
#pragma omp for schedule(static, 4096)
        for (std::int64_t z = 0; z < static_cast<std::int64_t>(f.nnz_vals.size()); ++z) {
            if (!ready) continue;  // every thread takes its share of the loop, ready or not
            const auto c = hls_unpack(f.nnz_inds[static_cast<std::size_t>(z)], f.nnz_linear_bits);
            const double x = static_cast<double>(f.nnz_vals[static_cast<std::size_t>(z)]);
            const double* ra = factors[static_cast<std::size_t>(a)].row(c[static_cast<std::size_t>(a)]);
            const double* rb = factors[static_cast<std::size_t>(b)].row(c[static_cast<std::size_t>(b)]);
            for (std::uint64_t r = 0; r < R; ++r) v[r] = x * ra[r] * rb[r];
            rows.add(c[static_cast<std::size_t>(mode)], v.data());
        }
    }
    errors.rethrow();
    control.check();
    rows.finish();
}

}  // namespace

void mttkrp_reference(const CooTensor& t, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                      RunControl& control) {
    const std::uint64_t R = out.cols;
    out.fill(0.0);
    std::vector<double> v(R);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        if ((z & 0xffff) == 0) control.check();
        for (std::uint64_t r = 0; r < R; ++r) v[r] = t.value(z);
        for (int m = 0; m < t.order(); ++m) {
            if (m == mode) continue;
            const double* row = factors[static_cast<std::size_t>(m)].row(t.index(m, z));
            for (std::uint64_t r = 0; r < R; ++r) v[r] *= row[r];
        }
        double* dst = out.row(t.index(mode, z));
        for (std::uint64_t r = 0; r < R; ++r) dst[r] += v[r];
    }
}

void mttkrp_omp(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                RunControl& control) {
    out.fill(0.0);
    visit_format(format, overloaded{
        [&]<class I, class V>(const CooFormat<I, V>& f) { coo_mttkrp(f, mode, factors, out, control); },
        [&]<class I, class V>(const CsfFormat<I, V>& f) {
            with_rank(out.cols, [&](auto kR) { CsfMttkrp<I, V, kR>(f, mode, factors, out).run(control); });
        },
        [&]<class I, class V>(const BcsfFormat<I, V>& f) {
            with_rank(out.cols, [&](auto kR) { CsfMttkrp<I, V, kR>(f.csf, mode, factors, out).run(control); });
        },
        [&]<class I, class V>(const MmcsfFormat<I, V>& f) {
            with_rank(out.cols, [&](auto kR) {
                // One set of private rows for all partitions: they are summed once, not once per part.
                bool shared = false;
                for (const auto& part : f.partitions) shared = shared || CsfMttkrp<I, V, kR>(part, mode, factors, out).shares_rows();
                OutputRows rows(out, shared);
                for (const auto& part : f.partitions) CsfMttkrp<I, V, kR>(part, mode, factors, out).run(control, rows);
                rows.finish();
            });
        },
        [&]<class I, class V>(const HicooFormat<I, V>& f) { hicoo_mttkrp(f, mode, factors, out, control); },
        [&]<class I, class V>(const HlsFormat<I, V>& f) { hls_mttkrp(f, mode, factors, out, control); },
        [&]<class I, class V>(const AltoFormat<I, V>& f) { detail::alto_mttkrp(f, mode, factors, out, control); },
        [&](const SparseFormat& f) { throw InputError(std::string("MTTKRP has no omp kernel for ") + f.name()); }});
}

}  // namespace tscope
