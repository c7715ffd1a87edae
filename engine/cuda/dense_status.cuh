// cuBLAS and cuSOLVER status checks shared by the GPU's dense steps (gpu_cpd.cu, gpu_dense.cu):
// an allocation failure reads as out of GPU memory, anything else names the library, the step
// and the status. Private to the engine's CUDA code.
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>

#include <string>

#include "tscope/error.hpp"

namespace tscope::gpu {

inline void check_blas(cublasStatus_t s, const char* what) {
    if (s == CUBLAS_STATUS_SUCCESS) return;
    if (s == CUBLAS_STATUS_ALLOC_FAILED) throw Error(std::string("out of GPU memory while ") + what);
    throw Error(std::string("cuBLAS failed while ") + what + " (status " + std::to_string(static_cast<int>(s)) + ")");
}

inline void check_solver(cusolverStatus_t s, const char* what) {
    if (s == CUSOLVER_STATUS_SUCCESS) return;
    if (s == CUSOLVER_STATUS_ALLOC_FAILED) throw Error(std::string("out of GPU memory while ") + what);
    throw Error(std::string("cuSOLVER failed while ") + what + " (status " + std::to_string(static_cast<int>(s)) + ")");
}

}  // namespace tscope::gpu
