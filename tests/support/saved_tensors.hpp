// Generated tensors saved as .tsb files for the streamed-pass tests (statistics, fiber sketch,
// format profile): in the slice order the engine writes, or backwards to break it.
#pragma once

#include <string>
#include <vector>

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
inline void save_backwards(const tscope::CooTensor& t, const std::string& path) {
    tscope::CooTensor reversed = t;
    std::vector<std::uint64_t> back(t.nnz());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) back[z] = t.nnz() - 1 - z;
    tscope::apply_permutation(reversed, back);
    tscope::save_tensor(reversed, path);
}

}  // namespace tstest
