// HOCFS (CSR or ELL slices) and CFB flattened for the GPU SpTV kernels into pinned host
// memory: the arrays of gpu::PinnedSptv (fp32 values, 32-bit indices), plus the units a
// pipeline chunk never splits. The one-shot CUDA SpTV and the pipelined one (Fig. 11's
// partition step) both start here. Private to the engine.
#pragma once

#include <memory>
#include <vector>

#include "cuda/gpu_pipeline.hpp"
#include "tscope/formats/format.hpp"

namespace tscope::detail {

// A unit that a chunk never splits: a slice (HOCFS-CSR), an ELL block (HOCFS-ELL, the
// fibers' parent nodes) or a fiber bucket (CFB).
struct Unit {
    std::uint64_t row_end, entry_end;  // exclusive ends; a unit starts where the one before ends
};

struct Flattened {
    std::unique_ptr<gpu::PinnedSptv> pinned;
    std::vector<Unit> units;
};

// The shape of the flattening without its arrays: what a chunk cut needs (the pipeline's
// prediction cuts a tensor this way on a machine without a GPU, where no pinned memory exists).
struct SptvUnits {
    bool ell = false;
    std::uint64_t rows = 0, entries = 0;
    std::vector<Unit> units;
};

// InputError for any format but HOCFS-CSR, HOCFS-ELL and CFB.
Flattened flatten_for_sptv(const SparseFormat& format);
SptvUnits sptv_units(const SparseFormat& format);

}  // namespace tscope::detail
