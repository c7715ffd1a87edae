// The Formats tab: what every storage format costs for the loaded tensor, for every mode, as
// grouped bars (bytes or the papers' storage units on a log scale, or the ratio to COO on a
// linear one) and as a table. The formats are built in the background while the tab is
// visible, one at a time, the chart filling as each arrives; the building pauses while work
// the user started runs (a benchmark would otherwise share its cores). A second page, the
// Advisor, ranks the formats for a kernel from the statistics and measures them on request
// (AdvisorView).
#pragma once

#include <QPointF>

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/FormatTableModel.hpp"
#include "panels/AdvisorView.hpp"
#include "panels/Panel.hpp"

class QComboBox;
class QCustomPlot;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace tsui {

class FormatsPanel : public Panel {
    Q_OBJECT

public:
    explicit FormatsPanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Formats"); }
    void setDataset(const DatasetPtr& dataset) override;
    bool isBusy() const override { return job_.isBusy() || advisor_->isBusy(); }
    // The tab's own work: the Advisor page, measuring its formats once predicted (--run).
    bool runOwnWork() override;
    FormatTableModel* model() const { return model_; }
    // The per-array breakdown of the selected row (one row per array).
    QTableWidget* arrayTable() const { return arrays_; }
    void selectRow(int row);
    QCustomPlot* plot() const { return plot_; }
    // The Advisor page (its ranking, reasons and predicted-against-measured plot).
    AdvisorView* advisor() const { return advisor_; }
    QTabWidget* pages() const { return tabs_; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* buildStoragePage(QWidget* parent);
    QHBoxLayout* buildTopRow();
    QCustomPlot* buildPlot(QWidget* parent);
    QTableView* buildTable(QWidget* parent);
    QWidget* buildArrays(QWidget* parent);
    void connectControls();
    void start();
    void startPredicted();
    // The survey ended: false when it was for an older dataset and the current one's started.
    bool settle();
    // The rows so far (complete: the whole survey).
    void showRows(SurveyPtr rows, bool complete);
    void replot();
    void markFormatsWithoutBars(const std::vector<tscope::FormatKind>& kinds);
    void showArrays(int surveyRow);
    double barValue(const tscope::FormatRow& row) const;
    std::uint64_t cooBytes() const;  // COO's bytes in memory (a streamed tensor's: what loading it takes)
    QString describeBar(QPointF pixel) const;

    DatasetPtr dataset_;
    DatasetPtr runningFor_;  // the dataset the running (or last) survey is for
    SurveyPtr survey_;
    bool surveyed_ = false;  // the current dataset's survey is complete
    EngineJob job_;
    QComboBox* measure_;
    QLabel* status_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QCustomPlot* plot_;
    FormatTableModel* model_;
    QTableView* table_;
    QTableWidget* arrays_;
    QLabel* arraysTitle_;
    QTabWidget* tabs_;
    AdvisorView* advisor_;
};

}  // namespace tsui
