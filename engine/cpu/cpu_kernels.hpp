// The OpenMP kernels behind the public kernel interfaces. Private to the engine.
#pragma once

#include <functional>

#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/spttm.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/kernels/ttmc.hpp"

namespace tscope {

void mttkrp_omp(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
                RunControl& control);

template <class I, class V> class AltoFormat;
namespace detail {
// cpu/mttkrp_alto.cpp: ALTO's MTTKRP (out zeroed by the caller).
template <class I, class V>
void alto_mttkrp(const AltoFormat<I, V>& f, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out, RunControl& control);
}  // namespace detail

void ttmc_omp(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out);

// SpTV on one format prepared for SptvPlan: the result's layout (values zero), the values
// kernel, and the bytes one run of it walks.
struct SptvPrepared {
    CooTensor layout;
    std::function<void(const double* v, double* out)> values;
    std::uint64_t bytes = 0;
};
SptvPrepared sptv_prepare_omp(const SparseFormat& format, int mode);
// SpTV's result for a format without the values (zero): its fibers, in the format's fiber
// order, with their coordinates. The cuda backend fills in the values it computes.
CooTensor sptv_layout(const SparseFormat& format, int mode);
// The first nonzero of every mode-n fiber of a COO sorted with the mode last, plus nnz.
std::vector<std::uint64_t> coo_fiber_starts(const SparseFormat& coo, int mode);

// SpTTM (COO) or SspTTM (sCOO) prepared for SpttmPlan on either backend: the result laid out
// on the host, how to compute its values, and the bytes one omp run reads and writes apart
// from U (the benchmark's GB/s).
struct SpttmWhere {
    Backend backend = Backend::Omp;
    SpttmVariant variant = SpttmVariant::WarpBatches;  // the GPU kernel (SpttmPlan::prepare says why)
};
struct SpttmPrepared {
    std::unique_ptr<SparseFormat> result;
    // omp sees a cancel between fibers or chunks, and then throws Cancelled (at rank 128 one
    // SspTTM of a 2M-nonzero tensor took a second); cuda looks before it starts
    std::function<void(const DenseMatrix&, DeviceTiming*, RunControl&)> compute;
    std::uint64_t bytes = 0;
};
SpttmPrepared spttm_prepare(const SparseFormat& x, int mode, std::uint64_t rank, SpttmWhere where);

}  // namespace tscope
