// The dense side of CPD-ALS kept on the device for the whole run: the factors (fp64,
// with the fp32 copies the MTTKRP kernels read), the MTTKRP output, and the small reductions
// that leave the device: R x R Grams, R column norms, R inner products. The host sees O(R^2)
// numbers per mode and the factors once at the end. Plain arrays only; private to the engine.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gpu_mttkrp.hpp"

namespace tscope::gpu {

class CpdDevice {
public:
    CpdDevice(const std::vector<std::uint64_t>& dims, std::uint64_t rank);  // throws Error
    ~CpdDevice();
    CpdDevice(const CpdDevice&) = delete;
    CpdDevice& operator=(const CpdDevice&) = delete;

    // Factor `mode` (dims[mode] x R, row-major fp64) in and out.
    void set_factor(int mode, const double* host);
    void get_factor(int mode, double* host) const;
    // M = the MTTKRP of `mode` with the current factors, kept on the device (fp64).
    void mttkrp(const ResidentTensor& tensor, int mode);
    // The same in two steps, for tensors that are not one resident tensor (streamed, or split
    // over GPUs): begin_mttkrp clears the output (fp64 when `wide`, else fp32) and calls
    // launch(factors, out_f, out_d) to fill it; finish_mttkrp widens an fp32 output into M.
    // Between the two, output() is the raw buffer (for the collectives).
    using Launcher = std::function<void(const float* const* factors, float* out_f, double* out_d)>;
    void begin_mttkrp(int mode, bool wide, const Launcher& launch);
    void finish_mttkrp(int mode);
    void* output() const;
    // M (dims[mode] x R, row-major fp64) of the last MTTKRP, back on the host.
    void get_mttkrp(int mode, double* host) const;
    int device() const;
    // A_mode = M vinv (vinv: R x R, row-major, from the host), its columns divided by their 2-norms:
    // norms (R) come back, a zero column keeps norm 0.
    void solve_and_normalize(int mode, const double* vinv, double* norms);
    // g (R x R, both triangles) = A_mode^T A_mode.
    void gram(int mode, double* g) const;
    // per_column[r] = sum_i M(i, r) A_mode(i, r), with M the last MTTKRP.
    void inner(int mode, double* per_column) const;
    // Device time of the dense steps so far (events): A = M V^-1, the normalisation, the Grams.
    struct StepSeconds {
        double solve = 0, normalize = 0, gram = 0;
    };
    StepSeconds step_seconds() const;
    // Waits for the current device (for the callers' clocks); wait() for this object's.
    static void synchronize();
    void wait() const;
    std::uint64_t device_bytes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tscope::gpu
