// `bench --stream`: MTTKRP on a format kept in host memory and streamed through the GPU in
// chunks over several CUDA streams for every run (the out-of-memory path of BLCO, Nguyen et al.,
// ICS 2022, Sec. 5, and of the streamed CPD: decomp/cpd_streamed.hpp, the same pipeline). Each
// row's roofline is the host-to-device copy: the bytes streamed at the rate measured over the
// same chunks in the same run. Private to engine/bench.
#pragma once

#include "tscope/bench/kernel_bench.hpp"

namespace tscope::detail {

std::vector<BenchResult> run_streamed_bench(const CooTensor& t, const BenchRequest& request, const std::vector<int>& modes,
                                            const std::vector<DenseMatrix>& factors, RunControl& control);

}  // namespace tscope::detail
