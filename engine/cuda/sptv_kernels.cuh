// The SpTV device kernels shared by the one-shot wrappers (gpu_sptv.cu) and the streamed
// pipeline (gpu_pipeline.cu). Offsets are relative to `base` so that a chunk of a larger
// array can be copied alone and still use the whole array's offsets. Private to engine/cuda.
#pragma once

#include <cstdint>

#include "cuda_util.cuh"  // grid_for

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

constexpr std::uint32_t kEllPad = 0xffffffffu;  // HocfsFormat::kEllPad: the column of a padding entry
constexpr std::uint64_t kEllShort = 32;         // a fiber's entries its own thread sums
constexpr int kEllUnroll = 8;                   // a lane's entries in flight on a long fiber
constexpr int kEllThreads = 256;

// One thread per fiber (Fig. 10). Column-major ELL: neighbouring threads (fibers of one
// slice) read neighbouring entries, so each column step is one coalesced load for the warp.
// first/ap are offsets of the whole tensor; fiber_base, entry_base and slice_base rebase them.
// A thread's entries depend on each other's loads (the column, then the vector's entry), so a
// fiber far longer than the others held its thread, and the kernel, alone. Past kEllShort
// entries the warp sums its long fibers together, one after another, each lane kEllUnroll
// entries at a time. One H200 (h200-issue19-session36.json call 3, alternating with Fig. 10's
// thread walk in one binary): the delicious-4d shape's modes 1 and 3 (the others pad over 16x)
// 3.45 and 3.85 ms against 20.9 and 26.9; the uniform shape 1.31-1.38 ms either way. Nsight
// Compute on delicious-4d's mode 1 (call 4): 3.48 ms, DRAM 35% busy, 48 registers, 53% of the
// warps resident (62.5% possible) and 0.21 eligible a scheduler: bound by the loads' latency.
// short_entries (kEllShort) is passed at launch: as a constant in the kernel the compiler gave
// it 72 registers rather than 48. A thread loads kEllLoads of its entries at once, so that a fiber of one
// nonzero (most of delicious-4d's) learns it ends with its first load and a longer one waits
// once for several entries. One H200 (h200-issue19-session37.json calls 1 and 4, alternating
// twice each): one at a time, two, four: the delicious-4d shape's mode 1 3.52, 3.17-3.18 and
// 2.97 ms; the uniform shape's modes 1-3 1.35-1.44, 1.08-1.11 and 0.84-0.88 ms (68-69%, 83-91%
// and 104-117% of the bound, which counts the padding that the loads stop at). Measured slower
// and removed in call 1: the warp taking fibers past 8 entries (3.84 ms), registers capped for 6
// or 8 blocks an SM (40 or 32 registers, spilling: 4.41 and 4.46 ms; the uniform shape 2.02-2.08
// with 8). Eight at a time, slower (session 38, h200-issue19-session38.json call 2, alternating
// twice with four): delicious-4d's mode 1 3.05 ms against 2.96; the uniform shape's modes 1-3
// 0.97-1.04 ms against 0.84-0.88.
constexpr int kEllLoads = 4;

__device__ __forceinline__ void sptv_ell_fibers(std::uint64_t fibers, std::uint64_t fiber_base, std::uint64_t entry_base,
                                                std::uint32_t slice_base, const std::uint64_t* __restrict__ first,
                                                const std::uint64_t* __restrict__ ap, const std::uint32_t* __restrict__ fiber_slice,
                                                const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                                const float* __restrict__ v, float* __restrict__ out, std::uint64_t short_entries) {
    const unsigned lane = threadIdx.x & 31u;
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    // warp by warp, so that every lane reaches the shuffles below
    for (std::uint64_t warp = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + (threadIdx.x - lane); warp < fibers;
         warp += stride) {
        const std::uint64_t q = warp + lane;
        std::uint64_t e = 0, end = 0, rows = 0;  // the fiber's next entry, its block's end, the entries' stride
        float sum = 0.0f;
        if (q < fibers) {
            const std::uint32_t s = fiber_slice[q] - slice_base;
            rows = first[s + 1] - first[s];
            end = ap[s + 1] - entry_base;
            e = ap[s] - entry_base + (q + fiber_base - first[s]);
            for (std::uint64_t k = 0; k < short_entries && e < end; k += kEllLoads, e += kEllLoads * rows) {
                std::uint32_t c[kEllLoads];
#pragma unroll
                for (int u = 0; u < kEllLoads; ++u) c[u] = e + u * rows < end ? col[e + u * rows] : kEllPad;
#pragma unroll
                for (int u = 0; u < kEllLoads; ++u)  // pads only follow a fiber's last entry
                    if (c[u] != kEllPad) sum += val[e + u * rows] * v[c[u]];
                if (c[kEllLoads - 1] == kEllPad) {
                    e = end;
                    break;
                }
            }
        }
        for (unsigned pending = __ballot_sync(0xffffffffu, e < end); pending; pending &= pending - 1) {
            const int owner = __ffs(pending) - 1;
            const std::uint64_t from = __shfl_sync(0xffffffffu, e, owner), to = __shfl_sync(0xffffffffu, end, owner);
            const std::uint64_t step = __shfl_sync(0xffffffffu, rows, owner);
            float part = 0.0f;
            bool done = false;
            for (std::uint64_t j = from + lane * step; !done && j < to; j += kEllUnroll * 32 * step) {
                std::uint32_t c[kEllUnroll];
#pragma unroll
                for (int u = 0; u < kEllUnroll; ++u) {
                    const std::uint64_t x = j + u * 32 * step;
                    c[u] = x < to ? col[x] : kEllPad;
                }
#pragma unroll
                for (int u = 0; u < kEllUnroll; ++u) {
                    done = done || c[u] == kEllPad;
                    if (!done) part += val[j + u * 32 * step] * v[c[u]];
                }
            }
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) part += __shfl_xor_sync(0xffffffffu, part, d);
            if (static_cast<int>(lane) == owner) sum += part;
        }
        if (q < fibers) out[q] = sum;
    }
}

// The kernel's parameters, and sptv_ell_fibers' arguments, for its entries and their launch below.
#define TS_ELL_PARAMS                                                                                                   \
    std::uint64_t fibers, std::uint64_t fiber_base, std::uint64_t entry_base, std::uint32_t slice_base,                 \
        const std::uint64_t* __restrict__ first, const std::uint64_t* __restrict__ ap,                                  \
        const std::uint32_t* __restrict__ fiber_slice, const std::uint32_t* __restrict__ col,                           \
        const float* __restrict__ val, const float* __restrict__ v, float* __restrict__ out, std::uint64_t short_entries
#define TS_ELL_ARGS fibers, fiber_base, entry_base, slice_base, first, ap, fiber_slice, col, val, v, out, short_entries
__global__ void sptv_ell_kernel(TS_ELL_PARAMS) { sptv_ell_fibers(TS_ELL_ARGS); }

// sptv_ell_kernel over `fibers` fibers on `stream`.
inline void launch_sptv_ell(std::uint64_t fibers, std::uint64_t fiber_base, std::uint64_t entry_base, std::uint32_t slice_base,
                            const std::uint64_t* first, const std::uint64_t* ap, const std::uint32_t* fiber_slice,
                            const std::uint32_t* col, const float* val, const float* v, float* out, cudaStream_t stream) {
    const int grid = grid_for(fibers, kEllThreads);
    const std::uint64_t short_entries = kEllShort;
    sptv_ell_kernel<<<grid, kEllThreads, 0, stream>>>(TS_ELL_ARGS);
}

#undef TS_ELL_PARAMS
#undef TS_ELL_ARGS

}  // namespace
}  // namespace tscope::gpu
