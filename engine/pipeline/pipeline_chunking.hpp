// How the pipelined SpTV cuts a flattened tensor into chunks (hocfs-sptv-pipeline Sec. 6.2,
// Fig. 11's partition step): whole units (slices, ELL blocks, fiber buckets) until the next
// would pass the chunk's byte budget. One cut, shared by the GPU run and by the prediction,
// so that a predicted timeline has exactly the chunks a live run would have. Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/gpu_pipeline.hpp"
#include "kernels/sptv_flatten.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"

namespace tscope::detail {

// What a chunk of rows/entries/units copies in.
std::uint64_t chunk_bytes_in(bool ell, std::uint64_t rows, std::uint64_t entries, std::uint64_t units);

// Greedy: whole units until the next would pass `chunk_bytes` (a larger unit is a chunk alone).
std::vector<gpu::ChunkRange> cut_chunks(bool ell, const std::vector<Unit>& units, std::uint64_t chunk_bytes);

// One stage's time summed over the chunks (e.g. &PipelineChunk::in_start, &PipelineChunk::in_end).
inline double stage_seconds(const std::vector<PipelineChunk>& chunks, double PipelineChunk::*start, double PipelineChunk::*end) {
    double s = 0;
    for (const PipelineChunk& c : chunks) s += c.*end - c.*start;
    return s;
}

}  // namespace tscope::detail
