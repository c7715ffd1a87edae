// The MTTKRP kernels' launchers, on arrays already in device memory: what the resident tensors
// and the streamed ones (a chunk at a time) share. Private to engine/cuda.
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "coo_group.hpp"
#include "gpu_mttkrp.hpp"
#include "hot_out.cuh"

namespace tscope::gpu {

// What a resident COO's launch needs to know of a mode: its rows (largest index + 1) and the
// longest chain of adds the team kernel makes into one row (its runs in the nonzeros' order,
// plus its nonzeros over the team's group).
struct CooModeShape {
    std::uint64_t rows = 0, longest_chain = 0;
};

// COO: idx[order] and vals hold nnz nonzeros; out (fp64) accumulates (a streamed chunk's; the
// resident tensor's launch adds into fp32 output copies instead).
void launch_coo_mttkrp(std::uint64_t nnz, int order, const std::uint32_t* const* idx, const float* vals, int mode, std::uint64_t R,
                       const float* const* factors, double* out, cudaStream_t stream);

// The tree level that is `mode` (the leaves' where none above is).
int level_of(const Fibers& meta, int mode);

// meta.fibers fibers of a tree in the fiber layout (meta's level modes and counts; its pointers
// unused): anc[levels] and fiber_ptr (fibers + 1) in device memory, fiber f's nonzeros at
// leaf/vals[fiber_ptr[f] - base, fiber_ptr[f + 1] - base). out (fp32) accumulates. hot: where
// the mode's level holds hot rows' copy ids (hot_rows.cuh's HotRemap, passed in anc or leaf),
// the first copy id and the copies' rows; none by default.
void launch_fiber_mttkrp(const Fibers& meta, const std::uint32_t* const* anc, const std::uint64_t* fiber_ptr,
                         std::uint64_t base, const std::uint32_t* leaf, const float* vals, int mode, std::uint64_t R,
                         const float* const* factors, float* out, cudaStream_t stream, HotTarget hot = {});

// BLCO: the block table of the whole tensor (device arrays: block_ptr, blocks + 1 entries, and
// each mode's high bits per block) and the key's fields; nnz nonzeros at keys/vals (device), the
// first of them the tensor's nonzero `base` (a streamed chunk's offset: blocks are found by the
// tensor's numbering). out (fp32) accumulates.
struct BlcoTable {
    std::uint64_t blocks = 0;
    const std::uint64_t* block_ptr = nullptr;
    std::vector<const std::uint64_t*> high;
    std::vector<unsigned> shift, width;
};
// copies > 1: out holds that many outputs, `stride` floats apart, and group g of nonzeros adds
// into copy g % copies (the resident kernel's way to keep fp32 sums short; see gpu_mttkrp.cu).
// hot: where one copy is all that fits, the mode's hot rows' own copies (hot_out.cuh).
struct OutputCopies {
    unsigned count = 1;
    std::uint64_t stride = 0;
    HotOut hot;
};
// `group`: nonzeros a team walks (coo_group.hpp; the resident tensor's sized to it, a streamed
// chunk's kCooGroup, its one fp32 output having no copies to bound a row's adds).
void launch_blco_mttkrp(const BlcoTable& table, const std::uint64_t* keys, const float* vals, std::uint64_t base,
                        std::uint64_t nnz, int mode, std::uint64_t R, const float* const* factors, float* out,
                        cudaStream_t stream, OutputCopies copies = {}, std::uint64_t group = kCooGroup);

}  // namespace tscope::gpu
