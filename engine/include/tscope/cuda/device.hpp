// What GPU, if any, this process can use. A missing GPU is a normal state, not an error:
// callers show the reason and fall back to the CPU. No CUDA headers here.
#pragma once

#include <cstdint>
#include <string>

#include "tscope/error.hpp"

namespace tscope {

struct GpuInfo {
    bool available = false;
    std::string reason;  // why not, when !available ("no CUDA device", "built without CUDA", ...)
    int count = 0;
    std::string name;    // of device 0
    int cc_major = 0, cc_minor = 0;
    std::uint64_t total_memory = 0;
    int multiprocessors = 0;
    int clock_khz = 0;   // the SMs' peak clock (the roofline's compute peak)
    std::uint64_t l2_bytes = 0;  // the L2 cache (SpTV packs a vector larger than it)
};

// True when this build has the CUDA backend compiled in.
bool cuda_built();
// Queries the CUDA runtime once; never throws.
GpuInfo query_gpu();
// Free device memory now, in bytes (0 without a GPU); never throws.
std::uint64_t gpu_free_memory();
// The most device memory the engine's own arrays held at once since the last reset (cuBLAS's
// and CUB's workspaces that they allocate themselves aside); 0 without CUDA. Never throws.
std::uint64_t gpu_memory_peak_bytes();
void gpu_memory_reset_peak();

// Allocates `bytes` on the device through the kernels' own RAII owner and frees them again.
// Throws Error("out of GPU memory ...") when they do not fit, Error("no CUDA device") without
// a GPU. Tests use it to show that a failed allocation leaves the device usable.
void gpu_try_allocate(std::uint64_t bytes);

// Whether `e` says a device allocation did not fit (the engine's Error("out of GPU memory ...")),
// so that a caller may go another way (stream the tensor, partition on the host).
inline bool out_of_gpu_memory(const Error& e) {
    return std::string(e.what()).find("out of GPU memory") != std::string::npos;
}

// Holds `bytes` of device memory until destroyed: stands in for the other users of a shared
// GPU, so that a run can be tried with less free memory than the device has.
class GpuReservation {
public:
    explicit GpuReservation(std::uint64_t bytes);  // Error("out of GPU memory ...") / "no CUDA device"
    ~GpuReservation();
    GpuReservation(const GpuReservation&) = delete;
    GpuReservation& operator=(const GpuReservation&) = delete;

private:
    void* ptr_ = nullptr;
};

}  // namespace tscope
