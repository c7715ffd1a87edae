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

#include <cub/block/block_scan.cuh>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "sptv_shared_vector.cuh"
#include "sptv_tuples.cuh"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

// A tile's offsets and the next tile's first, in whole 16-byte units.
constexpr std::uint32_t kBulkOffsets = kTupleBlockRows + 4;
// The nonzeros a stage holds: a tile's span widened to multiples of four, at most.
constexpr std::uint32_t kBulkNonzeros = 2 * kTupleBlockRows + 4;
constexpr std::uint32_t kBulkGlobal = 0xffffffffu;  // a stage whose nonzeros stay in global memory

struct BulkStage {
    std::uint32_t off[kBulkOffsets];
    std::uint32_t col[kBulkNonzeros];
    float val[kBulkNonzeros];
};

template <int Stages>
struct BulkShared {
    BulkStage stage[Stages];
    unsigned long long full[Stages];  // mbarriers: a stage's copies landed
    std::uint32_t first[Stages];      // the stage's first staged nonzero, or kBulkGlobal
    typename cub::BlockScan<std::uint32_t, kTupleThreads, kTupleScan>::TempStorage scan;
};

__device__ inline std::uint32_t shared_address(const void* p) { return static_cast<std::uint32_t>(__cvta_generic_to_shared(p)); }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ inline void bulk_barrier_init(unsigned long long* bar) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(bar)) : "memory");
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

// The nonzeros of the tile a thread sums: in the stage (first: the stage's first entry) or in
// global memory.
struct StagedNonzeros {
    const std::uint32_t* col;
    const float* val;
    std::uint32_t first;
    __device__ float product(std::uint64_t j, const float* __restrict__ v) const {
        const auto k = static_cast<std::uint32_t>(j) - first;
        return val[k] * __ldg(v + col[k]);
    }
};
struct GlobalNonzeros {
    const std::uint32_t* __restrict__ col;
    const float* __restrict__ val;
    __device__ float product(std::uint64_t j, const float* __restrict__ v) const { return __ldg(val + j) * __ldg(v + __ldg(col + j)); }
};

// A thread's kTupleRows rows of one tile, summed into out from q on: short rows alone, the warp's
// long rows together (sptv_tuple_kernel's loop, its nonzeros read from `nz`).
template <class Nonzeros>
__device__ inline void bulk_sum_rows(const std::uint32_t (&at)[kTupleRows + 1], std::uint64_t q, const Nonzeros& nz,
                                     const float* __restrict__ v, float* __restrict__ out) {
    const int lane = static_cast<int>(threadIdx.x & 31);
#pragma unroll
    for (int k = 0; k < kTupleRows; ++k) {
        const std::uint32_t b = at[k], e = at[k + 1];
        const bool is_long = e - b > kShortRow;
        if (e > b && !is_long) {
            float sum = 0.0f;
            for (std::uint32_t j = b; j < e; ++j) sum += nz.product(j, v);
            out[q] = sum;
        }
        for (unsigned pending = __ballot_sync(0xffffffffu, is_long); pending; pending &= pending - 1) {
            const int owner = __ffs(pending) - 1;
            const std::uint32_t lb = __shfl_sync(0xffffffffu, b, owner), le = __shfl_sync(0xffffffffu, e, owner);
            const std::uint64_t lq = __shfl_sync(0xffffffffu, q, owner);
            float sum = 0.0f;
            for (std::uint32_t j = lb + static_cast<std::uint32_t>(lane); j < le; j += 32) sum += nz.product(j, v);
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, d);
            if (lane == 0) out[lq] = sum;
        }
        q += e > b;
    }
}

// Warp 0's issue of the block's item-th tile into stage item % Stages. Each lane holds the
// nonzero span (lo, hi) of one of 32 consecutive items, loaded 32 items ahead of their issue, so
// the issue never waits on a load.
template <int Stages>
struct BulkIssuer {
    std::uint64_t rows, tiles;
    const std::uint32_t* ptr;
    const std::uint32_t* col;
    const float* val;
    std::uint32_t lo = 0, hi = 0, next_lo = 0, next_hi = 0;

    __device__ std::uint64_t tile_of(std::uint64_t item) const { return blockIdx.x + item * gridDim.x; }
    // lane's span for item `window * 32 + lane`, into next_lo / next_hi
    __device__ void load_window(std::uint64_t window) {
        const std::uint64_t t = tile_of(window * 32 + (threadIdx.x & 31));
        if (t < tiles) {
            const std::uint64_t r0 = t * kTupleBlockRows, r1 = r0 + kTupleBlockRows < rows ? r0 + kTupleBlockRows : rows;
            next_lo = ptr[r0], next_hi = ptr[r1];
        }
    }
    __device__ void start() {
        load_window(0);
        lo = next_lo, hi = next_hi;
        load_window(1);
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // Called by all of warp 0 (the spans pass by shuffles).
    __device__ void issue(std::uint64_t item, BulkShared<Stages>& sh) {
        const int k = static_cast<int>(item % 32);
        if (k == 0 && item) {
            lo = next_lo, hi = next_hi;
            load_window(item / 32 + 1);
        }
        const std::uint32_t zlo = __shfl_sync(0xffffffffu, lo, k), zhi = __shfl_sync(0xffffffffu, hi, k);
        const std::uint64_t t = tile_of(item);
        if (threadIdx.x != 0 || t >= tiles) return;
        const int s = static_cast<int>(item % Stages);
        BulkStage& st = sh.stage[s];
        const std::uint64_t r0 = t * kTupleBlockRows;
        const std::uint64_t n = rows - r0 < kTupleBlockRows ? rows - r0 : kTupleBlockRows;
        const auto offsets = static_cast<std::uint32_t>((n + 1 + 3) / 4 * 4);
        const std::uint32_t a = zlo & ~3u, span = ((zhi + 3u) & ~3u) - a;
        const bool staged = span <= kBulkNonzeros;
        sh.first[s] = staged ? a : kBulkGlobal;
        const std::uint32_t bytes = offsets * 4 + (staged ? span * 8 : 0);
        bulk_fence();
        bulk_expect(&sh.full[s], bytes);
        bulk_copy(st.off, ptr + r0, offsets * 4, &sh.full[s]);
        if (staged && span) {
            bulk_copy(st.col, col + a, span * 4, &sh.full[s]);
            bulk_copy(st.val, val + a, span * 4, &sh.full[s]);
        }
    }
#endif
};

// out[q] = the q-th non-empty row's nonzeros times v, as sptv_tuple_kernel, over tiles taken by
// blocks in turn (tile blockIdx.x + i * gridDim.x), Stages of them in flight a block. The launch
// gives sizeof(BulkShared<Stages>) bytes of dynamic shared memory; sm_90 and up (the plan checks).
template <int Stages>
__global__ void __launch_bounds__(kTupleThreads)
    sptv_tuple_bulk_kernel(std::uint64_t rows, const std::uint32_t* __restrict__ ptr, const std::uint32_t* __restrict__ col,
                           const float* __restrict__ val, const float* __restrict__ v,
                           const std::uint64_t* __restrict__ block_base, float* __restrict__ out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char bulk_bytes[];
    auto& sh = *reinterpret_cast<BulkShared<Stages>*>(bulk_bytes);
    const std::uint64_t tiles = (rows + kTupleBlockRows - 1) / kTupleBlockRows;
    const bool issuer = threadIdx.x < 32;
    BulkIssuer<Stages> is{rows, tiles, ptr, col, val};
    if (threadIdx.x == 0)
        for (int s = 0; s < Stages; ++s) bulk_barrier_init(&sh.full[s]);
    __syncthreads();
    if (issuer) {
        is.start();
        for (int s = 0; s < Stages; ++s) is.issue(static_cast<std::uint64_t>(s), sh);
    }
    using Scan = cub::BlockScan<std::uint32_t, kTupleThreads, kTupleScan>;
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
        std::uint32_t kept = 0, before = 0;
#pragma unroll
        for (int k = 0; k < kTupleRows; ++k) kept += at[k + 1] > at[k];
        Scan(sh.scan).ExclusiveSum(kept, before);
        const std::uint64_t q = block_base[t] + before;
        const std::uint32_t first = sh.first[s];
        if (first != kBulkGlobal)
            bulk_sum_rows(at, q, StagedNonzeros{st.col, st.val, first}, v, out);
        else
            bulk_sum_rows(at, q, GlobalNonzeros{col, val}, v, out);
        __syncthreads();  // the stage and the scan's storage are free again
        if (issuer) is.issue(item + Stages, sh);
    }
#endif
}

// The one pass above for a HOCSR of `rows` tuples whose 32-bit offsets, columns and values are
// allocated three entries longer than they are; Stages from TENSORSCOPE_HOCSR_STAGES (2-4,
// default 3). Its grid is what stays resident.
class BulkTuples {
public:
    // Whether the current device has the copy engine (sm_90 and up).
    static bool available() { return device_attribute(cudaDevAttrComputeCapabilityMajor) >= 9; }

    BulkTuples(std::uint64_t rows, const std::uint32_t* ptr, const std::uint32_t* col, const float* val, const float* v,
               const std::uint64_t* block_base, float* out)
        : rows_(rows), ptr_(ptr), col_(col), val_(val), v_(v), base_(block_base), out_(out) {
        const unsigned long asked = env_unsigned("TENSORSCOPE_HOCSR_STAGES", 3);
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
        grid_ = resident_grid(sptv_tuple_bulk_kernel<S>, kTupleThreads, bytes, (rows_ + kTupleBlockRows - 1) / kTupleBlockRows);
    }
    template <int S>
    void launch(cudaStream_t stream) const {
        sptv_tuple_bulk_kernel<S><<<grid_, kTupleThreads, sizeof(BulkShared<S>), stream>>>(rows_, ptr_, col_, val_, v_, base_, out_);
    }
    std::uint64_t rows_;
    const std::uint32_t* ptr_;
    const std::uint32_t* col_;
    const float* val_;
    const float* v_;
    const std::uint64_t* base_;
    float* out_;
    int stages_ = 3;
    int grid_ = 0;
};

}  // namespace
}  // namespace tscope::gpu
