// The cuBLAS, cuSOLVER and NCCL entry points the engine calls, bound when first called: the
// libraries are opened (dlopen) at that moment instead of at start. Loading them costs about
// 260 MB of resident memory (cuBLASLt and cuSOLVER's own dependencies), which every command
// paid, `info` on a small file and machines without a GPU included (issue 24, item 8). Only
// the CUDA runtime, a few MB, is still linked.
//
// Each function below has the signature of the header's declaration it defines; it looks its
// real counterpart up once and calls it. A library that cannot be opened is an Error naming it
// and the loader's reason, raised where the GPU work that needs it starts.
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

#if TS_WITH_NCCL
#include <nccl.h>
#endif

#include "tscope/error.hpp"

namespace tscope::gpu {

namespace {

class LazyLibrary {
public:
    LazyLibrary(std::string file, std::string fallback_dir, const char* purpose)
        : file_(std::move(file)), fallback_dir_(std::move(fallback_dir)), purpose_(purpose) {}

    void* symbol(const char* name) {
        std::call_once(opened_, [this] { open(); });
        if (!handle_) throw Error("cannot load " + file_ + " (" + purpose_ + "): " + error_);
        void* f = ::dlsym(handle_, name);
        if (!f) throw Error(file_ + " has no " + name + " (" + purpose_ + "): a different version than the one built against?");
        return f;
    }

private:
    void open() {
        // the loader's search first (LD_LIBRARY_PATH, the executable's run path), then where
        // the build found the toolkit
        handle_ = ::dlopen(file_.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle_) return;
        error_ = ::dlerror();
        if (!fallback_dir_.empty()) handle_ = ::dlopen((fallback_dir_ + "/" + file_).c_str(), RTLD_NOW | RTLD_LOCAL);
    }

    const std::string file_, fallback_dir_, purpose_;
    std::once_flag opened_;
    void* handle_ = nullptr;
    std::string error_;
};

#ifndef TS_CUDA_LIBRARY_DIR
#define TS_CUDA_LIBRARY_DIR ""
#endif
#ifndef TS_NCCL_LIBRARY_DIR
#define TS_NCCL_LIBRARY_DIR ""
#endif

LazyLibrary& cublas() {
    static LazyLibrary lib("libcublas.so." + std::to_string(CUBLAS_VER_MAJOR), TS_CUDA_LIBRARY_DIR, "cuBLAS, the GPU's dense products");
    return lib;
}
LazyLibrary& cusolver() {
    static LazyLibrary lib("libcusolver.so." + std::to_string(CUSOLVER_VER_MAJOR), TS_CUDA_LIBRARY_DIR,
                           "cuSOLVER, the GPU's dense solves");
    return lib;
}
LazyLibrary& cusparse() {
    static LazyLibrary lib("libcusparse.so." + std::to_string(CUSPARSE_VER_MAJOR), TS_CUDA_LIBRARY_DIR,
                           "cuSPARSE, the GPU's sparse matrix-vector product");
    return lib;
}
#if TS_WITH_NCCL
LazyLibrary& nccl() {
    static LazyLibrary lib("libnccl.so." + std::to_string(NCCL_MAJOR), TS_NCCL_LIBRARY_DIR, "NCCL, the collectives between GPUs");
    return lib;
}
#endif

}  // namespace

}  // namespace tscope::gpu

// The real function of the same name, looked up once.
#define TS_FORWARD(library, name, ...)                                                                   \
    static const auto real = reinterpret_cast<decltype(&name)>(tscope::gpu::library().symbol(#name)); \
    return real(__VA_ARGS__)

extern "C" {

cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle) { TS_FORWARD(cublas, cublasCreate_v2, handle); }
cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle) { TS_FORWARD(cublas, cublasDestroy_v2, handle); }
cublasStatus_t CUBLASWINAPI cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                                           int k, const double* alpha, const double* A, int lda, const double* B, int ldb,
                                           const double* beta, double* C, int ldc) {
    TS_FORWARD(cublas, cublasDgemm_v2, handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
cublasStatus_t CUBLASWINAPI cublasDsyrk_v2(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                                           const double* alpha, const double* A, int lda, const double* beta, double* C, int ldc) {
    TS_FORWARD(cublas, cublasDsyrk_v2, handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
}

cusolverStatus_t CUSOLVERAPI cusolverDnCreate(cusolverDnHandle_t* handle) { TS_FORWARD(cusolver, cusolverDnCreate, handle); }
cusolverStatus_t CUSOLVERAPI cusolverDnDestroy(cusolverDnHandle_t handle) { TS_FORWARD(cusolver, cusolverDnDestroy, handle); }
cusolverStatus_t CUSOLVERAPI cusolverDnDpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, double* A, int lda,
                                                         int* Lwork) {
    TS_FORWARD(cusolver, cusolverDnDpotrf_bufferSize, handle, uplo, n, A, lda, Lwork);
}
cusolverStatus_t CUSOLVERAPI cusolverDnDpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, double* A, int lda,
                                              double* Workspace, int Lwork, int* devInfo) {
    TS_FORWARD(cusolver, cusolverDnDpotrf, handle, uplo, n, A, lda, Workspace, Lwork, devInfo);
}
cusolverStatus_t CUSOLVERAPI cusolverDnDpotrs(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, int nrhs, const double* A,
                                              int lda, double* B, int ldb, int* devInfo) {
    TS_FORWARD(cusolver, cusolverDnDpotrs, handle, uplo, n, nrhs, A, lda, B, ldb, devInfo);
}
cusolverStatus_t CUSOLVERAPI cusolverDnDsyevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                                         const double* A, int lda, const double* W, int* lwork) {
    TS_FORWARD(cusolver, cusolverDnDsyevd_bufferSize, handle, jobz, uplo, n, A, lda, W, lwork);
}
cusolverStatus_t CUSOLVERAPI cusolverDnDsyevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, double* A,
                                              int lda, double* W, double* work, int lwork, int* info) {
    TS_FORWARD(cusolver, cusolverDnDsyevd, handle, jobz, uplo, n, A, lda, W, work, lwork, info);
}

cusparseStatus_t CUSPARSEAPI cusparseCreate(cusparseHandle_t* handle) { TS_FORWARD(cusparse, cusparseCreate, handle); }
cusparseStatus_t CUSPARSEAPI cusparseDestroy(cusparseHandle_t handle) { TS_FORWARD(cusparse, cusparseDestroy, handle); }
const char* CUSPARSEAPI cusparseGetErrorString(cusparseStatus_t status) { TS_FORWARD(cusparse, cusparseGetErrorString, status); }
cusparseStatus_t CUSPARSEAPI cusparseSetStream(cusparseHandle_t handle, cudaStream_t streamId) {
    TS_FORWARD(cusparse, cusparseSetStream, handle, streamId);
}
cusparseStatus_t CUSPARSEAPI cusparseCreateCsr(cusparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                               void* csrRowOffsets, void* csrColInd, void* csrValues, cusparseIndexType_t csrRowOffsetsType,
                                               cusparseIndexType_t csrColIndType, cusparseIndexBase_t idxBase, cudaDataType valueType) {
    TS_FORWARD(cusparse, cusparseCreateCsr, spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues, csrRowOffsetsType,
               csrColIndType, idxBase, valueType);
}
cusparseStatus_t CUSPARSEAPI cusparseDestroySpMat(cusparseConstSpMatDescr_t spMatDescr) {
    TS_FORWARD(cusparse, cusparseDestroySpMat, spMatDescr);
}
cusparseStatus_t CUSPARSEAPI cusparseCreateDnVec(cusparseDnVecDescr_t* dnVecDescr, int64_t size, void* values, cudaDataType valueType) {
    TS_FORWARD(cusparse, cusparseCreateDnVec, dnVecDescr, size, values, valueType);
}
cusparseStatus_t CUSPARSEAPI cusparseDestroyDnVec(cusparseConstDnVecDescr_t dnVecDescr) {
    TS_FORWARD(cusparse, cusparseDestroyDnVec, dnVecDescr);
}
cusparseStatus_t CUSPARSEAPI cusparseSpMV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void* beta,
                                                     cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
                                                     size_t* bufferSize) {
    TS_FORWARD(cusparse, cusparseSpMV_bufferSize, handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg, bufferSize);
}
cusparseStatus_t CUSPARSEAPI cusparseSpMV_preprocess(cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void* beta,
                                                     cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
                                                     void* externalBuffer) {
    TS_FORWARD(cusparse, cusparseSpMV_preprocess, handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg, externalBuffer);
}
cusparseStatus_t CUSPARSEAPI cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha, cusparseConstSpMatDescr_t matA,
                                          cusparseConstDnVecDescr_t vecX, const void* beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                          cusparseSpMVAlg_t alg, void* externalBuffer) {
    TS_FORWARD(cusparse, cusparseSpMV, handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg, externalBuffer);
}
cusparseStatus_t CUSPARSEAPI cusparseCreateDnMat(cusparseDnMatDescr_t* dnMatDescr, int64_t rows, int64_t cols, int64_t ld, void* values,
                                                 cudaDataType valueType, cusparseOrder_t order) {
    TS_FORWARD(cusparse, cusparseCreateDnMat, dnMatDescr, rows, cols, ld, values, valueType, order);
}
cusparseStatus_t CUSPARSEAPI cusparseDestroyDnMat(cusparseConstDnMatDescr_t dnMatDescr) {
    TS_FORWARD(cusparse, cusparseDestroyDnMat, dnMatDescr);
}
cusparseStatus_t CUSPARSEAPI cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void* beta,
                                                     cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpMMAlg_t alg,
                                                     size_t* bufferSize) {
    TS_FORWARD(cusparse, cusparseSpMM_bufferSize, handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, bufferSize);
}
cusparseStatus_t CUSPARSEAPI cusparseSpMM_preprocess(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void* beta,
                                                     cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpMMAlg_t alg,
                                                     void* externalBuffer) {
    TS_FORWARD(cusparse, cusparseSpMM_preprocess, handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, externalBuffer);
}
cusparseStatus_t CUSPARSEAPI cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
                                          cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void* beta, cusparseDnMatDescr_t matC,
                                          cudaDataType computeType, cusparseSpMMAlg_t alg, void* externalBuffer) {
    TS_FORWARD(cusparse, cusparseSpMM, handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, externalBuffer);
}

#if TS_WITH_NCCL
ncclResult_t ncclGroupStart() { TS_FORWARD(nccl, ncclGroupStart); }
ncclResult_t ncclGroupEnd() { TS_FORWARD(nccl, ncclGroupEnd); }
const char* ncclGetErrorString(ncclResult_t result) { TS_FORWARD(nccl, ncclGetErrorString, result); }
ncclResult_t ncclCommInitAll(ncclComm_t* comm, int ndev, const int* devlist) { TS_FORWARD(nccl, ncclCommInitAll, comm, ndev, devlist); }
ncclResult_t ncclCommDestroy(ncclComm_t comm) { TS_FORWARD(nccl, ncclCommDestroy, comm); }
ncclResult_t ncclBroadcast(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, int root, ncclComm_t comm,
                           cudaStream_t stream) {
    TS_FORWARD(nccl, ncclBroadcast, sendbuff, recvbuff, count, datatype, root, comm, stream);
}
ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream) {
    TS_FORWARD(nccl, ncclAllReduce, sendbuff, recvbuff, count, datatype, op, comm, stream);
}
ncclResult_t ncclReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op, int root,
                        ncclComm_t comm, cudaStream_t stream) {
    TS_FORWARD(nccl, ncclReduce, sendbuff, recvbuff, count, datatype, op, root, comm, stream);
}
#endif

}  // extern "C"
