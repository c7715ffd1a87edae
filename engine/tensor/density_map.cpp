#include "tscope/tensor/density_map.hpp"

#include <algorithm>

#include "tscope/error.hpp"

namespace tscope {

namespace {

void check_modes(const CooTensor& t, int a, int b) {
    if (a < 0 || b < 0 || a >= t.order() || b >= t.order() || a == b)
        throw InputError("a density map needs two different modes of the tensor");
}

std::uint64_t per_bin(std::uint64_t length, std::uint64_t max_bins) { return (length + max_bins - 1) / max_bins; }

}  // namespace

DensityMap density_map(const CooTensor& t, int a, int b, std::uint64_t max_bins, RunControl& control) {
    check_modes(t, a, b);
    DensityMap m;
    m.mode_x = a, m.mode_y = b;
    m.cells_x = per_bin(t.dim(a), max_bins), m.cells_y = per_bin(t.dim(b), max_bins);
    m.bins_x = (t.dim(a) + m.cells_x - 1) / m.cells_x, m.bins_y = (t.dim(b) + m.cells_y - 1) / m.cells_y;
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
    const int c = 3 - a - b;
    constexpr std::uint64_t kEdge = 16;
    const std::uint64_t tx = (t.dim(a) + kEdge - 1) / kEdge, ty = (t.dim(b) + kEdge - 1) / kEdge, tz = (t.dim(c) + kEdge - 1) / kEdge;
    // the tile of every nonzero, sorted, then counted in runs: one allocation, not a node per
    // tile (millions of small frees stall whichever thread's allocator has to consolidate them)
    std::vector<std::uint64_t> keys(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        if ((z & 0xfffff) == 0) control.check();
        keys[z] = ((t.index(a, z) / kEdge) * ty + t.index(b, z) / kEdge) * tz + t.index(c, z) / kEdge;
    }
    std::sort(keys.begin(), keys.end());
    std::vector<std::pair<std::uint64_t, std::uint64_t>> tiles;  // (tile, nonzeros)
    for (std::uint64_t z = 0; z < keys.size();) {
        std::uint64_t e = z;
        while (e < keys.size() && keys[e] == keys[z]) ++e;
        tiles.emplace_back(keys[z], e - z);
        z = e;
    }
    TileMap out;
    out.threshold = threshold;
    out.tiles = tiles.size();
    DensityMap& m = out.map;
    m.mode_x = a, m.mode_y = b;
    m.cells_x = per_bin(tx, max_bins) * kEdge, m.cells_y = per_bin(ty, max_bins) * kEdge;
    const std::uint64_t tiles_per_x = m.cells_x / kEdge, tiles_per_y = m.cells_y / kEdge;
    m.bins_x = (tx + tiles_per_x - 1) / tiles_per_x, m.bins_y = (ty + tiles_per_y - 1) / tiles_per_y;
    m.values.assign(m.bins_x * m.bins_y, 0.0);
    for (const auto& [key, n] : tiles) {
        if (n >= threshold) ++out.dense_tiles, out.dense_nnz += n;
        const std::uint64_t x = key / tz / ty, y = (key / tz) % ty;
        double& v = m.values[(x / tiles_per_x) * m.bins_y + y / tiles_per_y];
        v = std::max(v, static_cast<double>(n) / static_cast<double>(kEdge * kEdge * kEdge));
    }
    m.max_value = m.values.empty() ? 0 : *std::max_element(m.values.begin(), m.values.end());
    return out;
}

}  // namespace tscope
