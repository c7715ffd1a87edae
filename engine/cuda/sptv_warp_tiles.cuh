// SpTV's CSR product (rows = fibers) by equal runs of nonzeros, for rows of any length: a warp
// takes kWarpNnz consecutive nonzeros (a lane kLaneNnz of them, loaded as 16-byte vectors), and
// the rows they fall in are found from the offsets, so a power-law tensor's long fibers spread
// over as many warps as their nonzeros fill. Private to engine/cuda (nvcc, C++17).
//
// Why: on the nell-2 shape cuSPARSE's CSR SpMV (CSR_ALG1) reached 58-74% of the copy bound on
// CFB, HOCFS-CSR and CSF (session 43, values counted in fp32): each nonzero's gather of v[col]
// goes through L1, and a warp's 32 scattered entries are as many L1 wavefronts; our kernels with
// the vector in shared memory (sptv_shared_vector.cuh) take a row a thread and are held by the
// longest rows. Here the vector sits in shared memory where it fits beside the offsets (one
// block of kTileThreads an SM, the block's warps independent of each other: no barrier after the
// vector's copy), and the work is the nonzeros, whatever the rows.
//
// A lane's rows: the warp stages its tile's offsets (plan-time `first[w]`, the row holding the
// tile's first nonzero, to first[w + 1]) in its slice of shared memory and each lane finds its
// first nonzero's row by bisection there. A lane sums its products row by row; a row that ends
// inside the lane's run is stored at once, except the lane's first row, which earlier lanes may
// have begun: each lane's open row and its partial sum (RowCarry) are combined across the warp by
// a segmented scan (rows are non-decreasing along the lanes), and the first row is stored with the
// lanes' shares before it added. The warp's last open row may continue into later tiles: its
// share goes to carry[w], and a second kernel adds the carries after every row has been stored.
// Rows may be empty (each is stored, 0); a tile may then touch more rows than a warp's slice
// holds, and the plan refuses such a CSR (the caller keeps cuSPARSE).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "cuda_util.cuh"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

constexpr int kTileThreads = 1024;      // one block an SM holds the vector once for 32 warps
constexpr std::uint32_t kLaneNnz = 16;  // a lane's consecutive nonzeros: four 16-byte loads each of columns and values
constexpr std::uint32_t kWarpNnz = 32 * kLaneNnz;
constexpr std::uint32_t kWarpOffsets =
    kWarpNnz + 2;  // a tile of non-empty rows touches at most kWarpNnz + 1 rows, and the last one's end
constexpr std::uint32_t kNoRow = 0xffffffffu;

struct RowCarry {
    std::uint32_t row;  // kNoRow: none
    float value;
};

// first[w] = the row holding nonzero w * kWarpNnz (the last row whose offset is at most that),
// for every tile 0 < w < tiles; first[0] = 0 (the empty rows before the first nonzero are the
// first tile's); first[tiles] = rows.
__global__ void warp_tile_first_kernel(std::uint32_t rows, std::uint32_t nnz, std::uint32_t tiles,
                                       const std::int32_t* __restrict__ ptr, std::uint32_t* __restrict__ first) {
    for (std::uint32_t w = blockIdx.x * blockDim.x + threadIdx.x; w <= tiles; w += gridDim.x * blockDim.x) {
        const std::uint32_t at = w < tiles ? w * kWarpNnz : nnz;
        std::uint32_t lo = 0, hi = rows + 1;  // the first offset above `at`
        while (lo < hi) {
            const std::uint32_t mid = lo + (hi - lo) / 2;
            if (static_cast<std::uint32_t>(ptr[mid]) <= at)
                lo = mid + 1;
            else
                hi = mid;
        }
        first[w] = w ? lo - 1 : 0;
    }
}

// The lane's kLaneNnz columns and values from nonzero a (zeros past e, the tile's end).
__device__ __forceinline__ void load_lane_nonzeros(std::uint32_t a, std::uint32_t e,
                                                   const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                                                   std::uint32_t (&c)[kLaneNnz], float (&x)[kLaneNnz]) {
    if (a + kLaneNnz <= e) {  // a is a multiple of kLaneNnz: aligned (cudaMalloc aligns to 256 bytes)
#pragma unroll
        for (std::uint32_t q = 0; q < kLaneNnz / 4; ++q) {
            const uint4 cc = __ldg(reinterpret_cast<const uint4*>(col + a) + q);
            const float4 xx = __ldg(reinterpret_cast<const float4*>(val + a) + q);
            c[4 * q] = cc.x, c[4 * q + 1] = cc.y, c[4 * q + 2] = cc.z, c[4 * q + 3] = cc.w;
            x[4 * q] = xx.x, x[4 * q + 1] = xx.y, x[4 * q + 2] = xx.z, x[4 * q + 3] = xx.w;
        }
    } else {
#pragma unroll
        for (std::uint32_t k = 0; k < kLaneNnz; ++k) {
            c[k] = a + k < e ? col[a + k] : 0;
            x[k] = a + k < e ? val[a + k] : 0.0f;
        }
    }
}

// out[r] = row r of the CSR (32-bit offsets and columns) times v, every row; carry[w] = tile w's
// share of the row it leaves open. The dynamic shared memory holds each warp's kWarpOffsets
// offsets, then (kSharedVector) the vector.
template <bool kSharedVector>
__global__ void __launch_bounds__(kTileThreads, 1)
    sptv_warp_tile_kernel(std::uint32_t rows, std::uint32_t nnz, std::uint32_t tiles,
                          const std::int32_t* __restrict__ ptr, const std::uint32_t* __restrict__ first,
                          const std::uint32_t* __restrict__ col, const float* __restrict__ val,
                          const float* __restrict__ v, std::uint32_t vlen, float* __restrict__ out,
                          RowCarry* __restrict__ carry) {
    extern __shared__ __align__(16) unsigned char tile_shared[];
    const std::uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    std::int32_t* sp = reinterpret_cast<std::int32_t*>(tile_shared) + warp * kWarpOffsets;
    const float* vv = v;
    if constexpr (kSharedVector) {
        float* sv = reinterpret_cast<float*>(tile_shared + (kTileThreads / 32) * kWarpOffsets * sizeof(std::int32_t));
        for (std::uint32_t i = threadIdx.x; i < vlen; i += blockDim.x) sv[i] = v[i];
        __syncthreads();
        vv = sv;
    }
    const std::uint32_t warps = gridDim.x * (kTileThreads / 32);
    for (std::uint32_t w = blockIdx.x * (kTileThreads / 32) + warp; w < tiles; w += warps) {
        const std::uint32_t s = w * kWarpNnz, e = min(s + kWarpNnz, nnz), a = s + lane * kLaneNnz;
        std::uint32_t c[kLaneNnz];
        float x[kLaneNnz];
        load_lane_nonzeros(a, e, col, val, c, x);  // first, so that their latency covers the offsets'
        const std::uint32_t r0 = first[w], last = min(first[w + 1] + 1, rows);  // the offsets staged: ptr[r0 .. last]
        __syncwarp();  // the previous tile's reads of sp are done
        for (std::uint32_t i = lane; i <= last - r0; i += 32) sp[i] = ptr[r0 + i];
        __syncwarp();
#pragma unroll
        for (std::uint32_t k = 0; k < kLaneNnz; ++k) x[k] *= vv[c[k]];  // padding: column 0 times 0
        RowCarry open{kNoRow, 0.0f};
        std::uint32_t first_row = kNoRow;  // the lane's first row, once it has ended here
        float first_sum = 0.0f;
        if (a < e) {
            const std::uint32_t b = min(a + kLaneNnz, e);
            std::uint32_t lo = 0, hi = a ? last - r0 : 0;  // the last staged offset at most a (row 0 for the first)
            while (lo < hi) {
                const std::uint32_t mid = (lo + hi + 1) / 2;
                if (static_cast<std::uint32_t>(sp[mid]) <= a)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            std::uint32_t r = lo;  // relative to r0
            std::uint32_t next = sp[r + 1];
            float sum = 0.0f;
            const auto close = [&] {
                if (first_row == kNoRow)
                    first_row = r0 + r, first_sum = sum;
                else
                    out[r0 + r] = sum;
                sum = 0.0f;
                ++r;
            };
#pragma unroll
            for (std::uint32_t k = 0; k < kLaneNnz; ++k) {
                if (a + k < b) {
                    while (a + k >= next) {
                        close();
                        next = sp[r + 1];
                    }
                    sum += x[k];
                }
            }
            while (r0 + r < rows && next <= b) {  // rows ending with the run (and empty ones there)
                close();
                if (r0 + r < rows) next = sp[r + 1];
            }
            open = {r0 + r, sum};
        }
        // the open rows' shares summed over the lanes of each row (a segmented inclusive scan)
        float share = open.value;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const std::uint32_t row = __shfl_up_sync(0xffffffffu, open.row, d);
            const float up = __shfl_up_sync(0xffffffffu, share, d);
            if (lane >= static_cast<std::uint32_t>(d) && row == open.row) share += up;
        }
        const std::uint32_t before_row = __shfl_up_sync(0xffffffffu, open.row, 1);
        const float before = __shfl_up_sync(0xffffffffu, share, 1);
        if (first_row != kNoRow) out[first_row] = first_sum + (lane > 0 && before_row == first_row ? before : 0.0f);
        if (lane == 31) carry[w] = {open.row, share};
    }
}

// out[row] += each tile's share of the row it left open (after every row has been stored).
__global__ void warp_tile_carry_kernel(std::uint32_t tiles, std::uint32_t rows, const RowCarry* __restrict__ carry,
                                       float* __restrict__ out) {
    for (std::uint32_t w = blockIdx.x * blockDim.x + threadIdx.x; w < tiles; w += gridDim.x * blockDim.x) {
        const RowCarry c = carry[w];
        if (c.row < rows && c.value != 0.0f) atomicAdd(out + c.row, c.value);
    }
}

// y = A v for a rows x vlen CSR with 32-bit offsets (the caller's, or its 64-bit ones narrowed),
// 32-bit columns and fp32 values, by sptv_warp_tile_kernel; plan() says whether it can run.
class WarpTileRows {
public:
    // Null where the CSR does not suit: offsets, rows or columns past 31 bits, or a tile touching
    // more rows than a warp stages (empty rows). TENSORSCOPE_SPTV_ROWS=tiles asks for it.
    template <class P>
    static std::unique_ptr<WarpTileRows> plan(std::uint64_t rows, std::uint64_t vlen, std::uint64_t nnz, const P* ptr,
                                              const std::uint32_t* col, const float* val, const float* dv,
                                              float* dout) {
        constexpr std::uint64_t kInt = std::uint64_t{1} << 31;
        if (!env_is("TENSORSCOPE_SPTV_ROWS", "tiles")) return nullptr;
        if (rows == 0 || nnz == 0 || rows >= kInt || nnz >= kInt || vlen >= kInt) return nullptr;
        std::unique_ptr<WarpTileRows> t(new WarpTileRows(rows, vlen, nnz, col, val, dv, dout));
        if constexpr (sizeof(P) == sizeof(std::int32_t)) {
            t->ptr_ = reinterpret_cast<const std::int32_t*>(ptr);
        } else {
            t->own_ptr_ = DeviceArray<std::int32_t>(rows + 1);
            convert_kernel<<<grid_for(rows + 1), 256>>>(rows + 1, ptr, t->own_ptr_.get());
            check(cudaGetLastError(), "narrowing the SpTV row offsets");
            t->ptr_ = t->own_ptr_.get();
        }
        return t->place() ? std::move(t) : nullptr;
    }

    void run() {
        const std::size_t bytes = offsets_bytes() + (shared_vector_ ? vlen_ * sizeof(float) : 0);
        if (shared_vector_)
            sptv_warp_tile_kernel<true><<<grid_, kTileThreads, bytes>>>(rows_, nnz_, tiles_, ptr_, first_.get(), col_,
                                                                        val_, v_, vlen_, out_, carry_.get());
        else
            sptv_warp_tile_kernel<false><<<grid_, kTileThreads, bytes>>>(rows_, nnz_, tiles_, ptr_, first_.get(), col_,
                                                                         val_, v_, vlen_, out_, carry_.get());
        warp_tile_carry_kernel<<<grid_for(tiles_), 256>>>(tiles_, rows_, carry_.get(), out_);
    }

private:
    WarpTileRows(std::uint64_t rows, std::uint64_t vlen, std::uint64_t nnz, const std::uint32_t* col, const float* val,
                 const float* dv, float* dout)
        : rows_(static_cast<std::uint32_t>(rows)),
          vlen_(static_cast<std::uint32_t>(vlen)),
          nnz_(static_cast<std::uint32_t>(nnz)),
          tiles_(static_cast<std::uint32_t>((nnz + kWarpNnz - 1) / kWarpNnz)),
          col_(col),
          val_(val),
          v_(dv),
          out_(dout) {}

    static constexpr std::size_t offsets_bytes() { return (kTileThreads / 32) * kWarpOffsets * sizeof(std::int32_t); }

    // Each tile's first row, whether every tile's offsets fit a warp's slice, the vector's place
    // and the grid; false where a tile's offsets do not fit.
    bool place() {
        first_ = DeviceArray<std::uint32_t>(tiles_ + 1);
        warp_tile_first_kernel<<<grid_for(tiles_ + 1), 256>>>(rows_, nnz_, tiles_, ptr_, first_.get());
        check(cudaGetLastError(), "placing the SpTV tiles");
        std::vector<std::uint32_t> first(tiles_ + 1);
        first_.download(first.data());
        for (std::uint32_t w = 0; w < tiles_; ++w)
            if (std::min<std::uint64_t>(first[w + 1] + 1ull, rows_) - first[w] + 1 > kWarpOffsets) return false;
        carry_ = DeviceArray<RowCarry>(tiles_);
        const std::size_t with_vector = offsets_bytes() + std::size_t{vlen_} * sizeof(float);
        shared_vector_ =
            with_vector <= static_cast<std::size_t>(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
        const std::size_t bytes = shared_vector_ ? with_vector : offsets_bytes();
        const auto kernel = shared_vector_ ? sptv_warp_tile_kernel<true> : sptv_warp_tile_kernel<false>;
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
              "sizing the SpTV tiles' shared memory");
        int per_sm = 0;
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kTileThreads, bytes),
              "sizing the SpTV tiles' grid");
        const std::uint64_t needed = (tiles_ + kTileThreads / 32 - 1) / (kTileThreads / 32);
        const std::uint64_t resident =
            static_cast<std::uint64_t>(per_sm > 0 ? per_sm : 1) * static_cast<std::uint64_t>(sm_count());
        grid_ = static_cast<int>(needed < resident ? needed : resident);
        return true;
    }

    std::uint32_t rows_, vlen_, nnz_, tiles_;
    DeviceArray<std::int32_t> own_ptr_;  // the 64-bit offsets narrowed, where they were given
    const std::int32_t* ptr_ = nullptr;
    const std::uint32_t* col_;
    const float* val_;
    const float* v_;
    float* out_;
    DeviceArray<std::uint32_t> first_;
    DeviceArray<RowCarry> carry_;
    bool shared_vector_ = false;
    int grid_ = 1;
};

}  // namespace
}  // namespace tscope::gpu
