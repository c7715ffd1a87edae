// The cuda side of SpttmPlan: the GPU keeps the tensor (fp32) from prepare on; each compute
// uploads U, runs the kernel and converts the result into the plan's sCOO values. Private.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "tscope/kernels/spttm.hpp"

namespace tscope::detail {

using SpttmCompute = std::function<void(const DenseMatrix&, DeviceTiming*)>;

// SpTTM: fiber starts (fibers + 1), the mode-n index and value per nonzero; writes fibers x R
// values to out (which must outlive the returned function).
SpttmCompute spttm_cuda(const std::vector<std::uint64_t>& fptr, const std::vector<std::uint32_t>& idx,
                        const std::vector<float>& vals, std::uint64_t u_rows, std::uint64_t rank, double* out,
                        SpttmVariant variant);
// SspTTM: output chunk i sums input chunks order[cptr[i] .. cptr[i+1]) (sy values each).
// values() gives the input's current values; each compute uploads them again, because in a
// TTM chain the input is the previous product, recomputed with new factors.
SpttmCompute sspttm_cuda(const std::vector<std::uint64_t>& cptr, const std::vector<std::uint64_t>& order,
                         const std::vector<std::uint32_t>& idx, std::function<std::vector<float>()> values, std::uint64_t sy,
                         std::uint64_t u_rows, std::uint64_t rank, double* out);

}  // namespace tscope::detail
