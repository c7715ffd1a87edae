// HOCSR's SpTV in one pass with its products staged: an experiment (session 49,
// TENSORSCOPE_HOCSR=staged). A block of kTupleThreads threads takes kStagedGroups of
// sptv_tuples.cuh's blocks of rows (block_base's blocks 4b .. 4b + 3), as sptv_kept_rows.cuh's
// first pass does: each thread's four groups of offsets come as four 16-byte loads in flight, one
// block scan places the four groups' outputs. The block's nonzeros are contiguous (from its first
// row's offset to its last row's end), so where they fit kStage the whole block loads them side by
// side (coalesced, several loads a thread in flight), stages their products in shared memory, and
// each thread then sums its rows there (rows over kShortRow nonzeros by their warp). A block with
// more nonzeros (long rows) sums from global memory as sptv_tuple_kernel does.
//
// Why: the one-pass kernel runs HOCSR where most rows are kept and short (the uniform shape's mode
// 3: 57-58% of the copy bound, session 49 call 1), and two passes move the kept rows' offsets
// twice more (there 0.49 ms, 62%; issue 19 asks 70%). Its thread sums a row's nonzeros one after
// another straight after the scan, so little is in flight a thread (sessions 22-38 tried the
// variations listed in sptv_tuples.cuh). Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>

#include <cub/block/block_scan.cuh>

#include "sptv_tuples.cuh"

namespace tscope::gpu {
namespace {

constexpr int kStagedGroups = 4;        // sptv_tuples.cuh's blocks a block
constexpr std::uint32_t kStage = 4096;  // products staged a block (16 KB)

// out[q...] = the sums of a thread's kTupleRows rows (offsets at[]) that hold nonzeros, product(j)
// giving nonzero j's product; rows over kShortRow nonzeros summed by the whole warp, one after
// another. Every lane of the warp calls it.
template <class P, class Product>
__device__ void sum_tuple_rows(const TupleOffsets<P, P>& off, std::uint64_t q, Product product,
                               float* __restrict__ out) {
    const int lane = static_cast<int>(threadIdx.x & 31);
#pragma unroll
    for (int k = 0; k < kTupleRows; ++k) {
        const P b = off.at[k], e = off.at[k + 1];
        const bool is_long = e - b > kShortRow;
        if (e > b && !is_long) {
            float sum = 0.0f;
            for (P j = b; j < e; ++j) sum += product(j);
            out[q] = sum;
        }
        for (unsigned pending = __ballot_sync(0xffffffffu, is_long); pending; pending &= pending - 1) {
            const int owner = __ffs(pending) - 1;
            const P lb = __shfl_sync(0xffffffffu, b, owner), le = __shfl_sync(0xffffffffu, e, owner);
            const std::uint64_t lq = __shfl_sync(0xffffffffu, q, owner);
            float sum = 0.0f;
            for (P j = lb + static_cast<P>(lane); j < le; j += 32) sum += product(j);
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, d);
            if (lane == 0) out[lq] = sum;
        }
        q += e > b;
    }
}

// The same from global memory, for a block whose nonzeros do not fit the stage: kept out of line,
// so that its registers do not count against the staged path's (80 a thread inlined, 40 not).
template <class P>
__device__ __noinline__ void sum_tuple_rows_direct(TupleOffsets<P, P> off, std::uint64_t q,
                                                   const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                                   const float* __restrict__ v, float* __restrict__ out) {
    sum_tuple_rows(
        off, q, [&](P j) { return val[j] * v[col[j]]; }, out);
}

template <class P>
__global__ void __launch_bounds__(kTupleThreads)
    sptv_tuple_staged_kernel(std::uint64_t rows, std::uint64_t blocks, const P* __restrict__ ptr,
                             const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                             const float* __restrict__ v, const std::uint64_t* __restrict__ block_base,
                             float* __restrict__ out) {
    using Scan = cub::BlockScan<std::uint64_t, kTupleThreads, kTupleScan>;
    __shared__ typename Scan::TempStorage temp;
    __shared__ float staged[kStage];
    __shared__ std::uint64_t range[2];
    static_assert(kStagedGroups == 4 && kTupleBlockRows < (1u << 16), "four counts in 16-bit fields");
    const std::uint64_t first = blockIdx.x * static_cast<std::uint64_t>(kStagedGroups);
    const TupleOffsets<P, P> off[kStagedGroups] = {
        {rows, ptr, first}, {rows, ptr, first + 1}, {rows, ptr, first + 2}, {rows, ptr, first + 3}};
    if (threadIdx.x == 0) range[0] = off[0].at[0];
    if (threadIdx.x == kTupleThreads - 1) range[1] = off[kStagedGroups - 1].at[kTupleRows];
    std::uint64_t packed = 0, before = 0;
#pragma unroll
    for (int g = 0; g < kStagedGroups; ++g) packed |= std::uint64_t{off[g].kept()} << (16 * g);
    Scan(temp).ExclusiveSum(packed, before);
    __syncthreads();  // range[]
    const P begin = static_cast<P>(range[0]);
    const std::uint64_t n = range[1] - range[0];
    const bool fits = n <= kStage;  // the same for the whole block
    if (fits) {
#pragma unroll 4
        for (std::uint32_t j = threadIdx.x; j < n; j += kTupleThreads)
            staged[j] = val[begin + j] * __ldg(v + col[begin + j]);
        __syncthreads();
    }
#pragma unroll
    for (int g = 0; g < kStagedGroups; ++g) {
        if (first + g >= blocks) break;
        const std::uint64_t q = block_base[first + g] + ((before >> (16 * g)) & 0xffffu);
        if (fits)
            sum_tuple_rows(
                off[g], q, [&](P j) { return staged[j - begin]; }, out);
        else
            sum_tuple_rows_direct(off[g], q, col, val, v, out);
    }
}

// The kernel above over `rows` index tuples (block_base: the plan's per-kTupleBlockRows bases).
template <class P>
void launch_staged_tuples(std::uint64_t rows, const P* ptr, const std::uint32_t* col, const float* val, const float* v,
                          const std::uint64_t* block_base, float* out, cudaStream_t stream) {
    const std::uint64_t blocks = (rows + kTupleBlockRows - 1) / kTupleBlockRows;
    if (!blocks) return;
    const auto grid = static_cast<unsigned>((blocks + kStagedGroups - 1) / kStagedGroups);
    sptv_tuple_staged_kernel<P><<<grid, kTupleThreads, 0, stream>>>(rows, blocks, ptr, col, val, v, block_base, out);
}

}  // namespace
}  // namespace tscope::gpu
