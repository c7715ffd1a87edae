// The sum over fibers of length^2 (the second frequency moment F2 of the fibers' keys) in bounded
// memory, for the spread of fibers that cross every part of a stream: Alon, Matias and Szegedy's
// estimator (STOC 1996) in CountSketch form (Charikar, Chen, Farach-Colton, ICALP 2002). Each
// nonzero adds +1 or -1 (by its key's hash) to one of kWidth counters in each of kRows rows; a
// row's sum of squared counters estimates F2 without bias, relative standard deviation about
// sqrt(2 / kWidth) (2.2%); the estimate is the median of the rows. A uniform sample of fibers
// cannot do this on a heavy tail: its few long fibers, which dominate the spread, are rarely in
// it. Private to engine/tensor.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace tscope::detail {

class SecondMoment {
public:
    static constexpr int kRows = 4;           // 13 bits of the hash a row: 52 of 64
    static constexpr unsigned kWidthBits = 12;
    static constexpr std::size_t kWidth = std::size_t{1} << kWidthBits;

    // One nonzero of the fiber whose key hashes to `hash` (well mixed).
    void add(std::uint64_t hash) {
        for (int r = 0; r < kRows; ++r) {
            const std::uint64_t bits = hash >> (r * (kWidthBits + 1));
            counters_[static_cast<std::size_t>(r)][bits & (kWidth - 1)] += (bits >> kWidthBits) & 1 ? 1 : -1;
        }
    }
    void merge(const SecondMoment& other) {
        for (std::size_t r = 0; r < counters_.size(); ++r)
            for (std::size_t c = 0; c < kWidth; ++c) counters_[r][c] += other.counters_[r][c];
    }
    double estimate() const {
        std::array<double, kRows> rows{};
        for (std::size_t r = 0; r < counters_.size(); ++r)
            for (std::int64_t c : counters_[r]) rows[r] += static_cast<double>(c) * static_cast<double>(c);
        std::sort(rows.begin(), rows.end());
        return (rows[kRows / 2 - 1] + rows[kRows / 2]) / 2;
    }

private:
    std::array<std::array<std::int64_t, kWidth>, kRows> counters_{};
};

}  // namespace tscope::detail
