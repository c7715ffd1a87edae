// The Density view's counts for a .tsb too large to load (issue 18, item 2): the nonzeros per
// slice of one mode and the two-mode binned map, summed over parts of the file read one at a
// time. Both are exact (a map's bins depend only on the dims, so the parts' maps add up);
// memory holds one part, one counter per slice and the map. HLS's tile map is not computed:
// it needs a counter for every non-empty 16^3 tile, which can grow with the nonzeros.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/density_map.hpp"

namespace tscope {

struct StreamedDensity {
    std::vector<std::uint64_t> slice_counts;  // of `mode`, one per index
    DensityMap map;                           // order >= 2
    std::uint64_t parts = 0;
};

// Entries with a zero value are left out, as the loader leaves them out. part_nnz: nonzeros
// read at a time (0: 4M).
StreamedDensity stream_tsb_density(const std::string& path, int mode, int map_x, int map_y, std::uint64_t max_bins = 256,
                                   std::uint64_t part_nnz = 0, RunControl& control = no_control());

}  // namespace tscope
