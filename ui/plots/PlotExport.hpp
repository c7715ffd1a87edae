// Every plot can be saved as PNG or PDF: a right-click menu on the plot, and a function the
// panels' export buttons and the tests call.
#pragma once

#include <QString>

class QCustomPlot;

namespace tsui {

// Saves by the extension (.png or .pdf); false with *error set otherwise.
bool savePlot(QCustomPlot* plot, const QString& path, QString* error);
// Adds "Save plot as PNG/PDF…" to the plot's context menu.
void enablePlotExport(QCustomPlot* plot);

}  // namespace tsui
