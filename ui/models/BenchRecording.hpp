// Benchmark rows recorded on another machine, for the Kernels tab: read from what
// `tensorscope-cli bench --json` writes (one document with "results"), what `--jsonl` writes (a
// row a line, the summary last), or a docs/bench record holding such a document. A machine
// without a GPU can so show the table and the roofline of a GPU run, roofs included (the rows
// carry the bandwidth, peak and gather rate measured where they ran).
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "tscope/bench/kernel_bench.hpp"

namespace tsui {

struct BenchRecording {
    QString title;  // the file's name, "Recorded: " prefixed where bundled
    QString device, tensor, commit, command;
    QString note;  // what the reader should know: a --jsonl whose last line was cut short
    std::vector<tscope::BenchResult> rows;
};

// std::nullopt with *error naming the line or row and the key at fault; never throws.
std::optional<BenchRecording> parseBenchRecording(const QByteArray& json, QString* error);
std::optional<BenchRecording> readBenchRecording(const QString& path, QString* error);
// The files named *-bench-*.json under resources/recordings/bench (at :/recordings/bench).
std::vector<BenchRecording> bundledBenchRecordings(QStringList* errors = nullptr);

}  // namespace tsui
