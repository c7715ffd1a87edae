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

// A row's word of the bitmap and its count before, loaded when the row's run starts (one 8-byte
// load), so that the flush at its end does not wait on them: a flush is otherwise a reduction
// nothing waits for, and a lookup at the flush made delicious-4d's COO modes 2-3 21-29% slower
// on one H100 (h100-session87-hot-rows.json; BLCO's 18-19%).
struct HotLook {
    std::uint32_t word = 0, before = 0;
};

__device__ inline HotLook hot_look(const HotOut& h, std::uint64_t row) {
    const uint2 w = h.words[row / 32];
    return HotLook{w.x, w.y};
}

// The copy that a team's group `unit` adds hot row `row` into (its groups go round the row's
// copies, so each takes about chain / copies of its adds), or null where the row is cold. The
// remainder is taken in 32 bits (a 64-bit one is a long routine on the device): past 2^32 groups
// the round only restarts early, which moves no add out of its row.
__device__ inline float4* hot_target(const HotOut& h, const HotLook& look, std::uint64_t row, std::uint64_t unit,
                                     std::uint32_t R4) {
    const std::uint32_t s = hot_slot_in(look.word, look.before, row);
    if (s == kColdRow) return nullptr;
    const HotRow r = h.rows[s];
    return h.copies + (std::uint64_t{r.base} + static_cast<std::uint32_t>(unit) % r.copies) * R4;
}

}  // namespace tscope::gpu
