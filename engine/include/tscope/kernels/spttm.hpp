// SpTTM and SspTTM (spttm-sspttm-tucker-gpu Sec. 4-5):
//   Y = X x_n U, U: I_n x R, Y(.., r, ..) = sum_k X(.., k, ..) U(k, r)
// The result is semi-sparse (sCOO): mode n becomes dense, of length R. SpTTM (Alg. 1) runs on a
// COO sorted with mode n last (spttm_options): every mode-n fiber of X gives one dense R-vector.
// SspTTM (Alg. 5) runs on sCOO, for a sparse mode n of it: chunks sharing the other sparse
// indices are combined into one chunk of R x (the input chunk). Flops: 2 nnz R (Eq. 3).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "tscope/formats/paper_formats.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

using SemiSparse = ScooFormat<std::uint64_t, double>;

// The five GPU-SpTTM implementations of spttm Sec. 4.2, kept side by side: naive (Alg. 2),
// fine-grained threads (Alg. 3), memory-coalesced, rank-blocked, shared memory (Alg. 4); and a
// sixth, ours: warp batches (a warp per 256 consecutive nonzeros, their loads and U's gathers
// batched; gpu_spttm.cu says why); and the library's: SpTTM on a COO sorted with the mode last
// is a sparse matrix (fibers x I_n) times U, cuSPARSE's CSR SpMM.
enum class SpttmVariant { Naive, FineGrained, Coalesced, RankBlocked, SharedMemory, WarpBatches, Cusparse };
inline constexpr SpttmVariant kSpttmVariants[] = {SpttmVariant::Naive,        SpttmVariant::FineGrained, SpttmVariant::Coalesced,
                                                  SpttmVariant::RankBlocked,  SpttmVariant::SharedMemory, SpttmVariant::WarpBatches,
                                                  SpttmVariant::Cusparse};
const char* spttm_variant_name(SpttmVariant v);  // naive, fg, mc, rb, sm, wb, cusparse
SpttmVariant parse_spttm_variant(const std::string& name);  // InputError listing the names

// The oracle, from coordinates: one chunk per non-empty mode-n fiber, sparse modes ascending.
std::unique_ptr<SemiSparse> spttm_reference(const CooTensor& t, int mode, const DenseMatrix& u);

// The paper's two stages (spttm Sec. 4.1): preprocessing finds the fibers (f_ptr) or chunks
// (c_ptr) and pre-allocates the result with its indices; computing fills the values. A plan
// is prepared once per (input, mode, rank) and computed as often as wanted (e.g. in every
// Tucker iteration). The input must outlive the plan.
class SpttmPlan {
public:
    // x: a COO built with spttm_options (SpTTM) or an sCOO whose mode `mode` is sparse (SspTTM).
    // backend omp or cuda; cuda keeps x on the device (fp32) and runs `variant` for SpTTM
    // (SspTTM has one GPU kernel, a block per output chunk). The default, our warp batches, took
    // 1.96-2.22 ms a mode on the nell-2 shape at ranks 8 and 16 against the paper's shared-memory
    // kernel's 4.04-6.23 (one H200, h200-issue19-session34.json call 1, both in one run).
    static SpttmPlan prepare(const SparseFormat& x, int mode, std::uint64_t rank, Backend backend = Backend::Omp,
                             SpttmVariant variant = SpttmVariant::WarpBatches);
    // timing (cuda): U's upload, the kernel and the result's download, apart.
    void compute(const DenseMatrix& u, RunControl& control = no_control(), DeviceTiming* timing = nullptr);
    const SparseFormat& result() const { return *result_; }
    std::unique_ptr<SparseFormat> take_result() { return std::move(result_); }
    // omp: what one compute() reads and writes apart from U (indices, values, fiber or chunk
    // ranges, the result's values); 0 on cuda.
    std::uint64_t bytes_per_compute() const { return bytes_; }

private:
    std::function<void(const DenseMatrix&, DeviceTiming*, RunControl&)> compute_;
    std::unique_ptr<SparseFormat> result_;
    std::uint64_t rows_ = 0, rank_ = 0, bytes_ = 0;
};

// prepare + compute, for one-off products.
std::unique_ptr<SparseFormat> spttm(Backend backend, const SparseFormat& x, int mode, const DenseMatrix& u,
                                    RunControl& control = no_control());
FormatOptions spttm_options(int order, int mode);
// SpTTM on sCOO (SspTTM) reads a TTM chain's product X x_first U: the chain's first mode for
// `mode`, the last one (the second to last where `mode` is the last). bench builds that input
// and the advisor counts it by this.
inline int sspttm_chain_mode(int order, int mode) { return mode == order - 1 ? order - 2 : order - 1; }

// Max relative error between two semi-sparse results holding the same entries (zeros
// included, any order); infinity if their coordinates differ.
double semi_sparse_max_relative_error(const SparseFormat& a, const SparseFormat& reference);

}  // namespace tscope
