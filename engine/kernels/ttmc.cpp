// TTMc: the argument checks, the dispatch to the backends and the kernel's registry entries.
#include "tscope/kernels/ttmc.hpp"

#include "cpu/cpu_kernels.hpp"
#include "kernels/hls_cuda.hpp"
#include "kernels/kernel_registrations.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"

namespace tscope {

void ttmc_cuda(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
               DeviceTiming* timing);

std::uint64_t ttmc_columns(const std::vector<DenseMatrix>& factors, int mode) {
    std::uint64_t cols = 1;
    for (std::size_t m = 0; m < factors.size(); ++m)
        if (static_cast<int>(m) != mode && __builtin_mul_overflow(cols, factors[m].cols, &cols))
            throw InputError("TTMc's output for mode " + std::to_string(mode + 1) +
                             " would have more than 2^64 columns (the product of the other modes' ranks)");
    return cols;
}

FormatOptions ttmc_options(int order, int mode) {
    FormatOptions o;
    o.mode = mode;
    o.mode_order.push_back(mode);
    for (int m = 0; m < order; ++m)
        if (m != mode) o.mode_order.push_back(m);
    return o;
}

void ttmc(Backend backend, const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors,
          DenseMatrix& out, RunControl& control, DeviceTiming* timing) {
    const auto& dims = format.dims();
    const int order = static_cast<int>(dims.size());
    check_mode(mode, order);
    if (static_cast<int>(factors.size()) != order) throw InputError("TTMc needs one factor matrix per mode");
    for (int m = 0; m < order; ++m)
        if (m != mode && (factors[static_cast<std::size_t>(m)].rows != dims[static_cast<std::size_t>(m)] || factors[static_cast<std::size_t>(m)].cols == 0))
            throw InputError("factor matrix of mode " + std::to_string(m + 1) + " must have " + std::to_string(dims[static_cast<std::size_t>(m)]) + " rows");
    if (out.rows != dims[static_cast<std::size_t>(mode)] || out.cols != ttmc_columns(factors, mode))
        throw InputError("the TTMc output must be " + std::to_string(dims[static_cast<std::size_t>(mode)]) + " x " +
                         std::to_string(ttmc_columns(factors, mode)));
    control.check();
    switch (backend) {
    case Backend::CpuRef: ttmc_reference(format.to_coo(), mode, factors, out); return;
    case Backend::Omp: {
        ttmc_omp(format, mode, factors, out);
        control.check();
        return;
    }
    case Backend::Cuda: {
        require_gpu();
        if (detail::hls_cuda(format, mode, true, factors, out, timing)) return;  // tensor cores (hls Alg. 1)
        ttmc_cuda(format, mode, factors, out, timing);
        return;
    }
    }
}

void detail::register_ttmc_kernels(KernelRegistry& r) {
    using enum FormatKind;
    r.oracle(KernelKind::TTMc);
    r.add(KernelKind::TTMc, Backend::Omp, {COO, CSF, HLS});  // cpu/ttmc_cpu.cpp
    r.add(KernelKind::TTMc, Backend::Cuda, {COO, HLS});      // kernels/ttmc_cuda.cpp, hls_cuda.cpp
}

}  // namespace tscope
