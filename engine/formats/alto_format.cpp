#include "tscope/formats/alto_format.hpp"

#include <algorithm>
#include <numeric>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "coo_writer.hpp"
#include "format_builders.hpp"
#include "tensor/radix_sort.hpp"
#include "tscope/error.hpp"

namespace tscope {

unsigned alto_bits_for(std::uint64_t dim) {
    unsigned b = 0;
    while (b < 64 && (std::uint64_t{1} << b) < dim) ++b;
    return b;
}

AltoLayout alto_layout(const std::vector<std::uint64_t>& dims, const char* format) {
    std::vector<unsigned> left;
    AltoLayout l;
    for (std::uint64_t d : dims) left.push_back(alto_bits_for(d)), l.bits += left.back();
    if (l.bits > 128)
        throw InputError(std::string(format) + ": the modes need " + std::to_string(l.bits) +
                         " bits of linearized index together; at most 128 are stored");
    // Sec. 3.1: round robin from the least significant bit over the modes that still have bits,
    // the shorter modes first within a round (their bits run out first)
    std::vector<std::size_t> turn(dims.size());
    std::iota(turn.begin(), turn.end(), 0);
    std::stable_sort(turn.begin(), turn.end(), [&](std::size_t a, std::size_t b) { return left[a] < left[b]; });
    l.lo.assign(dims.size(), 0);
    l.hi.assign(dims.size(), 0);
    for (unsigned bit = 0; bit < l.bits;)
        for (std::size_t m : turn)
            if (bit < l.bits && left[m] > 0) {
                (bit < 64 ? l.lo[m] : l.hi[m]) |= std::uint64_t{1} << (bit % 64);
                ++bit, --left[m];
            }
    return l;
}

int alto_partitions() {
#ifdef _OPENMP
    return std::max(1, omp_get_max_threads());
#else
    return 1;
#endif
}

template <class I, class V>
StorageReport AltoFormat<I, V>::storage() const {
    StorageReport r;
    r.arrays.push_back(detail::array_info("lidx", "linearized index per nonzero (the modes' bits interleaved)", lidx.size(), 8,
                                          lidx.size()));
    if (layout.wide())
        r.arrays.push_back(detail::array_info("lidx_hi", "the linearized index's high word (the modes need over 64 bits)", lidx_hi.size(), 8,
                                              lidx_hi.size()));
    r.arrays.push_back(detail::value_array_info("vals", "value per nonzero", vals.size(), sizeof(V), vals.size()));
    r.arrays.push_back(detail::array_info("part_ptr", "first nonzero of each partition", part_ptr.size(), 8, part_ptr.size()));
    std::uint64_t bounds = 0;
    for (const auto& l : lo) bounds += l.size();
    r.arrays.push_back(detail::array_info("intervals", "each partition's index interval per mode (lo, hi)", 2 * bounds, 8, 2 * bounds));
    const std::uint64_t words = layout.lo.size() * (layout.wide() ? 2 : 1);
    r.arrays.push_back(detail::array_info("masks", "each mode's bits in the linearized index", words, 8, words));
    return r;
}

template <class I, class V>
CooTensor AltoFormat<I, V>::to_coo() const {
    detail::CooWriter<V> w(this->dims_, vals.size());
    for (std::uint64_t z = 0; z < vals.size(); ++z) {
        for (int m = 0; m < order(); ++m) w.index(z, m, index(m, z));
        w.value(z, vals[z]);
    }
    return w.finish(vals.size());
}

template <class I, class V>
std::vector<std::pair<std::string, std::string>> AltoFormat<I, V>::parameters() const {
    return {{"index bits", std::to_string(layout.bits)}, {"partitions", std::to_string(partitions())}};
}

template <class I, class V>
bool AltoFormat<I, V>::intervals_overlap(int mode) const {
    const auto& l = lo[static_cast<std::size_t>(mode)];
    const auto& h = hi[static_cast<std::size_t>(mode)];
    std::vector<std::size_t> order(l.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return l[a] < l[b]; });
    std::uint64_t reach = 0;
    bool any = false;
    for (std::size_t p : order) {
        if (h[p] == l[p]) continue;  // an empty partition touches nothing
        if (any && l[p] < reach) return true;
        reach = std::max(reach, h[p]), any = true;
    }
    return false;
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_alto(const CooTensor& t, const FormatOptions&, RunControl& control) {
    auto f = std::make_unique<AltoFormat<I, V>>();
    f->layout = alto_layout(t.dims());
    const AltoLayout& l = f->layout;
    const std::uint64_t nnz = t.nnz();
    const int order = t.order();
    std::vector<std::uint64_t> keys(nnz), high(l.wide() ? nnz : 0), perm(nnz);
    t.visit([&](auto itag, auto) {
        using J = typename decltype(itag)::type;
        const auto n = static_cast<std::int64_t>(nnz);
#pragma omp parallel for schedule(static)
        for (std::int64_t z = 0; z < n; ++z) {
            std::uint64_t lo = 0, hi = 0;
            for (int m = 0; m < order; ++m) {
                const std::uint64_t i = t.indices<J>(m)[std::size_t(z)];
                if (l.wide()) alto_deposit_wide(i, l.lo[std::size_t(m)], l.hi[std::size_t(m)], lo, hi);
                else lo |= alto_deposit(i, l.lo[std::size_t(m)]);
            }
            keys[std::size_t(z)] = lo, perm[std::size_t(z)] = std::uint64_t(z);
            if (l.wide()) high[std::size_t(z)] = hi;
        }
    });
    control.check();
    // LSD over the two words: by the low word, then stably by the high one
    radix_sort_pairs(keys, perm, std::max(1u, std::min(l.bits, 64u)));
    if (l.wide()) {
        std::vector<std::uint64_t> hi_sorted(nnz), pos(nnz);
        for (std::uint64_t z = 0; z < nnz; ++z) hi_sorted[z] = high[perm[z]], pos[z] = z;
        radix_sort_pairs(hi_sorted, pos, l.bits - 64);
        std::vector<std::uint64_t> lo_sorted(nnz), final_perm(nnz);
        for (std::uint64_t z = 0; z < nnz; ++z) lo_sorted[z] = keys[pos[z]], final_perm[z] = perm[pos[z]];
        keys = std::move(lo_sorted), perm = std::move(final_perm), high = std::move(hi_sorted);
    }
    control.check();
    f->lidx = Column<std::uint64_t>(nnz);
    if (l.wide()) f->lidx_hi = Column<std::uint64_t>(high.begin(), high.end());
    f->vals = Column<V>(nnz);
    t.visit([&](auto, auto vtag) {
        using W = typename decltype(vtag)::type;
        const auto& v = t.values<W>();
        for (std::uint64_t z = 0; z < nnz; ++z) f->lidx[z] = keys[z], f->vals[z] = static_cast<V>(v[perm[z]]);
    });
    // partitions of equal nonzero counts, one per thread (Sec. 3.2), with their intervals
    const int parts = alto_partitions();
    for (int p = 0; p <= parts; ++p) f->part_ptr.push_back(nnz * static_cast<std::uint64_t>(p) / static_cast<std::uint64_t>(parts));
    f->lo.assign(static_cast<std::size_t>(order), std::vector<std::uint64_t>(static_cast<std::size_t>(parts), 0));
    f->hi = f->lo;
#pragma omp parallel for schedule(static, 1)
    for (int p = 0; p < parts; ++p)
        for (int m = 0; m < order; ++m) {
            std::uint64_t low = ~std::uint64_t{0}, high = 0;
            for (std::uint64_t z = f->part_ptr[std::size_t(p)]; z < f->part_ptr[std::size_t(p) + 1]; ++z) {
                const std::uint64_t i = f->index(m, z);
                low = std::min(low, i), high = std::max(high, i + 1);
            }
            f->lo[std::size_t(m)][std::size_t(p)] = high ? low : 0;
            f->hi[std::size_t(m)][std::size_t(p)] = high;
        }
    return f;
}

namespace {
// Buffers pay for zeroing and summing their intervals once; below this many updates per row of
// the intervals, atomics cost less (ALTO's reuse test, Sec. 4.2). An atomic add of a double is a
// compare-and-swap loop: on jf17k-4d (2 threads, rank 32) atomics took 14 ms a sweep against
// 2.3-2.5 ms with buffers (at 4 updates per row, the threshold before, its modes went atomic),
// so a buffer row's zeroing and summing costs about a fifth of its atomics or less.
constexpr double kMinUpdatesPerRow = 0.25;
// The private buffers together may take this many bytes at most, else atomics.
constexpr std::uint64_t kBufferBudget = std::uint64_t{1} << 31;
}  // namespace

const char* alto_conflict_name(AltoConflict c) {
    return c == AltoConflict::Direct ? "direct" : c == AltoConflict::Buffers ? "buffers" : "atomics";
}

template <class I, class V>
AltoConflict alto_conflict_resolution(const AltoFormat<I, V>& f, int mode, std::uint64_t rank) {
    if (!f.intervals_overlap(mode)) return AltoConflict::Direct;
    std::uint64_t rows = 0;
    for (std::uint64_t p = 0; p < f.partitions(); ++p) rows += f.hi[std::size_t(mode)][p] - f.lo[std::size_t(mode)][p];
    if (rows * rank * sizeof(double) > kBufferBudget) return AltoConflict::Atomics;
    return static_cast<double>(f.vals.size()) >= kMinUpdatesPerRow * static_cast<double>(rows) ? AltoConflict::Buffers
                                                                                                : AltoConflict::Atomics;
}

#define TS_INSTANTIATE(I, V)  \
    template class AltoFormat<I, V>; \
    template AltoConflict alto_conflict_resolution(const AltoFormat<I, V>&, int, std::uint64_t); \
    template std::unique_ptr<SparseFormat> detail::build_alto<I, V>(const CooTensor&, const FormatOptions&, RunControl&);

TS_INSTANTIATE(std::uint32_t, float)
TS_INSTANTIATE(std::uint32_t, double)
TS_INSTANTIATE(std::uint64_t, float)
TS_INSTANTIATE(std::uint64_t, double)

}  // namespace tscope
