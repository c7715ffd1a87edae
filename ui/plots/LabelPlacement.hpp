// Where a chart's point labels go so that none covers another label or a point. Each label
// tries the places around its point nearest first (right, left, above, below, and the four
// corners), then the same a step further out, and keeps the first place that is free and
// inside the plot; where none is, the one that covers least. The roofline's labels used to step
// up a line by count alone, so neighbouring formats still landed on one another.
// Pure geometry in pixels: the chart converts its points and applies the result.
#pragma once

#include <QMargins>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <vector>

namespace tsui {

struct LabelToPlace {
    QPointF anchor;  // the labelled point, in pixels
    QSizeF size;     // the label's text, in pixels
};

// One label's place, in the terms of a QCPItemText anchored at its point: the side of the text
// box the point is on (position alignment), the padding that moves the text off it, and the
// box the text then covers.
struct LabelPlace {
    Qt::Alignment alignment;
    QMargins padding;
    QRectF box;
    // Beyond the ring next to its point: the chart joins such a label to its point by a line,
    // since it may then stand beside another series' point (sweep 74a F10: "ALTO/cpu-ref" by the
    // ALTO/omp marker in a short window).
    bool away = false;
    int ring = 0;  // how many line heights out from the ring next to the point
};

// Places `labels` in order (earlier ones keep the better places) inside `bounds`, keeping
// clear of every point in `points` by `pointRadius` pixels.
std::vector<LabelPlace> placeLabels(const std::vector<LabelToPlace>& labels, const std::vector<QPointF>& points,
                                    double pointRadius, const QRectF& bounds);

}  // namespace tsui
