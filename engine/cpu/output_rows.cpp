#include "output_rows.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace tscope::detail {

namespace {

// Free buffers kept for the next call; bounded so that an idle engine does not hold much.
struct BufferPool {
    std::mutex mutex;
    std::vector<std::unique_ptr<Column<double>>> free;
    static constexpr std::size_t kMaxKept = 16;
};

BufferPool& pool() {
    static BufferPool p;
    return p;
}

}  // namespace

PooledBuffer::PooledBuffer(std::size_t n) {
    {
        std::lock_guard lock(pool().mutex);
        auto& free = pool().free;
        auto it = std::find_if(free.begin(), free.end(), [n](const auto& b) { return b->size() == n; });
        if (it != free.end()) {
            buf_ = std::move(*it);
            free.erase(it);
        }
    }
    if (!buf_) {
        buf_ = std::make_unique<Column<double>>(n, 0.0);
        return;
    }
    // Buffers go back dirty; zero in parallel (it is bandwidth, not page faults, now).
    const auto len = static_cast<std::int64_t>(n);
    double* p = buf_->data();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < len; i += 4096)
        std::memset(p + i, 0, static_cast<std::size_t>(std::min<std::int64_t>(4096, len - i)) * sizeof(double));
}

PooledBuffer::~PooledBuffer() {
    if (!buf_) return;
    std::lock_guard lock(pool().mutex);
    auto& free = pool().free;
    if (free.size() >= BufferPool::kMaxKept) free.erase(free.begin());
    free.push_back(std::move(buf_));
}

OutputRows::OutputRows(DenseMatrix& out, bool shared_rows) : out_(out) {
    const int threads = max_threads();
    constexpr std::uint64_t kBudget = std::uint64_t{1} << 30;  // bytes for private copies
    private_ = shared_rows && threads > 1 && out.data.size() * 8 * static_cast<std::uint64_t>(threads) <= kBudget;
    atomic_ = shared_rows && threads > 1 && !private_;
    if (private_) {
        copies_.reserve(static_cast<std::size_t>(threads));
        for (int t = 1; t < threads; ++t) copies_.emplace_back(out.data.size());
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
