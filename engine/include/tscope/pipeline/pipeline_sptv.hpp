// Pipelined SpTV over CUDA streams (hocfs-sptv-pipeline Sec. 6.2, Fig. 11-13). A HOCFS tensor
// is cut into chunks of slices (CFB: of fiber buckets); each chunk is copied in, multiplied
// and copied out on one of s streams, so that one chunk's copies overlap another's kernel.
// The run returns the result (equal to the one-shot SpTV), the timeline of every chunk's three
// stages, T_s (the same chunks on one stream), T_p (pipelined), the paper's T_p predicted from
// the measured stage times, and the share of the transfer time hidden under kernels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

struct PipelineOptions {
    int streams = 4;                          // 1..8; 0: sweep (auto)
    std::uint64_t chunk_bytes = 64ull << 20;  // input bytes per chunk; 0: sweep (auto)
    std::uint64_t gpu_memory_limit = 0;       // > 0: hold the rest of the free memory during the run,
                                              // as other users of a shared GPU would (0: no limit)
};

// One chunk's stages, in seconds from the run's start (CUDA events).
struct PipelineChunk {
    int stream = 0;
    std::uint64_t slices = 0, fibers = 0, entries = 0, bytes_in = 0, bytes_out = 0;
    double in_start = 0, in_end = 0, kernel_start = 0, kernel_end = 0, out_start = 0, out_end = 0;
};

struct PipelineRun {
    int streams = 0;
    std::uint64_t chunk_bytes = 0;
    std::vector<PipelineChunk> chunks;       // the pipelined timeline
    std::vector<PipelineChunk> sync_chunks;  // the same chunks on one stream
    double t_sync = 0, t_pipe = 0, t_model = 0;
    double overlap = 0;        // share of the transfer time hidden under kernels
    double overlap_of_possible = 0;  // hidden copy time / min(copy time, kernel time)
    double transfer_s = 0, kernel_s = 0;  // sums of the synchronous stage times
    double vector_upload_s = 0;
    std::uint64_t device_bytes = 0;       // device memory this run allocated
};

struct PipelineReport {
    std::string format;            // "HOCFS-CSR", "HOCFS-ELL" or "CFB"
    int mode = 0;                  // contracted mode, 0-based
    std::uint64_t nnz = 0, fibers = 0, bytes_in = 0;  // bytes_in: everything the chunks copy in
    std::uint64_t gpu_free_bytes = 0;   // free device memory when the runs started (under any limit)
    std::uint64_t one_shot_bytes = 0;   // what the non-pipelined kernel would allocate
    double prepare_s = 0;               // flattening into pinned memory
    std::vector<PipelineRun> runs;      // one per setting tried
    std::size_t best = 0;               // the run with the lowest T_p
    CooTensor result;                   // SpTV's result, from the best run (fp32 on the device)
};

// Runs SpTV of `format` (HOCFS-CSR, HOCFS-ELL or CFB, built for `mode` with sptv_options)
// pipelined. Throws InputError for another format, Error("no CUDA device ...") without a GPU.
PipelineReport pipeline_sptv(const SparseFormat& format, int mode, const std::vector<double>& v,
                             const PipelineOptions& options, RunControl& control = no_control());

// The settings `auto` tries (streams x chunk bytes).
std::vector<std::pair<int, std::uint64_t>> pipeline_sweep_settings();

// --- the time model and the timeline's measures (pure; tested without a GPU) ---

// T_s = sum of every chunk's three stage times (Sec. 6.2).
double pipeline_sync_time(const std::vector<PipelineChunk>& stages);
// The paper's T_p for k chunks from per-chunk stage times dt1 (in), dt2 (kernel), dt3 (out):
// dt1_1 + max{dt1_2, dt2_1} + sum_{i=1}^{k-2} max{dt1_{i+2}, dt2_{i+1}, dt3_i}
//       + max{dt3_{k-1}, dt2_k} + dt3_k   (k = 1: the three stages in a row).
// The printed equation reads "max{Δt_2, Δt_2}" for its second term; the paragraph before it
// and Fig. 13 give max{Δt_{1,2}, Δt_{2,1}}, which this follows.
double pipeline_model_time(const std::vector<PipelineChunk>& stages);
// The share of the copy time (in and out) during which some kernel runs: the measured
// timeline's intervals, not the model.
double pipeline_overlap(const std::vector<PipelineChunk>& timeline);
// The same as a share of what could be hidden at most: copy time under kernels divided by
// the smaller of the total copy time and the total kernel time. SpTV moves 8 bytes per 2
// flops, so on a fast GPU the kernels are far shorter than the copies and bound the overlap.
double pipeline_overlap_of_possible(const std::vector<PipelineChunk>& timeline);

}  // namespace tscope
