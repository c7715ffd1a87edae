// The end of an MTTKRP benchmark row that ran outside the registry's kernels (over GPU parts,
// streamed): the error against cpu-ref where asked, the output kept for --write. Private to
// engine/bench.
#pragma once

#include <utility>
#include <vector>

#include "tscope/bench/kernel_bench.hpp"
#include "tscope/kernels/mttkrp.hpp"

namespace tscope::detail {

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
