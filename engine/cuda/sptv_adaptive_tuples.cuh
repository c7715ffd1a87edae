// HOCSR's SpTV in one pass by warps over blocks of index tuples cut once when the plan is made
// (ours, session 47; an experiment, TENSORSCOPE_HOCSR=fused, not yet run on a GPU): every
// product reads HOCSR's offsets as the format stores them, one per index tuple, as the other
// passes do, but the blocks (sptv_adaptive_blocks.hpp's adaptive_tuple_blocks) already know
// where each one's nonzeros and outputs start, so that one launch does what the kept rows'
// two do (sptv_kept_rows.cuh: a pass writing the non-empty rows' offsets, then their product
// reading them again).
//   - a block of short rows: the warp loads its nonzeros (at most kStreamNnz) and stages their
//     products in shared memory, as sptv_adaptive_rows.cuh does; then walks its tuples 256 at a
//     time, a lane 8 consecutive ones (9 offsets in flight), counts its non-empty rows, places
//     them by a warp scan after the block's first output, and sums each from the staged products;
//   - a longer row alone, or its pieces, as sptv_adaptive_rows.cuh's.
// Why: with the kept rows (two passes), HOCSR reaches 59-66% of the copy bound on the nell-2
// shape (h200-issue19-session47.json call 5), its product alone as fast as CSF's: the kept
// offsets' write and read again, and the pass between, are what one pass would save.
// Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>
#include <vector>

#include "cuda_util.cuh"
#include "sptv_adaptive_blocks.hpp"
#include "sptv_adaptive_rows.cuh"
#include "sptv_shared_vector.cuh"

namespace tscope::gpu {
namespace {

constexpr int kTuplesALane = 8;  // consecutive tuples a lane walks a step

// A block of tuples: nonzeros [z0, z1), tuples [t0, t1), outputs from o0 (a piece: one row's).
struct TupleBlock {
    std::uint32_t t0, t1, z0, z1, o0;
    bool piece;
    __device__ TupleBlock(std::uint32_t b, const std::uint32_t* __restrict__ bt, const std::uint32_t* __restrict__ bnz,
                          const std::uint32_t* __restrict__ bout)
        : t0(bt[b] & ~kSplitRow),
          t1(bt[b + 1] & ~kSplitRow),
          z0(bnz[b]),
          z1(bnz[b + 1]),
          o0(bout[b]),
          piece((bt[b] & kSplitRow) != 0) {}
    __device__ bool one_row() const { return piece || z1 - z0 > kStreamNnz; }
};

// The non-empty rows of tuples [t0, t1) summed from `staged` (their products, the first at z0)
// into out[o0], out[o0 + 1], ... in tuple order, by one warp.
__device__ inline void tuple_rows(const TupleBlock& h, const std::uint32_t* __restrict__ ptr, const float* staged,
                                  float* __restrict__ out) {
    const std::uint32_t lane = threadIdx.x % 32;
    std::uint32_t done = 0;
    for (std::uint32_t first = h.t0; first < h.t1; first += 32 * kTuplesALane) {
        const std::uint32_t mine = first + lane * kTuplesALane;
        std::uint32_t p[kTuplesALane + 1];
#pragma unroll
        for (int k = 0; k <= kTuplesALane; ++k) p[k] = ptr[min(mine + k, h.t1)];  // past t1: empty
        std::uint32_t count = 0;
#pragma unroll
        for (int k = 0; k < kTuplesALane; ++k) count += p[k + 1] > p[k];
        std::uint32_t before = count;  // inclusive, then exclusive
        for (int d = 1; d < 32; d <<= 1) {
            const std::uint32_t v = __shfl_up_sync(0xffffffffu, before, d);
            if (lane >= static_cast<std::uint32_t>(d)) before += v;
        }
        const std::uint32_t total = __shfl_sync(0xffffffffu, before, 31);
        std::uint32_t at = h.o0 + done + before - count;
#pragma unroll
        for (int k = 0; k < kTuplesALane; ++k)
            if (p[k + 1] > p[k]) {
                float s = 0.f;
                for (std::uint32_t t = p[k] - h.z0; t < p[k + 1] - h.z0; ++t) s += staged[t];
                out[at++] = s;
            }
        done += total;
    }
}

// out = HOCSR's non-empty rows times v over the blocks (see the header); dynamic shared memory:
// the vector, padded to 32 entries, then each warp's kStreamNnz staged products.
template <int Threads, int PerSm>
__global__ void __launch_bounds__(Threads, PerSm)
    sptv_adaptive_tuple_kernel(std::uint32_t blocks, const std::uint32_t* __restrict__ bt,
                               const std::uint32_t* __restrict__ bnz, const std::uint32_t* __restrict__ bout,
                               const std::uint32_t* __restrict__ ptr, const std::uint32_t* __restrict__ col,
                               const float* __restrict__ val, const float* __restrict__ v, std::uint32_t vlen,
                               float* __restrict__ out) {
    extern __shared__ float smem[];
    const float* vec = shared_vector(v, vlen);
    const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, stride = gridDim.x * (Threads / 32);
    float* staged = smem + (vlen + 31) / 32 * 32 + warp * kStreamNnz;
    std::uint32_t c[kAdaptiveBatch];
    float x[kAdaptiveBatch];
    for (std::uint32_t b = blockIdx.x * (Threads / 32) + warp; b < blocks; b += stride) {
        const TupleBlock h(b, bt, bnz, bout);
        if (h.one_row()) {
            float s = 0.f;
            for (std::uint32_t z = h.z0; z < h.z1; z += kStreamNnz) {
                adaptive_load(z, h.z1, lane, col, val, c, x);
#pragma unroll
                for (int k = 0; k < kAdaptiveBatch; ++k) s += x[k] * vec[c[k]];
            }
            adaptive_row_out(s, h.piece, out + h.o0);
            continue;
        }
        adaptive_load(h.z0, h.z1, lane, col, val, c, x);
#pragma unroll
        for (int k = 0; k < kAdaptiveBatch; ++k) staged[lane + 32 * k] = x[k] * vec[c[k]];
        __syncwarp();
        tuple_rows(h, ptr, staged, out);
        __syncwarp();  // the buffer's next fill waits for these reads
    }
}

// HOCSR's product in one pass over its 32-bit offsets on the device (ptr, tuples + 1), the
// blocks cut from the host's copy of the same offsets (hptr).
class AdaptiveTuples {
public:
    // Whether HOCSR of these sizes can run here: tuples and nonzeros within 31 bits, a vector
    // that fits in a block's shared memory beside the staging buffers.
    static bool fits(std::uint64_t tuples, std::uint64_t nnz, std::uint64_t vlen) {
        constexpr std::uint64_t kInt = std::uint64_t{1} << 31;
        return tuples != 0 && tuples < kInt && nnz < kInt && vlen < kInt && adaptive_stageable(vlen);
    }

    // outputs: the non-empty rows the device counted, which the blocks must place as many of.
    AdaptiveTuples(std::uint64_t tuples, std::uint64_t outputs, std::uint64_t vlen, const std::uint32_t* hptr,
                   const std::uint32_t* ptr, const std::uint32_t* col, const float* val, const float* dv, float* dout)
        : vlen_(static_cast<std::uint32_t>(vlen)), ptr_(ptr), col_(col), val_(val), v_(dv), out_(dout) {
        const TupleBlocks b = adaptive_tuple_blocks(hptr, static_cast<std::uint32_t>(tuples));
        if (b.out.back() != outputs)
            throw Error("HOCSR's SpTV blocks place " + std::to_string(b.out.back()) + " outputs, expected " +
                        std::to_string(outputs));
        blocks_ = static_cast<std::uint32_t>(b.tuple.size() - 1);
        tuple_ = DeviceArray<std::uint32_t>(b.tuple.data(), b.tuple.size());
        nz_ = DeviceArray<std::uint32_t>(b.nz.data(), b.nz.size());
        out_base_ = DeviceArray<std::uint32_t>(b.out.data(), b.out.size());
        if (!b.split.empty()) split_ = DeviceArray<std::uint32_t>(b.split.data(), b.split.size());
        small_ = vlen_ * sizeof(float) <= kRunVectorBytes;
        grid_ = small_ ? grid<512, 3>() : grid<1024, 1>();
    }
    AdaptiveTuples(const AdaptiveTuples&) = delete;
    AdaptiveTuples& operator=(const AdaptiveTuples&) = delete;

    void run(cudaStream_t stream) {
        if (split_.size())
            adaptive_clear_kernel<<<blocks_covering(split_.size()), 256, 0, stream>>>(
                static_cast<std::uint32_t>(split_.size()), split_.get(), out_);
        if (small_)
            launch<512, 3>(stream);
        else
            launch<1024, 1>(stream);
    }

private:
    template <int Threads, int PerSm>
    void launch(cudaStream_t stream) {
        sptv_adaptive_tuple_kernel<Threads, PerSm><<<grid_, Threads, adaptive_shared_bytes(Threads, vlen_), stream>>>(
            blocks_, tuple_.get(), nz_.get(), out_base_.get(), ptr_, col_, val_, v_, vlen_, out_);
    }
    template <int Threads, int PerSm>
    int grid() const {
        return adaptive_grid(sptv_adaptive_tuple_kernel<Threads, PerSm>, Threads, adaptive_shared_bytes(Threads, vlen_),
                             blocks_);
    }

    std::uint32_t vlen_, blocks_ = 0;
    const std::uint32_t* ptr_;
    const std::uint32_t* col_;
    const float* val_;
    const float* v_;
    float* out_;
    DeviceArray<std::uint32_t> tuple_, nz_, out_base_, split_;
    bool small_ = true;  // blocks of 512, three an SM, rather than 1,024, one
    int grid_ = 0;
};

}  // namespace
}  // namespace tscope::gpu
