// HOCSR's SpTV on the device (hocfs-sptv-pipeline Alg. 4, Sec. 6.1.2: "similar to SpMV", a
// thread per row). HOCSR's rows are every index tuple of the other modes, and on a real tensor
// most are empty: on the nell-2 shape, mode 1 has 265M rows for 77M nonzeros.
//
// A thread takes kTupleRows consecutive rows and reads their offsets; a block counts its
// non-empty rows with a scan and writes their sums packed, from the block's first output
// (block_base, counted once when the plan is made). Rows of more than kShortRow nonzeros (a
// power-law tensor's long fibers) would hold a thread, and so its block, long after the
// others: the warp sums them together, one at a time. Private to engine/cuda (nvcc, C++17).
//
// Against cuSPARSE's CSR SpMV over every row, as before (one H200, session 22, nell-2 shape,
// docs/bench/h200-issue19-session22-*.json): the kernel took 1.16 ms on mode 1 (1.46) and
// 1.37 ms on mode 3 (0.86), 42% and 25% of the copy bound; but a compute's transfers fall from
// 68 and 28 ms to 6 ms, since only the fibers' values come back rather than one per index tuple
// (1 GB on mode 1), and the host no longer picks the kept rows out of them. With a thread's
// offsets read as 16-byte loads (session 23, h200-issue19-session23.json, alternating with the
// scalar loads): 1.09-1.11 ms on mode 1 (1.15), 1.31-1.33 on mode 3 (1.33), and on the uniform
// shape 0.89-0.90 (0.95-0.96) and 0.56 (0.58). Tried and slower, session 22: 8 rows a thread; a
// short row's nonzeros loaded 4 or 8 at a time; a block's products staged in shared memory
// first (CSR-Stream, mode 3 1.64 ms). Session 23: a warp taking 32 adjacent rows a step (one
// coalesced load of offsets, adjacent rows' nonzeros side by side, outputs placed by ballots
// and a 32-entry scan): 1.55 and 1.91 ms on the nell-2 shape's modes 1 and 3, 1.47 and 0.77 on
// the uniform shape. Long rows from 16 or 8 nonzeros up instead of 32: within 2% either way.
// Sessions 24-25: rows over 4096 nonzeros (about 1% of the nell-2 shape's nonzeros sit in mode
// 3's top row) listed by this kernel and summed in chunks of 4096 by as many blocks: mode 3
// 1.23-1.24 ms against 1.35-1.36, but mode 1 1.18 against 1.11 and the uniform shape 1.00 and
// 0.60 against 0.90 and 0.57 (h200-issue19-session25.json, alternating twice); removed.
// Session 30: the tensor read and the sums written as streaming accesses (ld/st.global.cs) so
// that L1 would keep the vector (32 registers either way): on the nell-2 shape mode 1 1.19 ms
// against 1.12, mode 3 1.30 against 1.33 (h200-issue19-session30.json call 2, TENSORSCOPE_
// SPTV_LOADS); no gain on the whole, removed. Session 35: the vector in shared memory, blocks of
// 1,024 threads that stay (as many as are resident) and take 4,096 rows a step: 1.57-1.59 ms on
// the nell-2 shape's mode 3 and 0.84 on the uniform shape's against 1.35 and 0.57-0.58 (one
// block an SM for mode 3's 115 KB vector, 64 registers, half the warps; h200-issue19-session35.json
// call 2); removed. Session 43 (b8b7e41 and 8cfb86f, TENSORSCOPE_HOCSR_ROWS, h200-issue19-
// session43.json calls 1-2, alternating twice in each, blocks of 1,024 rows every way): the
// uniform shape's mode 3 took 1.46-1.47 ms with a row a thread, 0.74 with 2, 0.78-0.79 with 8
// (0.83-0.86 with the offsets held in 32 bits, which spilled), against 0.553-0.558 with 4 (4 with
// 32-bit offsets held in 32 bits: 0.554-0.555); removed.
#pragma once

#include <cstdint>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

constexpr int kTupleThreads = 256;
constexpr int kTupleRows = 4;  // rows a thread
constexpr std::uint64_t kTupleBlockRows = kTupleThreads * kTupleRows;
constexpr std::uint64_t kShortRow = 32;

// The block scan that places a block's outputs (here and in sptv_kept_rows.cuh): CUB's warp
// scans (a shuffle scan a warp, then the warps' totals) rather than its default raking one.
// Measured on one H200, alternating twice in one binary (h200-issue19-session35.json call 4):
// HOCSR on the nell-2 shape's modes 1 and 3 (two passes) 0.675-0.693 and 0.483-0.495 ms against
// raking's 0.683-0.689 and 0.504-0.519 (raking memoized 0.690-0.692 and 0.496-0.518); on the
// uniform shape's mode 1 (two passes) 0.711-0.723 against 0.763-0.764 and mode 3 (one pass)
// 0.543-0.557 against 0.569-0.578. Nsight Compute: the kept rows' kernel 157 us against
// 164-167, the one pass 515 against 539.
constexpr cub::BlockScanAlgorithm kTupleScan = cub::BLOCK_SCAN_WARP_SCANS;

// The offsets of a thread's rows, first .. first + kTupleRows (clipped to the last row). Where
// all five exist, the first four come as 16-byte loads (first is a multiple of 4, so they are
// aligned: cudaMalloc aligns to 256 bytes), and the fifth (the next thread's first) is loaded
// again. Tried, session 36 (h200-issue19-session36.json call 1, alternating twice): the fifth
// passed down the warp by a shuffle, so that only a warp's last lane loads it: the nell-2 shape's
// modes 1 and 3 0.689-0.702 and 0.503-0.518 ms against 0.684-0.690 and 0.505-0.514, the uniform
// shape's mode 1 0.734-0.745 against 0.713-0.725 (Nsight Compute, the kept rows: 164 us against
// session 35's 157); removed.
template <class P>
struct TupleOffsets {
    std::uint64_t at[kTupleRows + 1];
    __device__ TupleOffsets(std::uint64_t rows, const P* __restrict__ ptr) : TupleOffsets(rows, ptr, blockIdx.x) {}
    // The same as block `block`'s thread would read (sptv_kept_rows.cuh's blocks read four blocks' worth).
    __device__ TupleOffsets(std::uint64_t rows, const P* __restrict__ ptr, std::uint64_t block) {
        static_assert(kTupleRows == 4, "four offsets in 16-byte loads");
        const std::uint64_t first = (block * kTupleThreads + threadIdx.x) * kTupleRows;
        if (first + kTupleRows <= rows) {
            if constexpr (sizeof(P) == 8) {
                const ulonglong2 a = __ldg(reinterpret_cast<const ulonglong2*>(ptr + first));
                const ulonglong2 b = __ldg(reinterpret_cast<const ulonglong2*>(ptr + first) + 1);
                at[0] = a.x, at[1] = a.y, at[2] = b.x, at[3] = b.y;
            } else {
                const uint4 a = __ldg(reinterpret_cast<const uint4*>(ptr + first));
                at[0] = a.x, at[1] = a.y, at[2] = a.z, at[3] = a.w;
            }
        } else {
#pragma unroll
            for (int k = 0; k < kTupleRows; ++k) at[k] = ptr[first + k < rows ? first + k : rows];
        }
        at[kTupleRows] = ptr[first + kTupleRows < rows ? first + kTupleRows : rows];
    }
    __device__ std::uint32_t kept() const {
        std::uint32_t n = 0;
#pragma unroll
        for (int k = 0; k < kTupleRows; ++k) n += at[k + 1] > at[k];
        return n;
    }
};

// counts[b] = the non-empty rows of block b's kTupleBlockRows rows.
template <class P>
__global__ void __launch_bounds__(kTupleThreads) sptv_tuple_count_kernel(std::uint64_t rows, const P* __restrict__ ptr,
                                                                         std::uint64_t* __restrict__ counts) {
    using Reduce = cub::BlockReduce<std::uint32_t, kTupleThreads>;
    __shared__ typename Reduce::TempStorage temp;
    const std::uint32_t total = Reduce(temp).Sum(TupleOffsets<P>(rows, ptr).kept());
    if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

// out[q] = the q-th non-empty row's nonzeros times v; block_base[b] = the non-empty rows before
// block b (the exclusive scan of sptv_tuple_count_kernel's counts). Tried, session 36 (call 1):
// where none of a thread's rows is long, their nonzeros walked as one run (they are contiguous),
// each product added to its row's sum by where it falls among the offsets, as
// sptv_shared_vector.cuh's 4-row kernel does: the uniform shape's mode 3 (one pass) 0.596-0.671 ms
// against 0.550-0.554 (Nsight Compute 570 us against session 35's 515); removed.
// Tried, session 38 (h200-issue19-session38.json call 2, alternating twice): each short row's
// first nonzero loaded before any of the thread's rows is summed, so that their loads are in
// flight together, as HOCFS-ELL's four at a time (40 registers against 32, six blocks an SM
// rather than eight): the uniform shape's mode 3 0.606 ms against 0.553; removed.
// Tried, session 49 (774bf12, TENSORSCOPE_HOCSR=staged, h200-issue19-session49.json call 2,
// alternating twice): a block over four of these blocks (four 16-byte loads a thread, as
// sptv_kept_rows.cuh's), its nonzeros, where at most 4,096, loaded side by side and their products
// staged in shared memory, each thread then summing its 16 rows there (others as here, out of
// line: 48 registers, five blocks an SM). The uniform shape's modes 1-3 1.09-1.30 and 0.85 ms
// against 0.66-0.75 and 0.53 (two passes, one pass for mode 3), the nell-2 shape 3.0-6.1 ms
// against 0.39-0.67 (its blocks' long rows mostly exceed the stage). Nsight Compute, uniform mode
// 3: 837 us against this kernel's 514, DRAM 32% busy against 52%, 0.34 warps issued a cycle
// against 0.68: the block waits at its barriers on a chain of dependent loads (offsets, then
// columns, then the vector); removed.
// Tried, session 50 (d7ec346 and f53fc9a, TENSORSCOPE_HOCSR=bulk, h200-issue19-session50.json
// calls 1-2, alternating twice): the blocks' tiles of rows copied into shared memory ahead of their
// use by the bulk copy engine (cp.async.bulk into 2-4 stages a block, completion by mbarriers),
// each tile's offsets and, where their span fits a stage, its columns and values; others read as
// here. First form, a thread of the block issuing after a block scan and a barrier a tile (stages
// of 2,052 nonzeros): the uniform shape's modes 1-3 1.49-2.15, 1.74-2.53 and 1.11-1.40 ms against
// 0.63-0.64, 0.74 and 0.49 (two passes), nell-2 2.0-2.5 against 0.39-0.66; Nsight Compute,
// uniform mode 3: 1.15 ms, DRAM 23% busy, L1 hit rate 26% (the stages left L1 too small for the
// 115 KB vector), 0.30 warps issued a cycle, half the stalls on the gathers. Second form, a warp
// issuing and eight summing 128 rows each with no barrier between them (each warp's first output
// counted with the plan), a lane's nonzeros four at a time, stages of 1,028 nonzeros: uniform
// 1.16, 1.45 and 0.68-0.69 ms (2 stages; 3 and 4 slower), nell-2 1.60, 2.11 and 1.24, the denser
// uniform shape 0.91, 1.04-1.05 and 0.82 against 0.54, 0.59 and 0.42, every way within 2e-7 of
// cpu-ref. Nsight Compute, uniform mode 3: 673 us, DRAM 40% busy, L1 hit rate 72%, 0.63 warps
// issued a cycle. Modes 1-2 (tiles mostly of empty rows) read their offsets at about 0.9 TB/s with
// 2 or 3 stages in flight alike (not profiled further); removed.
template <class P>
__global__ void __launch_bounds__(kTupleThreads)
    sptv_tuple_kernel(std::uint64_t rows, const P* __restrict__ ptr, const std::uint32_t* __restrict__ col,
                      const float* __restrict__ val, const float* __restrict__ v,
                      const std::uint64_t* __restrict__ block_base, float* __restrict__ out) {
    using Scan = cub::BlockScan<std::uint32_t, kTupleThreads, kTupleScan>;
    __shared__ typename Scan::TempStorage temp;
    const TupleOffsets<P> off(rows, ptr);
    std::uint32_t before = 0;
    Scan(temp).ExclusiveSum(off.kept(), before);
    std::uint64_t q = block_base[blockIdx.x] + before;  // this thread's first output
    const int lane = static_cast<int>(threadIdx.x & 31);
#pragma unroll
    for (int k = 0; k < kTupleRows; ++k) {
        const std::uint64_t b = off.at[k], e = off.at[k + 1];
        const bool is_long = e - b > kShortRow;
        if (e > b && !is_long) {
            float sum = 0.0f;
            for (std::uint64_t j = b; j < e; ++j) sum += val[j] * v[col[j]];
            out[q] = sum;
        }
        // the warp's long rows of this step, one after another, all lanes on each
        for (unsigned pending = __ballot_sync(0xffffffffu, is_long); pending; pending &= pending - 1) {
            const int owner = __ffs(pending) - 1;
            const std::uint64_t lb = __shfl_sync(0xffffffffu, b, owner), le = __shfl_sync(0xffffffffu, e, owner);
            const std::uint64_t lq = __shfl_sync(0xffffffffu, q, owner);
            float sum = 0.0f;
            for (std::uint64_t j = lb + static_cast<std::uint64_t>(lane); j < le; j += 32) sum += val[j] * v[col[j]];
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, d);
            if (lane == 0) out[lq] = sum;
        }
        q += e > b;
    }
}

}  // namespace
}  // namespace tscope::gpu
