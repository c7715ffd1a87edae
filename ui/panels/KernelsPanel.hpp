// The Kernels tab: choose kernel x formats x backends x mode x rank, run the benchmark harness
// in the background (progress, cancel), read a sortable results table (time, GFLOP/s, GB/s,
// error against cpu-ref) and a chart comparing formats and backends. CUDA is disabled, with
// the reason, where there is no device.
#pragma once

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/KernelResultsModel.hpp"
#include "panels/Panel.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace tsui {

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

private:
    void fillFormats();
    // The run ended, whichever way: the controls are usable again.
    void settle(const QString& status);
    void showResults(std::vector<tscope::BenchResult> results);
    void replot();

    DatasetPtr dataset_;
    EngineJob job_;
    QComboBox* kernel_;
    QListWidget* formats_;
    QCheckBox* cpuRef_;
    QCheckBox* omp_;
    QCheckBox* cuda_;
    QComboBox* mode_;
    QSpinBox* rank_;
    QSpinBox* repeat_;
    QCheckBox* check_;
    QComboBox* measure_;
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* status_;
    KernelResultsModel* model_;
    QTableView* table_;
    QCustomPlot* chart_;
};

}  // namespace tsui
