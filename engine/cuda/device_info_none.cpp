// The CPU-only build's answer to "is there a GPU?".
#include "cuda/device_scope.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"

namespace tscope {

bool cuda_built() { return false; }

int& gpu::engine_device() {
    thread_local int device = 0;
    return device;
}
gpu::OnDevice::OnDevice(int) {}
gpu::OnDevice::~OnDevice() = default;

GpuInfo query_gpu() {
    GpuInfo info;
    info.reason = "no CUDA device: this build has no CUDA backend";
    return info;
}

std::uint64_t gpu_free_memory() { return 0; }
std::uint64_t gpu_memory_peak_bytes() { return 0; }
void gpu_memory_reset_peak() {}

void gpu_try_allocate(std::uint64_t) { throw Error(query_gpu().reason); }

GpuReservation::GpuReservation(std::uint64_t) { throw Error(query_gpu().reason); }
GpuReservation::~GpuReservation() = default;

}  // namespace tscope
