// Work cut into pieces of `stride` consecutive items (nonzeros) whatever ranges (CSR rows,
// fibers) they fall in: the range holding each piece's first item, found once by a binary
// search per piece. MTTKRP's nonzero groups, SpTV's tiles and SpTTM's warp segments start from
// it. SpTV's and SpTTM's pieces also write their results as owners: the piece holding a
// range's first item stores the range's `width` values, and a piece whose first range began
// earlier leaves its share in carry, added here afterwards. Private to engine/cuda (C++17, nvcc).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace tscope::gpu {

namespace {

// range_of[g] = the last r < ranges with ptr[r] - base <= g * stride (ptr ascending from base).
__global__ void piece_ranges_kernel(std::uint64_t pieces, std::uint64_t stride, std::uint64_t ranges,
                                    const std::uint64_t* __restrict__ ptr, std::uint64_t base, std::uint64_t* __restrict__ range_of) {
    const std::uint64_t g = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (g >= pieces) return;
    const std::uint64_t pos = base + g * stride;
    std::uint64_t lo = 0, hi = ranges;
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (ptr[mid] <= pos) lo = mid;
        else hi = mid;
    }
    range_of[g] = lo;
}

inline void launch_piece_ranges(std::uint64_t pieces, std::uint64_t stride, std::uint64_t ranges, const std::uint64_t* ptr,
                                std::uint64_t base, std::uint64_t* range_of, cudaStream_t stream = nullptr) {
    if (pieces == 0) return;
    piece_ranges_kernel<<<static_cast<unsigned>((pieces + 255) / 256), 256, 0, stream>>>(pieces, stride, ranges, ptr, base, range_of);
}

// Piece g's carried share, where its first range began in an earlier piece: carry[g * width + c]
// into out[range * width + c]. Launched after the kernel whose owners stored their values, on
// the same stream; piece 0 never carries.
__global__ void piece_carries_kernel(std::uint64_t pieces, std::uint64_t stride, std::uint64_t width,
                                     const std::uint64_t* __restrict__ ptr, const std::uint64_t* __restrict__ range_of,
                                     const float* __restrict__ carry, float* __restrict__ out) {
    const std::uint64_t e = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (e >= pieces * width) return;
    const std::uint64_t g = e / width, r = range_of[g];
    if (ptr[r] < g * stride) atomicAdd(&out[r * width + e % width], carry[e]);
}

inline void launch_piece_carries(std::uint64_t pieces, std::uint64_t stride, std::uint64_t width, const std::uint64_t* ptr,
                                 const std::uint64_t* range_of, const float* carry, float* out, cudaStream_t stream = nullptr) {
    if (pieces == 0 || width == 0) return;
    piece_carries_kernel<<<static_cast<unsigned>((pieces * width + 255) / 256), 256, 0, stream>>>(pieces, stride, width, ptr, range_of,
                                                                                                carry, out);
}

}  // namespace

}  // namespace tscope::gpu
