#include "panels/DensityPanel.hpp"

#include <cstdint>

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "plots/DensityMapPlot.hpp"
#include "plots/PlotAxes.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotHint.hpp"
#include "plots/PlotInspector.hpp"
#include "plots/TitledPlot.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/tensor/streamed_density.hpp"
#include "views/ComboWidth.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// A fiber-length bin's label: its lengths where they are few ("2–3", "4–7"; "1, 2¹, 2²" had read
// as three kinds of number), the bin's first length as a power of two past that.
QString binLabel(std::size_t b, std::size_t bins) {
    if (b == 0) return QStringLiteral("1");
    if (bins <= 8) return QStringLiteral("%1–%2").arg(std::uint64_t{1} << b).arg((std::uint64_t{2} << b) - 1);
    return powerLabel(2, static_cast<int>(b));
}

QCustomPlot* makePlot(QWidget* parent, const QString& name, const QString& title) {
    return makeTitledPlot(parent, name, title, QSize(320, 220));
}

// "12–15" for a bin of several indices, "12" for one (1-based, as in the file).
QString indexSpan(std::uint64_t first, std::uint64_t last) {
    return first == last ? grouped(first) : QStringLiteral("%1–%2").arg(grouped(first), grouped(last));
}

}  // namespace

DensityPanel::DensityPanel(QWidget* parent) : Panel(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Slices and fibers of mode:"), this));
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("densityMode"));
    sizeComboToText(mode_);
    top->addWidget(mode_);
    sorted_ = new QCheckBox(tr("sorted by size"), this);
    sorted_->setObjectName(QStringLiteral("densitySorted"));
    sorted_->setProperty(kRemembered, true);
    top->addWidget(sorted_);
    top->addSpacing(20);
    top->addWidget(new QLabel(tr("Map over modes:"), this));
    pair_ = new QComboBox(this);
    pair_->setObjectName(QStringLiteral("densityPair"));
    top->addWidget(pair_);
    status_ = new QLabel(tr("Open a tensor to see how its nonzeros spread."), this);
    top->addWidget(status_, 1);
    // a streamed tensor's counts are a pass over its file: minutes for a large one, which the
    // user may stop (Esc too); Density had no Cancel (sweep 72b F10)
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("densityCancel"));
    cancel_->setProperty(kCancelsWork, true);
    cancel_->setEnabled(false);
    top->addWidget(cancel_);
    layout->addLayout(top);

    auto* grid = new QGridLayout;
    slices_ = makePlot(this, QStringLiteral("densitySlices"), tr("Nonzeros per slice"));
    fibers_ = makePlot(this, QStringLiteral("densityFibers"), tr("Fiber lengths"));
    map_ = makePlot(this, QStringLiteral("densityMap"), tr("Nonzeros over two modes"));
    tiles_ = makePlot(this, QStringLiteral("densityTiles"), tr("HLS 16³ tiles: fullest tile per column"));
    mapCaption_ = new QLabel(this);
    mapCaption_->setWordWrap(true);
    tileCaption_ = new QLabel(this);
    tileCaption_->setWordWrap(true);
    auto* mapBox = new QVBoxLayout;
    mapBox->addWidget(map_, 1);
    mapBox->addWidget(mapCaption_);
    auto* tileBox = new QVBoxLayout;
    tileBox->addWidget(tiles_, 1);
    tileBox->addWidget(tileCaption_);
    grid->addWidget(slices_, 0, 0);
    grid->addWidget(fibers_, 0, 1);
    grid->addLayout(mapBox, 1, 0);
    grid->addLayout(tileBox, 1, 1);
    layout->addLayout(grid, 1);
    attachReadouts();
    // four empty frames with 0-5 axes said nothing before a tensor (every other tab's plot says
    // what to do, sweep 66b C2)
    for (QCustomPlot* plot : {slices_, fibers_, map_, tiles_})
        showPlotHint(plot, true, tr("Open a tensor to see how its nonzeros spread"), false);

    connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
        if (!mode_->signalsBlocked()) start();
    });
    connect(pair_, &QComboBox::currentIndexChanged, this, [this] {
        if (!pair_->signalsBlocked()) start();
    });
    connect(sorted_, &QCheckBox::toggled, this, &DensityPanel::drawSlices);
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) {
        if (!settle()) return;
        status_->setText(tr("Failed: see the message above."));
        // the plots say so too: they had gone on saying "Open a tensor" (sweep 71b)
        for (QCustomPlot* plot : {slices_, fibers_, map_, tiles_}) {
            plot->clearPlottables();
            showPlotHint(plot, true, tr("Not counted: %1").arg(message));
            plot->replot();
        }
        Q_EMIT failed(message);
    });
    connect(cancel_, &QPushButton::clicked, this, [this] { job_.cancel(); });
    connect(&job_, &EngineJob::progress, this, [this](int permille, const QString& stage) {
        status_->setText(permille > 0 ? tr("Counting (%1)… %2%").arg(stage).arg(permille / 10)
                                      : tr("Counting (%1)…").arg(stage));
    });
    connect(&job_, &EngineJob::idle, this, [this] { cancel_->setEnabled(job_.isBusy()); });
    connect(&job_, &EngineJob::cancelled, this, [this] {
        if (settle()) status_->setText(tr("Cancelled."));
    });
    connect(&job_, &EngineJob::idle, this, &Panel::idle);
}

// What lies under the cursor, in the file's 1-based indices.
void DensityPanel::attachReadouts() {
    PlotInspector::attach(slices_, [this](QPointF pixel) -> QString {
        const auto hit = pointAt(slices_, pixel);
        if (!hit) return {};
        const auto key = static_cast<std::uint64_t>(std::llround(hit->key));
        const QString count = tr("%1 nonzeros").arg(grouped(static_cast<std::uint64_t>(hit->value)));
        return sorted_->isChecked() ? tr("slice ranked %1: %2").arg(grouped(key), count)
                                    : tr("mode-%1 slice %2: %3").arg(result_.mode + 1).arg(grouped(key)).arg(count);
    });
    PlotInspector::attach(fibers_, [this](QPointF pixel) -> QString {
        const auto hit = barAt(fibers_, pixel);
        if (!hit) return {};
        const int b = static_cast<int>(std::lround(hit->key));
        const std::uint64_t first = std::uint64_t{1} << b, last = (std::uint64_t{1} << (b + 1)) - 1;
        return tr("%1 mode-%2 fibers of length %3").arg(grouped(static_cast<std::uint64_t>(hit->value))).arg(result_.mode + 1).arg(indexSpan(first, last));
    });
    PlotInspector::attach(
        map_, [this](QPointF pixel) { return describeCell(map_, result_.map, false, pixel, tr("nonzeros")); });
    PlotInspector::attach(tiles_, [this](QPointF pixel) {
        return result_.tiles ? describeCell(tiles_, result_.tiles->map, true, pixel,
                                            tr("of its 4,096 cells filled in the fullest tile"))
                             : QString();
    });
}

QString DensityPanel::describeCell(QCustomPlot* plot, const tscope::DensityMap& m, bool tiles, QPointF pixel,
                                   const QString& what) const {
    const auto hit = cellAt(plot, pixel);
    if (!hit || !dataset_) return {};
    // keys across are mode_y's bins, values down mode_x's (as drawMap lays them out)
    // the tile map counts its bins in indices too: 16 times a tile count had named spans 16
    // times too wide (as its drawing had been, sweep 70c C8)
    const std::uint64_t across = m.cells_y, down = m.cells_x;
    const auto span = [&](int bin, std::uint64_t per, int mode) {
        const std::uint64_t first = static_cast<std::uint64_t>(bin) * per + 1;
        return indexSpan(first, std::min(first + per - 1, dataset_->tensor.dim(mode)));
    };
    const QString where = tr("mode-%1 %2 × mode-%3 %4")
                              .arg(m.mode_x + 1)
                              .arg(span(hit->valueCell / cellSplit(m.bins_x), down, m.mode_x))
                              .arg(m.mode_y + 1)
                              .arg(span(hit->keyCell / cellSplit(m.bins_y), across, m.mode_y));
    const double v = std::isnan(hit->value) ? 0.0 : hit->value;
    const QString value =
        !tiles ? grouped(static_cast<std::uint64_t>(v)) : QStringLiteral("%1%").arg(shortNumber(100.0 * v));
    return tr("%1: %2 %3").arg(where, value, what);
}

QString DensityPanel::mapCaption() const { return mapCaption_->text(); }
QString DensityPanel::tileCaption() const { return tileCaption_->text(); }

void DensityPanel::fillModeChoices() {
    QSignalBlocker a(mode_), b(pair_);
    mode_->clear();
    pair_->clear();
    if (!dataset_) return;
    const int order = dataset_->tensor.order();
    for (int m = 0; m < order; ++m) mode_->addItem(tr("mode %1 (%2)").arg(m + 1).arg(grouped(dataset_->tensor.dim(m))), m);
    for (int x = 0; x < order; ++x)
        for (int y = x + 1; y < order; ++y) pair_->addItem(tr("%1 × %2").arg(x + 1).arg(y + 1), QPoint(x, y));
    pair_->setEnabled(pair_->count() > 0);  // order 1: no pair to choose (an empty choice had stood there)
}

void DensityPanel::setDataset(const DatasetPtr& dataset) {
    dataset_ = dataset;
    fillModeChoices();
    start();
}

void DensityPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) start();
}

void DensityPanel::start() {
    if (!dataset_) return;
    stale_ = true;
    if (!isVisible()) {
        status_->setText(tr("Counts start when this tab is shown."));
        return;
    }
    if (job_.isBusy()) {  // settle() restarts with the current choices
        pending_ = true;
        job_.cancel();
        return;
    }
    const DatasetPtr dataset = dataset_;
    runningFor_ = dataset_;
    const int mode = std::max(0, mode_->currentData().toInt());
    const QPoint pair = pair_->currentData().toPoint();
    status_->setText(tr("Counting…"));
    cancel_->setEnabled(true);
    job_.start([dataset, mode, pair](tscope::RunControl& control) {
                   return dataset->streamed ? countStreamed(*dataset, mode, pair, control) : count(dataset->tensor, mode, pair, control);
               },
               [this](Result r) {
                   if (settle()) showCounts(std::move(r));
               });
}

DensityPanel::Result DensityPanel::count(const tscope::CooTensor& t, int mode, QPoint pair, tscope::RunControl& control) {
    Result r;
    r.mode = mode, r.mapX = pair.x(), r.mapY = pair.y();
    // the non-empty slices alone: a mode of 10^11 indices had been refused (an 8-byte count per slice)
    r.slices = tscope::nonempty_slice_counts(t, mode);
    r.sliceDim = t.dim(mode);
    if (t.order() >= 2) r.map = tscope::density_map(t, r.mapX, r.mapY, 256, control);
    if (t.order() == 3) {
        try {  // a shape HLS cannot tile is the tile map's note, not the end of the other three plots
            r.tiles = std::make_shared<tscope::TileMap>(tscope::hls_tile_map(t, r.mapX, r.mapY, 78, 256, control));
        } catch (const tscope::InputError& e) {
            r.tileNote = QObject::tr("No tile map: %1. The map over two modes (left) shows how its nonzeros cluster.")
                             .arg(QString::fromStdString(e.what()));
        }
    } else  // an order-1 tensor has no map over two modes to point to (the note had pointed to it)
        r.tileNote =
            QObject::tr("No tile map: HLS cuts order-3 tensors into 16³ tiles, and this tensor has order %1.%2")
                .arg(t.order())
                .arg(t.order() >= 2 ? QObject::tr(" The map over two modes (left) shows how its nonzeros cluster.")
                                    : QString());
    return r;
}

DensityPanel::Result DensityPanel::countStreamed(const Dataset& dataset, int mode, QPoint pair, tscope::RunControl& control) {
    Result r;
    r.mode = mode, r.mapX = pair.x(), r.mapY = pair.y();
    tscope::StreamedDensity s = tscope::stream_tsb_density(dataset.streamedFile, mode, r.mapX, r.mapY, 256, dataset.partNnz, control);
    keepNonEmptySlices(r, std::move(s.slice_counts));
    r.map = std::move(s.map);
    if (s.tiles)
        r.tiles = std::make_shared<tscope::TileMap>(std::move(*s.tiles));
    else
        r.tileNote = QObject::tr(
                         "No tile map for this tensor, read in parts (it is larger than the memory a tensor may take): "
                         "%1. The slices and the map (left) are exact.")
                         .arg(QString::fromStdString(s.tiles_unavailable));
    return r;
}

void DensityPanel::keepNonEmptySlices(Result& r, std::vector<std::uint64_t> counts) {
    r.sliceDim = counts.size();
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (counts[i]) r.slices.emplace_back(i, counts[i]);
}

bool DensityPanel::settle() {
    if (!pending_ && runningFor_ == dataset_) return true;
    pending_ = false;
    start();
    return false;
}

void DensityPanel::showCounts(Result r) {
    result_ = std::move(r);
    stale_ = false;
    status_->setText(QString());
    for (QCustomPlot* plot : {slices_, fibers_, map_, tiles_}) showPlotHint(plot, false, QString(), false);
    drawSlices();
    drawFibers();
    drawMapOrSayWhyNot();
    if (result_.tiles) {
        const tscope::TileMap& tm = *result_.tiles;
        tiles_->show();
        tileCaption_->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        tileCaption_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
        // the colours reach at least a dense tile's fill: where every tile held one nonzero, the
        // fullest (1/4096) had been the brightest yellow, read as full (sweep 73b)
        const double dense = static_cast<double>(tm.threshold) / 4096.0;
        // a short scale title: "(dense from 0.019)" made it longer than a short window's map,
        // cut at both ends (sweep 74a F4); the caption's "≥ 78 of 4096 cells" says it, and in
        // the caption it had cost a line at 1024 px (sweep 74c N1)
        drawMap(tiles_, tm.map, false, tr("fill of the fullest tile"), dense);
        tileCaption_->setText(
            tr("%1; %2 dense (≥ %3 of 4096 cells) holding %4 nonzeros (%5%). "
               "One pixel: %6 × %7 indices.")
                .arg(counted(static_cast<qint64>(tm.tiles), tr("non-empty tile"), tr("non-empty tiles")),
                     grouped(tm.dense_tiles))
                .arg(tm.threshold)
                .arg(grouped(tm.dense_nnz))
                .arg(dataset_->nonzeros()
                         ? 100.0 * static_cast<double>(tm.dense_nnz) / static_cast<double>(dataset_->nonzeros())
                         : 0,
                     0, 'f', 1)
                .arg(grouped(tm.map.cells_x), grouped(tm.map.cells_y)));
    } else {
        tiles_->clearPlottables();
        tiles_->hide();  // a blank grid would suggest an empty tensor: the reason takes its place
        tileCaption_->setAlignment(Qt::AlignCenter);
        tileCaption_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
        tileCaption_->setText(result_.tileNote);
    }
}

namespace {

// a × b index pairs, past 2^64 in engineering notation (the product had wrapped to 0)
QString cellsText(std::uint64_t a, std::uint64_t b) {
    if (a && b > UINT64_MAX / a) return shortNumber(static_cast<double>(a) * static_cast<double>(b));
    return grouped(a * b);
}

}  // namespace

void DensityPanel::drawMapOrSayWhyNot() {
    if (dataset_->tensor.order() < 2) {  // an empty grid would suggest an empty tensor
        map_->clearPlottables();
        map_->hide();
        mapCaption_->setText(
            tr("No map over two modes: this tensor has one mode. The slices show its nonzeros by index."));
        return;
    }
    map_->show();
    drawMap(map_, result_.map, true, tr("nonzeros"));
    const tscope::DensityMap& m = result_.map;
    mapCaption_->setText(
        tr("Mode %1 down, mode %2 across; one pixel holds %3 × %4 = %5 (brightest: %6).")
            .arg(m.mode_x + 1)
            .arg(m.mode_y + 1)
            .arg(grouped(m.cells_x), grouped(m.cells_y),
                 cellsText(m.cells_x, m.cells_y) + (m.cells_x == 1 && m.cells_y == 1 ? tr(" cell") : tr(" cells")))
            .arg(counted(static_cast<qint64>(m.max_value), tr("nonzero"), tr("nonzeros"))));
}

void DensityPanel::drawSlices() {
    slices_->clearPlottables();
    if (result_.sliceDim == 0) {
        slices_->replot();
        return;
    }
    const bool sorted = sorted_->isChecked();
    QVector<double> x, y;
    x.reserve(static_cast<qsizetype>(result_.slices.size())), y.reserve(static_cast<qsizetype>(result_.slices.size()));
    if (sorted) {
        std::vector<std::uint64_t> counts;
        counts.reserve(result_.slices.size());
        for (const auto& s : result_.slices) counts.push_back(s.second);
        std::sort(counts.begin(), counts.end(), std::greater<>());
        for (std::size_t k = 0; k < counts.size(); ++k)
            x << static_cast<double>(k + 1), y << static_cast<double>(counts[k]);
    } else {
        for (const auto& [i, n] : result_.slices)
            x << static_cast<double>(i + 1), y << static_cast<double>(n);  // 1-based, as in the file
    }
    auto* g = slices_->addGraph();
    g->setData(x, y, true);
    g->setPen(QPen(QColor(0, 114, 178)));
    g->setLineStyle(sorted ? QCPGraph::lsLine : QCPGraph::lsImpulse);
    slices_->xAxis->setScaleType(QCPAxis::stLinear);
    slices_->xAxis->setTicker(QSharedPointer<IndexTicker>(new IndexTicker(slices_->xAxis)));
    if (sorted) setLogAxis(slices_->xAxis, AxisUnit::Count);
    setLogAxis(slices_->yAxis, AxisUnit::Count);
    slices_->xAxis->setLabel(sorted ? tr("slice rank (largest first), log scale") : tr("mode-%1 index").arg(result_.mode + 1));
    slices_->yAxis->setLabel(tr("nonzeros, log scale"));
    slices_->rescaleAxes();
    const double slices = static_cast<double>(result_.sliceDim);
    if (sorted)
        slices_->xAxis->setRange(0.8, slices * 1.25);
    else
        slices_->xAxis->setRange(0.5, slices + 0.5);  // every slice, 1 to I, in view
    // the tallest slice inside the frame, and a slice of one nonzero a line the eye finds (from a
    // bottom of 0.8 it was a stub of a few pixels); few slices each get a dot too, so that one at
    // the frame's edge, or alone in a long mode, shows (a tensor of such slices looked empty, sweep 72b F6)
    if (x.size() <= 300) g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    // below 0.5 a tick "0.5" showed; the top from the tallest slice itself, since rescaling a
    // graph of equal values widened it to 100 where every slice held 1 (sweep 73b)
    double tallest = 1;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) tallest = std::max(tallest, it->value);
    slices_->yAxis->setRange(0.6, std::max(2.0, tallest * 1.5));
    PlotInspector::of(slices_)->rememberHome();
    slices_->replot();
}

void DensityPanel::drawFibers() {
    fibers_->clearPlottables();
    if (!dataset_ || result_.mode >= static_cast<int>(dataset_->stats.modes.size())) {
        fibers_->replot();
        return;
    }
    // the load's statistics already hold the fiber lengths' log2 histogram: bin b counts
    // fibers of length in [2^b, 2^(b+1))
    // a streamed tensor's lengths: counted exactly a slice of mode 1 at a time, from a sample of
    // fibers (mode 1's), or not at all
    const auto m = static_cast<std::size_t>(result_.mode);
    const bool exact = !dataset_->streamed || (m < dataset_->fibersExact.size() && dataset_->fibersExact[m]);
    const bool sampled = dataset_->streamed && m < dataset_->fibersSampled.size() && dataset_->fibersSampled[m];
    if (!exact && !sampled) {
        fibers_->xAxis->setLabel(tr("mode-%1 fiber lengths: not counted (read in parts, not loaded)").arg(result_.mode + 1));
        fibers_->replot();
        return;
    }
    const auto& hist = dataset_->stats.modes[static_cast<std::size_t>(result_.mode)].fiber_nnz.log2_histogram;
    auto* bars = new QCPBars(fibers_->xAxis, fibers_->yAxis);
    bars->setBrush(QColor(230, 159, 0, 200));
    bars->setPen(QPen(QColor(230, 159, 0).darker(140)));
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setWidth(0.8);
    // one label per bin while they fit, every second or fourth past that: "2¹⁰" labels
    // written side by side ran together ("2^92^102^11")
    const std::size_t every = hist.size() <= 12 ? 1 : hist.size() <= 24 ? 2 : 4;
    QStringList labels;
    double top = 1;
    for (std::size_t b = 0; b < hist.size(); ++b) {
        if (hist[b]) bars->addData(static_cast<double>(b), static_cast<double>(hist[b]));
        top = std::max(top, static_cast<double>(hist[b]));
        labels << (b % every == 0 ? binLabel(b, hist.size()) : QString());
    }
    setCategoryAxis(fibers_->xAxis, labels);
    fibers_->xAxis->setLabel(sampled ? tr("mode-%1 fiber length (log₂ bins), estimated from a sample of its fibers").arg(result_.mode + 1)
                                     : tr("mode-%1 fiber length (log₂ bins)").arg(result_.mode + 1));
    setLogAxis(fibers_->yAxis, AxisUnit::Count);
    fibers_->yAxis->setLabel(tr("fibers, log scale"));
    fibers_->yAxis->setRange(0.8, top * 2);
    setLogBarsBase(bars, 0.8);
    PlotInspector::of(fibers_)->rememberHome();
    fibers_->replot();
}

void DensityPanel::drawMap(QCustomPlot* plot, const tscope::DensityMap& m, bool logScale, const QString& what,
                           double scaleTop) {
    drawDensityMap(plot, m, dataset_->tensor.dim(m.mode_x), dataset_->tensor.dim(m.mode_y), logScale, what, scaleTop);
}

}  // namespace tsui
