// HOCSR's SpTV in two passes that move about the bound's bytes (session 50; TENSORSCOPE_HOCSR=bits,
// an experiment): the first pass reads HOCSR's offsets, one per index tuple, and marks where each
// non-empty row starts among the nonzeros, a bit a nonzero; the second walks the nonzeros in
// chunks of 256, a warp a chunk, and sums the rows the bits cut them into (a segmented reduction
// across the warp). Private to engine/cuda (nvcc, C++17).
//
// Why: the two passes of sptv_kept_rows.cuh write each non-empty row's offset and read it back,
// 4 bytes (2 with the low 16 bits) twice more a kept row than the bound counts; on the uniform
// shape's mode 3 (55M kept rows) that is 220-440 MB beside a 1.28 GB bound, and they run there at
// 62-65% of it. The bits move an eighth of a byte a nonzero twice (19 MB there).
//
// The outputs' places: a chunk's first row is the count of row starts before the chunk, counted
// once when the plan is made (as block_base is for sptv_tuples.cuh's blocks). A row that crosses
// a chunk's edge is added to by atomics from each chunk it touches; those rows (at most one a
// chunk), listed with the plan, are cleared before each product.
#pragma once

#include <cstdint>
#include <vector>

#include <cub/device/device_scan.cuh>

#include "cuda_util.cuh"
#include "sptv_tuples.cuh"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

constexpr std::uint32_t kBitsChunk = 256;  // nonzeros a warp sums at a time: 8 a lane
constexpr int kBitsWide = 4;               // tuple blocks a first-pass block reads (as sptv_kept_rows.cuh's)

// bits[b / 32] |= 1 << (b % 32) for every non-empty row's first offset b, over blocks 4b .. 4b + 3
// of sptv_tuples.cuh's blocks. A lane's row starts in one word are ORed together by the lanes
// sharing that word (__match_any_sync) and added by one atomic; a lane's starts past its first
// word (rare) by an atomic each.
__global__ void __launch_bounds__(kTupleThreads) sptv_start_bits_kernel(std::uint64_t rows, std::uint64_t blocks,
                                                                        const std::uint32_t* __restrict__ ptr,
                                                                        std::uint32_t* __restrict__ bits) {
    const std::uint64_t first = blockIdx.x * static_cast<std::uint64_t>(kBitsWide);
    const TupleOffsets<std::uint32_t> off[kBitsWide] = {
        {rows, ptr, first}, {rows, ptr, first + 1}, {rows, ptr, first + 2}, {rows, ptr, first + 3}};
#pragma unroll
    for (int g = 0; g < kBitsWide; ++g) {
        if (first + g >= blocks) break;  // the same for the whole block
        std::uint64_t word = ~std::uint64_t{0};
        std::uint32_t mask = 0;
#pragma unroll
        for (int k = 0; k < kTupleRows; ++k) {
            const std::uint64_t b = off[g].at[k];
            if (off[g].at[k + 1] <= b) continue;
            const std::uint32_t bit = 1u << (b & 31);
            if (word == ~std::uint64_t{0}) word = b >> 5;
            if (b >> 5 == word)
                mask |= bit;
            else
                atomicOr(bits + (b >> 5), bit);
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        const unsigned lane = threadIdx.x & 31, same = __match_any_sync(0xffffffffu, word);
        const std::uint32_t all = __reduce_or_sync(same, mask);
        if (word != ~std::uint64_t{0} && lane == static_cast<unsigned>(__ffs(same) - 1)) atomicOr(bits + word, all);
#else
        if (word != ~std::uint64_t{0}) atomicOr(bits + word, mask);  // no warp reductions before sm_80
#endif
    }
}

// counts[c] = the row starts among chunk c's nonzeros.
__global__ void sptv_chunk_count_kernel(std::uint64_t chunks, const std::uint32_t* __restrict__ bits,
                                        std::uint32_t* __restrict__ counts) {
    const std::uint64_t c = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (c >= chunks) return;
    std::uint32_t n = 0;
#pragma unroll
    for (int w = 0; w < 8; ++w) n += __popc(bits[c * 8 + w]);
    counts[c] = n;
}

// span[c] = the row that crosses the edge before chunk c (its first nonzero no row's start), or
// ~0 where none does.
__global__ void sptv_chunk_span_kernel(std::uint64_t chunks, const std::uint32_t* __restrict__ bits,
                                       const std::uint32_t* __restrict__ base, std::uint32_t* __restrict__ span) {
    const std::uint64_t c = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (c >= chunks) return;
    span[c] = c > 0 && !(bits[c * 8] & 1u) ? base[c] - 1 : ~0u;
}

__global__ void sptv_clear_rows_kernel(std::uint32_t n, const std::uint32_t* __restrict__ rows, float* __restrict__ out) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[rows[i]] = 0.f;
}

// out[r] = the r-th non-empty row's nonzeros times v, a warp a chunk of 256 nonzeros (lane l its
// nonzeros 8l .. 8l + 7, loaded as 16-byte pairs; col and val padded with zeros to whole chunks).
// Each lane sums its own complete rows and stores them; the part before its first start (its
// head) belongs to a row begun to its left, found by a segmented sum of the heads from the right.
__global__ void __launch_bounds__(256) sptv_start_bits_product_kernel(std::uint64_t chunks, const std::uint32_t* __restrict__ col,
                                                                      const float* __restrict__ val, const float* __restrict__ v,
                                                                      const std::uint32_t* __restrict__ bits,
                                                                      const std::uint32_t* __restrict__ base, float* __restrict__ out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x & 31;
    for (std::uint64_t c = warp; c < chunks; c += warps) {
        const std::uint64_t z = c * kBitsChunk + 8u * lane;
        const uint4 c0 = __ldg(reinterpret_cast<const uint4*>(col + z)), c1 = __ldg(reinterpret_cast<const uint4*>(col + z) + 1);
        const float4 x0 = __ldg(reinterpret_cast<const float4*>(val + z)), x1 = __ldg(reinterpret_cast<const float4*>(val + z) + 1);
        const std::uint32_t starts = (__ldg(bits + c * 8 + lane / 4) >> (8 * (lane % 4))) & 0xffu;
        const float p[8] = {x0.x * __ldg(v + c0.x), x0.y * __ldg(v + c0.y), x0.z * __ldg(v + c0.z), x0.w * __ldg(v + c0.w),
                            x1.x * __ldg(v + c1.x), x1.y * __ldg(v + c1.y), x1.z * __ldg(v + c1.z), x1.w * __ldg(v + c1.w)};
        // the lane's first row: the starts before it in the chunk, after the chunk's base
        const std::uint32_t mine = __popc(starts);
        std::uint32_t before = mine;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const std::uint32_t y = __shfl_up_sync(0xffffffffu, before, d);
            if (lane >= static_cast<unsigned>(d)) before += y;
        }
        std::uint32_t r = __ldg(base + c) + before - mine;
        float run = 0.f, head = 0.f;
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            if (starts >> k & 1u) {
                if (starts & ((1u << k) - 1u))
                    out[r++] = run;  // a row begun and ended in this lane
                else
                    head = run;
                run = 0.f;
            }
            run += p[k];
        }
        if (!starts) head = run;
        // t = this lane's head plus those of the lanes to its right up to and including the first
        // that starts a row: the part of the row open at this lane's left edge within the chunk
        float t = head;
        bool stop = starts != 0;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const float y = __shfl_down_sync(0xffffffffu, t, d);
            const bool ystop = __shfl_down_sync(0xffffffffu, stop, d);
            if (!stop && lane + d < 32) t += y, stop = ystop;
        }
        const float right = __shfl_down_sync(0xffffffffu, t, 1);
        const unsigned any = __ballot_sync(0xffffffffu, starts != 0);
        if (starts) {  // the lane's last row: its tail and the heads to its right
            const float sum = run + (lane < 31 ? right : 0.f);
            const bool later = (any >> lane) > 1u;  // a lane to the right starts a row
            const bool ends = later || c + 1 == chunks || (__ldg(bits + (c + 1) * 8) & 1u);
            if (ends)
                out[r] = sum;
            else
                atomicAdd(out + r, sum);
        }
        if (lane == 0 && !(starts & 1u)) atomicAdd(out + __ldg(base + c) - 1, t);  // the row begun before the chunk
    }
}

// The two passes above for a HOCSR of `rows` tuples with 32-bit offsets whose columns and values
// are padded with zeros to whole chunks (padded_nonzeros). The plan runs the first pass once to
// count each chunk's base and list the rows crossing chunk edges.
class StartBits {
public:
    static std::uint64_t padded_nonzeros(std::uint64_t nnz) { return (nnz + kBitsChunk - 1) / kBitsChunk * kBitsChunk; }

    StartBits(std::uint64_t rows, std::uint64_t nnz, const std::uint32_t* ptr, const std::uint32_t* col, const float* val,
              const float* v, float* out)
        : rows_(rows), chunks_(padded_nonzeros(nnz) / kBitsChunk), ptr_(ptr), col_(col), val_(val), v_(v), out_(out),
          bits_(chunks_ * 8), base_(chunks_ + 1) {
        if (!chunks_) return;
        mark(nullptr);
        base_.zero();
        sptv_chunk_count_kernel<<<blocks_covering(chunks_), 256>>>(chunks_, bits_.get(), base_.get());
        check(cudaGetLastError(), "counting HOCSR's row starts");
        std::size_t bytes = 0;
        check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, base_.get(), base_.get(), chunks_ + 1), "sizing the scan");
        DeviceArray<unsigned char> temp(bytes);
        check(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, base_.get(), base_.get(), chunks_ + 1), "placing HOCSR's outputs");
        DeviceArray<std::uint32_t> span(chunks_);
        sptv_chunk_span_kernel<<<blocks_covering(chunks_), 256>>>(chunks_, bits_.get(), base_.get(), span.get());
        check(cudaGetLastError(), "finding HOCSR's rows across chunks");
        std::vector<std::uint32_t> host(chunks_), crossing;
        span.download(host.data());
        for (std::uint32_t r : host)
            if (r != ~0u) crossing.push_back(r);
        crossing_ = DeviceArray<std::uint32_t>(crossing.data(), crossing.size());
    }

    void run(cudaStream_t stream) {
        if (!chunks_) return;
        mark(stream);
        if (crossing_.size())
            sptv_clear_rows_kernel<<<blocks_covering(crossing_.size()), 256, 0, stream>>>(
                static_cast<std::uint32_t>(crossing_.size()), crossing_.get(), out_);
        sptv_start_bits_product_kernel<<<grid_for(chunks_ * 32), 256, 0, stream>>>(chunks_, col_, val_, v_, bits_.get(),
                                                                                     base_.get(), out_);
        check(cudaGetLastError(), "summing HOCSR's rows");
    }

private:
    void mark(cudaStream_t stream) {
        check(cudaMemsetAsync(bits_.get(), 0, bits_.size() * sizeof(std::uint32_t), stream), "clearing HOCSR's row starts");
        const auto blocks = (rows_ + kTupleBlockRows - 1) / kTupleBlockRows;
        if (!blocks) return;
        sptv_start_bits_kernel<<<static_cast<unsigned>((blocks + kBitsWide - 1) / kBitsWide), kTupleThreads, 0, stream>>>(
            rows_, blocks, ptr_, bits_.get());
        check(cudaGetLastError(), "marking HOCSR's row starts");
    }

    std::uint64_t rows_, chunks_;
    const std::uint32_t* ptr_;
    const std::uint32_t* col_;
    const float* val_;
    const float* v_;
    float* out_;
    DeviceArray<std::uint32_t> bits_, base_, crossing_;
};

}  // namespace
}  // namespace tscope::gpu
