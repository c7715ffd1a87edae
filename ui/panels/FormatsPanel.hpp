// The Formats tab: what every storage format costs for the loaded tensor, for every mode, as
// grouped bars (bytes or the papers' storage units, log scale) and as a table. The formats are
// built on a worker thread, with progress and cancel.
#pragma once

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/FormatTableModel.hpp"
#include "panels/Panel.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTableWidget;

namespace tsui {

class FormatsPanel : public Panel {
    Q_OBJECT

public:
    explicit FormatsPanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Formats"); }
    void setDataset(const DatasetPtr& dataset) override;
    bool isBusy() const override { return job_.isBusy(); }
    FormatTableModel* model() const { return model_; }
    // The per-array breakdown of the selected row (one row per array).
    QTableWidget* arrayTable() const { return arrays_; }
    void selectRow(int row);
    QCustomPlot* plot() const { return plot_; }

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
};

}  // namespace tsui
