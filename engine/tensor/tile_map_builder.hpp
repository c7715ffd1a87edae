// HLS's tile map (hls-tcu-sptmcm Sec. V: 16^3 tiles) filled from the tiles' nonzero counts, a
// batch of tile keys at a time: shared by the in-memory map (one batch: every nonzero) and the
// streamed one (a batch per block of 16 slices of the file's first mode, where every tile lies
// whole). Private to engine/tensor.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tscope/ceil_div.hpp"
#include "tscope/error.hpp"
#include "tscope/tensor/density_map.hpp"

namespace tscope::detail {

class TileMapBuilder {
public:
    static constexpr std::uint64_t kEdge = 16, kCells = kEdge * kEdge * kEdge;

    // dims of an order-3 tensor; mode_x, mode_y: the map's modes (the third is the depth). An
    // InputError where the tiles number more than 2^64 (no key would tell them apart).
    TileMapBuilder(const std::vector<std::uint64_t>& dims, int mode_x, int mode_y, std::uint64_t threshold, std::uint64_t max_bins)
        : a_(mode_x), b_(mode_y), c_(3 - mode_x - mode_y) {
        tx_ = ceil_div(dims[static_cast<std::size_t>(a_)], kEdge);
        ty_ = ceil_div(dims[static_cast<std::size_t>(b_)], kEdge);
        tz_ = ceil_div(dims[static_cast<std::size_t>(c_)], kEdge);
        std::uint64_t all = 0;
        if (__builtin_mul_overflow(tx_, ty_, &all) || __builtin_mul_overflow(all, tz_, &all))
            throw InputError("the HLS tile map: this shape has more than 2^64 tiles of 16^3");
        out_.threshold = threshold;
        out_.by_fill.assign(kCells + 1, 0);
        DensityMap& m = out_.map;
        m.mode_x = a_, m.mode_y = b_;
        m.cells_x = ceil_div(tx_, max_bins) * kEdge, m.cells_y = ceil_div(ty_, max_bins) * kEdge;
        per_x_ = m.cells_x / kEdge, per_y_ = m.cells_y / kEdge;
        m.bins_x = ceil_div(tx_, per_x_), m.bins_y = ceil_div(ty_, per_y_);
        m.values.assign(m.bins_x * m.bins_y, 0.0);
    }
    // The tile of the nonzero at (i[0], i[1], i[2]).
    std::uint64_t key(std::uint64_t i0, std::uint64_t i1, std::uint64_t i2) const {
        const std::uint64_t i[3] = {i0, i1, i2};
        return ((i[a_] / kEdge) * ty_ + i[b_] / kEdge) * tz_ + i[c_] / kEdge;
    }
    // Adds whole tiles: every nonzero of each tile in `keys` is there (keys is sorted in place).
    void add(std::vector<std::uint64_t>& keys) {
        std::sort(keys.begin(), keys.end());
        for (std::size_t z = 0; z < keys.size();) {
            std::size_t e = z;
            while (e < keys.size() && keys[e] == keys[z]) ++e;
            add_tile(keys[z], e - z);
            z = e;
        }
    }
    TileMap finish() {
        const DenseTiles dense = dense_tiles_at(out_, out_.threshold);  // from the fill histogram
        out_.dense_tiles = dense.tiles, out_.dense_nnz = dense.nnz, out_.dense_minority = dense.minority;
        DensityMap& m = out_.map;
        m.max_value = m.values.empty() ? 0 : *std::max_element(m.values.begin(), m.values.end());
        return out_;
    }

private:
    void add_tile(std::uint64_t key, std::uint64_t n) {
        ++out_.tiles, ++out_.by_fill[std::min(n, kCells)];
        const std::uint64_t x = key / tz_ / ty_, y = (key / tz_) % ty_;
        double& v = out_.map.values[(x / per_x_) * out_.map.bins_y + y / per_y_];
        v = std::max(v, static_cast<double>(n) / static_cast<double>(kCells));
    }
    int a_, b_, c_;
    std::uint64_t tx_ = 0, ty_ = 0, tz_ = 0, per_x_ = 1, per_y_ = 1;
    TileMap out_;
};

}  // namespace tscope::detail
