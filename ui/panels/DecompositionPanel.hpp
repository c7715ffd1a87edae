// The Decompositions tab: CPD-ALS, Tucker-HOOI or FasterTucker on the loaded tensor, run in the
// background; convergence curves grow as each iteration reports (fit, or train/test RMSE and
// MAE), against iteration or time; several runs stay overlaid for comparison; cancel stops a
// run between iterations. A third plot splits each CPD run's time: its setup (read, build,
// upload) and its mean iteration (MTTKRP, dense steps, fit, the rest). Where the machine has
// several GPUs, a GPUs box splits a cuda CPD run over that many. "Open run…" adds a run from
// `tensorscope-cli decompose --json` (a cluster job's, under mpirun, with a bar chart of its
// ranks' nonzeros and communication).
#pragma once

#include <QElapsedTimer>
#include <QPointF>
#include <QTimer>
#include <memory>

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/DecompRunsModel.hpp"
#include "plots/RankBarsPlot.hpp"
#include "panels/Panel.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/decomp/cpd_als.hpp"

class QCheckBox;
class QComboBox;
class QCPAxisRect;
class QCPBars;
class QCustomPlot;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QSplitter;
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
    // The GPUs this panel offers: query_gpu()'s count, set by the constructor. Tests fake a
    // count here; with count > 0 the cuda backend is choosable (on a machine without a GPU its
    // runs then fail in words), with count > 1 the GPUs box (object name "decompGpus") shows.
    void setGpuCount(int count);
    // The options a CPD run would start with (method aside): rank, iterations, backend, format,
    // and the GPUs box's count where cuda runs it.
    tscope::CpdOptions cpdOptions() const;
    // Adds the run in a decompose JSON file to the plots and the table (a distributed run's
    // ranks to the rank chart); false with *error naming the file otherwise.
    bool openRunFile(const QString& path, QString* error);
    // The distributed runs' ranks (object name "decompRanks"), hidden until one is opened.
    QCustomPlot* rankPlot() const;

private:
    QHBoxLayout* buildRunRow();
    QHBoxLayout* buildViewRow();
    void buildCharts(QSplitter* split);
    QTableView* buildTable(QWidget* parent);
    void connectControls();
    void onIteration(int run, const tscope::IterationReport& report);
    void replotSoon();
    // The running run ended: outcome is "converged", "done", "cancelled", or "failed: ...".
    void settle(const QString& outcome, bool cancelled = false);
    void replot();
    void showApplicablePlots();
    QString describePoint(QCustomPlot* plot, QPointF pixel) const;
    void replotSplit();
    QString methodWord(tscope::DecompMethod method) const;
    static QString splitHintText(bool otherRuns);
    void buildSplitPlot(QWidget* parent);
    void methodChanged();
    static int defaultRank(tscope::DecompMethod method);
    void fillCpdFormats();
    void updateGpus();
    void openRun();

    DatasetPtr dataset_;
    tscope::GpuInfo gpu_;
    int gpuCount_ = 0;
    EngineJob job_;
    int running_ = -1;
    QComboBox* method_;
    QSpinBox* rank_;
    QSpinBox* iters_;
    tscope::DecompMethod shownMethod_ = tscope::DecompMethod::Cpd;  // whose default rank the box may hold
    QComboBox* backend_;
    QLabel* gpusLabel_;
    QSpinBox* gpus_;
    QComboBox* format_;
    QComboBox* cpdInit_;     // CPD's start: random or nvecs
    QSpinBox* restarts_;     // CPD's starts, the best kept
    QComboBox* xAxis_;
    QLabel* errorLabel_;
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
    std::unique_ptr<RankBarsPlot> ranks_;
    // Iterations arrive faster than every run's curves redraw: one replot at most each 150 ms
    // (the first at once), where a replot per iteration had frozen the window for 20 s with six
    // 1000-epoch runs.
    QTimer* replotTimer_;
    QElapsedTimer sinceReplot_;
};

}  // namespace tsui
