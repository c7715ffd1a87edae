// How the nonzeros spread, for the Density views: nonzeros per slice, a two-mode binned map,
// and the HLS tile map (hls-tcu-sptmcm Sec. V: 16^3 tiles, dense above a threshold).
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"
#include "tscope/tensor/nnz_split.hpp"  // slice_counts

namespace tscope {


// A map over two modes, binned so that it has at most max_bins per side: bin (x, y) covers
// cells_x x cells_y index pairs (one pixel holds that many cells).
struct DensityMap {
    int mode_x = 0, mode_y = 1;
    std::uint64_t bins_x = 0, bins_y = 0;
    std::uint64_t cells_x = 1, cells_y = 1;  // indices per bin along each mode
    std::vector<double> values;             // bins_x * bins_y, x-major: values[x * bins_y + y]
    double max_value = 0;
};

// Nonzeros per bin (summed over every other mode).
DensityMap density_map(const CooTensor& t, int mode_x, int mode_y, std::uint64_t max_bins = 256,
                       RunControl& control = no_control());

// HLS's 16^3 tiles (order 3): per (tile_x, tile_y) the fullest tile along the third mode, as a
// fill ratio (nonzeros / 4096); binned like density_map when there are more tiles than bins.
// dense_tiles counts the tiles at or above `threshold` nonzeros (HLS's dense tiles).
struct TileMap {
    DensityMap map;
    std::uint64_t tiles = 0;        // non-empty 16^3 tiles
    std::uint64_t dense_tiles = 0;  // with >= threshold nonzeros
    std::uint64_t dense_nnz = 0;    // nonzeros in them
    std::uint64_t dense_minority = 0;  // over them, the rarer of a tile's nonzero and zero cells
    std::uint64_t threshold = 0;
    // by_fill[n]: the non-empty tiles holding n nonzeros (n <= 4096), so that another threshold's
    // dense tiles need no second pass over the nonzeros (TTMc builds HLS at its own, Sec. V-C)
    std::vector<std::uint64_t> by_fill;
};

// The dense tiles a TileMap would count at `threshold` instead of its own.
struct DenseTiles {
    std::uint64_t tiles = 0, nnz = 0, minority = 0;
};
DenseTiles dense_tiles_at(const TileMap& map, std::uint64_t threshold);
TileMap hls_tile_map(const CooTensor& t, int mode_x, int mode_y, std::uint64_t threshold = 78, std::uint64_t max_bins = 256,
                     RunControl& control = no_control());

}  // namespace tscope
