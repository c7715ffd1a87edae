// Axes that read well: decades and their 1-2-5 steps on log scales (colour bars included),
// whole 1-based indices on index axes, category axes without a zero line, and the legend in a
// row of its own above the data, where it cannot hide a bar. Labels use the one number format
// of views/TextFormat.hpp.
#pragma once

#include <qcustomplot.h>
#include <QPointer>
#include <QSharedPointer>
#include <QStringList>

namespace tsui {

// What the numbers on an axis count, for their labels.
enum class AxisUnit { Count, Bytes, Seconds, Plain };

// Log ticks at every decade; where the range spans less than two decades, also at 2 and 5 of
// each (a colour bar of 1..7 reads 1, 2, 5 rather than a lone 1). Labels in the unit's words
// (1 kB, 10 MB; 1 ms; 10⁶).
class LogTicker : public QCPAxisTickerLog {
public:
    explicit LogTicker(AxisUnit unit = AxisUnit::Count) : unit_(unit) {}

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    AxisUnit unit_;
};

// Whole-number ticks (no 2.5 on an index axis), labelled with thousands separators. Given its
// horizontal axis, it places no more ticks than their labels have room for: indices of a
// billion ran together on a streamed tensor's tile map (sweep 71b).
class IndexTicker : public QCPAxisTicker {
public:
    explicit IndexTicker(QCPAxis* axis = nullptr) : axis_(axis) {}

protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    QPointer<QCPAxis> axis_;
};

// Linear ticks labelled in the unit's words.
class UnitTicker : public QCPAxisTicker {
public:
    explicit UnitTicker(AxisUnit unit) : unit_(unit) {}

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    AxisUnit unit_;
};

// A log axis with LogTicker labels.
void setLogAxis(QCPAxis* axis, AxisUnit unit = AxisUnit::Count);
// Bars on a log value axis, whose lowest shown value is `axisLow`. QCPBars draws a bar from its
// base value to base + value, and a log axis has no 0 to start from: a base at the axis' bottom
// drew every bar too tall by that much (a count of 1 at 1.8). The base goes a thousand times
// lower, out of sight, where it adds at most a thousandth to a bar's height.
void setLogBarsBase(QCPBars* bars, double axisLow);
// A linear axis with UnitTicker labels.
void setLinearAxis(QCPAxis* axis, AxisUnit unit = AxisUnit::Plain);
// One labelled tick per category at 0, 1, 2...; no grid, no zero line (it read as an error
// whisker over the first bar), the range padded half a slot on each side.
void setCategoryAxis(QCPAxis* axis, const QStringList& labels);
// The label of the category tick nearest `key` ("" when there is none).
QString categoryAt(QCPAxis* axis, double key);
// Moves the legend out of the data into a row above the axis rect, its entries side by side.
void placeLegendAbove(QCustomPlot* plot);
// The data keeps at least `minHeight` px under a legend above it, however many names it
// holds, and the value axis as many ticks as its height has room for (one per 30 px, 2 to 6):
// five overlaid runs' names had left the fit curves 55 px, "0.06" and "0.05" written over
// each other (sweep 74a F13). Where the data needs the room, the tab scrolls.
void keepDataReadable(QCustomPlot* plot, int minHeight);
// "2⁹": powers of two (and of ten) short enough that neighbouring ticks stay apart.
QString powerLabel(int base, int exponent);

}  // namespace tsui
