// The host side of the cuda TTMc on COO: fp32 indices, values and factors up, the fp64 result
// down. (HLS runs on the tensor cores through hls_cuda.)
#include <limits>

#include "cuda/gpu_ttmc.hpp"
#include "kernels/csf_flatten.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/ttmc.hpp"

namespace tscope {

void ttmc_cuda(const SparseFormat& format, int mode, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
               DeviceTiming* timing) {
    visit_format(format, overloaded{
        [&]<class I, class V>(const CooFormat<I, V>& f) {
        for (auto d : format.dims())
            if (d > std::numeric_limits<std::uint32_t>::max()) throw InputError("the CUDA TTMc needs every mode shorter than 2^32");
        const csf_flat::FlatCoo flat = csf_flat::flatten(f);
        std::vector<std::vector<float>> fs(factors.size());
        gpu::TtmcDense d;
        d.mode = mode;
        for (std::size_t m = 0; m < factors.size(); ++m) {
            if (static_cast<int>(m) != mode) fs[m].assign(factors[m].data.begin(), factors[m].data.end());
            d.factors.push_back(fs[m].empty() ? nullptr : fs[m].data());
            d.rows.push_back(format.dims()[m]);
            d.ranks.push_back(static_cast<int>(m) == mode ? 1 : factors[m].cols);
        }
        std::vector<double> result(out.rows * out.cols);
        d.out = result.data();
        gpu::Timing t;
        gpu::ttmc_coo(flat.view(), d, t);
        for (std::size_t i = 0; i < result.size(); ++i) out.data[i] = result[i];
        if (timing) *timing = DeviceTiming{t.upload_s, t.kernel_s, t.download_s};
        },
        [&](const SparseFormat& f) { throw InputError("TTMc has no CUDA kernel for " + f.name() + " (COO and HLS)"); }});
}

}  // namespace tscope
