// How many nonzeros a COO or BLCO team walks on the GPU (gpu_mttkrp.cu's team kernels). Plain
// C++17, no CUDA, so that the rule is tested on machines without a GPU
// (tests/engine/cuda/test_coo_group.cpp). Private to the engine.
#pragma once

#include <algorithm>
#include <cstdint>

namespace tscope::gpu {

// Nonzeros per COO team: on the nell-2 shape (rank 32, H100) groups of 8 / 16 / 64 / 128 took
// 14.5 / 8.2 / 4.5 / 3.6 ms for the first mode and 19.4 / 12.8 / 8.1 / 7.3 ms for the second
// (runs of one row get longer in one team's registers); a slice still spreads over many teams.
constexpr std::uint64_t kCooGroup = 128;
constexpr std::uint64_t kCooSmallGroup = 8;

// kCooGroup, or, where `nnz` nonzeros make fewer groups of kCooGroup than the device holds teams
// resident (`resident_teams`), the smallest power of two that still makes no more groups than
// that, at least kCooSmallGroup. `forced` (TENSORSCOPE_COO_GROUP; 0 where unset) overrides, up
// to kCooGroup. Session 77 call 1 (one H200, rank 32, us a mode, docs/bench/h200-session77.json;
// groups of 4, 8, 16, 32 and 128 forced): MovieLens (100K nonzeros, 3 a resident team) 17-21 at 8
// against 74-103 at 128; Last.fm (186K, 6) 36-59 at 8, 31-50 at 16, 80-121 at 128; JF17K (35K)
// 22-32 at 8, 125-144 at 128; uniform-3d and powerlaw-3d (600K, 18) 55-83 at 32, 58-90 at 16,
// 85-143 at 128; check-powerlaw-3d (800K, 24) 92-118 at 32, 95-160 at 128; at 2M (59) 32 and 128
// even (144-228), and at 5M and 20M 128 fastest or even (there small forced groups lengthen the
// row chains past the tile sort's threshold, so those arms ran the tile sort). The teams counted
// are rank 32's, 8 lanes: at rank 16 (4 lanes) twice as many fit, at rank 64 (16) half. Call 6
// (ranks 16 and 64, us a mode): by the rule up to 1.4x the best forced group's time (uniform-3d
// at rank 16 54-65 against 41-48 at 16; a 100K power-law tensor at rank 64 42-54 against 28-44
// at 16), even at 2M nonzeros.
inline std::uint64_t coo_group(std::uint64_t nnz, std::uint64_t resident_teams, unsigned long forced) {
    if (forced >= 1) return std::min<std::uint64_t>(forced, kCooGroup);
    std::uint64_t g = kCooGroup;
    while (g > kCooSmallGroup && (g / 2) * resident_teams >= nnz) g /= 2;
    return g;
}

}  // namespace tscope::gpu
