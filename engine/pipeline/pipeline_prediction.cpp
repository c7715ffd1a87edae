// The predicted pipeline (hocfs-sptv-pipeline Sec. 6.2): measured per-unit device costs times
// the loaded tensor's chunk sizes, laid out the way gpu::sptv_streamed issues its stages.
#include "tscope/pipeline/pipeline_prediction.hpp"

#include <algorithm>

#include "kernels/sptv_flatten.hpp"
#include "pipeline/pipeline_chunking.hpp"
#include "tscope/error.hpp"

namespace tscope {

namespace {

struct Totals {
    double bytes_in = 0, bytes_out = 0, entries = 0, in_s = 0, out_s = 0, kernel_s = 0;
};

Totals totals_of(const std::vector<PipelineChunk>& chunks) {
    Totals t;
    for (const PipelineChunk& c : chunks) {
        t.bytes_in += static_cast<double>(c.bytes_in);
        t.bytes_out += static_cast<double>(c.bytes_out);
        t.entries += static_cast<double>(c.entries);
        t.in_s += c.in_end - c.in_start;
        t.out_s += c.out_end - c.out_start;
        t.kernel_s += c.kernel_end - c.kernel_start;
    }
    return t;
}

// Starts each stage when everything it waits for has ended (see the header) and returns the end.
double lay_out(std::vector<PipelineChunk>& chunks, int streams) {
    double end = 0;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        PipelineChunk& c = chunks[i];
        const double in = c.in_end, kernel = c.kernel_end, out = c.out_end;  // durations, on entry
        c.stream = static_cast<int>(i % static_cast<std::size_t>(streams));
        c.in_start = i > 0 ? chunks[i - 1].in_end : 0;
        if (i >= static_cast<std::size_t>(streams)) c.in_start = std::max(c.in_start, chunks[i - static_cast<std::size_t>(streams)].out_end);
        c.in_end = c.in_start + in;
        c.kernel_start = std::max(c.in_end, i > 0 ? chunks[i - 1].kernel_end : 0);
        c.kernel_end = c.kernel_start + kernel;
        c.out_start = std::max(c.kernel_end, i > 0 ? chunks[i - 1].out_end : 0);
        c.out_end = c.out_start + out;
        end = std::max(end, c.out_end);
    }
    return end;
}

}  // namespace

DeviceFigures device_figures(const PipelineRun& run) {
    const Totals t = totals_of(run.sync_chunks.empty() ? run.chunks : run.sync_chunks);
    if (t.bytes_in <= 0 || t.entries <= 0 || t.in_s <= 0 || t.kernel_s <= 0)
        throw InputError("the recording carries no chunk sizes or stage times to derive device figures from");
    DeviceFigures d;
    d.h2d_bytes_per_s = t.bytes_in / t.in_s;
    // a recording without copy-outs (sizes or times) is taken to copy out as fast as in
    d.d2h_bytes_per_s = t.bytes_out > 0 && t.out_s > 0 ? t.bytes_out / t.out_s : d.h2d_bytes_per_s;
    d.kernel_s_per_entry = t.kernel_s / t.entries;
    return d;
}

std::vector<PipelineChunk> pipeline_chunk_plan(const SparseFormat& format, std::uint64_t chunk_bytes) {
    const detail::SptvUnits u = detail::sptv_units(format);
    std::vector<PipelineChunk> plan;
    for (const gpu::ChunkRange& r : detail::cut_chunks(u.ell, u.units, chunk_bytes)) {
        PipelineChunk c;  // the same sizes pipeline_sptv reports for a measured chunk
        c.slices = r.slice_end - r.slice_begin;
        c.fibers = r.row_end - r.row_begin;
        c.entries = r.entry_end - r.entry_begin;
        c.bytes_in = detail::chunk_bytes_in(u.ell, c.fibers, c.entries, c.slices);
        c.bytes_out = c.fibers * 4;
        plan.push_back(c);
    }
    return plan;
}

PipelineRun predict_pipeline(const std::vector<PipelineChunk>& plan, const DeviceFigures& device, int streams,
                             std::uint64_t chunk_bytes) {
    if (streams < 1) throw InputError("a pipeline needs at least one stream");
    std::vector<PipelineChunk> timed = plan;
    for (PipelineChunk& c : timed) {  // durations, parked in the end fields until lay_out
        c.in_end = static_cast<double>(c.bytes_in) / device.h2d_bytes_per_s;
        c.kernel_end = static_cast<double>(c.entries) * device.kernel_s_per_entry;
        c.out_end = static_cast<double>(c.bytes_out) / device.d2h_bytes_per_s;
    }
    PipelineRun run;
    run.streams = streams;
    run.chunk_bytes = chunk_bytes;
    run.sync_chunks = timed;
    run.chunks = std::move(timed);
    run.t_sync = lay_out(run.sync_chunks, 1);  // Sec. 6.2's T_s: every stage in a row
    run.t_pipe = lay_out(run.chunks, streams);
    detail::derive_run_figures(run);
    return run;
}

}  // namespace tscope
