#include "distinct_keys.hpp"

#include <algorithm>
#include <bit>

#include "radix_sort.hpp"
#include "random.hpp"
#include "tscope/error.hpp"

namespace tscope::detail {

namespace {

std::uint64_t hash_of(std::uint64_t key) {
    std::uint64_t s = key + 1;
    return splitmix64(s);
}

}  // namespace

DistinctKeys::DistinctKeys(std::uint64_t expected) {
    // about 64K keys a shard, at most 4096 shards; each table at most half full
    while (shard_bits_ < 12 && (expected >> (shard_bits_ + 16)) > 0) ++shard_bits_;
    const std::uint64_t per_shard = (expected >> shard_bits_) + 1;
    shards_.resize(std::size_t{1} << shard_bits_);
    for (auto& s : shards_) s.slots.assign(std::bit_ceil(per_shard * 2 + 64), 0);
}

bool DistinctKeys::insert(Shard& s, std::uint64_t hash, std::uint64_t key) {
    const std::uint64_t mask = s.slots.size() - 1, stored = key + 1;
    for (std::uint64_t h = hash & mask;; h = (h + 1) & mask) {
        if (s.slots[h] == stored) return false;
        if (s.slots[h] == 0) {
            // a full table would probe forever: the sizing makes this impossible for the keys
            // the generator draws (at most 1.125x expected), but a hang is never the answer
            if (s.used + 1 >= s.slots.size()) {
                overflowed_ = true;
                return false;
            }
            ++s.used;
            s.slots[h] = stored;
            return true;
        }
    }
}

void DistinctKeys::mark_new(const std::uint64_t* keys, std::uint64_t n, std::uint8_t* keep) {
    fill_marks(keys, n, keep);
    if (overflowed_) throw Error("generate: the duplicate filter ran out of room");
}

void DistinctKeys::fill_marks(const std::uint64_t* keys, std::uint64_t n, std::uint8_t* keep) {
    const std::size_t shards = shards_.size();
    if (shards == 1) {
        for (std::uint64_t i = 0; i < n; ++i) keep[i] = insert(shards_[0], hash_of(keys[i]), keys[i]);
        return;
    }
    // the batch's positions bucketed by shard, stably (each thread takes one contiguous range,
    // in order), so that each shard sees its keys in batch order
    const int threads = threads_for(n);
    const int shift = 64 - shard_bits_;
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(threads) * shards, 0);
    std::vector<std::uint64_t> bucketed(n);
    std::vector<std::uint64_t> shard_start(shards + 1, 0);
#pragma omp parallel num_threads(threads)
    {
        const int t = thread_index();
        const auto [lo, hi] = thread_chunk(n, threads);
        std::uint64_t* mine = counts.data() + static_cast<std::size_t>(t) * shards;
        for (std::uint64_t i = lo; i < hi; ++i) ++mine[hash_of(keys[i]) >> shift];
#pragma omp barrier
#pragma omp single
        {
            std::uint64_t at = 0;  // shard-major, thread-minor: the stable order
            for (std::size_t s = 0; s < shards; ++s) {
                shard_start[s] = at;
                for (int u = 0; u < threads; ++u) {
                    std::uint64_t& c = counts[static_cast<std::size_t>(u) * shards + s];
                    const std::uint64_t k = c;
                    c = at;
                    at += k;
                }
            }
            shard_start[shards] = at;
        }
        for (std::uint64_t i = lo; i < hi; ++i) bucketed[mine[hash_of(keys[i]) >> shift]++] = i;
#pragma omp barrier
#pragma omp for schedule(dynamic, 16)
        for (std::int64_t s = 0; s < static_cast<std::int64_t>(shards); ++s)
            for (std::uint64_t b = shard_start[static_cast<std::size_t>(s)]; b < shard_start[static_cast<std::size_t>(s) + 1]; ++b) {
                const std::uint64_t i = bucketed[b];
                keep[i] = insert(shards_[static_cast<std::size_t>(s)], hash_of(keys[i]), keys[i]);
            }
    }
}

}  // namespace tscope::detail
