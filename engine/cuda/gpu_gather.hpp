// The GPU's rate for the gathers that bound MTTKRP and SpTTM on real tensors: whole factor rows
// (rank 32 in fp32: 128 bytes) picked at random from a matrix that fits in L2 but not in an SM's
// L1. Every nonzero of those kernels reads one such row of a factor (the leaf level's) that no
// other nonzero of its fiber shares, so bytes gathered at this rate bound them where the copy
// bandwidth does not. Private to engine/cuda.
#pragma once

namespace tscope::gpu {

// Gathered bytes per second / 1e9, the best of five launches (0 without a device).
double gather_bandwidth_gbps();

}  // namespace tscope::gpu
