// Shared machinery of the tree formats (HOCSR, CFB, HOCFS, CSF, B-CSF, ...): the nonzeros
// sorted by a mode order, and the levels of distinct index prefixes of that order.
// Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope::detail {

// The nonzeros sorted lexicographically by `order`; idx[l] holds the indices of mode order[l].
template <class I, class V>
struct SortedView {
    std::vector<int> order;
    std::vector<Column<I>> idx;
    Column<V> vals;
    std::uint64_t nnz() const { return vals.size(); }
};

// With `subset`, only those nonzeros (entry numbers) are taken: a partition without a copy.
template <class I, class V>
SortedView<I, V> sorted_view(const CooTensor& t, const std::vector<int>& order, RunControl& control,
                             const std::vector<std::uint64_t>* subset = nullptr) {
    SortedView<I, V> view;
    view.order = order;
    const std::vector<std::uint64_t> perm = subset ? sorted_order(t, order, *subset) : sorted_order(t, order);
    control.check();
    const std::uint64_t n = perm.size();
    t.visit([&](auto itag, auto vtag) {
        using TI = typename decltype(itag)::type;
        using TV = typename decltype(vtag)::type;
        for (int m : order) {
            const TI* src = t.indices<TI>(m).data();
            Column<I> col(n);
#pragma omp parallel for schedule(static)
            for (std::uint64_t i = 0; i < n; ++i) col[i] = static_cast<I>(src[perm[i]]);
            view.idx.push_back(std::move(col));
        }
        const TV* src = t.values<TV>().data();
        view.vals.resize(n);
#pragma omp parallel for schedule(static)
        for (std::uint64_t i = 0; i < n; ++i) view.vals[i] = static_cast<V>(src[perm[i]]);
    });
    return view;
}

// For a sorted view, the first level at which entry p differs from entry p-1 (0 for p == 0):
// entry p opens a new node at every level >= that.
template <class I, class V>
int first_difference(const SortedView<I, V>& v, std::uint64_t p, int levels) {
    if (p == 0) return 0;
    for (int l = 0; l < levels; ++l)
        if (v.idx[static_cast<std::size_t>(l)][p] != v.idx[static_cast<std::size_t>(l)][p - 1]) return l;
    return levels;
}

// The node levels of a sorted view over its first `levels` modes: fids[l] holds the index of
// each distinct prefix of length l+1; ptr[l][k] is where node k's children start in level l+1
// (or in the nonzeros for the last level), with a closing sentinel.
template <class I>
struct Levels {
    std::vector<Column<I>> fids;
    std::vector<Column<I>> ptr;
    std::uint64_t nodes(int l) const { return fids[static_cast<std::size_t>(l)].size(); }
};

template <class I, class V>
Levels<I> build_levels(const SortedView<I, V>& v, int levels) {
    Levels<I> out;
    out.fids.resize(static_cast<std::size_t>(levels));
    out.ptr.resize(static_cast<std::size_t>(levels));
    const std::uint64_t n = v.nnz();
    for (std::uint64_t p = 0; p < n; ++p) {
        // Entry p opens a node at every level from its first difference down; each node's
        // first child is the one opened next at the level below, in this same pass.
        for (int l = first_difference(v, p, levels); l < levels; ++l) {
            const auto ll = static_cast<std::size_t>(l);
            out.fids[ll].push_back(v.idx[ll][p]);
            out.ptr[ll].push_back(static_cast<I>(l + 1 < levels ? out.fids[ll + 1].size() : p));
        }
    }
    for (int l = 0; l < levels; ++l) {
        const auto ll = static_cast<std::size_t>(l);
        out.ptr[ll].push_back(static_cast<I>(l + 1 < levels ? out.fids[ll + 1].size() : n));
    }
    return out;
}

}  // namespace tscope::detail
