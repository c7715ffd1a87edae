#include "tscope/kernels/sptv.hpp"

#include "cpu/cpu_kernels.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"

namespace tscope {

CooTensor sptv_cuda(const SparseFormat& format, int mode, const std::vector<double>& v, DeviceTiming* timing);

bool sptv_supports(Backend backend, FormatKind kind) {
    if (backend == Backend::CpuRef) return true;
    if (backend == Backend::Omp)
        return kind == FormatKind::COO || kind == FormatKind::HOCSR || kind == FormatKind::CFB ||
               kind == FormatKind::HOCFS_CSR || kind == FormatKind::HOCFS_ELL || kind == FormatKind::CSF;
    return cuda_built() && (kind == FormatKind::COO || kind == FormatKind::HOCSR || kind == FormatKind::CFB ||
                            kind == FormatKind::HOCFS_CSR || kind == FormatKind::HOCFS_ELL || kind == FormatKind::CSF);
}

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
    if (mode < 0 || mode >= static_cast<int>(dims.size()))
        throw InputError("mode " + std::to_string(mode + 1) + " is out of range: the tensor has " + std::to_string(dims.size()) + " modes");
    if (dims.size() < 2) throw InputError("SpTV needs a tensor of order 2 or more");
    if (v.size() != dims[static_cast<std::size_t>(mode)])
        throw InputError("the SpTV vector has " + std::to_string(v.size()) + " entries, mode " + std::to_string(mode + 1) +
                         " has length " + std::to_string(dims[static_cast<std::size_t>(mode)]));
    switch (backend) {
    case Backend::CpuRef: return sptv_reference(format.to_coo(), mode, v);
    case Backend::Omp: return sptv_omp(format, mode, v, control);
    case Backend::Cuda: {
        const GpuInfo gpu = query_gpu();
        if (!gpu.available) throw Error(gpu.reason);
        control.check();
        return sptv_cuda(format, mode, v, timing);
    }
    }
    return {};
}

}  // namespace tscope
