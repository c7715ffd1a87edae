// The CPU-only build: no device to measure.
#include "gpu_gather.hpp"

namespace tscope::gpu {

double gather_bandwidth_gbps() { return 0; }
double add_bandwidth_gbps() { return 0; }

}  // namespace tscope::gpu
