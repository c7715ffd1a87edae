// The roofline chart of the Kernels tab: each benchmark run as a point at its arithmetic
// intensity (flops per minimum byte, x, log) and GFLOP/s (y, log), labelled format/backend;
// per device (CPU, GPU) the line of the copy bandwidth measured in the same run (GFLOP/s =
// GB/s x flop/B) and the peak line, each named with where its number comes from (the CPU's
// measured by an FMA loop, the GPU's from the device's properties), and for GPU MTTKRP and SpTTM
// rows the flat roof of their factor-row gathers at the measured L2 gather rate. The rows carry all of it
// (BenchResult's roofline fields), so the chart draws on the GUI thread without measuring.
// Each format/backend is labelled once, at its first run, where the label covers no other label
// or point (LabelPlacement, again on every layout); hovering any point names it.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "tscope/bench/kernel_bench.hpp"

class QCustomPlot;
class QCPGraph;
class QCPItemLine;
class QCPItemText;
class QLabel;

namespace tsui {

class RooflinePlot : public QWidget {
    Q_OBJECT

public:
    explicit RooflinePlot(QWidget* parent = nullptr);
    void setResults(const std::vector<tscope::BenchResult>& results);
    QCustomPlot* plot() const { return plot_; }
    // What is drawn, for tests: the run points' graphs (one per format and backend: the backend's
    // colour, the format's marker), the bandwidth and
    // peak lines, and the points' labels in drawing order.
    std::vector<QCPGraph*> pointGraphs() const { return points_; }
    std::vector<QCPGraph*> bandwidthLines() const { return bandwidth_; }
    std::vector<QCPGraph*> peakLines() const { return peaks_; }
    // The GPU's gather roof (BenchResult::gather_bound_s), where its rows have one.
    std::vector<QCPGraph*> gatherLines() const { return gathers_; }
    QStringList pointLabels() const { return labels_; }
    // What hovering each point shows, in the same order: its figures and shares of its bounds.
    QStringList pointTexts() const;
    // The line under the chart that says where each roof's numbers come from, in full.
    QLabel* sources() const { return sources_; }
    // The format/backend labels drawn beside their first points.
    std::vector<QCPItemText*> labelItems() const { return labelItems_; }
    // The lines joining labels that stand off their points to them, one per such label.
    std::vector<QCPItemLine*> leaderLines() const { return leaders_; }

private:
    void drawPoints(const std::vector<tscope::BenchResult>& results);
    void addLabelItems(const std::vector<tscope::BenchResult>& results);
    void placeLabelItems();  // on every layout: the pixels of the points change with the plot's size
    QCPItemLine* leaderLine(QPointF point, const QRectF& box);

    QCustomPlot* plot_;
    QLabel* sources_;
    struct Point {
        QCPGraph* graph;
        double intensity, gflops;
        QString text;  // what the inspector shows for it
    };
    std::vector<QCPGraph*> points_, bandwidth_, peaks_, gathers_;
    std::vector<Point> drawn_;
    QStringList labels_;
    std::vector<QCPItemText*> labelItems_;
    std::vector<QCPItemLine*> leaders_;
};

}  // namespace tsui
