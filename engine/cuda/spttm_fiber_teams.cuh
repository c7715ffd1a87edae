// SpTTM with fiber teams (ours; an experiment, TENSORSCOPE_SPTTM_TEAMS=1, session 32): the
// warp-batch variant's work (gpu_spttm.cu) walked as MTTKRP's fiber kernel walks a
// tree (gpu_mttkrp.cu). Every fiber is cut into pieces of at most kSpttmPiece nonzeros, a team of
// 8 lanes (each one float4 of a row) takes kSpttmGroup consecutive pieces, and every lane loads
// each nonzero's index and value itself (one address across the team) rather than a lane each
// passed round by shuffles, as the warp batches do: the loop that ran MTTKRP's fiber kernel
// 1.5x faster (session 26, gpu_mttkrp.cu beside team_fiber_group). Its sum is stored where the
// team walked the whole fiber and added by vector atomics where the fiber's pieces fall to several
// teams; those fibers' rows of Y are cleared first. The warp batches ran the nell-2 shape at
// 40-45% of the copy bound (issue 19: 50%), MTTKRP's fiber loop over the same nonzeros and
// gathers faster (1.76-1.91 ms a mode against 2.13-2.29). Needs R % 4 == 0.
// Measured on one H200 (session 32, e5072e7, docs/bench/h200-issue19-session32.json call 6,
// alternating twice, rank 32, six blocks, 32-bit numbers, the pieces' arrays then 64-bit): the
// nell-2 shape 1.955-2.172 ms a mode (43-47% of the copy bound) against the warp batches'
// 2.131-2.294 (40-45%), every mode 5-8% faster in both rounds. Not yet measured: the uniform
// shape (fibers of 1-2 nonzeros, where the warp batches reach 57-62%), the five-block bound and
// the walk with two loads a piece (=2, below); until then the warp batches stay the default.
// Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "cuda_util.cuh"
#include "float4_math.cuh"

namespace tscope::gpu {
namespace {

constexpr std::uint64_t kSpttmPiece = 16;  // nonzeros a piece at most, MTTKRP's split length
constexpr std::uint64_t kSpttmGroup = 8;   // pieces a team walks

// count[f] = fiber f's pieces (fibers are never empty); count[fibers] = 0, so that the exclusive
// scan leaves the pieces in all in its last entry.
__global__ void spttm_piece_count_kernel(std::uint64_t fibers, const std::uint64_t* __restrict__ fptr,
                                         std::uint64_t* __restrict__ count) {
    const std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (f < fibers)
        count[f] = (fptr[f + 1] - fptr[f] + kSpttmPiece - 1) / kSpttmPiece;
    else if (f == fibers)
        count[f] = 0;
}

// Fiber f's pieces, from first[f] on: each one's first nonzero and its fiber (T: 32 or 64 bits,
// SpttmPieces::index32).
template <class T>
__global__ void spttm_piece_fill_kernel(std::uint64_t fibers, const std::uint64_t* __restrict__ fptr,
                                        const std::uint64_t* __restrict__ first, T* __restrict__ piece_start,
                                        T* __restrict__ piece_fiber) {
    const std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (f >= fibers) return;
    std::uint64_t p = first[f];
    for (std::uint64_t z = fptr[f]; z < fptr[f + 1]; z += kSpttmPiece, ++p)
        piece_start[p] = static_cast<T>(z), piece_fiber[p] = static_cast<T>(f);
}

// Fibers cut into more than one piece: those whose rows a team may add to rather than store.
struct CutFiber {
    const std::uint64_t* fptr;
    __device__ bool operator()(std::uint64_t f) const { return fptr[f + 1] - fptr[f] > kSpttmPiece; }
};

// Row f of Y cleared for every cut fiber f.
__global__ void spttm_clear_cut_kernel(std::uint64_t cut, std::uint64_t R4, const std::uint64_t* __restrict__ cut_fiber,
                                       float4* __restrict__ y) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i < cut * R4) y[cut_fiber[i / R4] * R4 + i % R4] = make_float4(0.f, 0.f, 0.f, 0.f);
}

// The pieces of a plan's fibers, made once (the fibers do not change between computes): each
// one's first nonzero (start, with nnz after the last) and its fiber, in 32 bits where they fit
// (index32: start32 and fiber32 filled) and 64 otherwise (start64, fiber64); the cut fibers.
struct SpttmPieces {
    std::uint64_t fibers = 0, nnz = 0, pieces = 0, cut = 0;
    DeviceArray<std::uint32_t> start32, fiber32;
    DeviceArray<std::uint64_t> start64, fiber64, cut_fiber;

    SpttmPieces(std::uint64_t fibers_in, std::uint64_t nnz_in, const std::uint64_t* fptr)
        : fibers(fibers_in), nnz(nnz_in) {
        DeviceArray<std::uint64_t> first(fibers + 1);
        spttm_piece_count_kernel<<<grid_blocks(fibers + 1), 256>>>(fibers, fptr, first.get());
        check(cudaGetLastError(), "counting SpTTM's pieces");
        std::size_t bytes = 0;
        check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, first.get(), first.get(), fibers + 1), "sizing the scan");
        DeviceArray<unsigned char> temp(bytes);
        check(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, first.get(), first.get(), fibers + 1),
              "placing SpTTM's pieces");
        check(cudaMemcpy(&pieces, first.get() + fibers, sizeof pieces, cudaMemcpyDeviceToHost),
              "reading SpTTM's piece count");
        if (index32())
            fill(fptr, first.get(), start32, fiber32);
        else
            fill(fptr, first.get(), start64, fiber64);
        cut_fiber = DeviceArray<std::uint64_t>(pieces - fibers + 1);  // at most one cut fiber a piece beyond the first
        DeviceArray<std::uint64_t> selected(1);
        const thrust::counting_iterator<std::uint64_t> ids(0);
        check(cub::DeviceSelect::If(nullptr, bytes, ids, cut_fiber.get(), selected.get(), fibers, CutFiber{fptr}),
              "sizing the selection");
        DeviceArray<unsigned char> temp2(bytes);
        check(cub::DeviceSelect::If(temp2.get(), bytes, ids, cut_fiber.get(), selected.get(), fibers, CutFiber{fptr}),
              "listing SpTTM's cut fibers");
        check(cudaMemcpy(&cut, selected.get(), sizeof cut, cudaMemcpyDeviceToHost), "reading the cut fibers' count");
    }

    static unsigned grid_blocks(std::uint64_t items) { return static_cast<unsigned>((items + 255) / 256); }
    // Whether the kernel's numbers fit 32 bits, with room for its stride past the last group.
    bool index32() const {
        constexpr std::uint64_t limit = std::uint64_t{1} << 31;
        return fibers < limit && nnz < limit && pieces < limit;
    }

private:
    template <class T>
    void fill(const std::uint64_t* fptr, const std::uint64_t* first, DeviceArray<T>& start, DeviceArray<T>& fiber) {
        start = DeviceArray<T>(pieces + 1);
        fiber = DeviceArray<T>(pieces);
        spttm_piece_fill_kernel<<<grid_blocks(fibers), 256>>>(fibers, fptr, first, start.get(), fiber.get());
        check(cudaGetLastError(), "placing SpTTM's pieces");
        const auto end = static_cast<T>(nnz);
        check(cudaMemcpy(start.get() + pieces, &end, sizeof end, cudaMemcpyHostToDevice), "ending SpTTM's pieces");
    }
};

// Where a team's run of pieces of fiber f, nonzeros [begin, end), goes: stored where it is the
// whole fiber, added where other teams hold the rest.
template <class Z>
__device__ inline void spttm_team_flush(const std::uint64_t* __restrict__ fptr, Z f, Z begin, Z end, std::uint64_t R4,
                                        std::uint64_t c, float4 acc, float4* __restrict__ y) {
    float4* row = y + static_cast<std::uint64_t>(f) * R4 + c;
    if (begin == fptr[f] && end == fptr[f + 1])
        *row = acc;
    else
        atomic_add4(row, acc);
}

// Teams of 8 lanes over groups of kSpttmGroup pieces; lane `lane` owns columns 4c..4c+3 for
// c = lane, lane + 8, ... < R4 (one pass over the group each). RANK32: R4 is 8, one pass. Z:
// the type of the piece, fiber and nonzero numbers (32 bits where SpttmPieces::index32: fewer
// registers, as MTTKRP's fiber loop measured).
template <int BLOCKS, bool RANK32, class Z>
__global__ void __launch_bounds__(256, BLOCKS)
    spttm_team_kernel(std::uint64_t pieces, std::uint64_t R4_arg, const std::uint64_t* __restrict__ fptr,
                      const Z* __restrict__ piece_start, const Z* __restrict__ piece_fiber,
                      const std::uint32_t* __restrict__ idx, const float* __restrict__ val,
                      const float4* __restrict__ u, float4* __restrict__ y) {
    const std::uint64_t R4 = RANK32 ? 8 : R4_arg;
    const Z thread = blockIdx.x * static_cast<Z>(blockDim.x) + threadIdx.x;
    const Z teams = gridDim.x * static_cast<Z>(blockDim.x) / 8;
    const Z n = static_cast<Z>(pieces), groups = static_cast<Z>((pieces + kSpttmGroup - 1) / kSpttmGroup);
    for (Z g = thread / 8; g < groups; g += teams) {
        const Z p0 = g * static_cast<Z>(kSpttmGroup),
                p_end = p0 + static_cast<Z>(kSpttmGroup) < n ? p0 + static_cast<Z>(kSpttmGroup) : n;
        for (std::uint64_t c = threadIdx.x % 8; c < R4; c += 8) {
            float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
            Z fiber = piece_fiber[p0], begin = piece_start[p0], end = begin;
            for (Z p = p0; p < p_end; ++p) {
                const Z f = piece_fiber[p], lo = piece_start[p];
                const Z fiber_end = static_cast<Z>(fptr[f + 1]);
                const Z hi =
                    lo + static_cast<Z>(kSpttmPiece) < fiber_end ? lo + static_cast<Z>(kSpttmPiece) : fiber_end;
                if (f != fiber) {
                    spttm_team_flush(fptr, fiber, begin, end, R4, c, acc, y);
                    acc = make_float4(0.f, 0.f, 0.f, 0.f), fiber = f, begin = lo;
                }
#pragma unroll 4
                for (Z z = lo; z < hi; ++z) fma4(acc, val[z], u[static_cast<std::uint64_t>(idx[z]) * R4 + c]);
                end = hi;
            }
            spttm_team_flush(fptr, fiber, begin, end, R4, c, acc, y);
        }
    }
}

// The rank-32 kernel's register bound: TENSORSCOPE_SPTTM_TEAMS_BLOCKS=4|5|6 (6 otherwise).
inline int spttm_team_bound() {
    const unsigned long b = env_unsigned("TENSORSCOPE_SPTTM_TEAMS_BLOCKS", 6);
    return b >= 4 && b <= 6 ? static_cast<int>(b) : 6;
}

// TENSORSCOPE_SPTTM_TEAMS=2 (session 32, not yet run on a GPU): the rank-32 walk above with two
// loads a piece instead of four. A piece's range is [start[p], start[p + 1]) (the pieces cover
// the nonzeros in order), so its fiber's end is not looked up; and a run of pieces is the whole
// fiber unless it is the group's first run and the piece before the group has its fiber, or the
// group's last run and the piece after it has, so the fiber's offsets are not looked up either.
// A piece's fiber and its end are independent loads, where the walk above waits on the fiber to
// load its end.
template <int BLOCKS, class Z>
__global__ void __launch_bounds__(256, BLOCKS)
    spttm_team_ends_kernel(std::uint64_t pieces, const Z* __restrict__ piece_start, const Z* __restrict__ piece_fiber,
                           const std::uint32_t* __restrict__ idx, const float* __restrict__ val,
                           const float4* __restrict__ u, float4* __restrict__ y) {
    constexpr std::uint64_t R4 = 8;
    const Z thread = blockIdx.x * static_cast<Z>(blockDim.x) + threadIdx.x;
    const Z teams = gridDim.x * static_cast<Z>(blockDim.x) / 8;
    const Z n = static_cast<Z>(pieces), groups = static_cast<Z>((pieces + kSpttmGroup - 1) / kSpttmGroup);
    const std::uint64_t c = threadIdx.x % 8;
    for (Z g = thread / 8; g < groups; g += teams) {
        const Z p0 = g * static_cast<Z>(kSpttmGroup),
                p_end = p0 + static_cast<Z>(kSpttmGroup) < n ? p0 + static_cast<Z>(kSpttmGroup) : n;
        Z fiber = piece_fiber[p0], lo = piece_start[p0];
        bool whole = p0 == 0 || piece_fiber[p0 - 1] != fiber;  // the run began at its fiber's first piece
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        for (Z p = p0; p < p_end; ++p) {
            const Z f = piece_fiber[p], hi = piece_start[p + 1];
            if (f != fiber) {
                float4* row = y + static_cast<std::uint64_t>(fiber) * R4 + c;
                if (whole)
                    *row = acc;
                else
                    atomic_add4(row, acc);
                acc = make_float4(0.f, 0.f, 0.f, 0.f), fiber = f, whole = true;
            }
#pragma unroll 4
            for (Z z = lo; z < hi; ++z) fma4(acc, val[z], u[static_cast<std::uint64_t>(idx[z]) * R4 + c]);
            lo = hi;
        }
        whole = whole && (p_end == n || piece_fiber[p_end] != fiber);  // and ends at its last
        float4* row = y + static_cast<std::uint64_t>(fiber) * R4 + c;
        if (whole)
            *row = acc;
        else
            atomic_add4(row, acc);
    }
}

// Y = X ×_n U by fiber teams on the default stream: the cut fibers' rows cleared, then the teams
// (ends: spttm_team_ends_kernel where it applies, rank 32 and 32-bit numbers).
inline void launch_spttm_teams(const SpttmPieces& p, bool ends, std::uint64_t R, const std::uint64_t* fptr,
                               const std::uint32_t* idx, const float* val, const float* u, float* y) {
    const std::uint64_t R4 = R / 4;
    auto* y4 = reinterpret_cast<float4*>(y);
    if (p.cut) spttm_clear_cut_kernel<<<SpttmPieces::grid_blocks(p.cut * R4), 256>>>(p.cut, R4, p.cut_fiber.get(), y4);
    const std::uint64_t groups = (p.pieces + kSpttmGroup - 1) / kSpttmGroup;
    if (!groups) return;
    const int grid = grid_for(groups * 8), bound = spttm_team_bound();
    const auto* u4 = reinterpret_cast<const float4*>(u);
    if (!p.index32()) {  // 64-bit numbers
        auto* kernel = R4 == 8 ? spttm_team_kernel<5, true, std::uint64_t> : spttm_team_kernel<6, false, std::uint64_t>;
        kernel<<<grid, 256>>>(p.pieces, R4, fptr, p.start64.get(), p.fiber64.get(), idx, val, u4, y4);
    } else if (R4 != 8) {
        spttm_team_kernel<6, false, std::uint32_t>
            <<<grid, 256>>>(p.pieces, R4, fptr, p.start32.get(), p.fiber32.get(), idx, val, u4, y4);
    } else if (ends) {
        auto* kernel = bound == 4   ? spttm_team_ends_kernel<4, std::uint32_t>
                       : bound == 5 ? spttm_team_ends_kernel<5, std::uint32_t>
                                    : spttm_team_ends_kernel<6, std::uint32_t>;
        kernel<<<grid, 256>>>(p.pieces, p.start32.get(), p.fiber32.get(), idx, val, u4, y4);
    } else {
        auto* kernel = bound == 4   ? spttm_team_kernel<4, true, std::uint32_t>
                       : bound == 5 ? spttm_team_kernel<5, true, std::uint32_t>
                                    : spttm_team_kernel<6, true, std::uint32_t>;
        kernel<<<grid, 256>>>(p.pieces, R4, fptr, p.start32.get(), p.fiber32.get(), idx, val, u4, y4);
    }
}

}  // namespace
}  // namespace tscope::gpu
