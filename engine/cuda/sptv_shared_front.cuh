// SpTV's shared front: for a vector too large for two blocks' shared memory but that one block
// holds (kRunVectorBytes < 4 vlen <= a block's), the adaptive rows (sptv_adaptive_rows.cuh) stage
// only its most-read entries, as many as leave three blocks of 512 an SM (about 15K entries on
// Hopper), and read the rest through L1, rather than stage all of it in one block of 1,024 an
// SM. The product's columns are renumbered once, in place, when the plan is made
// (sptv_front_labels.hpp); each block stages its front from the vector as given through the
// front's ids, so a product adds no pass. TENSORSCOPE_SPTV_FRONT=1 or =0 forces either way (for
// comparisons and tests); by default where the front holds at least kFrontCoverage of the
// nonzeros' columns. Private to engine/cuda (nvcc, C++17).
//
// Why: on the nell-2 shape's mode 3 (a 115 KB vector) the CSR products reach 74-79% of the copy
// bound against 82-91% on modes 1-2, whose vectors three blocks of 512 an SM stage, and HOCSR
// 68%, the only HOCSR mode under issue 19's 70% there; session 47 measured one block of 1,024
// an SM against three of 512 on modes 1-2 at 0.314-0.335 ms against 0.263-0.271. The generator's
// power-law columns (as real ones) put about 94% of mode 3's nonzeros in its 15K most-read columns.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "sptv_adaptive_rows.cuh"
#include "sptv_front_labels.hpp"
#include "sptv_hot_columns.cuh"

namespace tscope::gpu {
namespace {

constexpr double kFrontCoverage = 0.85;

__global__ void front_relabel_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ label,
                                     std::uint32_t* __restrict__ col) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t e = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; e < nnz; e += stride)
        col[e] = label[col[e]];
}

class SharedFront {
public:
    // Whether a product of these sizes could stage a front: it runs the adaptive rows, its vector
    // staged whole in one block of 1,024 an SM, and TENSORSCOPE_SPTV_FRONT is not 0.
    static bool applies(std::uint64_t rows, std::uint64_t nnz, std::uint64_t vlen) {
        if (env_is("TENSORSCOPE_SPTV_FRONT", "0") || AdaptiveRows::small(vlen)) return false;
        return AdaptiveRows::fits(rows, nnz, vlen) && AdaptiveRows::front_capacity() > 0 &&
               !env_is("TENSORSCOPE_SPTV_ROWS", "cusparse") && !env_is("TENSORSCOPE_SPTV_ROWS", "shared");
    }

    // Counts col's columns; where the front is wanted, renumbers col in place (sptv_front_labels.hpp)
    // and keeps the front's original ids.
    SharedFront(std::uint64_t nnz, std::uint32_t* col, std::uint32_t vlen) {
        DeviceArray<std::uint32_t> count(vlen);
        count.zero();
        hot_count_kernel<<<grid_for(nnz), 256>>>(nnz, col, count.get());
        check(cudaGetLastError(), "counting the vector's reads");
        std::vector<std::uint32_t> counts(vlen);
        count.download(counts.data());
        const FrontLabels f = front_labels(counts, AdaptiveRows::front_capacity());
        coverage_ = f.coverage;
        const bool wanted = env_is("TENSORSCOPE_SPTV_FRONT", "1") || coverage_ >= kFrontCoverage;
        if (!wanted || f.ids.empty()) return;
        const DeviceArray<std::uint32_t> label(f.label.data(), f.label.size());
        front_relabel_kernel<<<grid_for(nnz), 256>>>(nnz, label.get(), col);
        check(cudaGetLastError(), "renumbering the vector's columns");
        ids_ = DeviceArray<std::uint32_t>(f.ids.data(), f.ids.size());
    }

    // The front the adaptive rows stage (none where it was not wanted).
    AdaptiveFront front() const { return {ids_.get(), static_cast<std::uint32_t>(ids_.size())}; }
    double coverage() const { return coverage_; }

private:
    DeviceArray<std::uint32_t> ids_;
    double coverage_ = 0;
};

}  // namespace
}  // namespace tscope::gpu
