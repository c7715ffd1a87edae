#include "plots/RankBarsPlot.hpp"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>

#include "plots/LegendColumns.hpp"
#include "plots/PlotAxes.hpp"
#include "plots/TitledPlot.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

RankBarsPlot::RankBarsPlot(QCustomPlot* plot) : plot_(plot) {
    auto* group = new QCPBarsGroup(plot_);
    nnz_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    volume_ = new QCPBars(plot_->xAxis, plot_->yAxis2);
    nnz_->setName(QObject::tr("nonzeros (left)"));
    volume_->setName(QObject::tr("factor rows sent + received per iteration (right)"));
    nnz_->setBrush(QColor(0, 114, 178)), nnz_->setPen(Qt::NoPen);
    volume_->setBrush(QColor(230, 159, 0)), volume_->setPen(Qt::NoPen);
    for (QCPBars* b : {nnz_, volume_}) b->setWidth(0.38), b->setBarsGroup(group);
    plot_->yAxis2->setVisible(true);
    // counts with thousands separators; the x labels carry no 'b' number format, under which
    // QCustomPlot redrew "707e-6 s" as "707·10" with a raised "-6 s" (sweep 71b)
    setLinearAxis(plot_->yAxis, AxisUnit::Count);
    setLinearAxis(plot_->yAxis2, AxisUnit::Count);
    plot_->xAxis->setNumberFormat(QStringLiteral("g"));
    plot_->yAxis->setLabel(QObject::tr("nonzeros"));
    plot_->yAxis2->setLabel(QObject::tr("rows per iteration"));
    plot_->xAxis->setLabel(QObject::tr("MPI rank"));
    relabel_ = QObject::connect(plot_, &QCustomPlot::beforeReplot, plot_, [this] { label(); });
    // the legend in a row of its own above the axes, as the other charts have it: over the bars
    // it hid the tallest ones, and in a row under them its frame was cut at the chart's foot
    // (sweep 72b)
    plot_->legend->setVisible(true);
    placeLegendAbove(plot_);
    fitLegendColumnsToWidth(plot_, 2);
}

namespace {

// The smallest of 1, 2, 5, 10, 20, 50... that is at least `n`: labels at round rank numbers.
std::size_t roundStep(double n) {
    for (std::size_t decade = 1;; decade *= 10)
        for (std::size_t m : {1, 2, 5})
            if (static_cast<double>(m * decade) >= n) return m * decade;
}

}  // namespace

RankBarsPlot::~RankBarsPlot() { QObject::disconnect(relabel_); }

void RankBarsPlot::show(const QString& title, const std::vector<RankShare>& ranks) {
    ranks_ = ranks;
    QVector<double> x, nnz, volume;
    double top = 0, topVolume = 0;
    for (std::size_t q = 0; q < ranks.size(); ++q) {
        x << static_cast<double>(q);
        nnz << ranks[q].nnz;
        volume << ranks[q].rowsSent + ranks[q].rowsReceived;
        top = std::max(top, ranks[q].nnz), topVolume = std::max(topVolume, volume.back());
    }
    nnz_->setData(x, nnz);
    volume_->setData(x, volume);
    plot_->xAxis->setRange(-0.6, static_cast<double>(ranks.size()) - 0.4);
    plot_->yAxis->setRange(0, std::max(1.0, top * 1.1));
    plot_->yAxis2->setRange(0, std::max(1.0, topVolume * 1.1));
    setPlotTitle(plot_, title);
    plot_->replot();
}

// One label a rank ran together from about 16 ranks on a 1200-pixel window, and into a black bar
// at 1000.
void RankBarsPlot::label() {
    const QFontMetrics metrics(plot_->xAxis->tickLabelFont());
    int widest = 0;
    for (const RankShare& r : ranks_)
        widest = std::max(widest, metrics.horizontalAdvance(QObject::tr("MPI %1").arg(humanSeconds(r.commSeconds))));
    const double perRank =
        std::max(100, plot_->axisRect()->width()) / std::max<double>(1, static_cast<double>(ranks_.size()));
    const std::size_t every = roundStep((widest + 16) / perRank);
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    // the rank's time in MPI calls under its number: waiting shows here too
    for (std::size_t q = 0; q < ranks_.size(); q += every)
        ticks->addTick(static_cast<double>(q),
                       QObject::tr("%1\nMPI %2").arg(q).arg(humanSeconds(ranks_[q].commSeconds)));
    plot_->xAxis->setTicker(ticks);
    plot_->xAxis->setLabel(every == 1 ? QObject::tr("MPI rank")
                                      : QObject::tr("MPI rank (one in %1 labelled)").arg(every));
}

}  // namespace tsui
