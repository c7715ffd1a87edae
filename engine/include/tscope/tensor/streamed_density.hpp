// The Density view's counts for a .tsb too large to load (issue 18, item 2): the nonzeros per
// slice of one mode and the two-mode binned map, summed over parts of the file read one at a
// time. Both are exact (a map's bins depend only on the dims, so the parts' maps add up);
// memory holds one part, one counter per slice and the map. HLS's tile map (order 3) is exact
// too where the file is in slice order of its first mode, as .tsb files written by this engine
// are: every 16^3 tile lies whole within one block of 16 of those slices, so the tiles are
// counted a block at a time and memory holds one block's nonzeros. A file in another order, or
// a block larger than the bound, leaves the tile map out and says why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/density_map.hpp"

namespace tscope {

struct StreamedDensity {
    std::vector<std::uint64_t> slice_counts;  // of `mode`, one per index
    DensityMap map;                           // order >= 2
    std::uint64_t parts = 0;
    std::optional<TileMap> tiles;             // order 3, over map_x and map_y, where it could be counted
    std::string tiles_unavailable;            // else why not
};

// Entries with a zero value are left out, as the loader leaves them out. part_nnz: nonzeros
// read at a time (0: 4M); a block of 16 slices may hold up to 4 part_nnz for the tile map.
// tile_threshold: HLS's dense-tile threshold, as for hls_tile_map.
StreamedDensity stream_tsb_density(const std::string& path, int mode, int map_x, int map_y, std::uint64_t max_bins = 256,
                                   std::uint64_t part_nnz = 0, RunControl& control = no_control(), std::uint64_t tile_threshold = 78);

}  // namespace tscope
