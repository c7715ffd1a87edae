// CUDA SpTV (hocfs-sptv-pipeline Sec. 6.1), the whole tensor at once, kept on the device across
// vectors. The CSR-shaped formats and HOCOO's segments (Fig. 9 and Alg. 3) are a sparse
// matrix-vector product, rows = fibers, columns = the mode's indices, and run as cuSPARSE's
// CSR SpMV; HOCFS-ELL (Fig. 10) has one thread per fiber (sptv_kernels.cuh).
//
// Why cuSPARSE and not our own row kernel: measured side by side on one H200 (session 21,
// docs/bench/h200-issue19-session21-sptv.json), our nonzero-balanced tiles (1,024 nonzeros a
// block, rows found by a block-wide scan of row marks, sums met in shared memory) took
// 0.58-0.64 ms a mode on the nell-2 shape, cuSPARSE's CSR_ALG1 0.32-0.35 ms and its merge-path
// ALG2 0.39-0.42 ms; on the uniform shape 0.57-0.63, 0.49-0.59 and 0.56-0.62 ms.
#include <memory>
#include <vector>

#include "cuda_util.cuh"
#include "gpu_sptv.hpp"
#include "sparse_library.cuh"
#include "sptv_kernels.cuh"

namespace tscope::gpu {

namespace {

// y = A v with A the rows x vlen CSR of the fibers (empty rows give 0). Its arrays are 32-bit
// where the nonzeros and the dims fit a signed int (less to read than our 64-bit row
// pointers), else 64-bit: cuSPARSE takes one index type for both.
class CsrSpmv {
public:
    CsrSpmv(const SptvRows& x, std::uint64_t vlen, float* dv, float* dout) {
        constexpr std::uint64_t kInt = std::uint64_t{1} << 31;
        const bool narrow = x.nnz < kInt && x.rows < kInt && vlen < kInt;
        const auto type = narrow ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
        if (narrow) {
            const std::vector<std::int32_t> p(x.ptr, x.ptr + x.rows + 1);
            ptr32_ = DeviceArray<std::int32_t>(p.data(), p.size());
            col32_ = DeviceArray<std::uint32_t>(x.col, x.nnz);  // every index < 2^31: the same bits as int32
        } else {
            ptr64_ = DeviceArray<std::uint64_t>(x.ptr, x.rows + 1);
            const std::vector<std::int64_t> c(x.col, x.col + x.nnz);
            col64_ = DeviceArray<std::int64_t>(c.data(), c.size());
        }
        val_ = DeviceArray<float>(x.val, x.nnz);
        check_sparse(cusparseCreate(&handle_), "creating its handle");
        void* ptr = narrow ? static_cast<void*>(ptr32_.get()) : static_cast<void*>(ptr64_.get());
        void* col = narrow ? static_cast<void*>(col32_.get()) : static_cast<void*>(col64_.get());
        check_sparse(cusparseCreateCsr(&mat_, static_cast<std::int64_t>(x.rows), static_cast<std::int64_t>(vlen),
                                       static_cast<std::int64_t>(x.nnz), ptr, col, val_.get(), type, type, CUSPARSE_INDEX_BASE_ZERO,
                                       CUDA_R_32F),
                     "describing the fibers");
        check_sparse(cusparseCreateDnVec(&v_, static_cast<std::int64_t>(vlen), dv, CUDA_R_32F), "describing the vector");
        check_sparse(cusparseCreateDnVec(&out_, static_cast<std::int64_t>(x.rows), dout, CUDA_R_32F), "describing the output");
        std::size_t bytes = 0;
        check_sparse(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, v_, &zero_, out_, CUDA_R_32F, kAlg,
                                             &bytes),
                     "sizing its buffer");
        buffer_ = DeviceArray<std::uint8_t>(bytes);
        // the analysis a plan keeps for every vector, as our tiles' row ranges were
        check_sparse(cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, v_, &zero_, out_, CUDA_R_32F, kAlg,
                                             buffer_.get()),
                     "preparing the SpMV");
    }
    ~CsrSpmv() {
        if (out_) cusparseDestroyDnVec(out_);
        if (v_) cusparseDestroyDnVec(v_);
        if (mat_) cusparseDestroySpMat(mat_);
        if (handle_) cusparseDestroy(handle_);
    }
    CsrSpmv(const CsrSpmv&) = delete;
    CsrSpmv& operator=(const CsrSpmv&) = delete;
    void run() {
        check_sparse(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, v_, &zero_, out_, CUDA_R_32F, kAlg, buffer_.get()),
                     "in its SpMV");
    }

private:
    static constexpr cusparseSpMVAlg_t kAlg = CUSPARSE_SPMV_CSR_ALG1;
    const float one_ = 1.0f, zero_ = 0.0f;
    DeviceArray<std::int32_t> ptr32_;
    DeviceArray<std::uint32_t> col32_;
    DeviceArray<std::uint64_t> ptr64_;
    DeviceArray<std::int64_t> col64_;
    DeviceArray<float> val_;
    DeviceArray<std::uint8_t> buffer_;
    cusparseHandle_t handle_ = nullptr;
    cusparseSpMatDescr_t mat_ = nullptr;
    cusparseDnVecDescr_t v_ = nullptr, out_ = nullptr;
};

}  // namespace

struct SptvDevice::Impl {
    bool ell = false;
    std::uint64_t outputs = 0;
    DeviceArray<float> v, out;
    std::unique_ptr<CsrSpmv> rows;  // the CSR-shaped formats, where there are nonzeros
    // HOCFS-ELL
    std::uint64_t slices = 0;
    DeviceArray<std::uint64_t> first, ap;
    DeviceArray<std::uint32_t> fiber_slice, col;
    DeviceArray<float> val;
};

SptvDevice::SptvDevice(const SptvRows& x, std::uint64_t vlen, Timing& timing) : impl_(new Impl) {
    use_device();
    require_free((x.rows + 1) * 4 + x.nnz * 8 + vlen * 4 + x.rows * 4, "SpTV on the whole tensor");
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.outputs = x.rows;
    d.v = DeviceArray<float>(vlen);
    d.out = DeviceArray<float>(x.rows);
    if (x.rows && x.nnz) d.rows = std::make_unique<CsrSpmv>(x, vlen, d.v.get(), d.out.get());
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

SptvDevice::SptvDevice(const SptvEll& x, std::uint64_t vlen, Timing& timing) : impl_(new Impl) {
    use_device();
    require_free((x.slices + 1) * 16 + x.fibers * 8 + x.entries * 8 + vlen * 4, "SpTV on the whole tensor");
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.ell = true, d.outputs = x.fibers, d.slices = x.slices;
    d.first = DeviceArray<std::uint64_t>(x.first, x.slices + 1);
    d.ap = DeviceArray<std::uint64_t>(x.ap, x.slices + 1);
    d.fiber_slice = DeviceArray<std::uint32_t>(x.fiber_slice, x.fibers);
    d.col = DeviceArray<std::uint32_t>(x.col, x.entries);
    d.val = DeviceArray<float>(x.val, x.entries);
    d.v = DeviceArray<float>(vlen);
    d.out = DeviceArray<float>(x.fibers);
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

SptvDevice::~SptvDevice() = default;

std::uint64_t SptvDevice::outputs() const { return impl_->outputs; }

void SptvDevice::compute(const float* v, float* out, Timing& timing) {
    use_device();
    Impl& d = *impl_;
    Event t0, t1, t2, t3;
    t0.record();
    d.v.upload(v);
    t1.record();
    if (d.rows)
        d.rows->run();
    else if (!d.ell)
        d.out.zero();  // no nonzeros: every row is empty
    else if (d.outputs)
        sptv_ell_kernel<<<grid_for(d.outputs), 256>>>(d.outputs, 0, 0, 0, d.first.get(), d.ap.get(), d.fiber_slice.get(), d.col.get(),
                                                     d.val.get(), d.v.get(), d.out.get());
    check(cudaGetLastError(), "launching the SpTV kernel");
    t2.record();
    d.out.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
