// MTTKRP over several GPUs (or N parts on fewer GPUs): the nonzeros cut into balanced parts on
// slice boundaries (by position for COO), each part's format (COO, CSF, B-CSF, MM-CSF) built
// on its GPU, every part's partial result combined with NCCL (a gather where the parts own
// their output rows, a sum where they overlap). What `bench --gpus N` runs and CPD's
// multi-GPU run is made of.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

// The formats with a multi-GPU build: COO, CSF, B-CSF and MM-CSF.
bool multi_gpu_supports(FormatKind format);
std::vector<FormatKind> multi_gpu_formats();

struct MultiGpuTiming {
    double upload_s = 0;      // the factors to every GPU
    double kernel_s = 0;      // every part's kernels, the GPUs running together
    double collective_s = 0;  // combining the parts
    double download_s = 0;    // the result back
};

class MultiGpuMttkrp {
public:
    // gpus: parts, one per GPU (0: all); slots, where given, the GPU of each part (parts may
    // share one). rank: the rank the MTTKRPs will run at, where known, so that CSF's and B-CSF's
    // trees take the GPU's level order and shared-memory tiles for it (0: SPLATT's order, tiles
    // by their rule alone; any rank runs either way). Throws InputError for too few GPUs or a
    // format without a GPU build, Error without a GPU or NCCL.
    MultiGpuMttkrp(const CooTensor& t, FormatKind format, int gpus, const std::vector<int>& slots = {},
                   RunControl& control = no_control(), std::uint64_t rank = 0);
    ~MultiGpuMttkrp();
    MultiGpuMttkrp(const MultiGpuMttkrp&) = delete;
    MultiGpuMttkrp& operator=(const MultiGpuMttkrp&) = delete;

    // out (dims[mode] x R) = the MTTKRP of `mode` with `factors` (each dims[m] x R).
    void run(int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out, MultiGpuTiming* timing = nullptr);
    int parts() const;
    std::vector<int> devices() const;
    // [structure][part]: each mode's format for the per-mode formats (CSF, B-CSF), else one.
    std::vector<std::vector<std::uint64_t>> part_nnz() const;
    double build_seconds() const;
    // Device bytes of the parts' formats that serve `mode`: their arrays, not the shared-memory
    // tiles some trees keep beside them (what an MTTKRP must read at least).
    std::uint64_t device_bytes(int mode) const;
    // The nonzeros, all parts together, whose trees run `mode`'s MTTKRP at `rank` over
    // shared-memory tiles (order-3 trees of short fibers rooted at the mode:
    // cuda/shared_tiles_rule.hpp).
    std::uint64_t tile_nonzeros(int mode, std::uint64_t rank) const;
    // The levels of the tree that serves `mode`, root first (CSF, B-CSF); empty for COO and MM-CSF.
    const std::vector<int>& tree_order(int mode) const;
    // MM-CSF's partitions' levels, indexed by leaf mode, root first (the GPU's level order at the
    // rank given); empty for the other formats.
    const std::vector<std::vector<int>>& partition_orders() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace tscope
