// The end of an MTTKRP benchmark row that ran outside the registry's kernels (over GPU parts,
// streamed): the error against cpu-ref where asked, the output kept for --write; and the words
// for a row's path over shared-memory tiles, and the join of a path's parts. Private to engine/bench.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tscope/bench/kernel_bench.hpp"
#include "tscope/kernels/mttkrp.hpp"

namespace tscope::detail {

// A row's path over shared-memory tiles holding `tiled` of the `nnz` nonzeros: "shared tiles",
// or where they held only some (MM-CSF's partitions rooted at the mode, some GPUs' parts), how
// many: "shared tiles on 96% of the nonzeros".
inline std::string shared_tiles_path(std::uint64_t tiled, std::uint64_t nnz) {
    if (tiled >= nnz) return "shared tiles";
    const auto percent = static_cast<int>(100.0 * static_cast<double>(tiled) / static_cast<double>(nnz));
    return "shared tiles on " + std::to_string(std::max(percent, 1)) + "% of the nonzeros";
}

// Adds `more` to a row's path, a comma between ("shared tiles, levels 1,3,2,4").
inline void add_path(std::string& path, const std::string& more) { path = path.empty() ? more : path + ", " + more; }

inline void finish_mttkrp_row(BenchResult& row, const CooTensor& t, const BenchRequest& request, int mode,
                              const std::vector<DenseMatrix>& factors, DenseMatrix&& out) {
    if (request.check) {
        DenseMatrix ref(t.dim(mode), request.rank);
        mttkrp_reference(t, mode, factors, ref);
        row.max_rel_error = max_relative_error(out, ref);
    }
    if (request.keep_outputs) row.output = std::move(out);
    row.ran = true;
}

}  // namespace tscope::detail
