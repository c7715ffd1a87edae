// A plot with nothing to draw yet says what to do instead of showing empty axes and a stray
// legend box: a centred line of text, gone once there is data.
#pragma once

#include <QString>

class QCustomPlot;
class QFontMetrics;

namespace tsui {

// Shows `hint` in the middle of the plot while `empty`, and hides it otherwise, then showing the
// legend where the plot has one (`legend`; a density map has none). Call before replot().
// The hint is wrapped to the plot's axis rect each time the plot lays itself out.
void showPlotHint(QCustomPlot* plot, bool empty, const QString& hint, bool legend = true);

// `hint` in lines no wider than `width` pixels, broken between words (a longer word keeps a line
// of its own).
QString wrapHint(const QString& hint, const QFontMetrics& metrics, int width);

}  // namespace tsui
