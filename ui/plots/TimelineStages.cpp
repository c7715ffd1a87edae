#include "plots/TimelineStages.hpp"

#include <algorithm>
#include <cmath>

namespace tsui {

namespace {

constexpr double kHalfLane = 0.35;  // a stage's half height, in lanes

}  // namespace

TimelineStages::TimelineStages(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis) {
    setSelectable(QCP::stNone);
}

void TimelineStages::setStages(std::vector<Stage> stages, std::vector<QColor> colours) {
    stages_ = std::move(stages);
    colours_ = std::move(colours);
}

double TimelineStages::selectTest(const QPointF&, bool, QVariant*) const {
    return -1;
}  // the hover readout says what is where

const TimelineStages::Stage* TimelineStages::stageAt(QPointF pixel) const {
    QCPAxis* key = keyAxis();
    QCPAxis* value = valueAxis();
    if (!key || !value) return nullptr;
    const double lane = value->pixelToCoord(pixel.y());
    const Stage* best = nullptr;
    double bestGap = 3;
    for (const Stage& s : stages_) {
        if (std::abs(lane - s.lane) > kHalfLane) continue;
        const double x0 = key->coordToPixel(s.from), x1 = key->coordToPixel(s.to);
        const double gap = pixel.x() < x0 ? x0 - pixel.x() : pixel.x() > x1 ? pixel.x() - x1 : 0;
        if (gap < bestGap || (gap == 0 && best && s.to - s.from < best->to - best->from)) {
            best = &s;
            bestGap = gap;
        }
    }
    return best;
}

QCPRange TimelineStages::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = !stages_.empty();
    QCPRange range(0, 0);
    for (const Stage& s : stages_) range.expand(QCPRange(s.from, s.to));
    return range;
}

QCPRange TimelineStages::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = !stages_.empty();
    QCPRange range(0, 0);
    for (const Stage& s : stages_) range.expand(QCPRange(s.lane - kHalfLane, s.lane + kHalfLane));
    return range;
}

// Stages off screen are skipped, and the rest go to the painter as one list per colour. A stage
// narrower than a pixel still gets one, so a long run of tiny chunks reads as a filled lane.
void TimelineStages::draw(QCPPainter* painter) {
    QCPAxis* key = keyAxis();
    QCPAxis* value = valueAxis();
    if (!key || !value) return;
    const QCPRange visible = key->range();
    std::vector<QVector<QRectF>> rects(colours_.size());
    for (const Stage& s : stages_) {
        if (s.to < visible.lower || s.from > visible.upper || s.colour < 0 ||
            s.colour >= static_cast<int>(colours_.size()))
            continue;
        double x0 = key->coordToPixel(s.from), x1 = key->coordToPixel(s.to);
        if (x1 - x0 < 1) x1 = x0 + 1;
        const double y0 = value->coordToPixel(s.lane + kHalfLane), y1 = value->coordToPixel(s.lane - kHalfLane);
        rects[static_cast<std::size_t>(s.colour)].push_back(QRectF(QPointF(x0, y0), QPointF(x1, y1)).normalized());
    }
    for (std::size_t c = 0; c < colours_.size(); ++c) {
        painter->setBrush(colours_[c]);
        painter->setPen(QPen(colours_[c].darker(140), 0.5));
        painter->drawRects(rects[c]);
    }
}

void TimelineStages::drawLegendIcon(QCPPainter*, const QRectF&) const {
}  // the lanes' colours have legend entries of their own

}  // namespace tsui
