// MM-CSF's partitioning (mm-csf Sec. 4.1, Alg. 5 lines 2-13): each nonzero goes to the
// orientation whose fiber through it is longest; the dynamic strategy shortens the other
// fibers as each nonzero is placed, so every decision depends on those before it.
//
// The serial pass is the paper's loop. The parallel pass gives the same labels: it cuts the
// nonzeros into blocks in input order and solves each block by Jacobi sweeps. A nonzero's
// fiber lengths are the lengths at the block's start minus, per orientation, how many earlier
// members of the same fiber in the block went elsewhere: a segmented count over the block
// grouped by fiber, computed from the previous sweep's labels. A label depends only on the
// labels before it, so when a sweep changes nothing before position p, labels [0, p] are the
// serial pass's (induction on the position): every sweep fixes at least one more, and a block
// that stops changing is exact.
#include "tscope/formats/balanced_formats.hpp"

#include <algorithm>

#include "fiber_ids.hpp"
#include "tensor/radix_sort.hpp"

namespace tscope {

namespace {

using detail::FiberIds;

// Alg. 5 lines 4-13 for one nonzero whose fibers have lengths cur(m): the longest; ties to the
// orientation with the higher average fiber length, then to the lower mode.
template <class Len>
std::uint8_t longest(int order, const std::vector<double>& average, Len cur) {
    int best = 0;
    auto best_len = cur(0);
    for (int m = 1; m < order; ++m) {
        const auto l = cur(m);
        if (l > best_len || (l == best_len && average[static_cast<std::size_t>(m)] > average[static_cast<std::size_t>(best)])) {
            best = m;
            best_len = l;
        }
    }
    return static_cast<std::uint8_t>(best);
}

std::vector<double> average_lengths(const CooTensor& t, const FiberIds& f) {
    std::vector<double> average;
    for (const auto& len : f.len) average.push_back(static_cast<double>(t.nnz()) / static_cast<double>(len.size()));
    return average;
}

// The paper's step: place z, then shorten the fibers it was not given to.
void place_serially(FiberIds& f, const std::vector<double>& average, std::uint64_t z, std::uint8_t* part) {
    const int order = static_cast<int>(f.fid.size());
    const std::uint8_t best = longest(order, average, [&](int m) { return f.len[static_cast<std::size_t>(m)][f.fid[static_cast<std::size_t>(m)][z]]; });
    part[z] = best;
    for (int m = 0; m < order; ++m)
        if (m != best) --f.len[static_cast<std::size_t>(m)][f.fid[static_cast<std::size_t>(m)][z]];
}

// One block of the dynamic pass, solved in parallel (see the top of the file).
class DynamicBlock {
public:
    DynamicBlock(FiberIds& f, const std::vector<double>& average) : f_(f), average_(average), order_(static_cast<int>(f.fid.size())) {}

    // Labels nonzeros from lo on, at most n of them, as the serial pass would, given f.len as the
    // serial pass leaves it at lo. Returns how many it labelled (at least one) and leaves f.len
    // as the serial pass would after them.
    std::uint64_t solve(std::uint64_t lo, std::uint64_t n, int max_sweeps, std::uint8_t* part, MmcsfPartitionStats& stats);

private:
    void group(std::size_t m);
    void count_lengths(std::size_t m, bool first_sweep);
    std::uint64_t decide_and_compare();
    void commit(std::size_t m, std::uint64_t count);

    FiberIds& f_;
    const std::vector<double>& average_;
    const int order_;
    std::uint64_t lo_ = 0, n_ = 0;
    std::vector<std::vector<std::uint32_t>> members_;     // per mode: the block by fiber, input order inside
    std::vector<std::vector<std::uint64_t>> group_start_;  // per mode: where each fiber's members start (+ n)
    std::vector<std::vector<std::uint64_t>> shared_;       // per mode: the groups of more than one member
    std::vector<std::vector<std::uint32_t>> cur_;          // per mode: each nonzero's fiber length now
    std::vector<std::uint8_t> guess_, next_;
    std::vector<std::uint64_t> keys_, positions_;  // group()'s sort, kept between blocks
};

// The block's nonzeros by mode-m fiber: a stable sort of the fiber ids carrying the positions,
// so each fiber's members stay in input order.
void DynamicBlock::group(std::size_t m) {
    const std::uint32_t* fid = f_.fid[m].data() + lo_;
    keys_.resize(n_);
    positions_.resize(n_);
    const auto ni = static_cast<std::int64_t>(n_);
    std::uint32_t top = 0;
#pragma omp parallel for schedule(static) reduction(max : top)
    for (std::int64_t i = 0; i < ni; ++i) {
        keys_[static_cast<std::size_t>(i)] = fid[i];
        positions_[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(i);
        top = std::max(top, fid[i]);
    }
    detail::radix_sort_pairs(keys_, positions_, detail::bit_width_of(top));
    auto& members = members_[m];
    members.resize(n_);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < ni; ++i) members[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(positions_[static_cast<std::size_t>(i)]);
    group_start_[m] = detail::positions_where(n_, [&](std::uint64_t i) { return i == 0 || keys_[i] != keys_[i - 1]; });
    group_start_[m].push_back(n_);
    const auto& starts = group_start_[m];
    shared_[m] = detail::positions_where(starts.size() - 1, [&](std::uint64_t g) { return starts[g + 1] - starts[g] > 1; });
}

// cur_[m][i]: the mode-m fiber's length at the block's start, less the earlier members of the
// block that the guess sends elsewhere. A fiber's first member in the block sees its length
// whatever the guess, so after the first sweep only fibers with several members are walked.
void DynamicBlock::count_lengths(std::size_t m, bool first_sweep) {
    const auto& starts = group_start_[m];
    const auto& members = members_[m];
    const auto& shared = shared_[m];
    const auto groups = static_cast<std::int64_t>(first_sweep ? starts.size() - 1 : shared.size());
    auto& cur = cur_[m];
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t q = 0; q < groups; ++q) {
        const std::uint64_t g = first_sweep ? static_cast<std::uint64_t>(q) : shared[static_cast<std::size_t>(q)];
        const auto s = starts[g], e = starts[g + 1];
        std::uint32_t length = f_.len[m][f_.fid[m][lo_ + members[s]]];
        for (std::uint64_t k = s; k < e; ++k) {
            const std::uint32_t i = members[k];
            cur[i] = length;
            if (guess_[i] != m) --length;
        }
    }
}

// next_ from cur_; returns the first position where it differs from guess_ (n_ if none).
std::uint64_t DynamicBlock::decide_and_compare() {
    std::uint64_t first = n_;
    const auto ni = static_cast<std::int64_t>(n_);
#pragma omp parallel for schedule(static) reduction(min : first)
    for (std::int64_t i = 0; i < ni; ++i) {
        const auto u = static_cast<std::size_t>(i);
        next_[u] = longest(order_, average_, [&](int m) { return cur_[static_cast<std::size_t>(m)][u]; });
        if (next_[u] != guess_[u]) first = std::min(first, static_cast<std::uint64_t>(i));
    }
    return first;
}

// Shortens each mode-m fiber by its members among the first `count` that went elsewhere.
void DynamicBlock::commit(std::size_t m, std::uint64_t count) {
    const auto& starts = group_start_[m];
    const auto& members = members_[m];
    const auto groups = static_cast<std::int64_t>(starts.size()) - 1;
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t g = 0; g < groups; ++g) {
        const auto s = starts[static_cast<std::size_t>(g)], e = starts[static_cast<std::size_t>(g) + 1];
        std::uint32_t away = 0;
        for (std::uint64_t k = s; k < e && members[k] < count; ++k) away += guess_[members[k]] != m;
        f_.len[m][f_.fid[m][lo_ + members[s]]] -= away;
    }
}

std::uint64_t DynamicBlock::solve(std::uint64_t lo, std::uint64_t n, int max_sweeps, std::uint8_t* part, MmcsfPartitionStats& stats) {
    lo_ = lo;
    n_ = n;
    const auto order = static_cast<std::size_t>(order_);
    members_.resize(order);
    group_start_.resize(order);
    shared_.resize(order);
    cur_.resize(order);
    for (auto& c : cur_) c.resize(n);
    for (std::size_t m = 0; m < order; ++m) group(m);
    // first guess: the static choice at the block's start (as if the block's other nonzeros all
    // stayed in their fibers): right for most nonzeros, so few sweeps change anything
    guess_.resize(n);
    const auto ni = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < ni; ++i)
        guess_[static_cast<std::size_t>(i)] = longest(order_, average_, [&](int m) {
            return f_.len[static_cast<std::size_t>(m)][f_.fid[static_cast<std::size_t>(m)][lo + static_cast<std::uint64_t>(i)]];
        });
    next_.resize(n);
    std::uint64_t fixed = 0;  // labels [0, fixed) are final
    for (int sweep = 0; sweep < max_sweeps && fixed < n; ++sweep) {
        for (std::size_t m = 0; m < order; ++m) count_lengths(m, sweep == 0);
        const std::uint64_t first = decide_and_compare();
        guess_.swap(next_);
        ++stats.sweeps;
        fixed = first == n ? n : std::max(fixed, first + 1);
    }
    ++stats.blocks;
    std::copy(guess_.begin(), guess_.begin() + static_cast<std::ptrdiff_t>(fixed), part + lo);
    for (std::size_t m = 0; m < order; ++m) commit(m, fixed);
    return fixed;
}

}  // namespace

std::vector<std::uint8_t> mmcsf_partition_serial(const CooTensor& t, bool dynamic) {
    FiberIds f = detail::fiber_ids(t);
    const std::vector<double> average = average_lengths(t, f);
    std::vector<std::uint8_t> part(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {  // Alg. 5, line 2: in input order
        if (dynamic) {
            place_serially(f, average, z, part.data());
        } else {
            part[z] = longest(t.order(), average, [&](int m) { return f.len[static_cast<std::size_t>(m)][f.fid[static_cast<std::size_t>(m)][z]]; });
        }
    }
    return part;
}

std::vector<std::uint8_t> mmcsf_partition(const CooTensor& t, bool dynamic, const MmcsfPartitionOptions& options,
                                          MmcsfPartitionStats* stats) {
    FiberIds f = detail::fiber_ids(t);
    const std::vector<double> average = average_lengths(t, f);
    const int order = t.order();
    std::vector<std::uint8_t> part(t.nnz());
    if (!dynamic) {  // the precomputed lengths: every nonzero on its own
        const auto n = static_cast<std::int64_t>(t.nnz());
#pragma omp parallel for schedule(static)
        for (std::int64_t z = 0; z < n; ++z)
            part[static_cast<std::size_t>(z)] = longest(order, average, [&](int m) {
                return f.len[static_cast<std::size_t>(m)][f.fid[static_cast<std::size_t>(m)][static_cast<std::size_t>(z)]];
            });
        return part;
    }
    MmcsfPartitionStats local;
    DynamicBlock block(f, average);
    const std::uint64_t size = std::max<std::uint64_t>(1, options.block);
    for (std::uint64_t lo = 0; lo < t.nnz();) {
        const std::uint64_t n = std::min(size, t.nnz() - lo);
        const std::uint64_t done = block.solve(lo, n, options.max_sweeps, part.data(), local);
        // a block that did not settle: its remainder begins the next block (re-grouped), unless
        // it settled so little that the paper's loop is cheaper for the block's remainder
        if (done < n && done * 8 < n) {
            for (std::uint64_t z = lo + done; z < lo + n; ++z) place_serially(f, average, z, part.data());
            local.serial_nonzeros += n - done;
            lo += n;
        } else {
            lo += done;
        }
    }
    if (stats) *stats = local;
    return part;
}

std::uint64_t mmcsf_fiber_count(const CooTensor& t, const std::vector<std::uint8_t>& partition) {
    const FiberIds f = detail::fiber_ids(t);
    std::uint64_t total = 0;
    for (int p = 0; p < t.order(); ++p) {
        std::vector<bool> seen(f.len[static_cast<std::size_t>(p)].size(), false);
        for (std::uint64_t z = 0; z < t.nnz(); ++z) {
            if (partition[z] != p) continue;
            const auto id = f.fid[static_cast<std::size_t>(p)][z];
            total += !seen[id];
            seen[id] = true;
        }
    }
    return total;
}

}  // namespace tscope
