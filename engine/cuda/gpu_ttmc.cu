// COO TTMc: a warp per run of nonzeros, lanes over the output columns.
#include <cuda_runtime.h>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "gpu_ttmc.hpp"

namespace tscope::gpu {

namespace {

constexpr int kMaxModes = 16;

struct Args {
    const std::uint32_t* idx[kMaxModes];
    const float* factor[kMaxModes];
    std::uint64_t rank[kMaxModes];
};

// A warp per nonzero, lanes over the columns, an fp64 atomic per column and nonzero: the kernel
// until session 76, kept for comparisons (TENSORSCOPE_TTMC_KERNEL=warp).
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

// Nonzeros per warp in ttmc_runs_kernel: the run of one output row it sums before adding.
constexpr std::uint64_t kTtmcGroup = 32;

// TTMc's COO is sorted with the output mode first (kernels/ttmc.cpp, ttmc_options), so
// consecutive nonzeros share their output row for a whole slice. A warp takes kTtmcGroup of
// them and, 32 columns at a time, sums each run of one row in fp32 registers (a lane a column)
// before one fp64 atomic a column: the warp-per-nonzero kernel made an atomic per column and
// nonzero, queued on a power-law tensor's heavy slices.
__global__ void ttmc_runs_kernel(std::uint64_t nnz, int order, int mode, std::uint64_t cols, Args a,
                                 const float* __restrict__ vals, double* out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    const std::uint64_t groups = (nnz + kTtmcGroup - 1) / kTtmcGroup;
    const std::uint32_t* __restrict__ rows = a.idx[mode];
    for (std::uint64_t g = warp; g < groups; g += warps) {
        const std::uint64_t first = g * kTtmcGroup, last = first + kTtmcGroup < nnz ? first + kTtmcGroup : nnz;
        for (std::uint64_t c0 = 0; c0 < cols; c0 += 32) {
            const std::uint64_t c = c0 + lane;
            const bool active = c < cols;
            // column c = (r_first, ..., r_last) over the other modes, the last varying fastest:
            // each mode's offset into its factor row, worked out once for the group
            std::uint64_t pick[kMaxModes];
            std::uint64_t rest = c;
            for (int m = order - 1; m >= 0; --m) {
                if (m == mode) continue;
                pick[m] = rest % a.rank[m];
                rest /= a.rank[m];
            }
            float acc = 0.0f;
            std::uint32_t row = rows[first];
            for (std::uint64_t z = first; z < last; ++z) {
                const std::uint32_t r = rows[z];
                if (r != row) {
                    if (active) atomicAdd(&out[static_cast<std::uint64_t>(row) * cols + c], static_cast<double>(acc));
                    acc = 0.0f;
                    row = r;
                }
                if (!active) continue;
                float v = vals[z];
                for (int m = 0; m < order; ++m)
                    if (m != mode) v *= a.factor[m][static_cast<std::uint64_t>(a.idx[m][z]) * a.rank[m] + pick[m]];
                acc += v;
            }
            if (active) atomicAdd(&out[static_cast<std::uint64_t>(row) * cols + c], static_cast<double>(acc));
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
    if (coo.nnz && env_is("TENSORSCOPE_TTMC_KERNEL", "warp"))
        ttmc_coo_kernel<<<grid_for(coo.nnz * 32), 256>>>(coo.nnz, order, d.mode, cols, a, vals.get(), out.get());
    else if (coo.nnz)
        ttmc_runs_kernel<<<grid_for((coo.nnz + kTtmcGroup - 1) / kTtmcGroup * 32), 256>>>(coo.nnz, order, d.mode, cols,
                                                                                          a, vals.get(), out.get());
    check(cudaGetLastError(), "launching the COO TTMc kernel");
    t2.record();
    out.download(d.out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
