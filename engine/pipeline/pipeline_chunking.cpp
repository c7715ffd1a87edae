#include "pipeline/pipeline_chunking.hpp"

namespace tscope::detail {

std::uint64_t chunk_bytes_in(bool ell, std::uint64_t rows, std::uint64_t entries, std::uint64_t units) {
    return entries * 8 + (ell ? rows * 4 + 16 * (units + 1) : 8 * (rows + 1));
}

std::vector<gpu::ChunkRange> cut_chunks(bool ell, const std::vector<Unit>& units, std::uint64_t chunk_bytes) {
    std::vector<gpu::ChunkRange> chunks;
    gpu::ChunkRange c;
    std::uint64_t u0 = 0;
    for (std::uint64_t u = 0; u < units.size(); ++u) {
        const Unit& unit = units[u];
        const bool empty = u == u0;
        if (!empty && chunk_bytes_in(ell, unit.row_end - c.row_begin, unit.entry_end - c.entry_begin, u + 1 - u0) > chunk_bytes) {
            chunks.push_back(c);
            c = {c.row_end, c.row_end, u, u, c.entry_end, c.entry_end};
            u0 = u;
        }
        c.row_end = unit.row_end, c.entry_end = unit.entry_end, c.slice_end = u + 1;
    }
    if (c.slice_end > c.slice_begin) chunks.push_back(c);
    return chunks;
}

namespace {

double stage_seconds(const std::vector<PipelineChunk>& chunks, double PipelineChunk::*start, double PipelineChunk::*end) {
    double s = 0;
    for (const PipelineChunk& c : chunks) s += c.*end - c.*start;
    return s;
}

}  // namespace

void derive_run_figures(PipelineRun& run) {
    // with one stream nothing can overlap: the model is the synchronous sum
    run.t_model = run.streams == 1 ? pipeline_sync_time(run.sync_chunks) : pipeline_model_time(run.sync_chunks);
    run.overlap = pipeline_overlap(run.chunks);
    run.overlap_of_possible = pipeline_overlap_of_possible(run.chunks);
    run.transfer_s = stage_seconds(run.sync_chunks, &PipelineChunk::in_start, &PipelineChunk::in_end) +
                     stage_seconds(run.sync_chunks, &PipelineChunk::out_start, &PipelineChunk::out_end);
    run.kernel_s = stage_seconds(run.sync_chunks, &PipelineChunk::kernel_start, &PipelineChunk::kernel_end);
}

}  // namespace tscope::detail
