// BFS-MCS (Li et al., ICS 2019, Sec. 3): a numbering of the tensor's hypergraph driven by maximum
// cardinality search (Tarjan & Yannakakis 1984): the vertex numbered next is the one with the most
// nonzeros linking it to vertices already numbered. MCS leaves ties open; here they go to the
// vertex reached last, i.e. one sharing the nonzero just visited, so that related indices get
// consecutive ids. Breaking them first-come first (a breadth-first frontier) measured more HiCOO
// blocks on all three shared real tensors (docs/bench/cpu-reorder-ties.json).
#include <algorithm>
#include <numeric>

#include "reorder/reorder_methods.hpp"

namespace tscope::detail {

namespace {

// Max-score queue with lazy deletion: scores only grow, so a vertex is pushed again at each new
// score and stale entries are skipped when popped; last in, first out inside a score.
class BucketQueue {
public:
    void push(std::uint64_t v, std::uint32_t score) {
        if (score >= buckets_.size()) buckets_.resize(score + 1);
        buckets_[score].push_back(v);
        top_ = std::max<std::size_t>(top_, score);
    }
    // The best live vertex, or false when none is left; `live(v, score)` says whether an entry is current.
    template <class Live> bool pop(std::uint64_t& v, Live live) {
        for (;;) {
            while (top_ > 0 && buckets_[top_].empty()) --top_;
            if (buckets_.empty() || buckets_[top_].empty()) return false;
            v = buckets_[top_].back();
            buckets_[top_].pop_back();
            if (live(v, static_cast<std::uint32_t>(top_))) return true;
        }
    }
    void clear() {
        for (auto& b : buckets_) b.clear();
        top_ = 0;
    }

private:
    std::vector<std::vector<std::uint64_t>> buckets_;
    std::size_t top_ = 0;
};

// idx[m]: mode m's index column, taken once (CooTensor::index() checks the mode and the bounds
// at every call: taking the columns once halved the time on the 5M power-law tensor, 1.20 s to
// 0.62 s, session 39).
template <class I>
ModeOrders bfs_mcs_on(const CooTensor& t, const std::vector<const I*>& idx, RunControl& control) {
    const int order = t.order();
    const std::uint64_t nnz = t.nnz();
    std::vector<std::uint64_t> offset(static_cast<std::size_t>(order) + 1, 0);
    for (int m = 0; m < order; ++m) offset[std::size_t(m) + 1] = offset[std::size_t(m)] + t.dim(m);
    const std::uint64_t vertices = offset.back();
    // incidence: each vertex's nonzeros (a CSR over all modes' vertices)
    std::vector<std::uint64_t> start(vertices + 1, 0);
    for (int m = 0; m < order; ++m)
        for (std::uint64_t z = 0; z < nnz; ++z) ++start[offset[std::size_t(m)] + idx[std::size_t(m)][z] + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::uint64_t> incident(start.back());
    {
        std::vector<std::uint64_t> fill(start.begin(), start.end() - 1);
        for (int m = 0; m < order; ++m)
            for (std::uint64_t z = 0; z < nnz; ++z)
                incident[fill[offset[std::size_t(m)] + idx[std::size_t(m)][z]]++] = z;
    }
    // seeds: the densest vertex not yet reached starts each connected part
    std::vector<std::uint64_t> by_degree(vertices);
    std::iota(by_degree.begin(), by_degree.end(), 0);
    std::stable_sort(by_degree.begin(), by_degree.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return start[a + 1] - start[a] > start[b + 1] - start[b]; });
    std::vector<std::uint32_t> score(vertices, 0);
    std::vector<char> numbered(vertices, 0), reached(nnz, 0);
    ModeOrders old_id(static_cast<std::size_t>(order));
    auto mode_of = [&](std::uint64_t v) {
        return static_cast<int>(std::upper_bound(offset.begin(), offset.end(), v) - offset.begin()) - 1;
    };
    BucketQueue queue;
    constexpr std::uint64_t kCheckEvery = 1 << 16;  // vertices numbered between cancel checks
    std::uint64_t done = 0;
    for (std::uint64_t seed : by_degree) {
        if (numbered[seed] || start[seed + 1] == start[seed]) continue;
        queue.push(seed, score[seed]);
        std::uint64_t v = 0;
        while (queue.pop(v, [&](std::uint64_t u, std::uint32_t s) { return !numbered[u] && score[u] == s; })) {
            numbered[v] = 1;
            if (++done % kCheckEvery == 0) control.check(), control.progress(done, vertices);
            const int m = mode_of(v);
            old_id[std::size_t(m)].push_back(v - offset[std::size_t(m)]);
            for (std::uint64_t k = start[v]; k < start[v + 1]; ++k) {
                const std::uint64_t z = incident[k];
                if (reached[z]) continue;
                reached[z] = 1;
                for (int o = 0; o < order; ++o) {
                    const std::uint64_t u = offset[std::size_t(o)] + idx[std::size_t(o)][z];
                    if (!numbered[u]) queue.push(u, ++score[u]);
                }
            }
        }
        queue.clear();
    }
    // indices no nonzero uses: last, in their old order
    for (int m = 0; m < order; ++m)
        for (std::uint64_t i = 0; i < t.dim(m); ++i)
            if (!numbered[offset[std::size_t(m)] + i]) old_id[std::size_t(m)].push_back(i);
    return old_id;
}

}  // namespace

ModeOrders bfs_mcs(const CooTensor& t, RunControl& control) {
    ModeOrders out;
    t.visit([&](auto itag, auto) {
        using I = typename decltype(itag)::type;
        std::vector<const I*> idx;
        for (int m = 0; m < t.order(); ++m) idx.push_back(t.indices<I>(m).data());
        out = bfs_mcs_on(t, idx, control);
    });
    return out;
}

}  // namespace tscope::detail
