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

// A run's derived figures from its timelines (chunks, sync_chunks, streams set): the Sec. 6.2
// model time, the overlap, and the copy and kernel time of the synchronous run. Shared by the
// live run and the prediction, so that both report the same quantities the same way.
void derive_run_figures(PipelineRun& run);

}  // namespace tscope::detail
