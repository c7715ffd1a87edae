// A decomposition run read back from `tensorscope-cli decompose ... --json`: its iterations (the
// convergence curves) and, for a distributed run (`--distributed` under mpirun), each rank's
// nonzeros, communication volume and time. Cluster jobs are not launched from a desktop window:
// their JSON is opened in the Decompositions tab instead.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "models/DecompRunsModel.hpp"

namespace tsui {

struct RankShare {
    double nnz = 0;
    double rowsSent = 0, rowsReceived = 0;  // factor rows per iteration
    double commSeconds = 0, computeSeconds = 0;
};

struct DecompRunFile {
    DecompRun run;               // label, method, rank, format, backend, iterations, outcome
    QString file;                // the tensor the run factored
    int ranks = 1;               // MPI ranks (1: a single-process run)
    QString grid;                // "2x2x1" for a distributed run
    std::vector<RankShare> perRank;
};

// The run in `json`, or std::nullopt with *error saying what is missing or wrong.
std::optional<DecompRunFile> parseDecompRun(const QByteArray& json, QString* error);
// The same from a file; errors start with its path.
std::optional<DecompRunFile> readDecompRunFile(const QString& path, QString* error);

}  // namespace tsui
