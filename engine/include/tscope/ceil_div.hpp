// ceil(a / b) for counts up to 2^64 - 1: (a + b - 1) / b wraps to 0 there (a mode of 2^64 - 1
// indices once rounded up to no tiles, and a tile map divided by that).
#pragma once

#include <cstdint>

namespace tscope {

inline constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

}  // namespace tscope
