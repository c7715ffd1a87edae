// The format advisor inside the Formats tab: for a kernel and a backend, the formats ranked by
// the time the model predicts from the tensor's statistics, each with its reason; "Measure"
// runs the bench (the Kernels tab's harness) on the same formats and plots predicted against
// measured time per format, so that the user sees where the model is right and where it is not.
// The statistics, the prediction and the bench all run on a worker (EngineJob), with progress
// and Cancel.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "tscope/advisor/advisor.hpp"
#include "tscope/bench/kernel_bench.hpp"

class QComboBox;
class QCustomPlot;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace tsui {

class AdvisorView : public QWidget {
    Q_OBJECT

public:
    explicit AdvisorView(QWidget* parent = nullptr);
    // Predicts for the tensor once the page is shown (nothing runs for a page never opened).
    void setDataset(const DatasetPtr& dataset);
    bool isBusy() const { return job_.isBusy(); }
    // Runs the bench on the ranked formats; false while busy or before a prediction.
    bool measure();
    // Measures as soon as the prediction for the current tensor is shown (tensorscope --run).
    void measureWhenPredicted();

    QTableWidget* table() const { return table_; }
    QCustomPlot* plot() const { return plot_; }
    QLabel* summary() const { return summary_; }
    QLabel* status() const { return status_; }  // the running work, or Measure's verdict
    QComboBox* kernelBox() const { return kernel_; }
    QComboBox* backendBox() const { return backend_; }
    QPushButton* measureButton() const { return measureButton_; }
    const std::optional<tscope::Advice>& advice() const { return advice_; }
    // Measured sweep seconds per ranked line (NaN where the bench did not run it); empty before Measure.
    const std::vector<double>& measured() const { return measured_; }

Q_SIGNALS:
    void idle();
    // A prediction or Measure that failed: the window's error banner says it (and a --run exits 2).
    void failed(const QString& message);

protected:
    void showEvent(QShowEvent* event) override;

private:
    using ProfilePtr = std::shared_ptr<const tscope::TensorProfile>;
    QHBoxLayout* buildControls();
    QTableWidget* buildTable(QWidget* parent);
    QCustomPlot* buildPlot(QWidget* parent);
    void connectControls();
    void predict();
    void showAdvice(tscope::Advice advice);
    void showMeasured(const std::vector<tscope::BenchResult>& rows);
    void fillTable();
    void replot();
    void setRunning(bool running, const QString& what);
    tscope::AdviceRequest request() const;

    DatasetPtr dataset_;
    DatasetPtr profiledFor_;
    ProfilePtr profile_;
    std::optional<tscope::Advice> advice_;
    std::vector<double> measured_;
    bool predictAgain_ = false;
    bool measureWhenPredicted_ = false;
    EngineJob job_;
    QComboBox* kernel_;
    QComboBox* backend_;
    QSpinBox* rank_;
    QPushButton* measureButton_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* status_;
    QLabel* summary_;
    QTableWidget* table_;
    QCustomPlot* plot_;
};

}  // namespace tsui
