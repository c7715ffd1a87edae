#include "tscope/tensor/streamed_density.hpp"
#include "tscope/text_words.hpp"

#include <algorithm>

#include "tensor/tile_map_builder.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tsb_part.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/nnz_split.hpp"

namespace tscope {

namespace {

// The tile map counted a block of 16 first-mode slices at a time, as the parts arrive in file
// order; gives up (with the reason) on a block larger than `cap` or a file not in slice order.
class StreamedTiles {
public:
    StreamedTiles(const std::vector<std::uint64_t>& dims, int a, int b, std::uint64_t threshold, std::uint64_t max_bins, std::uint64_t cap)
        : builder_(dims, a, b, threshold, max_bins), cap_(cap) {}
    void add(const CooTensor& part) {
        for (std::uint64_t z = 0; z < part.nnz() && why_.empty(); ++z) {
            const std::uint64_t i0 = part.index(0, z), block = i0 / detail::TileMapBuilder::kEdge;
            if (block < block_) {
                why_ = "the file is not in slice order of mode 1 (the tiles cannot be counted a block of slices at a time)";
                break;
            }
            if (block > block_) flush(), block_ = block;
            keys_.push_back(builder_.key(i0, part.index(1, z), part.index(2, z)));
            if (keys_.size() > cap_)
                why_ = "16 slices of mode 1 hold more than " + grouped(cap_) +
                       " nonzeros, more than the memory bound allows";
        }
    }
    const std::string& unavailable() const { return why_; }
    TileMap finish() {
        flush();
        return builder_.finish();
    }

private:
    void flush() {
        builder_.add(keys_);
        keys_.clear();
    }
    detail::TileMapBuilder builder_;
    std::uint64_t cap_;
    std::uint64_t block_ = 0;
    std::vector<std::uint64_t> keys_;
    std::string why_;
};

}  // namespace

StreamedDensity stream_tsb_density(const std::string& path, int mode, int map_x, int map_y, std::uint64_t max_bins,
                                   std::uint64_t part_nnz, RunControl& control, std::uint64_t tile_threshold) {
    const TsbHeader header = read_tsb_header(path);
    const int order = static_cast<int>(header.dims.size());
    if (mode < 0 || mode >= order) throw InputError("mode " + std::to_string(mode + 1) + " is not a mode of " + path);
    if (part_nnz == 0) part_nnz = std::uint64_t{4} << 20;
    check_dense_fits(header.dims[static_cast<std::size_t>(mode)], 1,
                     "counting the nonzeros of each of mode " + std::to_string(mode + 1) + "'s slices");
    StreamedDensity out;
    out.slice_counts.assign(header.dims[static_cast<std::size_t>(mode)], 0);
    if (order >= 2 && (map_x < 0 || map_y < 0 || map_x >= order || map_y >= order || map_x == map_y))
        throw InputError("a density map needs two different modes of the tensor");
    std::optional<StreamedTiles> tiles;
    if (order == 3) {
        try {  // a shape HLS cannot tile leaves the slices and the map (sweep 72: it ended all of them)
            tiles.emplace(header.dims, map_x, map_y, tile_threshold, max_bins, 4 * part_nnz);
        } catch (const InputError& e) {
            out.tiles_unavailable = e.what();
        }
    } else
        out.tiles_unavailable =
            "HLS cuts order-3 tensors into 16^3 tiles, and this tensor has order " + std::to_string(order);
    control.stage("density, streamed");
    for (std::uint64_t first = 0; first < header.nnz; first += part_nnz) {
        control.check();
        TsbPart part = read_tsb_part(path, first, part_nnz, LoadOptions{ValueType::F32, true});
        drop_zeros(part.tensor);
        // into the one array: a part's own array of every slice was 16 GB for a mode of 2e9 (sweep 72)
        for (std::uint64_t z = 0; z < part.tensor.nnz(); ++z) ++out.slice_counts[part.tensor.index(mode, z)];
        if (order >= 2) {
            const DensityMap m = density_map(part.tensor, map_x, map_y, max_bins, control);
            if (out.map.values.empty()) {
                out.map = m;
            } else {
                for (std::size_t i = 0; i < m.values.size(); ++i) out.map.values[i] += m.values[i];
            }
        }
        if (tiles && tiles->unavailable().empty()) tiles->add(part.tensor);
        ++out.parts;
        control.progress(std::min(first + part_nnz, header.nnz), header.nnz);
    }
    if (order >= 2 && out.map.values.empty()) {  // no nonzeros at all: the empty map of the right shape
        CooTensor empty(header.dims, header.width, header.values);
        out.map = density_map(empty, map_x, map_y, max_bins, control);
    }
    out.map.max_value = out.map.values.empty() ? 0 : *std::max_element(out.map.values.begin(), out.map.values.end());
    if (tiles && tiles->unavailable().empty()) out.tiles = tiles->finish();
    else if (tiles) out.tiles_unavailable = tiles->unavailable();
    return out;
}

}  // namespace tscope
