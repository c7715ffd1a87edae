// CUDA MTTKRP: COO with atomics, and the fiber-parallel kernel for the CSF family.
#include <cuda_runtime.h>

#include <string>
#include <type_traits>
#include <vector>

#include "cuda_util.cuh"
#include "gpu_mttkrp.hpp"
#include "mttkrp_launch.cuh"
#include "resident_tensor.cuh"

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
                             FactorPtrs level_factor, const std::uint64_t* fiber_ptr, std::uint64_t base, const std::uint32_t* leaf,
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
            const std::uint64_t lo = fiber_ptr[f] - base, hi = fiber_ptr[f + 1] - base;
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
            // The fiber's leaf indices and values come in 32 at a time, one per lane (one
            // coalesced load each), and are handed round with shuffles; the leaf rows' loads
            // then do not wait on one another, so several are in flight per warp.
            float sum[kMaxRank / 32];
#pragma unroll
            for (int c = 0; c < kMaxRank / 32; ++c) sum[c] = 0.0f;
            for (std::uint64_t base = lo; base < hi; base += 32) {
                const std::uint64_t mine = base + lane;
                const std::uint32_t my_leaf = mine < hi ? leaf[mine] : 0u;
                const float my_val = mine < hi ? vals[mine] : 0.0f;
                const int n = static_cast<int>(hi - base < 32 ? hi - base : 32);
#pragma unroll 4
                for (int k = 0; k < n; ++k) {
                    const std::uint64_t row_k = static_cast<std::uint64_t>(__shfl_sync(0xffffffffu, my_leaf, k)) * R;
                    const float x = __shfl_sync(0xffffffffu, my_val, k);
#pragma unroll
                    for (int c = 0; c < kMaxRank / 32; ++c) {
                        const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                        if (c < chunks && r < R) sum[c] += x * leaf_factor[row_k + r];
                    }
                }
            }
#pragma unroll
            for (int c = 0; c < kMaxRank / 32; ++c) {
                const std::uint64_t r = lane + 32u * static_cast<unsigned>(c);
                if (c >= chunks || r >= R) continue;
                float prefix = 1.0f;
                for (int l = 0; l < levels; ++l)
                    if (l != target) prefix *= level_factor.f[l][static_cast<std::uint64_t>(anc.p[l][f]) * R + r];
                acc[c] += sum[c] * prefix;
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

// The same algorithms with a team of TEAM lanes per fiber, each lane owning four consecutive
// columns (one float4): a team reads a whole factor row in one 16-byte load per lane, and a
// warp works on 32 / TEAM fibers at once. With rank 32 a team is 8 lanes, so four fibers' chains
// of dependent loads (fiber pointer, leaf index, factor row) are in flight per warp instead of
// one, and each load instruction moves 512 bytes instead of 128. Needs R % 4 == 0 (rows stay
// 16-byte aligned); R / 4 <= TEAM.
__device__ inline float4 operator*(float a, float4 b) { return make_float4(a * b.x, a * b.y, a * b.z, a * b.w); }
__device__ inline float4 operator*(float4 a, float4 b) { return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w); }
__device__ inline void fma4(float4& acc, float a, float4 b) {
    acc.x = fmaf(a, b.x, acc.x), acc.y = fmaf(a, b.y, acc.y), acc.z = fmaf(a, b.z, acc.z), acc.w = fmaf(a, b.w, acc.w);
}
__device__ inline void add4(float4& acc, float4 b) { acc.x += b.x, acc.y += b.y, acc.z += b.z, acc.w += b.w; }

__device__ inline void atomic_add4(float4* out, float4 v) {
#if __CUDA_ARCH__ >= 900
    atomicAdd(out, v);  // one vector atomic (sm_90)
#else
    float* o = reinterpret_cast<float*>(out);
    atomicAdd(o, v.x), atomicAdd(o + 1, v.y), atomicAdd(o + 2, v.z), atomicAdd(o + 3, v.w);
#endif
}

struct Factor4Ptrs {
    const float4* f[kMaxModes];
};

template <int TEAM>
__global__ void __launch_bounds__(256) fiber_team_kernel(std::uint64_t fibers, std::uint64_t group, int levels, int target,
                                                         std::uint32_t R4, IndexPtrs anc, Factor4Ptrs level_factor,
                                                         const std::uint64_t* __restrict__ fiber_ptr, std::uint64_t base,
                                                         const std::uint32_t* __restrict__ leaf,
                                                         const float* __restrict__ vals, float4* out) {
    const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    const std::uint64_t team = thread / TEAM;
    const std::uint64_t teams = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / TEAM;
    const std::uint32_t col = threadIdx.x % TEAM;  // this lane's float4 of every row
    if (col >= R4) return;  // no shuffles below, so idle lanes may leave
    const float4* leaf_factor = level_factor.f[levels];
    const std::uint64_t groups = (fibers + group - 1) / group;
    for (std::uint64_t g = team; g < groups; g += teams) {
        const std::uint64_t first = g * group;
        const std::uint64_t last = first + group < fibers ? first + group : fibers;
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        std::uint64_t row = ~std::uint64_t{0};
        for (std::uint64_t f = first; f < last; ++f) {
            const std::uint64_t lo = fiber_ptr[f] - base, hi = fiber_ptr[f + 1] - base;
            float4 prefix = make_float4(1.f, 1.f, 1.f, 1.f);
            for (int l = 0; l < levels; ++l)
                if (l != target) prefix = prefix * level_factor.f[l][static_cast<std::uint64_t>(anc.p[l][f]) * R4 + col];
            if (target == levels) {  // nonzero algorithm: one vector atomic per nonzero
                for (std::uint64_t z = lo; z < hi; ++z)
                    atomic_add4(out + static_cast<std::uint64_t>(leaf[z]) * R4 + col, vals[z] * prefix);
                continue;
            }
            const std::uint64_t target_row = anc.p[target][f];
            if (target_row != row) {
                if (row != ~std::uint64_t{0}) atomic_add4(out + row * R4 + col, acc);
                acc = make_float4(0.f, 0.f, 0.f, 0.f);
                row = target_row;
            }
            float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll 4
            for (std::uint64_t z = lo; z < hi; ++z)
                fma4(sum, vals[z], leaf_factor[static_cast<std::uint64_t>(leaf[z]) * R4 + col]);
            add4(acc, sum * prefix);
        }
        if (target < levels && row != ~std::uint64_t{0}) atomic_add4(out + row * R4 + col, acc);
    }
}

// Launches the team kernel whose TEAM is the smallest power of two >= R / 4.
void launch_team_kernel(const Fibers& meta, std::uint64_t group, int target, std::uint64_t R, const IndexPtrs& anc,
                        const Factor4Ptrs& lf, const std::uint64_t* fiber_ptr, std::uint64_t base, const std::uint32_t* leaf,
                        const float* vals, float* out, cudaStream_t stream) {
    const auto R4 = static_cast<std::uint32_t>(R / 4);
    const std::uint64_t groups = (meta.fibers + group - 1) / group;
    auto* out4 = reinterpret_cast<float4*>(out);
    auto go = [&](auto team_tag) {
        constexpr int team = decltype(team_tag)::value;
        fiber_team_kernel<team><<<grid_for(groups * team), 256, 0, stream>>>(meta.fibers, group, meta.levels, target, R4, anc, lf,
                                                                            fiber_ptr, base, leaf, vals, out4);
    };
    if (R4 <= 1) go(std::integral_constant<int, 1>{});
    else if (R4 <= 2) go(std::integral_constant<int, 2>{});
    else if (R4 <= 4) go(std::integral_constant<int, 4>{});
    else if (R4 <= 8) go(std::integral_constant<int, 8>{});
    else if (R4 <= 16) go(std::integral_constant<int, 16>{});
    else go(std::integral_constant<int, 32>{});
}

// Uploads the factors; returns the device copies (null for the output mode).
std::vector<DeviceArray<float>> upload_factors(const Dense& d) {
    std::vector<DeviceArray<float>> out;
    for (std::size_t m = 0; m < d.factors.size(); ++m)
        out.emplace_back(static_cast<int>(m) == d.mode || !d.factors[m] ? DeviceArray<float>()
                                                                        : DeviceArray<float>(d.factors[m], d.rows[m] * d.rank));
    return out;
}

// The team kernel wherever the rows are whole float4s; the warp kernel otherwise. Groups of 8
// fibers per team: on the nell-2 shape (rank 32, H100) groups of 4 and 8 ran within 3% of each
// other, 16 about 7% slower, 32 and 64 20-30% slower (docs/bench/logs/h100-mttkrp-team-groups.json).
bool use_team(std::uint64_t R) { return R % 4 == 0 && R <= kMaxRank; }
constexpr std::uint64_t kTeamGroup = 8;

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

ResidentTensor::ResidentTensor(const Coo& c) : impl_(std::make_unique<Impl>()) {
    use_device();
    Event t0, t1;
    t0.record();
    impl_->coo = true;
    impl_->nnz = c.nnz;
    for (auto* p : c.idx) impl_->idx.emplace_back(p, c.nnz);
    impl_->vals = DeviceArray<float>(c.vals, c.nnz);
    t1.record();
    upload_s_ = Event::seconds(t0, t1);
}

ResidentTensor::ResidentTensor(const std::vector<Fibers>& parts) : impl_(std::make_unique<Impl>()) {
    use_device();
    Event t0, t1;
    t0.record();
    for (const Fibers& p : parts) {
        Impl::Part dp;
        dp.meta = p;
        dp.meta.anc.clear();
        dp.meta.fiber_ptr = nullptr, dp.meta.leaf = nullptr, dp.meta.vals = nullptr;
        dp.fiber_ptr = DeviceArray<std::uint64_t>(p.fiber_ptr, p.fibers + 1);
        dp.leaf = DeviceArray<std::uint32_t>(p.leaf, p.nnz);
        dp.vals = DeviceArray<float>(p.vals, p.nnz);
        for (auto* a : p.anc) dp.anc.emplace_back(a, p.fibers);
        impl_->parts.push_back(std::move(dp));
    }
    t1.record();
    upload_s_ = Event::seconds(t0, t1);
}

ResidentTensor::ResidentTensor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ResidentTensor::~ResidentTensor() = default;
ResidentTensor::ResidentTensor(ResidentTensor&&) noexcept = default;

std::uint64_t ResidentTensor::device_bytes() const {
    std::uint64_t b = impl_->vals.size() * 4;
    for (const auto& i : impl_->idx) b += i.size() * 4;
    for (const Impl::Part& p : impl_->parts) {
        b += p.fiber_ptr.size() * 8 + p.leaf.size() * 4 + p.vals.size() * 4;
        for (const auto& a : p.anc) b += a.size() * 4;
    }
    return b;
}

std::uint64_t ResidentTensor::nnz() const {
    if (impl_->coo || impl_->nnz) return impl_->nnz;
    std::uint64_t n = 0;  // uploaded trees
    for (const Impl::Part& p : impl_->parts) n += p.meta.nnz;
    return n;
}

std::vector<ResidentTensor::HostCopy> ResidentTensor::download() const {
    std::vector<HostCopy> out;
    for (const Impl::Part& p : impl_->parts) {
        HostCopy h;
        h.fiber_ptr.resize(p.fiber_ptr.size());
        p.fiber_ptr.download(h.fiber_ptr.data());
        for (const auto& a : p.anc) {
            h.anc.emplace_back(a.size());
            a.download(h.anc.back().data());
        }
        h.leaf.resize(p.leaf.size());
        p.leaf.download(h.leaf.data());
        h.vals.resize(p.vals.size());
        p.vals.download(h.vals.data());
        out.push_back(std::move(h));
    }
    return out;
}

void launch_coo_mttkrp(std::uint64_t nnz, int order, const std::uint32_t* const* idx, const float* vals, int mode, std::uint64_t R,
                       const float* const* factors, double* out, cudaStream_t stream) {
    IndexPtrs ip{};
    FactorPtrs fp{};
    for (int m = 0; m < order; ++m) ip.p[m] = idx[m], fp.f[m] = factors[m];
    if (nnz) coo_kernel<<<grid_for(nnz * 32), 256, 0, stream>>>(nnz, order, mode, R, ip, vals, fp, out);
    check(cudaGetLastError(), "launching the COO MTTKRP kernel");
}

void launch_fiber_mttkrp(const Fibers& meta, const std::uint32_t* const* anc, const std::uint64_t* fiber_ptr, std::uint64_t base,
                         const std::uint32_t* leaf, const float* vals, int mode, std::uint64_t R, const float* const* factors,
                         float* out, cudaStream_t stream) {
    if (meta.fibers == 0) return;
    IndexPtrs ap{};
    FactorPtrs lf{};
    int target = meta.levels;
    for (int l = 0; l <= meta.levels; ++l) {
        const int m = meta.level_mode[static_cast<std::size_t>(l)];
        lf.f[l] = factors[m];
        if (m == mode) target = l;
    }
    for (int l = 0; l < meta.levels; ++l) ap.p[l] = anc[l];
    if (use_team(R)) {
        Factor4Ptrs lf4{};
        for (int l = 0; l <= meta.levels; ++l) lf4.f[l] = reinterpret_cast<const float4*>(lf.f[l]);
        launch_team_kernel(meta, kTeamGroup, target, R, ap, lf4, fiber_ptr, base, leaf, vals, out, stream);
    } else {
        fiber_kernel<<<grid_for((meta.fibers + kGroup - 1) / kGroup * 32), 256, 0, stream>>>(meta.fibers, meta.levels, target, R, ap, lf,
                                                                                           fiber_ptr, base, leaf, vals, out);
    }
    check(cudaGetLastError(), "launching the CSF MTTKRP kernel");
}

void ResidentTensor::launch(int mode, std::uint64_t R, const float* const* factors, float* out_f, double* out_d) const {
    DeviceScope on(impl_->device);
    if (impl_->coo) {
        std::vector<const std::uint32_t*> idx;
        for (const auto& i : impl_->idx) idx.push_back(i.get());
        launch_coo_mttkrp(impl_->nnz, static_cast<int>(idx.size()), idx.data(), impl_->vals.get(), mode, R, factors, out_d, nullptr);
        return;
    }
    for (const Impl::Part& p : impl_->parts) {
        std::vector<const std::uint32_t*> anc;
        for (const auto& a : p.anc) anc.push_back(a.get());
        launch_fiber_mttkrp(p.meta, anc.data(), p.fiber_ptr.get(), 0, p.leaf.get(), p.vals.get(), mode, R, factors, out_f, nullptr);
    }
}

bool ResidentTensor::accumulates_in_double() const { return impl_->coo; }

void ResidentTensor::mttkrp(const Dense& d, Timing& timing) const {
    use_device();
    Event t0, t1, t2, t3;
    t0.record();
    std::vector<DeviceArray<float>> factors = upload_factors(d);
    std::vector<const float*> fp;
    for (const auto& f : factors) fp.push_back(f.get());
    const std::uint64_t out_n = d.rows[static_cast<std::size_t>(d.mode)] * d.rank;
    // COO: fp64, millions of atomic adds go into one heavy row; fibers: fp32, the groups flush
    // rarely, so fp32 atomics stay accurate
    DeviceArray<double> out_d(impl_->coo ? out_n : 0);
    DeviceArray<float> out_f(impl_->coo ? 0 : out_n);
    out_d.zero();
    out_f.zero();
    t1.record();
    launch(d.mode, d.rank, fp.data(), out_f.get(), out_d.get());
    t2.record();
    if (impl_->coo) {
        out_d.download(d.out);
    } else {
        std::vector<float> result(out_n);
        out_f.download(result.data());
        for (std::uint64_t i = 0; i < out_n; ++i) d.out[i] = result[i];
    }
    t3.record();
    timing.upload_s = Event::seconds(t0, t1);
    timing.kernel_s = Event::seconds(t1, t2);
    timing.download_s = Event::seconds(t2, t3);
}

void mttkrp_coo(const Coo& coo, const Dense& d, Timing& timing) {
    const ResidentTensor t(coo);
    t.mttkrp(d, timing);
    timing.upload_s += t.upload_seconds();
}

void mttkrp_fibers(const std::vector<Fibers>& parts, const Dense& d, Timing& timing) {
    const ResidentTensor t(parts);
    t.mttkrp(d, timing);
    timing.upload_s += t.upload_seconds();
}

}  // namespace tscope::gpu
