#include "plots/LabelPlacement.hpp"

#include <algorithm>
#include <limits>

#include <QLineF>

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
            out.push_back({alignment, pad, textRectFor(label.anchor, label.size, alignment, pad), ring > 0, ring});
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

// What a place away from its point adds: a little per ring, so that of two places that cover
// alike the nearer wins, and what its leader line (point to the box's nearest edge) runs
// through, other labels and other points, sampled along it: a leader through another label or
// marker read as striking it out, or as ending there (sweep 74c N2).
double awayCost(const LabelToPlace& label, const LabelPlace& place, const std::vector<QRectF>& placed,
                const std::vector<QPointF>& points, double radius) {
    if (!place.away) return 0;
    const QPointF from = label.anchor;
    const QPointF to(std::clamp(from.x(), place.box.left(), place.box.right()),
                     std::clamp(from.y(), place.box.top(), place.box.bottom()));
    const double line = label.size.height();
    double c = place.ring * line;
    constexpr int kSamples = 24;
    for (int i = 1; i < kSamples; ++i) {
        const QPointF at = from + (to - from) * (static_cast<double>(i) / kSamples);
        for (const QRectF& other : placed)
            if (other.contains(at)) c += line * line / 4;
        for (const QPointF& p : points)
            if (QLineF(p, from).length() > 1 && QLineF(p, at).length() < radius + 1) c += radius * radius;
    }
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
            // covering a label, a point or the edge outweighs any leader: those come first
            const double c = 1e4 * cost(place.box, placed, points, pointRadius, bounds) +
                             awayCost(label, place, placed, points, pointRadius);
            if (c < bestCost) best = place, bestCost = c;
            if (c == 0) break;  // free and next to its point
        }
        chosen.push_back(best);
        placed.push_back(best.box);
    }
    return chosen;
}

}  // namespace tsui
