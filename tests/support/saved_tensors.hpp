// Generated tensors saved as .tsb files for the streamed-pass tests (statistics, fiber sketch,
// format profile): in the slice order the engine writes, or backwards (written byte by byte) to
// break it.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include "foreign_tsb.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/generator.hpp"

namespace tstest {

// A power-law tensor of `dims` (exponent `alpha`) with nnz nonzeros, saved as the .tsb `path`.
inline tscope::CooTensor saved_power_law(std::vector<std::uint64_t> dims, std::uint64_t nnz, const char* alpha, const std::string& path) {
    tscope::GeneratorSpec spec;
    spec.dims = std::move(dims);
    spec.nnz = nnz;
    tscope::parse_distribution(std::string("powerlaw:") + alpha, spec);
    tscope::CooTensor t = tscope::generate_tensor(spec);
    tscope::save_tensor(t, path);
    return t;
}

// t with its nonzeros in the reverse of their order, as a .tsb: not in slice order of any mode.
// Written byte by byte, as a foreign writer would: every .tsb Tensorscope writes is sorted.
inline void save_backwards(const tscope::CooTensor& t, const std::string& path) {
    std::vector<std::vector<std::uint64_t>> idx(static_cast<std::size_t>(t.order()),
                                                std::vector<std::uint64_t>(t.nnz()));
    std::vector<double> vals(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        const std::uint64_t from = t.nnz() - 1 - z;
        for (int m = 0; m < t.order(); ++m) idx[static_cast<std::size_t>(m)][z] = t.index(m, from);
        vals[z] = t.value(from);
    }
    const std::uint32_t ibytes = t.index_width() == tscope::IndexWidth::U32 ? 4 : 8;
    std::ofstream(path, std::ios::binary) << tsb_bytes(ibytes, t.nnz(), t.dims(), idx, vals);
}

}  // namespace tstest
