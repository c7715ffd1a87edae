// The Kernels tab's table: one row per benchmark result (kernel x format x backend x mode).
// Qt::UserRole gives raw numbers for sorting and CSV.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "tscope/bench/kernel_bench.hpp"

namespace tsui {

class KernelResultsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // The CSV's column order; the Kernels tab shows them in its own (see KernelsPanel).
    enum Column { Kernel, Format, Backend, Mode, Rank, Median, Transfer, Gflops, Gbps, Error, Note, ColumnCount };

    explicit KernelResultsModel(QObject* parent = nullptr);
    void setResults(std::vector<tscope::BenchResult> results);
    // One more row (a result as it arrives from a running benchmark).
    void addResult(tscope::BenchResult result);
    const std::vector<tscope::BenchResult>& results() const { return results_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<tscope::BenchResult> results_;
};

}  // namespace tsui
