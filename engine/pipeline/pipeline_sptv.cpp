// Pipelined SpTV (hocfs-sptv-pipeline Sec. 6.2): flattens a HOCFS or CFB tensor into pinned
// memory (Fig. 11's partition step), cuts it into chunks of whole slices or fiber buckets,
// runs the chunks synchronously and over s streams, and merges the fiber results into the
// same layout as the one-shot SpTV's.
#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <memory>

#include "cpu/cpu_kernels.hpp"
#include "cuda/gpu_pipeline.hpp"
#include "kernels/sptv_flatten.hpp"
#include "pipeline/pipeline_chunking.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"

namespace tscope {

namespace {

using detail::Flattened;
using detail::Unit;

std::uint64_t bytes_in(bool ell, std::uint64_t rows, std::uint64_t entries, std::uint64_t units) {
    return detail::chunk_bytes_in(ell, rows, entries, units);
}

std::vector<gpu::ChunkRange> cut(const Flattened& f, std::uint64_t chunk_bytes) {
    return detail::cut_chunks(f.pinned->ell, f.units, chunk_bytes);
}

std::vector<PipelineChunk> to_chunks(const gpu::StreamRun& run, const std::vector<gpu::ChunkRange>& ranges, bool ell) {
    std::vector<PipelineChunk> out;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const gpu::ChunkRange& r = ranges[i];
        const gpu::ChunkTimes& t = run.chunks[i];
        PipelineChunk c;
        c.stream = t.stream;
        c.slices = r.slice_end - r.slice_begin;
        c.fibers = r.row_end - r.row_begin;
        c.entries = r.entry_end - r.entry_begin;
        c.bytes_in = bytes_in(ell, c.fibers, c.entries, c.slices);
        c.bytes_out = c.fibers * 4;
        c.in_start = t.in_start, c.in_end = t.in_end, c.kernel_start = t.kernel_start, c.kernel_end = t.kernel_end;
        c.out_start = t.out_start, c.out_end = t.out_end;
        out.push_back(c);
    }
    return out;
}

}  // namespace

std::vector<std::pair<int, std::uint64_t>> pipeline_sweep_settings() {
    std::vector<std::pair<int, std::uint64_t>> out;
    for (int s : {2, 3, 4, 5, 8})
        for (std::uint64_t mb : {16, 64, 256}) out.emplace_back(s, mb << 20);
    return out;
}

PipelineReport pipeline_sptv(const SparseFormat& format, int mode, const std::vector<double>& v, const PipelineOptions& options,
                             RunControl& control) {
    require_gpu();
    if (options.streams < 0 || options.streams > 8) throw InputError("--streams must be 1 to 8 (or auto)");
    for (auto d : format.dims())
        if (d >= std::numeric_limits<std::uint32_t>::max()) throw InputError("the CUDA SpTV needs every mode shorter than 2^32 - 1");
    PipelineReport report;
    report.format = format.name();
    report.mode = mode;
    report.result = sptv_layout(format, mode);  // also refuses a format built for another mode
    control.stage("flattening into pinned memory");
    const auto t0 = std::chrono::steady_clock::now();
    Flattened flat = detail::flatten_for_sptv(format);
    report.prepare_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    gpu::PinnedSptv& x = *flat.pinned;
    if (x.rows != report.result.nnz()) throw Error("the pipeline's fibers do not match SpTV's layout");
    report.nnz = x.entries, report.fibers = x.rows;
    report.bytes_in = bytes_in(x.ell, x.rows, x.entries, flat.units.size());
    report.one_shot_bytes = report.bytes_in + x.rows * 4 + v.size() * 4;
    const std::vector<float> vf(v.begin(), v.end());

    std::vector<std::pair<int, std::uint64_t>> settings;
    for (const auto& [s, b] : pipeline_sweep_settings()) {
        const int streams = options.streams ? options.streams : s;
        const std::uint64_t bytes = options.chunk_bytes ? options.chunk_bytes : b;
        if (std::find(settings.begin(), settings.end(), std::make_pair(streams, bytes)) == settings.end())
            settings.emplace_back(streams, bytes);
    }

    std::unique_ptr<GpuReservation> others;
    if (const std::uint64_t free_now = gpu_free_memory(); options.gpu_memory_limit && free_now > options.gpu_memory_limit)
        others = std::make_unique<GpuReservation>(free_now - options.gpu_memory_limit);
    report.gpu_free_bytes = gpu_free_memory();

    control.stage("streaming");
    std::map<std::uint64_t, gpu::StreamRun> sync_runs;  // one synchronous run per chunk size
    std::vector<float> best_values;
    for (std::size_t i = 0; i < settings.size(); ++i) {
        control.check();
        control.progress(i, settings.size());
        const auto [streams, chunk_bytes] = settings[i];
        const std::vector<gpu::ChunkRange> ranges = cut(flat, chunk_bytes);
        if (!sync_runs.count(chunk_bytes)) sync_runs.emplace(chunk_bytes, gpu::sptv_streamed(x, ranges, vf.data(), vf.size(), 1));
        const gpu::StreamRun piped = streams == 1 ? sync_runs.at(chunk_bytes) : gpu::sptv_streamed(x, ranges, vf.data(), vf.size(), streams);
        PipelineRun run;
        run.streams = streams;
        run.chunk_bytes = chunk_bytes;
        run.sync_chunks = to_chunks(sync_runs.at(chunk_bytes), ranges, x.ell);
        run.chunks = to_chunks(piped, ranges, x.ell);
        run.t_sync = sync_runs.at(chunk_bytes).total_s;
        run.t_pipe = piped.total_s;
        detail::derive_run_figures(run);
        run.vector_upload_s = piped.vector_upload_s;
        run.device_bytes = piped.device_bytes;
        if (report.runs.empty() || run.t_pipe < report.runs[report.best].t_pipe) {
            report.best = report.runs.size();
            best_values.assign(x.out, x.out + x.rows);
        }
        report.runs.push_back(std::move(run));
    }
    control.progress(settings.size(), settings.size());
    auto& dst = report.result.values<double>();
    for (std::uint64_t q = 0; q < x.rows; ++q) dst[q] = best_values[q];
    return report;
}

}  // namespace tscope
