// Statistics of a .tsb too large to load, read in parts (issue 18, item 2): memory holds one
// part of the nonzeros plus one counter per index of every mode, whatever the nonzero count.
// The slice figures per mode are exact; the fiber figures need the nonzeros grouped by all but
// one index, which a bounded pass cannot do exactly, so they are left out and said to be.
// Every stored entry with a non-zero value counts once: a .tsb that Tensorscope wrote holds
// no duplicates (a foreign one with duplicates would count them twice). Indices and values are
// checked as the loader checks them, and the payload checksum at the end.
#pragma once

#include <cstdint>
#include <string>

#include "tscope/run_control.hpp"
#include "tscope/tensor/tensor_stats.hpp"

namespace tscope {

struct StreamedStats {
    TensorStats stats;           // modes[m].fibers and fiber_nnz are zero: a FiberSketch counts them
    std::uint64_t nnz = 0;       // entries with a non-zero value
    std::uint64_t bytes_read = 0;
    std::uint64_t parts = 0;
    // In coordinate order (mode 1 first), as every .tsb written here is. Then duplicate
    // coordinates are neighbours, and a file holding any is an InputError (loading would sum
    // them into fewer nonzeros than the figures count); out of order, they are not ruled out.
    bool in_order = true;
};

// part_nnz: nonzeros read at a time (0: 8M, about 130 MB for an order-3 fp64 file).
StreamedStats stream_tsb_stats(const std::string& path, std::uint64_t part_nnz = 0, RunControl& control = no_control());

}  // namespace tscope
