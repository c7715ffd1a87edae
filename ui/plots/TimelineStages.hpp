// The Pipeline tab's chunks as one plottable: every stage (a copy in, a kernel, a copy out) a
// rectangle on its lane, drawn in a single pass per colour. One QCPItemRect per stage made a
// recording of 118,000 chunks take 72 s to draw and 88 s to close (sweep 64): QCustomPlot's
// items are QObjects, each laid out, clipped and deleted on its own.
#pragma once

#include <qcustomplot.h>

#include <vector>

namespace tsui {

class TimelineStages : public QCPAbstractPlottable {
public:
    struct Stage {
        double lane, from, to;  // the lane's value, the stage's start and end (keys)
        int colour;             // an index into the colours (the caller's kind of stage)
        int chunk, stream;      // what the caller's readout names it by
    };

    TimelineStages(QCPAxis* keyAxis, QCPAxis* valueAxis);
    // The stages and their colours (each drawn filled, with a darker outline).
    void setStages(std::vector<Stage> stages, std::vector<QColor> colours);
    std::size_t stageCount() const { return stages_.size(); }
    // The stage under `pixel`: on its lane, within 3 pixels along it (a stage narrower than a
    // pixel can still be pointed at), the narrowest where several are; nullptr where none is.
    const Stage* stageAt(QPointF pixel) const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    std::vector<Stage> stages_;
    std::vector<QColor> colours_;
};

}  // namespace tsui
