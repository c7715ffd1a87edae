// HOCSR's SpTV in two passes (session 32; the default where gpu_sptv.cu's hocsr_kept says so):
// every product first reads HOCSR's offsets, one per index tuple, and keeps the non-empty rows'
// first offsets (a streaming pass of sptv_tuples.cuh's blocks, each writing from the base the
// plan counted once; since session 49 only their low 16 bits where the product runs the adaptive
// rows, keep_row says where), then multiplies the CSR of those rows, the nonzeros as stored, by the
// vector as the CSR formats do (sptv_adaptive_rows.cuh, cuSPARSE's SpMV, or the kernels with the
// vector in shared memory). The offsets are read by every product, as the format stores them;
// what is kept from one product to the next is the count of non-empty rows before each block of
// rows (the outputs' places), which the one-pass kernel keeps too.
//
// Why: sptv_tuples.cuh's one-pass kernel reached 42% of the copy bound on the nell-2 shape's
// mode 1 and 25% on mode 3 (issue 19 asks 70%): a block of 1,024 rows reads its offsets, waits on
// a block-wide scan, then on each row's nonzeros and the vector (h200-issue19-session22/23), a
// chain of latencies with little in flight. Of the passes here, the first reads the offsets at
// streaming speed and the second runs where the CSR formats reach 76-92% (HOCFS-CSR on the
// nell-2 shape 0.32-0.33 ms a mode, session 32).
//
// The first pass was CUB's select over the offsets until session 34, which finds each block's
// base anew by a look-back across blocks and reads every offset through two iterators. Measured
// on one H200, both forced to two passes (h200-issue19-session34.json call 2, alternating): on
// the nell-2 shape's modes 1 and 3 the blocks here took 0.683-0.693 and 0.504-0.508 ms (67-71% of
// the copy bound) against CUB's 0.991-1.004 and 0.622-0.623 (49-55%); on the uniform shape 0.774
// and 0.604 ms (62-69%) against 1.029 and 0.744 (50-52%).
//
// Tried and slower, session 47 (h200-issue19-session47.json call 2, alternating twice): the rows
// in 4 or 8 chunks, each chunk's product (cuSPARSE's SpMV on its own offsets) on a second stream
// beside the next chunk's first pass. On the nell-2 shape, modes 1-3: 0.705-0.706, 0.822-0.827 and
// 0.538-0.544 ms with 4 chunks, 0.727-0.732, 0.846 and 0.569-0.571 with 8, against 0.660-0.661,
// 0.771-0.773 and 0.479-0.480 in one piece: the more chunks, the slower, so the overlap did not
// pay for the extra products.
//
// Tried and slower, session 48 (9be7178, h200-issue19-session48.json call 2, alternating twice):
// one pass by warps over blocks of tuples cut once when the plan is made (at most 256 nonzeros,
// 256 non-empty rows and 2,048 tuples a block; a lane walked 8 tuples, a warp scan placed the
// sums; longer rows a warp's alone or pieces by atomics, as sptv_adaptive_rows.cuh), the vector
// staged in shared memory. On the nell-2 shape, modes 1-3: 0.881-0.888, 0.983-0.988 and
// 0.681-0.689 ms against 0.628-0.629, 0.743-0.745 and 0.444 here (the same results, 1.2e-7 from
// the oracle); on the uniform shape 0.777, 0.909 and 0.632 against 0.698, 0.816 and 0.526 (one
// run each). A warp's walk over mostly empty tuples, a scan a block, left less in flight than
// the first pass here does at streaming speed.
//
// Tried and slower, session 50 (c489482, TENSORSCOPE_HOCSR=bits, h200-issue19-session50.json call
// 5, alternating twice): two passes that move about the bound's bytes. The first marked each kept
// row's first nonzero in a bitmap (a bit a nonzero, 9.6 MB on the uniform shape's mode 3 against
// 110-220 MB of kept offsets; a warp's bits in one word ORed by __match_any_sync and added by one
// atomic); the second summed the nonzeros a warp a chunk of 256 (8 a lane, 16-byte loads, 8
// gathers in flight), cutting rows by the bits with a segmented sum across the warp, each chunk's
// first row counted with the plan and the rows crossing chunks cleared, then added by atomics.
// Uniform, modes 1-3: 0.943-0.945, 1.057-1.058 and 0.694-0.702 ms against 0.634-0.639,
// 0.737-0.739 and 0.472-0.474; nell-2 0.563, 0.650-0.654 and 0.397-0.398 against 0.558, 0.656
// and 0.395; within 3.2e-7 of cpu-ref. Nsight Compute, uniform mode 3: the marking 180 us at 2.58
// TB/s (its atomics; this file's first pass moves 3.71 TB/s on nell-2's mode 3, session 49), the
// sum 501 us at 0.17 warps issued a cycle with a memory unit 84% busy (DRAM 38%): its lanes'
// scattered 4-byte stores of the rows, 8 predicated store instructions a chunk, are the likely
// cost (not profiled further).
//
// Tried and no faster, session 52 (259c1e5, TENSORSCOPE_SPTV_PDL, h200-issue19-session52.json call
// 2, alternating twice): the product's adaptive rows launched behind the first pass by
// programmatic dependent launch (the first pass letting them start as its last blocks ran, the
// rows staging the vector, then waiting on griddepcontrol.wait), the split rows cleared before the
// first pass. HOCSR's mode 3, nell-2 shape 0.390-0.396 ms either way, uniform 0.467-0.469
// against 0.469-0.472; modes 1 and 2 (one run each) 0.565 and 0.661 against 0.557 and 0.654 on
// nell-2's shape, 0.642 and 0.745 against 0.636 and 0.732 on the uniform one; within 1.4e-7 of
// cpu-ref. Nsight Compute (session 49) had the two kernels at 137 and 249 us of nell-2's 393:
// there was little gap between them to hide.
// Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>

#include <cub/block/block_scan.cuh>

#include "cuda_util.cuh"
#include "sptv_tuples.cuh"

namespace tscope::gpu {
namespace {

// kept[block_base[b] + i] = the first offset of block b's i-th non-empty row, block b being one
// of sptv_tuples.cuh's blocks of kTupleBlockRows rows. A block here takes kKeepWide of them
// (4b .. 4b + 3), each thread's four groups of offsets loaded before any is counted, so that four
// 16-byte loads are in flight a thread; one block scan places all four groups, their counts packed
// in 16-bit fields of one 64-bit sum (a group's count, at most kTupleBlockRows, fits); each
// thread's kept offsets are written where the scan places them.
//
// Until session 49 a block took one of sptv_tuples.cuh's blocks (one 16-byte load a thread);
// Nsight Compute had it at 3.2 TB/s, three quarters of the copy bandwidth (session 35: 157 us
// for 444 MB of offsets read and 65 MB written on the nell-2 shape's mode 3). Measured on one
// H200, alternating twice in one binary (h200-issue19-session49.json call 1): HOCSR on the nell-2
// shape's modes 1-3 0.559-0.560, 0.659-0.661 and 0.393-0.395 ms against 0.610-0.612,
// 0.727-0.728 and 0.414-0.417 (74.3-75.5% and 67.5-67.9% of the copy bound against 64.1-68.6%);
// on the uniform shape's modes 1-2 0.653-0.661 and 0.745 against 0.693-0.696 and 0.813, and its
// mode 3 forced to two passes 0.490-0.493 against 0.495-0.498. Nsight Compute (mode 3): 137 us
// at 3.71 TB/s against 158 at 3.21 (40 registers against 25, 75% occupancy against 100%).
// Tried and slower, session 35 (h200-issue19-session35.json call 2, alternating twice): the
// block's rows first gathered in shared memory, then written out side by side after a barrier:
// 0.536-0.538 ms against 0.513-0.525 on the nell-2 shape's mode 3 and 0.749-0.751 against
// 0.714-0.716 on mode 1 (Nsight Compute: 189-191 us against 164-167); the loads, not the
// scattered stores, set its pace. Tried and slower, session 49 (05e74ae, TENSORSCOPE_HOCSR_KEEP=
// lengths, h200-issue19-session49.json call 3, alternating twice): the kept rows' lengths written
// in 16 bits rather than their offsets in 32, the adaptive rows (sptv_adaptive_rows.cuh) summing
// each block's lengths into offsets by warp scans, so that the two passes move 4 bytes a kept row
// less. The nell-2 shape's modes 1-3 0.593-0.595, 0.691-0.698 and 0.413-0.416 ms against
// 0.567-0.568, 0.658-0.661 and 0.391-0.401; uniform 0.685, 0.793-0.795 and 0.509-0.511 against
// 0.659, 0.747-0.749 and 0.492-0.494. Nsight Compute, nell-2 mode 3: the product's kernel 266 us
// against 249 (the scans wait on the lengths' loads before any row is summed); removed.
constexpr int kKeepWide = 4;

// What the first pass keeps of a non-empty row: its first offset b, in 32 bits, or where the
// product runs the adaptive rows (since session 55 in blocks of 1,024 on every shape, where since
// session 56 only the low 8 bits are kept, below; gpu_sptv.cu's hocsr_low_bits has the numbers),
// its low 16 bits, from which those restore it: they read offsets only in blocks of at most
// kStreamNnz nonzeros, whose first offset the plan holds (a longer row's block has its bounds from
// the plan alone).
// Measured on one H200, the low bits against 32 (session 49, 0ac838e, TENSORSCOPE_HOCSR_KEEP=low16,
// h200-issue19-session49.json call 5, alternating twice; modes 1-2 in blocks of 512, mode 3 of
// 1,024): nell-2 shape 0.565-0.569, 0.662-0.669 and 0.406-0.412 ms against 0.572, 0.668-0.673 and
// 0.394-0.401; uniform 0.638-0.640, 0.743-0.747 and 0.479 against 0.658-0.661, 0.751-0.755 and
// 0.495-0.497; a denser uniform shape (8,000 x 6,400 x 28,818) 0.543-0.545, 0.594-0.596 and
// 0.396-0.402 against 0.560-0.565, 0.616-0.619 and 0.423-0.424. Blocks of 1,024 lost on the
// nell-2 shape (Nsight Compute, mode 3: the product's kernel 260 us against 249), so they kept
// 32 bits; blocks of 512 gained or tied on every shape. (Lengths instead, above, lost.) Since
// session 50 blocks of 1,024 take the low bits where the kept rows are short (nell-2's mode 3
// holds 4.7 nonzeros a kept row, the uniform shape's 1.4, the denser one's 1.9): one H200
// (3462c9c, h200-issue19-session50.json call 3, alternating twice, mode 3), uniform 0.470-0.472
// ms against 0.490-0.494 with 32 bits (64.3-64.5% of the copy bound against 61.3-61.9%), the
// denser shape 0.391-0.393 against 0.416-0.417; nell-2 0.394 against 0.395 (32 bits either way).
__device__ inline void keep_row(std::int32_t*& out, std::uint64_t b) { *out++ = static_cast<std::int32_t>(b); }
__device__ inline void keep_row(std::uint16_t*& out, std::uint64_t b) { *out++ = static_cast<std::uint16_t>(b); }
// The low 8 bits (since session 56, gpu_sptv.cu's hocsr_low_bits), for the adaptive rows' blocks of
// 1,024 cut to 255 nonzeros at most.
__device__ inline void keep_row(std::uint8_t*& out, std::uint64_t b) { *out++ = static_cast<std::uint8_t>(b); }

// A block's kept offsets are gathered in shared memory, then each group's written side by side (a
// warp's store 32 consecutive entries). Until session 54 each thread stored its own rows one by
// one, so that a warp's store touched its lanes' scattered places: Nsight Compute on the uniform
// shape's mode 3 (half its 111M rows kept) had that pass's L2 96% busy at DRAM 73-78%, 174 us
// with 32-bit offsets (h200-issue19-session54.json call 2); gathered first, 160 us at DRAM 85%
// (4.07 TB/s, call 3). Measured on one H200 (ecfaae2, TENSORSCOPE_HOCSR_KEEP_STAGED, call 3,
// alternating twice, medians of 10), HOCSR modes 1-3 (the writes side by side / as before):
//   nell-2 shape   0.530-0.531, 0.618-0.623, 0.383-0.385 ms / 0.528-0.536, 0.632-0.633, 0.394-0.399
//   uniform shape  0.638-0.640, 0.736-0.738, 0.462-0.463    / 0.645-0.647, 0.734-0.739, 0.474
// within 1.4e-7 of cpu-ref. Session 35 had tried the same with one 16-byte load a thread and lost
// on the nell-2 shape (0.536-0.538 ms against 0.513-0.525 on mode 3): then the loads set the pace.
// The pass before (one block scan a block, each thread storing its own rows) ran eight blocks an SM at
// 32 registers past 160M rows of 32-bit offsets (session 53, 08a82f2, h200-issue19-session53.json
// call 2, alternating twice, medians of 10; HOCSR modes 1-3, 265M, 348M and 111M rows):
//   nell-2 shape   eight blocks 0.543, 0.631-0.635, 0.396 ms    six 0.563-0.566, 0.663-0.671, 0.393-0.394
//   uniform shape  eight blocks 0.641-0.642, 0.733, 0.481-0.485  six 0.636-0.641, 0.744-0.745, 0.474-0.480
// This pass at six (40 registers) is as fast as that on modes 1-2 (the call 3 rows above, "as
// before" being that pass), so it runs alone.
// Tried and no faster, session 54 (b83c211, TENSORSCOPE_HOCSR_KEEP_WARP, h200-issue19-session54.json
// call 1, one H200, alternating twice, medians of 10): the first pass with no block-wide step, the
// plan counting the kept rows before every chunk of 128 rows (a warp's four a lane) so that each
// warp placed its rows by its own shuffle scan, 4 chunks a warp (32 registers, 4 bytes spilled,
// eight blocks an SM) or 8 (62 registers, four). HOCSR's modes 1-3 (32-bit offsets):
//   nell-2 shape   8 chunks 0.540, 0.624-0.636, 0.428-0.432 ms   4 chunks 0.571-0.574, 0.668-0.669, 0.445-0.446
//                  the pass then 0.536, 0.626-0.628, 0.431-0.433
//   uniform shape  8 chunks 0.626-0.627, 0.721-0.722, 0.475-0.480   4 chunks 0.670-0.673, 0.782-0.783, 0.501-0.509
//                  the pass then 0.639-0.641, 0.728-0.733, 0.476-0.479
// (mode 3's product slowed in that build by the prefetch code of sptv_adaptive_rows.cuh, alike in
// every arm; the GPU SpTV suite passed 34/34 either way, within 1.4e-7 of cpu-ref): the block's
// barrier was not what held the pass below the copy bandwidth; removed.
// Tried and slower, session 54 (52ac8b7, TENSORSCOPE_HOCSR_KEEP_NARROW, h200-issue19-session54.json
// call 6, three rounds alternating, medians of 10): this pass with 32-bit offsets held in 32 bits
// (TupleOffsets widens them to 64) at eight blocks an SM (32 registers, 8 bytes spilled). Mode 3,
// nell-2 shape 0.398-0.403 ms against 0.385-0.392, uniform 0.468-0.472 against 0.460-0.462; the
// nell-2 shape's modes once, 0.541, 0.622, 0.394 against 0.528, 0.620, 0.382; removed.
template <class P, class Kept>
__global__ void __launch_bounds__(kTupleThreads)
    sptv_keep_rows_kernel(std::uint64_t rows, std::uint64_t blocks, const P* __restrict__ ptr,
                          const std::uint64_t* __restrict__ block_base, Kept* __restrict__ kept) {
    using Scan = cub::BlockScan<std::uint64_t, kTupleThreads, kTupleScan>;
    __shared__ typename Scan::TempStorage temp;
    __shared__ Kept stage[kKeepWide][kTupleBlockRows];
    static_assert(kKeepWide == 4 && kTupleBlockRows < (1u << 16), "four counts in 16-bit fields");
    const std::uint64_t first = blockIdx.x * static_cast<std::uint64_t>(kKeepWide);
    TupleOffsets<P> off[kKeepWide] = {
        {rows, ptr, first}, {rows, ptr, first + 1}, {rows, ptr, first + 2}, {rows, ptr, first + 3}};
    std::uint64_t packed = 0, before = 0, total = 0;
#pragma unroll
    for (int g = 0; g < kKeepWide; ++g) packed |= std::uint64_t{off[g].kept()} << (16 * g);
    Scan(temp).ExclusiveSum(packed, before, total);
#pragma unroll
    for (int g = 0; g < kKeepWide; ++g) {
        Kept* out = stage[g] + ((before >> (16 * g)) & 0xffffu);
#pragma unroll
        for (int k = 0; k < kTupleRows; ++k)
            if (off[g].at[k + 1] > off[g].at[k]) keep_row(out, off[g].at[k]);
    }
    __syncthreads();
#pragma unroll
    for (int g = 0; g < kKeepWide; ++g) {
        if (first + g >= blocks) break;
        const auto n = static_cast<std::uint32_t>((total >> (16 * g)) & 0xffffu);
        Kept* out = kept + block_base[first + g];
        for (std::uint32_t i = threadIdx.x; i < n; i += kTupleThreads) out[i] = stage[g][i];
    }
}

// The non-empty rows' first offsets, kept[0 .. kept_rows), and nnz after them: the CSR of those
// rows, from HOCSR's offsets in 32 bits (ptr32) or 64 (ptr64, where ptr32 is null) and the
// plan's block bases; run() refills them, on the default stream. With low_bits 16 or 8 (see
// keep_row), the offsets are kept once, for the plan of the product, and run() refills their low
// bits instead (kept_rows + 1 of them, nnz's the last).
class KeptRows {
public:
    KeptRows(std::uint64_t rows, std::uint64_t kept_rows, std::uint64_t nnz, const std::uint32_t* ptr32,
             const std::uint64_t* ptr64, const std::uint64_t* block_base, int low_bits)
        : rows_(rows),
          ptr32_(ptr32),
          ptr64_(ptr64),
          block_base_(block_base),
          kept_(ended<std::int32_t>(kept_rows, nnz)) {
        keep(kept_.get(), nullptr);  // the product's choice reads them (SharedVectorRows::grid_for_csr)
        if (low_bits == 16) low16_ = ended<std::uint16_t>(kept_rows, nnz);
        if (low_bits == 8) low8_ = ended<std::uint8_t>(kept_rows, nnz);
    }

    std::int32_t* offsets() { return kept_.get(); }  // kept_rows + 1 of them
    const void* low() const {                        // their low bits, kept_rows + 1, or null
        if (low8_.size()) return low8_.get();
        return low16_.size() ? low16_.get() : nullptr;
    }

    void run(cudaStream_t stream) {
        if (low8_.size())
            keep(low8_.get(), stream);
        else if (low16_.size())
            keep(low16_.get(), stream);
        else
            keep(kept_.get(), stream);
    }

private:
    // kept_rows + 1 offsets (or their low bits), the last one nnz's; keep() fills the others
    template <class T>
    static DeviceArray<T> ended(std::uint64_t kept_rows, std::uint64_t nnz) {
        DeviceArray<T> a(kept_rows + 1);
        const auto end = static_cast<T>(nnz);
        check(cudaMemcpy(a.get() + kept_rows, &end, sizeof end, cudaMemcpyHostToDevice), "ending HOCSR's kept rows");
        return a;
    }

    template <class Kept>
    void keep(Kept* kept, cudaStream_t stream) {
        const auto blocks = static_cast<unsigned>((rows_ + kTupleBlockRows - 1) / kTupleBlockRows);
        if (!blocks) return;
        const unsigned grid = (blocks + kKeepWide - 1) / kKeepWide;
        if (ptr32_)
            sptv_keep_rows_kernel<<<grid, kTupleThreads, 0, stream>>>(rows_, blocks, ptr32_, block_base_, kept);
        else
            sptv_keep_rows_kernel<<<grid, kTupleThreads, 0, stream>>>(rows_, blocks, ptr64_, block_base_, kept);
        check(cudaGetLastError(), "keeping HOCSR's non-empty rows");
    }

    std::uint64_t rows_;
    const std::uint32_t* ptr32_;
    const std::uint64_t* ptr64_;
    const std::uint64_t* block_base_;
    DeviceArray<std::int32_t> kept_;
    DeviceArray<std::uint16_t> low16_;
    DeviceArray<std::uint8_t> low8_;
};

}  // namespace
}  // namespace tscope::gpu
