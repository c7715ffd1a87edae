// Where a kernel runs. Names, everywhere: cpu-ref, omp, cuda.
#pragma once

#include <string>

namespace tscope {

enum class Backend { CpuRef, Omp, Cuda };

const char* backend_name(Backend b);
Backend parse_backend(const std::string& name);  // InputError listing the names

}  // namespace tscope
