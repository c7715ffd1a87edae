// The generator's duplicate filter: which keys of a batch are new, on every thread.
// Private to the engine.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace tscope::detail {

// A set of 64-bit keys split into shards by the keys' hash: each shard is an open-addressing
// table that one thread fills at a time, so a batch is filtered on all threads and still keeps
// exactly the first occurrence of each key in batch order (what one serial pass would keep).
class DistinctKeys {
public:
    explicit DistinctKeys(std::uint64_t expected);
    // keep[i] = 1 where keys[i] is in neither the set nor keys[0..i); those keys join the set.
    void mark_new(const std::uint64_t* keys, std::uint64_t n, std::uint8_t* keep);

private:
    struct Shard {
        std::vector<std::uint64_t> slots;  // key + 1; 0 marks an empty slot
        std::uint64_t used = 0;
    };
    bool insert(Shard& s, std::uint64_t hash, std::uint64_t key);
    void fill_marks(const std::uint64_t* keys, std::uint64_t n, std::uint8_t* keep);  // no throw inside OpenMP
    int shard_bits_ = 0;
    std::atomic<bool> overflowed_{false};  // set by any thread that finds its shard full
    std::vector<Shard> shards_;
};

}  // namespace tscope::detail
