// The SpTV device kernels shared by the one-shot wrappers (gpu_sptv.cu) and the streamed
// pipeline (gpu_pipeline.cu). Offsets are relative to `base` so that a chunk of a larger
// array can be copied alone and still use the whole array's offsets. Private to engine/cuda.
#pragma once

#include <cstdint>

#include "cuda_util.cuh"  // grid_for, env_unsigned

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
// it 72 registers rather than 48. Pairs (TENSORSCOPE_ELL_PAIRS=1, for comparison, session 36):
// a thread loads two of its entries at once, so that a fiber of one nonzero (most of
// delicious-4d's) learns it ends with its first load and a longer one waits half as often.
template <bool Pairs>
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
            if constexpr (Pairs) {
                for (std::uint64_t k = 0; k < short_entries && e < end; k += 2, e += 2 * rows) {
                    const std::uint64_t e1 = e + rows;
                    const std::uint32_t c0 = col[e], c1 = e1 < end ? col[e1] : kEllPad;
                    const bool has0 = c0 != kEllPad, has1 = has0 && c1 != kEllPad;  // pads only follow the last entry
                    sum += (has0 ? val[e] * v[c0] : 0.0f) + (has1 ? val[e1] * v[c1] : 0.0f);
                    if (!has1) {
                        e = end;
                        break;
                    }
                }
            } else {
                for (std::uint64_t k = 0; k < short_entries && e < end; ++k, e += rows) {
                    const std::uint32_t c = col[e];
                    if (c == kEllPad) {  // pads only follow a fiber's last entry
                        e = end;
                        break;
                    }
                    sum += val[e] * v[c];
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
template <bool Pairs>
__global__ void sptv_ell_kernel(TS_ELL_PARAMS) { sptv_ell_fibers<Pairs>(TS_ELL_ARGS); }
// The same with its registers capped for MinBlocks blocks an SM (6: 40 registers, 8: 32, with
// spills), for comparison (TENSORSCOPE_ELL_BLOCKS=6 or 8, session 36, not yet measured).
template <int MinBlocks, bool Pairs>
__global__ void __launch_bounds__(kEllThreads, MinBlocks) sptv_ell_kernel_bounded(TS_ELL_PARAMS) {
    sptv_ell_fibers<Pairs>(TS_ELL_ARGS);
}

template <bool Pairs>
void launch_sptv_ell_as(unsigned long blocks, int grid, cudaStream_t stream, TS_ELL_PARAMS) {
    if (blocks == 6)
        sptv_ell_kernel_bounded<6, Pairs><<<grid, kEllThreads, 0, stream>>>(TS_ELL_ARGS);
    else if (blocks == 8)
        sptv_ell_kernel_bounded<8, Pairs><<<grid, kEllThreads, 0, stream>>>(TS_ELL_ARGS);
    else
        sptv_ell_kernel<Pairs><<<grid, kEllThreads, 0, stream>>>(TS_ELL_ARGS);
}

// sptv_ell_kernel over `fibers` fibers on `stream` as three comparison switches pick, read at each
// launch (session 36): TENSORSCOPE_ELL_BLOCKS its register bound, TENSORSCOPE_ELL_SHORT its
// threads' share of a fiber (kEllShort entries unless set; 8 or 16 hand a fiber to its warp
// sooner), TENSORSCOPE_ELL_PAIRS=1 its threads' loads two at a time.
inline void launch_sptv_ell(std::uint64_t fibers, std::uint64_t fiber_base, std::uint64_t entry_base, std::uint32_t slice_base,
                            const std::uint64_t* first, const std::uint64_t* ap, const std::uint32_t* fiber_slice,
                            const std::uint32_t* col, const float* val, const float* v, float* out, cudaStream_t stream) {
    const int grid = grid_for(fibers, kEllThreads);
    const unsigned long blocks = env_unsigned("TENSORSCOPE_ELL_BLOCKS", 0);
    const std::uint64_t short_entries = env_unsigned("TENSORSCOPE_ELL_SHORT", kEllShort);
    if (env_is("TENSORSCOPE_ELL_PAIRS", "1"))
        launch_sptv_ell_as<true>(blocks, grid, stream, fibers, fiber_base, entry_base, slice_base, first, ap, fiber_slice, col, val, v,
                                 out, short_entries);
    else
        launch_sptv_ell_as<false>(blocks, grid, stream, fibers, fiber_base, entry_base, slice_base, first, ap, fiber_slice, col, val, v,
                                  out, short_entries);
}

#undef TS_ELL_PARAMS
#undef TS_ELL_ARGS

}  // namespace
}  // namespace tscope::gpu
