// The Formats tab: what every storage format costs for the loaded tensor, for every mode, as
// grouped bars (bytes or the papers' storage units, log scale) and as a table. The formats are
// built on a worker thread, with progress and cancel. A second page, the Advisor, ranks the
// formats for a kernel from the statistics and measures them on request (AdvisorView).
#pragma once

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/FormatTableModel.hpp"
#include "panels/AdvisorView.hpp"
#include "panels/Panel.hpp"

class QComboBox;
class QCustomPlot;
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

private:
    void start();
    // The survey ended: false when it was for an older dataset and the current one's started.
    bool settle();
    void showSurvey(SurveyPtr rows);
    void replot();
    void showArrays(int surveyRow);

    DatasetPtr dataset_;
    DatasetPtr runningFor_;  // the dataset the running (or last) survey is for
    SurveyPtr survey_;
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
