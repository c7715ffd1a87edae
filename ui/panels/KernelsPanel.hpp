// The Kernels tab: choose kernel x formats x backends x mode x rank, run the benchmark harness
// in the background (progress, cancel), read a sortable results table (time, GFLOP/s, GB/s,
// error against cpu-ref), a chart comparing formats and backends, and the runs on a roofline. CUDA is disabled, with
// the reason, where there is no device. Where the machine has several GPUs, a GPUs box runs
// cuda's MTTKRP over that many GPU parts; a second chart tab shows recorded multi-GPU scaling.
#pragma once

#include <QPointF>

#include "jobs/EngineJob.hpp"
#include "models/BenchRecording.hpp"
#include "models/Dataset.hpp"
#include "models/KernelResultsModel.hpp"
#include "panels/Panel.hpp"
#include "tscope/cuda/device.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QFormLayout;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTabWidget;

namespace tsui {

class RooflinePlot;
class ScalingPlot;

class KernelsPanel : public Panel {
    Q_OBJECT

public:
    explicit KernelsPanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Kernels"); }
    void setDataset(const DatasetPtr& dataset) override;
    bool isBusy() const override { return job_.isBusy(); }
    bool runOwnWork() override;
    void run();
    KernelResultsModel* model() const { return model_; }
    QCustomPlot* chart() const { return chart_; }
    QCheckBox* backendBox(tscope::Backend b) const;
    // Selects kernel, formats (names), rank and repeats, for tests and --run.
    void configure(tscope::KernelKind kernel, const QStringList& formats, std::uint64_t rank, int repeat);
    // The GPUs this panel offers: query_gpu()'s count, set by the constructor. Tests fake a
    // count here; with count > 0 the cuda backend is choosable (on a machine without a GPU its
    // runs then fail in words), with count > 1 the GPUs box (object name "kernelGpus") shows.
    void setGpuCount(int count);
    // What Run starts: one bench request, or two where the GPUs box asks for several GPUs and
    // cuda runs MTTKRP (the multi-GPU run takes cuda alone: the other backends go first, apart).
    // Empty, with *why, where nothing is chosen.
    std::vector<tscope::BenchRequest> requests(QString* why = nullptr) const;
    ScalingPlot* scalingPlot() const { return scaling_; }
    RooflinePlot* rooflinePlot() const { return roofline_; }
    void showScalingPlot();
    // A recorded bench run (models/BenchRecording.hpp) in the table and the charts, as if it had
    // run here; the status line names where it ran. Run replaces it; opening another tensor does
    // not (it ran elsewhere, on its own tensor). The "Recorded…" button (object name
    // "kernelRecorded") offers the bundled ones and a file.
    void showRecording(const BenchRecording& recording);

private:
    void buildControls(QWidget* side);
    QTabWidget* buildCharts(QWidget* parent);
    QTableView* buildTable(QWidget* parent);
    void connectControls();
    void fillFormats();
    // The run ended, whichever way: the controls are usable again.
    void settle(const QString& status);
    // The transfer column only where a GPU is here or some row ran on one (a recorded run).
    void showTransferColumn();
    void showResults(std::vector<tscope::BenchResult> results);
    void replot();
    void updateGpus();
    QString describeBar(QPointF pixel) const;

    DatasetPtr dataset_;
    bool showingRecording_ = false;  // the rows are a recording, not a run on dataset_
    tscope::GpuInfo gpu_;
    int gpuCount_ = 0;
    QFormLayout* form_;
    EngineJob job_;
    QComboBox* kernel_;
    QListWidget* formats_;
    QCheckBox* cpuRef_;
    QCheckBox* omp_;
    QCheckBox* cuda_;
    QComboBox* mode_;
    QSpinBox* rank_;
    QSpinBox* repeat_;
    QSpinBox* gpus_;
    QCheckBox* check_;
    QComboBox* measure_;
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* status_;
    KernelResultsModel* model_;
    QTableView* table_;
    QCustomPlot* chart_;
    QTabWidget* chartTabs_;
    ScalingPlot* scaling_;
    RooflinePlot* roofline_;
};

}  // namespace tsui
