// SpTTM's one-nonzero fibers taken in the order of their rows of U (ours, session 45), beside the
// fiber teams that walk the other fibers (spttm_fiber_teams.cuh). A fiber of one nonzero x at U's
// row k is Y's row x U(k, :): no sum. Walked in fiber order, as the teams walk, U's rows are
// gathered at random, and where U is larger than L2 (delicious-4d's second mode: 17.3M rows, 2.2 GB
// at rank 32) nearly every 128-byte row comes from DRAM, once for each nonzero: 17.9 GB of gathers
// a product, more than all of Y's writes. Sorted by k once when the plan is made, the singles read
// each row of U about once, and Y's rows, written whole (128 bytes, a team of 8 lanes), are what
// lands at random instead. Their k, fiber and value are copied into the plan (12 bytes a single),
// which also spares the teams' two piece entries. Measured on one H200 at rank 32 (cd67896,
// TENSORSCOPE_SPTTM_SINGLES, h200-issue19-session45.json calls 1-2; ms a mode, share of the copy
// bound), singles apart against among the pieces:
//   delicious-4d shape  6.373, 6.716, 6.444, 6.517 (66.6-71.2%)   8.272, 9.005, 8.679, 6.686 (49.8-69.4%)
//   uniform shape       3.413, 3.491, 3.023 (65.4-68.3%)          3.462, 3.544, 3.127 (63.3-67.4%)
//   nell-2 shape        1.798-1.803, 1.852-1.856, 1.636-1.642    1.792, 1.842-1.855, 1.641-1.648 (2 rounds)
// (the nell-2 shape's U, 1.2 to 3.7 MB, fits in L2). Since session 46 the teams walk the singles
// in the teams' launch once their groups are done (spttm_team_kernel), rather than the singles'
// kernel after it: on the nell-2 shape 13-14% faster a mode; the kernel here now runs only where
// there are no groups. Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "float4_math.cuh"

namespace tscope::gpu {
namespace {

// Whether a plan of `fibers` fibers and `nnz` nonzeros takes its one-nonzero fibers apart: yes,
// unless TENSORSCOPE_SPTTM_SINGLES=0 (read when a plan first cuts its fibers, so that one process
// can compare both) or the copies could not have twice their bytes free: at most, while they are
// made, 32 bytes a fiber (the lists, the sort's keys and buffers, the singles' copies, the other
// fibers' offsets) and 8 a nonzero (the others' compact copy). A plan near the device's memory then
// walks as it did before the singles, rather than failing.
inline bool spttm_singles_on(std::uint64_t fibers, std::uint64_t nnz) {
    if (env_is("TENSORSCOPE_SPTTM_SINGLES", "0")) return false;
    return 2 * (32 * fibers + 8 * nnz) < free_device_bytes();
}

// Fibers of one nonzero (single) or of more (!single).
struct FiberIsSingle {
    const std::uint64_t* fptr;
    bool single;
    __device__ bool operator()(std::uint32_t f) const { return (fptr[f + 1] - fptr[f] == 1) == single; }
};

__global__ void spttm_single_key_kernel(std::uint64_t n, const std::uint32_t* __restrict__ fiber,
                                        const std::uint64_t* __restrict__ fptr, const std::uint32_t* __restrict__ idx,
                                        std::uint32_t* __restrict__ key) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i < n) key[i] = idx[fptr[fiber[i]]];
}

__global__ void spttm_single_value_kernel(std::uint64_t n, const std::uint32_t* __restrict__ fiber,
                                          const std::uint64_t* __restrict__ fptr, const float* __restrict__ val,
                                          float* __restrict__ out) {
    const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = val[fptr[fiber[i]]];
}

// The bits that hold every row number of U (at least 1).
inline int row_bits(std::uint64_t rows) {
    int bits = 1;
    while (bits < 32 && (std::uint64_t{1} << bits) < rows) ++bits;
    return bits;
}

// The fibers ids[0, n) for which keep holds, in order, into out; their count (CUB's selection).
template <class Ids, class Keep, class Out>
std::uint64_t select_fibers(Ids ids, std::uint64_t n, Keep keep, Out* out, const char* what) {
    DeviceArray<std::uint64_t> selected(1);
    std::size_t bytes = 0;
    check(cub::DeviceSelect::If(nullptr, bytes, ids, out, selected.get(), n, keep), "sizing a selection of fibers");
    DeviceArray<unsigned char> temp(bytes);
    check(cub::DeviceSelect::If(temp.get(), bytes, ids, out, selected.get(), n, keep), what);
    std::uint64_t count = 0;
    check(cudaMemcpy(&count, selected.get(), sizeof count, cudaMemcpyDeviceToHost), "reading a count of fibers");
    return count;
}

constexpr std::uint32_t kSingleRun = 8;  // singles a team takes at a time

// What the kernels read of a plan's singles (SpttmSingles::view).
struct SpttmSinglesView {
    std::uint32_t count;
    const std::uint32_t* __restrict__ k;
    const std::uint32_t* __restrict__ fiber;
    const float* __restrict__ val;
    __host__ __device__ std::uint32_t runs() const { return (count + kSingleRun - 1) / kSingleRun; }
};

// The one-nonzero fibers of a plan (fibers and nonzeros under 2^31), sorted by U's row (stable:
// fiber order within a row): the row k, Y's row (the fiber) and the value of each.
struct SpttmSingles {
    std::uint64_t count = 0;
    DeviceArray<std::uint32_t> k, fiber;
    DeviceArray<float> val;

    SpttmSinglesView view() const { return {static_cast<std::uint32_t>(count), k.get(), fiber.get(), val.get()}; }

    SpttmSingles() = default;
    SpttmSingles(std::uint64_t fibers, const std::uint64_t* fptr, const std::uint32_t* idx, const float* values,
                 std::uint64_t u_rows) {
        DeviceArray<std::uint32_t> listed(fibers);
        count = select_fibers(thrust::counting_iterator<std::uint32_t>(0), fibers, FiberIsSingle{fptr, true},
                              listed.get(), "listing SpTTM's one-nonzero fibers");
        if (!count) return;
        DeviceArray<std::uint32_t> keys(count);
        spttm_single_key_kernel<<<blocks_covering(count), 256>>>(count, listed.get(), fptr, idx, keys.get());
        check(cudaGetLastError(), "reading the singles' rows of U");
        k = DeviceArray<std::uint32_t>(count);
        fiber = DeviceArray<std::uint32_t>(count);
        const int bits = row_bits(u_rows);
        std::size_t bytes = 0;
        check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.get(), k.get(), listed.get(), fiber.get(), count, 0,
                                              bits),
              "sizing the singles' sort");
        {
            DeviceArray<unsigned char> temp(bytes);
            check(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, keys.get(), k.get(), listed.get(), fiber.get(),
                                                  count, 0, bits),
                  "sorting the singles by U's row");
        }
        val = DeviceArray<float>(count);
        spttm_single_value_kernel<<<blocks_covering(count), 256>>>(count, fiber.get(), fptr, values, val.get());
        check(cudaGetLastError(), "copying the singles' values");
    }
};

// Y's rows of the singles at rank 32 (R4 = 8 float4 columns, a lane each): a team of 8 lanes
// takes kSingleRun consecutive singles, each lane loading every single's k, fiber and value (one
// address across the team) and its column of U's row; a row met again by the next single is an L1
// hit. Six blocks an SM, as the teams. Measured against 8 blocks and against 16 singles a team on
// one H200 (session 45, cd67896, h200-issue19-session45.json calls 1-2, delicious-4d shape's mode
// 2): 6 x 8 6.716 ms, 8 x 8 6.724, 6 x 16 6.792, 8 x 16 6.827.
// spttm_single_runs walks one team's runs, first, first + stride, ... (u_col: U offset to the
// lane's column); the kernel gives each of its teams a share.
__device__ inline void spttm_single_runs(std::uint32_t first, std::uint32_t stride, SpttmSinglesView s,
                                         const float4* __restrict__ u_col, float4* __restrict__ y) {
    using Z = std::uint32_t;
    constexpr std::uint64_t R4 = 8;
    const Z runs = s.runs();
    const std::uint64_t c = threadIdx.x % 8;
    for (Z g = first; g < runs; g += stride) {
        const Z i0 = g * kSingleRun, i_end = i0 + kSingleRun < s.count ? i0 + kSingleRun : s.count;
#pragma unroll 4
        for (Z i = i0; i < i_end; ++i)
            y[static_cast<std::uint64_t>(s.fiber[i]) * R4 + c] =
                s.val[i] * u_col[static_cast<std::uint64_t>(s.k[i]) * R4];
    }
}
__global__ void __launch_bounds__(256, 6)
    spttm_single_kernel(SpttmSinglesView s, const float4* __restrict__ u, float4* __restrict__ y) {
    const std::uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
    spttm_single_runs(thread / 8, gridDim.x * blockDim.x / 8, s, opaque(u + threadIdx.x % 8), y);
}

inline void launch_spttm_singles(const SpttmSingles& s, const float4* u, float4* y) {
    if (!s.count) return;
    spttm_single_kernel<<<grid_for(std::uint64_t{s.view().runs()} * 8), 256>>>(s.view(), u, y);
}

}  // namespace
}  // namespace tscope::gpu
