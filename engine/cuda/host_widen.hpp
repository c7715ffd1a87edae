// fp32 results widened into the host's fp64 arrays on every thread: the CUDA MTTKRP's (nvcc
// compiles the .cu files without OpenMP) and SpTTM's. One thread widening a result of GBs (a
// mode of 17M rows at rank 32) took longer than the kernel that made it. Plain C++, built with
// or without CUDA. Private to the engine.
#pragma once

#include <cstdint>

namespace tscope::gpu {

void widen(const float* in, double* out, std::uint64_t n);

}  // namespace tscope::gpu
