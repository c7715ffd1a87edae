#include "plots/DensityMapPlot.hpp"

#include <algorithm>
#include <qcustomplot.h>

#include "plots/PlotAxes.hpp"
#include "plots/PlotInspector.hpp"

namespace tsui {

void drawDensityMap(QCustomPlot* plot, const tscope::DensityMap& m, std::uint64_t dimX, std::uint64_t dimY,
                    bool logScale, const QString& what, double scaleTop) {
    plot->clearPlottables();
    for (int i = plot->plotLayout()->elementCount() - 1; i >= 0; --i)
        if (auto* scale = qobject_cast<QCPColorScale*>(plot->plotLayout()->elementAt(i))) plot->plotLayout()->remove(scale);
    plot->plotLayout()->simplify();
    if (m.bins_x == 0 || m.bins_y == 0) {
        plot->replot();
        return;
    }
    auto* cmap = new QCPColorMap(plot->xAxis, plot->yAxis);
    // x across = mode_y, y down = mode_x (index 0 at the top, as in a matrix)
    // QCPColorMap cannot draw an axis of one cell (its cell width comes from the distance of
    // the first and last centres): a single bin is drawn as two halves of the same value.
    const int kx = cellSplit(m.bins_y), ky = cellSplit(m.bins_x);
    cmap->data()->setSize(static_cast<int>(m.bins_y) * kx, static_cast<int>(m.bins_x) * ky);
    // Ranges of the cells' centres in 1-based indices: bin b covers indices b*w+1 .. (b+1)*w,
    // so every cell is w indices wide and its edges fall on half indices (equal cells, whole
    // index ticks). The axes end at the last index: a last bin holding fewer is cut there.
    const double across = static_cast<double>(m.cells_y) / kx, down = static_cast<double>(m.cells_x) / ky;
    const auto centres = [](std::uint64_t cells, double w) {
        return QCPRange(0.5 + w / 2, 0.5 + w / 2 + static_cast<double>(cells - 1) * w);
    };
    cmap->data()->setRange(centres(m.bins_y * kx, across), centres(m.bins_x * ky, down));
    for (std::uint64_t x = 0; x < m.bins_x; ++x)
        for (std::uint64_t y = 0; y < m.bins_y; ++y) {
            const double v = m.values[x * m.bins_y + y];
            for (int i = 0; i < kx; ++i)
                for (int j = 0; j < ky; ++j)
                    cmap->data()->setCell(static_cast<int>(y) * kx + i, static_cast<int>(x) * ky + j, v > 0 ? v : qQNaN());
        }
    cmap->setInterpolate(false);
    auto* scale = new QCPColorScale(plot);
    plot->plotLayout()->addElement(1, 1, scale);
    scale->setType(QCPAxis::atRight);
    cmap->setColorScale(scale);
    QCPColorGradient gradient;  // viridis: perceptually even, colour-blind safe, readable in grey
    gradient.setColorStops({{0.0, QColor(68, 1, 84)},
                            {0.25, QColor(59, 82, 139)},
                            {0.5, QColor(33, 145, 140)},
                            {0.75, QColor(94, 201, 98)},
                            {1.0, QColor(253, 231, 37)}});
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    cmap->setGradient(gradient);
    if (logScale) {
        scale->setDataScaleType(QCPAxis::stLogarithmic);
        setLogAxis(scale->axis(), AxisUnit::Count);  // 1, 2, 5 where it spans one decade
        // every cell 1: a sliver above 1, so that the bar reads "1" alone (it reached 2, which no
        // cell holds: sweep 72b) and the cells take the darkest colour, plainest on white
        cmap->setDataRange(QCPRange(1, m.max_value > 1 ? m.max_value : 1 + 1e-6));
    } else {
        setLinearAxis(scale->axis(), AxisUnit::Plain);
        cmap->setDataRange(QCPRange(0, std::max({1e-6, m.max_value, scaleTop})));
    }
    scale->axis()->setLabel(what);
    auto* margins = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    plot->xAxis->setLabel(QObject::tr("mode-%1 index").arg(m.mode_y + 1));
    plot->yAxis->setLabel(QObject::tr("mode-%1 index").arg(m.mode_x + 1));
    plot->yAxis->setRangeReversed(true);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis})
        axis->setTicker(QSharedPointer<IndexTicker>(new IndexTicker(axis)));
    plot->xAxis->setRange(0.5, static_cast<double>(dimY) + 0.5);
    plot->yAxis->setRange(0.5, static_cast<double>(dimX) + 0.5);
    if (PlotInspector* inspector = PlotInspector::of(plot)) inspector->rememberHome();  // where the plot has one
    plot->replot();
}

}  // namespace tsui
