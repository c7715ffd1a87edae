// JSON documents printed by --json. Keys are stable: README documents them.
#pragma once

#include <nlohmann/json.hpp>

#include "tscope/bench/machine.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"
#include "tscope/tensor/tensor_stats.hpp"

namespace tscope::cli {

using Json = nlohmann::ordered_json;

Json to_json(const CountDistribution& d);
Json to_json(const MachineInfo& m);
Json to_json(const PipelineChunk& c);
// The `info` document: shape, load report and per-mode statistics.
Json info_json(const CooTensor& t, const LoadInfo& load, const TensorStats& stats);

}  // namespace tscope::cli
