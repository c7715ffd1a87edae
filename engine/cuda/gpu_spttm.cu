// CUDA SpTTM: the five implementations of spttm Sec. 4.2 side by side (Alg. 2, Alg. 3, its
// coalesced and rank-blocked rearrangements, Alg. 4), a sixth of ours (warp batches), and
// SspTTM with a block per output chunk (Sec. 5). Variants 1-4 accumulate into global memory as
// the paper writes them; only the shared-memory one keeps partial sums on chip, which is the
// point of comparing them. A seventh is the library's: cuSPARSE's CSR SpMM.
#include <memory>
#include <vector>

#include "cuda_util.cuh"
#include "gpu_spttm.hpp"
#include "piece_ranges.cuh"
#include "sparse_library.cuh"
#include "spttm_fiber_teams.cuh"

namespace tscope::gpu {

namespace {

constexpr int kThreads = 256;  // N_TB

// Alg. 2: one thread per fiber, all R columns.
__global__ void naive_kernel(std::uint64_t fibers, std::uint64_t R, const std::uint64_t* __restrict__ fptr,
                             const std::uint32_t* __restrict__ idx, const float* __restrict__ val, const float* __restrict__ u,
                             float* __restrict__ y) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i >= fibers) return;
    for (std::uint64_t j = fptr[i]; j < fptr[i + 1]; ++j) {
        const std::uint64_t k = idx[j];
        for (std::uint64_t r = 0; r < R; ++r) y[i * R + r] += val[j] * u[k * R + r];
    }
}

// Alg. 3 (fine granularity): x over fibers, y over a segment of the columns.
__global__ void fine_kernel(std::uint64_t fibers, std::uint64_t R, const std::uint64_t* __restrict__ fptr,
                            const std::uint32_t* __restrict__ idx, const float* __restrict__ val, const float* __restrict__ u,
                            float* __restrict__ y) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i >= fibers) return;
    for (std::uint64_t j = fptr[i]; j < fptr[i + 1]; ++j) {
        const std::uint64_t k = idx[j];
        for (std::uint64_t r = threadIdx.y; r < R; r += blockDim.y) y[i * R + r] += val[j] * u[k * R + r];
    }
}

// Sec. 4.2.3 (coalesced): x over columns, y over fibers, so a warp reads a row of U at once.
__global__ void coalesced_kernel(std::uint64_t fibers, std::uint64_t R, const std::uint64_t* __restrict__ fptr,
                                 const std::uint32_t* __restrict__ idx, const float* __restrict__ val,
                                 const float* __restrict__ u, float* __restrict__ y) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.y) + threadIdx.y;
    if (i >= fibers) return;
    for (std::uint64_t j = fptr[i]; j < fptr[i + 1]; ++j) {
        const std::uint64_t k = idx[j];
        for (std::uint64_t r = threadIdx.x; r < R; r += blockDim.x) y[i * R + r] += val[j] * u[k * R + r];
    }
}

// Sec. 4.2.4 (rank blocking): the column loop outside the nonzero loop, so one batch of
// columns of the rows of U is reused across the fiber before the next batch.
__global__ void rank_blocked_kernel(std::uint64_t fibers, std::uint64_t R, const std::uint64_t* __restrict__ fptr,
                                    const std::uint32_t* __restrict__ idx, const float* __restrict__ val,
                                    const float* __restrict__ u, float* __restrict__ y) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.y) + threadIdx.y;
    if (i >= fibers) return;
    for (std::uint64_t r = threadIdx.x; r < R; r += blockDim.x)
        for (std::uint64_t j = fptr[i]; j < fptr[i + 1]; ++j) y[i * R + r] += val[j] * u[static_cast<std::uint64_t>(idx[j]) * R + r];
}

// Alg. 4 (shared memory): partial sums in y_shr(tidy, tidx), written once per column batch.
__global__ void shared_kernel(std::uint64_t fibers, std::uint64_t R, const std::uint64_t* __restrict__ fptr,
                              const std::uint32_t* __restrict__ idx, const float* __restrict__ val, const float* __restrict__ u,
                              float* __restrict__ y) {
    extern __shared__ float y_shr[];
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.y) + threadIdx.y;
    float& mine = y_shr[threadIdx.y * blockDim.x + threadIdx.x];
    for (std::uint64_t base = 0; base < R; base += blockDim.x) {  // every thread runs the same batches
        const std::uint64_t r = base + threadIdx.x;
        mine = 0.0f;
        __syncthreads();
        if (i < fibers && r < R)
            for (std::uint64_t j = fptr[i]; j < fptr[i + 1]; ++j) mine += val[j] * u[static_cast<std::uint64_t>(idx[j]) * R + r];
        __syncthreads();
        if (i < fibers && r < R) y[i * R + r] = mine;
        __syncthreads();
    }
}

// Warp batches (ours, not the paper's: Alg. 4's loop with a warp's loads batched). Every
// kernel above walks one fiber's nonzeros one by one, and each step waits for idx[j] and then
// for U's row: on fibers of a few nonzeros that is a few memory latencies per fiber, bound by
// latency far from the bandwidth; and a power-law tensor's longest fibers (thousands of
// nonzeros) leave one warp walking long after the others are done. Here a group of lanes takes
// a segment of consecutive nonzeros, whatever fibers they belong to; they are loaded a lane
// each (coalesced) and broadcast by shuffles; several rows of U are requested before the first
// is used; each lane keeps V columns' running sums. A fiber's row is stored by the group that
// holds its first nonzero; a group whose first fiber began in an earlier segment leaves that
// share in carry (R values), added once every owner has stored (piece_ranges.cuh). So Y needs
// no clearing, and atomics only for the carried shares.
//
// Group width (WarpBatchShape): with a lane per column (V = 1) the whole warp walks one
// nonzero at a time, and the walk costs about a dozen instructions a nonzero (two shuffles, the
// address, the load, the fiber test), issued once per nonzero for 32 columns. Where R is a
// multiple of 4 a lane holds four columns (float4: one 16-byte load of U and one 16-byte store
// of Y), so 8 lanes cover 32 columns and a warp walks four segments at once: a quarter of the
// instructions a nonzero. Measured on one H200 (session 22, rank 32, a mode's range):
//   nell-2 shape   V = 1: 3.19-3.35 ms (27-31% of the copy bound); V = 4: 2.13-2.30 ms (40-45%)
//   uniform shape  V = 1: 4.47-4.88 ms (46-50%);                   V = 4: 3.57-3.98 ms (57-61%)
// (docs/bench/h200-issue19-session22-*.json). The V = 4 constants were picked in the same call
// from four builds: 4 gathers in flight a group at 4 blocks an SM (61 registers), 128 nonzeros
// a group; 64 nonzeros 2.25-2.41 ms on nell-2, 2 gathers at 5 blocks 2.25-2.36, 8 gathers at 3
// blocks 2.51-2.70. Reading the tensor and writing Y as streaming accesses (ld.global.cs,
// st.global.cs), so that L1 would keep U's rows, and with U's rows also loaded with
// L1::evict_last (64 registers, no spill), ran slower (session 30, 82b9124,
// TENSORSCOPE_SPTTM_LOADS=stream|keep, h200-issue19-session30.json call 2): on the nell-2 shape
// 2.16-2.36 ms a mode either way against 2.14-2.30; removed.
//
// Occupancy (V = 1): positions in a segment and fibers counted from its first are 32-bit, 8
// gathers are in flight, and the kernel is bounded to 5 resident blocks (48 registers): 3.20-3.36
// ms a mode on the nell-2 shape (H100, rank 32) against 4.24-4.38 ms for a 64-bit kernel with 16
// gathers (78 registers, three blocks), in the same call; 32-bit with 16 gathers at four blocks
// 3.52-3.70, with 8 at four 3.40-3.53 (docs/bench/h100-issue19-session19.json).
template <int V>
struct WarpBatchShape;
template <>
struct WarpBatchShape<1> {
    using Cols = float;
    static constexpr int kGathers = 8, kBlocks = 5;  // kBlocks: resident blocks an SM
    static constexpr std::uint32_t kSegment = 256;  // nonzeros a group (here the warp) walks
    static __device__ Cols zero() { return 0.0f; }
    static __device__ Cols row(const float* p) { return *p; }
    static __device__ void store(float* p, Cols c) { *p = c; }
    static __device__ Cols scaled(float x, Cols c) { return x * c; }
    static __device__ void add(Cols& a, Cols b) { a += b; }
};
template <>
struct WarpBatchShape<4> {
    using Cols = float4;
    static constexpr int kGathers = 4, kBlocks = 4;
    static constexpr std::uint32_t kSegment = 128;  // a warp walks 4 x 128
    static __device__ Cols zero() { return make_float4(0.0f, 0.0f, 0.0f, 0.0f); }
    static __device__ Cols row(const float* p) { return __ldg(reinterpret_cast<const float4*>(p)); }
    static __device__ void store(float* p, Cols c) { *reinterpret_cast<float4*>(p) = c; }
    static __device__ Cols scaled(float x, Cols c) { return make_float4(x * c.x, x * c.y, x * c.z, x * c.w); }
    static __device__ void add(Cols& a, Cols b) { a.x += b.x, a.y += b.y, a.z += b.z, a.w += b.w; }
};

// V = 4 needs R % 4 == 0: U's and Y's rows then start on 16 bytes (cudaMalloc aligns more).
bool four_columns_a_lane(std::uint64_t R) { return R % 4 == 0; }
std::uint64_t batch_segment(std::uint64_t R) {
    return four_columns_a_lane(R) ? WarpBatchShape<4>::kSegment : WarpBatchShape<1>::kSegment;
}

template <int V>
__global__ void __launch_bounds__(kThreads, WarpBatchShape<V>::kBlocks) warp_batch_kernel(std::uint64_t nnz, std::uint64_t fibers, std::uint64_t R,
                                                              const std::uint64_t* __restrict__ fptr,
                                                              const std::uint64_t* __restrict__ seg_fiber,
                                                              const std::uint32_t* __restrict__ idx, const float* __restrict__ val,
                                                              const float* __restrict__ u, float* __restrict__ y,
                                                              float* __restrict__ carry) {
    using S = WarpBatchShape<V>;
    constexpr int G = 32 / V;  // lanes in a group: together they hold 32 columns
    constexpr std::uint32_t kSegment = S::kSegment;
    constexpr int kGathers = S::kGathers;
    // shuffles name only the group's lanes: the groups of a warp leave their loops at different
    // times (the last segment is short)
    const unsigned group_mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (threadIdx.x & 31u & ~static_cast<unsigned>(G - 1));
    const int lane = static_cast<int>(threadIdx.x & static_cast<unsigned>(G - 1));
    const std::uint64_t w = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / G;
    const std::uint64_t j_begin = w * kSegment;
    if (j_begin >= nnz) return;  // the whole group together
    // positions within the segment and fibers counted from its first in 32 bits: 64-bit ones
    // held the V = 1 kernel at 78 registers, three blocks an SM
    const auto len = static_cast<std::uint32_t>(nnz - j_begin < kSegment ? nnz - j_begin : kSegment);
    const std::uint64_t first = seg_fiber[w];
    const bool began_earlier = fptr[first] < j_begin;
    const std::uint32_t* __restrict__ seg_idx = idx + j_begin;
    const float* __restrict__ seg_val = val + j_begin;
    const auto end_of = [&](std::uint32_t k) -> std::uint32_t {  // fiber first + k's end in the segment, at most len
        const std::uint64_t f = first + k < fibers ? first + k : fibers - 1;
        const std::uint64_t e = fptr[f + 1] - j_begin;  // > 0: fiber first holds j_begin
        return e < len ? static_cast<std::uint32_t>(e) : len;
    };
    for (std::uint64_t c0 = 0; c0 < R; c0 += 32) {  // 32 columns of Y at a time, V a lane
        const std::uint64_t r = c0 + static_cast<std::uint64_t>(lane) * V;
        const bool has_col = r < R;  // all V of them: R % V == 0
        // the ends of G fibers from `window` on, a lane each, reloaded when the walk passes them
        std::uint32_t fiber = 0, window = 0;  // counted from `first`
        std::uint32_t lane_end = end_of(static_cast<std::uint32_t>(lane));
        std::uint32_t fiber_end = __shfl_sync(group_mask, lane_end, 0, G);
        bool carried = began_earlier;
        typename S::Cols acc = S::zero();
        const auto flush = [&] {
            if (!has_col) return;
            if (carried) S::store(carry + w * R + r, acc);
            else S::store(y + (first + fiber) * R + r, acc);
        };
        for (std::uint32_t j0 = 0; j0 < len; j0 += G) {
            const int n = len - j0 < G ? static_cast<int>(len - j0) : G;
            const std::uint32_t k_lane = lane < n ? seg_idx[j0 + lane] : 0;
            const float x_lane = lane < n ? seg_val[j0 + lane] : 0.0f;
            for (int q0 = 0; q0 < n; q0 += kGathers) {
                typename S::Cols g[kGathers];
#pragma unroll
                for (int s = 0; s < kGathers; ++s) {  // the gathers first, all in flight at once
                    const int q = q0 + s;
                    const std::uint32_t k = __shfl_sync(group_mask, k_lane, q & (G - 1), G);
                    const float x = __shfl_sync(group_mask, x_lane, q & (G - 1), G);
                    g[s] = q < n && has_col ? S::scaled(x, S::row(u + static_cast<std::uint64_t>(k) * R + r)) : S::zero();
                }
#pragma unroll
                for (int s = 0; s < kGathers; ++s) {
                    if (q0 + s >= n) break;
                    if (j0 + static_cast<std::uint32_t>(q0 + s) >= fiber_end) {  // the walk leaves a fiber: its share is done
                        flush();
                        carried = false, acc = S::zero(), ++fiber;
                        if (fiber - window == G) {
                            window = fiber;
                            lane_end = end_of(window + static_cast<std::uint32_t>(lane));
                        }
                        fiber_end = __shfl_sync(group_mask, lane_end, static_cast<int>(fiber - window), G);
                    }
                    S::add(acc, g[s]);
                }
            }
        }
        flush();  // the last fiber met: whole, or its share of one that goes on
    }
}

// Sec. 5: a block per output chunk; thread t owns entries t, t + blockDim, ... of the chunk
// (entry e = c * sy + k: column c of U, position k of the input chunks).
// A block strides over the chunks: there may be more than a grid's 2^31-1 blocks (sweep 71a F5).
__global__ void sspttm_kernel(std::uint64_t chunks, std::uint64_t sy, std::uint64_t R,
                              const std::uint64_t* __restrict__ cptr, const std::uint64_t* __restrict__ order,
                              const std::uint32_t* __restrict__ idx, const float* __restrict__ val,
                              const float* __restrict__ u, float* __restrict__ z) {
    const std::uint64_t sz = R * sy;
    for (std::uint64_t i = blockIdx.x; i < chunks; i += gridDim.x)
        for (std::uint64_t e = threadIdx.x; e < sz; e += blockDim.x) {
            const std::uint64_t c = e / sy, k = e % sy;
            float sum = 0.0f;
            for (std::uint64_t q = cptr[i]; q < cptr[i + 1]; ++q) {
                const std::uint64_t j = order[q];
                sum += val[j * sy + k] * u[static_cast<std::uint64_t>(idx[j]) * R + c];
            }
            z[i * sz + e] = sum;
        }
}

// SpTTM on X sorted with mode n last as a library call: the fibers are the rows of a sparse
// matrix A (fibers x I_n, CSR = fptr, idx, val) and Y = A U, cuSPARSE's CSR SpMM with U and Y
// row-major, as the plan keeps them. The plan's arrays stay (the other kernels read them).
class CsrSpmm {
public:
    CsrSpmm(std::uint64_t fibers, std::uint64_t u_rows, std::uint64_t rank, std::uint64_t nnz, std::uint64_t* fptr, std::uint32_t* idx,
            float* val, float* u, float* out)
        : csr_(fibers, u_rows, nnz, fptr, idx, val) {
        const auto r = static_cast<std::int64_t>(rank);
        check_sparse(cusparseCreateDnMat(&u_, static_cast<std::int64_t>(u_rows), r, r, u, CUDA_R_32F, CUSPARSE_ORDER_ROW), "describing U");
        check_sparse(cusparseCreateDnMat(&y_, static_cast<std::int64_t>(fibers), r, r, out, CUDA_R_32F, CUSPARSE_ORDER_ROW),
                     "describing Y");
        std::size_t bytes = 0;
        check_sparse(cusparseSpMM_bufferSize(csr_.handle(), kOp, kOp, &one_, csr_.matrix(), u_, &zero_, y_, CUDA_R_32F, kAlg, &bytes),
                     "sizing its buffer");
        buffer_ = DeviceArray<std::uint8_t>(bytes);
        check_sparse(cusparseSpMM_preprocess(csr_.handle(), kOp, kOp, &one_, csr_.matrix(), u_, &zero_, y_, CUDA_R_32F, kAlg, buffer_.get()),
                     "preparing the SpMM");
    }
    ~CsrSpmm() {
        cusparseDestroyDnMat(y_);
        cusparseDestroyDnMat(u_);
    }
    CsrSpmm(const CsrSpmm&) = delete;
    CsrSpmm& operator=(const CsrSpmm&) = delete;
    void run() {  // beta 0: Y is overwritten, no clearing pass
        check_sparse(cusparseSpMM(csr_.handle(), kOp, kOp, &one_, csr_.matrix(), u_, &zero_, y_, CUDA_R_32F, kAlg, buffer_.get()),
                     "in its SpMM");
    }

private:
    static constexpr cusparseOperation_t kOp = CUSPARSE_OPERATION_NON_TRANSPOSE;
    static constexpr cusparseSpMMAlg_t kAlg = CUSPARSE_SPMM_ALG_DEFAULT;
    const float one_ = 1.0f, zero_ = 0.0f;
    DeviceCsr csr_;
    DeviceArray<std::uint8_t> buffer_;
    cusparseDnMatDescr_t u_ = nullptr, y_ = nullptr;
};

}  // namespace

struct SpttmDevice::Impl {
    bool semi = false;
    std::uint64_t items = 0, sy = 1, u_rows = 0, rank = 0;  // items: fibers or output chunks
    std::uint64_t nnz = 0;
    DeviceArray<std::uint64_t> ptr, order, seg_fiber;  // seg_fiber: the warp batches' segments
    DeviceArray<std::uint32_t> idx;
    DeviceArray<float> val, u, out, carry;
    std::unique_ptr<CsrSpmm> library;  // made by the first cuSPARSE compute
    std::unique_ptr<SpttmPieces> pieces;  // made by the first fiber-team compute

    // Whether the warp-batch variant is walked by fiber teams (spttm_fiber_teams.cuh): at rank 32
    // under 2^31 nonzeros, unless TENSORSCOPE_SPTTM_TEAMS=0 keeps the warp batches (read at each
    // compute, so that one process can compare them).
    bool fiber_teams() const {
        return rank == 32 && SpttmPieces::fits(nnz) && !env_is("TENSORSCOPE_SPTTM_TEAMS", "0");
    }

    // The warp batches' segments (each one's first fiber) and their carries, made by the first
    // warp-batch compute: the other kernels, and the Tucker plans that run them, need neither.
    std::uint64_t segments() {
        const std::uint64_t stride = batch_segment(rank), count = (nnz + stride - 1) / stride;
        if (seg_fiber.size() != count) {
            seg_fiber = DeviceArray<std::uint64_t>(count);
            carry = DeviceArray<float>(count * rank);
            // a sorted COO's fibers are never empty
            launch_piece_ranges(count, stride, items, ptr.get(), 0, seg_fiber.get());
        }
        return count;
    }
};

SpttmDevice::SpttmDevice(const SpttmInput& x, std::uint64_t u_rows, std::uint64_t rank, Timing& timing) : impl_(new Impl) {
    use_device();
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.items = x.fibers, d.u_rows = u_rows, d.rank = rank;
    d.ptr = DeviceArray<std::uint64_t>(x.fptr, x.fibers + 1);
    d.idx = DeviceArray<std::uint32_t>(x.idx, x.nnz);
    d.val = DeviceArray<float>(x.val, x.nnz);
    d.u = DeviceArray<float>(u_rows * rank);
    d.out = DeviceArray<float>(x.fibers * rank);
    d.nnz = x.nnz;
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

SpttmDevice::SpttmDevice(const SspttmInput& y, std::uint64_t u_rows, std::uint64_t rank, Timing& timing) : impl_(new Impl) {
    use_device();
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.semi = true;
    d.items = y.zchunks, d.sy = y.sy, d.u_rows = u_rows, d.rank = rank;
    d.ptr = DeviceArray<std::uint64_t>(y.cptr, y.zchunks + 1);
    d.order = DeviceArray<std::uint64_t>(y.order, y.chunks);
    d.idx = DeviceArray<std::uint32_t>(y.idx, y.chunks);
    d.val = DeviceArray<float>(y.val, y.chunks * y.sy);
    d.u = DeviceArray<float>(u_rows * rank);
    d.out = DeviceArray<float>(y.zchunks * rank * y.sy);
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

SpttmDevice::~SpttmDevice() = default;

void SpttmDevice::update_values(const float* val, Timing& timing) {
    use_device();
    Event t0, t1;
    t0.record();
    impl_->val.upload(val);
    impl_->pieces.reset();  // its singles and compact arrays copied the old values
    t1.record();
    timing.upload_s += Event::seconds(t0, t1);
}

void SpttmDevice::compute(SpttmKernel kernel, const float* u, float* out, Timing& timing) {
    use_device();
    Impl& d = *impl_;
    Event t0, t1, t2, t3;
    t0.record();
    d.u.upload(u);
    t1.record();
    const std::uint64_t R = d.rank, n = d.items;
    const unsigned ntr = static_cast<unsigned>(R < 32 ? R : 32);  // N_TR: threads on the columns
    const unsigned per_block = kThreads / ntr;                   // fibers per block (MC, RB, SM)
    const auto blocks = [](std::uint64_t items, std::uint64_t per) { return static_cast<unsigned>((items + per - 1) / per); };
    if (n) {
        if (d.semi) {
            std::uint64_t threads = ((R * d.sy + 31) / 32) * 32;
            if (threads > 1024) threads = 1024;
            const unsigned grid = static_cast<unsigned>(std::min<std::uint64_t>(n, 0x7fffffff));
            sspttm_kernel<<<grid, static_cast<unsigned>(threads)>>>(n, d.sy, R, d.ptr.get(), d.order.get(), d.idx.get(),
                                                                    d.val.get(), d.u.get(), d.out.get());
        } else {
            const bool overwrites = kernel == SpttmKernel::SharedMemory || kernel == SpttmKernel::WarpBatches || kernel == SpttmKernel::Cusparse;
            if (!overwrites) d.out.zero();  // the others accumulate into Y
            switch (kernel) {
            case SpttmKernel::Naive:
                naive_kernel<<<blocks(n, kThreads), kThreads>>>(n, R, d.ptr.get(), d.idx.get(), d.val.get(), d.u.get(), d.out.get());
                break;
            case SpttmKernel::FineGrained:
                fine_kernel<<<blocks(n, per_block), dim3(per_block, ntr)>>>(n, R, d.ptr.get(), d.idx.get(), d.val.get(), d.u.get(),
                                                                          d.out.get());
                break;
            case SpttmKernel::Coalesced:
                coalesced_kernel<<<blocks(n, per_block), dim3(ntr, per_block)>>>(n, R, d.ptr.get(), d.idx.get(), d.val.get(),
                                                                               d.u.get(), d.out.get());
                break;
            case SpttmKernel::RankBlocked:
                rank_blocked_kernel<<<blocks(n, per_block), dim3(ntr, per_block)>>>(n, R, d.ptr.get(), d.idx.get(), d.val.get(),
                                                                                  d.u.get(), d.out.get());
                break;
            case SpttmKernel::SharedMemory:
                shared_kernel<<<blocks(n, per_block), dim3(ntr, per_block), ntr * per_block * sizeof(float)>>>(
                    n, R, d.ptr.get(), d.idx.get(), d.val.get(), d.u.get(), d.out.get());
                break;
            case SpttmKernel::WarpBatches: {  // a group per segment: 8 warps a block
                if (d.fiber_teams()) {
                    if (!d.pieces)
                        d.pieces =
                            std::make_unique<SpttmPieces>(n, d.nnz, d.ptr.get(), d.idx.get(), d.val.get(), d.u_rows);
                    launch_spttm_teams(*d.pieces, d.u.get(), d.out.get());
                    break;
                }
                const std::uint64_t segments = d.segments(), groups_a_block = kThreads / 32 * (four_columns_a_lane(R) ? 4 : 1);
                const auto launch = [&](auto kernel) {
                    kernel<<<blocks(segments, groups_a_block), kThreads>>>(d.nnz, n, R, d.ptr.get(), d.seg_fiber.get(), d.idx.get(),
                                                                          d.val.get(), d.u.get(), d.out.get(), d.carry.get());
                };
                if (four_columns_a_lane(R)) launch(warp_batch_kernel<4>);
                else launch(warp_batch_kernel<1>);
                launch_piece_carries(segments, batch_segment(R), R, d.ptr.get(), d.seg_fiber.get(), d.carry.get(), d.out.get());
                break;
            }
            case SpttmKernel::Cusparse:
                if (!d.library)
                    d.library = std::make_unique<CsrSpmm>(n, d.u_rows, R, d.nnz, d.ptr.get(), d.idx.get(), d.val.get(), d.u.get(), d.out.get());
                d.library->run();
                break;
            }
        }
    }
    check(cudaGetLastError(), "launching the SpTTM kernel");
    t2.record();
    d.out.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
