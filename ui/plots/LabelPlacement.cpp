#include "plots/LabelPlacement.hpp"

#include <limits>

namespace tsui {

namespace {

// How far out a label may go, in steps of a line's height, before the least-bad place is taken.
constexpr int kRings = 6;

// The text's rectangle for a QCPItemText at `anchor` with this alignment and padding: its box
// (text plus padding) is aligned at the anchor and the text sits inside by the padding.
QRectF textRectFor(QPointF anchor, QSizeF size, Qt::Alignment alignment, const QMargins& pad) {
    const double boxW = size.width() + pad.left() + pad.right();
    const double boxH = size.height() + pad.top() + pad.bottom();
    double x = anchor.x(), y = anchor.y();
    if (alignment & Qt::AlignRight)
        x -= boxW;
    else if (alignment & Qt::AlignHCenter)
        x -= boxW / 2;
    if (alignment & Qt::AlignBottom)
        y -= boxH;
    else if (alignment & Qt::AlignVCenter)
        y -= boxH / 2;
    return {QPointF(x + pad.left(), y + pad.top()), size};
}

// The places around a point, nearest first within each ring.
std::vector<LabelPlace> candidates(const LabelToPlace& label, int gap) {
    const int line = static_cast<int>(label.size.height());
    std::vector<LabelPlace> out;
    for (int ring = 0; ring < kRings; ++ring) {
        const int d = gap + ring * line;      // out from the point, beside or above/below it
        const int c = gap / 2 + ring * line;  // out from the point, at a corner
        const std::pair<Qt::Alignment, QMargins> forms[] = {
            {Qt::AlignLeft | Qt::AlignVCenter, QMargins(d, 0, 0, 0)},    // right of it
            {Qt::AlignRight | Qt::AlignVCenter, QMargins(0, 0, d, 0)},   // left of it
            {Qt::AlignLeft | Qt::AlignBottom, QMargins(gap, 0, 0, c)},   // above right
            {Qt::AlignLeft | Qt::AlignTop, QMargins(gap, c, 0, 0)},      // below right
            {Qt::AlignRight | Qt::AlignBottom, QMargins(0, 0, gap, c)},  // above left
            {Qt::AlignRight | Qt::AlignTop, QMargins(0, c, gap, 0)},     // below left
            {Qt::AlignHCenter | Qt::AlignBottom, QMargins(0, 0, 0, d)},  // above
            {Qt::AlignHCenter | Qt::AlignTop, QMargins(0, d, 0, 0)},     // below
        };
        for (const auto& [alignment, pad] : forms)
            out.push_back({alignment, pad, textRectFor(label.anchor, label.size, alignment, pad), ring > 0});
    }
    return out;
}

double area(const QRectF& r) { return r.isEmpty() ? 0 : r.width() * r.height(); }

// How much a place covers what it should not: other labels, points, the plot's edge. Zero is free.
double cost(const QRectF& box, const std::vector<QRectF>& placed, const std::vector<QPointF>& points, double radius,
            const QRectF& bounds) {
    double c = 4 * (area(box) - area(box & bounds));  // cut off at the edge: worst
    for (const QRectF& other : placed) c += area(box & other.adjusted(-1, -1, 1, 1));
    const QRectF near = box.adjusted(-radius, -radius, radius, radius);
    for (const QPointF& p : points)
        if (near.contains(p)) c += radius * radius;
    return c;
}

}  // namespace

std::vector<LabelPlace> placeLabels(const std::vector<LabelToPlace>& labels, const std::vector<QPointF>& points,
                                    double pointRadius, const QRectF& bounds) {
    const int gap = static_cast<int>(pointRadius) + 3;
    std::vector<LabelPlace> chosen;
    std::vector<QRectF> placed;
    for (const LabelToPlace& label : labels) {
        LabelPlace best{};
        double bestCost = std::numeric_limits<double>::infinity();
        for (const LabelPlace& place : candidates(label, gap)) {
            const double c = cost(place.box, placed, points, pointRadius, bounds);
            if (c < bestCost) best = place, bestCost = c;
            if (c == 0) break;
        }
        chosen.push_back(best);
        placed.push_back(best.box);
    }
    return chosen;
}

}  // namespace tsui
