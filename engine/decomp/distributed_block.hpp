// A rank's block of a medium-grained distribution (Smith & Karypis, IPDPS 2016, Sec. IV): each
// rank reads an even share of the .tsb file's nonzeros, the slice counts are summed over all
// ranks to cut every mode into its grid's layers, and each nonzero travels to the rank of its
// block in one all-to-all. Private to engine/decomp; MPI builds only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decomp/mpi_comm.hpp"
#include "tscope/io/tensor_io.hpp"

namespace tscope::detail {

struct DistributedBlock {
    CooTensor tensor;        // this rank's nonzeros, global indices; duplicates summed, zeros dropped
    std::vector<int> grid, coords;
    std::vector<std::vector<std::uint64_t>> cuts;  // per mode, grid[m] + 1 layer boundaries
    std::uint64_t nnz = 0, duplicates_summed = 0, zeros_dropped = 0;  // over all ranks
    double read_s = 0, distribute_s = 0;
};

// `grid_text`: "AxBxC" or empty (choose_grid). Every error is agreed on (MpiComm::agreed).
DistributedBlock distribute_tsb(const MpiComm& world, const std::string& path, const std::string& grid_text,
                                const LoadOptions& load);

}  // namespace tscope::detail
