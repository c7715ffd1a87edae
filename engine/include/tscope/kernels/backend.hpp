// Where a kernel runs. Names, everywhere: cpu-ref, omp, cuda.
#pragma once

#include <string>

namespace tscope {

enum class Backend { CpuRef, Omp, Cuda };

// Where a cuda-backend call's time went (seconds); transfers are kept apart from the kernels.
struct DeviceTiming {
    double upload_s = 0;
    double kernel_s = 0;
    double download_s = 0;
};

const char* backend_name(Backend b);
Backend parse_backend(const std::string& name);  // InputError listing the names

}  // namespace tscope
