// A QCustomPlot with a bold title row above its axes, exportable (right click), the way every
// tab's plots start; the tab adds its own legend and interactions.
#pragma once

#include <QSize>
#include <QString>

class QCustomPlot;
class QWidget;

namespace tsui {

QCustomPlot* makeTitledPlot(QWidget* parent, const QString& objectName, const QString& title, QSize minimum = QSize(300, 240));
// Changes the title makeTitledPlot put in.
void setPlotTitle(QCustomPlot* plot, const QString& title);

}  // namespace tsui
