// A plot from the keyboard: Tab reaches it (a frame in the palette's highlight colour says it
// has focus), the Menu key or Shift+F10 opens its menu (Save plot as PNG/PDF, Reset zoom),
// + and − zoom about its middle, the arrows pan, Home resets the zoom. Zoom, pan and the menu
// had needed a mouse (sweep 74a F12). Keys that zoom or pan act only where the plot lets the
// mouse do so (QCP::iRangeZoom, iRangeDrag).
#pragma once

class QCustomPlot;

namespace tsui {

void enablePlotKeyboard(QCustomPlot* plot);

}  // namespace tsui
