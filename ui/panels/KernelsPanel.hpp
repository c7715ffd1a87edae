// The Kernels tab: choose kernel x formats x backends x mode x rank, run the benchmark harness
// in the background (progress, cancel), read a sortable results table (time, GFLOP/s, GB/s,
// error against cpu-ref) and a chart comparing formats and backends. CUDA is disabled, with
// the reason, where there is no device.
#pragma once

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "models/Dataset.hpp"
#include "models/KernelResultsModel.hpp"
#include "tscope/run_control.hpp"

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

class KernelsPanel : public QWidget {
    Q_OBJECT

public:
    explicit KernelsPanel(QWidget* parent = nullptr);
    ~KernelsPanel() override;
    void setDataset(const DatasetPtr& dataset);
    bool isBusy() const { return watcher_.isRunning(); }
    void run();
    KernelResultsModel* model() const { return model_; }
    QCustomPlot* chart() const { return chart_; }
    QCheckBox* backendBox(tscope::Backend b) const;
    // Selects kernel, formats (names), rank and repeats, for tests and --run.
    void configure(tscope::KernelKind kernel, const QStringList& formats, std::uint64_t rank, int repeat);

Q_SIGNALS:
    void idle();

private:
    struct Outcome {
        std::vector<tscope::BenchResult> results;
        QString error;
    };
    void fillFormats();
    void onDone();
    void replot();

    DatasetPtr dataset_;
    std::shared_ptr<tscope::AtomicRunControl> control_;
    QFutureWatcher<Outcome> watcher_;
    QTimer poll_;
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
