// Serial on purpose: it serves the references, which are the oracles of every kernel.
#include "fiber_runs.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace tscope::detail {

namespace {

// Whether the other modes' indices linearise into 64 bits (the first other mode the most
// significant), which keeps their lexicographic order.
bool linearises(const CooTensor& t, int mode) {
    std::uint64_t span = 1;
    for (int m = 0; m < t.order(); ++m) {
        if (m == mode) continue;
        if (t.dim(m) != 0 && span > std::numeric_limits<std::uint64_t>::max() / t.dim(m)) return false;
        span *= t.dim(m);
    }
    return true;
}

// A fiber starts at k where k is 0 or where the k-th nonzero's fiber differs from the one before.
template <class Differs>
std::vector<std::uint64_t> run_starts(std::uint64_t n, Differs&& differs) {
    std::vector<std::uint64_t> starts;
    for (std::uint64_t k = 0; k < n; ++k)
        if (k == 0 || differs(k)) starts.push_back(k);
    if (n) starts.push_back(n);
    return starts;
}

// By linear keys: one sort of (key, position) pairs; a fiber is a run of equal keys.
FiberRuns runs_by_keys(const CooTensor& t, int mode) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> keyed(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        std::uint64_t key = 0;
        for (int m = 0; m < t.order(); ++m)
            if (m != mode) key = key * t.dim(m) + t.index(m, z);
        keyed[z] = {key, z};
    }
    std::sort(keyed.begin(), keyed.end());
    FiberRuns r;
    r.order.resize(t.nnz());
    for (std::uint64_t k = 0; k < t.nnz(); ++k) r.order[k] = keyed[k].second;
    r.starts = run_starts(t.nnz(), [&](std::uint64_t k) { return keyed[k].first != keyed[k - 1].first; });
    return r;
}

// Where the keys would overflow: the positions sorted by comparing coordinates.
FiberRuns runs_by_coordinates(const CooTensor& t, int mode) {
    auto before = [&](std::uint64_t a, std::uint64_t b) {
        for (int m = 0; m < t.order(); ++m) {
            if (m == mode) continue;
            const std::uint64_t ia = t.index(m, a), ib = t.index(m, b);
            if (ia != ib) return ia < ib;
        }
        return false;
    };
    FiberRuns r;
    r.order.resize(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) r.order[z] = z;
    std::stable_sort(r.order.begin(), r.order.end(), before);  // a fiber's nonzeros keep their positions' order
    r.starts = run_starts(t.nnz(), [&](std::uint64_t k) { return before(r.order[k - 1], r.order[k]); });
    return r;
}

}  // namespace

FiberRuns fiber_runs(const CooTensor& t, int mode) {
    return linearises(t, mode) ? runs_by_keys(t, mode) : runs_by_coordinates(t, mode);
}

std::vector<std::uint64_t> fiber_coord(const CooTensor& t, int mode, std::uint64_t z) {
    std::vector<std::uint64_t> coord;
    for (int m = 0; m < t.order(); ++m)
        if (m != mode) coord.push_back(t.index(m, z));
    return coord;
}

}  // namespace tscope::detail
