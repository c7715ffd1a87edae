// fp32 results widened into the host's fp64 arrays on every thread: the CUDA MTTKRP's (nvcc
// compiles the .cu files without OpenMP), SpTTM's and SpTV's. One thread widening a result of
// GBs (a mode of 17M rows at rank 32) took longer than the kernel that made it. Plain C++,
// built with or without CUDA. Private to the engine.
#pragma once

#include <cstdint>
#include <memory>

namespace tscope::gpu {

void widen(const float* in, double* out, std::uint64_t n);

// A plan's host buffer for the device's fp32 result: allocated by the first compute and kept
// (left uninitialised: the download fills it), then widened into the plan's values. A fresh
// zeroed vector per compute, widened on one thread, cost seconds a call where fibers are short
// (fibers x R is 2.5G values on the uniform nell-2 shape at rank 32): a bench of SpTTM's six
// variants there outran a 9-minute device call (session 20).
class Staging {
public:
    explicit Staging(std::uint64_t n) : n_(n) {}
    float* data();
    void widen_into(double* out) const { widen(data_.get(), out, n_); }

private:
    std::uint64_t n_;
    std::unique_ptr<float[]> data_;
};

}  // namespace tscope::gpu
