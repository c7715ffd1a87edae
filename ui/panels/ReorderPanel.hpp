// The Reorder tab (issue 25): the loaded tensor in its file order and relabelled by a method
// (Lexi-Order, BFS-MCS, degree, random) side by side: the density maps of a mode pair, the
// storage of the formats (bytes and the papers' units, HiCOO's blocks, HLS's dense tiles), and
// MTTKRP sweeps on the formats the user ticks as paired bars. The work runs in the background
// with progress and cancel; the loaded tensor itself is never relabelled.
#pragma once

#include <memory>
#include <vector>

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "panels/Panel.hpp"
#include "tscope/reorder/reorder_comparison.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace tsui {

class ReorderPanel : public Panel {
    Q_OBJECT

public:
    explicit ReorderPanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Reorder"); }
    void setDataset(const DatasetPtr& dataset) override;
    bool isBusy() const override { return job_.isBusy(); }
    bool runOwnWork() override;
    void compare();
    void cancel();
    void setMethod(tscope::ReorderMethod method);
    QCustomPlot* beforeMap() const { return before_; }
    QCustomPlot* afterMap() const { return after_; }
    QCustomPlot* mttkrpPlot() const { return bars_; }
    QTableWidget* storageTable() const { return table_; }
    QLabel* status() const { return status_; }
    // The last comparison shown (nullptr before the first).
    const tscope::ReorderComparison* comparison() const { return shown_.get(); }

private:
    static QString oneModeReason();  // why an order-1 tensor has nothing to compare
    void fillPairs();
    void show(std::shared_ptr<tscope::ReorderComparison> c, tscope::ReorderCompareRequest request, const DatasetPtr& of);
    // Empty plots and table, each plot saying what to do instead of showing bare axes.
    void clearComparison();
    void fillTable(const tscope::ReorderComparison& c);
    void drawBars(const tscope::ReorderComparison& c, const QString& method);

    // A comparison superseded by another tensor's open ends silently: its progress and its end
    // overwrote the new tensor's Ready (sweep 65b).
    DatasetPtr dataset_;
    bool canCompare() const { return dataset_ && dataset_->tensor.order() >= 2 && !job_.isBusy(); }
    EngineJob job_;
    std::shared_ptr<tscope::ReorderComparison> shown_;
    QComboBox* method_;
    QComboBox* pair_;
    std::vector<std::pair<tscope::FormatKind, QCheckBox*>> mttkrpFormats_;
    QPushButton* run_;
    QPushButton* cancel_;
    QLabel* status_;
    QCustomPlot* before_;
    QCustomPlot* after_;
    QCustomPlot* bars_;
    QTableWidget* table_;
};

}  // namespace tsui
