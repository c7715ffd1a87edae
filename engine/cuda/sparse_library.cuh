// cuSPARSE for the engine's CSR-shaped products (SpTV's SpMV, SpTTM's SpMM): its status checked
// the engine's way, and a CSR described over device arrays the engine already holds. The
// library is opened when first called (lazy_libraries.cpp). Private to engine/cuda.
#pragma once

#include <cusparse.h>

#include <cstdint>
#include <string>

#include "cuda_util.cuh"
#include "tscope/error.hpp"

namespace tscope::gpu {

inline void check_sparse(cusparseStatus_t status, const char* what) {
    if (status != CUSPARSE_STATUS_SUCCESS) throw Error(std::string("cuSPARSE failed ") + what + ": " + cusparseGetErrorString(status));
}

namespace {  // each .cu file gets its own copy (no separable compilation)

// A copy with another element type, on the device.
template <class To, class From>
__global__ void convert_kernel(std::uint64_t n, const From* __restrict__ in, To* __restrict__ out) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n; i += stride) out[i] = static_cast<To>(in[i]);
}

// A CSR's row offsets in 32 bits on the device, as our own SpTV kernels read them: the caller's
// (which it may rewrite between products), or its 64-bit ones narrowed here once.
class Offsets32 {
public:
    explicit Offsets32(const std::int32_t* ptr32) : ptr_(ptr32) {}
    Offsets32(std::uint64_t rows, const std::uint64_t* ptr64) : own_(rows + 1), ptr_(own_.get()) {
        convert_kernel<<<grid_for(rows + 1), 256>>>(rows + 1, ptr64, own_.get());
        check(cudaGetLastError(), "narrowing the SpTV row offsets");
    }
    const std::int32_t* get() const { return ptr_; }

private:
    DeviceArray<std::int32_t> own_;  // where narrowed here
    const std::int32_t* ptr_;
};

}  // namespace

// A rows x cols CSR (the engine's 64-bit row offsets, 32-bit columns, fp32 values, all on the
// device) as cuSPARSE takes it, with the handle that uses it. cuSPARSE takes one index type for
// both arrays: 32-bit where the nonzeros and dims fit a signed int (less to read), else 64-bit;
// the array of the other type is converted once, on the device, into this object. The caller
// keeps the arrays alive, except the one `narrow()` says is not used: the 64-bit offsets when
// narrow, the 32-bit columns otherwise.
class DeviceCsr {
public:
    DeviceCsr(std::uint64_t rows, std::uint64_t cols, std::uint64_t nnz, std::uint64_t* ptr, std::uint32_t* col, float* val) {
        constexpr std::uint64_t kInt = std::uint64_t{1} << 31;
        narrow_ = nnz < kInt && rows < kInt && cols < kInt;
        void* offsets = ptr;
        void* columns = col;  // every index < 2^31 when narrow: the same bits as int32
        if (narrow_) {
            ptr32_ = DeviceArray<std::int32_t>(rows + 1);
            convert_kernel<<<grid_for(rows + 1), 256>>>(rows + 1, ptr, ptr32_.get());
            offsets = ptr32_.get();
        } else if (nnz) {
            col64_ = DeviceArray<std::int64_t>(nnz);
            convert_kernel<<<grid_for(nnz), 256>>>(nnz, col, col64_.get());
            columns = col64_.get();
        }
        check(cudaGetLastError(), "converting a CSR's indices for cuSPARSE");
        describe(rows, cols, nnz, offsets, columns, val);
    }
    // Over 32-bit offsets the caller holds (and may rewrite between products): nnz, rows and
    // cols must fit a signed int.
    DeviceCsr(std::uint64_t rows, std::uint64_t cols, std::uint64_t nnz, std::int32_t* ptr32, std::uint32_t* col, float* val) : narrow_(true) {
        describe(rows, cols, nnz, ptr32, col, val);
    }
    ~DeviceCsr() {
        cusparseDestroySpMat(matrix_);
        cusparseDestroy(handle_);
    }
    DeviceCsr(const DeviceCsr&) = delete;
    DeviceCsr& operator=(const DeviceCsr&) = delete;
    bool narrow() const { return narrow_; }
    cusparseHandle_t handle() const { return handle_; }
    cusparseSpMatDescr_t matrix() const { return matrix_; }

private:
    void describe(std::uint64_t rows, std::uint64_t cols, std::uint64_t nnz, void* offsets, void* columns, float* val) {
        check_sparse(cusparseCreate(&handle_), "creating its handle");
        const auto type = narrow_ ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
        const cusparseStatus_t made =
            cusparseCreateCsr(&matrix_, static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols), static_cast<std::int64_t>(nnz),
                              offsets, columns, val, type, type, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
        if (made != CUSPARSE_STATUS_SUCCESS) cusparseDestroy(handle_);
        check_sparse(made, "describing the CSR");
    }

    bool narrow_ = false;
    DeviceArray<std::int32_t> ptr32_;
    DeviceArray<std::int64_t> col64_;
    cusparseHandle_t handle_ = nullptr;
    cusparseSpMatDescr_t matrix_ = nullptr;
};

}  // namespace tscope::gpu
