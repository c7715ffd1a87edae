// FasterTucker's kernels (cufastertucker Alg. 3-5), one warp per fiber of a mode's B-CSF tree.
#include <cuda_runtime.h>

#include <vector>

#include "cuda_util.cuh"
#include "gpu_faster_tucker.hpp"

namespace tscope::gpu {

namespace {

constexpr int kMaxModes = 16;
constexpr int kMaxWidth = 128;   // J and R
constexpr int kMaxCore = 4096;   // J x R of one core matrix in shared memory
constexpr int kWarps = 8;        // warps per block

struct Ptrs {
    const float* p[kMaxModes];
};
struct Idx {
    const std::uint32_t* p[kMaxModes];
};

__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    return __shfl_sync(0xffffffffu, v, 0);
}

// Alg. 3: C(n) = A(n) B(n), one thread per (row, r).
__global__ void refresh_kernel(std::uint64_t rows, std::uint64_t J, std::uint64_t R, const float* __restrict__ a,
                               const float* __restrict__ b, float* __restrict__ c) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k < rows * R; k += stride) {
        const std::uint64_t i = k / R, r = k % R;
        float s = 0;
        for (std::uint64_t j = 0; j < J; ++j) s += a[i * J + j] * b[j * R + r];
        c[k] = s;
    }
}

// The fiber's P(r) = prod over its ancestor levels of C(level mode)[index, r] into shared p,
// then w = B(n) P into shared w (Alg. 4 lines 14-24).
__device__ void shared_intermediate(std::uint64_t f, int levels, Idx anc, Ptrs level_c, std::uint64_t J, std::uint64_t R,
                                    const float* __restrict__ b, float* p, float* w, unsigned lane) {
    for (std::uint64_t r = lane; r < R; r += 32) {
        float v = 1.0f;
        for (int l = 0; l < levels; ++l) v *= level_c.p[l][static_cast<std::uint64_t>(anc.p[l][f]) * R + r];
        p[r] = v;
    }
    __syncwarp();
    for (std::uint64_t j = lane; j < J; j += 32) {
        float s = 0;
        for (std::uint64_t r = 0; r < R; ++r) s += b[j * R + r] * p[r];
        w[j] = s;
    }
    __syncwarp();
}

// Alg. 4: a_{i_n} += lr (e w - reg a_{i_n}) for every nonzero of the fiber, lanes over j.
__global__ void factor_kernel(std::uint64_t fibers, int levels, Idx anc, Ptrs level_c, const std::uint64_t* __restrict__ fiber_ptr,
                              const std::uint32_t* __restrict__ leaf, const float* __restrict__ vals, std::uint64_t J,
                              std::uint64_t R, const float* __restrict__ b, float* a, float lr, float reg) {
    __shared__ float sp[kWarps][kMaxWidth], sw[kWarps][kMaxWidth];
    const unsigned lane = threadIdx.x % 32, wib = threadIdx.x / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(kWarps);
    for (std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(kWarps) + wib; f < fibers; f += warps) {
        shared_intermediate(f, levels, anc, level_c, J, R, b, sp[wib], sw[wib], lane);
        for (std::uint64_t z = fiber_ptr[f]; z < fiber_ptr[f + 1]; ++z) {
            float* row = a + static_cast<std::uint64_t>(leaf[z]) * J;
            float part = 0;
            for (std::uint64_t j = lane; j < J; j += 32) part += row[j] * sw[wib][j];
            const float e = vals[z] - warp_sum(part);
            for (std::uint64_t j = lane; j < J; j += 32) row[j] += lr * (e * sw[wib][j] - reg * row[j]);
            __syncwarp();
        }
    }
}

// The ordered schedule, first part: every fiber's w into W (fibers x J).
__global__ void fiber_w_kernel(std::uint64_t fibers, int levels, Idx anc, Ptrs level_c, std::uint64_t J, std::uint64_t R,
                               const float* __restrict__ b, float* __restrict__ w_all) {
    __shared__ float sp[kWarps][kMaxWidth], sw[kWarps][kMaxWidth];
    const unsigned lane = threadIdx.x % 32, wib = threadIdx.x / 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(kWarps);
    for (std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(kWarps) + wib; f < fibers; f += warps) {
        shared_intermediate(f, levels, anc, level_c, J, R, b, sp[wib], sw[wib], lane);
        for (std::uint64_t j = lane; j < J; j += 32) w_all[f * J + j] = sw[wib][j];
        __syncwarp();
    }
}

// The ordered schedule, second part: one warp per factor row, the row in registers (lanes over
// j), its nonzeros' steps of Eq. 9-10 in the tree's order.
__global__ void row_update_kernel(std::uint64_t rows, const std::uint64_t* __restrict__ row_ptr,
                                  const std::uint32_t* __restrict__ fiber, const float* __restrict__ vals, std::uint64_t J,
                                  const float* __restrict__ w_all, float* a, float lr, float reg) {
    const unsigned lane = threadIdx.x % 32;
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(blockDim.x) / 32;
    for (std::uint64_t i = (blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x) / 32; i < rows; i += warps) {
        if (row_ptr[i] == row_ptr[i + 1]) continue;
        float row[kMaxWidth / 32];
#pragma unroll
        for (int c = 0; c < kMaxWidth / 32; ++c) {
            const std::uint64_t j = lane + 32u * static_cast<unsigned>(c);
            row[c] = j < J ? a[i * J + j] : 0.0f;
        }
        for (std::uint64_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
            const float* w = w_all + static_cast<std::uint64_t>(fiber[k]) * J;
            float wr[kMaxWidth / 32];
            float part = 0;
#pragma unroll
            for (int c = 0; c < kMaxWidth / 32; ++c) {
                const std::uint64_t j = lane + 32u * static_cast<unsigned>(c);
                wr[c] = j < J ? w[j] : 0.0f;
                part += row[c] * wr[c];
            }
            const float e = vals[k] - warp_sum(part);
#pragma unroll
            for (int c = 0; c < kMaxWidth / 32; ++c) row[c] += lr * (e * wr[c] - reg * row[c]);
        }
#pragma unroll
        for (int c = 0; c < kMaxWidth / 32; ++c) {
            const std::uint64_t j = lane + 32u * static_cast<unsigned>(c);
            if (j < J) a[i * J + j] = row[c];
        }
    }
}

// Alg. 5 lines 12-17: grad(j, r) += -e a_{i_n}(j) P(r). P is the fiber's, so the fiber's
// nonzeros first sum -e a_{i_n} (lanes over j, in registers), and the J x R outer product with
// P is added once per fiber, into the block's copy in shared memory.
__global__ void core_grad_kernel(std::uint64_t fibers, int levels, Idx anc, Ptrs level_c, const std::uint64_t* __restrict__ fiber_ptr,
                                 const std::uint32_t* __restrict__ leaf, const float* __restrict__ vals, std::uint64_t J,
                                 std::uint64_t R, const float* __restrict__ b, const float* __restrict__ a, float* grad) {
    __shared__ float sp[kWarps][kMaxWidth], sw[kWarps][kMaxWidth], ss[kWarps][kMaxWidth];
    __shared__ float g[kMaxCore];
    const unsigned lane = threadIdx.x % 32, wib = threadIdx.x / 32;
    for (std::uint64_t k = threadIdx.x; k < J * R; k += blockDim.x) g[k] = 0;
    __syncthreads();
    const std::uint64_t warps = gridDim.x * static_cast<std::uint64_t>(kWarps);
    for (std::uint64_t f = blockIdx.x * static_cast<std::uint64_t>(kWarps) + wib; f < fibers; f += warps) {
        shared_intermediate(f, levels, anc, level_c, J, R, b, sp[wib], sw[wib], lane);
        for (std::uint64_t j = lane; j < J; j += 32) ss[wib][j] = 0;
        for (std::uint64_t z = fiber_ptr[f]; z < fiber_ptr[f + 1]; ++z) {
            const float* row = a + static_cast<std::uint64_t>(leaf[z]) * J;
            float part = 0;
            for (std::uint64_t j = lane; j < J; j += 32) part += row[j] * sw[wib][j];
            const float e = vals[z] - warp_sum(part);
            for (std::uint64_t j = lane; j < J; j += 32) ss[wib][j] -= e * row[j];
        }
        __syncwarp();
        for (std::uint64_t k = lane; k < J * R; k += 32) atomicAdd(&g[k], ss[wib][k / R] * sp[wib][k % R]);
        __syncwarp();
    }
    __syncthreads();
    for (std::uint64_t k = threadIdx.x; k < J * R; k += blockDim.x) atomicAdd(&grad[k], g[k]);
}

// Alg. 5 line 34: B -= lr (grad / |Omega| + reg B).
__global__ void core_apply_kernel(std::uint64_t n, float* b, const float* grad, float lr, float reg, float inv_nnz) {
    const std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (k < n) b[k] -= lr * (grad[k] * inv_nnz + reg * b[k]);
}

// Squared and absolute errors over observed entries, x^ = sum_r prod_n C(n)[i_n, r].
__global__ void error_kernel(std::uint64_t nnz, int order, Idx idx, const float* __restrict__ vals, Ptrs c, std::uint64_t R,
                             double* sums) {
    __shared__ double se[256], ae[256];
    double s = 0, a = 0;
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t z = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; z < nnz; z += stride) {
        float pred = 0;
        for (std::uint64_t r = 0; r < R; ++r) {
            float p = 1;
            for (int m = 0; m < order; ++m) p *= c.p[m][static_cast<std::uint64_t>(idx.p[m][z]) * R + r];
            pred += p;
        }
        const double e = static_cast<double>(vals[z]) - pred;
        s += e * e;
        a += e < 0 ? -e : e;
    }
    se[threadIdx.x] = s, ae[threadIdx.x] = a;
    __syncthreads();
    for (int o = blockDim.x / 2; o > 0; o /= 2) {
        if (threadIdx.x < o) se[threadIdx.x] += se[threadIdx.x + o], ae[threadIdx.x] += ae[threadIdx.x + o];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(&sums[0], se[0]), atomicAdd(&sums[1], ae[0]);
}

}  // namespace

struct FasterTuckerDevice::Impl {
    int order = 0;
    std::vector<std::uint64_t> dims, j;
    std::uint64_t R = 0, train_nnz = 0;
    std::vector<DeviceArray<float>> a, b, c, grad;
    struct Tree {
        Fibers meta;
        std::vector<DeviceArray<std::uint32_t>> anc;
        DeviceArray<std::uint64_t> fiber_ptr;
        DeviceArray<std::uint32_t> leaf;
        DeviceArray<float> vals;
    };
    std::vector<Tree> trees;
    struct Rows {
        std::uint64_t rows = 0;
        DeviceArray<std::uint64_t> row_ptr;
        DeviceArray<std::uint32_t> fiber;
        DeviceArray<float> vals;
    };
    std::vector<Rows> rows;        // empty: Hogwild
    DeviceArray<float> w_all;      // the ordered schedule's fibers x J buffer, sized for the largest mode
    struct Set {
        std::uint64_t nnz = 0;
        std::vector<DeviceArray<std::uint32_t>> idx;
        DeviceArray<float> vals;
    } train, test;

    void refresh(int n) {
        const std::uint64_t items = dims[static_cast<std::size_t>(n)] * R;
        if (items)
            refresh_kernel<<<grid_for(items), 256>>>(dims[static_cast<std::size_t>(n)], j[static_cast<std::size_t>(n)], R,
                                                     a[static_cast<std::size_t>(n)].get(), b[static_cast<std::size_t>(n)].get(),
                                                     c[static_cast<std::size_t>(n)].get());
        check(cudaGetLastError(), "launching the C = A B kernel");
    }
    void tree_args(int n, Idx& anc, Ptrs& level_c) const {
        const Tree& t = trees[static_cast<std::size_t>(n)];
        for (int l = 0; l < t.meta.levels; ++l) {
            anc.p[l] = t.anc[static_cast<std::size_t>(l)].get();
            level_c.p[l] = c[static_cast<std::size_t>(t.meta.level_mode[static_cast<std::size_t>(l)])].get();
        }
    }
    Set upload(const Entries& e) {
        Set s;
        s.nnz = e.nnz;
        for (auto* p : e.idx) s.idx.emplace_back(p, e.nnz);
        s.vals = DeviceArray<float>(e.vals, e.nnz);
        return s;
    }
    void sums(const Set& s, double* se, double* ae) const {
        DeviceArray<double> out(2);
        out.zero();
        Idx idx{};
        Ptrs cp{};
        for (int m = 0; m < order; ++m) idx.p[m] = s.idx[static_cast<std::size_t>(m)].get(), cp.p[m] = c[static_cast<std::size_t>(m)].get();
        if (s.nnz) error_kernel<<<grid_for(s.nnz), 256>>>(s.nnz, order, idx, s.vals.get(), cp, R, out.get());
        check(cudaGetLastError(), "launching the error kernel");
        double h[2] = {0, 0};
        out.download(h);
        *se = h[0], *ae = h[1];
    }
};

FasterTuckerDevice::FasterTuckerDevice(const std::vector<std::uint64_t>& dims, const std::vector<std::uint64_t>& j, std::uint64_t r,
                                       const std::vector<Fibers>& trees, const std::vector<RowEntries>& rows, const Entries& train,
                                       const Entries& test, const std::vector<const float*>& a, const std::vector<const float*>& b)
    : impl_(std::make_unique<Impl>()) {
    use_device();
    Impl& m = *impl_;
    m.order = static_cast<int>(dims.size());
    if (m.order > kMaxModes) throw Error("FasterTucker on the GPU handles up to 16 modes");
    m.dims = dims, m.j = j, m.R = r, m.train_nnz = train.nnz;
    for (int n = 0; n < m.order; ++n) {
        const std::uint64_t jn = j[static_cast<std::size_t>(n)];
        if (jn > kMaxWidth || r > kMaxWidth || jn * r > kMaxCore)
            throw Error("FasterTucker on the GPU needs J, R <= 128 and J x R <= 4096");
        m.a.emplace_back(a[static_cast<std::size_t>(n)], dims[static_cast<std::size_t>(n)] * jn);
        m.b.emplace_back(b[static_cast<std::size_t>(n)], jn * r);
        m.c.emplace_back(dims[static_cast<std::size_t>(n)] * r);
        m.grad.emplace_back(jn * r);
    }
    for (const Fibers& t : trees) {
        Impl::Tree dt;
        dt.meta = t;
        dt.meta.anc.clear();
        dt.fiber_ptr = DeviceArray<std::uint64_t>(t.fiber_ptr, t.fibers + 1);
        dt.leaf = DeviceArray<std::uint32_t>(t.leaf, t.nnz);
        dt.vals = DeviceArray<float>(t.vals, t.nnz);
        for (auto* p : t.anc) dt.anc.emplace_back(p, t.fibers);
        m.trees.push_back(std::move(dt));
    }
    std::uint64_t w_cells = 0;
    for (std::size_t n = 0; n < rows.size(); ++n) {
        const RowEntries& r = rows[n];
        Impl::Rows dr;
        dr.rows = r.rows;
        dr.row_ptr = DeviceArray<std::uint64_t>(r.row_ptr, r.rows + 1);
        dr.fiber = DeviceArray<std::uint32_t>(r.fiber, r.nnz);
        dr.vals = DeviceArray<float>(r.vals, r.nnz);
        m.rows.push_back(std::move(dr));
        const std::uint64_t cells = trees[n].fibers * j[n];
        if (cells > w_cells) w_cells = cells;
    }
    if (w_cells) m.w_all = DeviceArray<float>(w_cells);
    m.train = m.upload(train);
    m.test = m.upload(test);
    for (int n = 0; n < m.order; ++n) m.refresh(n);
    check(cudaDeviceSynchronize(), "preparing FasterTucker");
}

FasterTuckerDevice::~FasterTuckerDevice() = default;

double FasterTuckerDevice::epoch(float lr_a, float lr_b, float reg_a, float reg_b) {
    Impl& m = *impl_;
    Event t0, t1;
    t0.record();
    for (int n = 0; n < m.order; ++n) {  // Alg. 2 lines 5-14 (Alg. 4)
        const Impl::Tree& t = m.trees[static_cast<std::size_t>(n)];
        Idx anc{};
        Ptrs lc{};
        m.tree_args(n, anc, lc);
        if (!m.rows.empty()) {  // ordered schedule
            const Impl::Rows& r = m.rows[static_cast<std::size_t>(n)];
            const std::uint64_t J = m.j[static_cast<std::size_t>(n)];
            if (t.meta.fibers)
                fiber_w_kernel<<<grid_for(t.meta.fibers * 32, 32 * kWarps), 32 * kWarps>>>(
                    t.meta.fibers, t.meta.levels, anc, lc, J, m.R, m.b[static_cast<std::size_t>(n)].get(), m.w_all.get());
            check(cudaGetLastError(), "launching the shared intermediates");
            if (r.rows)
                row_update_kernel<<<grid_for(r.rows * 32), 256>>>(r.rows, r.row_ptr.get(), r.fiber.get(), r.vals.get(), J,
                                                                  m.w_all.get(), m.a[static_cast<std::size_t>(n)].get(), lr_a, reg_a);
            check(cudaGetLastError(), "launching the ordered factor update");
            m.refresh(n);
            continue;
        }
        if (t.meta.fibers)
            factor_kernel<<<grid_for(t.meta.fibers * 32, 32 * kWarps), 32 * kWarps>>>(
                t.meta.fibers, t.meta.levels, anc, lc, t.fiber_ptr.get(), t.leaf.get(), t.vals.get(), m.j[static_cast<std::size_t>(n)], m.R,
                m.b[static_cast<std::size_t>(n)].get(), m.a[static_cast<std::size_t>(n)].get(), lr_a, reg_a);
        check(cudaGetLastError(), "launching the factor update");
        m.refresh(n);
    }
    for (int n = 0; n < m.order; ++n) {  // lines 15-22 (Alg. 5)
        const Impl::Tree& t = m.trees[static_cast<std::size_t>(n)];
        Idx anc{};
        Ptrs lc{};
        m.tree_args(n, anc, lc);
        DeviceArray<float>& g = m.grad[static_cast<std::size_t>(n)];
        g.zero();
        if (t.meta.fibers)
            core_grad_kernel<<<grid_for(t.meta.fibers * 32, 32 * kWarps), 32 * kWarps>>>(
                t.meta.fibers, t.meta.levels, anc, lc, t.fiber_ptr.get(), t.leaf.get(), t.vals.get(), m.j[static_cast<std::size_t>(n)],
                m.R, m.b[static_cast<std::size_t>(n)].get(), m.a[static_cast<std::size_t>(n)].get(), g.get());
        check(cudaGetLastError(), "launching the core gradient");
        const std::uint64_t cells = m.j[static_cast<std::size_t>(n)] * m.R;
        core_apply_kernel<<<static_cast<unsigned>((cells + 255) / 256), 256>>>(cells, m.b[static_cast<std::size_t>(n)].get(), g.get(), lr_b,
                                                                            reg_b, 1.0f / static_cast<float>(m.train_nnz));
        check(cudaGetLastError(), "launching the core update");
        m.refresh(n);
    }
    t1.record();
    return Event::seconds(t0, t1);
}

FtErrors FasterTuckerDevice::errors() const {
    FtErrors e;
    impl_->sums(impl_->train, &e.train_se, &e.train_ae);
    impl_->sums(impl_->test, &e.test_se, &e.test_ae);
    return e;
}

void FasterTuckerDevice::download(const std::vector<float*>& a, const std::vector<float*>& b) const {
    for (std::size_t n = 0; n < impl_->a.size(); ++n) {
        impl_->a[n].download(a[n]);
        impl_->b[n].download(b[n]);
    }
}

}  // namespace tscope::gpu
