#include "plots/TitledPlot.hpp"

#include <qcustomplot.h>

#include "plots/PlotExport.hpp"

namespace tsui {

QCustomPlot* makeTitledPlot(QWidget* parent, const QString& objectName, const QString& title, QSize minimum) {
    auto* plot = new QCustomPlot(parent);
    plot->setObjectName(objectName);
    plot->setMinimumSize(minimum);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, QFont(plot->font().family(), plot->font().pointSize(), QFont::Bold)));
    enablePlotExport(plot);
    return plot;
}

void setPlotTitle(QCustomPlot* plot, const QString& title) {
    if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0))) t->setText(title);
}

}  // namespace tsui
