// MTTKRP on ALTO (Helal et al., ICS 2021, Sec. 4): each thread walks its partition of the
// linearized order, recovers every nonzero's indices with bit extracts, multiplies the other
// modes' factor rows and adds the product into its output row. The conflict resolution is
// chosen per mode from what the format measured (Sec. 4.2):
//   - the partitions' intervals of the mode do not overlap: each writes its rows directly;
//   - they overlap and each output row gets many updates (the interval is short for the
//     partition's nonzeros): each partition adds into a private buffer over its interval only,
//     and a pull-based pass sums, row by row, the buffers whose interval holds the row. The
//     first partition adds straight into the (zeroed) output instead: one buffer fewer to
//     zero and to sum, as OutputRows does for the other formats;
//   - they overlap and rows get few updates: atomic adds into the output.
#include <algorithm>
#include <atomic>
#include <type_traits>

#include "cpu_kernels.hpp"
#include "output_rows.hpp"
#include "prefetch_row.hpp"
#include "tscope/formats/alto_format.hpp"
#include "tscope/parallel_errors.hpp"

namespace tscope::detail {

namespace {

// Nonzeros ahead whose rows are asked for, every cache line of each row (a row of 32 doubles
// spans four lines; asking for the first only, as this kernel did, made the rank-32 sweep on the
// 5M power-law tensor 0.19-0.22 s against 0.13 s, 2 threads, interleaved). With all lines asked
// for, 24-32 ahead measured fastest (rank 32: 0.082-0.089 s against 0.096-0.102 at 12; rank 16:
// 0.046-0.049 against 0.067-0.070); 48-96 no faster and noisier.
constexpr std::uint64_t kAhead = 32;

template <class I, class V, std::uint64_t kR>
class AltoMttkrp {
public:
    AltoMttkrp(const AltoFormat<I, V>& f, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out)
        : f_(f), mode_(mode), factors_(factors), out_(out), R_(kR ? kR : out.cols) {}

    void run(RunControl& control) {
        const AltoConflict how = alto_conflict_resolution(f_, mode_, R_);
        const auto parts = static_cast<std::int64_t>(f_.partitions());
        // on huge pages (Column): the buffer rows are hit at random (kept between calls they
        // measured no faster on the 5M power-law tensor)
        std::vector<Column<double>> buffers(how == AltoConflict::Buffers ? std::size_t(parts) : 0);
        std::atomic<bool> stop{false};
        ParallelErrors errors;  // a partition's buffer (or a wide rank's row) not allocated: every walk stops
#pragma omp parallel for schedule(static, 1)
        for (std::int64_t p = 0; p < parts; ++p) {
            const bool ran = errors.run([&] {
                const std::uint64_t lo = f_.lo[std::size_t(mode_)][std::size_t(p)];
                double* base = out_.data.data();
                std::uint64_t offset = 0;  // the row `lo` of the partition's target sits at base + (row - offset) * R
                if (how == AltoConflict::Buffers && p > 0) {
                    buffers[std::size_t(p)].assign((f_.hi[std::size_t(mode_)][std::size_t(p)] - lo) * R_, 0.0);
                    base = buffers[std::size_t(p)].data(), offset = lo;
                }
                const bool atomics = how == AltoConflict::Atomics, wide = f_.layout.wide();
                if (atomics && wide)
                    walk<true, true>(p, base, offset, stop, control);
                else if (atomics)
                    walk<true, false>(p, base, offset, stop, control);
                else if (wide)
                    walk<false, true>(p, base, offset, stop, control);
                else
                    walk<false, false>(p, base, offset, stop, control);
            });
            if (!ran) stop = true;
        }
        errors.rethrow();
        control.check();
        if (how == AltoConflict::Buffers) pull(buffers);
    }

private:
    // One mode's index of a nonzero: one pext for a 64-bit index, two for a 128-bit one.
    template <bool kWide> struct Key {
        std::uint64_t lo, hi;
        std::uint64_t operator()(std::uint64_t mask_lo, std::uint64_t mask_hi) const {
            if constexpr (kWide) return alto_extract_wide(lo, hi, mask_lo, mask_hi);
            return alto_extract(lo, mask_lo);
        }
    };

    // The partition's nonzeros, in order, added into base's rows (row - offset).
    template <bool kAtomic, bool kWide>
    void walk(std::int64_t p, double* base, std::uint64_t offset, std::atomic<bool>& stop, RunControl& control) const {
        const int order = f_.order();
        const std::uint64_t out_lo = f_.layout.lo[std::size_t(mode_)], out_hi = f_.layout.hi[std::size_t(mode_)];
        // the other modes' masks and factors, in a fixed small array: no lookups per nonzero
        std::uint64_t mlo[kMaxOrder], mhi[kMaxOrder];
        const double* rows[kMaxOrder];
        int others = 0;
        for (int m = 0; m < order; ++m)
            if (m != mode_) mlo[others] = f_.layout.lo[std::size_t(m)], mhi[others] = f_.layout.hi[std::size_t(m)], rows[others++] = factors_[std::size_t(m)].data.data();
        alignas(64) double fixed[kR ? kR : 1];
        std::vector<double> wide(kR ? 0 : R_);
        double* q = kR ? fixed : wide.data();
        const std::uint64_t begin = f_.part_ptr[std::size_t(p)], end = f_.part_ptr[std::size_t(p) + 1];
        const std::uint64_t* const lidx = f_.lidx.data();
        const std::uint64_t* const lidx_hi = kWide ? f_.lidx_hi.data() : nullptr;
        const V* const vals = f_.vals.data();
        auto key = [&](std::uint64_t z) { return Key<kWide>{lidx[z], kWide ? lidx_hi[z] : 0}; };
        for (std::uint64_t z = begin; z < end; ++z) {
            if (((z - begin) & 0xffff) == 0 && (stop || (control.cancelled() && (stop = true)))) return;
            if (z + kAhead < end) {  // ask for the rows a few nonzeros ahead: the loop waits on memory
                const Key<kWide> next = key(z + kAhead);
                for (int k = 0; k < others; ++k) prefetch_row(rows[k] + next(mlo[k], mhi[k]) * R(), R());
                prefetch_row<1>(base + (next(out_lo, out_hi) - offset) * R(), R());
            }
            const Key<kWide> lin = key(z);
            const double x = static_cast<double>(vals[z]);
            double* const dst = base + (lin(out_lo, out_hi) - offset) * R();
            // the Khatri-Rao row of this nonzero, scaled by its value
            if (others == 0) {  // order 1: the product of no rows is all ones
                for (std::uint64_t r = 0; r < R(); ++r) q[r] = x;
                flush<kAtomic>(dst, q);
                continue;
            }
            const double* a = rows[0] + lin(mlo[0], mhi[0]) * R();
            if (others == 2) {  // order 3, the common case: both rows in one pass
                const double* b = rows[1] + lin(mlo[1], mhi[1]) * R();
                if constexpr (!kAtomic) {  // straight into the row: no product kept between loops
                    add_product(dst, x, a, b);
                    continue;
                }
                for (std::uint64_t r = 0; r < R(); ++r) q[r] = x * a[r] * b[r];
            } else {
                for (std::uint64_t r = 0; r < R(); ++r) q[r] = x * a[r];
                for (int k = 1; k < others; ++k) {
                    const double* b = rows[k] + lin(mlo[k], mhi[k]) * R();
                    for (std::uint64_t r = 0; r < R(); ++r) q[r] *= b[r];
                }
            }
            flush<kAtomic>(dst, q);
        }
    }

    // dst += x * a .* b. The rows never overlap (an output row and factor rows): saying so
    // spares the compiler its overlap checks.
    void add_product(double* __restrict dst, double x, const double* __restrict a, const double* __restrict b) const {
        for (std::uint64_t r = 0; r < R(); ++r) dst[r] += x * a[r] * b[r];
    }

    template <bool kAtomic>
    void flush(double* dst, const double* v) const {
        for (std::uint64_t r = 0; r < R(); ++r) {
            if constexpr (kAtomic) {
#pragma omp atomic
                dst[r] += v[r];
            } else {
                dst[r] += v[r];
            }
        }
    }

    // Pull-based reduction (Sec. 4.2): each output row sums the buffers whose interval holds it
    // (partition 0 has none: it wrote the output itself).
    void pull(const std::vector<Column<double>>& buffers) {
        const auto& lo = f_.lo[std::size_t(mode_)];
        const auto& hi = f_.hi[std::size_t(mode_)];
        const auto first = static_cast<std::int64_t>(*std::min_element(lo.begin(), lo.end()));
        const auto last = static_cast<std::int64_t>(*std::max_element(hi.begin(), hi.end()));
#pragma omp parallel for schedule(static, 256)
        for (std::int64_t i = first; i < last; ++i) {
            double* dst = out_.row(std::uint64_t(i));
            for (std::size_t p = 1; p < buffers.size(); ++p) {
                if (std::uint64_t(i) < lo[p] || std::uint64_t(i) >= hi[p]) continue;
                const double* src = buffers[p].data() + (std::uint64_t(i) - lo[p]) * R_;
                for (std::uint64_t r = 0; r < R(); ++r) dst[r] += src[r];
            }
        }
    }

    std::uint64_t R() const {
        if constexpr (kR != 0) return kR;
        return R_;
    }

    const AltoFormat<I, V>& f_;
    int mode_;
    const std::vector<DenseMatrix>& factors_;
    DenseMatrix& out_;
    std::uint64_t R_;
};

}  // namespace

template <class I, class V>
void alto_mttkrp(const AltoFormat<I, V>& f, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out, RunControl& control) {
    // Ranks 16, 32 and 64 get their loops unrolled. Rank 16's unrolled form once measured slower
    // than the generic loop, while only each row's first line was prefetched; with every line it
    // is faster (0.046-0.049 s a sweep against 0.062-0.069, 2 threads, the 5M power-law tensor).
    switch (out.cols) {
    case 32: return AltoMttkrp<I, V, 32>(f, mode, factors, out).run(control);
    case 16: return AltoMttkrp<I, V, 16>(f, mode, factors, out).run(control);
    case 64: return AltoMttkrp<I, V, 64>(f, mode, factors, out).run(control);
    default: return AltoMttkrp<I, V, 0>(f, mode, factors, out).run(control);
    }
}

template void alto_mttkrp(const AltoFormat<std::uint32_t, float>&, int, const std::vector<DenseMatrix>&, DenseMatrix&, RunControl&);
template void alto_mttkrp(const AltoFormat<std::uint32_t, double>&, int, const std::vector<DenseMatrix>&, DenseMatrix&, RunControl&);
template void alto_mttkrp(const AltoFormat<std::uint64_t, float>&, int, const std::vector<DenseMatrix>&, DenseMatrix&, RunControl&);
template void alto_mttkrp(const AltoFormat<std::uint64_t, double>&, int, const std::vector<DenseMatrix>&, DenseMatrix&, RunControl&);

}  // namespace tscope::detail
