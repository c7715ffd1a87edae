#include "tscope/tensor/tensor_stats.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <numeric>

#include "radix_sort.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

void CountDistribution::add(std::uint64_t value) {
    if (count == 0 || value < min) min = value;
    max = std::max(max, value);
    ++count;
    sum_ += static_cast<double>(value);
    sum_sq_ += static_cast<double>(value) * static_cast<double>(value);
    const auto bin = static_cast<std::size_t>(std::bit_width(value) - 1);
    if (log2_histogram.size() <= bin) log2_histogram.resize(bin + 1, 0);
    ++log2_histogram[bin];
}

void CountDistribution::merge(const CountDistribution& other) {
    if (other.count == 0) return;
    if (count == 0 || other.min < min) min = other.min;
    max = std::max(max, other.max);
    count += other.count;
    sum_ += other.sum_;
    sum_sq_ += other.sum_sq_;
    if (log2_histogram.size() < other.log2_histogram.size()) log2_histogram.resize(other.log2_histogram.size(), 0);
    for (std::size_t b = 0; b < other.log2_histogram.size(); ++b) log2_histogram[b] += other.log2_histogram[b];
}

void CountDistribution::finish() {
    if (count == 0) return;
    mean = sum_ / static_cast<double>(count);
    std = std::sqrt(std::max(0.0, sum_sq_ / static_cast<double>(count) - mean * mean));
}

std::uint64_t count_runs(std::span<const std::uint64_t> sorted_keys, CountDistribution& dist) {
    std::uint64_t runs = 0;
    for (std::size_t i = 0; i < sorted_keys.size();) {
        std::size_t j = i + 1;
        while (j < sorted_keys.size() && sorted_keys[j] == sorted_keys[i]) ++j;
        dist.add(j - i);
        ++runs;
        i = j;
    }
    dist.finish();
    return runs;
}

namespace {

// Slices by direct counting when the mode is short enough for a count array; else by sorting.
template <class I>
void slice_stats(const CooTensor& t, int mode, ModeStats& out) {
    const auto& idx = t.indices<I>(mode);
    const std::uint64_t dim = t.dim(mode);
    if (dim <= std::max<std::uint64_t>(4 * t.nnz(), 1u << 20)) {
        std::vector<std::uint64_t> counts(dim, 0);
        for (I i : idx) ++counts[i];
        for (std::uint64_t c : counts)
            if (c) out.slice_nnz.add(c);
        out.slice_nnz.finish();
        out.slices = out.slice_nnz.count;
        return;
    }
    std::vector<std::uint64_t> keys(idx.begin(), idx.end());
    detail::radix_sort(keys, detail::bit_width_of(dim - 1));
    out.slices = count_runs(keys, out.slice_nnz);
}

// Fibers of the last mode in a lexicographically sorted tensor are contiguous runs.
template <class I>
void last_mode_fibers_of_sorted(const CooTensor& t, ModeStats& out) {
    const int prefix = t.order() - 1;
    std::vector<const I*> cols;
    for (int m = 0; m < prefix; ++m) cols.push_back(t.indices<I>(m).data());
    std::uint64_t run = 1;
    for (std::uint64_t n = 1; n <= t.nnz(); ++n) {
        bool same = n < t.nnz();
        for (int m = 0; m < prefix && same; ++m) same = cols[static_cast<std::size_t>(m)][n] == cols[static_cast<std::size_t>(m)][n - 1];
        if (same) {
            ++run;
        } else {
            out.fiber_nnz.add(run);
            run = 1;
        }
    }
    out.fiber_nnz.finish();
    out.fibers = out.fiber_nnz.count;
}

// A mode short enough for an array indexed by it (the bound slice_stats uses).
bool countable(const CooTensor& t, int mode) { return t.dim(mode) <= std::max<std::uint64_t>(4 * t.nnz(), 1u << 20); }

// Fibers keyed by two modes (order 3): bucket the nonzeros by `a` with a counting sort of
// their `b` indices, then count each bucket's distinct `b` with a stamped count array. Two
// streaming passes over nnz instead of building and radix-sorting nnz 64-bit keys.
// Where `a` is the first mode of a sorted tensor its buckets are already its runs: no copy.
template <class I>
class FiberBuckets {
public:
    FiberBuckets(const CooTensor& t, int b) : stamp_(t.dim(b), 0), count_(t.dim(b), 0) {}
    // One bucket's `b` indices: each distinct one is a fiber, its count the fiber's length.
    void count(const I* begin, const I* end, ModeStats& out) {
        ++bucket_;
        for (const I* p = begin; p < end; ++p) {
            const I v = *p;
            if (stamp_[v] != bucket_) {  // the first of this fiber in the bucket
                stamp_[v] = bucket_;
                count_[v] = 0;
                touched_.push_back(v);
            }
            ++count_[v];
        }
        for (I v : touched_) out.fiber_nnz.add(count_[v]);
        touched_.clear();
    }

private:
    std::vector<std::uint64_t> stamp_, count_;
    std::vector<I> touched_;
    std::uint64_t bucket_ = 0;
};

template <class I>
void fibers_by_two_modes(const CooTensor& t, int a, int b, bool a_sorted, ModeStats& out) {
    const auto& ia = t.indices<I>(a);
    const auto& ib = t.indices<I>(b);
    const std::uint64_t nnz = t.nnz();
    FiberBuckets<I> buckets(t, b);
    if (a_sorted) {
        for (std::uint64_t lo = 0; lo < nnz;) {
            std::uint64_t hi = lo + 1;
            while (hi < nnz && ia[hi] == ia[lo]) ++hi;
            buckets.count(ib.data() + lo, ib.data() + hi, out);
            lo = hi;
        }
    } else {
        std::vector<std::uint64_t> start(t.dim(a) + 1, 0);
        for (I i : ia) ++start[static_cast<std::size_t>(i) + 1];
        std::partial_sum(start.begin(), start.end(), start.begin());
        Column<I> by_a(nnz);
        {
            std::vector<std::uint64_t> next(start.begin(), start.end() - 1);
            for (std::uint64_t n = 0; n < nnz; ++n) by_a[next[ia[n]]++] = ib[n];
        }
        for (std::uint64_t slot = 0; slot + 1 < start.size(); ++slot)
            buckets.count(by_a.data() + start[slot], by_a.data() + start[slot + 1], out);
    }
    out.fiber_nnz.finish();
    out.fibers = out.fiber_nnz.count;
}

// Mode-m fibers: group the nonzeros by every index except m.
template <class I>
void fiber_stats(const CooTensor& t, int mode, ModeStats& out, bool sorted) {
    if (sorted && mode == t.order() - 1 && t.order() > 1 && t.nnz() > 0) {
        last_mode_fibers_of_sorted<I>(t, out);
        return;
    }
    std::vector<int> others;
    for (int m = 0; m < t.order(); ++m)
        if (m != mode) others.push_back(m);
    if (others.size() == 2 && sorted && others[0] == 0 && countable(t, others[1])) {
        fibers_by_two_modes<I>(t, 0, others[1], true, out);  // mode 0's runs are the buckets
        return;
    }
    if (others.size() == 2 && countable(t, others[0]) && countable(t, others[1])) {
        // bucket by the shorter mode: fewer, longer buckets
        const bool swap = t.dim(others[1]) < t.dim(others[0]);
        fibers_by_two_modes<I>(t, others[swap ? 1 : 0], others[swap ? 0 : 1], false, out);
        return;
    }
    if (others.empty()) {  // order 1: the whole vector is one fiber
        out.fiber_nnz.add(t.nnz());
        out.fiber_nnz.finish();
        out.fibers = 1;
        return;
    }
    KeyLayout layout = key_layout(t, others);
    std::vector<std::uint64_t> keys;
    if (layout.fits) {
        keys = linear_keys(t, layout);
        detail::radix_sort(keys, layout.bits);
    } else {
        // Rank the tuples instead: sort a permutation, then number distinct tuples in order.
        auto perm = sorted_order(t, others);
        keys.resize(perm.size());
        std::uint64_t rank = 0;
        for (std::size_t n = 0; n < perm.size(); ++n) {
            if (n > 0) {
                for (int m : others)
                    if (t.indices<I>(m)[perm[n]] != t.indices<I>(m)[perm[n - 1]]) {
                        ++rank;
                        break;
                    }
            }
            keys[n] = rank;
        }
    }
    out.fibers = count_runs(keys, out.fiber_nnz);
}

}  // namespace

TensorStats compute_stats(const CooTensor& t, RunControl& control) {
    const auto start = std::chrono::steady_clock::now();
    TensorStats stats;
    stats.density = t.density();
    const int order = t.order();
    stats.modes.resize(static_cast<std::size_t>(order));
    for (int m = 0; m < order; ++m) {
        stats.modes[static_cast<std::size_t>(m)].mode = m;
        stats.modes[static_cast<std::size_t>(m)].dim = t.dim(m);
    }
    control.stage("statistics");
    const bool sorted = is_sorted_lexicographic(t);
    // 2*order independent tasks (slices and fibers of each mode), spread over the threads;
    // fiber tasks dominate (each sorts nnz keys), so they go first.
    const int tasks = 2 * order;
    std::atomic<int> done{0};
    std::atomic<bool> stop{false};
    ParallelErrors errors;  // a task's out of memory, or a progress report's throw
#pragma omp parallel for schedule(dynamic, 1) num_threads(detail::threads_for(t.nnz()))
    for (int task = 0; task < tasks; ++task) {
        if (stop.load() || control.cancelled()) {
            stop = true;
            continue;
        }
        const int mode = task % order;
        ModeStats& out = stats.modes[static_cast<std::size_t>(mode)];
        errors.run([&] {  // passed over once a task has failed
            t.visit([&](auto itag, auto) {
                using I = typename decltype(itag)::type;
                if (task < order)
                    fiber_stats<I>(t, mode, out, sorted);
                else
                    slice_stats<I>(t, mode, out);
            });
            control.progress(static_cast<std::uint64_t>(++done), static_cast<std::uint64_t>(tasks));
        });
    }
    errors.rethrow();
    control.check();
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

}  // namespace tscope
