// A legend of long names above a plot (placeLegendAbove) laid out in as many columns as the
// plot's width holds, up to a most, and laid out again whenever the plot is resized. A fixed
// count either cut the names at the window's default width (the roofline's roofs) or made the
// plot ask for the width of all its columns (the GPU-scaling chart asked 880 px, and with it the
// window opened past the 1280 px it is meant to fit).
#pragma once

class QCustomPlot;

namespace tsui {

// From now on `plot`'s legend takes at most `maxColumns` names a row, as many as fit.
void fitLegendColumnsToWidth(QCustomPlot* plot, int maxColumns);
// Lays the legend out again for its current names (call after adding or renaming graphs, before
// replot()); true where the count of columns changed.
bool refitLegendColumns(QCustomPlot* plot);

}  // namespace tsui
