#include "tscope/tensor/density_map.hpp"

#include <algorithm>

#include "tensor/tile_map_builder.hpp"
#include "tscope/ceil_div.hpp"
#include "tscope/error.hpp"

namespace tscope {

namespace {

void check_modes(const CooTensor& t, int a, int b) {
    if (a < 0 || b < 0 || a >= t.order() || b >= t.order() || a == b)
        throw InputError("a density map needs two different modes of the tensor");
}

}  // namespace

DensityMap density_map(const CooTensor& t, int a, int b, std::uint64_t max_bins, RunControl& control) {
    check_modes(t, a, b);
    DensityMap m;
    m.mode_x = a, m.mode_y = b;
    m.cells_x = ceil_div(t.dim(a), max_bins), m.cells_y = ceil_div(t.dim(b), max_bins);
    m.bins_x = ceil_div(t.dim(a), m.cells_x), m.bins_y = ceil_div(t.dim(b), m.cells_y);
    m.values.assign(m.bins_x * m.bins_y, 0.0);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        if ((z & 0xfffff) == 0) control.check();
        m.values[(t.index(a, z) / m.cells_x) * m.bins_y + t.index(b, z) / m.cells_y] += 1;
    }
    m.max_value = m.values.empty() ? 0 : *std::max_element(m.values.begin(), m.values.end());
    return m;
}

TileMap hls_tile_map(const CooTensor& t, int a, int b, std::uint64_t threshold, std::uint64_t max_bins, RunControl& control) {
    check_modes(t, a, b);
    if (t.order() != 3) throw InputError("HLS tiles are defined for order-3 tensors");
    detail::TileMapBuilder tiles(t.dims(), a, b, threshold, max_bins);
    // the tile of every nonzero, sorted, then counted in runs: one allocation, not a node per
    // tile (millions of small frees stall whichever thread's allocator has to consolidate them)
    std::vector<std::uint64_t> keys(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        if ((z & 0xfffff) == 0) control.check();
        keys[z] = tiles.key(t.index(0, z), t.index(1, z), t.index(2, z));
    }
    tiles.add(keys);
    return tiles.finish();
}

DenseTiles dense_tiles_at(const TileMap& map, std::uint64_t threshold) {
    DenseTiles d;
    const std::uint64_t cells = detail::TileMapBuilder::kCells;
    for (std::uint64_t n = std::max<std::uint64_t>(threshold, 1); n < map.by_fill.size(); ++n) {
        const std::uint64_t k = map.by_fill[n];
        d.tiles += k, d.nnz += k * n, d.minority += k * std::min(n, cells - n);
    }
    return d;
}

}  // namespace tscope
