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
#include "tscope/parallel_errors.hpp"

namespace tscope {

namespace {

using detail::FiberIds;

// Alg. 5 lines 4-13 for one nonzero whose fibers have lengths cur(m): the longest; ties to the
// orientation with the higher average fiber length (the whole tensor's, fixed before the pass),
// then to the lower mode. That tie rule is Sec. 4.1's prose ("we assign the nonzero to the
// partition where average fiber length is higher"); Alg. 5 as printed tests its `>=` on
// fiber (i,j,:) first, which would send every tie to the partition with mode 3 at the leaves.
// The pseudo-code also prints fiberLen(i,j,k) on line 10 for fiberLen(:,j,k).
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

// One block of the dynamic pass, solved in parallel (see the top of the file). A fiber's
// members in the block are a run of its members in input order (FiberIds::members), so the
// block is grouped without sorting it.
class DynamicBlock {
public:
    DynamicBlock(FiberIds& f, const std::vector<double>& average) : f_(f), average_(average), order_(static_cast<int>(f.fid.size())) {}

    // Labels nonzeros from lo on, at most n of them, as the serial pass would, given f.len as the
    // serial pass leaves it at lo. Returns how many it labelled (at least one) and leaves f.len
    // as the serial pass would after them.
    std::uint64_t solve(std::uint64_t lo, std::uint64_t n, int max_sweeps, std::uint8_t* part, MmcsfPartitionStats& stats);

private:
    struct Run {  // a fiber's members in the block: [first, end) of FiberIds::members
        std::uint32_t first, end;
    };
    void find_runs(std::size_t m);
    void count_lengths(std::size_t m);
    std::uint64_t decide_and_compare();
    void commit(std::size_t m, std::uint64_t count);

    FiberIds& f_;
    const std::vector<double>& average_;
    const int order_;
    std::uint64_t lo_ = 0, n_ = 0;
    std::vector<std::vector<Run>> runs_;              // per mode: fibers with several members in the block
    std::vector<std::vector<std::uint8_t>> alone_;    // per mode: the nonzero is its fiber's only member here
    std::vector<std::vector<std::uint32_t>> cur_;     // per mode: each nonzero's fiber length now
    std::vector<std::uint8_t> guess_, next_;
};

// A nonzero whose predecessor in its fiber lies before the block starts a run; the run goes on
// while the members stay inside the block. A lone member's length is the fiber's, whatever
// the labels; only runs are walked by the sweeps.
void DynamicBlock::find_runs(std::size_t m) {
    const auto& members = f_.members[m];
    const auto& start = f_.start[m];
    const auto& position = f_.position[m];
    const auto& fid = f_.fid[m];
    const std::uint64_t hi = lo_ + n_;
    auto& alone = alone_[m];
    alone.resize(n_);
    auto& cur = cur_[m];
    std::vector<std::vector<Run>> found(static_cast<std::size_t>(detail::threads_for(n_)));
    const int threads = static_cast<int>(found.size());
    ParallelErrors errors;  // the runs' lists grow
#pragma omp parallel num_threads(threads)
    errors.run([&] {
        auto& mine = found[static_cast<std::size_t>(detail::thread_index())];
        const auto [first, last] = detail::thread_chunk(n_, threads);
        for (std::uint64_t i = first; i < last; ++i) {
            const std::uint64_t z = lo_ + i;
            const std::uint32_t p = position[z], f = fid[z];
            alone[i] = 0;
            if (p != start[f] && members[p - 1] >= lo_) continue;  // not the first in the block
            cur[i] = f_.len[m][f];
            std::uint32_t e = p + 1;
            while (e < start[f + 1] && members[e] < hi) ++e;
            if (e == p + 1)
                alone[i] = 1;
            else
                mine.push_back({p, e});
        }
    });
    errors.rethrow();
    auto& runs = runs_[m];
    runs.clear();
    for (const auto& v : found) runs.insert(runs.end(), v.begin(), v.end());
}

// cur_[m][i] along each run: the fiber's length at the block's start, less the earlier members
// of the block that the guess sends elsewhere.
void DynamicBlock::count_lengths(std::size_t m) {
    const auto& members = f_.members[m];
    const auto& runs = runs_[m];
    auto& cur = cur_[m];
    const auto count = static_cast<std::int64_t>(runs.size());
#pragma omp parallel for schedule(dynamic, 256)
    for (std::int64_t r = 0; r < count; ++r) {
        const Run run = runs[static_cast<std::size_t>(r)];
        std::uint32_t length = cur[members[run.first] - lo_];  // the run's first member keeps the fiber's length
        for (std::uint32_t q = run.first; q < run.end; ++q) {
            const std::uint64_t i = members[q] - lo_;
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
    const auto& members = f_.members[m];
    const auto& fid = f_.fid[m];
    auto& len = f_.len[m];
    const auto& runs = runs_[m];
    const auto& alone = alone_[m];
    const auto nr = static_cast<std::int64_t>(runs.size());
#pragma omp parallel for schedule(dynamic, 256)
    for (std::int64_t r = 0; r < nr; ++r) {
        const Run run = runs[static_cast<std::size_t>(r)];
        std::uint32_t away = 0;
        for (std::uint32_t q = run.first; q < run.end && members[q] - lo_ < count; ++q) away += guess_[members[q] - lo_] != m;
        len[fid[members[run.first]]] -= away;
    }
    const auto ni = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < ni; ++i)
        if (alone[static_cast<std::size_t>(i)] && guess_[static_cast<std::size_t>(i)] != m) --len[fid[lo_ + static_cast<std::uint64_t>(i)]];
}

std::uint64_t DynamicBlock::solve(std::uint64_t lo, std::uint64_t n, int max_sweeps, std::uint8_t* part, MmcsfPartitionStats& stats) {
    lo_ = lo;
    n_ = n;
    const auto order = static_cast<std::size_t>(order_);
    runs_.resize(order);
    alone_.resize(order);
    cur_.resize(order);
    for (auto& c : cur_) c.resize(n);
    for (std::size_t m = 0; m < order; ++m) find_runs(m);
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
        for (std::size_t m = 0; m < order; ++m) count_lengths(m);
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
    FiberIds f = detail::fiber_ids(t, dynamic);
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
