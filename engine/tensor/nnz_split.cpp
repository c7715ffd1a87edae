#include "tscope/tensor/nnz_split.hpp"

#include <algorithm>

#include "tscope/error.hpp"
#include "tscope/parallel_errors.hpp"

namespace tscope {

namespace {

// Per-thread histograms merged: a billion nonzeros in a few seconds without atomics. A mode
// longer than the nonzeros are many is counted with atomic adds into the one array instead:
// a histogram per thread of a mode of 2e9 indices was 16 GB each (sweep 72).
template <class I>
std::vector<std::uint64_t> count_indices(const Column<I>& idx, std::uint64_t dim, const std::uint8_t* labels, std::uint8_t label) {
    std::vector<std::uint64_t> counts(dim, 0);
    const auto n = static_cast<std::int64_t>(idx.size());
    if (dim > idx.size()) {
#pragma omp parallel for schedule(static)
        for (std::int64_t z = 0; z < n; ++z)
            if (!labels || labels[z] == label) {
#pragma omp atomic
                ++counts[static_cast<std::size_t>(idx[static_cast<std::size_t>(z)])];
            }
        return counts;
    }
    ParallelErrors errors;  // a thread's histogram not allocated
#pragma omp parallel
    {
        std::vector<std::uint64_t> local;
        const bool ready = errors.run([&] { local.assign(dim, 0); });
        // every thread takes its share of the loop, ready or not
#pragma omp for schedule(static) nowait
        for (std::int64_t z = 0; z < n; ++z)
            if (ready && (!labels || labels[z] == label))
                ++local[static_cast<std::size_t>(idx[static_cast<std::size_t>(z)])];
#pragma omp critical
        if (ready)
            for (std::uint64_t i = 0; i < dim; ++i) counts[i] += local[i];
    }
    errors.rethrow();
    return counts;
}

std::vector<std::uint64_t> counts_of(const CooTensor& t, int mode, const std::uint8_t* labels, std::uint8_t label) {
    if (mode < 0 || mode >= t.order()) throw InputError("mode out of range");
    if (t.index_width() == IndexWidth::U64) return count_indices(t.indices<std::uint64_t>(mode), t.dim(mode), labels, label);
    return count_indices(t.indices<std::uint32_t>(mode), t.dim(mode), labels, label);
}

}  // namespace

std::vector<std::uint64_t> slice_counts(const CooTensor& t, int mode) { return counts_of(t, mode, nullptr, 0); }

std::vector<std::pair<std::uint64_t, std::uint64_t>> nonempty_slice_counts(const CooTensor& t, int mode) {
    if (mode < 0 || mode >= t.order()) throw InputError("mode out of range");
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    if (t.dim(mode) <= t.nnz()) {  // an array of every slice costs no more than the nonzeros
        const std::vector<std::uint64_t> counts = slice_counts(t, mode);
        for (std::size_t i = 0; i < counts.size(); ++i)
            if (counts[i]) out.emplace_back(i, counts[i]);
        return out;
    }
    std::vector<std::uint64_t> idx(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) idx[z] = t.index(mode, z);
    std::sort(idx.begin(), idx.end());
    for (std::uint64_t i : idx)
        if (!out.empty() && out.back().first == i)
            ++out.back().second;
        else
            out.emplace_back(i, 1);
    return out;
}

std::vector<std::uint64_t> slice_counts(const CooTensor& t, int mode, const std::uint8_t* labels, std::uint8_t label) {
    return counts_of(t, mode, labels, label);
}

std::vector<std::uint64_t> balanced_cuts(const std::vector<std::uint64_t>& counts, int parts) {
    if (parts < 1) throw InputError("a split needs at least one part");
    std::vector<std::uint64_t> prefix(counts.size() + 1, 0);
    for (std::size_t i = 0; i < counts.size(); ++i) prefix[i + 1] = prefix[i] + counts[i];
    const std::uint64_t total = prefix.back();
    std::vector<std::uint64_t> cuts{0};
    const std::uint64_t n = counts.size();
    for (int p = 1; p < parts; ++p) {
        const long double want = static_cast<long double>(total) * p / parts;
        // the first slice edge at or past the even share, or the one before it when that is nearer
        const auto it = std::lower_bound(prefix.begin() + static_cast<std::ptrdiff_t>(cuts.back()), prefix.end(), want,
                                         [](std::uint64_t a, long double w) { return static_cast<long double>(a) < w; });
        std::uint64_t edge = std::min<std::uint64_t>(static_cast<std::uint64_t>(it - prefix.begin()), n);
        if (edge > cuts.back() && want - static_cast<long double>(prefix[edge - 1]) <= static_cast<long double>(prefix[edge]) - want)
            --edge;
        cuts.push_back(edge);
    }
    cuts.push_back(counts.size());
    return cuts;
}

std::vector<std::uint64_t> even_cuts(std::uint64_t n, int parts) {
    if (parts < 1) throw InputError("a split needs at least one part");
    std::vector<std::uint64_t> cuts;
    for (int p = 0; p <= parts; ++p) cuts.push_back(n / static_cast<std::uint64_t>(parts) * static_cast<std::uint64_t>(p) +
                                                    std::min<std::uint64_t>(static_cast<std::uint64_t>(p), n % static_cast<std::uint64_t>(parts)));
    return cuts;
}

std::vector<std::uint64_t> part_sizes(const std::vector<std::uint64_t>& counts, const std::vector<std::uint64_t>& cuts) {
    std::vector<std::uint64_t> sizes;
    for (std::size_t p = 0; p + 1 < cuts.size(); ++p) {
        std::uint64_t s = 0;
        for (std::uint64_t i = cuts[p]; i < cuts[p + 1]; ++i) s += counts[i];
        sizes.push_back(s);
    }
    return sizes;
}

}  // namespace tscope
