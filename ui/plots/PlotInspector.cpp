#include "plots/PlotInspector.hpp"

#include <QMainWindow>
#include <QStatusBar>
#include <QToolTip>
#include <qcustomplot.h>

namespace tsui {

namespace {

const char* const kInspectorName = "tsui-plot-inspector";

// The data index a plottable's selectTest reported in its details.
std::optional<int> hitIndex(const QVariant& details) {
    const auto selection = details.value<QCPDataSelection>();
    if (selection.isEmpty()) return std::nullopt;
    return selection.dataRange().begin();
}

}  // namespace

std::optional<BarHit> barAt(QCustomPlot* plot, QPointF pixel) {
    for (int i = plot->plottableCount() - 1; i >= 0; --i) {  // the topmost first
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        if (!bars || !bars->visible()) continue;
        QVariant details;
        // QCPBars answers only for a pixel inside one of its bars
        if (bars->selectTest(pixel, false, &details) < 0) continue;
        if (const auto index = hitIndex(details)) {
            const auto it = bars->data()->at(*index);
            return BarHit{bars, it->key, it->value};
        }
    }
    return std::nullopt;
}

std::optional<PointHit> pointAt(QCustomPlot* plot, QPointF pixel) {
    std::optional<PointHit> best;
    double bestDistance = plot->selectionTolerance();
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph* graph = plot->graph(i);
        if (!graph->visible() || graph->dataCount() == 0) continue;
        QVariant details;
        const double distance = graph->selectTest(pixel, false, &details);
        if (distance < 0 || distance > bestDistance) continue;
        if (const auto index = hitIndex(details)) {
            const auto it = graph->data()->at(*index);
            best = PointHit{graph, it->key, it->value};
            bestDistance = distance;
        }
    }
    return best;
}

std::optional<CellHit> cellAt(QCustomPlot* plot, QPointF pixel) {
    for (int i = plot->plottableCount() - 1; i >= 0; --i) {
        auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i));
        if (!map || !map->visible()) continue;
        if (!map->keyAxis()->axisRect()->rect().contains(pixel.toPoint())) continue;
        double key = 0, value = 0;
        map->pixelsToCoords(pixel, key, value);
        int k = 0, v = 0;
        map->data()->coordToCell(key, value, &k, &v);
        if (k < 0 || v < 0 || k >= map->data()->keySize() || v >= map->data()->valueSize()) continue;
        return CellHit{map, k, v, map->data()->cell(k, v)};
    }
    return std::nullopt;
}

PlotInspector::PlotInspector(QCustomPlot* plot) : QObject(plot), plot_(plot) {
    setObjectName(QLatin1String(kInspectorName));
    plot->setMouseTracking(true);
    plot->setInteractions(plot->interactions() | QCP::iRangeDrag | QCP::iRangeZoom);
    plot->installEventFilter(this);
    connect(plot, &QCustomPlot::mouseMove, this, &PlotInspector::hover);
}

PlotInspector* PlotInspector::attach(QCustomPlot* plot, Describe describe) {
    PlotInspector* inspector = of(plot);
    if (!inspector) inspector = new PlotInspector(plot);
    inspector->describe_ = std::move(describe);
    return inspector;
}

PlotInspector* PlotInspector::of(const QCustomPlot* plot) {
    return plot ? plot->findChild<PlotInspector*>(QLatin1String(kInspectorName), Qt::FindDirectChildrenOnly) : nullptr;
}

void PlotInspector::rememberHome() {
    home_ = Home{plot_->xAxis->range().lower, plot_->xAxis->range().upper, plot_->yAxis->range().lower, plot_->yAxis->range().upper};
}

void PlotInspector::resetZoom() {
    if (home_) {
        plot_->xAxis->setRange(home_->xLower, home_->xUpper);
        plot_->yAxis->setRange(home_->yLower, home_->yUpper);
    } else {
        plot_->rescaleAxes();
    }
    plot_->replot();
}

void PlotInspector::resetZoomOf(QCustomPlot* plot) {
    if (PlotInspector* inspector = of(plot)) {
        inspector->resetZoom();  // the ranges the panel drew, padding and all
        return;
    }
    plot->rescaleAxes();
    plot->replot();
}

void PlotInspector::hover(QMouseEvent* event) {
    if (event->buttons() != Qt::NoButton) return;  // a drag pans; no readout meanwhile
    show(textAt(event->position()), event->position());
}

void PlotInspector::show(const QString& text, QPointF pixel) {
    if (text == shown_) return;
    shown_ = text;
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(plot_->mapToGlobal(pixel.toPoint()), text, plot_);
    if (auto* window = qobject_cast<QMainWindow*>(plot_->window())) {
        if (text.isEmpty())
            window->statusBar()->clearMessage();
        else
            window->statusBar()->showMessage(text);
    }
    Q_EMIT readout(text);
}

bool PlotInspector::eventFilter(QObject* watched, QEvent* event) {
    // not once ~QWidget runs (the QCustomPlot part gone; see PlotKeyboard.cpp)
    if (watched == plot_ && qobject_cast<QCustomPlot*>(watched) && event->type() == QEvent::Leave) show(QString(), {});
    return QObject::eventFilter(watched, event);
}

}  // namespace tsui
