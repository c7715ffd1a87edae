#include "tscope/checks.hpp"

#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"

namespace tscope {

void check_mode(int mode, int order, const std::string& label) {
    if (mode < 0 || mode >= order)
        throw InputError(label + " " + std::to_string(mode + 1) + " is out of range: the tensor has " + std::to_string(order) +
                         " modes");
}

void require_gpu() {
    const GpuInfo gpu = query_gpu();
    if (!gpu.available) throw Error(gpu.reason);
}

}  // namespace tscope
