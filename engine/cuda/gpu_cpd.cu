// CPD-ALS's dense steps on the device: cuBLAS for A = M V^-1 (Dgemm) and the Grams (Dsyrk), and
// three small kernels (fp64 copy of the fp32 MTTKRP output, column norms with the division, and
// the fit's inner product), so nothing of size I x R crosses the bus during the run.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cuda_util.cuh"
#include "dense_status.cuh"
#include "gpu_cpd.hpp"

namespace tscope::gpu {

namespace {

__global__ void widen_kernel(const float* in, double* out, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        out[i] = in[i];
}

// Column sums of a .* b (a, b: rows x R row-major) into sums (R, zeroed). Each thread keeps one
// column: the grid-stride is a multiple of R. Shared partials, then one atomic per column and block.
__global__ void column_dot_kernel(const double* a, const double* b, std::uint64_t n, int R, double* sums) {
    extern __shared__ double part[];
    for (int r = threadIdx.x; r < R; r += blockDim.x) part[r] = 0;
    __syncthreads();
    const std::uint64_t threads = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    const std::uint64_t stride = threads / R * R;
    const std::uint64_t t = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (t < stride) {
        double s = 0;
        for (std::uint64_t e = t; e < n; e += stride) s += a[e] * b[e];
        atomicAdd(&part[t % R], s);
    }
    __syncthreads();
    for (int r = threadIdx.x; r < R; r += blockDim.x) atomicAdd(&sums[r], part[r]);
}

// a /= norms (sqrt of the sums of squares; zero columns stay), and its fp32 copy.
__global__ void scale_kernel(double* a, float* a32, std::uint64_t n, int R, const double* sumsq) {
    for (std::uint64_t e = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; e < n;
         e += gridDim.x * static_cast<std::uint64_t>(blockDim.x)) {
        const double norm = sqrt(sumsq[e % R]);
        const double v = norm > 0 ? a[e] / norm : a[e];
        a[e] = v;
        a32[e] = static_cast<float>(v);
    }
}

// g += a^T a for row-major a (rows x R), R <= kGramMaxRank: each block stages kGramTile rows
// in shared memory and each thread keeps up to kGramPairs (p, q) sums in registers. cuBLAS's
// syrk for k = millions of rows and n = 16 runs one output tile at a time.
constexpr int kGramTile = 32, kGramThreads = 256, kGramPairs = 16;
constexpr int kGramMaxRank = 64;  // 64 x 64 pairs = 16 per thread

__global__ void gram_kernel(const double* a, std::uint64_t rows, int R, double* g) {
    extern __shared__ double tile[];  // kGramTile x R
    double acc[kGramPairs] = {};
    const int pairs = R * R;
    for (std::uint64_t base = blockIdx.x * static_cast<std::uint64_t>(kGramTile); base < rows;
         base += gridDim.x * static_cast<std::uint64_t>(kGramTile)) {
        const int n = static_cast<int>(min(static_cast<std::uint64_t>(kGramTile), rows - base));
        for (int e = threadIdx.x; e < n * R; e += blockDim.x) tile[e] = a[base * R + e];
        __syncthreads();
        for (int k = 0; k < kGramPairs; ++k) {
            const int p = threadIdx.x + k * blockDim.x;
            if (p >= pairs) break;
            const int i = p / R, j = p % R;
            double s = 0;
            for (int r = 0; r < n; ++r) s += tile[r * R + i] * tile[r * R + j];
            acc[k] += s;
        }
        __syncthreads();
    }
    for (int k = 0; k < kGramPairs; ++k) {
        const int p = threadIdx.x + k * blockDim.x;
        if (p < pairs) atomicAdd(&g[p], acc[k]);
    }
}

__global__ void narrow_kernel(const double* in, float* out, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        out[i] = static_cast<float>(in[i]);
}

// count Ts of page-locked host memory: the staging of the small arrays the dense steps send and
// get back without waiting (cudaMemcpyAsync needs page-locked memory to stay asynchronous).
template <class T>
class PinnedArray {
public:
    explicit PinnedArray(std::uint64_t count) {
        check(cudaMallocHost(reinterpret_cast<void**>(&p_), count * sizeof(T)), "allocating page-locked memory");
    }
    ~PinnedArray() { cudaFreeHost(p_); }
    PinnedArray(const PinnedArray&) = delete;
    PinnedArray& operator=(const PinnedArray&) = delete;
    T* get() const { return p_; }

private:
    T* p_ = nullptr;
};

}  // namespace

struct CpdDevice::Impl {
    int device = engine_device();
    bool wide = false;  // the MTTKRP in flight writes fp64
    std::vector<std::uint64_t> dims;
    std::vector<std::uint64_t> first, last;  // per mode: the owned rows [first, last)
    int R = 0;
    cublasHandle_t blas{};
    std::vector<DeviceArray<double>> a;   // factors, fp64
    std::vector<DeviceArray<float>> a32;  // their fp32 copies, for the MTTKRP kernels
    DeviceArray<double> m;                // the last MTTKRP (max dim x R)
    DeviceArray<float> m32;               // the fiber kernels' fp32 output
    DeviceArray<double> vinv, sums, g;    // R x R, R, R x R
    int last_mode = -1;
    CpdDevice::StepSeconds seconds;
    // the queued solve and normalisation: their staging and their events, read once they are done
    std::unique_ptr<PinnedArray<double>> vinv_host, gram_host, sumsq_host;
    Event solve_begin, solve_end, gram_end, normalize_begin, normalize_end;
    bool solve_queued = false, normalize_queued = false;
    int solve_mode = -1;
    // g (zeroed first) += a^T a over `rows` rows of a, both triangles where the own kernel runs
    void queue_gram(const double* rows_of_a, std::uint64_t rows) {
        g.zero();
        if (rows && R <= kGramMaxRank) {
            gram_kernel<<<grid_for((rows + kGramTile - 1) / kGramTile, 1), kGramThreads,
                          static_cast<std::size_t>(kGramTile) * R * sizeof(double)>>>(rows_of_a, rows, R, g.get());
            check(cudaGetLastError(), "forming a Gram matrix");
        } else if (rows) {
            const double one = 1.0, zero = 0.0;
            check_blas(cublasDsyrk(blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, R, static_cast<int>(rows), &one, rows_of_a, R, &zero,
                                   g.get(), R),
                       "forming a Gram matrix");
        }
    }
    // cuBLAS's syrk fills the column-major upper triangle = the row-major lower one: mirror it
    void mirror_gram(double* out) const {
        if (R <= kGramMaxRank) return;
        for (int i = 0; i < R; ++i)
            for (int j = 0; j < i; ++j) out[j * R + i] = out[i * R + j];
    }
    // adds the finished normalisation's device time (its events are complete once a later one is)
    void count_normalize() {
        if (!normalize_queued) return;
        seconds.normalize += Event::seconds(normalize_begin, normalize_end);
        normalize_queued = false;
    }
    std::uint64_t n(int mode) const { return dims[static_cast<std::size_t>(mode)] * static_cast<std::uint64_t>(R); }
    // the owned rows of mode's arrays: their first element and their element count
    std::uint64_t at(int mode) const { return first[static_cast<std::size_t>(mode)] * static_cast<std::uint64_t>(R); }
    std::uint64_t owned_rows(int mode) const { return last[static_cast<std::size_t>(mode)] - first[static_cast<std::size_t>(mode)]; }
    std::uint64_t owned(int mode) const { return owned_rows(mode) * static_cast<std::uint64_t>(R); }
    int column_blocks(std::uint64_t items) const { return std::max(1, grid_for(items)); }
};

CpdDevice::CpdDevice(const std::vector<std::uint64_t>& dims, std::uint64_t rank) : impl_(std::make_unique<Impl>()) {
    use_device();
    if (rank == 0 || rank > 1024) throw Error("the device CPD takes ranks 1 to 1024");
    impl_->dims = dims;
    impl_->first.assign(dims.size(), 0);
    impl_->last = dims;
    impl_->R = static_cast<int>(rank);
    check_blas(cublasCreate(&impl_->blas), "starting cuBLAS");
    std::uint64_t largest = 0;
    for (std::uint64_t d : dims) {
        impl_->a.emplace_back(d * rank);
        impl_->a32.emplace_back(d * rank);
        largest = std::max(largest, d);
    }
    impl_->m = DeviceArray<double>(largest * rank);
    impl_->m32 = DeviceArray<float>(largest * rank);
    impl_->vinv = DeviceArray<double>(rank * rank);
    impl_->sums = DeviceArray<double>(rank);
    impl_->g = DeviceArray<double>(rank * rank);
    impl_->vinv_host = std::make_unique<PinnedArray<double>>(rank * rank);
    impl_->gram_host = std::make_unique<PinnedArray<double>>(rank * rank);
    impl_->sumsq_host = std::make_unique<PinnedArray<double>>(rank);
    // cuBLAS loads its GEMM kernels on the first call (40 ms on an H200): take that in the setup,
    // not in the first iteration
    impl_->vinv.zero();
    impl_->m.zero();
    const double one = 1.0, zero = 0.0;
    check_blas(cublasDgemm(impl_->blas, CUBLAS_OP_N, CUBLAS_OP_N, impl_->R, 1, impl_->R, &one, impl_->vinv.get(), impl_->R,
                           impl_->m.get(), impl_->R, &zero, impl_->m.get() + rank, impl_->R),
               "warming cuBLAS up");
}

CpdDevice::~CpdDevice() {
    if (impl_ && impl_->blas) cublasDestroy(impl_->blas);
}

void CpdDevice::own_rows(int mode, std::uint64_t begin, std::uint64_t end) {
    const auto k = static_cast<std::size_t>(mode);
    if (begin > end || end > impl_->dims[k]) throw Error("the device CPD's owned rows lie outside the factor");
    impl_->first[k] = begin, impl_->last[k] = end;
}

void CpdDevice::set_factor(int mode, const double* host) {
    DeviceScope on(impl_->device);
    const auto k = static_cast<std::size_t>(mode);
    impl_->a[k].upload(host);
    const std::uint64_t n = impl_->n(mode);
    narrow_kernel<<<grid_for(n), 256>>>(impl_->a[k].get(), impl_->a32[k].get(), n);
    check(cudaGetLastError(), "copying a factor to fp32");
}

void CpdDevice::get_factor(int mode, double* host) const {
    DeviceScope on(impl_->device);
    const std::uint64_t at = impl_->at(mode), n = impl_->owned(mode);
    if (n)
        check(cudaMemcpy(host + at, impl_->a[static_cast<std::size_t>(mode)].get() + at, n * sizeof(double), cudaMemcpyDeviceToHost),
              "copying a factor back");
}

void* CpdDevice::factor32(int mode) const { return impl_->a32[static_cast<std::size_t>(mode)].get(); }

void CpdDevice::begin_mttkrp(int mode, bool wide, const Launcher& launch, bool owned_only) {
    DeviceScope on(impl_->device);
    const std::uint64_t at = owned_only ? impl_->at(mode) : 0, n = owned_only ? impl_->owned(mode) : impl_->n(mode);
    std::vector<const float*> f;
    for (const auto& x : impl_->a32) f.push_back(x.get());
    impl_->wide = wide;
    if (n)
        check(cudaMemset(wide ? static_cast<void*>(impl_->m.get() + at) : static_cast<void*>(impl_->m32.get() + at), 0,
                         n * (wide ? sizeof(double) : sizeof(float))),
              "clearing the MTTKRP output");
    launch(f.data(), impl_->m32.get(), wide ? impl_->m.get() : nullptr);  // only the output cleared
    impl_->last_mode = mode;
}

void CpdDevice::finish_mttkrp(int mode) {
    DeviceScope on(impl_->device);
    const std::uint64_t at = impl_->at(mode), n = impl_->owned(mode);
    if (impl_->wide || n == 0) return;
    widen_kernel<<<grid_for(n), 256>>>(impl_->m32.get() + at, impl_->m.get() + at, n);
    check(cudaGetLastError(), "widening the MTTKRP output");
}

void* CpdDevice::output() const { return impl_->wide ? static_cast<void*>(impl_->m.get()) : static_cast<void*>(impl_->m32.get()); }
int CpdDevice::device() const { return impl_->device; }

void CpdDevice::get_mttkrp(int mode, double* host) const {
    DeviceScope on(impl_->device);
    const std::uint64_t n = impl_->n(mode);
    if (n) check(cudaMemcpy(host, impl_->m.get(), n * sizeof(double), cudaMemcpyDeviceToHost), "copying the MTTKRP back");
}

void CpdDevice::mttkrp(const ResidentTensor& tensor, int mode) {
    const std::uint64_t R = static_cast<std::uint64_t>(impl_->R);
    begin_mttkrp(mode, tensor.accumulates_in_double(mode, R),  // COO's single copy: fp32, widened below
                 [&](const float* const* f, float* out_f, double* out_d) { tensor.launch(mode, R, f, out_f, out_d); });
    finish_mttkrp(mode);
}

void CpdDevice::solve(int mode, const double* vinv) {
    DeviceScope on(impl_->device);
    Impl& d = *impl_;
    const auto k = static_cast<std::size_t>(mode);
    const int R = d.R;
    const std::uint64_t rows = d.owned_rows(mode), at = d.at(mode);
    if (rows > 0x7fffffffULL) throw Error("the device CPD needs every mode shorter than 2^31");
    if (d.solve_queued) throw Error("the device CPD queued a solve before collecting the last one");
    std::copy(vinv, vinv + static_cast<std::size_t>(R) * R, d.vinv_host->get());
    check(cudaMemcpyAsync(d.vinv.get(), d.vinv_host->get(), d.vinv.size() * sizeof(double), cudaMemcpyHostToDevice, nullptr),
          "copying the system to the device");
    d.solve_begin.record();
    if (rows) {
        // row-major A (rows x R) is column-major A^T (R x rows): A^T = Vinv^T M^T, and the row-major
        // vinv read column-major is Vinv^T
        const double one = 1.0, zero = 0.0;
        check_blas(cublasDgemm(d.blas, CUBLAS_OP_N, CUBLAS_OP_N, R, static_cast<int>(rows), R, &one, d.vinv.get(), R, d.m.get() + at,
                               R, &zero, d.a[k].get() + at, R),
                   "solving for a factor");
    }
    d.solve_end.record();
    d.queue_gram(d.a[k].get() + at, rows);
    d.gram_end.record();
    check(cudaMemcpyAsync(d.gram_host->get(), d.g.get(), d.g.size() * sizeof(double), cudaMemcpyDeviceToHost, nullptr),
          "copying a Gram matrix back");
    d.solve_queued = true;
    d.solve_mode = mode;
}

void CpdDevice::solved_gram(double* g) {
    DeviceScope on(impl_->device);
    Impl& d = *impl_;
    if (!d.solve_queued) throw Error("the device CPD has no solve queued");
    check(cudaStreamSynchronize(nullptr), "waiting for the device");
    d.solve_queued = false;
    d.seconds.solve += Event::seconds(d.solve_begin, d.solve_end);
    d.seconds.gram += Event::seconds(d.solve_end, d.gram_end);
    d.count_normalize();
    std::copy(d.gram_host->get(), d.gram_host->get() + static_cast<std::size_t>(d.R) * d.R, g);
    d.mirror_gram(g);
}

void CpdDevice::normalize(int mode, const double* sumsq) {
    DeviceScope on(impl_->device);
    Impl& d = *impl_;
    const auto k = static_cast<std::size_t>(mode);
    const std::uint64_t at = d.at(mode), n = d.owned(mode);
    if (n == 0) return;
    d.count_normalize();
    std::copy(sumsq, sumsq + d.R, d.sumsq_host->get());
    check(cudaMemcpyAsync(d.sums.get(), d.sumsq_host->get(), d.sums.size() * sizeof(double), cudaMemcpyHostToDevice, nullptr),
          "copying the column norms to the device");
    d.normalize_begin.record();
    scale_kernel<<<grid_for(n), 256>>>(d.a[k].get() + at, d.a32[k].get() + at, n, d.R, d.sums.get());
    check(cudaGetLastError(), "normalising a factor");
    d.normalize_end.record();
    d.normalize_queued = true;
}

void CpdDevice::gram(int mode, double* g) const {
    DeviceScope on(impl_->device);
    Impl& d = *impl_;
    Event t0, t1;
    t0.record();
    d.queue_gram(d.a[static_cast<std::size_t>(mode)].get() + d.at(mode), d.owned_rows(mode));
    t1.record();
    d.g.download(g);
    d.seconds.gram += Event::seconds(t0, t1);
    d.mirror_gram(g);
}

void CpdDevice::inner(int mode, double* per_column) const {
    DeviceScope on(impl_->device);
    if (mode != impl_->last_mode) throw Error("the device CPD's inner product needs that mode's MTTKRP");
    const int R = impl_->R;
    const std::uint64_t at = impl_->at(mode), n = impl_->owned(mode);
    impl_->sums.zero();
    if (n) {
        column_dot_kernel<<<impl_->column_blocks(n), 256, static_cast<std::size_t>(R) * sizeof(double)>>>(
            impl_->m.get() + at, impl_->a[static_cast<std::size_t>(mode)].get() + at, n, R, impl_->sums.get());
        check(cudaGetLastError(), "the fit's inner product");
    }
    impl_->sums.download(per_column);
}

void CpdDevice::synchronize() { check(cudaDeviceSynchronize(), "waiting for the device"); }

void CpdDevice::wait() const {
    DeviceScope on(impl_->device);
    synchronize();
}

CpdDevice::StepSeconds CpdDevice::step_seconds() const {
    DeviceScope on(impl_->device);
    impl_->count_normalize();
    return impl_->seconds;
}

std::uint64_t CpdDevice::device_bytes() const {
    std::uint64_t b = impl_->m.size() * 8 + impl_->m32.size() * 4;
    for (std::size_t k = 0; k < impl_->a.size(); ++k) b += impl_->a[k].size() * 12;
    return b;
}

}  // namespace tscope::gpu
