// The Decompositions tab: CPD-ALS, Tucker-HOOI or FasterTucker on the loaded tensor, run in the
// background; convergence curves grow as each iteration reports (fit, or train/test RMSE and
// MAE), against iteration or time; several runs stay overlaid for comparison; cancel stops a
// run between iterations.
#pragma once

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/DecompRunsModel.hpp"
#include "panels/Panel.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace tsui {

class DecompositionPanel : public Panel {
    Q_OBJECT

public:
    explicit DecompositionPanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Decompositions"); }
    void setDataset(const DatasetPtr& dataset) override;
    bool isBusy() const override { return job_.isBusy(); }
    bool runOwnWork() override;
    void run();
    void cancel();
    void configure(tscope::DecompMethod method, int rank, int iterations);
    DecompRunsModel* model() const { return model_; }
    QCustomPlot* fitPlot() const { return fitPlot_; }
    QCustomPlot* errorPlot() const { return errorPlot_; }

private:
    void onIteration(int run, const tscope::IterationReport& report);
    // The running run ended: outcome is "converged", "done", "cancelled", or "failed: ...".
    void settle(const QString& outcome);
    void replot();
    void methodChanged();
    void fillCpdFormats();

    DatasetPtr dataset_;
    EngineJob job_;
    int running_ = -1;
    QComboBox* method_;
    QSpinBox* rank_;
    QSpinBox* iters_;
    QComboBox* backend_;
    QComboBox* format_;
    QComboBox* xAxis_;
    QComboBox* errorMetric_;
    QDoubleSpinBox* lrA_;
    QCheckBox* ordered_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* clear_;
    QLabel* status_;
    QCustomPlot* fitPlot_;
    QCustomPlot* errorPlot_;
    DecompRunsModel* model_;
    QTableView* table_;
};

}  // namespace tsui
