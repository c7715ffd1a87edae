// The CUDA SpTV kernels' host interface (hocfs-sptv-pipeline Sec. 6.1): plain arrays, fp32
// values and vector, 32-bit mode-n indices. Every kernel returns one fp32 value per fiber, in
// the format's own fiber order; the host lays out the fibers' coordinates. Private.
#pragma once

#include <cstdint>
#include <memory>

#include "gpu_timing.hpp"

namespace tscope::gpu {

// Fibers as rows of a CSR: row q holds [ptr[q], ptr[q+1]) of col/val. HOCSR's rows (Alg. 4,
// every index tuple, empty ones included), CFB's fiber buckets (Alg. 5, ptr from Tn),
// HOCFS-CSR's Ap/Aj/Av (Fig. 9) and CSF's leaf level all take this shape.
struct SptvRows {
    std::uint64_t rows = 0, nnz = 0;
    const std::uint64_t* ptr = nullptr;  // rows + 1
    const std::uint32_t* col = nullptr;  // nnz
    const float* val = nullptr;          // nnz
};

// HOCSR (Alg. 4): rows are every index tuple of the other modes, empty ones included (most of
// them on a real tensor); only the rows that hold a fiber are output, in row order (the device
// counts them: outputs()). The row offsets are 32-bit (ptr32) where the format holds them so,
// else 64-bit (ptr64): the pointer array is most of what the kernel reads.
struct SptvTuples {
    std::uint64_t rows = 0, nnz = 0;
    const std::uint32_t* ptr32 = nullptr;  // rows + 1, or null
    const std::uint64_t* ptr64 = nullptr;  // rows + 1, where ptr32 is null
    const std::uint32_t* col = nullptr;    // nnz
    const float* val = nullptr;            // nnz
};

// HOCFS-ELL (Fig. 10): the fibers of slice s are [first[s], first[s+1]); the slice's entries
// start at ap[s] and are column-major, width (ap[s+1] - ap[s]) / its fiber count; pads hold
// kPad. fiber_slice[q] is q's slice (so that a thread per fiber finds its block directly).
struct SptvEll {
    static constexpr std::uint32_t kPad = 0xffffffffu;
    std::uint64_t fibers = 0, slices = 0, entries = 0;
    const std::uint64_t* first = nullptr;        // slices + 1
    const std::uint64_t* ap = nullptr;           // slices + 1
    const std::uint32_t* fiber_slice = nullptr;  // fibers
    const std::uint32_t* col = nullptr;          // entries
    const float* val = nullptr;                  // entries
};

// HOCOO (Alg. 3) takes SptvRows too: its nonzeros sorted so that fibers are contiguous, fiber
// s = [starts[s], starts[s+1]) as row s, never empty.

// The format's arrays kept on the device (fp32) from construction on (the rows as cuSPARSE's CSR
// SpMV, which analyses them once), with the vector and the output allocated once: a plan (SptvPlan, hocfs Alg. 3-6 filling the result matrix M for each
// new vector) uploads the tensor once, and each compute moves only v and the fiber values. A
// one-shot SpTV re-flattened and re-uploaded the format on every call, which made a bench of
// SpTV on the uniform nell-2 shape take 290 s of a device call (session 20).
class SptvDevice {
public:
    // Uploads the arrays (timing.upload_s). Throws tscope::Error (out of memory included),
    // freeing all.
    SptvDevice(const SptvRows& x, std::uint64_t vlen, Timing& timing);
    SptvDevice(const SptvEll& x, std::uint64_t vlen, Timing& timing);
    SptvDevice(const SptvTuples& x, std::uint64_t vlen, Timing& timing);
    ~SptvDevice();
    SptvDevice(const SptvDevice&) = delete;
    SptvDevice& operator=(const SptvDevice&) = delete;
    std::uint64_t outputs() const;  // one value per row (SptvRows) or fiber (SptvEll, SptvTuples)
    // The vector's much-read entries copied ahead of it (sptv_hot_columns.cuh); 0: none.
    std::uint64_t packed() const;
    bool replays() const;  // whether compute() replays its kernels as one captured graph
    // v: vlen entries; out: outputs() entries, in the format's own row / fiber order.
    void compute(const float* v, float* out, Timing& timing);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tscope::gpu
