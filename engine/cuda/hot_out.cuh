// Where a COO or BLCO team adds a run of a hot row (hot_rows_rule.hpp): the resident tensor's
// index arrays serve every mode, so hot rows are looked up per flush (hot_slot) instead of
// renumbered as MM-CSF's levels are (hot_rows.cuh's HotRemap). Private to engine/cuda.
#pragma once

#include <vector_types.h>
#include <cstdint>

#include "hot_rows_rule.hpp"

namespace tscope::gpu {

// Device pointers; words null: no hot rows (every flush adds into the output itself).
struct HotOut {
    const uint2* words = nullptr;  // hot_rows_rule.hpp's HotBitmap: a word's bits (x), its count before (y)
    const HotRow* rows = nullptr;
    float4* copies = nullptr;  // the hot rows' copies, R4 float4s each, summed after (hot_sum_kernel)
};

// Where a tree's launch adds a level's hot rows (hot_rows.cuh's HotRemap: the level's array
// renumbered, a hot row's positions to copy ids from out_rows on, each copy R floats at
// copies + (id - out_rows) * R), or none (every id an output row).
struct HotTarget {
    std::uint64_t out_rows = ~std::uint64_t{0};
    float* copies = nullptr;
};

// A run's place among its row's copies, found when the run starts (the bitmap's word and count
// before in one 8-byte load, then, for a hot row, its HotRow), so that the flush at the run's end
// loads nothing: a flush is otherwise a reduction nothing waits for, and a lookup at the flush
// made delicious-4d's COO modes 2-3 21-29% slower on one H100 (h100-session87-hot-rows.json;
// BLCO's 18-19%); with the word and count loaded at the start and the HotRow at the flush they
// were 12-13% slower than without hot rows (h100-session89-hot-lookup.json). copies 0: cold.
struct HotLook {
    std::uint32_t base = 0, copies = 0;
};

__device__ inline HotLook hot_look(const HotOut& h, std::uint64_t row) {
    const uint2 w = h.words[row / 32];
    const std::uint32_t s = hot_slot_in(w.x, w.y, row);
    if (s == kColdRow) return {};
    return HotLook{h.rows[s].base, h.rows[s].copies};
}

// The copy that a team's group `unit` adds its run into (its groups go round the row's copies,
// so each takes about chain / copies of its adds), or null where the run's row is cold. The
// remainder is taken in 32 bits (a 64-bit one is a long routine on the device): past 2^32 groups
// the round only restarts early, which moves no add out of its row.
__device__ inline float4* hot_target(const HotOut& h, const HotLook& look, std::uint64_t unit, std::uint32_t R4) {
    if (look.copies == 0) return nullptr;
    return h.copies + (std::uint64_t{look.base} + static_cast<std::uint32_t>(unit) % look.copies) * R4;
}

}  // namespace tscope::gpu
