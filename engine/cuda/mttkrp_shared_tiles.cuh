// MTTKRP on an order-3 tree's nonzeros regrouped into tiles whose two gathered factors' rows fit
// in one block's shared memory, where shared_tiles_rule.hpp's rule says they pay
// (TENSORSCOPE_FIBER_TILES=1 or =0 forces either way): the fiber kernels
// gather every leaf and fiber row from L2, which caps the uniform shape at L2's gather rate
// (17 GB of rows a mode at 10.5 TB/s: 1.62 ms, where B-CSF's fiber kernels ran 2.29-2.46); here each block copies
// a tile's rows into shared memory once and reads them there.
// Private to engine/cuda: gpu_mttkrp.cu calls it.
#pragma once

#include <cstdint>
#include <memory>

#include "cuda_util.cuh"

namespace tscope::gpu {

struct SharedTiles {
    int mode = -1;                       // the output mode: the tree's root
    int mode_j = -1, mode_k = -1;        // the fiber level's mode and the leaves'
    std::uint64_t dim_j = 0, dim_k = 0;  // rows of their factors (largest index + 1)
    std::uint32_t k_tiles = 0;           // tiles along mode_k
    DeviceArray<std::uint32_t> row, jk;  // per nonzero: output row, (j, k) within the tile
    DeviceArray<float> vals;
    DeviceArray<uint4> items;  // blocks: (tile, first nonzero, end, 0)
    std::uint64_t row_runs = 0;  // the output-row adds a launch makes: runs of one row in a team's nonzeros
    // the kernel's lanes load apart (the default since session 81; TENSORSCOPE_FIBER_TILE_LOADS=each:
    // each lane loads every nonzero, as before)
    bool spread_loads = true;
};

// The tiles of a tree of 2 levels above its nonzeros (order 3), its arrays on the device (anc:
// the levels' index arrays); null where they do not apply: another order, 2^31 nonzeros or more,
// the rule, a GPU whose blocks cannot have 192 KiB of shared memory, too little free memory,
// `rank` (where the caller knows the one its MTTKRPs run at; 0 where it does not) one the tiles
// do not run (tiles_rank), or a tree of several (`trees`, MM-CSF's partitions) the switches keep
// off (tiles_for_trees).
std::unique_ptr<SharedTiles> build_shared_tiles(int levels, const int* level_mode, std::uint64_t fibers,
                                                std::uint64_t nnz, const std::uint32_t* const* anc,
                                                const std::uint64_t* fiber_ptr, const std::uint32_t* leaf,
                                                const float* vals, std::uint64_t rank, std::size_t trees);

// Whether the tiles run MTTKRP for this mode and rank (shared_tiles_rule.hpp's tiles_rank).
bool shared_tiles_apply(const SharedTiles& t, int mode, std::uint64_t R);

// out (fp32, zeroed by the caller) += the tiles' MTTKRP for t.mode at rank R, where
// shared_tiles_apply says they run it.
void launch_shared_tiles(const SharedTiles& t, std::uint64_t R, const float* const* factors, float* out);

}  // namespace tscope::gpu
