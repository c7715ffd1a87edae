// SpTTM with fiber teams (ours, session 32; the warp-batch variant's default walk at rank 32
// since session 33): the warp-batch variant's work (gpu_spttm.cu) walked as MTTKRP's fiber kernel
// walks a tree (mttkrp_fiber_teams.cuh). Every fiber is cut into pieces of at most kSpttmPiece nonzeros, a
// team of 8 lanes (each one float4 of a row) takes a group of consecutive pieces, and every lane
// loads each nonzero's index and value itself (one address across the team) rather than a lane
// each passed round by shuffles, as the warp batches do: the loop that ran MTTKRP's fiber kernel
// 1.5x faster (session 26, mttkrp_fiber_teams.cuh beside team_fiber_group). Its sum is stored where the
// team walked the whole fiber and added by vector atomics where the fiber's pieces fall to several
// teams; those fibers' rows of Y are cleared first. Rank 32 and 32-bit numbers only (what was
// measured); other ranks and larger tensors keep the warp batches. Since session 45 the fibers of
// one nonzero are walked apart, by their row of U (spttm_singles.cuh), and a team walks its group
// of pieces as one run of nonzeros (spttm_team_kernel); since session 46 the teams go on to those
// singles in the same launch.
// Measured on one H200 at rank 32 with pieces of 16 and groups of 8 (docs/bench/
// h200-issue19-session33.json calls 1-2, 8a9094b, alternating; the share is of the copy bound):
//   nell-2 shape, 2 rounds:  this walk 1.838-2.021 ms a mode (46-51%), warp batches 2.151-2.320 (40-45%)
//   uniform shape:           3.122-3.564 ms (66-69%), warp batches 3.634-4.024 (56-61%)
//   delicious-4d shape:      modes 1-3 8.387-9.165 ms (50-53%), warp batches 8.539-9.254 (50-52%)
// Removed after that measurement: the first walk (session 32), which looked up each piece's fiber
// and then that fiber's end (four loads a piece, a chain of two): nell-2 1.932-2.125 ms (44-49%),
// uniform 3.315-3.726 (62-66%), delicious-4d modes 1-3 8.766-9.582 (48-51%); and the switch
// between four, five and six blocks an SM (five: nell-2 1.856-2.063 ms against six's 1.838-2.021).
// Private to engine/cuda (nvcc, C++17).
#pragma once

#include <algorithm>
#include <cstdint>

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "cuda_util.cuh"
#include "float4_math.cuh"
#include "spttm_singles.cuh"

namespace tscope::gpu {
namespace {

constexpr std::uint64_t kSpttmPiece = 8;  // nonzeros a piece at most (session 34; 16 before, MTTKRP's)

// The pieces a team walks (session 34; 8 before): 4 where a piece holds over two nonzeros on
// average, else 8, so that a team walks some 8 to 16 nonzeros whatever the fibers' lengths.
// TENSORSCOPE_SPTTM_PIECE=4|8|16|32|64 and TENSORSCOPE_SPTTM_GROUP=2..16 (read when a plan
// first cuts its fibers) override both, which were MTTKRP's 16 and 8 until measured for SpTTM. On
// one H200 at rank 32, nell-2 shape (pieces of 8: 2.8-3.4 nonzeros on average), two rounds
// alternating each (h200-issue19-session34.json calls 1, 3 and 4; modes 1, 2, 3 in ms, the
// share of the copy bound):
//   piece x group  8 x 4: 1.852-1.860, 1.899-1.920, 1.701-1.704 (50-54%)            calls 3, 4
//                  4 x 8: 1.886-1.898, 1.937-1.939, 1.760-1.767 (48-53%)            call 3
//                  8 x 2: 1.945-1.950, 1.987-1.990, 1.752-1.754 (49-52%)            call 3
//                  4 x 4: 1.930-1.933, 1.974-1.976, 1.785-1.788 (48-52%)            call 3
//                  8 x 8: 1.887-1.902, 1.942-1.965, 1.748-1.774 (48-53%)            calls 1, 3
//                 16 x 4: 1.915-1.932, 1.953-1.967, 1.754-1.772 (48-53%)            calls 1, 3
//                 16 x 8: 1.953-1.975, 1.997-2.021, 1.816-1.838 (47-51%)            calls 1, 3, 4
//                 32 x 8: 2.102-2.103, 2.166-2.172, 1.988-1.995 (43-48%)            call 1
//                 16 x 16: 2.053,      2.095-2.110, 1.936-1.939 (44-49%)            call 1
//                 64 x 8: 2.265-2.275, 2.217-2.229, 2.160       (40-46%)            call 1
// Session 35 (h200-issue19-session35.json call 1, groups in turn, two rounds) around 8 x 4:
//                  8 x 3: 1.869-1.870, 1.916-1.917, 1.701-1.706 (50-54%)
//                  8 x 4: 1.857-1.859, 1.906-1.909, 1.692-1.700 (50-54%)
//                  8 x 5: 1.884,       1.920-1.945, 1.733-1.740 (49-53%)
//                  8 x 6: 1.854-1.861, 1.902-1.907, 1.710-1.717 (50-54%)
// Shorter work a team means fewer lanes idle on a short piece and a shorter tail (Nsight Compute
// on mode 3 at 16 x 8: 20.5 lanes of 32 active, one eligible warp a scheduler, the rest waiting
// on loads); under some 16 nonzeros a team the walk's fixed cost a group wins. Where fibers are
// short, a piece is a fiber of about one nonzero, and 8 x 4 lost to 16 x 8 (call 4): uniform
// shape (1.15-1.39 a fiber) 3.693, 3.759, 3.346 ms against 3.446, 3.513, 3.098; delicious-4d
// shape (1.07-1.22) mode 1 8.572 against 8.311.
inline std::uint64_t spttm_piece() {
    const unsigned long v = env_unsigned("TENSORSCOPE_SPTTM_PIECE", kSpttmPiece);
    return v == 4 || v == 8 || v == 16 || v == 32 || v == 64 ? v : kSpttmPiece;
}
inline std::uint32_t spttm_group(std::uint64_t pieces, std::uint64_t nnz) {
    const std::uint32_t chosen = nnz > 2 * pieces ? 4 : 8;
    const unsigned long v = env_unsigned("TENSORSCOPE_SPTTM_GROUP", chosen);
    return v >= 2 && v <= 16 ? static_cast<std::uint32_t>(v) : chosen;
}

// count[f] = fiber f's pieces (fibers are never empty); count[fibers] = 0, so that the exclusive
// scan leaves the pieces in all in its last entry.
__global__ void spttm_piece_count_kernel(std::uint64_t fibers, std::uint64_t piece,
                                         const std::uint64_t* __restrict__ fptr, std::uint64_t* __restrict__ count) {
    const std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (f < fibers)
        count[f] = (fptr[f + 1] - fptr[f] + piece - 1) / piece;
    else if (f == fibers)
        count[f] = 0;
}

// Fiber f's pieces, from first[f] on: each one's first nonzero and its fiber (Y's row: ids[f]).
template <class Ids>
__global__ void spttm_piece_fill_kernel(std::uint64_t fibers, std::uint64_t piece,
                                        const std::uint64_t* __restrict__ fptr, Ids ids,
                                        const std::uint64_t* __restrict__ first,
                                        std::uint32_t* __restrict__ piece_start,
                                        std::uint32_t* __restrict__ piece_fiber) {
    const std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (f >= fibers) return;
    std::uint64_t p = first[f];
    const auto row = static_cast<std::uint32_t>(ids[f]);
    for (std::uint64_t z = fptr[f]; z < fptr[f + 1]; z += piece, ++p)
        piece_start[p] = static_cast<std::uint32_t>(z), piece_fiber[p] = row;
}

// Fibers cut into more than one piece: those whose rows a team may add to rather than store.
struct CutFiber {
    const std::uint64_t* fptr;
    std::uint64_t piece;
    __device__ bool operator()(std::uint32_t f) const { return fptr[f + 1] - fptr[f] > piece; }
};

// Row f of Y cleared for every cut fiber f.
__global__ void spttm_clear_cut_kernel(std::uint64_t cut, std::uint64_t R4, const std::uint64_t* __restrict__ cut_fiber,
                                       float4* __restrict__ y) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i < cut * R4) y[cut_fiber[i / R4] * R4 + i % R4] = make_float4(0.f, 0.f, 0.f, 0.f);
}

// lengths[m] = fiber multi[m]'s nonzeros; lengths[count] = 0 (for the exclusive scan's total).
__global__ void spttm_multi_length_kernel(std::uint64_t count, const std::uint32_t* __restrict__ multi,
                                          const std::uint64_t* __restrict__ fptr, std::uint64_t* __restrict__ lengths) {
    const std::uint64_t m = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (m < count)
        lengths[m] = fptr[multi[m] + 1] - fptr[multi[m]];
    else if (m == count)
        lengths[m] = 0;
}

// Fiber multi[m]'s nonzeros copied to [to[m], to[m + 1]) of the compact arrays, a warp a fiber.
__global__ void spttm_multi_copy_kernel(std::uint64_t count, const std::uint32_t* __restrict__ multi,
                                        const std::uint64_t* __restrict__ fptr, const std::uint64_t* __restrict__ to,
                                        const std::uint32_t* __restrict__ idx, const float* __restrict__ val,
                                        std::uint32_t* __restrict__ out_idx, float* __restrict__ out_val) {
    const std::uint64_t m = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    if (m >= count) return;
    const std::uint64_t from = fptr[multi[m]], len = fptr[multi[m] + 1] - from;
    for (std::uint64_t z = threadIdx.x % 32; z < len; z += 32)
        out_idx[to[m] + z] = idx[from + z], out_val[to[m] + z] = val[from + z];
}

// The pieces of a plan's fibers, made once (the fibers do not change between computes): each
// one's first nonzero (start, with the walked nonzeros' count after the last) and its fiber, in 32
// bits (fits: the nonzeros, so the fibers and pieces too, under 2^31, room for the kernel's stride
// past the last group); the cut fibers. Where the plan has one-nonzero fibers (and
// TENSORSCOPE_SPTTM_SINGLES is not 0) those are the singles (spttm_singles.cuh) and the pieces
// cover the other fibers, whose nonzeros are copied into compact arrays (idx, val) in order, so
// that a piece still ends where the next begins; else idx and val are the plan's own arrays.
struct SpttmPieces {
    std::uint64_t pieces = 0, cut = 0;
    std::uint32_t group = 0;  // pieces a team walks
    DeviceArray<std::uint32_t> start, fiber;
    DeviceArray<std::uint64_t> cut_fiber;
    SpttmSingles singles;
    DeviceArray<std::uint32_t> compact_idx;
    DeviceArray<float> compact_val;
    const std::uint32_t* idx = nullptr;  // the nonzeros the pieces index
    const float* val = nullptr;

    static bool fits(std::uint64_t nnz) { return nnz < (std::uint64_t{1} << 31); }

    SpttmPieces(std::uint64_t fibers, std::uint64_t nnz, const std::uint64_t* fptr, const std::uint32_t* x_idx,
                const float* x_val, std::uint64_t u_rows) {
        if (!fits(nnz)) throw Error("SpTTM's fiber teams need under 2^31 nonzeros");
        const std::uint64_t piece = spttm_piece();
        if (spttm_singles_on(fibers, nnz)) singles = SpttmSingles(fibers, fptr, x_idx, x_val, u_rows);
        if (singles.count)
            cut_the_others(fibers, nnz - singles.count, fptr, x_idx, x_val, piece);
        else
            cut_them_all(fibers, nnz, fptr, x_idx, x_val, piece);
    }

private:
    // No singles: the pieces of every fiber, over the plan's own arrays.
    void cut_them_all(std::uint64_t fibers, std::uint64_t nnz, const std::uint64_t* fptr, const std::uint32_t* x_idx,
                      const float* x_val, std::uint64_t piece) {
        idx = x_idx, val = x_val;
        cut_into_pieces(fibers, nnz, fptr, thrust::counting_iterator<std::uint32_t>(0), fptr, piece);
    }

    // Beside the singles: the other fibers (ids in order), their `others` nonzeros copied compact,
    // and their pieces over those copies.
    void cut_the_others(std::uint64_t fibers, std::uint64_t others, const std::uint64_t* fptr,
                        const std::uint32_t* x_idx, const float* x_val, std::uint64_t piece) {
        DeviceArray<std::uint32_t> multi(fibers - singles.count);
        const std::uint64_t count =
            select_fibers(thrust::counting_iterator<std::uint32_t>(0), fibers, FiberIsSingle{fptr, false}, multi.get(),
                          "listing SpTTM's longer fibers");
        if (!count) return;
        DeviceArray<std::uint64_t> to(count + 1);
        spttm_multi_length_kernel<<<blocks_covering(count + 1), 256>>>(count, multi.get(), fptr, to.get());
        check(cudaGetLastError(), "measuring SpTTM's longer fibers");
        scan(to.get(), count + 1, "placing SpTTM's longer fibers");
        compact_idx = DeviceArray<std::uint32_t>(others);
        compact_val = DeviceArray<float>(others);
        spttm_multi_copy_kernel<<<blocks_covering(count * 32), 256>>>(count, multi.get(), fptr, to.get(), x_idx, x_val,
                                                                      compact_idx.get(), compact_val.get());
        check(cudaGetLastError(), "copying SpTTM's longer fibers");
        idx = compact_idx.get(), val = compact_val.get();
        cut_into_pieces(count, others, to.get(), multi.get(), fptr, piece);
    }

    // The pieces of `fibers` fibers [fptr[f], fptr[f + 1]) of `nnz` nonzeros (each one Y's row
    // ids[f]; x_fptr: the plan's fibers, which ids name).
    template <class Ids>
    void cut_into_pieces(std::uint64_t fibers, std::uint64_t nnz, const std::uint64_t* fptr, Ids ids,
                         const std::uint64_t* x_fptr, std::uint64_t piece) {
        DeviceArray<std::uint64_t> first(fibers + 1);
        spttm_piece_count_kernel<<<blocks_covering(fibers + 1), 256>>>(fibers, piece, fptr, first.get());
        check(cudaGetLastError(), "counting SpTTM's pieces");
        scan(first.get(), fibers + 1, "placing SpTTM's pieces");
        check(cudaMemcpy(&pieces, first.get() + fibers, sizeof pieces, cudaMemcpyDeviceToHost),
              "reading SpTTM's piece count");
        start = DeviceArray<std::uint32_t>(pieces + 1);
        fiber = DeviceArray<std::uint32_t>(pieces);
        spttm_piece_fill_kernel<<<blocks_covering(fibers), 256>>>(fibers, piece, fptr, ids, first.get(), start.get(),
                                                                  fiber.get());
        check(cudaGetLastError(), "placing SpTTM's pieces");
        const auto end = static_cast<std::uint32_t>(nnz);
        check(cudaMemcpy(start.get() + pieces, &end, sizeof end, cudaMemcpyHostToDevice), "ending SpTTM's pieces");
        group = spttm_group(pieces, nnz);
        cut_fiber = DeviceArray<std::uint64_t>(pieces - fibers + 1);  // at most one cut fiber a piece beyond the first
        cut = select_fibers(ids, fibers, CutFiber{x_fptr, piece}, cut_fiber.get(), "listing SpTTM's cut fibers");
    }

    static void scan(std::uint64_t* a, std::uint64_t n, const char* what) {  // exclusive, in place
        std::size_t bytes = 0;
        check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, a, a, n), "sizing the scan");
        DeviceArray<unsigned char> temp(bytes);
        check(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, a, a, n), what);
    }
};

// The teams at rank 32 (R4 = 8 float4 columns, a lane each), two loads a piece: a piece's range is
// [start[p], start[p + 1]) (the pieces cover the nonzeros in order), so its fiber's end is not
// looked up; and a run of pieces is the whole fiber unless it is the group's first run and the
// piece before the group has its fiber, or the group's last run and the piece after it has, so
// the fiber's offsets are not looked up either. Numbers in 32 bits (fewer registers, as MTTKRP's
// fiber loop measured); six blocks an SM. U's rows are addressed from the lane's column through
// opaque(), as MTTKRP's rank-32 loops do (one IMAD.WIDE a row where the address the compiler
// folds takes four). Measured on one H200 (session 41, 4aebdd9, TENSORSCOPE_SPTTM_ADDR,
// h200-issue19-session41.json call 1, rank 32, alternating): the nell-2 shape's modes took
// 1.763-1.766, 1.819-1.821 and 1.615-1.616 ms (52.7-56.4% of the copy bound then) in both rounds
// against 1.849-1.854, 1.896 and 1.691-1.695 with the folded address; the uniform shape's 3.41,
// 3.49 and 3.09 ms against 3.44, 3.52 and 3.12 (one round).
// A group's nonzeros are walked as one run (session 45), kBatch rows of U gathered at a time
// across piece edges; the edges (the next piece's fiber and end, broadcast loads of which the
// first brings the group's entries into L1) are met once those gathers are in flight. Walked piece
// by piece, a piece of a few nonzeros had one or two gathers in flight, each behind its piece's
// two loads. Measured on one H200 against that walk (c9fa0a4, TENSORSCOPE_SPTTM_FLAT,
// h200-issue19-session45.json call 3, singles apart, alternating; ms a mode, share of the copy
// bound): nell-2 shape, 2 rounds, 1.766-1.780, 1.808-1.823 and 1.602-1.614 (48.6-53.1%) against
// 1.805-1.807, 1.840-1.848 and 1.636-1.644 (47.7-52.1%); uniform shape 3.362, 3.457 and 2.925
// (67.5-69.0%) against 3.419, 3.499 and 3.015 (65.6-68.2%).
// Tried and removed (session 46): U's most-read rows copied into shared memory by each of a
// persistent grid's blocks (64-256 rows in six blocks of 256 threads an SM, 512-768 in two of
// 768), the team-walked indices relabelled to point there. On the host, the nell-2 shape's most-
// read 256 rows serve 40-49% of the teams' reads. On one H200 (7e07326, h200-issue19-session46.json
// call 1; medians, ms a mode) it lost everywhere: nell-2 shape 2.24-2.43 with 256 rows and
// 2.04-2.23 with 768, against 1.61-1.84; uniform 3.19-3.55 against 2.94-3.46; delicious-4d mode 3
// 6.73 against 6.31. What cost it was not measured apart: the persistent grid's stride, fewer warps resident,
// and a warp's teams splitting between the two reads are the candidates.
// Tried and removed (session 46, TENSORSCOPE_SPTTM_BATCH=8, d04fcf3, h200-issue19-session46.json
// call 2, one H200, medians, ms a mode): eight rows gathered at a time in four blocks an SM (64
// registers) lost to four in six: nell-2 shape, 2 rounds, 1.897-1.901, 1.938-1.942, 1.729-1.734
// against 1.773-1.782, 1.823-1.830, 1.609-1.615; uniform 3.443, 3.509, 3.059 against 3.369, 3.460,
// 2.930. Pieces and groups measured again under the run walk (same call, nell-2 shape): 8 x 4
// kept; 8 x 8 1.797, 1.854, 1.642; 16 x 4 1.848, 1.891, 1.667; 16 x 8 1.874, 1.918, 1.700;
// 32 x 4 1.969, 2.002, 1.765.
// Also tried and removed (session 46, TENSORSCOPE_SPTTM_PAIRS=1, 7fc461a, h200-issue19-
// session46.json call 3): the longer fibers' nonzeros copied as 64-bit pairs (index, value's bits),
// one load a nonzero rather than two: nell-2 shape, 2 rounds, 1.818-1.819, 1.856-1.865,
// 1.646-1.657 ms against 1.762-1.773, 1.800-1.808, 1.592-1.599; uniform 3.320, 3.400, 2.884
// against 3.318, 3.410, 2.894 (medians).
// Each team goes on to the singles (spttm_single_runs) once its groups are done, in the same
// launch (session 46; until then the singles' kernel ran after this one). Why:
// Nsight Compute on the nell-2 shape's mode 3 (h200-issue19-session46.json call 4) timed this
// kernel at 1.03 ms of the product's 1.59: the singles' kernel, whose random 128-byte writes of Y
// are DRAM's work, ran after it, while this one, its gathers hitting L2 (89%), kept DRAM 29% busy.
// In one launch the blocks at their singles write Y while the others gather. Measured on one
// H200 (8fdb464, call 5, alternating; medians, ms a mode, share of the copy bound): nell-2 shape,
// 2 rounds, 1.532-1.535, 1.574-1.587, 1.400 (55.6-60.5%) against 1.759-1.764, 1.799-1.807,
// 1.586-1.603 (48.7-53.0%); uniform shape mode 1 3.306 (69.6%) against 3.331 (69.2%). On
// delicious-4d's shape (d643ae6, h200-issue19-session47.json call 1, alternating) even: mode 2
// 6.526 against 6.526, mode 3 6.276 against 6.332 (68.5-68.8%).
__global__ void __launch_bounds__(256, 6)
    spttm_team_kernel(std::uint64_t pieces, std::uint32_t group, const std::uint32_t* __restrict__ piece_start,
                      const std::uint32_t* __restrict__ piece_fiber, const std::uint32_t* __restrict__ idx,
                      const float* __restrict__ val, const float4* __restrict__ u, float4* __restrict__ y,
                      SpttmSinglesView singles) {
    using Z = std::uint32_t;
    constexpr std::uint64_t R4 = 8;
    constexpr Z kBatch = 4;
    const Z thread = blockIdx.x * static_cast<Z>(blockDim.x) + threadIdx.x;
    const Z teams = gridDim.x * static_cast<Z>(blockDim.x) / 8;
    const Z n = static_cast<Z>(pieces), groups = static_cast<Z>((pieces + group - 1) / group);
    const std::uint64_t c = threadIdx.x % 8;
    const float4* __restrict__ u_col = opaque(u + c);
    for (Z g = thread / 8; g < groups; g += teams) {
        const Z p0 = g * group, p_end = p0 + group < n ? p0 + group : n;
        const Z z_end = piece_start[p_end];
        Z q = p0, fiber = piece_fiber[p0], edge = piece_start[p0 + 1];
        bool whole = p0 == 0 || piece_fiber[p0 - 1] != fiber;
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        for (Z z = piece_start[p0]; z < z_end; z += kBatch) {
            float4 r[kBatch];
            float x[kBatch];
#pragma unroll
            for (Z s = 0; s < kBatch; ++s) {
                const bool in = z + s < z_end;
                x[s] = in ? val[z + s] : 0.f;
                r[s] = in ? u_col[static_cast<std::uint64_t>(idx[z + s]) * R4] : make_float4(0.f, 0.f, 0.f, 0.f);
            }
#pragma unroll
            for (Z s = 0; s < kBatch; ++s) {
                if (z + s >= z_end) break;
                while (z + s >= edge) {  // the next piece: a new row where its fiber is another
                    ++q;
                    const Z f = piece_fiber[q];
                    if (f != fiber) {
                        float4* row = y + static_cast<std::uint64_t>(fiber) * R4 + c;
                        if (whole)
                            *row = acc;
                        else
                            atomic_add4(row, acc);
                        acc = make_float4(0.f, 0.f, 0.f, 0.f), fiber = f, whole = true;
                    }
                    edge = piece_start[q + 1];
                }
                fma4(acc, x[s], r[s]);
            }
        }
        whole = whole && (p_end == n || piece_fiber[p_end] != fiber);
        float4* row = y + static_cast<std::uint64_t>(fiber) * R4 + c;
        if (whole)
            *row = acc;
        else
            atomic_add4(row, acc);
    }
    spttm_single_runs(thread / 8, teams, singles, u_col, y);
}

// Y = X ×_n U by fiber teams at rank 32 on the default stream: the cut fibers' rows cleared, the
// teams, then the singles.
inline void launch_spttm_teams(const SpttmPieces& p, const float* u, float* y) {
    constexpr std::uint64_t R4 = 8;
    auto* y4 = reinterpret_cast<float4*>(y);
    const auto* u4 = reinterpret_cast<const float4*>(u);
    if (p.cut) spttm_clear_cut_kernel<<<blocks_covering(p.cut * R4), 256>>>(p.cut, R4, p.cut_fiber.get(), y4);
    const std::uint64_t groups = p.group ? (p.pieces + p.group - 1) / p.group : 0;
    const SpttmSinglesView singles = p.singles.view();
    if (groups)
        spttm_team_kernel<<<grid_for((groups + singles.runs()) * 8), 256>>>(
            p.pieces, p.group, p.start.get(), p.fiber.get(), p.idx, p.val, u4, y4, singles);
    else
        launch_spttm_singles(p.singles, u4, y4);
}

}  // namespace
}  // namespace tscope::gpu
