#include "plots/PlotHint.hpp"

#include <qcustomplot.h>

namespace tsui {

namespace {
const char* const kHintName = "tsui-plot-hint";
}

void showPlotHint(QCustomPlot* plot, bool empty, const QString& hint, bool legend) {
    QCPItemText* text = nullptr;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->objectName() == QLatin1String(kHintName)) text = t;
    if (!text) {
        text = new QCPItemText(plot);
        text->setObjectName(QLatin1String(kHintName));
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setPositionAlignment(Qt::AlignCenter);
        text->setColor(QColor(90, 90, 90));
        text->setClipToAxisRect(false);
    }
    text->setText(hint);
    text->setVisible(empty);
    plot->legend->setVisible(!empty && legend);
    plot->xAxis->setTickLabels(!empty);
    plot->yAxis->setTickLabels(!empty);
}

}  // namespace tsui
