// The grid of ranks of a distributed (MPI) CPD: a medium-grained decomposition (Smith & Karypis,
// IPDPS 2016) puts P ranks on a grid p1 x ... x pN and cuts each mode's index range into p_n
// contiguous layers balanced by nonzeros; a rank owns the nonzeros of one block. Pure host code,
// no MPI: the CLI and its tests share it whether or not the build has MPI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

// "AxBxC" for a tensor of `order` modes over `ranks` ranks: one positive factor per mode whose
// product is `ranks`. A wrong count, a zero, a non-number or a wrong product is an InputError
// that names the grid and what was expected.
std::vector<int> parse_grid(const std::string& text, int order, int ranks);

// A grid for `ranks` ranks when none is given: the prime factors of `ranks`, largest first, each
// multiplies the mode with the most indices per layer, so long modes are cut and the rows a layer
// shares stay few (communication), while every block keeps a share of the nonzeros.
std::vector<int> choose_grid(const std::vector<std::uint64_t>& dims, int ranks);

// "2x2x1"
std::string grid_name(const std::vector<int>& grid);

// Each mode's layer boundaries (grid[m] + 1 per mode), balanced by the nonzeros per slice.
std::vector<std::vector<std::uint64_t>> layer_cuts(const CooTensor& t, const std::vector<int>& grid);

// The layer of index i among `cuts` (cuts.front() <= i < cuts.back()).
int layer_of(const std::vector<std::uint64_t>& cuts, std::uint64_t i);

// The rank of the block at grid coordinates `coords` (mode 1 slowest), and back.
int block_rank(const std::vector<int>& grid, const std::vector<int>& coords);
std::vector<int> block_coords(const std::vector<int>& grid, int rank);

}  // namespace tscope
