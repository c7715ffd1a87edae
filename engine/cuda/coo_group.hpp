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

// Lanes of one COO or BLCO team at rank R (gpu_mttkrp.cu's with_team_size): R/4 float4 columns,
// rounded up to a power of two, at most a warp.
inline std::uint64_t coo_team_lanes(std::uint64_t R) {
    std::uint64_t lanes = 1;
    while (lanes < 32 && lanes * 4 < R) lanes *= 2;
    return lanes;
}

// Teams of `lanes` a device of `sms` SMs holds resident: 2,048 threads an SM.
inline std::uint64_t coo_resident_teams(std::uint64_t sms, std::uint64_t lanes) { return sms * (2048 / lanes); }

// kCooGroup, or, where `nnz` nonzeros make fewer groups of kCooGroup than the device holds teams
// resident (`resident_teams`), the smallest power of two that still makes no more groups than
// that, at least kCooSmallGroup. `forced` (TENSORSCOPE_COO_GROUP; 0 where unset) overrides, up
// to kCooGroup. Session 77 call 1 (one H200, rank 32, us a mode, docs/bench/h200-session77.json;
// groups of 4, 8, 16, 32 and 128 forced): MovieLens (100K nonzeros, 3 a resident team) 17-21 at
// 8 against 74-103 at 128; Last.fm (186K, 6) 36-59 at 8, 31-50 at 16, 80-121 at 128; JF17K (35K)
// 22-32 at 8, 125-144 at 128; uniform-3d and powerlaw-3d (600K, 18) 55-83 at 32, 58-90 at 16,
// 85-143 at 128; check-powerlaw-3d (800K, 24) 92-118 at 32, 95-160 at 128; at 2M (59) 32 and 128
// even (144-228), and at 5M and 20M 128 fastest or even (there small forced groups lengthen the
// row chains past the tile sort's threshold, so those arms ran the tile sort).
// COO counts rank 32's teams (8 lanes) at every rank. Counting each rank's own (rank 16's 4
// lanes, twice as many; rank 64's 16, half) measured no better (session 78 call 1,
// docs/bench/h200-session78.json, sums of the three modes' medians, us, two rounds; the old
// count's group forced): uniform-3d at rank 16 125-130 against 164-169 and 190K at rank 64
// 221-240 against 240-264, but 2M at rank 16 482-498 against 430-442, 2M at rank 64 968-980
// against 924-927 and 600K at rank 64 316-330 against 302-309.
inline std::uint64_t coo_group(std::uint64_t nnz, std::uint64_t resident_teams, unsigned long forced) {
    if (forced >= 1) return std::min<std::uint64_t>(forced, kCooGroup);
    std::uint64_t g = kCooGroup;
    while (g > kCooSmallGroup && (g / 2) * resident_teams >= nnz) g /= 2;
    return g;
}

// BLCO's resident teams: coo_group over twice the rank's own resident teams (`resident_teams`,
// teams of `lanes`), and at most kBlcoNarrowGroup nonzeros where a team has 4 lanes or fewer
// (rank 16 and below). BLCO's walk flushes nearly every nonzero (its order scatters each output
// row), and its teams ran faster with more, shorter groups than COO's rule gives. Session 78
// call 5 (one H200, us a mode, groups forced): at rank 32 on 2M nonzeros 114-135 at 8-32 against
// 132-155 at 64 (COO's rule); at rank 16 on 20M uniform nonzeros 568-583 at 16 against 645-668 at
// 128, on 2M 79-87 at 16 against 89-100 at 64; at rank 64 on 2M 201-232 at 64 against 212-274 at
// 128. Not the best there (sums of the three modes): 20M power-law at rank 16, 1,686-1,723 at 16
// against 1,592-1,606 at 64; 5M at rank 32, 843-852 at 128 against 788-800 at 64. Against the
// groups of COO's rule over each rank's own teams (call 6, sums, two rounds): rank 8 1,431-1,457
// against 1,873-1,930 (20M power-law; 128, as rank 32's count gives too), 1,823-1,841 against
// 2,350-2,367 (20M uniform), 430-437 against 515-526 (5M); rank 16 1,712-1,736 against
// 1,827-1,843 (20M uniform), 500-504 against 534-545 (5M), but 1,738-1,742 against 1,691-1,699
// (20M power-law); 2M at ranks 32 and 64 373-380 against 412-427 and 651-668 against 742-753;
// 0.6M-0.8M even; 190K at rank 64 155-158 against 137 (8 against 16).
constexpr std::uint64_t kBlcoNarrowGroup = 16;
inline std::uint64_t blco_group(std::uint64_t nnz, std::uint64_t resident_teams, std::uint64_t lanes,
                                unsigned long forced) {
    if (forced >= 1) return coo_group(nnz, resident_teams, forced);
    const std::uint64_t g = coo_group(nnz, 2 * resident_teams, 0);
    return lanes <= 4 ? std::min(g, kBlcoNarrowGroup) : g;
}

}  // namespace tscope::gpu
