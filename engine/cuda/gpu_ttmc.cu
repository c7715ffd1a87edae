// COO TTMc: a warp per nonzero, lanes over the output columns.
#include <cuda_runtime.h>

#include "cuda_util.cuh"
#include "gpu_ttmc.hpp"

namespace tscope::gpu {

namespace {

constexpr int kMaxModes = 16;

struct Args {
    const std::uint32_t* idx[kMaxModes];
    const float* factor[kMaxModes];
    std::uint64_t rank[kMaxModes];
};

__global__ void ttmc_coo_kernel(std::uint64_t nnz, int order, int mode, std::uint64_t cols, Args a, const float* __restrict__ vals,
                                double* out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t z = warp; z < nnz; z += warps) {
        const float x = vals[z];
        double* row = out + static_cast<std::uint64_t>(a.idx[mode][z]) * cols;
        for (std::uint64_t c = lane; c < cols; c += 32) {
            // column c = (r_first, ..., r_last) over the other modes, the last varying fastest
            std::uint64_t rest = c;
            float v = x;
            for (int m = order - 1; m >= 0; --m) {
                if (m == mode) continue;
                const std::uint64_t r = rest % a.rank[m];
                rest /= a.rank[m];
                v *= a.factor[m][static_cast<std::uint64_t>(a.idx[m][z]) * a.rank[m] + r];
            }
            atomicAdd(&row[c], static_cast<double>(v));
        }
    }
}

}  // namespace

void ttmc_coo(const Coo& coo, const TtmcDense& d, Timing& timing) {
    use_device();
    const int order = static_cast<int>(coo.idx.size());
    if (order > kMaxModes) throw Error("the CUDA TTMc handles up to 16 modes");
    std::uint64_t cols = 1;
    for (int m = 0; m < order; ++m)
        if (m != d.mode) cols *= d.ranks[static_cast<std::size_t>(m)];
    const std::uint64_t out_n = d.rows[static_cast<std::size_t>(d.mode)] * cols;
    require_free(coo.nnz * (4ull * static_cast<std::uint64_t>(order) + 4) + out_n * 8, "TTMc");
    Event t0, t1, t2, t3;
    t0.record();
    std::vector<DeviceArray<std::uint32_t>> idx;
    for (auto* p : coo.idx) idx.emplace_back(p, coo.nnz);
    DeviceArray<float> vals(coo.vals, coo.nnz);
    std::vector<DeviceArray<float>> factors;
    for (int m = 0; m < order; ++m)
        factors.emplace_back(m == d.mode || !d.factors[static_cast<std::size_t>(m)]
                                 ? DeviceArray<float>()
                                 : DeviceArray<float>(d.factors[static_cast<std::size_t>(m)], d.rows[static_cast<std::size_t>(m)] * d.ranks[static_cast<std::size_t>(m)]));
    DeviceArray<double> out(out_n);
    out.zero();
    t1.record();
    Args a{};
    for (int m = 0; m < order; ++m) {
        a.idx[m] = idx[static_cast<std::size_t>(m)].get();
        a.factor[m] = factors[static_cast<std::size_t>(m)].get();
        a.rank[m] = d.ranks[static_cast<std::size_t>(m)];
    }
    if (coo.nnz) ttmc_coo_kernel<<<grid_for(coo.nnz * 32), 256>>>(coo.nnz, order, d.mode, cols, a, vals.get(), out.get());
    check(cudaGetLastError(), "launching the COO TTMc kernel");
    t2.record();
    out.download(d.out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
