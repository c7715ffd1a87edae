#include <cuda_runtime.h>

#include "tscope/cuda/device.hpp"

namespace tscope {

bool cuda_built() { return true; }

GpuInfo query_gpu() {
    GpuInfo info;
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        info.reason = err == cudaSuccess || err == cudaErrorNoDevice
                          ? "no CUDA device"
                          : std::string("no CUDA device (") + cudaGetErrorString(err) + ")";
        cudaGetLastError();  // clear the sticky error state of a failed query
        return info;
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        info.reason = "no CUDA device (cannot read its properties)";
        cudaGetLastError();
        return info;
    }
    info.available = true;
    info.count = count;
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.total_memory = prop.totalGlobalMem;
    info.multiprocessors = prop.multiProcessorCount;
    return info;
}

}  // namespace tscope
