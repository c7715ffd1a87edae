// What GPU, if any, this process can use. A missing GPU is a normal state, not an error:
// callers show the reason and fall back to the CPU. No CUDA headers here.
#pragma once

#include <cstdint>
#include <string>

namespace tscope {

struct GpuInfo {
    bool available = false;
    std::string reason;  // why not, when !available ("no CUDA device", "built without CUDA", ...)
    int count = 0;
    std::string name;    // of device 0
    int cc_major = 0, cc_minor = 0;
    std::uint64_t total_memory = 0;
    int multiprocessors = 0;
};

// True when this build has the CUDA backend compiled in.
bool cuda_built();
// Queries the CUDA runtime once; never throws.
GpuInfo query_gpu();

}  // namespace tscope
