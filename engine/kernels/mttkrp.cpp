#include "tscope/kernels/mttkrp.hpp"

#include "cuda/gpu_mttkrp.hpp"
#include "kernels/hls_cuda.hpp"
#include "kernels/kernel_registrations.hpp"
#include "kernels/mttkrp_cuda.hpp"

#include "cpu/cpu_kernels.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"

namespace tscope {

namespace {

void check_shapes(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, const DenseMatrix& out) {
    const auto& dims = format.dims();
    const int order = static_cast<int>(dims.size());
    check_mode(mode, order);
    if (static_cast<int>(factors.size()) != order)
        throw InputError("MTTKRP needs one factor matrix per mode (" + std::to_string(order) + "), got " +
                         std::to_string(factors.size()));
    const std::uint64_t R = out.cols;
    if (R == 0) throw InputError("the rank must be at least 1");
    for (int m = 0; m < order; ++m) {
        const DenseMatrix& f = factors[static_cast<std::size_t>(m)];
        if (m != mode && (f.rows != dims[static_cast<std::size_t>(m)] || f.cols != R))
            throw InputError("factor matrix of mode " + std::to_string(m + 1) + " is " + std::to_string(f.rows) + " x " +
                             std::to_string(f.cols) + ", expected " + std::to_string(dims[static_cast<std::size_t>(m)]) +
                             " x " + std::to_string(R));
    }
    if (out.rows != dims[static_cast<std::size_t>(mode)])
        throw InputError("the MTTKRP output needs " + std::to_string(dims[static_cast<std::size_t>(mode)]) + " rows");
}

}  // namespace

void mttkrp(Backend backend, const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors,
            DenseMatrix& out, RunControl& control, DeviceTiming* timing) {
    check_shapes(format, mode, factors, out);
    switch (backend) {
    case Backend::CpuRef: {
        const CooTensor t = format.to_coo();  // the oracle works on coordinates, whatever the format
        mttkrp_reference(t, mode, factors, out, control);
        return;
    }
    case Backend::Omp: mttkrp_omp(format, mode, factors, out, control); return;
    case Backend::Cuda: {
        require_gpu();
        control.check();
        if (detail::hls_cuda(format, mode, false, factors, out, timing)) return;  // tensor cores (hls Alg. 2)
        mttkrp_cuda(format, mode, factors, out, timing);
        return;
    }
    }
}

struct MttkrpPlan::Resident {
    std::shared_ptr<gpu::ResidentTensor> tensor;
};

MttkrpPlan::MttkrpPlan(Backend backend, const SparseFormat& format, std::uint64_t rank)
    : backend_(backend), format_(&format) {
    if (backend != Backend::Cuda || format.kind() == FormatKind::HLS) return;  // HLS: one call at a time
    require_gpu();
    resident_ = std::make_unique<Resident>(Resident{mttkrp_cuda_upload(format, rank)});
}

MttkrpPlan::~MttkrpPlan() = default;
MttkrpPlan::MttkrpPlan(MttkrpPlan&&) noexcept = default;

double MttkrpPlan::upload_seconds() const { return resident_ ? resident_->tensor->upload_seconds() : 0.0; }

std::optional<SharedTileTraffic> MttkrpPlan::shared_tiles(int mode, std::uint64_t rank) const {
    if (!resident_) return std::nullopt;
    const gpu::ResidentTensor::TileTraffic t = resident_->tensor->shared_tiles(mode, rank);
    if (t.blocks == 0) return std::nullopt;
    return SharedTileTraffic{t.blocks * t.block_bytes, t.row_adds, t.nonzeros};
}

HotRowUse MttkrpPlan::hot_rows(int mode, std::uint64_t rank) const {
    if (!resident_) return {};
    const gpu::ResidentTensor::HotRowUse h = resident_->tensor->hot_rows(mode, rank);
    return HotRowUse{h.rows, h.copies};
}

void MttkrpPlan::compute(int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out, RunControl& control,
                         DeviceTiming* timing) {
    if (!resident_) {
        mttkrp(backend_, *format_, mode, factors, out, control, timing);
        return;
    }
    check_shapes(*format_, mode, factors, out);
    control.check();
    mttkrp_cuda_resident(*resident_->tensor, *format_, mode, factors, out, timing);
}

void detail::register_mttkrp_kernels(KernelRegistry& r) {
    using enum FormatKind;
    r.oracle(KernelKind::MTTKRP);
    r.add(KernelKind::MTTKRP, Backend::Omp, {COO, CSF, BCSF, MMCSF, HiCOO, HLS, ALTO});  // cpu/mttkrp_cpu.cpp, mttkrp_alto.cpp
    r.add(KernelKind::MTTKRP, Backend::Cuda, {COO, CSF, BCSF, MMCSF, HLS, BLCO});  // kernels/mttkrp_cuda.cpp, hls_cuda.cpp
}

}  // namespace tscope
