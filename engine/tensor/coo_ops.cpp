#include "tscope/tensor/coo_ops.hpp"

#include <algorithm>
#include <numeric>

#include "radix_sort.hpp"
#include "sorted_order_reusing.hpp"

namespace tscope {

using detail::threads_for;

KeyLayout key_layout(const CooTensor& t, std::span<const int> modes) {
    KeyLayout layout;
    layout.modes.assign(modes.begin(), modes.end());
    unsigned __int128 cells = 1;
    for (int m : modes) {
        layout.dims.push_back(t.dim(m));
        cells *= t.dim(m);
        if (cells > static_cast<unsigned __int128>(UINT64_MAX)) layout.fits = false;
    }
    if (layout.fits) layout.bits = detail::bit_width_of(static_cast<std::uint64_t>(cells - 1));
    return layout;
}

namespace {

// keys = the linear key of entries entry(0..count) (layout.fits must hold), in keys' memory
// where it has some.
template <class Entry>
void keys_of(const CooTensor& t, const KeyLayout& layout, std::uint64_t count, Entry entry,
             std::vector<std::uint64_t>& keys) {
    keys.resize(count);
    t.visit([&](auto itag, auto) {
        using I = typename decltype(itag)::type;
        for (std::size_t k = 0; k < layout.modes.size(); ++k) {
            const I* idx = t.indices<I>(layout.modes[k]).data();
            const std::uint64_t d = layout.dims[k];
            if (k == 0) {  // the first mode sets the keys, whatever the memory held
#pragma omp parallel for num_threads(threads_for(count)) schedule(static)
                for (std::uint64_t i = 0; i < count; ++i) keys[i] = idx[entry(i)];
            } else {
#pragma omp parallel for num_threads(threads_for(count)) schedule(static)
                for (std::uint64_t i = 0; i < count; ++i) keys[i] = keys[i] * d + idx[entry(i)];
            }
        }
    });
    if (layout.modes.empty()) std::fill(keys.begin(), keys.end(), 0);
}

}  // namespace

std::vector<std::uint64_t> linear_keys(const CooTensor& t, const KeyLayout& layout) {
    if (!layout.fits) throw Error("linear_keys: the key space does not fit 64 bits");
    std::vector<std::uint64_t> keys;
    keys_of(
        t, layout, t.nnz(), [](std::uint64_t i) { return i; }, keys);
    return keys;
}

std::vector<int> natural_modes(int order) {
    std::vector<int> modes(static_cast<std::size_t>(order));
    std::iota(modes.begin(), modes.end(), 0);
    return modes;
}

namespace {

// Sorts entries `entry(0..count)` of t by `modes`. Three ways, cheapest first:
//  - key and position packed in one 64-bit word: one key-only radix sort, 16 bytes/nonzero;
//  - key and position as pairs: 32 bytes/nonzero;
//  - keys wider than 64 bits: a comparison sort of tuples.
// scratch (optional): the keys' memory and the sort's, see sorted_order_reusing.hpp.
template <class Entry>
std::vector<std::uint64_t> sort_entries(const CooTensor& t, std::span<const int> modes, std::uint64_t count,
                                        Entry entry, RunControl& control, detail::SortScratch* scratch = nullptr) {
    const KeyLayout layout = key_layout(t, modes);
    const unsigned pos_bits = detail::bit_width_of(count > 0 ? count - 1 : 0);
    std::vector<std::uint64_t> keys;
    if (scratch) keys.swap(scratch->keys);
    detail::RadixScratch* radix = scratch ? &scratch->radix : nullptr;
    if (layout.fits) keys_of(t, layout, count, entry, keys);
    control.check();  // each step of the sort touches every entry: check between them
    if (layout.fits && layout.bits + pos_bits <= 64) {
#pragma omp parallel for num_threads(threads_for(count)) schedule(static)
        for (std::uint64_t i = 0; i < count; ++i) keys[i] = (pos_bits ? keys[i] << pos_bits : 0) | i;
        detail::radix_sort(keys, layout.bits + pos_bits, control, radix);  // positions break ties: stable
        const std::uint64_t mask = pos_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << pos_bits) - 1;
#pragma omp parallel for num_threads(threads_for(count)) schedule(static)
        for (std::uint64_t i = 0; i < count; ++i) keys[i] = entry(keys[i] & mask);
        return keys;  // now the permutation, in place
    }
    std::vector<std::uint64_t> perm(count);
#pragma omp parallel for num_threads(threads_for(count)) schedule(static)
    for (std::uint64_t i = 0; i < count; ++i) perm[i] = entry(i);
    control.check();
    if (layout.fits) {
        detail::radix_sort_pairs(keys, perm, layout.bits, control, radix);
        if (scratch) scratch->keys.swap(keys);
        return perm;
    }
    // Keys wider than 64 bits: the modes in groups whose keys fit, least significant group
    // first, each a stable radix sort of the permutation so far (LSD over the groups).
    std::vector<std::vector<int>> groups(1);
    for (auto m = modes.rbegin(); m != modes.rend(); ++m) {
        std::vector<int> wider{*m};
        wider.insert(wider.end(), groups.back().begin(), groups.back().end());
        if (!groups.back().empty() && !key_layout(t, wider).fits) {
            groups.push_back({*m});
            continue;
        }
        groups.back() = std::move(wider);
    }
    for (const std::vector<int>& group : groups) {
        const KeyLayout g = key_layout(t, group);
        keys_of(
            t, g, count, [&](std::uint64_t i) { return perm[i]; }, keys);
        detail::radix_sort_pairs(keys, perm, g.bits, control, radix);
    }
    if (scratch) scratch->keys.swap(keys);
    return perm;
}

}  // namespace

std::vector<std::uint64_t> sorted_order(const CooTensor& t, std::span<const int> modes, RunControl& control) {
    return sort_entries(t, modes, t.nnz(), [](std::uint64_t i) { return i; }, control);
}

std::vector<std::uint64_t> sorted_order(const CooTensor& t, std::span<const int> modes,
                                        const std::vector<std::uint64_t>& subset, RunControl& control) {
    return sort_entries(t, modes, subset.size(), [&](std::uint64_t i) { return subset[i]; }, control);
}

std::vector<std::uint64_t> detail::sorted_order_reusing(const CooTensor& t, std::span<const int> modes,
                                                        SortScratch& scratch) {
    return sort_entries(
        t, modes, t.nnz(), [](std::uint64_t i) { return i; }, no_control(), &scratch);
}

void apply_permutation(CooTensor& t, const std::vector<std::uint64_t>& perm) {
    const std::uint64_t n = t.nnz();
    if (perm.size() != n) throw Error("apply_permutation: permutation has the wrong length");
    t.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        auto gather = [&](auto& column) {
            std::remove_reference_t<decltype(column)> out(n);
#pragma omp parallel for num_threads(threads_for(n)) schedule(static)
            for (std::uint64_t i = 0; i < n; ++i) out[i] = column[perm[i]];
            column.swap(out);
        };
        for (int m = 0; m < t.order(); ++m) gather(t.indices<I>(m));
        gather(t.values<V>());
    });
}

void sort_lexicographic(CooTensor& t, std::span<const int> modes, RunControl& control) {
    std::vector<int> natural;
    if (modes.empty()) {
        natural = natural_modes(t.order());
        modes = natural;
    }
    std::vector<std::uint64_t> perm = sorted_order(t, modes, control);
    control.check();
    apply_permutation(t, perm);
}

namespace {

// One pass, on every thread: is the tensor sorted lexicographically, and how many neighbours
// share their coordinates (the duplicates, when it is sorted).
struct OrderScan {
    bool sorted = true;
    std::uint64_t equal_neighbours = 0;
};

template <class I>
OrderScan scan_order(const CooTensor& t) {
    const int order = t.order();
    std::vector<const I*> cols;
    for (int m = 0; m < order; ++m) cols.push_back(t.indices<I>(m).data());
    const auto n = static_cast<std::int64_t>(t.nnz());
    std::uint64_t equal = 0, descents = 0;
#pragma omp parallel for num_threads(threads_for(t.nnz())) schedule(static) reduction(+ : equal, descents)
    for (std::int64_t k = 1; k < n; ++k) {
        const auto u = static_cast<std::uint64_t>(k);
        int cmp = 0;
        for (int m = 0; m < order && cmp == 0; ++m) {
            const I a = cols[static_cast<std::size_t>(m)][u - 1], b = cols[static_cast<std::size_t>(m)][u];
            cmp = (a < b) ? -1 : (a > b) ? 1 : 0;
        }
        descents += cmp > 0;
        equal += cmp == 0;
    }
    return {descents == 0, descents == 0 ? equal : 0};
}

OrderScan scan_order(const CooTensor& t) {
    return t.visit([&](auto itag, auto) { return scan_order<typename decltype(itag)::type>(t); });
}

}  // namespace

bool is_sorted_lexicographic(const CooTensor& t) { return scan_order(t).sorted; }

namespace {

// Counts equal neighbours in a sorted key list.
std::uint64_t adjacent_equal(const std::vector<std::uint64_t>& sorted) {
    std::uint64_t dups = 0;
    const auto n = static_cast<std::int64_t>(sorted.size());
#pragma omp parallel for num_threads(threads_for(sorted.size())) schedule(static) reduction(+ : dups)
    for (std::int64_t i = 1; i < n; ++i) dups += sorted[static_cast<std::size_t>(i)] == sorted[static_cast<std::size_t>(i) - 1];
    return dups;
}

// Builds the merged tensor from a lexicographic permutation: runs of equal coordinates become
// one entry whose value is the run's sum. The runs' starts are found, and each run summed, in
// parallel; a run is summed in its own order, so the sums do not depend on the thread count.
template <class I, class V>
std::uint64_t merge_sorted_runs(CooTensor& t, const std::vector<std::uint64_t>& perm) {
    const int order = t.order();
    const std::uint64_t n = t.nnz();
    auto same = [&](std::uint64_t a, std::uint64_t b) {
        for (int m = 0; m < order; ++m)
            if (t.indices<I>(m)[a] != t.indices<I>(m)[b]) return false;
        return true;
    };
    std::vector<std::uint64_t> starts = detail::positions_where(n, [&](std::uint64_t i) { return i == 0 || !same(perm[i - 1], perm[i]); });
    const std::uint64_t w = starts.size();
    starts.push_back(n);
    CooTensor out(t.dims(), t.index_width(), t.value_type());
    out.resize(w);
    const auto runs = static_cast<std::int64_t>(w);
#pragma omp parallel for num_threads(threads_for(w)) schedule(static)
    for (std::int64_t r = 0; r < runs; ++r) {
        const auto u = static_cast<std::uint64_t>(r);
        const std::uint64_t first = perm[starts[u]];
        V sum = t.values<V>()[first];
        for (std::uint64_t j = starts[u] + 1; j < starts[u + 1]; ++j) sum += t.values<V>()[perm[j]];
        for (int m = 0; m < order; ++m) out.indices<I>(m)[u] = t.indices<I>(m)[first];
        out.values<V>()[u] = sum;
    }
    const std::uint64_t merged = n - w;
    t = std::move(out);
    return merged;
}

}  // namespace

std::uint64_t sum_duplicates(CooTensor& t, RunControl& control) {
    if (t.nnz() < 2) return 0;
    const auto modes = natural_modes(t.order());
    std::vector<std::uint64_t> perm;
    // Files are often sorted already: then duplicates are neighbours and one pass finds them.
    if (const OrderScan scan = scan_order(t); scan.sorted) {
        if (scan.equal_neighbours == 0) return 0;
        perm.resize(t.nnz());
        std::iota(perm.begin(), perm.end(), std::uint64_t{0});
    }
    KeyLayout layout = key_layout(t, modes);
    if (perm.empty() && layout.fits) {
        // Fast check first: sorting bare keys is cheaper than sorting a permutation,
        // and most files have no duplicates at all.
        auto keys = linear_keys(t, layout);
        detail::radix_sort(keys, layout.bits);
        if (adjacent_equal(keys) == 0) return 0;
    }
    control.check();
    if (perm.empty()) perm = sorted_order(t, modes);
    control.check();
    return t.visit([&](auto itag, auto vtag) {
        return merge_sorted_runs<typename decltype(itag)::type, typename decltype(vtag)::type>(t, perm);
    });
}

double squared_norm(const CooTensor& t) {
    return t.visit([&](auto, auto value) {
        const auto& vals = t.values<typename decltype(value)::type>();
        double s = 0;
        const auto n = static_cast<std::int64_t>(vals.size());
#pragma omp parallel for reduction(+ : s) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) s += static_cast<double>(vals[static_cast<std::size_t>(i)]) * static_cast<double>(vals[static_cast<std::size_t>(i)]);
        return s;
    });
}

std::uint64_t drop_zeros(CooTensor& t) {
    const std::uint64_t n = t.nnz();
    return t.visit([&](auto itag, auto vtag) -> std::uint64_t {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        const auto& vals = t.values<V>();
        std::uint64_t zeros = 0;
#pragma omp parallel for num_threads(threads_for(n)) reduction(+ : zeros) schedule(static)
        for (std::uint64_t i = 0; i < n; ++i) zeros += vals[i] == V{0};
        if (zeros == 0) return 0;
        // the kept entries' positions, in order, then a gather of every column
        const std::vector<std::uint64_t> keep = detail::positions_where(n, [&](std::uint64_t i) { return vals[i] != V{0}; });
        auto gather = [&](auto& column) {
            std::remove_reference_t<decltype(column)> out(keep.size());
#pragma omp parallel for num_threads(threads_for(keep.size())) schedule(static)
            for (std::uint64_t i = 0; i < keep.size(); ++i) out[i] = column[keep[i]];
            column.swap(out);
        };
        for (int m = 0; m < t.order(); ++m) gather(t.indices<I>(m));
        gather(t.values<V>());
        t.resize(keep.size());  // the columns already have that size: this sets nnz
        return zeros;
    });
}

bool same_entries(const CooTensor& a, const CooTensor& b, std::string* why) {
    auto fail = [&](std::string msg) {
        if (why) *why = std::move(msg);
        return false;
    };
    if (a.dims() != b.dims()) return fail("dims differ");
    if (a.nnz() != b.nnz())
        return fail("nnz differ: " + std::to_string(a.nnz()) + " vs " + std::to_string(b.nnz()));
    const auto modes = natural_modes(a.order());
    const auto pa = sorted_order(a, modes);
    const auto pb = sorted_order(b, modes);
    for (std::uint64_t n = 0; n < a.nnz(); ++n) {
        for (int m = 0; m < a.order(); ++m) {
            if (a.index(m, pa[n]) != b.index(m, pb[n]))
                return fail("coordinates differ at sorted entry " + std::to_string(n) + ", mode " +
                            std::to_string(m + 1));
        }
        if (a.value(pa[n]) != b.value(pb[n]))
            return fail("values differ at sorted entry " + std::to_string(n) + ": " +
                        std::to_string(a.value(pa[n])) + " vs " + std::to_string(b.value(pb[n])));
    }
    return true;
}

}  // namespace tscope
