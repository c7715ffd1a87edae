#include "output_rows.hpp"

#include <algorithm>
#include <cstring>

namespace tscope::detail {

OutputRows::OutputRows(DenseMatrix& out, bool shared_rows) : out_(out) {
    const int threads = max_threads();
    constexpr std::uint64_t kBudget = std::uint64_t{1} << 30;  // bytes for private copies
    private_ = shared_rows && threads > 1 && out.data.size() * 8 * static_cast<std::uint64_t>(threads) <= kBudget;
    atomic_ = shared_rows && threads > 1 && !private_;
    if (!private_) return;
    // Column's block cache hands the same large blocks back call after call, so the copies
    // cost no page faults after the first call; zeroing them is a parallel pass of bandwidth.
    const std::size_t n = out.data.size();
    for (int t = 1; t < threads; ++t) copies_.emplace_back(n);  // default-initialised: not zeroed yet
    for (auto& c : copies_) {
        double* p = c.data();
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); i += 4096)
            std::memset(p + i, 0, static_cast<std::size_t>(std::min<std::int64_t>(4096, static_cast<std::int64_t>(n) - i)) * sizeof(double));
    }
}

void OutputRows::finish() {
    if (!private_) return;
    const auto n = static_cast<std::int64_t>(out_.data.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
        double s = 0;
        for (const auto& c : copies_) s += c.data()[i];
        out_.data[static_cast<std::size_t>(i)] += s;
    }
    copies_.clear();
}

}  // namespace tscope::detail
