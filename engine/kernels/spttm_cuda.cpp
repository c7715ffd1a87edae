#include "kernels/spttm_cuda.hpp"

#include <memory>

#include "cuda/gpu_spttm.hpp"
#include "cuda/host_widen.hpp"

namespace tscope::detail {

namespace {

SpttmCompute compute_with(std::shared_ptr<gpu::SpttmDevice> device, gpu::SpttmKernel kernel, std::uint64_t out_n, double* out) {
    auto staging = std::make_shared<gpu::Staging>(out_n);
    return [device, kernel, staging, out](const DenseMatrix& u, DeviceTiming* timing) {
        const std::vector<float> uf(u.data.begin(), u.data.end());
        gpu::Timing t;
        device->compute(kernel, uf.data(), staging->data(), t);
        staging->widen_into(out);
        if (timing) *timing = DeviceTiming{t.upload_s, t.kernel_s, t.download_s};
    };
}

}  // namespace

SpttmCompute spttm_cuda(const std::vector<std::uint64_t>& fptr, const std::vector<std::uint32_t>& idx,
                        const std::vector<float>& vals, std::uint64_t u_rows, std::uint64_t rank, double* out,
                        SpttmVariant variant) {
    gpu::SpttmInput x;
    x.fibers = fptr.size() - 1, x.nnz = vals.size(), x.fptr = fptr.data(), x.idx = idx.data(), x.val = vals.data();
    gpu::Timing t;
    auto device = std::make_shared<gpu::SpttmDevice>(x, u_rows, rank, t);
    return compute_with(std::move(device), static_cast<gpu::SpttmKernel>(static_cast<int>(variant)), x.fibers * rank, out);
}

SpttmCompute sspttm_cuda(const std::vector<std::uint64_t>& cptr, const std::vector<std::uint64_t>& order,
                         const std::vector<std::uint32_t>& idx, std::function<std::vector<float>()> values, std::uint64_t sy,
                         std::uint64_t u_rows, std::uint64_t rank, double* out) {
    const std::vector<float> vals = values();
    gpu::SspttmInput y;
    y.zchunks = cptr.size() - 1, y.chunks = order.size(), y.sy = sy;
    y.cptr = cptr.data(), y.order = order.data(), y.idx = idx.data(), y.val = vals.data();
    gpu::Timing t;
    auto device = std::make_shared<gpu::SpttmDevice>(y, u_rows, rank, t);
    auto staging = std::make_shared<gpu::Staging>(y.zchunks * rank * sy);
    return [device, values = std::move(values), staging, out](const DenseMatrix& u, DeviceTiming* timing) {
        gpu::Timing refresh;
        device->update_values(values().data(), refresh);
        const std::vector<float> uf(u.data.begin(), u.data.end());
        gpu::Timing t;
        device->compute(gpu::SpttmKernel::SharedMemory, uf.data(), staging->data(), t);
        staging->widen_into(out);
        if (timing) *timing = DeviceTiming{t.upload_s + refresh.upload_s, t.kernel_s, t.download_s};
    };
}

}  // namespace tscope::detail
