// A two-mode density map drawn as a colour map (viridis, empty cells transparent), with its
// colour scale: mode_x down (index 1 at the top, as in a matrix), mode_y across, whole-index
// ticks. Shared by the Density and Reorder tabs.
#pragma once

#include <QString>
#include <cstdint>

#include "tscope/tensor/density_map.hpp"

class QCustomPlot;

namespace tsui {

// Map cells drawn per bin along an axis: 2 where the axis has a single bin (QCPColorMap cannot
// draw an axis of one cell).
inline int cellSplit(std::uint64_t bins) { return bins == 1 ? 2 : 1; }

// dimX, dimY: the lengths of m.mode_x and m.mode_y; a bin spans m.cells_x x m.cells_y indices
// (HLS's tile map counts them in indices too: the tiles it holds times 16; it had been drawn 16
// times too wide, so that a few of its bins filled the plot, sweep 70c C8); logScale for counts;
// `what` labels the colour scale; a linear scale reaches at least `scaleTop`.
void drawDensityMap(QCustomPlot* plot, const tscope::DensityMap& m, std::uint64_t dimX, std::uint64_t dimY,
                    bool logScale, const QString& what, double scaleTop = 0);

}  // namespace tsui
