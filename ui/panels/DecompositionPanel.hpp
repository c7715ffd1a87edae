// The Decompositions tab: CPD-ALS, Tucker-HOOI or FasterTucker on the loaded tensor, run in the
// background; convergence curves grow as each iteration reports (fit, or train/test RMSE and
// MAE), against iteration or time; several runs stay overlaid for comparison; cancel stops a
// run between iterations. A third plot splits each CPD run's time: its setup (read, build,
// upload) and its mean iteration (MTTKRP, dense steps, fit, the rest).
#pragma once

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/DecompRunsModel.hpp"
#include "panels/Panel.hpp"

class QCheckBox;
class QComboBox;
class QCPAxisRect;
class QCPBars;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QStackedWidget;
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
    // Where each CPD run's time went; hidden behind splitHint() until a CPD run exists.
    QCustomPlot* splitPlot() const { return splitPlot_; }
    QLabel* splitHint() const { return splitHint_; }

private:
    void onIteration(int run, const tscope::IterationReport& report);
    // The running run ended: outcome is "converged", "done", "cancelled", or "failed: ...".
    void settle(const QString& outcome);
    void replot();
    void replotSplit();
    void buildSplitPlot(QWidget* parent);
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
    QStackedWidget* splitStack_;
    QLabel* splitHint_;
    QCustomPlot* splitPlot_;
    QCPAxisRect* setupRect_;
    QCPAxisRect* iterRect_;
    std::vector<QCPBars*> setupBars_;  // read, build, upload: bottom to top of the stack
    std::vector<QCPBars*> iterBars_;   // MTTKRP, dense, fit, other
    DecompRunsModel* model_;
    QTableView* table_;
};

}  // namespace tsui
