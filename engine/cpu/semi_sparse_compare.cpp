#include "semi_sparse_compare.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "../tensor/radix_sort.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/relative_error.hpp"

namespace tscope::detail {

namespace {

// Each chunk's sparse indices as one key, mixed radix over the sparse modes in ascending mode
// number (so that two results listing those modes in different orders agree); nullopt where
// the product of their dims does not fit 64 bits.
template <class I, class V>
std::optional<std::vector<std::uint64_t>> chunk_keys(const ScooFormat<I, V>& s) {
    std::vector<std::size_t> by_mode(s.sparse_modes.size());  // positions in sparse_modes, by mode number
    std::iota(by_mode.begin(), by_mode.end(), std::size_t{0});
    std::sort(by_mode.begin(), by_mode.end(),
              [&](std::size_t x, std::size_t y) { return s.sparse_modes[x] < s.sparse_modes[y]; });
    const auto dim = [&](std::size_t k) {
        return std::max<std::uint64_t>(s.dims()[static_cast<std::size_t>(s.sparse_modes[k])], 1);
    };
    std::uint64_t span = 1;
    for (std::size_t k : by_mode) {
        if (span > UINT64_MAX / dim(k)) return std::nullopt;
        span *= dim(k);
    }
    std::vector<std::uint64_t> keys(s.chunks(), 0);
    for (std::size_t k : by_mode) {
        const std::uint64_t d = dim(k);
        const auto& idx = s.idx[k];
#pragma omp parallel for schedule(static)
        for (std::int64_t c = 0; c < static_cast<std::int64_t>(keys.size()); ++c)
            keys[static_cast<std::size_t>(c)] =
                keys[static_cast<std::size_t>(c)] * d + static_cast<std::uint64_t>(idx[static_cast<std::size_t>(c)]);
    }
    return keys;
}

// The chunks in their keys' order (keys sorted alongside).
std::vector<std::uint64_t> chunk_order(std::vector<std::uint64_t>& keys) {
    std::vector<std::uint64_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    const std::uint64_t top = keys.empty() ? 0 : *std::max_element(keys.begin(), keys.end());
    radix_sort_pairs(keys, order, std::max(1u, bit_width_of(top)));
    return order;
}

std::vector<int> sorted(std::vector<int> modes) {
    std::sort(modes.begin(), modes.end());
    return modes;
}

template <class IA, class VA, class IB, class VB>
std::optional<double> compare(const ScooFormat<IA, VA>& a, const ScooFormat<IB, VB>& ref) {
    if (a.dims() != ref.dims() || a.dense_modes != ref.dense_modes ||
        sorted(a.sparse_modes) != sorted(ref.sparse_modes) || a.chunk_size() != ref.chunk_size() ||
        a.vals.size() != ref.vals.size())
        return std::nullopt;
    auto ka = chunk_keys(a), kr = chunk_keys(ref);
    if (!ka || !kr) return std::nullopt;
    if (ka->size() != kr->size()) return INFINITY;  // as the entries' counts would differ
    const std::vector<std::uint64_t> oa = chunk_order(*ka), orf = chunk_order(*kr);
    if (*ka != *kr) return INFINITY;  // a chunk of one is missing from the other
    const std::uint64_t size = a.chunk_size();
    double diff = 0, scale = 0;
    int not_finite = 0;
#pragma omp parallel for schedule(static) reduction(max : diff, scale, not_finite)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(oa.size()); ++i) {
        const VA* x = a.vals.data() + oa[static_cast<std::size_t>(i)] * size;
        const VB* y = ref.vals.data() + orf[static_cast<std::size_t>(i)] * size;
        RelativeError e;
        for (std::uint64_t p = 0; p < size; ++p) e.add(static_cast<double>(x[p]), static_cast<double>(y[p]));
        diff = std::max(diff, e.diff), scale = std::max(scale, e.scale),
        not_finite = std::max(not_finite, e.finite ? 0 : 1);
    }
    return RelativeError{diff, scale, not_finite == 0}.value();
}

}  // namespace

std::optional<double> semi_sparse_chunk_error(const SparseFormat& a, const SparseFormat& reference) {
    return visit_format(
        a, overloaded{[&]<class IA, class VA>(const ScooFormat<IA, VA>& x) -> std::optional<double> {
                          return visit_format(
                              reference,
                              overloaded{[&]<class IB, class VB>(const ScooFormat<IB, VB>& y) -> std::optional<double> {
                                             return compare(x, y);
                                         },
                                         [](const SparseFormat&) -> std::optional<double> { return std::nullopt; }});
                      },
                      [](const SparseFormat&) -> std::optional<double> { return std::nullopt; }});
}

}  // namespace tscope::detail
