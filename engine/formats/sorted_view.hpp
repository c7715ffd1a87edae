// Shared machinery of the tree formats (HOCSR, CFB, HOCFS, CSF, B-CSF, ...): the nonzeros
// sorted by a mode order, and the levels of distinct index prefixes of that order.
// Private to the engine.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tensor/radix_sort.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/parallel_errors.hpp"
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
    const std::vector<std::uint64_t> perm = subset ? sorted_order(t, order, *subset, control) : sorted_order(t, order, control);
    const std::uint64_t n = perm.size();
    t.visit([&](auto itag, auto vtag) {
        using TI = typename decltype(itag)::type;
        using TV = typename decltype(vtag)::type;
        for (int m : order) {
            control.check();
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

// Entry p opens a node at every level from its first difference down; node k of level l has
// its first child where the next node of level l+1 (or the next nonzero, for the last level)
// will go. Built in parallel: the nonzeros are cut into one chunk per thread, each chunk counts
// the nodes it opens per level, an exclusive scan of those counts tells every chunk where its
// nodes go, and a second pass writes them. Same arrays as one serial pass, for any thread count.
template <class I, class V>
Levels<I> build_levels(const SortedView<I, V>& v, int levels) {
    Levels<I> out;
    const auto L = static_cast<std::size_t>(levels);
    out.fids.resize(L);
    out.ptr.resize(L);
    const std::uint64_t n = v.nnz();
    const int threads = threads_for(n);
    const auto T = static_cast<std::size_t>(threads);
    std::vector<std::uint64_t> start(T * L + L, 0);  // start[t * L + l]: chunk t's first node of level l; the last row: totals
    // Each step allocates; all threads reach both barriers whatever failed, and after each
    // barrier run() passes over the steps that depend on a failed one.
    ParallelErrors errors;
#pragma omp parallel num_threads(threads)
    {
        const auto t = static_cast<std::size_t>(thread_index());
        // named apart: lambdas capture structured bindings from clang 16 on only (the sanitizer build's clang 14)
        const auto chunk = thread_chunk(n, threads);
        const std::uint64_t lo = chunk.first, hi = chunk.second;
        errors.run([&] {
            std::vector<std::uint64_t> count(L, 0);
            for (std::uint64_t p = lo; p < hi; ++p)
                for (int l = first_difference(v, p, levels); l < levels; ++l) ++count[static_cast<std::size_t>(l)];
            for (std::size_t l = 0; l < L; ++l) start[(t + 1) * L + l] = count[l];
        });
#pragma omp barrier
#pragma omp single
        errors.run([&] {
            for (std::size_t c = 1; c <= T; ++c)
                for (std::size_t l = 0; l < L; ++l) start[c * L + l] += start[(c - 1) * L + l];
            for (std::size_t l = 0; l < L; ++l) {
                out.fids[l].resize(start[T * L + l]);
                out.ptr[l].resize(start[T * L + l] + 1);
            }
        });
        errors.run([&] {
            std::vector<std::uint64_t> at(start.begin() + static_cast<std::ptrdiff_t>(t * L),
                                          start.begin() + static_cast<std::ptrdiff_t>((t + 1) * L));
            for (std::uint64_t p = lo; p < hi; ++p)
                for (int l = first_difference(v, p, levels); l < levels; ++l) {
                    const auto ll = static_cast<std::size_t>(l);
                    out.fids[ll][at[ll]] = v.idx[ll][p];
                    // the next node of the level below is the one this entry opens there, if any
                    out.ptr[ll][at[ll]] = static_cast<I>(l + 1 < levels ? at[ll + 1] : p);
                    ++at[ll];
                }
        });
    }
    errors.rethrow();
    for (std::size_t l = 0; l < L; ++l)
        out.ptr[l][out.ptr[l].size() - 1] = static_cast<I>(l + 1 < L ? out.fids[l + 1].size() : n);
    return out;
}

}  // namespace tscope::detail
