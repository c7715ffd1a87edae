#include "plots/LegendColumns.hpp"

#include <qcustomplot.h>
#include <QEvent>
#include <QObject>
#include <algorithm>

namespace tsui {

namespace {

const char* kMaxColumns = "tsLegendMaxColumns";

// Lays the legend out again each time its plot is resized (a child of the plot: gone with it).
class LegendRefit : public QObject {
public:
    explicit LegendRefit(QCustomPlot* plot) : QObject(plot), plot_(plot) { plot->installEventFilter(this); }
    bool eventFilter(QObject* watched, QEvent* event) override {
        // not once ~QWidget runs (the QCustomPlot part gone; see PlotKeyboard.cpp)
        if (watched == plot_ && qobject_cast<QCustomPlot*>(watched) && event->type() == QEvent::Resize &&
            refitLegendColumns(plot_))
            plot_->replot(QCustomPlot::rpQueuedReplot);
        return false;
    }

private:
    QCustomPlot* plot_;
};

}  // namespace

void fitLegendColumnsToWidth(QCustomPlot* plot, int maxColumns) {
    const bool first = !plot->property(kMaxColumns).isValid();
    plot->setProperty(kMaxColumns, std::max(1, maxColumns));
    if (first) new LegendRefit(plot);
    refitLegendColumns(plot);
}

bool refitLegendColumns(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    const int most = std::max(1, plot->property(kMaxColumns).toInt());
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)  // counts the grid's cells: a short last row's are empty
        if (const QCPAbstractLegendItem* item = legend->item(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const QMargins m = legend->margins();
    const int room = plot->width() - m.left() - m.right() - 2 * legend->outerRect().left();
    const int columns = std::clamp((room + legend->columnSpacing()) / (widest + legend->columnSpacing()), 1, most);
    if (columns == legend->wrap()) return false;
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true);  // moves the names into the new rows
    return true;
}

}  // namespace tsui
