// The dense side of CPD-ALS kept on the device for the whole run: the factors (fp64,
// with the fp32 copies the MTTKRP kernels read), the MTTKRP output, and the small reductions
// that leave the device: R x R Grams, R column norms, R inner products. The host sees O(R^2)
// numbers per mode and the factors once at the end. Plain arrays only; private to the engine.
//
// Over several GPUs each device owns a range of every factor's rows (own_rows): the dense steps
// (solve, column norms, Gram, the fit's inner product) and the widening of M touch only those,
// and return partial sums the caller adds up over the devices; the fp32 factor rows are then
// gathered (factor32) so every device's MTTKRP reads the whole factor. One device owns all rows.
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

    // Rows [begin, end) of factor `mode` are this device's (default: all of them).
    void own_rows(int mode, std::uint64_t begin, std::uint64_t end);
    // Factor `mode` (dims[mode] x R, row-major fp64) in (all rows), and out (the owned rows, at
    // their places in `host`).
    void set_factor(int mode, const double* host);
    void get_factor(int mode, double* host) const;
    // The fp32 copy of factor `mode` (dims[mode] x R) the MTTKRP kernels read: where the owned
    // rows of every device are gathered.
    void* factor32(int mode) const;
    // M = the MTTKRP of `mode` with the current factors, kept on the device (fp64).
    void mttkrp(const ResidentTensor& tensor, int mode);
    // The same in two steps, for tensors that are not one resident tensor (streamed, or split
    // over GPUs): begin_mttkrp clears the output (fp64 when `wide`, else fp32) and calls
    // launch(factors, out_f, out_d) to fill it, out_d null unless `wide` (a COO that needs no
    // fp64 output then adds into out_f); finish_mttkrp widens an fp32 output into M.
    // Between the two, output() is the raw buffer (for the collectives). Only the owned rows of
    // M are widened: the others are not needed.
    // owned_only: the launch writes only the owned rows, so only those are cleared.
    using Launcher = std::function<void(const float* const* factors, float* out_f, double* out_d)>;
    void begin_mttkrp(int mode, bool wide, const Launcher& launch, bool owned_only = false);
    void finish_mttkrp(int mode);
    void* output() const;
    // M (dims[mode] x R, row-major fp64) of the last MTTKRP, back on the host.
    void get_mttkrp(int mode, double* host) const;
    int device() const;
    // A_mode = M vinv on the owned rows (vinv: R x R, row-major, from the host), and those rows'
    // A^T A before normalisation (its diagonal holds the column sums of squares, so the norms
    // need no pass of their own). solve only queues the work; solved_gram waits for it and
    // returns that Gram (R x R, both triangles). Split so that one host thread keeps several
    // GPUs busy at once.
    void solve(int mode, const double* vinv);
    void solved_gram(double* g);
    // The owned rows divided by the column 2-norms sqrt(sumsq) (sumsq: over all the rows, from
    // every device); a zero column stays. The fp32 copy of those rows follows. Queued: the
    // device's next step (or wait()) comes after it.
    void normalize(int mode, const double* sumsq);
    // g (R x R, both triangles) = A_mode^T A_mode over the owned rows.
    void gram(int mode, double* g) const;
    // per_column[r] = sum_i M(i, r) A_mode(i, r) over the owned rows, with M the last MTTKRP.
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
