// EXPERIMENT (session 45, not yet measured; TENSORSCOPE_SPTTM_HOT=64|128|256, off unless set): the
// rows of U that SpTTM's fiber teams read most, copied into each block's shared memory at the
// start of a product, so that their gathers leave L2 alone. Why: on the nell-2 shape U fits in L2
// (1.2-3.7 MB), and the teams' gathers, a 128-byte row a nonzero (9.8 GB a product), are what the
// kernel waits on: mode 3 reaches 58% of the gather bound and 49% of the copy bound
// (h200-issue19-session45.json call 3). Power-law indices are read very unevenly; if the hottest
// few hundred rows serve a large share of the nonzeros, those gathers move to shared memory.
// The team-walked nonzeros' indices are relabelled once, at plan time: a hot row's nonzeros hold
// kHotBit | its slot, the others their row. Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "sptv_hot_columns.cuh"

namespace tscope::gpu {
namespace {

constexpr std::uint32_t kHotBit = 0x80000000u;

// The hot rows a plan asks for: TENSORSCOPE_SPTTM_HOT, 64 to 256 (32 KB of shared memory in each
// of six blocks of 256 threads an SM) or 512 and 768 (96 KB in each of two blocks of 768), else
// none. On the nell-2 shape (tensorscope-cli generate as device_steps.sh's gen_nell2) the team-
// walked nonzeros' (those outside one-nonzero fibers) most-read 256 rows of U serve 47%, 49% and
// 40% of their reads in modes 1-3, the most-read 1,024 rows 64%, 67% and 56% (counted on the host).
inline std::uint32_t spttm_hot_wanted() {
    const unsigned long v = env_unsigned("TENSORSCOPE_SPTTM_HOT", 0);
    return v == 64 || v == 128 || v == 256 || v == 512 || v == 768 ? static_cast<std::uint32_t>(v) : 0;
}

// slot[rows[s]] = s.
__global__ void spttm_hot_slot_kernel(std::uint32_t hot, const std::uint32_t* __restrict__ rows,
                                      std::uint32_t* __restrict__ slot) {
    const std::uint32_t s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s < hot) slot[rows[s]] = s;
}

// idx[z] = kHotBit | slot of its row where that row is hot (slot != ~0), in place.
__global__ void spttm_hot_relabel_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ slot,
                                         std::uint32_t* __restrict__ idx) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t z = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; z < nnz; z += stride) {
        const std::uint32_t s = slot[idx[z]];
        if (s != ~0u) idx[z] = kHotBit | s;
    }
}

// The hot rows of U for `nnz` team-walked nonzeros whose rows idx names (relabelled in place):
// the most-read first, at most the plan's ask, none where U has 2^31 rows or more.
struct SpttmHotRows {
    std::uint32_t count = 0;
    DeviceArray<std::uint32_t> rows;

    SpttmHotRows() = default;
    SpttmHotRows(std::uint32_t wanted, std::uint64_t nnz, std::uint32_t* idx, std::uint64_t u_rows) {
        if (!wanted || !nnz || u_rows >= kHotBit) return;
        count = static_cast<std::uint32_t>(wanted < u_rows ? wanted : u_rows);
        ReadOrder order = ids_by_reads(nnz, idx, u_rows);
        rows = DeviceArray<std::uint32_t>(count);
        check(cudaMemcpy(rows.get(), order.by_id.get(), count * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice),
              "keeping the hot rows");
        DeviceArray<std::uint32_t>& slot = order.ids;  // reused: ~0 but for the hot rows
        check(cudaMemset(slot.get(), 0xff, u_rows * sizeof(std::uint32_t)), "clearing the rows' slots");
        spttm_hot_slot_kernel<<<blocks_covering(count), 256>>>(count, rows.get(), slot.get());
        spttm_hot_relabel_kernel<<<grid_for(nnz), 256>>>(nnz, slot.get(), idx);
        check(cudaGetLastError(), "relabelling the hot rows' nonzeros");
    }
};

}  // namespace
}  // namespace tscope::gpu
