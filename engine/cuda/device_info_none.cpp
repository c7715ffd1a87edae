// The CPU-only build's answer to "is there a GPU?".
#include "tscope/cuda/device.hpp"

namespace tscope {

bool cuda_built() { return false; }

GpuInfo query_gpu() {
    GpuInfo info;
    info.reason = "no CUDA device (this build has no CUDA backend)";
    return info;
}

}  // namespace tscope
