// The Decompositions tab's runs: every iteration of every run, one row each, growing as the
// reports arrive. Qt::UserRole gives raw numbers (NaN shows as a dash).
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "tscope/decomp/decomposition.hpp"

namespace tsui {

// What a CPD run spent once, before its first iteration, and the memory it peaked at.
struct CpdSetup {
    double readSeconds = 0;    // loading the dataset (0 for a generated one)
    double buildSeconds = 0;   // the MTTKRP formats
    double uploadSeconds = 0;  // cuda: the tensor to the GPU
    bool builtOnDevice = false;
    std::uint64_t peakDeviceBytes = 0;
    int bestStart = 0;         // with restarts: the start kept (0-based)
};

struct DecompRun {
    int id = 0;
    QString label;   // "#1 CPD-ALS r16 CSF/omp", and " · TENSOR" once another tensor is open
    QString tensor;  // the title of the tensor it ran on
    tscope::DecompMethod method = tscope::DecompMethod::Cpd;
    int rank = 0;
    QString rankText;  // an opened Tucker run's core sizes where they differ by mode ("4,4,2"); else ""
    QString format;   // CPD: MTTKRP's format
    QString backend;  // "omp", "cuda"
    QColor colour;
    std::vector<tscope::IterationReport> iterations;
    QString outcome;  // "converged", "cancelled", "failed: ...", "" while running
    std::optional<CpdSetup> setup;  // CPD, once the run has ended with a result
    // FasterTucker: the test RMSE of always predicting the training mean (NaN: not known, or no
    // test set), the line its errors have to get under (sweep 70c C13: on JF17K, every value 1,
    // it is 0, and a falling curve ending at 0.17 hid a model worse than a constant)
    double baselineTestRmse = std::numeric_limits<double>::quiet_NaN();
};

class DecompRunsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Run, Iter, Seconds, Fit, TrainRmse, TestRmse, TrainMae, TestMae, ColumnCount };

    explicit DecompRunsModel(QObject* parent = nullptr);
    int addRun(DecompRun run);  // returns its index
    void addIteration(int run, const tscope::IterationReport& report);
    void setOutcome(int run, const QString& outcome);
    void setSetup(int run, const CpdSetup& setup);
    void setBaseline(int run, double testRmse);
    // Another tensor is open: runs of any other take their tensor's title into their label for
    // good, so that runs on two tensors overlaid never read alike (sweep 65b). True where a label
    // changed.
    bool nameOtherTensors(const QString& current);
    void clear();
    const std::vector<DecompRun>& runs() const { return runs_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<DecompRun> runs_;
    std::vector<std::pair<int, int>> rows_;  // (run, iteration) per table row
};

}  // namespace tsui
