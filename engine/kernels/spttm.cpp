#include "tscope/kernels/spttm.hpp"

#include <limits>

#include "cpu/cpu_kernels.hpp"
#include "kernels/kernel_registrations.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"

namespace tscope {

namespace {

void check_u(const SparseFormat& x, int mode, const DenseMatrix& u) {
    const auto& dims = x.dims();
    check_mode(mode, static_cast<int>(dims.size()));
    if (u.rows != dims[static_cast<std::size_t>(mode)] || u.cols == 0)
        throw InputError("the TTM matrix is " + std::to_string(u.rows) + " x " + std::to_string(u.cols) + ", expected " +
                         std::to_string(dims[static_cast<std::size_t>(mode)]) + " x R");
}

}  // namespace

const char* spttm_variant_name(SpttmVariant v) {
    switch (v) {
    case SpttmVariant::Naive: return "naive";
    case SpttmVariant::FineGrained: return "fg";
    case SpttmVariant::Coalesced: return "mc";
    case SpttmVariant::RankBlocked: return "rb";
    case SpttmVariant::SharedMemory: return "sm";
    case SpttmVariant::WarpBatches: return "wb";
    case SpttmVariant::Cusparse: return "cusparse";
    }
    return "?";
}

SpttmVariant parse_spttm_variant(const std::string& name) {
    for (SpttmVariant v : kSpttmVariants)
        if (name == spttm_variant_name(v)) return v;
    throw InputError("unknown SpTTM variant '" + name + "' (known: naive, fg, mc, rb, sm, wb, cusparse)");
}

FormatOptions spttm_options(int order, int mode) {
    FormatOptions o;
    for (int m = 0; m < order; ++m)
        if (m != mode) o.mode_order.push_back(m);
    o.mode_order.push_back(mode);
    o.mode = o.mode_order.front();
    return o;
}

std::unique_ptr<SparseFormat> spttm(Backend backend, const SparseFormat& x, int mode, const DenseMatrix& u,
                                    RunControl& control) {
    switch (backend) {
    case Backend::CpuRef: {
        if (mode < 0 || mode >= static_cast<int>(x.dims().size()) || u.rows != x.dims()[static_cast<std::size_t>(mode)])
            throw InputError("SpTTM: bad mode or matrix shape");
        return spttm_reference(x.to_coo(), mode, u);
    }
    case Backend::Omp: {
        check_u(x, mode, u);
        SpttmPlan plan = SpttmPlan::prepare(x, mode, u.cols);
        plan.compute(u, control);
        return plan.take_result();
    }
    case Backend::Cuda: {
        require_gpu();
        SpttmPlan plan = SpttmPlan::prepare(x, mode, u.cols, Backend::Cuda);
        plan.compute(u, control);
        return plan.take_result();
    }
    }
    return nullptr;
}

SpttmPlan SpttmPlan::prepare(const SparseFormat& x, int mode, std::uint64_t rank, Backend backend, SpttmVariant variant) {
    const auto& dims = x.dims();
    check_mode(mode, static_cast<int>(dims.size()));
    if (rank == 0) throw InputError("the TTM rank must be at least 1");
    if (backend == Backend::CpuRef) throw InputError("SpttmPlan runs on omp or cuda; cpu-ref is spttm_reference");
    if (backend == Backend::Cuda) {
        require_gpu();
        for (auto d : dims)
            if (d >= std::numeric_limits<std::uint32_t>::max()) throw InputError("the CUDA SpTTM needs every mode shorter than 2^32 - 1");
    }
    SpttmPrepared p = spttm_prepare(x, mode, rank, {backend, variant});
    SpttmPlan plan;
    plan.result_ = std::move(p.result);
    plan.compute_ = std::move(p.compute);
    plan.bytes_ = p.bytes;
    plan.rows_ = dims[static_cast<std::size_t>(mode)];
    plan.rank_ = rank;
    return plan;
}

void SpttmPlan::compute(const DenseMatrix& u, RunControl& control, DeviceTiming* timing) {
    if (!result_) throw Error("SpttmPlan: the result was taken");
    if (u.rows != rows_ || u.cols != rank_)
        throw InputError("the TTM matrix is " + std::to_string(u.rows) + " x " + std::to_string(u.cols) + ", expected " +
                         std::to_string(rows_) + " x " + std::to_string(rank_));
    control.check();
    compute_(u, timing, control);
}

// SpTTM runs on COO (Alg. 1) and SspTTM on sCOO (Alg. 5), the oracle included: its input is the
// COO or sCOO a TTM chain hands it.
void detail::register_spttm_kernels(KernelRegistry& r) {
    using enum FormatKind;
    r.add(KernelKind::SpTTM, Backend::CpuRef, {COO, sCOO});
    r.add(KernelKind::SpTTM, Backend::Omp, {COO, sCOO});   // cpu/spttm_cpu.cpp
    r.add(KernelKind::SpTTM, Backend::Cuda, {COO, sCOO});  // kernels/spttm_cuda.cpp
}

}  // namespace tscope
