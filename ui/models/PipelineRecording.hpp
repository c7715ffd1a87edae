// A pipelined SpTV run as the Pipeline tab shows it: read from the JSON that
// `tensorscope-cli pipeline --json` writes (the bundled recordings are such files), or taken
// from a live run on this machine's GPU.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "tscope/pipeline/pipeline_sptv.hpp"

namespace tsui {

struct PipelineRecording {
    QString title;     // for the source list
    QString device;    // the GPU it ran on
    QString tensor;    // how the tensor was made, or its file
    QString commit;
    QString format;
    std::uint64_t nnz = 0, bytesIn = 0;
    std::vector<tscope::PipelineRun> runs;
    std::size_t best = 0;
};

// Parses the CLI's pipeline JSON; std::nullopt with *error saying what is wrong otherwise.
std::optional<PipelineRecording> parseRecording(const QByteArray& json, QString* error);
std::optional<PipelineRecording> readRecording(const QString& path, QString* error);
PipelineRecording fromReport(const tscope::PipelineReport& report, const QString& device, const QString& tensor);
// The recordings bundled in the application's resources, each titled.
std::vector<PipelineRecording> bundledRecordings();

}  // namespace tsui
