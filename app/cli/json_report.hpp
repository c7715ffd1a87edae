// JSON documents printed by --json. Keys are stable: README documents them.
#pragma once

#include <nlohmann/json.hpp>

#include "tscope/bench/machine.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"
#include "tscope/tensor/tensor_stats.hpp"

namespace tscope::cli {

using Json = nlohmann::ordered_json;

// Every document is printed with this: a file name's bytes need not be UTF-8 on Linux, and such
// bytes print as U+FFFD, where the dump threw after the whole run (sweep 70b B2).
constexpr auto kBadUtf8 = Json::error_handler_t::replace;

Json to_json(const CountDistribution& d);
Json to_json(const MachineInfo& m);
Json to_json(const PipelineChunk& c);
// The `info` document: shape, load report and per-mode statistics.
Json info_json(const CooTensor& t, const LoadInfo& load, const TensorStats& stats);

}  // namespace tscope::cli
