// Cutting a tensor's nonzeros into balanced parts, one per GPU of a multi-GPU run: by whole
// slices of a mode (the root of a CSF tree: a part's output rows are then its own), or by
// position (COO, which has no slices to respect). Pure host code.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

// counts[i] = the nonzeros whose index in `mode` is i (dim(mode) entries).
std::vector<std::uint64_t> slice_counts(const CooTensor& t, int mode);
// The non-empty slices of `mode` only, (index, nonzeros) ascending, in memory that follows
// the smaller of the mode's length and the nonzeros (a mode of 2^40 indices is no obstacle).
std::vector<std::pair<std::uint64_t, std::uint64_t>> nonempty_slice_counts(const CooTensor& t, int mode);
// The same over the nonzeros z with labels[z] == label only (MM-CSF's partitions).
std::vector<std::uint64_t> slice_counts(const CooTensor& t, int mode, const std::uint8_t* labels, std::uint8_t label);

// parts + 1 boundaries b (b[0] = 0, b[parts] = counts.size(), non-decreasing): part p is the
// slices [b[p], b[p + 1]). Each boundary is the slice edge nearest to an even share of the
// nonzeros, so no part exceeds total / parts by more than the largest slice.
std::vector<std::uint64_t> balanced_cuts(const std::vector<std::uint64_t>& counts, int parts);

// parts + 1 even boundaries of [0, n): part sizes differ by at most one.
std::vector<std::uint64_t> even_cuts(std::uint64_t n, int parts);

// The nonzeros of each part of `cuts` (parts entries).
std::vector<std::uint64_t> part_sizes(const std::vector<std::uint64_t>& counts, const std::vector<std::uint64_t>& cuts);

}  // namespace tscope
