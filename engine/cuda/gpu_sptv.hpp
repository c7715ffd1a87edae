// The CUDA SpTV kernels' host interface (hocfs-sptv-pipeline Sec. 6.1): plain arrays, fp32
// values and vector, 32-bit mode-n indices. Every kernel returns one fp32 value per fiber, in
// the format's own fiber order; the host lays out the fibers' coordinates. Private.
#pragma once

#include <cstdint>

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
    bool empty_rows = true;  // whether a row may be empty (HOCSR's); fibers never are
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

// HOCOO (Alg. 3): nonzeros sorted so that fibers are contiguous, fiber s = [starts[s],
// starts[s+1]); products in place, then a segmented reduction (CUB's).
struct SptvSegments {
    std::uint64_t nnz = 0, segments = 0;
    const std::uint64_t* starts = nullptr;  // segments + 1
    const std::uint32_t* col = nullptr;
    const float* val = nullptr;
};

// v has vlen entries; out has one entry per row / fiber / segment. Throws tscope::Error.
void sptv_rows(const SptvRows& x, const float* v, std::uint64_t vlen, float* out, Timing& timing);
void sptv_ell(const SptvEll& x, const float* v, std::uint64_t vlen, float* out, Timing& timing);
void sptv_segments(const SptvSegments& x, const float* v, std::uint64_t vlen, float* out, Timing& timing);

}  // namespace tscope::gpu
