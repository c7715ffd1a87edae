#include "tensor/fiber_sample.hpp"

#include <algorithm>
#include <bit>

namespace tscope::detail {

std::size_t FiberSample::slots_for(std::size_t capacity) { return std::bit_ceil(2 * capacity + 2); }

void FiberSample::refilter() {
    std::vector<std::uint64_t> keys(keys_.size(), 0), lengths(keys_.size(), 0);
    keys.swap(keys_), lengths.swap(lengths_);
    followed_ = 0;
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i] && follows(keys[i], level_)) add_length(keys[i], lengths[i]);
}

void FiberSample::raise() {
    while (followed_ > capacity_ && level_ < 63) {
        ++level_;
        refilter();
    }
}

void FiberSample::merge(const FiberSample& other) {
    if (other.level_ > level_) {
        level_ = other.level_;
        refilter();
    }
    for (std::size_t i = 0; i < other.keys_.size(); ++i) {
        if (!other.keys_[i] || !follows(other.keys_[i], level_)) continue;
        add_length(other.keys_[i], other.lengths_[i]);
        if (followed_ > capacity_) raise();
    }
}

CountDistribution FiberSample::estimate() const {
    CountDistribution sampled;
    for (std::size_t i = 0; i < keys_.size(); ++i)
        if (keys_[i]) sampled.add(lengths_[i]);
    sampled.finish();
    const std::uint64_t scale = std::uint64_t{1} << level_;
    sampled.count *= scale;
    for (auto& h : sampled.log2_histogram) h *= scale;
    return sampled;
}

}  // namespace tscope::detail
