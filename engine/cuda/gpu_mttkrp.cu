// CUDA MTTKRP: COO with atomics, and the fiber-parallel kernel for the CSF family.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "cuda_util.cuh"
#include "gpu_mttkrp.hpp"

namespace tscope::gpu {

namespace {

constexpr int kMaxModes = 16;

struct FactorPtrs {
    const float* f[kMaxModes];
};

struct IndexPtrs {
    const std::uint32_t* p[kMaxModes];
};

// One warp per nonzero (grid-stride); lane r handles columns r, r+32, ...
__global__ void coo_kernel(std::uint64_t nnz, int order, int mode, std::uint64_t R, IndexPtrs idx, const float* vals,
                           FactorPtrs factors, double* out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    for (std::uint64_t z = warp; z < nnz; z += warps) {
        const float x = vals[z];
        for (std::uint64_t r = lane; r < R; r += 32) {
            float v = x;
            for (int m = 0; m < order; ++m)
                if (m != mode) v *= factors.f[m][static_cast<std::uint64_t>(idx.p[m][z]) * R + r];
            atomicAdd(&out[static_cast<std::uint64_t>(idx.p[mode][z]) * R + r], static_cast<double>(v));
        }
    }
}

// One warp per group of kGroup consecutive fibers (mm-csf Alg. 6: fiber groups, atomics only
// where the output row changes). target < levels: each fiber's nonzeros times their leaf
// rows, times the rows of every ancestor level but the target, accumulate in registers while
// consecutive fibers share the target's row. target == levels: the nonzero algorithm, one
// atomic per nonzero. Lane r handles columns r, r + 32, ... (R <= kMaxRank).
constexpr int kGroup = 16;
constexpr int kMaxRank = 128;

__global__ void fiber_kernel(std::uint64_t fibers, int levels, int target, std::uint64_t R, IndexPtrs anc,
                             FactorPtrs level_factor, const std::uint64_t* fiber_ptr, const std::uint32_t* leaf,
                             const float* vals, float* out) {
    const std::uint64_t warp = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    const float* leaf_factor = level_factor.f[levels];
    const int chunks = static_cast<int>((R + 31) / 32);
    const std::uint64_t groups = (fibers + kGroup - 1) / kGroup;
    for (std::uint64_t g = warp; g < groups; g += warps) {
        const std::uint64_t first = g * kGroup;
        const std::uint64_t last = first + kGroup < fibers ? first + kGroup : fibers;
        float acc[kMaxRank / 32];  // indexed by unrolled constants only: stays in registers
#pragma unroll
        for (int c = 0; c < kMaxRank / 32; ++c) acc[c] = 0.0f;
        std::uint64_t row = ~std::uint64_t{0};
        for (std::uint64_t f = first; f < last; ++f) {
            const std::uint64_t lo = fiber_ptr[f], hi = fiber_ptr[f + 1];
            if (target == levels) {  // nonzero algorithm
#pragma unroll
                for (int c = 0; c < kMaxRank / 32; ++c) {
                    const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                    if (c >= chunks || r >= R) continue;
                    float prefix = 1.0f;
                    for (int l = 0; l < levels; ++l) prefix *= level_factor.f[l][static_cast<std::uint64_t>(anc.p[l][f]) * R + r];
                    for (std::uint64_t z = lo; z < hi; ++z)
                        atomicAdd(&out[static_cast<std::uint64_t>(leaf[z]) * R + r], vals[z] * prefix);
                }
                continue;
            }
            const std::uint64_t target_row = anc.p[target][f];
            if (target_row != row) {  // flush the previous row's sum
                if (row != ~std::uint64_t{0}) {
#pragma unroll
                    for (int c = 0; c < kMaxRank / 32; ++c) {
                        const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                        if (c < chunks && r < R) atomicAdd(&out[row * R + r], acc[c]);
                        acc[c] = 0.0f;
                    }
                }
                row = target_row;
            }
#pragma unroll
            for (int c = 0; c < kMaxRank / 32; ++c) {
                const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                if (c >= chunks || r >= R) continue;
                float prefix = 1.0f;
                for (int l = 0; l < levels; ++l)
                    if (l != target) prefix *= level_factor.f[l][static_cast<std::uint64_t>(anc.p[l][f]) * R + r];
                float sum = 0.0f;
                for (std::uint64_t z = lo; z < hi; ++z) sum += vals[z] * leaf_factor[static_cast<std::uint64_t>(leaf[z]) * R + r];
                acc[c] += sum * prefix;
            }
        }
        if (target < levels && row != ~std::uint64_t{0}) {
#pragma unroll
            for (int c = 0; c < kMaxRank / 32; ++c) {
                const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                if (c < chunks && r < R) atomicAdd(&out[row * R + r], acc[c]);
            }
        }
    }
}

// Uploads the factors; returns the device copies (null for the output mode).
std::vector<DeviceArray<float>> upload_factors(const Dense& d) {
    std::vector<DeviceArray<float>> out;
    for (std::size_t m = 0; m < d.factors.size(); ++m)
        out.emplace_back(static_cast<int>(m) == d.mode || !d.factors[m] ? DeviceArray<float>()
                                                                        : DeviceArray<float>(d.factors[m], d.rows[m] * d.rank));
    return out;
}

}  // namespace

double copy_bandwidth_gbps() {
    use_device();
    const std::uint64_t n = std::uint64_t{1} << 30;
    DeviceArray<char> a(n), b(n);
    check(cudaMemset(a.get(), 1, n), "clearing");
    double best = 0;
    for (int r = 0; r < 5; ++r) {
        Event t0, t1;
        t0.record();
        check(cudaMemcpy(b.get(), a.get(), n, cudaMemcpyDeviceToDevice), "copying on the device");
        t1.record();
        const double s = Event::seconds(t0, t1);
        if (2.0 * n / s / 1e9 > best) best = 2.0 * n / s / 1e9;
    }
    return best;
}

void mttkrp_coo(const Coo& coo, const Dense& d, Timing& timing) {
    use_device();
    Event t0, t1, t2, t3;
    t0.record();
    std::vector<DeviceArray<std::uint32_t>> idx;
    for (auto* p : coo.idx) idx.emplace_back(p, coo.nnz);
    DeviceArray<float> vals(coo.vals, coo.nnz);
    std::vector<DeviceArray<float>> factors = upload_factors(d);
    const std::uint64_t out_n = d.rows[static_cast<std::size_t>(d.mode)] * d.rank;
    DeviceArray<double> out(out_n);
    check(cudaMemset(out.get(), 0, out_n * sizeof(double)), "clearing the output");
    t1.record();
    IndexPtrs ip{};
    FactorPtrs fp{};
    for (std::size_t m = 0; m < idx.size(); ++m) ip.p[m] = idx[m].get(), fp.f[m] = factors[m].get();
    coo_kernel<<<grid_for(coo.nnz * 32), 256>>>(coo.nnz, static_cast<int>(idx.size()), d.mode, d.rank, ip, vals.get(), fp, out.get());
    check(cudaGetLastError(), "launching the COO MTTKRP kernel");
    t2.record();
    check(cudaMemcpy(d.out, out.get(), out_n * sizeof(double), cudaMemcpyDeviceToHost), "copying the result back");
    t3.record();
    timing.upload_s = Event::seconds(t0, t1);
    timing.kernel_s = Event::seconds(t1, t2);
    timing.download_s = Event::seconds(t2, t3);
}

void mttkrp_fibers(const std::vector<Fibers>& parts, const Dense& d, Timing& timing) {
    use_device();
    Event t0, t1, t2, t3;
    t0.record();
    struct DevicePart {
        std::vector<DeviceArray<std::uint32_t>> anc;
        DeviceArray<std::uint64_t> fiber_ptr;
        DeviceArray<std::uint32_t> leaf;
        DeviceArray<float> vals;
    };
    std::vector<DevicePart> dev;
    for (const Fibers& p : parts) {
        DevicePart dp{{}, DeviceArray<std::uint64_t>(p.fiber_ptr, p.fibers + 1), DeviceArray<std::uint32_t>(p.leaf, p.nnz),
                      DeviceArray<float>(p.vals, p.nnz)};
        for (auto* a : p.anc) dp.anc.emplace_back(a, p.fibers);
        dev.push_back(std::move(dp));
    }
    std::vector<DeviceArray<float>> factors = upload_factors(d);
    const std::uint64_t out_n = d.rows[static_cast<std::size_t>(d.mode)] * d.rank;
    DeviceArray<float> out(out_n);  // fp32: the groups flush rarely, so fp32 atomics stay accurate
    check(cudaMemset(out.get(), 0, out_n * sizeof(float)), "clearing the output");
    t1.record();
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const Fibers& p = parts[k];
        if (p.fibers == 0) continue;
        IndexPtrs ap{};
        FactorPtrs lf{};
        int target = p.levels;
        for (int l = 0; l <= p.levels; ++l) {
            const int m = p.level_mode[static_cast<std::size_t>(l)];
            lf.f[l] = factors[static_cast<std::size_t>(m)].get();
            if (m == d.mode) target = l;
        }
        for (int l = 0; l < p.levels; ++l) ap.p[l] = dev[k].anc[static_cast<std::size_t>(l)].get();
        fiber_kernel<<<grid_for((p.fibers + kGroup - 1) / kGroup * 32), 256>>>(p.fibers, p.levels, target, d.rank, ap, lf, dev[k].fiber_ptr.get(),
                                                  dev[k].leaf.get(), dev[k].vals.get(), out.get());
        check(cudaGetLastError(), "launching the CSF MTTKRP kernel");
    }
    t2.record();
    std::vector<float> result(out_n);
    check(cudaMemcpy(result.data(), out.get(), out_n * sizeof(float), cudaMemcpyDeviceToHost), "copying the result back");
    t3.record();
    for (std::uint64_t i = 0; i < out_n; ++i) d.out[i] = result[i];
    timing.upload_s = Event::seconds(t0, t1);
    timing.kernel_s = Event::seconds(t1, t2);
    timing.download_s = Event::seconds(t2, t3);
}

}  // namespace tscope::gpu
