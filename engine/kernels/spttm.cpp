#include "tscope/kernels/spttm.hpp"

#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"

namespace tscope {

std::unique_ptr<SparseFormat> spttm_omp(const SparseFormat& x, int mode, const DenseMatrix& u, RunControl& control);

const char* spttm_variant_name(SpttmVariant v) {
    switch (v) {
    case SpttmVariant::Naive: return "naive";
    case SpttmVariant::FineGrained: return "fg";
    case SpttmVariant::Coalesced: return "mc";
    case SpttmVariant::RankBlocked: return "rb";
    case SpttmVariant::SharedMemory: return "sm";
    }
    return "?";
}

SpttmVariant parse_spttm_variant(const std::string& name) {
    for (SpttmVariant v : kSpttmVariants)
        if (name == spttm_variant_name(v)) return v;
    throw InputError("unknown SpTTM variant '" + name + "' (known: naive, fg, mc, rb, sm)");
}

bool spttm_supports(Backend backend, FormatKind kind) {
    if (backend == Backend::CpuRef) return true;
    return (backend == Backend::Omp || (backend == Backend::Cuda && cuda_built())) &&
           (kind == FormatKind::COO || kind == FormatKind::sCOO);
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
    case Backend::Omp: return spttm_omp(x, mode, u, control);
    case Backend::Cuda: {
        const GpuInfo gpu = query_gpu();
        if (!gpu.available) throw Error(gpu.reason);
        SpttmPlan plan = SpttmPlan::prepare(x, mode, u.cols, Backend::Cuda);
        plan.compute(u, control);
        return plan.take_result();
    }
    }
    return nullptr;
}

}  // namespace tscope
