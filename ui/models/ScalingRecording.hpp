// Multi-GPU scaling as the Kernels tab's scaling plot shows it: read from the JSON that
// `tensorscope-cli bench --kernel mttkrp --backend cuda --gpus N --json` writes (one document,
// a docs/bench record holding such rows, or a JSON array of documents, e.g. one per GPU count).
// A line is one format on one device and tensor; its points are MTTKRP sweeps (median_s, the
// kernels plus the collectives, summed over the modes) against the GPU count.
#pragma once

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace tsui {

// One bench row with "gpus": a mode's MTTKRP over that many GPU parts.
struct ScalingRow {
    QString device;  // the GPU's name, without the row's "2 x " prefix (or the record's device)
    QString tensor;  // the tensor's file name, and its nonzeros where given
    QString format;
    int gpus = 0;
    int mode = 0;        // 1-based, as in the JSON
    double seconds = 0;  // median_s: kernels + collectives
    double kernelSeconds = 0, collectiveSeconds = 0;
    bool sharedGpu = false;  // the parts shared one GPU ("2 parts on one ..."): no real scaling
};

struct ScalingRecording {
    QString title;  // for the plot's source list
    QString device, tensor, commit, command;
    std::vector<ScalingRow> rows;
};

struct ScalingPoint {
    int gpus = 0;
    double seconds = 0;  // one sweep: the median_s of every mode, summed
    double kernelSeconds = 0, collectiveSeconds = 0;
    int modes = 0;
};

struct ScalingLine {
    QString format, device, tensor;
    bool sharedGpu = false;
    std::vector<ScalingPoint> points;  // by GPU count, ascending
    // True when the points summed different numbers of modes (their sweeps do not compare).
    bool modesDiffer() const;
};

// Parses the CLI's bench JSON; std::nullopt with *error naming the document, row and key at
// fault otherwise. Never throws.
std::optional<ScalingRecording> parseScalingRecording(const QByteArray& json, QString* error);
std::optional<ScalingRecording> readScalingRecording(const QString& path, QString* error);
// The rows grouped by (device, tensor, format), their modes summed per GPU count. Where two
// rows give the same (device, tensor, format, GPU count, mode), the later one counts.
std::vector<ScalingLine> scalingLines(const std::vector<ScalingRecording>& recordings);
// The files named *-scaling-*.json under resources/recordings/scaling, as bundled in the
// application's resources; *errors lists those that did not parse.
std::vector<ScalingRecording> bundledScalingRecordings(QStringList* errors = nullptr);

}  // namespace tsui
