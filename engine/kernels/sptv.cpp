#include "tscope/kernels/sptv.hpp"

#include "cpu/cpu_kernels.hpp"
#include "kernels/kernel_registrations.hpp"
#include "kernels/sptv_cuda.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"

namespace tscope {

FormatOptions sptv_options(FormatKind kind, int order, int mode) {
    FormatOptions o;
    o.mode = mode;
    if (kind == FormatKind::CFB) return o;  // CFB's fibers run along the mode it is built for
    for (int m = 0; m < order; ++m)
        if (m != mode) o.mode_order.push_back(m);
    o.mode_order.push_back(mode);
    o.mode = o.mode_order.front();
    return o;
}

CooTensor sptv(Backend backend, const SparseFormat& format, int mode, const std::vector<double>& v, RunControl& control,
               DeviceTiming* timing) {
    const auto& dims = format.dims();
    check_mode(mode, static_cast<int>(dims.size()));
    if (dims.size() < 2) throw InputError("SpTV needs a tensor of order 2 or more");
    if (v.size() != dims[static_cast<std::size_t>(mode)])
        throw InputError("the SpTV vector has " + std::to_string(v.size()) + " entries, mode " + std::to_string(mode + 1) +
                         " has length " + std::to_string(dims[static_cast<std::size_t>(mode)]));
    switch (backend) {
    case Backend::CpuRef: return sptv_reference(format.to_coo(), mode, v);
    case Backend::Omp:
    case Backend::Cuda: {
        control.check();
        SptvPlan plan = SptvPlan::prepare(format, mode, backend);
        plan.compute(v, control, timing);
        return plan.take_result();
    }
    }
    return {};
}

SptvPlan SptvPlan::prepare(const SparseFormat& format, int mode, Backend backend) {
    check_mode(mode, static_cast<int>(format.dims().size()));
    SptvPlan plan;
    plan.length_ = format.dims()[static_cast<std::size_t>(mode)];
    switch (backend) {
    case Backend::CpuRef: throw InputError("SptvPlan runs on omp or cuda; cpu-ref is sptv_reference");
    case Backend::Omp: {
        SptvPrepared p = sptv_prepare_omp(format, mode);
        plan.result_ = std::move(p.layout);
        plan.values_ = [values = std::move(p.values)](const double* v, double* out, DeviceTiming*) { values(v, out); };
        plan.bytes_ = p.bytes;
        break;
    }
    case Backend::Cuda: {
        require_gpu();
        detail::SptvCudaPrepared p = detail::sptv_prepare_cuda(format, mode);
        plan.result_ = std::move(p.layout);
        plan.values_ = std::move(p.values);
        plan.packed_ = p.packed;
        plan.replays_ = p.replays;
        break;
    }
    }
    return plan;
}

void SptvPlan::compute(const std::vector<double>& v, RunControl& control, DeviceTiming* timing) {
    if (!values_) throw Error("SptvPlan: not prepared, or its result was taken");
    if (v.size() != length_)
        throw InputError("the SpTV vector has " + std::to_string(v.size()) + " entries, the mode has length " + std::to_string(length_));
    control.check();
    values_(v.data(), result_.values<double>().data(), timing);
}

CooTensor SptvPlan::take_result() {
    values_ = nullptr;
    return std::move(result_);
}

void detail::register_sptv_kernels(KernelRegistry& r) {
    using enum FormatKind;
    r.oracle(KernelKind::SpTV);
    r.add(KernelKind::SpTV, Backend::Omp, {COO, HOCSR, CFB, HOCFS_CSR, HOCFS_ELL, CSF});   // cpu/sptv_cpu.cpp
    r.add(KernelKind::SpTV, Backend::Cuda, {COO, HOCSR, CFB, HOCFS_CSR, HOCFS_ELL, CSF});  // kernels/sptv_cuda.cpp
}

}  // namespace tscope
