#include "tscope/tensor/streamed_density.hpp"

#include <algorithm>

#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tsb_part.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/nnz_split.hpp"

namespace tscope {

StreamedDensity stream_tsb_density(const std::string& path, int mode, int map_x, int map_y, std::uint64_t max_bins,
                                   std::uint64_t part_nnz, RunControl& control) {
    const TsbHeader header = read_tsb_header(path);
    const int order = static_cast<int>(header.dims.size());
    if (mode < 0 || mode >= order) throw InputError("mode " + std::to_string(mode + 1) + " is not a mode of " + path);
    if (part_nnz == 0) part_nnz = std::uint64_t{4} << 20;
    check_dense_fits(header.dims[static_cast<std::size_t>(mode)], 1,
                     "counting the nonzeros of each of mode " + std::to_string(mode + 1) + "'s slices");
    StreamedDensity out;
    out.slice_counts.assign(header.dims[static_cast<std::size_t>(mode)], 0);
    control.stage("density, streamed");
    for (std::uint64_t first = 0; first < header.nnz; first += part_nnz) {
        control.check();
        TsbPart part = read_tsb_part(path, first, part_nnz, LoadOptions{ValueType::F32, true});
        drop_zeros(part.tensor);
        const std::vector<std::uint64_t> counts = slice_counts(part.tensor, mode);
        for (std::size_t i = 0; i < counts.size(); ++i) out.slice_counts[i] += counts[i];
        if (order >= 2) {
            const DensityMap m = density_map(part.tensor, map_x, map_y, max_bins, control);
            if (out.map.values.empty()) {
                out.map = m;
            } else {
                for (std::size_t i = 0; i < m.values.size(); ++i) out.map.values[i] += m.values[i];
            }
        }
        ++out.parts;
        control.progress(std::min(first + part_nnz, header.nnz), header.nnz);
    }
    if (order >= 2 && out.map.values.empty()) {  // no nonzeros at all: the empty map of the right shape
        CooTensor empty(header.dims, header.width, header.values);
        out.map = density_map(empty, map_x, map_y, max_bins, control);
    }
    out.map.max_value = out.map.values.empty() ? 0 : *std::max_element(out.map.values.begin(), out.map.values.end());
    return out;
}

}  // namespace tscope
