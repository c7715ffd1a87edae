#include "plots/PlotAxes.hpp"

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

#include "views/TextFormat.hpp"

namespace tsui {

namespace {

QString superscript(int n) {
    static const QChar digits[] = {QChar(0x2070), QChar(0x00B9), QChar(0x00B2), QChar(0x00B3), QChar(0x2074),
                                   QChar(0x2075), QChar(0x2076), QChar(0x2077), QChar(0x2078), QChar(0x2079)};
    QString out = n < 0 ? QString(QChar(0x207B)) : QString();
    for (const QChar c : QString::number(std::abs(n))) out += digits[c.digitValue()];
    return out;
}

QString unitLabel(double value, AxisUnit unit) {
    switch (unit) {
    case AxisUnit::Bytes: {  // "1 MB, 10 MB" on an axis, where humanBytes' one decimal read "1.0 MB" (sweep 72b)
        if (value < 0) return QString();
        QString s = humanBytes(static_cast<std::uint64_t>(std::llround(value)));
        return s.replace(QStringLiteral(".0 "), QStringLiteral(" "));
    }
    case AxisUnit::Seconds: return humanSeconds(value);
    case AxisUnit::Count:
    case AxisUnit::Plain: break;
    }
    return shortNumber(value);
}

}  // namespace

QString powerLabel(int base, int exponent) {
    if (exponent == 0) return QStringLiteral("1");
    return QString::number(base) + superscript(exponent);
}

QVector<double> LogTicker::createTickVector(double tickStep, const QCPRange& range) {
    if (range.lower <= 0 || range.upper / range.lower >= 100) return QCPAxisTickerLog::createTickVector(tickStep, range);
    QVector<double> ticks;
    const int first = static_cast<int>(std::floor(std::log10(range.lower)));
    const int last = static_cast<int>(std::ceil(std::log10(range.upper)));
    for (int e = first; e <= last; ++e)
        for (double m : {1.0, 2.0, 5.0}) ticks << m * std::pow(10.0, e);
    return ticks;
}

QString LogTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    const double exponent = std::log10(tick);
    const bool decade = std::fabs(exponent - std::round(exponent)) < 1e-9;
    // big decades of counts as powers of ten: 1,000,000,000 is too wide for a log axis
    if (unit_ == AxisUnit::Count && decade && tick >= 1e5) return powerLabel(10, static_cast<int>(std::lround(exponent)));
    return unitLabel(tick, unit_);
}

double IndexTicker::getTickStep(const QCPRange& range) {
    if (axis_ && axis_->orientation() == Qt::Horizontal && axis_->axisRect()) {
        const QFontMetrics metrics(axis_->tickLabelFont());
        const auto width = [&](double x) {
            return metrics.horizontalAdvance(getTickLabel(x, QLocale(), QChar('g'), 0));
        };
        const int widest = std::max(width(std::floor(range.lower)), width(std::ceil(range.upper))) +
                           metrics.horizontalAdvance(QStringLiteral("MM"));
        const int room = std::max(1, axis_->axisRect()->width() / std::max(1, widest));
        setTickCount(std::clamp(room - 1, 1, 5));  // about tickCount + 1 labels show
    }
    return std::max(1.0, std::round(QCPAxisTicker::getTickStep(range)));
}

QString IndexTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return tick < 0 ? QString::number(std::llround(tick)) : grouped(static_cast<std::uint64_t>(std::llround(tick)));
}

QString UnitTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (std::fabs(tick) < 1e-12) return QStringLiteral("0");
    return unitLabel(tick, unit_);
}

void setLogAxis(QCPAxis* axis, AxisUnit unit) {
    axis->setNumberFormat(QStringLiteral("g"));  // no 'b': QCustomPlot would redraw "8e-3" as 8·10⁻³
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<LogTicker>(new LogTicker(unit)));
}

void setLogBarsBase(QCPBars* bars, double axisLow) { bars->setBaseValue(axisLow * 1e-3); }

void setLinearAxis(QCPAxis* axis, AxisUnit unit) {
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setScaleType(QCPAxis::stLinear);
    axis->setTicker(QSharedPointer<UnitTicker>(new UnitTicker(unit)));
}

void setCategoryAxis(QCPAxis* axis, const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i) ticker->addTick(i, labels[i]);
    axis->setScaleType(QCPAxis::stLinear);
    axis->setTicker(ticker);
    axis->setSubTicks(false);
    axis->grid()->setVisible(false);
    axis->grid()->setZeroLinePen(Qt::NoPen);
    axis->setRange(-0.6, static_cast<double>(labels.size()) - 0.4);
}

QString categoryAt(QCPAxis* axis, double key) {
    auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker || ticker->ticks().isEmpty()) return {};
    const auto& ticks = ticker->ticks();
    auto best = ticks.constBegin();
    for (auto it = ticks.constBegin(); it != ticks.constEnd(); ++it)
        if (std::fabs(it.key() - key) < std::fabs(best.key() - key)) best = it;
    return best.value();
}

void placeLegendAbove(QCustomPlot* plot) {
    QCPLayoutGrid* grid = plot->plotLayout();
    if (plot->legend->layout() == grid) return;  // already there
    if (QCPLayoutInset* inset = plot->axisRect()->insetLayout(); inset->take(plot->legend)) inset->simplify();
    int row = 0, column = 0;
    for (int i = 0; i < grid->elementCount(); ++i)
        if (grid->elementAt(i) == plot->axisRect()) grid->indexToRowCol(i, row, column);
    grid->insertRow(row);  // directly above the data
    grid->addElement(row, column, plot->legend);
    grid->setRowStretchFactor(row, 0.001);  // as tall as its entries, no more
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(5);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setMargins(QMargins(4, 2, 4, 0));
    // An empty legend's maximum width (its margins, 8 px) capped the column it shares with the
    // axis rect: before the first run the data area shrank to a sliver. A maximum width that,
    // margins added, stays below QWIDGETSIZE_MAX counts as set and replaces that hint; the
    // height keeps its hint.
    plot->legend->setMaximumSize(QWIDGETSIZE_MAX / 2, QWIDGETSIZE_MAX);
    // Each name only as wide as it is: the legend's columns shared out the plot's whole width,
    // so two names sat at its two ends (the Advisor's "predicted" ... "measured"). With every
    // column at its widest the rest of the row stays empty at the right. Before each replot,
    // since the plots add and rename their graphs at will.
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            QCPAbstractLegendItem* item = plot->legend->item(i);
            if (!item) continue;
            item->setSizeConstraintRect(QCPLayoutElement::scrOuterRect);
            item->setMaximumSize(item->minimumOuterSizeHint().width(), QWIDGETSIZE_MAX);
        }
    });
}

void keepDataReadable(QCustomPlot* plot, int minHeight) {
    plot->axisRect()->setMinimumSize(0, minHeight);
    const int base = plot->minimumHeight();  // the widget's own minimum, which a set size overrides
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot, base] {
        // the widget asks for its layout's minimum (title, legend rows, axes, the data's height)
        plot->setMinimumHeight(std::max(base, plot->plotLayout()->minimumOuterSizeHint().height()));
        const int height = plot->axisRect()->height();  // the last layout's: close enough to the next
        if (height > 0) plot->yAxis->ticker()->setTickCount(std::clamp(height / 30, 2, 6));
    });
}

}  // namespace tsui
