// The lengths of fibers that cross every part of a stream (mode 1's fibers in a .tsb stored in
// slice order of mode 1), estimated in bounded memory by adaptive distinct sampling (Gibbons,
// "Distinct sampling for highly-accurate answers to distinct values queries", VLDB 2001): a
// fiber is followed when its key's hash starts with `level` zero bits, and then every one of its
// nonzeros is counted, so each followed fiber's length is exact and it stands for 2^level fibers.
// When more than `capacity` fibers are followed the level goes up by one and about half of them
// are dropped. Private to engine/tensor.
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/tensor/tensor_stats.hpp"

namespace tscope::detail {

class FiberSample {
public:
    // capacity: the most fibers followed; the table holds twice as many slots, never more.
    explicit FiberSample(std::size_t capacity = std::size_t{1} << 14)
        : capacity_(capacity), keys_(slots_for(capacity), 0), lengths_(keys_.size(), 0) {}
    // One nonzero of the fiber whose key hashes to `hash` (a well-mixed 64-bit hash).
    void add(std::uint64_t hash) {
        if (!follows(hash, level_)) return;
        add_length(hash, 1);
        if (followed_ > capacity_) raise();
    }
    // Another sample of the same stream's other nonzeros (each thread's share): a fiber's
    // nonzeros may be in both, and are added up.
    void merge(const FiberSample& other);
    int level() const { return level_; }
    std::uint64_t followed() const { return followed_; }
    // The followed fibers' lengths, as a distribution of all fibers: counts (count and the
    // histogram) times 2^level, mean and spread as sampled, min and max of the sample.
    CountDistribution estimate() const;
    // sum over all fibers of f(length), estimated from the sample.
    template <class F> double estimate_sum(F f) const {
        double s = 0;
        for (std::size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i]) s += f(lengths_[i]);
        return s * static_cast<double>(std::uint64_t{1} << level_);
    }

private:
    static bool follows(std::uint64_t hash, int level) { return level == 0 || (hash >> (64 - level)) == 0; }
    static std::size_t slots_for(std::size_t capacity);
    // open addressing with linear probing; a slot's key is the hash, 0 meaning empty (a hash of 0
    // is kept as 1: one fiber in 2^63 may share a slot with another)
    void add_length(std::uint64_t hash, std::uint64_t length) {
        const std::uint64_t key = hash ? hash : 1;
        const std::size_t mask = keys_.size() - 1;
        for (std::size_t i = static_cast<std::size_t>(key) & mask;; i = (i + 1) & mask) {
            if (keys_[i] == key) {
                lengths_[i] += length;
                return;
            }
            if (keys_[i] == 0) {
                keys_[i] = key, lengths_[i] = length, ++followed_;
                return;
            }
        }
    }
    void raise();
    void refilter();  // drops the fibers the current level no longer follows
    std::size_t capacity_;
    int level_ = 0;
    std::uint64_t followed_ = 0;
    std::vector<std::uint64_t> keys_, lengths_;
};

}  // namespace tscope::detail
