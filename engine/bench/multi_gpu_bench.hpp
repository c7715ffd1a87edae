// `bench --gpus N`: MTTKRP over N GPU parts (mttkrp_multi_gpu.hpp), timed as run_bench times
// the single-GPU kernels. Private to engine/bench.
#pragma once

#include "tscope/bench/kernel_bench.hpp"

namespace tscope::detail {

std::vector<BenchResult> run_multi_gpu_bench(const CooTensor& t, const BenchRequest& request, const std::vector<int>& modes,
                                             const std::vector<DenseMatrix>& factors, RunControl& control);

}  // namespace tscope::detail
