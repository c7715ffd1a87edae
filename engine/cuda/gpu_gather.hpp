// The GPU's rates for the row traffic that bounds MTTKRP and SpTTM on real tensors: whole rows
// (rank 32 in fp32: 128 bytes) picked at random from a matrix that fits in L2 but not in an SM's
// L1, gathered, or added into by atomics. Every nonzero of those kernels reads one such row of a
// factor (the leaf level's) that no other nonzero of its fiber shares, or, where the output's mode
// is a tree's leaves (MM-CSF, mm-csf Alg. 8), adds one such row of the output; bytes moved at these
// rates bound them where the copy bandwidth does not. Private to engine/cuda.
#pragma once

namespace tscope::gpu {

// Gathered bytes per second / 1e9, the best of five launches (0 without a device).
double gather_bandwidth_gbps();
// Bytes added per second / 1e9, by 16-byte vector atomics, 8 to a row (0 without a device).
double add_bandwidth_gbps();

}  // namespace tscope::gpu
