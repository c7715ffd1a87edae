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

bool same_fiber(const CooTensor& t, int mode, std::uint64_t a, std::uint64_t b) {
    for (int m = 0; m < t.order(); ++m)
        if (m != mode && t.index(m, a) != t.index(m, b)) return false;
    return true;
}

// The order by linear keys: one sort of (key, position) pairs.
std::vector<std::uint64_t> order_by_keys(const CooTensor& t, int mode) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> keyed(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        std::uint64_t key = 0;
        for (int m = 0; m < t.order(); ++m)
            if (m != mode) key = key * t.dim(m) + t.index(m, z);
        keyed[z] = {key, z};
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::uint64_t> order(t.nnz());
    for (std::uint64_t k = 0; k < t.nnz(); ++k) order[k] = keyed[k].second;
    return order;
}

// Where the keys would overflow: the positions sorted by comparing coordinates.
std::vector<std::uint64_t> order_by_coordinates(const CooTensor& t, int mode) {
    std::vector<std::uint64_t> order(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) order[z] = z;
    std::sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
        for (int m = 0; m < t.order(); ++m) {
            if (m == mode) continue;
            const std::uint64_t ia = t.index(m, a), ib = t.index(m, b);
            if (ia != ib) return ia < ib;
        }
        return a < b;
    });
    return order;
}

}  // namespace

FiberRuns fiber_runs(const CooTensor& t, int mode) {
    FiberRuns r;
    r.order = linearises(t, mode) ? order_by_keys(t, mode) : order_by_coordinates(t, mode);
    for (std::uint64_t k = 0; k < r.order.size(); ++k)
        if (k == 0 || !same_fiber(t, mode, r.order[k - 1], r.order[k])) r.starts.push_back(k);
    r.starts.push_back(r.order.size());
    if (r.order.empty()) r.starts.clear();
    return r;
}

std::vector<std::uint64_t> fiber_coord(const CooTensor& t, int mode, std::uint64_t z) {
    std::vector<std::uint64_t> coord;
    for (int m = 0; m < t.order(); ++m)
        if (m != mode) coord.push_back(t.index(m, z));
    return coord;
}

}  // namespace tscope::detail
