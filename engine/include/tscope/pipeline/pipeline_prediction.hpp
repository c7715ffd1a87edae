// The pipelined SpTV predicted for a tensor on a machine without a GPU (hocfs-sptv-pipeline
// Sec. 6.2): a recording's measured device figures (copy bandwidths, kernel time per stored
// entry), the loaded tensor cut into chunks exactly as pipeline_sptv would cut it, each
// chunk's stage times scaled from its bytes and entries, and the chunks laid out over s
// streams as the device runs them. The result is a PipelineRun like a measured one (its
// t_sync is the model's T_s, t_pipe the laid-out T_p, t_model the paper's T_p formula), so
// one view draws both; callers must label it as predicted.
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"

namespace tscope {

// What one device did per unit of work, as measured in a recording.
struct DeviceFigures {
    double h2d_bytes_per_s = 0;     // copy-in bandwidth (host -> GPU)
    double d2h_bytes_per_s = 0;     // copy-out bandwidth (GPU -> host)
    double kernel_s_per_entry = 0;  // SpTV kernel seconds per stored entry (nonzeros, ELL pads)
};

// The figures of a measured run: totals over its one-stream chunks, where every stage ran
// alone (its pipelined chunks when it has none). Throws InputError when the run carries no
// chunk sizes or no stage times to divide by.
DeviceFigures device_figures(const PipelineRun& run);

// The chunks pipeline_sptv cuts `format` (HOCFS-CSR, HOCFS-ELL or CFB) into at `chunk_bytes`:
// sizes only (slices, fibers, entries, bytes in and out), every time zero. InputError for
// another format.
std::vector<PipelineChunk> pipeline_chunk_plan(const SparseFormat& format, std::uint64_t chunk_bytes);

// Stage times from sizes (linear: latencies are not modelled), chunk i on stream i % streams;
// each stage waits for its chunk's previous stage, for the same stage of the chunk before (one
// copy engine per direction, one kernel at a time, Fig. 13) and, for the copy-in, for the
// previous chunk of its stream. sync_chunks: the same chunks on one stream. streams >= 1.
PipelineRun predict_pipeline(const std::vector<PipelineChunk>& plan, const DeviceFigures& device, int streams,
                             std::uint64_t chunk_bytes);

}  // namespace tscope
