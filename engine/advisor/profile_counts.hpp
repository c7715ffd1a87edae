// What the advisor's profile of a loaded tensor (tensor_profile.cpp) and of a streamed file
// (streamed_profile.cpp) count alike. Private to engine/advisor.
#pragma once

#include <cstdint>

namespace tscope::detail {

// HiCOO's block key, one mode's block coordinate b (width bits) at a time: packed where every
// mode's widths fit 64 bits together, else hashed (boost's hash_combine).
inline std::uint64_t hicoo_key_step(std::uint64_t key, std::uint64_t b, unsigned width, bool packed) {
    if (packed) return width ? (key << width) | b : key;
    return key ^ (b + 0x9e3779b97f4a7c15ULL + (key << 6) + (key >> 2));
}

}  // namespace tscope::detail
