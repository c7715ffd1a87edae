// Where MTTKRP runs over shared-memory tiles (mttkrp_shared_tiles.cu, where the measurements
// behind the rule are) and how many nonzeros a block takes. Plain C++17, no CUDA, so that the
// rule is tested on machines without a GPU (tests/engine/cuda/test_shared_tiles_rule.cpp).
// Private to the engine.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tscope::gpu {

constexpr std::uint32_t kTileJ = 512, kTileK = 1024;  // rows of the fiber level's and the leaves' factors a tile holds
// A block's shared memory at rank R: its tile's rows of R floats, 192 KiB at rank 32 (the most
// a GPU must give a block for the tiles to be built) and 96 KiB at rank 16.
constexpr std::uint64_t tile_bytes(std::uint64_t R) { return std::uint64_t{kTileJ + kTileK} * R * 4; }
constexpr std::uint64_t kTileBytes = tile_bytes(32);
constexpr std::uint64_t kTileChunk = 65536;           // nonzeros a block on large trees
constexpr std::uint64_t kTileSmallChunk = 4096;       // ... and the fewest, on small ones
// The fewest nonzeros a tile on average, and a tree, for tiles. On one H200 (session 82,
// docs/bench/h200-session82.json, h200-session80b.sh: uniform 8,000 x 6,000 x 4,000 tensors of
// 1M-16M nonzeros, B-CSF, rank 32, the tiles forced against the fiber kernels, two rounds) the
// tiles won at every size and mode: 1M 0.040-0.044 ms a mode against 0.052-0.059 (10.4K-20.8K
// nonzeros a tile), 4M 0.108-0.117 against 0.147-0.158, 16M 0.298-0.308 against 0.495-0.505.
// Session 79's 0.6M tensor (50K a tile, with each lane loading every nonzero) ran slower over
// them, so the floor sits at the smallest size measured faster, and the density at 10K, under
// the sparsest measured faster (16K and 4M before, set between sessions 79's points, untuned).
constexpr std::uint64_t kTileDenseEnough = 10240;
constexpr std::uint64_t kTileFewest = 1'000'000;
constexpr std::uint64_t kTileMostChunk = std::uint64_t{1} << 24;  // a forced chunk's most (32-bit offsets)

enum class TilesSwitch { Rule, On, Off };  // TENSORSCOPE_FIBER_TILES unset, =1, =0

inline std::uint64_t tile_count(std::uint64_t dim_j, std::uint64_t dim_k) {
    return (dim_j + kTileJ - 1) / kTileJ * ((dim_k + kTileK - 1) / kTileK);
}

// Fibers under 2 nonzeros on average (the fiber kernels then keep almost nothing in registers),
// tiles of kTileDenseEnough nonzeros or more on average (a tile's copy is worth it), and a
// tree of kTileFewest nonzeros or more.
inline bool fibers_short(std::uint64_t fibers, std::uint64_t nnz) { return 2 * fibers > nnz; }
inline bool tiles_wanted(std::uint64_t fibers, std::uint64_t nnz, std::uint64_t tiles, TilesSwitch s) {
    if (s != TilesSwitch::Rule) return s == TilesSwitch::On;
    return tiles > 0 && nnz >= kTileFewest && fibers_short(fibers, nnz) && nnz / tiles >= kTileDenseEnough;
}

// The ranks the tiles run: 32 and 16 (half the shared memory, two blocks an SM). Rank 16 by the
// rule since session 81: on one H200 (docs/bench/h200-session81.json call 1) five CPD iterations
// at rank 16 on the uniform shape (76.9M nonzeros, CSF built on the device) took 4.98 ms of
// MTTKRP a steady iteration over tiles against 7.67 over the fiber kernels (the fits agreeing to
// 4e-15); session 80 had wired it forced only, unmeasured.
inline bool tiles_rank(std::uint64_t R) { return R == 32 || R == 16; }

// A tree of several (MM-CSF's partitions, each for the mode at its root, the others running the
// fiber kernels after it): by the rule unless partitions is false (TENSORSCOPE_MMCSF_TILES=0), or
// forced; a single tree by the rule. By the rule since session 81: on one H200 (docs/bench/
// h200-session81.json call 2, rank 32) the uniform shape's MM-CSF took 1.658 ms on mode 2 with
// 82% of its nonzeros over tiles against 2.314 without, modes 1 and 3 (no partition's root over
// tiles) 2.647 and 2.828 against 2.647 and 2.818; session 80 had made it opt-in, unmeasured.
inline bool tiles_for_trees(std::size_t trees, TilesSwitch s, bool partitions) {
    return trees <= 1 || s == TilesSwitch::On || (s == TilesSwitch::Rule && partitions);
}

// kTileChunk nonzeros a block, fewer where that leaves under 8 blocks an SM (down to
// kTileSmallChunk); forced (TENSORSCOPE_FIBER_TILE_CHUNK, 0 when unset) sets it, 1,024 to 2^24.
inline std::uint64_t tile_chunk(std::uint64_t nnz, int sms, std::uint64_t forced) {
    if (forced) return std::clamp<std::uint64_t>(forced, 1024, kTileMostChunk);
    const std::uint64_t fill = nnz / (8 * static_cast<std::uint64_t>(std::max(1, sms)));
    return std::clamp(fill, kTileSmallChunk, kTileChunk);
}

// One block's work: nonzeros [begin, end) of the tile-sorted arrays, all in tile `tile`.
struct TileItem {
    std::uint32_t tile, begin, end;
};

// The blocks for tiles of per_tile[t] nonzeros each (stored one tile after another), each tile
// cut into chunks of `step` nonzeros (its last one shorter); empty tiles get none. The offsets
// fit 32 bits: the tiles are built for under 2^31 nonzeros.
inline std::vector<TileItem> tile_items(const std::vector<std::uint32_t>& per_tile, std::uint64_t step) {
    std::vector<TileItem> items;
    std::uint64_t start = 0;
    for (std::size_t tile = 0; tile < per_tile.size(); ++tile) {
        const std::uint64_t end = start + per_tile[tile];
        for (std::uint64_t b = start; b < end; b += step)
            items.push_back({static_cast<std::uint32_t>(tile), static_cast<std::uint32_t>(b),
                             static_cast<std::uint32_t>(std::min(end, b + step))});
        start = end;
    }
    return items;
}

}  // namespace tscope::gpu
