// The CUDA SpTTM / SspTTM kernels' host interface (spttm Sec. 4.2 and 5): plain arrays, fp32.
// A device plan uploads the tensor once (the paper's preprocessing keeps X on the device
// across Tucker iterations) and computes for any U. Private.
#pragma once

#include <cstdint>
#include <memory>

#include "gpu_timing.hpp"

namespace tscope::gpu {

// The five GPU-SpTTM implementations of Sec. 4.2, in the paper's order, then ours (warp
// batches), then cuSPARSE's CSR SpMM (the fibers as rows of a sparse matrix times U).
enum class SpttmKernel { Naive = 0, FineGrained = 1, Coalesced = 2, RankBlocked = 3, SharedMemory = 4, WarpBatches = 5, Cusparse = 6 };

// X sorted with mode n last; fiber f is [fptr[f], fptr[f+1]); idx: mode-n index per nonzero.
struct SpttmInput {
    std::uint64_t fibers = 0, nnz = 0;
    const std::uint64_t* fptr = nullptr;
    const std::uint32_t* idx = nullptr;
    const float* val = nullptr;
};

// A semi-sparse Y (chunks of sy values) for SspTTM in one of its sparse modes: output chunk i
// sums the input chunks order[cptr[i] .. cptr[i+1]); idx[j] is input chunk j's mode-n index.
struct SspttmInput {
    std::uint64_t zchunks = 0, chunks = 0, sy = 0;
    const std::uint64_t* cptr = nullptr;   // zchunks + 1
    const std::uint64_t* order = nullptr;  // chunks
    const std::uint32_t* idx = nullptr;    // chunks
    const float* val = nullptr;            // chunks x sy
};

class SpttmDevice {
public:
    // Uploads X (timing.upload_s). Throws tscope::Error (out of memory included), freeing all.
    SpttmDevice(const SpttmInput& x, std::uint64_t u_rows, std::uint64_t rank, Timing& timing);
    SpttmDevice(const SspttmInput& y, std::uint64_t u_rows, std::uint64_t rank, Timing& timing);
    ~SpttmDevice();
    SpttmDevice(const SpttmDevice&) = delete;
    SpttmDevice& operator=(const SpttmDevice&) = delete;
    // u: u_rows x rank, row-major. out: fibers x rank (SpTTM) or zchunks x rank x sy (SspTTM).
    // The kernel choice applies to SpTTM; SspTTM has the one of Sec. 5 (a block per chunk).
    void compute(SpttmKernel kernel, const float* u, float* out, Timing& timing);
    // SspTTM: the input's values again (a Tucker chain recomputes its first product in every
    // iteration); the structure stays. Adds the copy to timing.upload_s.
    void update_values(const float* val, Timing& timing);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tscope::gpu
