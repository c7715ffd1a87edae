// HOCSR's SpTV in one pass with each block's tiles of rows copied into shared memory ahead of
// their use by the Hopper bulk copy engine (cp.async.bulk, the one-dimensional form of the Tensor
// Memory Accelerator; CUDA Programming Guide, "asynchronous data copies using TMA"), several tiles
// in flight a block (session 50; TENSORSCOPE_HOCSR=bulk). Private to engine/cuda (nvcc, C++17).
//
// Why: every one-pass kernel so far (sptv_tuples.cuh, sessions 22-49) waits on a chain of
// dependent loads: a thread reads its rows' offsets, then their nonzeros, then the vector. With
// that chain per thread, too few bytes are in flight to keep DRAM busy: Nsight Compute had the
// one pass at 52% DRAM busy on the uniform shape's mode 3 (session 49). Here one thread a block
// asks the copy engine for whole tiles (a tile's offsets, then the span of columns and values
// they point at) Stages - 1 tiles ahead of the one the block sums, so the block's loads of
// offsets and nonzeros no longer wait on one another; what is left per thread is the vector's
// gather, from L1 or L2.
//
// A tile is one of sptv_tuples.cuh's blocks of kTupleBlockRows rows, so the plan's block_base
// places its outputs. A tile whose nonzeros span more than a stage holds (a power-law tensor's
// long rows) is summed from global memory as sptv_tuple_kernel does; only its offsets are staged.
// The copy engine wants 16-byte aligned sources and sizes: a tile's offsets start at a multiple
// of 1,024 rows, and its span of nonzeros is widened to multiples of four entries, so HOCSR's
// offsets, columns and values are allocated three entries longer than they are (gpu_sptv.cu).
#pragma once

#include <cstdint>

#include <cub/device/device_scan.cuh>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "sptv_shared_vector.cuh"
#include "sptv_tuples.cuh"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

// A tile's offsets and the next tile's first, in whole 16-byte units.
constexpr std::uint32_t kBulkOffsets = kTupleBlockRows + 4;
// The nonzeros a stage holds: a tile's span widened to multiples of four, at most.
constexpr std::uint32_t kBulkNonzeros = kTupleBlockRows + 4;
constexpr std::uint32_t kBulkGlobal = 0xffffffffu;  // a stage whose nonzeros stay in global memory
constexpr int kBulkWarps = kTupleThreads / 32;      // the warps that sum, a warp of 128 rows a tile
constexpr std::uint32_t kWarpRows = 32 * kTupleRows;
constexpr int kBulkThreads = kTupleThreads + 32;  // and one warp that issues the copies

struct BulkStage {
    std::uint32_t off[kBulkOffsets];
    std::uint32_t col[kBulkNonzeros];
    float val[kBulkNonzeros];
};

template <int Stages>
struct BulkShared {
    BulkStage stage[Stages];
    unsigned long long full[Stages];   // mbarriers: a stage's copies landed
    unsigned long long empty[Stages];  // and its every summing warp is done with it
    std::uint32_t first[Stages];       // the stage's first staged nonzero, or kBulkGlobal
};

__device__ inline std::uint32_t shared_address(const void* p) { return static_cast<std::uint32_t>(__cvta_generic_to_shared(p)); }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ inline void bulk_barrier_init(unsigned long long* bar, std::uint32_t arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(arrivals) : "memory");
}
__device__ inline void bulk_arrive(unsigned long long* bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}
// The one arrival a stage's phase waits for, with the bytes its copies will bring.
__device__ inline void bulk_expect(unsigned long long* bar, std::uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes) : "memory");
}
__device__ inline void bulk_copy(void* dst, const void* src, std::uint32_t bytes, unsigned long long* bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(shared_address(dst)),
                 "l"(src), "r"(bytes), "r"(shared_address(bar))
                 : "memory");
}
__device__ inline void bulk_wait(unsigned long long* bar, std::uint32_t parity) {
    std::uint32_t done = 0;
    do {
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(shared_address(bar)), "r"(parity)
            : "memory");
    } while (!done);
}
// Orders the block's earlier reads of a stage (generic proxy) before the copy engine's writes.
__device__ inline void bulk_fence() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
#endif

// The nonzeros of the tile a warp sums: in the stage (first: the stage's first entry) or in
// global memory.
struct StagedNonzeros {
    const std::uint32_t* c;
    const float* x;
    std::uint32_t first;
    __device__ std::uint32_t col(std::uint32_t j) const { return c[j - first]; }
    __device__ float val(std::uint32_t j) const { return x[j - first]; }
};
struct GlobalNonzeros {
    const std::uint32_t* __restrict__ c;
    const float* __restrict__ x;
    __device__ std::uint32_t col(std::uint32_t j) const { return __ldg(c + j); }
    __device__ float val(std::uint32_t j) const { return __ldg(x + j); }
};

// A lane's kTupleRows rows of one tile (offsets at), summed into out from q on. Where none of
// them is long, their nonzeros (contiguous) are walked as one run four at a time, the four
// columns loaded, then the four vector entries, so that a lane's gathers are in flight together
// whatever its rows' lengths; else its short rows one by one. Rows of more than kShortRow
// nonzeros are summed by the whole warp afterwards (sptv_tuple_kernel's loop); every lane of the
// warp calls this.
template <class Nonzeros>
__device__ inline void bulk_lane_rows(const std::uint32_t (&at)[kTupleRows + 1], std::uint64_t q, const Nonzeros& nz,
                                      const float* __restrict__ v, float* __restrict__ out) {
    bool any_long = false;
#pragma unroll
    for (int k = 0; k < kTupleRows; ++k) any_long |= at[k + 1] - at[k] > kShortRow;
    float sum[kTupleRows] = {};
    if (!any_long) {
        for (std::uint32_t j = at[0]; j < at[kTupleRows]; j += 4) {
            std::uint32_t c[4];
            float x[4];
#pragma unroll
            for (int u = 0; u < 4; ++u) c[u] = j + u < at[kTupleRows] ? nz.col(j + u) : 0u;
#pragma unroll
            for (int u = 0; u < 4; ++u) x[u] = j + u < at[kTupleRows] ? nz.val(j + u) * __ldg(v + c[u]) : 0.0f;
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const std::uint32_t z = j + u;
                const int k = (z >= at[1]) + (z >= at[2]) + (z >= at[3]);
#pragma unroll
                for (int r = 0; r < kTupleRows; ++r) sum[r] += k == r ? x[u] : 0.0f;
            }
        }
    } else {
#pragma unroll
        for (int k = 0; k < kTupleRows; ++k)
            if (at[k + 1] - at[k] <= kShortRow)
                for (std::uint32_t j = at[k]; j < at[k + 1]; ++j) sum[k] += nz.val(j) * __ldg(v + nz.col(j));
    }
    const int lane = static_cast<int>(threadIdx.x & 31);
#pragma unroll
    for (int k = 0; k < kTupleRows; ++k) {
        const std::uint32_t b = at[k], e = at[k + 1];
        const bool is_long = e - b > kShortRow;
        if (e > b && !is_long) out[q] = sum[k];
        for (unsigned pending = __ballot_sync(0xffffffffu, is_long); pending; pending &= pending - 1) {
            const int owner = __ffs(pending) - 1;
            const std::uint32_t lb = __shfl_sync(0xffffffffu, b, owner), le = __shfl_sync(0xffffffffu, e, owner);
            const std::uint64_t lq = __shfl_sync(0xffffffffu, q, owner);
            float s = 0.0f;
            for (std::uint32_t j = lb + static_cast<std::uint32_t>(lane); j < le; j += 32) s += nz.val(j) * __ldg(v + nz.col(j));
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
            if (lane == 0) out[lq] = s;
        }
        q += e > b;
    }
}

// counts[w] = the non-empty rows among rows 128w .. 128w + 127 (a summing warp's share of a tile).
__global__ void __launch_bounds__(kTupleThreads) sptv_tuple_warp_count_kernel(std::uint64_t rows, const std::uint32_t* __restrict__ ptr,
                                                                              std::uint32_t* __restrict__ counts) {
    std::uint32_t n = TupleOffsets<std::uint32_t>(rows, ptr).kept();
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) n += __shfl_down_sync(0xffffffffu, n, d);
    if ((threadIdx.x & 31) == 0) counts[blockIdx.x * static_cast<std::uint64_t>(kBulkWarps) + threadIdx.x / 32] = n;
}

// The issuing warp's state: each lane holds the nonzero span (lo, hi) of one of 32 consecutive
// items of the block, loaded 32 items ahead of their issue, so that an issue never waits on a load.
template <int Stages>
struct BulkIssuer {
    std::uint64_t rows, tiles;
    const std::uint32_t* ptr;
    const std::uint32_t* col;
    const float* val;
    std::uint32_t lo = 0, hi = 0, next_lo = 0, next_hi = 0;

    __device__ std::uint64_t tile_of(std::uint64_t item) const { return blockIdx.x + item * gridDim.x; }
    __device__ void load_window(std::uint64_t window) {  // item window * 32 + lane's span, into next_lo / next_hi
        const std::uint64_t t = tile_of(window * 32 + (threadIdx.x & 31));
        if (t < tiles) {
            const std::uint64_t r0 = t * kTupleBlockRows, r1 = r0 + kTupleBlockRows < rows ? r0 + kTupleBlockRows : rows;
            next_lo = ptr[r0], next_hi = ptr[r1];
        }
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // The block's items in turn into stage item % Stages, each once the warps are done with the
    // stage's previous item; called by the whole issuing warp.
    __device__ void run(BulkShared<Stages>& sh) {
        load_window(0);
        lo = next_lo, hi = next_hi;
        load_window(1);
        for (std::uint64_t item = 0; tile_of(item) < tiles; ++item) {
            const int k = static_cast<int>(item % 32);
            if (k == 0 && item) {
                lo = next_lo, hi = next_hi;
                load_window(item / 32 + 1);
            }
            const std::uint32_t zlo = __shfl_sync(0xffffffffu, lo, k), zhi = __shfl_sync(0xffffffffu, hi, k);
            if ((threadIdx.x & 31) == 0) issue(item, zlo, zhi, sh);
            __syncwarp();
        }
    }
    __device__ void issue(std::uint64_t item, std::uint32_t zlo, std::uint32_t zhi, BulkShared<Stages>& sh) {
        const int s = static_cast<int>(item % Stages);
        if (item >= Stages) bulk_wait(&sh.empty[s], static_cast<std::uint32_t>((item / Stages - 1) & 1));
        const std::uint64_t r0 = tile_of(item) * kTupleBlockRows;
        const std::uint64_t n = rows - r0 < kTupleBlockRows ? rows - r0 : kTupleBlockRows;
        const auto offsets = static_cast<std::uint32_t>((n + 1 + 3) / 4 * 4);
        const std::uint32_t a = zlo & ~3u, span = ((zhi + 3u) & ~3u) - a;
        const bool staged = span <= kBulkNonzeros;
        sh.first[s] = staged ? a : kBulkGlobal;
        BulkStage& st = sh.stage[s];
        bulk_fence();
        bulk_expect(&sh.full[s], offsets * 4 + (staged ? span * 8 : 0));
        bulk_copy(st.off, ptr + r0, offsets * 4, &sh.full[s]);
        if (staged && span) {
            bulk_copy(st.col, col + a, span * 4, &sh.full[s]);
            bulk_copy(st.val, val + a, span * 4, &sh.full[s]);
        }
    }
#endif
};

// out[q] = the q-th non-empty row's nonzeros times v, as sptv_tuple_kernel, over tiles taken by
// blocks in turn (tile blockIdx.x + i * gridDim.x), Stages of them in flight a block: the last
// warp issues the copies, the others each sum 128 rows of every tile, placed by warp_base (the
// non-empty rows before each warp's share, counted when the plan is made), so that no warp waits
// on another but for a stage to be free. The launch gives sizeof(BulkShared<Stages>) bytes of
// dynamic shared memory; sm_90 and up (the plan checks).
template <int Stages>
__global__ void __launch_bounds__(kBulkThreads)
    sptv_tuple_bulk_kernel(std::uint64_t rows, const std::uint32_t* __restrict__ ptr, const std::uint32_t* __restrict__ col,
                           const float* __restrict__ val, const float* __restrict__ v,
                           const std::uint32_t* __restrict__ warp_base, float* __restrict__ out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char bulk_bytes[];
    auto& sh = *reinterpret_cast<BulkShared<Stages>*>(bulk_bytes);
    const std::uint64_t tiles = (rows + kTupleBlockRows - 1) / kTupleBlockRows;
    const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x & 31);
    if (threadIdx.x == 0)
        for (int s = 0; s < Stages; ++s) bulk_barrier_init(&sh.full[s], 1), bulk_barrier_init(&sh.empty[s], kBulkWarps);
    __syncthreads();
    BulkIssuer<Stages> is{rows, tiles, ptr, col, val};
    if (warp == kBulkWarps) {
        is.run(sh);
        return;
    }
    for (std::uint64_t item = 0;; ++item) {
        const std::uint64_t t = is.tile_of(item);
        if (t >= tiles) break;
        const int s = static_cast<int>(item % Stages);
        bulk_wait(&sh.full[s], static_cast<std::uint32_t>((item / Stages) & 1));
        const BulkStage& st = sh.stage[s];
        const std::uint64_t n = rows - t * kTupleBlockRows < kTupleBlockRows ? rows - t * kTupleBlockRows : kTupleBlockRows;
        std::uint32_t at[kTupleRows + 1];
        const std::uint32_t r = threadIdx.x * kTupleRows;
        if (r + kTupleRows <= n) {
            const uint4 a = *reinterpret_cast<const uint4*>(st.off + r);
            at[0] = a.x, at[1] = a.y, at[2] = a.z, at[3] = a.w;
        } else {
#pragma unroll
            for (int k = 0; k < kTupleRows; ++k) at[k] = st.off[r + k < n ? r + k : n];
        }
        at[kTupleRows] = st.off[r + kTupleRows < n ? r + kTupleRows : n];
        std::uint32_t kept = 0;
#pragma unroll
        for (int k = 0; k < kTupleRows; ++k) kept += at[k + 1] > at[k];
        std::uint32_t upto = kept;  // the warp's inclusive scan of kept
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const std::uint32_t x = __shfl_up_sync(0xffffffffu, upto, d);
            if (lane >= d) upto += x;
        }
        const std::uint64_t q = std::uint64_t{warp_base[t * kBulkWarps + warp]} + (upto - kept);
        const std::uint32_t first = sh.first[s];
        if (first != kBulkGlobal)
            bulk_lane_rows(at, q, StagedNonzeros{st.col, st.val, first}, v, out);
        else
            bulk_lane_rows(at, q, GlobalNonzeros{col, val}, v, out);
        __syncwarp();
        if (lane == 0) bulk_arrive(&sh.empty[s]);
    }
#endif
}

// The one pass above for a HOCSR of `rows` tuples whose 32-bit offsets, columns and values are
// allocated three entries longer than they are; Stages from TENSORSCOPE_HOCSR_STAGES (2-4,
// default 2). Its grid is what stays resident; the plan counts each warp's base here.
class BulkTuples {
public:
    // Whether the current device has the copy engine (sm_90 and up).
    static bool available() { return device_attribute(cudaDevAttrComputeCapabilityMajor) >= 9; }

    BulkTuples(std::uint64_t rows, const std::uint32_t* ptr, const std::uint32_t* col, const float* val, const float* v, float* out)
        : rows_(rows), ptr_(ptr), col_(col), val_(val), v_(v), out_(out) {
        const std::uint64_t tiles = (rows + kTupleBlockRows - 1) / kTupleBlockRows, groups = tiles * kBulkWarps;
        base_ = DeviceArray<std::uint32_t>(groups + 1);
        base_.zero();
        if (tiles) {
            sptv_tuple_warp_count_kernel<<<static_cast<unsigned>(tiles), kTupleThreads>>>(rows, ptr, base_.get());
            check(cudaGetLastError(), "counting HOCSR's non-empty rows a warp");
            std::size_t bytes = 0;
            check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, base_.get(), base_.get(), groups + 1), "sizing the scan");
            DeviceArray<unsigned char> temp(bytes);
            check(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, base_.get(), base_.get(), groups + 1), "placing HOCSR's outputs");
        }
        const unsigned long asked = env_unsigned("TENSORSCOPE_HOCSR_STAGES", 2);
        stages_ = asked < 2 ? 2 : asked > 4 ? 4 : static_cast<int>(asked);
        if (stages_ == 2) prepare<2>();
        else if (stages_ == 3) prepare<3>();
        else prepare<4>();
    }
    void run(cudaStream_t stream) const {
        if (!grid_) return;
        if (stages_ == 2) launch<2>(stream);
        else if (stages_ == 3) launch<3>(stream);
        else launch<4>(stream);
    }

private:
    template <int S>
    void prepare() {
        const std::size_t bytes = sizeof(BulkShared<S>);
        check(cudaFuncSetAttribute(sptv_tuple_bulk_kernel<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
              "sizing HOCSR's bulk kernel's shared memory");
        grid_ = resident_grid(sptv_tuple_bulk_kernel<S>, kBulkThreads, bytes, (rows_ + kTupleBlockRows - 1) / kTupleBlockRows);
    }
    template <int S>
    void launch(cudaStream_t stream) const {
        sptv_tuple_bulk_kernel<S><<<grid_, kBulkThreads, sizeof(BulkShared<S>), stream>>>(rows_, ptr_, col_, val_, v_, base_.get(), out_);
    }
    std::uint64_t rows_;
    const std::uint32_t* ptr_;
    const std::uint32_t* col_;
    const float* val_;
    const float* v_;
    float* out_;
    DeviceArray<std::uint32_t> base_;
    int stages_ = 2;
    int grid_ = 0;
};

}  // namespace
}  // namespace tscope::gpu
