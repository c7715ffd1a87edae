// Multi-GPU scaling: seconds per MTTKRP sweep (every mode once, kernels plus collectives)
// against the GPU count, one line per format and device, from scaling recordings (bench JSON
// of `tensorscope-cli bench --gpus N --json`). Starts with the bundled recordings; "Open
// recording…" adds one from a file. Without any it says how to make one instead of drawing an
// empty chart. Where the recordings hold several tensors, a Tensor box picks the one drawn:
// their times differ by orders of magnitude, and one axis from zero would flatten the small.
#pragma once

#include <QWidget>
#include <vector>

#include "models/ScalingRecording.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QStackedWidget;

namespace tsui {

class ScalingPlot : public QWidget {
    Q_OBJECT

public:
    explicit ScalingPlot(QWidget* parent = nullptr);
    void setRecordings(std::vector<ScalingRecording> recordings);
    const std::vector<ScalingRecording>& recordings() const { return recordings_; }
    // Reads a recording and adds it; false with *error (which names the file) otherwise.
    bool addRecordingFile(const QString& path, QString* error);
    QCustomPlot* plot() const { return plot_; }
    // The words shown instead of the chart while there is nothing to draw.
    QLabel* hint() const { return hint_; }
    bool showsChart() const;
    // Picks the tensor whose lines are drawn (hidden while the recordings hold one tensor).
    QComboBox* tensorBox() const { return tensorBox_; }

private:
    void openRecording();
    void replot();
    void refillTensors(const std::vector<ScalingLine>& lines);

    std::vector<ScalingRecording> recordings_;
    QStringList bundledErrors_;
    QLabel* sources_;
    QComboBox* tensorBox_;
    QStackedWidget* stack_;
    QLabel* hint_;
    QCustomPlot* plot_;
};

}  // namespace tsui
