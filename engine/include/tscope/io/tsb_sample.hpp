// A sample of a .tsb too large to load that does fit (issue 18, item 2: "offer what fits"): the
// first slices of one mode, as many as hold at most a given number of nonzeros, read in parts.
// Every other format, kernel and decomposition can then run on the sample.
#pragma once

#include <cstdint>
#include <string>

#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

struct TsbSample {
    CooTensor tensor;              // mode `mode` cut to `slices` indices, the other dims whole
    int mode = 0;
    std::uint64_t slices = 0;      // slices 0 .. slices-1 of `mode`
    std::uint64_t file_nnz = 0;    // nonzeros of the whole file
};

// Two passes over the file in parts: the nonzeros per slice of `mode`, then the entries of the
// longest prefix of slices holding at most max_nnz (zeros left out, as the loader does). A
// first slice alone over max_nnz is an InputError saying so. part_nnz: nonzeros read at a time
// (0: 4M).
TsbSample read_tsb_slice_sample(const std::string& path, int mode, std::uint64_t max_nnz, std::uint64_t part_nnz = 0,
                                RunControl& control = no_control());

}  // namespace tscope
