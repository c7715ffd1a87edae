#include "plots/RooflinePlot.hpp"

#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <qcustomplot.h>

#include "plots/LabelPlacement.hpp"
#include "plots/LegendColumns.hpp"
#include "plots/PlotAxes.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotHint.hpp"
#include "plots/PlotInspector.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

const QColor kBackendColours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c)};

// A format's marker: with the backend's colour, one point series per format and backend tells
// the formats apart (with a colour per backend alone, an unlabelled CSF point sat among COO's
// and read as COO, sweep 66b M1).
const QCPScatterStyle::ScatterShape kFormatShapes[] = {
    QCPScatterStyle::ssDisc,        QCPScatterStyle::ssSquare,     QCPScatterStyle::ssTriangle,
    QCPScatterStyle::ssDiamond,     QCPScatterStyle::ssCross,      QCPScatterStyle::ssTriangleInverted,
    QCPScatterStyle::ssPlus,        QCPScatterStyle::ssStar,       QCPScatterStyle::ssCircle,
    QCPScatterStyle::ssCrossSquare, QCPScatterStyle::ssPlusCircle, QCPScatterStyle::ssPeace,
    QCPScatterStyle::ssCrossCircle};

constexpr int kPointSize = 8;  // a run's marker, in pixels

bool onGpu(const tscope::BenchResult& r) { return r.backend == tscope::Backend::Cuda; }

// A run the chart can place: it ran and has a positive intensity and rate (log axes).
bool placeable(const tscope::BenchResult& r) { return r.ran && r.intensity > 0 && r.gflops > 0; }

// One device's roof: the bandwidth and peak of its rows (the same for every row of a run).
struct Roof {
    double gbps = 0, peak = 0;
    QString peakSource;
    double gathers = 0, gatherGbps = 0;  // GFLOP/s at the gather bound (GPU MTTKRP / SpTTM rows)
};

// The rate a row's flops would run at if its factor-row gathers were all its time: flops over
// gather_bound_s. It is the kernel's flops per gathered byte times the gather rate, the same for
// every row of one kernel and rank (MTTKRP: 3 flops per 4 gathered bytes).
double gatherRoof(const tscope::BenchResult& r) {
    return r.gather_bound_s > 0 ? r.gflops * r.median_s / r.gather_bound_s : 0;
}

QString pointLabel(const tscope::BenchResult& r, bool severalModes) {
    QString s = QStringLiteral("%1/%2").arg(QString::fromLatin1(tscope::format_name(r.format)),
                                            QString::fromLatin1(tscope::backend_name(r.backend)));
    if (!r.variant.empty()) s += QStringLiteral(" [%1]").arg(QString::fromStdString(r.variant));
    if (!r.path.empty()) s += QStringLiteral(" (%1)").arg(QString::fromStdString(r.path));
    if (severalModes) s += QObject::tr(" m%1").arg(r.mode + 1);
    return s;
}

// The roofline's point labels: one per group of points that lie together. A label per point
// piles up unreadably; one per format/backend, at its first point, left a mode that ran apart
// from the others unnamed (an MM-CSF diamond at half the others' GFLOP/s, sweep 72b). So a
// format/backend's points are grouped where they lie together, a group named with its modes
// where the series has several ("MM-CSF/omp m2" beside "m1,3"), and groups of several series on
// one spot share a label ("COO, CSF/omp m2": SpTV's formats, planned alike, coincide).
struct PlaceLabel {
    QString text;
    double intensity, gflops;
};

// Within `decades` of each other both ways (the GFLOP/s one and a half times as far): a
// series' modes group within 0.1 (26% in intensity), series share a label only within 0.03,
// where their marks overlap (HLS and ALTO a fifth apart had been named as one).
bool together(double x1, double y1, double x2, double y2, double decades) {
    return std::fabs(std::log10(x1 / x2)) < decades && std::fabs(std::log10(y1 / y2)) < 1.5 * decades;
}

std::vector<PlaceLabel> placeLabelsOf(const std::vector<tscope::BenchResult>& results) {
    struct Group {
        QString format, suffix;  // "CSF", "/omp" (and its variant)
        double intensity, gflops;
        QStringList modes;
        QString modesText;
    };
    std::vector<Group> groups;
    for (const tscope::BenchResult& r : results) {
        if (!placeable(r)) continue;
        const QString format = QString::fromLatin1(tscope::format_name(r.format));
        const QString suffix = pointLabel(r, false).mid(format.size());
        const auto near = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
            return g.format == format && g.suffix == suffix &&
                   together(g.intensity, g.gflops, r.intensity, r.gflops, 0.1);
        });
        if (near != groups.end())
            near->modes << QString::number(r.mode + 1);
        else
            groups.push_back({format, suffix, r.intensity, r.gflops, {QString::number(r.mode + 1)}, {}});
    }
    for (Group& g : groups)
        if (std::count_if(groups.begin(), groups.end(),
                          [&](const Group& x) { return x.format == g.format && x.suffix == g.suffix; }) > 1)
            g.modesText = QObject::tr(" m%1").arg(g.modes.join(QLatin1Char(',')));
    std::vector<PlaceLabel> labels;
    std::vector<bool> placed(groups.size(), false);
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (placed[i]) continue;
        // the groups on this spot, by what follows their format: "COO, CSF" + "/omp m2"
        std::vector<std::pair<QString, QStringList>> parts;
        for (std::size_t j = i; j < groups.size(); ++j) {
            if (placed[j] ||
                !together(groups[i].intensity, groups[i].gflops, groups[j].intensity, groups[j].gflops, 0.03))
                continue;
            placed[j] = true;
            const QString tail = groups[j].suffix + groups[j].modesText;
            auto part = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == tail; });
            if (part == parts.end())
                parts.push_back({tail, {groups[j].format}});
            else
                part->second << groups[j].format;
        }
        QStringList text;
        for (const auto& [tail, formats] : parts) text << formats.join(QStringLiteral(", ")) + tail;
        labels.push_back({text.join(QStringLiteral("; ")), groups[i].intensity, groups[i].gflops});
    }
    return labels;
}

// A point's figures and how near it came to its bounds: the copy bound, and on the GPU the L2
// time of its row gathers, with MM-CSF's atomic adds where it has them.
QString pointText(const tscope::BenchResult& r, const QString& label) {
    QString s = QObject::tr("%1: %2 flop/B, %3 GFLOP/s").arg(label, shortNumber(r.intensity), shortNumber(r.gflops));
    if (r.share_of_bound > 0) s += QObject::tr(", %1% of the copy bound").arg(shortNumber(100 * r.share_of_bound));
    if (r.gather_bound_s > 0)
        s += (r.add_bytes ? QObject::tr(", %1% of its L2 time for row gathers and atomic adds")
                          : QObject::tr(", %1% of its L2 time for row gathers"))
                 .arg(shortNumber(100 * r.share_of_gather_bound));
    return s;
}

// The data's extent, in intensity (x) and GFLOP/s (y).
struct Extent {
    double xlo = HUGE_VAL, xhi = 0, ylo = HUGE_VAL, yhi = 0;
};

// Each device's roofs from the rows that ran (false the CPU, true the GPU), and the rows' extent.
std::map<bool, Roof> roofsOf(const std::vector<tscope::BenchResult>& results, Extent& e) {
    std::map<bool, Roof> roofs;
    for (const tscope::BenchResult& r : results) {
        if (!placeable(r)) continue;
        Roof& roof = roofs[onGpu(r)];
        roof.gbps = std::max(roof.gbps, r.copy_gbps);
        if (r.peak_gflops > roof.peak)
            roof.peak = r.peak_gflops, roof.peakSource = QString::fromStdString(r.peak_source);
        // a row with atomic adds in its bound (MM-CSF) has a roof of its own, lower: not this line's
        if (r.add_bytes == 0 && gatherRoof(r) > roof.gathers)
            roof.gathers = gatherRoof(r), roof.gatherGbps = r.gather_gbps;
        e.xlo = std::min(e.xlo, r.intensity), e.xhi = std::max(e.xhi, r.intensity);
        e.ylo = std::min(e.ylo, r.gflops), e.yhi = std::max(e.yhi, r.gflops);
    }
    return roofs;
}

// A roof from (x0, y0) to (x1, y1), named in the legend.
QCPGraph* roofLine(QCustomPlot* plot, const QString& name, const QPen& pen, double x0, double y0, double x1,
                   double y1) {
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setPen(pen);
    g->addData(x0, y0);
    g->addData(x1, y1);
    return g;
}

// What the line under the chart says beyond each roof's source.
QStringList notesOn(const std::vector<tscope::BenchResult>& results) {
    QStringList notes;
    if (std::any_of(results.begin(), results.end(), [](const tscope::BenchResult& r) {
            return r.kernel == tscope::KernelKind::SpTV && r.backend == tscope::Backend::Omp;
        }))  // sweep 70c C16: four formats' rows looked like four kernels
        notes << QObject::tr(
            "SpTV on omp: COO, CFB, HOCFS-CSR and CSF are planned into one loop over fiber starts, columns and "
            "values, so their points differ by their plans' arrays alone; HOCSR reads every row's offsets, as "
            "hocfs Alg. 4 does");
    // The flops are the kernel's count on coordinates (MTTKRP 3 nnz R): a tree that shares a
    // product over a fiber does fewer, so its point may pass the peak (sweep 70c C5)
    notes << QObject::tr(
        "flops as COO counts them (MTTKRP 3·nnz·R), so a format that shares products along its fibers "
        "does fewer and its point can stand above the peak");
    return notes;
}

}  // namespace

QStringList RooflinePlot::pointTexts() const {
    QStringList texts;
    for (const Point& p : drawn_) texts << p.text;
    return texts;
}

RooflinePlot::RooflinePlot(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("rooflinePlot"));
    plot_->setMinimumHeight(240);
    plot_->legend->setVisible(true);
    placeLegendAbove(plot_);
    plot_->setMinimumWidth(360);        // the roofs' long names do not set it
    fitLegendColumnsToWidth(plot_, 2);  // two a row where they fit
    setLogAxis(plot_->xAxis, AxisUnit::Plain);
    setLogAxis(plot_->yAxis, AxisUnit::Plain);
    plot_->xAxis->setLabel(tr("arithmetic intensity (flop per minimum byte)"));
    plot_->yAxis->setLabel(tr("GFLOP/s"));
    enablePlotExport(plot_);
    PlotInspector::attach(plot_, [this](QPointF pixel) -> QString {
        const auto hit = pointAt(plot_, pixel);
        if (!hit) return {};
        for (const Point& p : drawn_)
            if (p.graph == hit->graph && p.intensity == hit->key && p.gflops == hit->value)
                return p.text;
        return hit->graph->name();  // a roof
    });
    layout->addWidget(plot_, 1);
    // the labels' places depend on the axes' pixels, known once each replot has laid the plot out
    connect(plot_, &QCustomPlot::afterLayout, this, &RooflinePlot::placeLabelItems);
    sources_ = new QLabel(this);
    sources_->setObjectName(QStringLiteral("rooflineSources"));
    sources_->setWordWrap(true);
    // its text comes from recordings too: a word longer than the plot (a 3,000-character peak
    // source) is cut at the edge rather than widening the window to 21,896 px
    sources_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    sources_->setMinimumWidth(1);
    layout->addWidget(sources_);
    setResults({});
}

void RooflinePlot::setResults(const std::vector<tscope::BenchResult>& results) {
    plot_->clearGraphs();
    plot_->clearItems();
    points_.clear(), bandwidth_.clear(), peaks_.clear(), gathers_.clear(), labels_.clear(), drawn_.clear();
    labelItems_.clear(), leaders_.clear();
    Extent e;
    const std::map<bool, Roof> roofs = roofsOf(results, e);
    showPlotHint(plot_, roofs.empty(), tr("Run a kernel (press Run) to place it on the roofline"));
    if (roofs.empty()) {
        sources_->clear();
        plot_->replot();
        return;
    }
    // the ridge points (peak / bandwidth) and the roofs themselves stay in view
    for (const auto& [gpu, roof] : roofs) {
        if (roof.gbps > 0 && roof.peak > 0) e.xhi = std::max(e.xhi, roof.peak / roof.gbps);
        e.yhi = std::max(e.yhi, roof.peak);
    }
    e.xlo /= 4, e.xhi *= 4, e.ylo /= 4, e.yhi *= 2;
    QStringList sources;
    for (const auto& [gpu, roof] : roofs) {
        const QString device = gpu ? tr("GPU") : tr("CPU");
        const QColor ink = gpu ? QColor(0x55, 0x55, 0x55) : QColor(0x22, 0x22, 0x22);
        if (roof.gbps > 0) {
            bandwidth_.push_back(
                roofLine(plot_, tr("%1 copy bandwidth %2 GB/s (measured)").arg(device, shortNumber(roof.gbps)),
                         QPen(ink, 1.5, gpu ? Qt::DashDotLine : Qt::SolidLine), e.xlo, roof.gbps * e.xlo, e.xhi,
                         roof.gbps * e.xhi));
            e.ylo = std::min(e.ylo, roof.gbps * e.xlo);
        }
        if (roof.peak > 0)
            peaks_.push_back(
                roofLine(plot_,
                         tr("%1 peak %2 GFLOP/s (%3)")
                             .arg(device, shortNumber(roof.peak), roof.peakSource.section(QLatin1Char(':'), 0, 0)),
                         QPen(ink, 1.5, Qt::DashLine), e.xlo, roof.peak, e.xhi, roof.peak));
        if (roof.gathers > 0)  // flat: a factor row per nonzero whatever the format's bytes
            gathers_.push_back(roofLine(plot_,
                                        tr("%1 L2 gathers %2 GFLOP/s (a row per nonzero at %3 GB/s, measured)")
                                            .arg(device, shortNumber(roof.gathers), shortNumber(roof.gatherGbps)),
                                        QPen(QColor(0x99, 0x66, 0x00), 1.5, Qt::DotLine), e.xlo, roof.gathers, e.xhi,
                                        roof.gathers));
        sources << tr("%1: bandwidth from a copy measured in the same run; peak %2; minimum bytes with values %3")
                       .arg(device, roof.peak > 0 ? roof.peakSource : tr("not known (%1)").arg(roof.peakSource),
                            gpu ? tr("in fp32, as the device holds them") : tr("as the host stores them"));
    }
    sources_->setText((sources + notesOn(results)).join(QStringLiteral(". ")) + QLatin1Char('.'));
    drawPoints(results);
    addLabelItems(results);
    plot_->xAxis->setRange(e.xlo, e.xhi);
    plot_->yAxis->setRange(e.ylo, e.yhi);
    refitLegendColumns(plot_);  // the roofs' names just changed
    plot_->replot();
}

// A series of points per format and backend, a colour per backend and a shape per format.
void RooflinePlot::drawPoints(const std::vector<tscope::BenchResult>& results) {
    std::set<int> modes;
    for (const tscope::BenchResult& r : results)
        if (placeable(r)) modes.insert(r.mode);
    std::map<tscope::Backend, std::size_t> colours;
    std::map<tscope::FormatKind, std::size_t> shapes;
    std::map<QString, QCPGraph*> series;  // by format/backend
    for (const tscope::BenchResult& r : results) {
        if (!placeable(r)) continue;
        QCPGraph*& g = series[pointLabel(r, false)];
        if (!g) {
            const QColor colour =
                kBackendColours[colours.emplace(r.backend, colours.size()).first->second % std::size(kBackendColours)];
            const auto shape =
                kFormatShapes[shapes.emplace(r.format, shapes.size()).first->second % std::size(kFormatShapes)];
            g = plot_->addGraph();
            g->setName(pointLabel(r, false));
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(shape, QPen(colour, 1.5), colour, kPointSize));
            g->removeFromLegend();  // its name is written beside its first point: a legend of every series took the plot's room
            points_.push_back(g);
        }
        g->addData(r.intensity, r.gflops);
        const QString label = pointLabel(r, modes.size() > 1);
        labels_ << label;
        drawn_.push_back({g, r.intensity, r.gflops, pointText(r, label)});
    }
}

// The labels beside the points, placed at each layout (placeLabelItems).
void RooflinePlot::addLabelItems(const std::vector<tscope::BenchResult>& results) {
    for (const PlaceLabel& place : placeLabelsOf(results)) {
        auto* text = new QCPItemText(plot_);
        text->setText(place.text);
        text->position->setCoords(place.intensity, place.gflops);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);  // until placeLabelItems()
        text->setPadding(QMargins(7, 0, 0, 0));
        QFont small = text->font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        text->setFont(small);
        labelItems_.push_back(text);
    }
}

void RooflinePlot::placeLabelItems() {
    if (labelItems_.empty()) return;
    const auto pixel = [this](double x, double y) {
        return QPointF(plot_->xAxis->coordToPixel(x), plot_->yAxis->coordToPixel(y));
    };
    std::vector<QPointF> points;
    for (const Point& p : drawn_) points.push_back(pixel(p.intensity, p.gflops));
    std::vector<LabelToPlace> labels;
    for (QCPItemText* text : labelItems_) {
        const QFontMetricsF metrics(text->font());
        const QRectF size = metrics.boundingRect(QRectF(), Qt::TextDontClip | text->textAlignment(), text->text());
        labels.push_back({pixel(text->position->key(), text->position->value()), size.size()});
    }
    const std::vector<LabelPlace> places =
        tsui::placeLabels(labels, points, kPointSize / 2.0, plot_->axisRect()->rect());
    for (QCPItemLine* line : leaders_) plot_->removeItem(line);
    leaders_.clear();
    for (std::size_t i = 0; i < labelItems_.size(); ++i) {
        labelItems_[i]->setPositionAlignment(places[i].alignment);
        labelItems_[i]->setPadding(places[i].padding);
        if (places[i].away) leaders_.push_back(leaderLine(labels[i].anchor, places[i].box));
    }
}

// A thin grey line from a point to the nearest edge of its label, drawn under the points.
QCPItemLine* RooflinePlot::leaderLine(QPointF point, const QRectF& box) {
    auto* line = new QCPItemLine(plot_);
    line->setLayer(QStringLiteral("grid"));
    line->setPen(QPen(QColor(150, 150, 150), 1));
    line->setClipToAxisRect(true);
    line->start->setType(QCPItemPosition::ptAbsolute);
    line->end->setType(QCPItemPosition::ptAbsolute);
    line->start->setCoords(point);
    line->end->setCoords(std::clamp(point.x(), box.left(), box.right()),
                         std::clamp(point.y(), box.top(), box.bottom()));
    return line;
}

}  // namespace tsui
