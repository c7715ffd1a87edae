#include <cuda_runtime.h>

#include "cuda_util.cuh"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"

namespace tscope {

bool cuda_built() { return true; }

int& gpu::engine_device() {
    thread_local int device = 0;
    return device;
}

gpu::OnDevice::OnDevice(int device) : saved_(engine_device()) {
    engine_device() = device;
    use_device();
}

gpu::OnDevice::~OnDevice() {
    engine_device() = saved_;
    cudaSetDevice(saved_);
}

GpuInfo query_gpu() {
    GpuInfo info;
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        // in words a sentence can hold: the runtime's own "(CUDA driver version is insufficient
        // for CUDA runtime version)" had nested parentheses in the window's (sweep 66b C3)
        info.reason = err == cudaSuccess || err == cudaErrorNoDevice ? "no CUDA device"
                      : err == cudaErrorInsufficientDriver
                          ? "no CUDA device: no NVIDIA driver, or one older than this build's CUDA runtime"
                          : std::string("no CUDA device: ") + cudaGetErrorString(err);
        cudaGetLastError();  // clear the sticky error state of a failed query
        return info;
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        info.reason = "no CUDA device: cannot read its properties";
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
    info.l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
    if (cudaDeviceGetAttribute(&info.clock_khz, cudaDevAttrClockRate, 0) != cudaSuccess) {
        info.clock_khz = 0;  // the roofline then says the peak is not known
        cudaGetLastError();
    }
    return info;
}

std::uint64_t gpu_memory_peak_bytes() { return gpu::device_bytes().peak.load(); }
void gpu_memory_reset_peak() { gpu::device_bytes().peak.store(gpu::device_bytes().now.load()); }

std::uint64_t gpu_free_memory() {
    std::size_t free_bytes = 0, total = 0;
    if (!query_gpu().available || cudaSetDevice(0) != cudaSuccess || cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return free_bytes;
}

void gpu_try_allocate(std::uint64_t bytes) {
    require_gpu();
    gpu::use_device();
    gpu::DeviceArray<unsigned char> block(bytes);
}

GpuReservation::GpuReservation(std::uint64_t bytes) {
    require_gpu();
    gpu::use_device();
    if (bytes) gpu::check(cudaMalloc(&ptr_, bytes), "reserving device memory");
}

GpuReservation::~GpuReservation() {
    if (ptr_) cudaFree(ptr_);
}

}  // namespace tscope
