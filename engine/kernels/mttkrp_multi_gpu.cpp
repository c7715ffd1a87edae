#include "tscope/kernels/mttkrp_multi_gpu.hpp"

#include <algorithm>
#include <chrono>

#include "cuda/device_scope.hpp"
#include "cuda/gpu_cpd.hpp"
#include "kernels/mttkrp_slots.hpp"
#include "tscope/error.hpp"

namespace tscope {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
}  // namespace

std::vector<FormatKind> multi_gpu_formats() { return {FormatKind::COO, FormatKind::CSF, FormatKind::BCSF, FormatKind::MMCSF}; }

bool multi_gpu_supports(FormatKind format) {
    const auto all = multi_gpu_formats();
    return std::find(all.begin(), all.end(), format) != all.end();
}

// The parts, and per part a CpdDevice as the dense side: its fp32 factor copies and its output.
struct MultiGpuMttkrp::Impl {
    std::vector<std::uint64_t> dims;
    std::uint64_t rank = 0;
    detail::GpuSlots slots;
    std::vector<std::unique_ptr<gpu::CpdDevice>> devs;
};

MultiGpuMttkrp::MultiGpuMttkrp(const CooTensor& t, FormatKind format, int gpus, const std::vector<int>& slots,
                               RunControl& control, std::uint64_t rank)
    : impl_(std::make_unique<Impl>()) {
    if (!multi_gpu_supports(format))
        throw InputError(std::string("the multi-GPU MTTKRP runs on COO, CSF, B-CSF and MM-CSF, not ") + format_name(format));
    impl_->dims = t.dims();
    impl_->slots = detail::build_gpu_slots(t, format, detail::resolve_gpu_slots(gpus, slots), control, rank);
}

MultiGpuMttkrp::~MultiGpuMttkrp() = default;

int MultiGpuMttkrp::parts() const { return impl_->slots.group->size(); }

std::vector<int> MultiGpuMttkrp::devices() const {
    std::vector<int> d;
    for (int g = 0; g < parts(); ++g) d.push_back(impl_->slots.group->device(g));
    return d;
}

std::vector<std::vector<std::uint64_t>> MultiGpuMttkrp::part_nnz() const { return impl_->slots.nnz(); }
std::uint64_t MultiGpuMttkrp::device_bytes(int mode) const {
    std::uint64_t b = 0;
    for (int g = 0; g < parts(); ++g)
        b += impl_->slots.of(g, mode).device_bytes() - impl_->slots.of(g, mode).shared_tiles_bytes();
    return b;
}

const std::vector<int>& MultiGpuMttkrp::tree_order(int mode) const {
    return impl_->slots.tree_orders[static_cast<std::size_t>(impl_->slots.structure(mode))];
}

const std::vector<std::vector<int>>& MultiGpuMttkrp::partition_orders() const { return impl_->slots.partition_orders; }

std::uint64_t MultiGpuMttkrp::tile_nonzeros(int mode, std::uint64_t rank) const {
    std::uint64_t n = 0;
    for (int g = 0; g < parts(); ++g) n += impl_->slots.of(g, mode).shared_tiles(mode, rank).nonzeros;
    return n;
}

double MultiGpuMttkrp::build_seconds() const { return impl_->slots.upload_seconds + impl_->slots.build_seconds; }

void MultiGpuMttkrp::run(int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out, MultiGpuTiming* timing) {
    const std::uint64_t R = out.cols;
    if (R == 0 || R > 128) throw InputError("the CUDA MTTKRP supports ranks 1 to 128");
    if (factors.size() != impl_->dims.size() || out.rows != impl_->dims[static_cast<std::size_t>(mode)])
        throw InputError("the MTTKRP's factors do not match the tensor");
    if (impl_->rank != R) {  // the dense side, per part, for this rank
        impl_->devs.clear();
        for (int g = 0; g < parts(); ++g) {
            const gpu::OnDevice on(impl_->slots.group->device(g));
            impl_->devs.push_back(std::make_unique<gpu::CpdDevice>(impl_->dims, R));
        }
        impl_->rank = R;
    }
    MultiGpuTiming t;
    auto start = Clock::now();
    for (auto& d : impl_->devs)
        for (std::size_t m = 0; m < factors.size(); ++m)
            if (static_cast<int>(m) != mode) d->set_factor(static_cast<int>(m), factors[m].data.data());
    impl_->slots.group->synchronize();
    t.upload_s = since(start);
    detail::slots_mttkrp(impl_->slots, impl_->devs, mode, R, impl_->dims, t.kernel_s, t.collective_s);
    start = Clock::now();
    impl_->devs[0]->get_mttkrp(mode, out.data.data());
    t.download_s = since(start);
    if (timing) *timing = t;
}

}  // namespace tscope
