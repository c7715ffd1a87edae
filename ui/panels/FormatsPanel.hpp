// The Formats tab: what every storage format costs for the loaded tensor, for every mode, as
// grouped bars (bytes or the papers' storage units, log scale) and as a table. The formats are
// built on a worker thread, with progress and cancel.
#pragma once

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "models/Dataset.hpp"
#include "models/FormatTableModel.hpp"
#include "tscope/run_control.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTableWidget;

namespace tsui {

class FormatsPanel : public QWidget {
    Q_OBJECT

public:
    explicit FormatsPanel(QWidget* parent = nullptr);
    ~FormatsPanel() override;
    void setDataset(const DatasetPtr& dataset);
    bool isBusy() const { return watcher_.isRunning(); }
    FormatTableModel* model() const { return model_; }
    // The per-array breakdown of the selected row (one row per array).
    QTableWidget* arrayTable() const { return arrays_; }
    void selectRow(int row);
    QCustomPlot* plot() const { return plot_; }

Q_SIGNALS:
    void idle();

private:
    struct Outcome {
        SurveyPtr rows;
        QString error;
    };
    void start();
    void onDone();
    void replot();
    void showArrays(int surveyRow);

    DatasetPtr dataset_;
    DatasetPtr runningFor_;  // the dataset the running (or last) survey is for
    SurveyPtr survey_;
    std::shared_ptr<tscope::AtomicRunControl> control_;
    QFutureWatcher<Outcome> watcher_;
    QTimer poll_;
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
