// MTTKRP: out(i_n, :) = sum over nonzeros X(i_1..i_N) * prod_{m != n} A_m(i_m, :)
// (mm-csf-mttkrp Eq. 1-4). One interface, three backends: cpu-ref (serial over COO: the
// oracle), omp (OpenMP, per format) and cuda. Flops are counted on the COO basis: 3 nnz R.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

// The oracle: plain serial loop over the COO nonzeros, double accumulation. `control` is
// checked every 64Ki nonzeros: a cancel waits milliseconds, not the whole serial pass.
void mttkrp_reference(const CooTensor& t, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                      RunControl& control = no_control());

// Where a GPU run spent its time (transfers kept apart from the kernels).

// out must be dims[mode] x R; factors[m] dims[m] x R for every m (factors[mode] is unused).
// Formats: COO, CSF, B-CSF, MM-CSF (omp); cpu-ref accepts any format (through to_coo()).
// cuda computes in fp32 (COO, CSF, B-CSF, MM-CSF) and fills *timing when given.
void mttkrp(Backend backend, const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors,
            DenseMatrix& out, RunControl& control = no_control(), DeviceTiming* timing = nullptr);

// What an MTTKRP over shared-memory tiles moves through L2: each block copies its tile's factor
// rows into shared memory (copied_bytes, all blocks together) and adds one output row (R floats,
// by atomics) per run of one row in a team's nonzeros (added_rows). nonzeros: those the tiles
// hold (a tree's all; of MM-CSF, those of the partitions rooted at the mode that take tiles).
struct SharedTileTraffic {
    std::uint64_t copied_bytes = 0;
    std::uint64_t added_rows = 0;
    std::uint64_t nonzeros = 0;
};

struct HotRowUse {
    std::uint64_t rows = 0;
    std::uint64_t copies = 0;
};

// Repeated MTTKRPs on one format (CPD-ALS): the cuda backend flattens and uploads the tensor
// once and each compute uploads only the factors. The format must outlive the plan.
class MttkrpPlan {
public:
    // rank: the rank every compute() will run at, where it is known (the bench's rows, the CPD),
    // so that the upload keeps no shared-memory tiles that rank would not read; 0: any rank.
    MttkrpPlan(Backend backend, const SparseFormat& format, std::uint64_t rank = 0);
    ~MttkrpPlan();
    MttkrpPlan(MttkrpPlan&&) noexcept;
    void compute(int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out, RunControl& control = no_control(),
                 DeviceTiming* timing = nullptr);
    Backend backend() const { return backend_; }
    // cuda: the seconds the tensor's upload took (0 where each compute uploads it: HLS, the CPU)
    double upload_seconds() const;
    // cuda: where `mode`'s product at `rank` runs over shared-memory tiles (an order-3 tree of
    // short fibers rooted at the mode, or such MM-CSF partitions; at rank 32 or 16),
    // what they move through L2 in place of a factor row gathered per nonzero; nullopt where the
    // format's own kernels run it all.
    std::optional<SharedTileTraffic> shared_tiles(int mode, std::uint64_t rank) const;
    // The output rows mode's product at rank R adds into fp32 copies of their own (the device's hot
    // rows: a heavy row's chain of adds cut to about 8,192 each), and those copies; zeros where none.
    HotRowUse hot_rows(int mode, std::uint64_t rank) const;

private:
    struct Resident;
    Backend backend_;
    const SparseFormat* format_;
    std::unique_ptr<Resident> resident_;
};


}  // namespace tscope
