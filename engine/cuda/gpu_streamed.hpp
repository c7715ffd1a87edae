// A tensor that stays in host memory and goes through the GPU a chunk at a time for every
// MTTKRP: CPD on tensors larger than the device (or than --limit-gpu-memory). The arrays are
// the caller's, in the kernels' layout (gpu_mttkrp.hpp's Fibers or Coo); they are page-locked
// for the object's life so that the copies run asynchronously, and each MTTKRP runs the shared
// chunk pipeline (chunk_pipeline.cuh) over k streams: copy-in of the next chunk under the
// kernel of this one. Private to the engine; no CUDA types here.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpu_mttkrp.hpp"
#include "gpu_pipeline.hpp"

namespace tscope::gpu {

// One chunk: consecutive fibers [first, last) of part `part` (COO, BLCO: nonzeros [first, last)).
struct StreamChunk {
    std::size_t part = 0;
    std::uint64_t first = 0, last = 0;
    std::uint64_t nz_first = 0, nz_last = 0;
    std::uint64_t bytes = 0;
};

class StreamedTensor {
public:
    // The fiber layout of one or more trees (host arrays, kept alive by the caller).
    StreamedTensor(const std::vector<Fibers>& parts, std::uint64_t chunk_bytes, int streams);  // throws Error
    // A COO (host arrays), order = coo.idx.size().
    StreamedTensor(const Coo& coo, std::uint64_t chunk_bytes, int streams);
    // A BLCO (host arrays; nnz keys and fp32 values): its block table goes to the device once,
    // the keys and values are streamed (Nguyen et al., ICS 2022, Sec. 5: the out-of-memory
    // MTTKRP, chunks of nonzeros over several streams under the kernels).
    StreamedTensor(const Blco& blco, std::uint64_t chunk_bytes, int streams);
    ~StreamedTensor();
    StreamedTensor(const StreamedTensor&) = delete;
    StreamedTensor& operator=(const StreamedTensor&) = delete;

    // Runs the MTTKRP of `mode` chunk by chunk into out_f (fibers, BLCO: fp32) or out_d (COO, fp64),
    // device arrays the caller zeroed; factors are device arrays. `part` >= 0 streams that part
    // alone (per-mode trees share one set of streams and buffers), -1 every part. Returns the
    // timeline of the chunks it ran.
    StreamRun mttkrp(int mode, std::uint64_t R, const float* const* factors, float* out_f, double* out_d, int part = -1);
    // Copies every chunk in, as mttkrp() does, with no kernels: this machine's host-to-device
    // rate for these chunks (bytes per second), the copy lower bound's denominator.
    double copy_rate();
    bool accumulates_in_double() const { return kind_ == Kind::Coo; }
    std::uint64_t bytes() const { return bytes_; }            // every part's chunks
    std::uint64_t device_bytes() const;                       // the streams' buffers, the hot rows' after a run
    const std::vector<StreamChunk>& chunks() const { return chunks_; }
    // The chunks mttkrp(..., part) runs, in its timeline's order (part -1: all).
    std::vector<const StreamChunk*> chunks_of(int part) const;
    int streams() const { return streams_; }
    bool pinned() const { return pinned_; }                   // false: the host refused to page-lock

    struct Impl;

private:
    enum class Kind { Fibers, Coo, Blco };
    Kind kind_ = Kind::Fibers;
    int streams_ = 1;
    bool pinned_ = true;
    std::uint64_t bytes_ = 0;
    std::vector<StreamChunk> chunks_;
    std::unique_ptr<Impl> impl_;
    // Cuts nnz nonzeros of per_nz bytes each into chunks of about chunk_bytes (COO, BLCO);
    // returns the largest chunk's nonzeros.
    std::uint64_t cut_nonzeros(std::uint64_t nnz, std::uint64_t per_nz, std::uint64_t chunk_bytes);
};

}  // namespace tscope::gpu
