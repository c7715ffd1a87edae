// cuSPARSE's status checked the engine's way: a failure is a tscope::Error naming what failed.
// The library is opened when first called (lazy_libraries.cpp). Private to engine/cuda.
#pragma once

#include <cusparse.h>

#include <string>

#include "tscope/error.hpp"

namespace tscope::gpu {

inline void check_sparse(cusparseStatus_t status, const char* what) {
    if (status != CUSPARSE_STATUS_SUCCESS) throw Error(std::string("cuSPARSE failed ") + what + ": " + cusparseGetErrorString(status));
}

}  // namespace tscope::gpu
