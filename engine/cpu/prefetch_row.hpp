// Asking for a row of doubles ahead of its use: every 64-byte line of it, not only the first. The
// CPU kernels gather factor and output rows at random and wait on memory; a row of R doubles spans
// R/8 lines, and a prefetch of its first line leaves the others to miss (ALTO's MTTKRP at rank 32
// took 0.19-0.22 s a sweep that way, 0.13 s with every line asked for). Private to engine/cpu.
#pragma once

#include <cstdint>

namespace tscope::detail {

inline constexpr std::uint64_t kDoublesPerLine = 8;

// kWrite: 1 where the row will be written (an output row), 0 where it is only read.
template <int kWrite = 0>
inline void prefetch_row(const double* row, std::uint64_t doubles) {
    for (std::uint64_t c = 0; c < doubles; c += kDoublesPerLine) __builtin_prefetch(row + c, kWrite);
}

}  // namespace tscope::detail
