// The SpTV device kernels shared by the one-shot wrappers (gpu_sptv.cu) and the streamed
// pipeline (gpu_pipeline.cu). Offsets are relative to `base` so that a chunk of a larger
// array can be copied alone and still use the whole array's offsets. Private to engine/cuda.
#pragma once

#include <cstdint>

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

// One thread per row (hocfs Alg. 4 / Fig. 9): the row's nonzeros times v, summed in a
// register. Row q holds col/val [ptr[q] - base, ptr[q+1] - base).
__global__ void sptv_rows_kernel(std::uint64_t rows, std::uint64_t base, const std::uint64_t* __restrict__ ptr,
                                        const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                        const float* __restrict__ v, float* __restrict__ out) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t q = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; q < rows; q += stride) {
        float sum = 0.0f;
        const std::uint64_t end = ptr[q + 1] - base;
        for (std::uint64_t e = ptr[q] - base; e < end; ++e) sum += val[e] * v[col[e]];
        out[q] = sum;
    }
}

// One thread per fiber (Fig. 10). Column-major ELL: neighbouring threads (fibers of one
// slice) read neighbouring entries, so each column step is one coalesced load for the warp.
// first/ap are offsets of the whole tensor; fiber_base, entry_base and slice_base rebase them.
__global__ void sptv_ell_kernel(std::uint64_t fibers, std::uint64_t fiber_base, std::uint64_t entry_base,
                                       std::uint32_t slice_base, const std::uint64_t* __restrict__ first,
                                       const std::uint64_t* __restrict__ ap, const std::uint32_t* __restrict__ fiber_slice,
                                       const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                       const float* __restrict__ v, float* __restrict__ out) {
    constexpr std::uint32_t kPad = 0xffffffffu;
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t q = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; q < fibers; q += stride) {
        const std::uint32_t s = fiber_slice[q] - slice_base;
        const std::uint64_t rows = first[s + 1] - first[s];
        const std::uint64_t end = ap[s + 1] - entry_base;
        float sum = 0.0f;
        for (std::uint64_t e = ap[s] - entry_base + (q + fiber_base - first[s]); e < end; e += rows) {
            const std::uint32_t c = col[e];
            if (c == kPad) break;  // pads only follow a row's last entry
            sum += val[e] * v[c];
        }
        out[q] = sum;
    }
}

}  // namespace
}  // namespace tscope::gpu
