// SpTV's CSR product (rows = fibers) for rows of every length, a warp a block of rows cut once
// when the plan is made (ours, session 47; the idea is CSR-Adaptive's, Greathouse and Daga, SC'14):
//   - short rows are grouped while their nonzeros fit kStreamNnz: the warp loads them all at once
//     (eight 4-byte loads of each array a lane in flight in blocks of 512, two 16-byte ones in
//     blocks of 1,024) with their offsets, puts each product in its staging buffer in shared
//     memory, then sums the rows from there (adaptive_run_sums: a lane a row, or the whole warp a
//     row over 32 nonzeros in blocks of 512 and where AdaptiveRows::wide_split says), side by side;
//   - a longer row is one warp's alone: the same loads a batch, summed across the warp; a row
//     longer than kPieceNnz is cut into pieces added to its output by atomics (cleared first).
// Why: on the nell-2 shape (power-law fibers) cuSPARSE's CSR SpMV reaches 58-64% of the copy
// bound on mode 3 and 64-76% on modes 1-2; our kernels with the vector in shared memory reach
// more (sptv_shared_vector.cuh) but only where every row is short, and half of the nell-2
// shape's mode-3 nonzeros sit in fibers of 32 or more (16.2M fibers; 291K hold 40M nonzeros).
// The warp's loads here do not depend on the rows' lengths, and no row holds its warp longer
// than a piece.
// The vector is staged in each block's shared memory: blocks of 512 threads, three an SM, up to
// kRunVectorBytes, one block of 1,024 above (two vectors would not fit).
// Measured on one H200 (ef25c94, h200-issue19-session47.json call 5, alternating twice; ms a
// mode, medians of 10; share of the copy bound), nell-2 shape, modes 1-3:
//   CSF        0.263-0.267, 0.268-0.271, 0.284-0.287 (66.8-77.7%)
//   HOCFS-CSR  0.263-0.268, 0.274-0.277, 0.287-0.290 (66.0-77.7%)
//   CFB        0.263-0.270, 0.273-0.277, 0.289       (71.6-85.0%)
//   HOCSR      0.631-0.636, 0.748,       0.445-0.449 (59.2-66.4%)
// against cuSPARSE's (call 4) CSF 0.300, 0.303, 0.323; HOCFS-CSR 0.298, 0.303, 0.320; CFB 0.298,
// 0.297, 0.319; HOCSR 0.661, 0.771, 0.477. Also tried (calls 3-5): the vector read through L1,
// the streamed arrays loaded past it (__ldcs; blocks of 256, six an SM): modes 1-2 0.288-0.301
// (HOCSR 0.648-0.651, 0.760-0.763), mode 3 0.361-0.372 (HOCSR 0.525-0.528), L1 hitting 53% of
// mode 3's loads (Nsight Compute, CSF; L2 49%, DRAM 45% busy); and modes 1-2 staged in one block
// of 1,024 an SM: 0.314-0.335 (HOCSR 0.684, 0.800). On the uniform shape, whose rows are all
// short, the shared-vector kernels stayed: CSF 0.312, 0.324, 0.392 ms against 0.384, 0.393, 0.576
// here with the vector through L1 (call 3); staged, with the offsets loaded early (68d535f,
// session 48 call 5), 0.321, 0.328 and 0.310 against 0.313, 0.321 and 0.390, so that above
// kRunVectorBytes these blocks take all-short rows too (gpu_sptv.cu's grid_for_csr).
// On delicious-4d's mode 4 (a 6 KB vector; its other modes' vectors do not fit):
// CSF 0.712 and HOCFS-CSR 0.709 ms against cuSPARSE's 0.873-0.874 (call 4, read through L1);
// staged, 0.709 and 0.705 against 0.872 and 0.874 (9be7178, h200-issue19-session48.json call 2).
// Tried and slower for vectors above kRunVectorBytes (session 48 call 1, alternating twice):
// half the vector in each block of a cluster of two (Hopper's distributed shared memory), so
// that three blocks of 512 fit an SM. Nell-2 shape, mode 3: CSF 0.504-0.506 ms against
// 0.285-0.289 here, CFB 0.501-0.506 against 0.284-0.289, HOCSR 0.661-0.665 against 0.444-0.445;
// half the reads crossing to the other SM's shared memory cost more than the occupancy gained.
// Tried and slower, session 53 (a7f4449, TENSORSCOPE_SPTV_FRONT, h200-issue19-session53.json call 1,
// alternating twice, medians of 10): for such vectors, blocks of 384 (three an SM, 36 warps against
// 32, 56 registers) staging only the 16,128 most-read entries, the columns renumbered once (the
// rest marked by their top bit and read through L1). Nell-2 shape, mode 3: COO / CFB / HOCFS-CSR /
// CSF 0.368-0.374 ms against 0.256-0.265, HOCSR 0.496 against 0.392 (within 1.8e-7 of cpu-ref);
// blocks of 512 (48 warps, 15,104 entries; their 40 registers spilled 88-132 bytes) 0.419-0.429
// and 0.578-0.580. Uniform shape forced: 0.614-0.620 against 0.310-0.316, HOCSR 0.759-0.766
// against 0.468-0.471. A warp's gather waits on its slowest lane: were 94% of the columns in the
// front (the generator's Zipf law on nell-2's mode 3, not counted), all 32 lanes would find theirs
// there on 0.94^32, 14%, of the gathers, and the rest wait on L1 or L2; removed.
// Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "sparse_library.cuh"
#include "sptv_adaptive_blocks.hpp"
#include "sptv_shared_vector.cuh"

namespace tscope::gpu {
namespace {

constexpr int kAdaptiveBatch = kStreamNnz / 32;    // a lane's 4-byte loads of each array in flight
constexpr int kAdaptiveGroups = kStreamNnz / 128;  // or its 16-byte loads (adaptive_walk_wide)

// A lane's share of [z, end): nonzeros z + lane + 32 k, k < kAdaptiveBatch; past end, column 0
// and value 0. Stream: loaded as streaming accesses (ld.global.cs, evicted first from L1 and L2),
// so that the caches keep the vector.
template <bool Stream = false>
__device__ inline void adaptive_load(std::uint32_t z, std::uint32_t end, std::uint32_t lane,
                                     const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                     std::uint32_t (&c)[kAdaptiveBatch], float (&x)[kAdaptiveBatch]) {
#pragma unroll
    for (int k = 0; k < kAdaptiveBatch; ++k) {
        const std::uint32_t j = z + lane + 32u * k;
        const bool in = j < end;
        if constexpr (Stream) {
            c[k] = in ? __ldcs(col + j) : 0u;
            x[k] = in ? __ldcs(val + j) : 0.f;
        } else {
            c[k] = in ? col[j] : 0u;
            x[k] = in ? val[j] : 0.f;
        }
    }
}

// The same in 16-byte groups: a lane's share of the window of kStreamNnz nonzeros from w (a
// multiple of 4) is the groups w + 4 (lane + 32 k) .. + 3, k < kAdaptiveGroups, one load of either
// array each; a group from end on is column 0 and value 0, and a group across end holds what lies
// past it (the arrays are padded to a multiple of 4, adaptive_padded), which the caller leaves out.
__device__ inline void adaptive_load4(std::uint32_t w, std::uint32_t end, std::uint32_t lane,
                                      const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                      uint4 (&c)[kAdaptiveGroups], float4 (&x)[kAdaptiveGroups]) {
#pragma unroll
    for (int k = 0; k < kAdaptiveGroups; ++k) {
        const std::uint32_t j = w + 4u * (lane + 32u * k);
        const bool in = j < end;
        c[k] = in ? *reinterpret_cast<const uint4*>(col + j) : make_uint4(0, 0, 0, 0);
        x[k] = in ? *reinterpret_cast<const float4*>(val + j) : make_float4(0.f, 0.f, 0.f, 0.f);
    }
}

// A group's products with the vector's entries.
template <class Vec>
__device__ inline float4 adaptive_products(const uint4& c, const float4& x, const Vec& vec) {
    return make_float4(x.x * vec[c.x], x.y * vec[c.y], x.z * vec[c.z], x.w * vec[c.w]);
}

// A device copy of n entries, readable to a multiple of 4 (the tail zero): adaptive_load4 reads
// the whole group that holds the last nonzero.
template <class T>
DeviceArray<T> adaptive_padded(const T* host, std::uint64_t n) {
    DeviceArray<T> d((n + 3) / 4 * 4);
    if (n) check(cudaMemcpy(d.get(), host, n * sizeof(T), cudaMemcpyHostToDevice), "copying to the device");
    if (d.size() > n) check(cudaMemset(d.get() + n, 0, (d.size() - n) * sizeof(T)), "clearing device memory");
    return d;
}

// The vector read from global memory through L1: for a vector no block's shared memory holds and
// L2 does (gpu_sptv.cu's rows_through_l1 says where, and what it gained over cuSPARSE).
// Tried and slower (session 51, 8070899, TENSORSCOPE_SPTV_L1=hint, h200-issue19-session51.json call
// 2, alternating twice): on delicious-4d's mode 2 (its vector packed, 95 MB, forced through L1),
// the packed front's entries loaded with L1::evict_last and the rest with L1::no_allocate and an
// L2 evict-first policy, so that the once-read tail would not push the front out of either cache:
// COO 1.423-1.457 ms and CFB 1.413-1.440 against cuSPARSE's 1.176-1.178 and 1.179-1.181 (unhinted
// through L1, call 1: 1.192-1.212 and 1.174-1.185); removed. Nsight Compute there (call 3, CFB):
// through L1 1.12 ms, L2 82% busy, L2 hit rate 49%, L1 28%, 70% of warps resident; cuSPARSE 0.99
// ms, L2 86% busy, L2 49%, L1 34%: both L2-bound on the gathers' sectors. Also slower (9effc13,
// TENSORSCOPE_SPTV_ROWS=through-front, call 4, once each way): the packed front's first 15,104
// entries (the most read) staged in each block of 512's shared memory, three an SM, the rest
// read through L1: COO 2.293-2.300 ms and CFB 2.294 against cuSPARSE's 1.179 and 1.169 (within
// 6.3e-8 of cpu-ref; the kernel spilled 96 bytes at its 40 registers, and L1 kept about 25 KB
// beside the three fronts); removed, as session 50's front in one block of 1,024 was
// (sptv_hot_columns.cuh).
struct ThroughL1 {
    const float* __restrict__ v;
    __device__ float operator[](std::uint32_t c) const { return __ldg(v + c); }
};

__global__ void adaptive_clear_kernel(std::uint32_t n, const std::uint32_t* __restrict__ rows,
                                      float* __restrict__ out) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[rows[i]] = 0.f;
}

// A warp's sums of one row (or piece, added by atomics) met across its lanes into *row.
__device__ inline void adaptive_row_out(float s, bool piece, float* row) {
    for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
    if (threadIdx.x % 32 == 0) {
        if (piece)
            atomicAdd(row, s);
        else
            *row = s;
    }
}

// The dynamic shared memory of a block of `threads` staging `staged` vector entries (padded to
// 32) and each warp's kStreamNnz products.
inline std::size_t adaptive_shared_bytes(int threads, std::uint64_t staged) {
    return ((staged + 31) / 32 * 32 + static_cast<std::uint64_t>(threads / 32) * kStreamNnz) * sizeof(float);
}

// Whether a vector of vlen entries fits in one block of 1,024 beside the staging buffers.
inline bool adaptive_stageable(std::uint64_t vlen) {
    return adaptive_shared_bytes(1024, vlen) <=
           static_cast<std::uint64_t>(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
}

// The blocks of `kernel` (threads a block, `bytes` of dynamic shared memory) to launch over
// `blocks` blocks of rows, a warp each: as many as are resident, at most one a warp.
template <class Kernel>
int adaptive_grid(Kernel kernel, int threads, std::size_t bytes, std::uint32_t blocks) {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
          "sizing the SpTV kernel's shared memory");
    return resident_grid(kernel, threads, bytes, (std::uint64_t{blocks} + threads / 32 - 1) / (threads / 32));
}

// A block's bounds: nonzeros [z0, z1), rows [row, r1) (a piece: row alone, added by atomics).
struct AdaptiveBlock {
    std::uint32_t row, r1, z0, z1;
    bool piece;
    __device__ AdaptiveBlock(std::uint32_t b, const std::uint32_t* __restrict__ brow,
                             const std::uint32_t* __restrict__ bnz)
        : row(brow[b]), r1(brow[b + 1] & ~kSplitRow), z0(bnz[b]), z1(bnz[b + 1]), piece((row & kSplitRow) != 0) {
        row &= ~kSplitRow;
    }
    // where its 16-byte groups start (adaptive_window, which the plan's cut uses)
    __device__ std::uint32_t window() const { return z0 & ~3u; }
    // Summed as one row: a piece, or nonzeros past kStreamNnz from z0 or (Windows, adaptive_walk_wide)
    // from its window.
    // Span: kStreamNnz, or kLow8Span where the rows' offsets come from their low 8 bits (adaptive_blocks).
    template <bool Windows, std::uint32_t Span = kStreamNnz>
    __device__ bool one_row() const {
        return piece || z1 - (Windows ? window() : z0) > Span;
    }
};

// How a block of short rows is summed once its products are staged (session 48): the rows'
// offsets are loaded with the block's nonzeros (kRowLoads a lane, each row's end passed from the
// next lane), so that they do not wait behind them; where Split (blocks of 512, the vector up to
// kRunVectorBytes), rows over kLaneRowNnz are summed by the whole warp, one after another, and
// the others a lane each; else every row by a lane. Until then each lane read its rows' offsets
// after the staging and summed whole rows, a row of a few hundred nonzeros holding its warp.
// Measured on one H200 (6aac013, h200-issue19-session48.json call 3, the four ways in one binary
// alternating twice; ms a mode, medians of 10), nell-2 shape:
//   modes 1-2 (blocks of 512): offsets after, a lane a row: CSF 0.268-0.279, HOCFS-CSR
//     0.264-0.279, HOCSR 0.625-0.626 and 0.741-0.746; the warp's longer rows alone 0.260-0.273,
//     0.270-0.276, 0.627-0.631 and 0.745; the offsets loaded early alone 0.268-0.281,
//     0.268-0.278, 0.627-0.631 and 0.741-0.745; both (kept) 0.247-0.257, 0.250-0.254,
//     0.608-0.610 and 0.723-0.726 (80-83% of the copy bound, HOCSR 68%).
//   mode 3 (one block of 1,024): offsets after 0.287-0.292 (CSF), 0.286-0.292 (HOCFS-CSR),
//     0.443-0.446 (HOCSR); the warp's longer rows 0.292-0.295, 0.293-0.295, 0.448-0.451; the
//     offsets early (kept) 0.261-0.262, 0.258-0.259, 0.419-0.420 (73-74%, HOCSR 63%); both
//     0.271-0.273, 0.274-0.278, 0.428-0.432.
constexpr int kRowLoads = kStreamNnz / 32 + 1;  // offsets of a block's rows (at most kStreamNnz) and its end

// A lane's offsets of block h's rows: ptr[h.row + lane + 32 j] up to ptr[h.r1]; past it, 0.
__device__ inline void adaptive_load_rows(const AdaptiveBlock& h, std::uint32_t lane,
                                          const std::int32_t* __restrict__ ptr, std::uint32_t (&p)[kRowLoads]) {
#pragma unroll
    for (int j = 0; j < kRowLoads; ++j) {
        const std::uint32_t r = h.row + lane + 32u * j;
        p[j] = r <= h.r1 ? static_cast<std::uint32_t>(ptr[r]) : 0u;
    }
}

// The same from the offsets' low 16 bits (LowBits 16, HOCSR's kept rows, sptv_kept_rows.cuh) or
// low 8 (LowBits 8, in blocks of 1,024), then (adaptive_widen, once they are needed) the offsets
// restored: block h's lie in [h.z0, h.z0 + kStreamNnz], or [h.z0, h.z0 + 255] for 8 bits (the cut's
// span).
template <int LowBits>
using LowOffset = std::conditional_t<LowBits == 8, std::uint8_t, std::uint16_t>;
template <int LowBits>
__device__ inline void adaptive_load_low(const AdaptiveBlock& h, std::uint32_t lane, const void* __restrict__ low,
                                         std::uint32_t (&p)[kRowLoads]) {
    const auto* bits = static_cast<const LowOffset<LowBits>*>(low);
#pragma unroll
    for (int j = 0; j < kRowLoads; ++j) {
        const std::uint32_t r = h.row + lane + 32u * j;
        p[j] = r <= h.r1 ? bits[r] : 0u;
    }
}
template <int LowBits>
__device__ inline void adaptive_widen(const AdaptiveBlock& h, std::uint32_t (&p)[kRowLoads]) {
    constexpr std::uint32_t kMask = (1u << LowBits) - 1;
#pragma unroll
    for (int j = 0; j < kRowLoads; ++j) p[j] = h.z0 + ((p[j] - h.z0) & kMask);
}

// Row r's sum over staged[a, e), where `mine`: this lane's alone, or (Split, a row over
// kLaneRowNnz) the warp's, each such row of the warp's lanes in turn.
template <bool Split>
__device__ inline void adaptive_row_sum(bool mine, std::uint32_t r, std::uint32_t a, std::uint32_t e,
                                        std::uint32_t lane, const float* staged, float* __restrict__ out) {
    const bool lone = mine && (!Split || e - a <= kLaneRowNnz);
    if (lone) {
        float s = 0.f;
        for (std::uint32_t t = a; t < e; ++t) s += staged[t];
        out[r] = s;
    }
    if constexpr (Split) {
        for (unsigned wide = __ballot_sync(0xffffffffu, mine && !lone); wide; wide &= wide - 1) {
            const int src = __ffs(wide) - 1;
            const std::uint32_t wa = __shfl_sync(0xffffffffu, a, src), we = __shfl_sync(0xffffffffu, e, src);
            const std::uint32_t wr = __shfl_sync(0xffffffffu, r, src);
            float s = 0.f;
            for (std::uint32_t t = wa + lane; t < we; t += 32) s += staged[t];
            adaptive_row_out(s, false, out + wr);
        }
    }
}

// The sums of block `now`'s rows from its staged products (staged[0] that of nonzero base) and
// its offsets p.
template <bool Split>
__device__ inline void adaptive_run_sums(const AdaptiveBlock& now, std::uint32_t lane,
                                         const std::uint32_t (&p)[kRowLoads], std::uint32_t base, const float* staged,
                                         float* __restrict__ out) {
    const std::uint32_t rows = now.r1 - now.row;
#pragma unroll
    for (int j = 0; j + 1 < kRowLoads; ++j) {
        if (32u * j >= rows) break;
        // lane 31's end is lane 0's next offset; lane 0's own offset is no other lane's end
        const std::uint32_t e = __shfl_sync(0xffffffffu, lane == 0 ? p[j + 1] : p[j], (lane + 1) % 32);
        const std::uint32_t r = now.row + lane + 32u * j;
        adaptive_row_sum<Split>(r < now.r1, r, p[j] - base, e - base, lane, staged, out);
    }
}

// A warp's walk over blocks first, first + stride, ... (see the header), the vector read through
// `vec` (staged in shared memory, or ThroughL1, when the nonzeros are streamed past the caches),
// short rows' products staged in `staged` (kStreamNnz entries).
// Tried and slower (2660154, h200-issue19-session47.json call 4, alternating twice): each warp's
// next block loaded before it sums the rows of this one. Nell-2 shape, modes 1-2 (vector through
// L1, 48 registers and five blocks an SM to hold both batches): 0.320-0.328 ms in every format
// against 0.291-0.299 (HOCSR 0.679-0.797 against 0.650-0.762); mode 3 (staged) 0.281-0.288
// against 0.283-0.286, even.
// Tried, not settled (session 53, b6dbea9, TENSORSCOPE_SPTV_PREFETCH, h200-issue19-session53.json
// call 5, alternating twice): in blocks of 1,024 only (in blocks of 512 the code spilled), lane 0
// asking the copy engine to fetch the warp's next block of nonzeros into L2
// (cp.async.bulk.prefetch.L2) before summing this one. Mode 3, on / off: nell-2 shape COO / CFB /
// HOCFS-CSR / CSF 0.296-0.304 / 0.299-0.308 ms, HOCSR 0.434 / 0.436-0.440; uniform 0.333-0.343 /
// 0.347-0.359, HOCSR 0.476-0.477 / 0.482-0.487. But both ways ran 12-17% slower than this kernel
// without that code earlier the same day (call 1: 0.256-0.265 and 0.310-0.316, HOCSR 0.392 and
// 0.468-0.471), at the same copy bandwidth (4.22 TB/s): the larger kernel, or a slower device,
// which that call could not tell apart (no run of this kernel beside it); removed. Settled in
// session 54 (b83c211, which has it, against this kernel built at a10b23c, h200-issue19-session54.json call 1,
// one H200, medians of 10): on the nell-2 shape's mode 3 the CSR formats took 0.291-0.292 ms with
// the prefetch and 0.295-0.301 without it in that build, against 0.257-0.259 here, HOCSR 0.426,
// 0.431 and 0.391; uniform mode 3 here (one run) 0.315-0.322, HOCSR 0.471 (the other build's runs
// were cut at the call's time limit). Its code alone, switched off (no spill either way), cost
// 13-15%.
template <bool Split, int LowBits, class Vec>
__device__ inline void adaptive_walk(std::uint32_t first, std::uint32_t stride, std::uint32_t blocks,
                                     const std::uint32_t* __restrict__ brow, const std::uint32_t* __restrict__ bnz,
                                     const std::int32_t* __restrict__ ptr, const void* __restrict__ low,
                                     const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                     const Vec vec, float* staged, float* __restrict__ out) {
    const std::uint32_t lane = threadIdx.x % 32;
    std::uint32_t c[kAdaptiveBatch], p[kRowLoads];
    float x[kAdaptiveBatch];
    std::uint32_t b = first;
    if (b >= blocks) return;
    constexpr bool Stream = std::is_same_v<Vec, ThroughL1>;
    AdaptiveBlock h(b, brow, bnz);
    auto begin = [&] {  // block h's first loads
        adaptive_load<Stream>(h.z0, h.z1, lane, col, val, c, x);
        if (h.one_row<false>()) return;
        if constexpr (LowBits != 0)
            adaptive_load_low<LowBits>(h, lane, low, p);
        else
            adaptive_load_rows(h, lane, ptr, p);
    };
    begin();
    for (;;) {
        const std::uint32_t next = b + stride;
        if (h.one_row<false>()) {
            float s = 0.f;
            for (std::uint32_t z = h.z0;;) {
#pragma unroll
                for (int k = 0; k < kAdaptiveBatch; ++k) s += x[k] * vec[c[k]];
                z += kStreamNnz;
                if (z >= h.z1) break;
                adaptive_load<Stream>(z, h.z1, lane, col, val, c, x);
            }
            adaptive_row_out(s, h.piece, out + h.row);
            if (next >= blocks) return;
            b = next, h = AdaptiveBlock(b, brow, bnz);
            begin();
            continue;
        }
#pragma unroll
        for (int k = 0; k < kAdaptiveBatch; ++k) staged[lane + 32 * k] = x[k] * vec[c[k]];
        const AdaptiveBlock now = h;
        if constexpr (LowBits != 0) adaptive_widen<LowBits>(now, p);
        __syncwarp();
        adaptive_run_sums<Split>(now, lane, p, now.z0, staged, out);
        __syncwarp();  // the buffer's next fill waits for these reads
        if (next >= blocks) return;
        b = next, h = AdaptiveBlock(b, brow, bnz);
        begin();
    }
}

// The walk of blocks of 1,024 (the vector staged) with the nonzeros loaded in 16-byte groups
// (adaptive_load4), a window of kStreamNnz from the block's first nonzero rounded down to a
// multiple of 4 (the plan's cut, adaptive_window, keeps a block of short rows within one), the
// products staged 16 bytes a store: a quarter of the load and store instructions (56 registers
// against 64). Rows are summed as adaptive_run_sums says (Split: see AdaptiveRows::wide_split).
// Until session 55 these blocks ran adaptive_walk, 4-byte loads and every row a lane's. Measured
// on one H200 against that (fd91f88) in the same calls (h200-issue19-session55.json, alternating
// twice, medians of 10, mode 3; COO / CFB / HOCFS-CSR / CSF, then HOCSR, ms):
//   16-byte loads, a lane a row (call 1)
//     nell-2 shape   0.258-0.262 / 0.259 / 0.259-0.264 / 0.259-0.264, 0.383-0.388
//                    against 0.263-0.266 / 0.264-0.266 / 0.267-0.268 / 0.265-0.273, 0.388-0.394
//     uniform shape  0.302-0.306 / 0.302-0.307 / 0.301-0.302 / 0.299-0.307, 0.432-0.435
//                    against 0.319-0.321 / 0.322-0.323 / 0.320 / 0.316-0.319, 0.465-0.470
//   as now, the nell-2 shape's rows over 32 summed by the warp (call 3)
//     nell-2 shape   0.242-0.244 / 0.244 / 0.238-0.241 / 0.238-0.246, 0.366-0.376 (70.8-72.9%)
//                    against 0.260-0.265 / 0.260-0.262 / 0.262 / 0.258-0.261, 0.386-0.388 (68.7-69.0%)
//     uniform shape  0.303-0.305 / 0.300-0.303 / 0.301 / 0.298-0.305, 0.430-0.436 (69.5-70.6%)
//                    against 0.310-0.321 / 0.315-0.317 / 0.318-0.321 / 0.314-0.321, 0.462-0.470 (64.6-65.7%)
// within 1.4e-7 of cpu-ref. Nsight Compute (call 1, nell-2 shape, CSF, a lane a row): 247 us
// against 249, L1/TEX 83% busy, 0.61 warps issued a cycle against 0.67, 16.9 threads of a warp
// active (a lane walking a long row alone), which the warp's sums took away. Blocks of 512 keep
// the 4-byte loads: the groups' registers spilled there (40 registers, 32-52 bytes).
template <bool Split, int LowBits>
__device__ inline void adaptive_walk_wide(std::uint32_t first, std::uint32_t stride, std::uint32_t blocks,
                                          const std::uint32_t* __restrict__ brow, const std::uint32_t* __restrict__ bnz,
                                          const std::int32_t* __restrict__ ptr, const void* __restrict__ low,
                                          const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                          const float* vec, float* staged, float* __restrict__ out) {
    constexpr std::uint32_t kSpan = LowBits == 8 ? kLow8Span : kStreamNnz;  // the cut's (adaptive_blocks)
    const std::uint32_t lane = threadIdx.x % 32;
    uint4 c[kAdaptiveGroups];
    float4 x[kAdaptiveGroups];
    std::uint32_t p[kRowLoads];
    std::uint32_t b = first;
    if (b >= blocks) return;
    AdaptiveBlock h(b, brow, bnz);
    auto begin = [&] {  // block h's first loads
        adaptive_load4(h.window(), h.z1, lane, col, val, c, x);
        if (h.one_row<true, kSpan>()) return;
        if constexpr (LowBits != 0)
            adaptive_load_low<LowBits>(h, lane, low, p);
        else
            adaptive_load_rows(h, lane, ptr, p);
    };
    begin();
    for (;;) {
        const std::uint32_t next = b + stride;
        if (h.one_row<true, kSpan>()) {
            float s = 0.f;
            for (std::uint32_t w = h.window();;) {
                // only a window at the row's ends holds nonzeros of other rows
                const bool edge = w < h.z0 || w + kStreamNnz > h.z1;
#pragma unroll
                for (int k = 0; k < kAdaptiveGroups; ++k) {
                    const float4 y = adaptive_products(c[k], x[k], vec);
                    if (edge) {
                        const std::uint32_t j = w + 4u * (lane + 32u * k);
                        auto in = [&](std::uint32_t i) { return j + i >= h.z0 && j + i < h.z1; };
                        s += (in(0) ? y.x : 0.f) + (in(1) ? y.y : 0.f) + (in(2) ? y.z : 0.f) + (in(3) ? y.w : 0.f);
                    } else {
                        s += (y.x + y.y) + (y.z + y.w);
                    }
                }
                w += kStreamNnz;
                if (w >= h.z1) break;
                adaptive_load4(w, h.z1, lane, col, val, c, x);
            }
            adaptive_row_out(s, h.piece, out + h.row);
            if (next >= blocks) return;
            b = next, h = AdaptiveBlock(b, brow, bnz);
            begin();
            continue;
        }
        // the window's products, the block's rows among them (run_sums reads from its start)
        auto* staged4 = reinterpret_cast<float4*>(staged);
#pragma unroll
        for (int k = 0; k < kAdaptiveGroups; ++k) staged4[lane + 32 * k] = adaptive_products(c[k], x[k], vec);
        const AdaptiveBlock now = h;
        if constexpr (LowBits != 0) adaptive_widen<LowBits>(now, p);
        __syncwarp();
        adaptive_run_sums<Split>(now, lane, p, now.window(), staged, out);
        __syncwarp();  // the buffer's next fill waits for these reads
        if (next >= blocks) return;
        b = next, h = AdaptiveBlock(b, brow, bnz);
        begin();
    }
}

// out = A v over the blocks (see the header); dynamic shared memory: the vector (none where
// Through: read through L1), padded to 32 entries, then each warp's kStreamNnz staged products.
template <int Threads, int PerSm, bool Split, int LowBits, bool Through = false>
__global__ void __launch_bounds__(Threads, PerSm)
    sptv_adaptive_kernel(std::uint32_t blocks, const std::uint32_t* __restrict__ brow,
                         const std::uint32_t* __restrict__ bnz, const std::int32_t* __restrict__ ptr,
                         const void* __restrict__ low, const std::uint32_t* __restrict__ col,
                         const float* __restrict__ val, const float* __restrict__ v, std::uint32_t vlen,
                         float* __restrict__ out) {
    extern __shared__ __align__(16) float smem[];
    if constexpr (Through) {
        const std::uint32_t warp = threadIdx.x / 32;
        adaptive_walk<Split, LowBits>(blockIdx.x * (Threads / 32) + warp, gridDim.x * (Threads / 32), blocks, brow, bnz,
                                      ptr, low, col, val, ThroughL1{v}, smem + warp * kStreamNnz, out);
    } else {
        const float* vec = shared_vector(v, vlen);
        const std::uint32_t warp = threadIdx.x / 32;
        float* staged = smem + (vlen + 31) / 32 * 32 + warp * kStreamNnz;
        if constexpr (Threads == 1024)
            adaptive_walk_wide<Split, LowBits>(blockIdx.x * (Threads / 32) + warp, gridDim.x * (Threads / 32), blocks,
                                               brow, bnz, ptr, low, col, val, vec, staged, out);
        else
            adaptive_walk<Split, LowBits>(blockIdx.x * (Threads / 32) + warp, gridDim.x * (Threads / 32), blocks, brow,
                                          bnz, ptr, low, col, val, vec, staged, out);
    }
}

// y = A v for a CSR with 32-bit offsets on the device (ptr, rows + 1 of them, the caller's or
// narrowed here from 64-bit ones); the blocks are cut once from the offsets as they are now
// (a caller that rewrites them, HOCSR's kept rows, writes the same ones each product).
class AdaptiveRows {
public:
    // Whether a CSR of these sizes can run here with the vector read through L1 (`through`
    // below): 32-bit offsets and rows.
    static bool fits_through(std::uint64_t rows, std::uint64_t nnz, std::uint64_t vlen) {
        constexpr std::uint64_t kInt = std::uint64_t{1} << 31;
        return rows != 0 && rows < kInt && nnz < kInt && vlen < kInt;
    }
    // Whether it can run with the vector staged: also a vector that fits in a block's shared
    // memory beside the staging buffers.
    static bool fits(std::uint64_t rows, std::uint64_t nnz, std::uint64_t vlen) {
        return fits_through(rows, nnz, vlen) && adaptive_stageable(vlen);
    }
    // Whether the vector is staged in blocks of 512 (three an SM) rather than one of 1,024.
    static bool small(std::uint64_t vlen) { return vlen * sizeof(float) <= kRunVectorBytes; }

    // Over 64-bit offsets on the device (ptr64, narrowed here) whose host copy (host_ptr) is cut.
    // With `through`, blocks of 512 (three an SM) read the vector through L1, none of it staged.
    AdaptiveRows(std::uint64_t rows, std::uint64_t vlen, const std::uint64_t* host_ptr, const std::uint64_t* ptr64,
                 const std::uint32_t* col, const float* val, const float* dv, float* dout, bool through = false)
        : vlen_(static_cast<std::uint32_t>(vlen)),
          through_(through),
          ptr_(rows, ptr64),
          col_(col),
          val_(val),
          v_(dv),
          out_(dout) {
        cut(host_ptr, rows);
    }
    // Over 32-bit offsets the caller keeps on the device only (HOCSR's kept rows): read back to cut.
    // With low (HOCSR's kept rows, where sptv_kept_rows.cuh's keep_row says), the kernel reads the
    // offsets' low low_bits bits (16, or 8 where the vector takes blocks of 1,024), rows + 1 of
    // them, rather than ptr32, which must still hold the offsets (the blocks are cut from them).
    AdaptiveRows(std::uint64_t rows, std::uint64_t vlen, const std::int32_t* ptr32, const std::uint32_t* col,
                 const float* val, const float* dv, float* dout, const void* low = nullptr, int low_bits = 16)
        : vlen_(static_cast<std::uint32_t>(vlen)),
          ptr_(ptr32),
          low_(low),
          low_bits_(low ? low_bits : 0),
          col_(col),
          val_(val),
          v_(dv),
          out_(dout) {
        std::vector<std::int32_t> host(rows + 1);
        check(cudaMemcpy(host.data(), ptr32, host.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost),
              "reading the SpTV rows");
        cut(host.data(), rows);
    }
    AdaptiveRows(const AdaptiveRows&) = delete;
    AdaptiveRows& operator=(const AdaptiveRows&) = delete;

    void run(cudaStream_t stream) {
        if (split_.size())
            adaptive_clear_kernel<<<blocks_covering(split_.size()), 256, 0, stream>>>(
                static_cast<std::uint32_t>(split_.size()), split_.get(), out_);
        kernel_<<<grid_, threads_, adaptive_shared_bytes(threads_, staged()), stream>>>(
            blocks_, row_.get(), nz_.get(), ptr_.get(), low_, col_, val_, v_, vlen_, out_);
    }

private:
    using Kernel = void (*)(std::uint32_t, const std::uint32_t*, const std::uint32_t*, const std::int32_t*, const void*,
                            const std::uint32_t*, const float*, const float*, std::uint32_t, float*);

    // The blocks cut on the host from the offsets as they are now, and the grid.
    template <class P>
    void cut(const P* host_ptr, std::uint64_t rows) {
        // the vector staged in blocks of 512, three an SM, up to kRunVectorBytes; one of 1,024 above
        const bool small = AdaptiveRows::small(vlen_) || through_;
        if (low_bits_ == 8 && small) throw std::logic_error("SpTV's 8-bit offsets need blocks of 1,024");
        const std::uint32_t span = low_bits_ == 8 ? kLow8Span : kStreamNnz;
        const AdaptiveBlocks b = adaptive_blocks(host_ptr, rows, !small, span);
        blocks_ = static_cast<std::uint32_t>(b.row.size() - 1);
        row_ = DeviceArray<std::uint32_t>(b.row.data(), b.row.size());
        nz_ = DeviceArray<std::uint32_t>(b.nz.data(), b.nz.size());
        if (!b.split.empty()) split_ = DeviceArray<std::uint32_t>(b.split.data(), b.split.size());
        threads_ = small ? 512 : 1024;
        if (through_)
            kernel_ = sptv_adaptive_kernel<512, 3, true, 0, true>;
        else if (small)
            kernel_ = low_bits_ ? sptv_adaptive_kernel<512, 3, true, 16> : sptv_adaptive_kernel<512, 3, true, 0>;
        else if (wide_split(host_ptr, rows, b))
            kernel_ = wide_kernel<true>();
        else
            kernel_ = wide_kernel<false>();
        grid_ = adaptive_grid(kernel_, threads_, adaptive_shared_bytes(threads_, staged()), blocks_);
    }
    std::uint32_t staged() const { return through_ ? 0 : vlen_; }  // vector entries in shared memory

    // The kernel of blocks of 1,024 for the offsets' width.
    template <bool Split>
    Kernel wide_kernel() const {
        if (low_bits_ == 8) return sptv_adaptive_kernel<1024, 1, Split, 8>;
        if (low_bits_ == 16) return sptv_adaptive_kernel<1024, 1, Split, 16>;
        return sptv_adaptive_kernel<1024, 1, Split, 0>;
    }

    // Whether blocks of 1,024 sum rows over kLaneRowNnz by the whole warp (Split), as blocks of 512
    // do: where such rows hold 1% of the nonzeros or more (TENSORSCOPE_SPTV_WIDE_SPLIT=1 or =0
    // forces either way, for comparisons and tests). Measured on one H200 (session 55, f2bfd1d,
    // h200-issue19-session55.json call 2, alternating twice, medians of 10; mode 3, the 115 KB
    // vector staged; COO / CFB / HOCFS-CSR / CSF, then HOCSR), the warp's sums / a lane's:
    //   nell-2 shape   0.243 / 0.236-0.246 / 0.243-0.245 / 0.243-0.245, 0.367-0.375 ms
    //                  against 0.255-0.259 / 0.253-0.255 / 0.254-0.257 / 0.252-0.259, 0.385-0.388
    //   uniform shape  0.305 / 0.301 / 0.307 / 0.301, 0.435 against 0.295 / 0.298 / 0.298 / 0.299, 0.427
    // (the uniform shape's rows hold 1-5 nonzeros: the warp's pass over them finds none to take). The
    // 1% is not tuned: no shape between these two was measured.
    template <class P>
    static bool wide_split(const P* host_ptr, std::uint64_t rows, const AdaptiveBlocks& b) {
        if (env_is("TENSORSCOPE_SPTV_WIDE_SPLIT", "1")) return true;
        if (env_is("TENSORSCOPE_SPTV_WIDE_SPLIT", "0")) return false;
        const std::uint64_t nnz = static_cast<std::uint64_t>(host_ptr[rows] - host_ptr[0]);
        return b.lane_long * 100 >= nnz;
    }

    std::uint32_t vlen_, blocks_ = 0;
    bool through_ = false;
    Offsets32 ptr_;
    const void* low_ = nullptr;
    int low_bits_ = 0;  // 0: the kernel reads ptr_
    const std::uint32_t* col_;
    const float* val_;
    const float* v_;
    float* out_;
    DeviceArray<std::uint32_t> row_, nz_, split_;
    Kernel kernel_ = nullptr;
    int threads_ = 0, grid_ = 0;
};

}  // namespace
}  // namespace tscope::gpu
