#include "panels/ReorderPanel.hpp"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "plots/DensityMapPlot.hpp"
#include "plots/PlotAxes.hpp"
#include "plots/PlotHint.hpp"
#include "plots/TitledPlot.hpp"
#include "views/ComboWidth.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// `sortValue`, where there is one, is what the CSV export and sorting take; without one they
// take the text (a change's cell had carried 0, and exported every change as 0: sweep 72b F1).
QTableWidgetItem* cell(const QString& text, std::optional<double> sortValue = std::nullopt) {
    auto* item = new QTableWidgetItem(text);
    if (sortValue) item->setData(Qt::UserRole, *sortValue);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// "−52%" / "+3.1%": the after side against the before side
std::optional<double> changePercent(double before, double after) {
    if (before <= 0) return std::nullopt;
    return 100.0 * (after - before) / before;
}

// Two significant digits in plain decimals ("−0.0087%", "+3.1%", "−52%"): "-8.7e-3%" read badly;
// a minus sign, not a hyphen, facing the plus.
QString change(double before, double after) {
    const std::optional<double> pct = changePercent(before, after);
    if (!pct) return QStringLiteral("–");
    const double a = std::fabs(*pct);
    const int decimals = a == 0 ? 0 : std::clamp(1 - static_cast<int>(std::floor(std::log10(a))), 0, 8);
    const QString digits = QString::number(a, 'f', decimals);
    return (*pct > 0 ? QStringLiteral("+") : *pct < 0 ? QStringLiteral("−") : QString()) + digits + QStringLiteral("%");
}

const tscope::FormatRow* rowOf(const tscope::ReorderSide& side, tscope::FormatKind kind) {
    for (const auto& r : side.storage)
        if (r.kind == kind && r.built) return &r;
    return nullptr;
}

}  // namespace

ReorderPanel::ReorderPanel(QWidget* parent) : Panel(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Relabel by"), this));
    method_ = new QComboBox(this);
    method_->setObjectName(QStringLiteral("reorderMethod"));
    method_->setProperty(kRemembered, true);
    for (auto m : {tscope::ReorderMethod::Lexi, tscope::ReorderMethod::BfsMcs, tscope::ReorderMethod::Degree, tscope::ReorderMethod::Random})
        method_->addItem(QString::fromLatin1(tscope::reorder_method_name(m)), static_cast<int>(m));
    method_->setToolTip(tr("lexi: Lexi-Order (doubly lexical rows of every unfolding); bfs-mcs: maximum cardinality search "
                           "over the tensor's hypergraph; degree: indices by descending nonzero count; random: shuffled "
                           "(the baseline that destroys locality)"));
    row->addWidget(method_);
    row->addWidget(new QLabel(tr("map over"), this));
    pair_ = new QComboBox(this);
    pair_->setObjectName(QStringLiteral("reorderPair"));
    sizeComboToText(pair_);
    row->addWidget(pair_);
    row->addWidget(new QLabel(tr("MTTKRP on"), this));
    for (auto kind : {tscope::FormatKind::HiCOO, tscope::FormatKind::CSF, tscope::FormatKind::BCSF, tscope::FormatKind::COO}) {
        auto* box = new QCheckBox(QString::fromLatin1(tscope::format_name(kind)), this);
        box->setChecked(kind != tscope::FormatKind::COO);
        box->setObjectName(QStringLiteral("reorderMttkrp") +
                           QString::fromLatin1(tscope::format_name(kind)).remove(u'-'));
        box->setProperty(kRemembered, true);
        row->addWidget(box);
        mttkrpFormats_.emplace_back(kind, box);
    }
    run_ = new QPushButton(tr("Compare"), this);
    run_->setObjectName(QStringLiteral("reorderRun"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setProperty(kCancelsWork, true);
    cancel_->setEnabled(false);
    row->addWidget(run_);
    row->addWidget(cancel_);
    row->addStretch(1);
    layout->addLayout(row);
    status_ = new QLabel(tr("Open a tensor, pick a method and press Compare: the file's order and the relabelled one side "
                            "by side."), this);
    status_->setObjectName(QStringLiteral("reorderStatus"));
    status_->setWordWrap(true);
    layout->addWidget(status_);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("reorderSplit"));
    auto* maps = new QSplitter(Qt::Horizontal, split);
    maps->setObjectName(QStringLiteral("reorderMapsSplit"));
    before_ = makeTitledPlot(maps, QStringLiteral("reorderBefore"), tr("File order"));
    after_ = makeTitledPlot(maps, QStringLiteral("reorderAfter"), tr("Relabelled"));
    maps->addWidget(before_);
    maps->addWidget(after_);
    split->addWidget(maps);
    auto* lower = new QSplitter(Qt::Horizontal, split);
    lower->setObjectName(QStringLiteral("reorderLowerSplit"));
    table_ = new QTableWidget(0, 7, lower);
    table_->setObjectName(QStringLiteral("reorderStorage"));
    // Headers of two lines and the note wrapped in the width left to it (whole in its tooltip too):
    // at the window's 1280 px the table had scrolled sideways, the note and the units out of
    // sight; cut at the table's edge, "128³ blocks 4,049,428 → …" hid the figure it is there for.
    table_->setHorizontalHeaderLabels({tr("format"), tr("bytes\nfile order"), tr("bytes\nrelabelled"), tr("change"),
                                       tr("units\nfile order"), tr("units\nrelabelled"), tr("what changed")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(6, QHeaderView::Stretch);
    table_->setWordWrap(true);
    table_->verticalHeader()->setMinimumSectionSize(
        table_->verticalHeader()->defaultSectionSize());  // one-line rows as before
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    setUpResultTable(table_);
    bars_ =
        makeTitledPlot(lower, QStringLiteral("reorderMttkrp"), tr("MTTKRP sweep: each mode's median, summed (omp)"));
    placeLegendAbove(bars_);  // inside the axes it could cover the tallest bars
    lower->addWidget(table_);
    lower->addWidget(bars_);
    lower->setStretchFactor(0, 3);  // the table's numbers before the chart's margins
    lower->setStretchFactor(1, 2);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(run_, &QPushButton::clicked, this, &ReorderPanel::compare);
    connect(cancel_, &QPushButton::clicked, this, &ReorderPanel::cancel);
    connect(&job_, &EngineJob::progress, this, [this](int permille, const QString& stage) {
        status_->setText(permille > 0 ? tr("%1… %2%").arg(stage).arg(permille / 10) : tr("%1…").arg(stage));
    });
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) {
        cancel_->setEnabled(false);
        if (job_.superseded()) return run_->setEnabled(canCompare());  // the new tensor's Ready stays
        status_->setText(tr("Failed: %1").arg(message));
        run_->setEnabled(canCompare());
        Q_EMIT failed(message);  // the window names the tab
    });
    connect(&job_, &EngineJob::cancelled, this, [this] {
        cancel_->setEnabled(false);
        if (job_.superseded()) return run_->setEnabled(canCompare());
        status_->setText(tr("Cancelled: the last comparison stays shown."));
        run_->setEnabled(canCompare());
    });
    connect(&job_, &EngineJob::idle, this, &Panel::idle);
    clearComparison();
}

QString ReorderPanel::oneModeReason() { return tr("Reordering compares two-mode maps: this tensor has one mode."); }

void ReorderPanel::setDataset(const DatasetPtr& dataset) {
    if (dataset != dataset_) job_.supersede();  // the last tensor's comparison stops, as other tabs' work does
    dataset_ = dataset;
    fillPairs();
    clearComparison();  // the last tensor's maps and times are not this one's
    if (!dataset_) return;
    const bool pairs = dataset_->tensor.order() >= 2;
    run_->setEnabled(canCompare());  // while the last comparison ends, Compare waits for it
    run_->setToolTip(pairs ? QString() : oneModeReason());
    status_->setText(pairs ? tr("Ready: %1. Pick a method and press Compare.").arg(dataset_->title) : oneModeReason());
}

void ReorderPanel::fillPairs() {
    pair_->clear();
    if (!dataset_) return;
    const int order = dataset_->tensor.order();
    for (int x = 0; x < order; ++x)
        for (int y = x + 1; y < order; ++y) pair_->addItem(tr("modes %1 × %2").arg(x + 1).arg(y + 1), QPoint(x, y));
}

void ReorderPanel::setMethod(tscope::ReorderMethod method) { method_->setCurrentIndex(method_->findData(static_cast<int>(method))); }

bool ReorderPanel::runOwnWork() {
    compare();
    return true;
}

void ReorderPanel::cancel() { job_.cancel(); }

void ReorderPanel::compare() {
    if (!dataset_ || job_.isBusy()) return;
    if (dataset_->tensor.order() < 2) {  // the window's banner too: a --run here is bad input (exit 2)
        status_->setText(oneModeReason());
        Q_EMIT failed(oneModeReason());
        return;
    }
    tscope::ReorderCompareRequest request;
    request.method = static_cast<tscope::ReorderMethod>(method_->currentData().toInt());
    const QPoint pair = pair_->currentData().toPoint();
    request.map_x = pair.x(), request.map_y = pair.y();
    for (const auto& [kind, box] : mttkrpFormats_)
        if (box->isChecked()) request.mttkrp_formats.push_back(kind);
    const DatasetPtr dataset = dataset_;
    run_->setEnabled(false), cancel_->setEnabled(true);
    status_->setText(tr("Comparing the file's order with %1…").arg(method_->currentText()));
    job_.setActivity(tr("comparing orders of %1").arg(dataset->title));
    job_.start([dataset, request](tscope::RunControl& control) {
        return std::make_shared<tscope::ReorderComparison>(tscope::compare_reordering(dataset->tensor, request, control));
    },
               [this, request, dataset](std::shared_ptr<tscope::ReorderComparison> c) { show(std::move(c), request, dataset); });
}

void ReorderPanel::clearComparison() {
    shown_.reset();
    const QString hint = dataset_ ? tr("Pick a method and press Compare") : tr("Open a tensor to compare its orders");
    for (QCustomPlot* map : {before_, after_}) {
        drawDensityMap(map, tscope::DensityMap{}, 0, 0, true, QString());
        showPlotHint(map, true, hint, false);
        map->replot();
    }
    setPlotTitle(after_, tr("Relabelled"));
    bars_->clearPlottables();
    showPlotHint(bars_, true, dataset_ ? tr("Tick formats and press Compare: each one's MTTKRP sweep, before and after")
                                       : tr("Open a tensor to time MTTKRP in both orders"));
    bars_->replot();
    table_->setRowCount(0);
}

void ReorderPanel::show(std::shared_ptr<tscope::ReorderComparison> c, tscope::ReorderCompareRequest request,
                        const DatasetPtr& of) {
    cancel_->setEnabled(false);
    run_->setEnabled(canCompare());
    if (of != dataset_) return;  // another tensor was opened meanwhile
    shown_ = std::move(c);
    const tscope::ReorderComparison& r = *shown_;
    const QString method = QString::fromLatin1(tscope::reorder_method_name(request.method));
    const tscope::CooTensor& t = dataset_->tensor;
    drawDensityMap(before_, r.before.map, t.dim(request.map_x), t.dim(request.map_y), true, tr("nonzeros"));
    drawDensityMap(after_, r.after.map, t.dim(request.map_x), t.dim(request.map_y), true, tr("nonzeros"));
    showPlotHint(before_, false, QString(), false), showPlotHint(after_, false, QString(), false);
    setPlotTitle(before_, tr("File order"));
    const bool lexi = request.method == tscope::ReorderMethod::Lexi;
    const bool fromDegree = r.relabelling.from_degree;
    const QString rounds = counted(r.relabelling.iterations, tr("round"), tr("rounds"));
    setPlotTitle(after_, !lexi        ? tr("Relabelled by %1").arg(method)
                         : fromDegree ? tr("Relabelled by lexi (%1 from the degree sort)").arg(rounds)
                                      : tr("Relabelled by lexi (%1 from the file order)").arg(rounds));
    before_->replot(), after_->replot();
    fillTable(r);
    drawBars(r, method);
    QString text = tr("%1 took %2.").arg(method, humanSeconds(r.relabelling.seconds));
    if (lexi)  // Lexi-Order ran from both starts and kept the one with fewer blocks
        text += QLatin1Char(' ') +
                tr("It ran from two starts and kept the one from the %1: %2 HiCOO blocks, where its run from the %4 "
                   "reached %3.")  // not the file order's own count, which follows (sweep 70c C9)
                    .arg(fromDegree ? tr("degree sort") : tr("file order"))
                    .arg(grouped(fromDegree ? r.relabelling.blocks_from_degree : r.relabelling.blocks_from_file))
                    .arg(grouped(fromDegree ? r.relabelling.blocks_from_file : r.relabelling.blocks_from_degree))
                    .arg(fromDegree ? tr("file order") : tr("degree sort"));
    if (r.before.hicoo_blocks && r.after.hicoo_blocks)
        text += QLatin1Char(' ') + tr("HiCOO blocks: %1 → %2 (%3).")
                                       .arg(grouped(*r.before.hicoo_blocks), grouped(*r.after.hicoo_blocks))
                                       .arg(change(double(*r.before.hicoo_blocks), double(*r.after.hicoo_blocks)));
    text += QLatin1Char(' ') + tr("Results in other tabs stay in the file's order.");
    status_->setText(text);
}

void ReorderPanel::fillTable(const tscope::ReorderComparison& c) {
    table_->setSortingEnabled(false);
    table_->setRowCount(0);
    for (const tscope::FormatRow& b : c.before.storage) {
        const tscope::FormatRow* a = rowOf(c.after, b.kind);
        if (!b.built || !a) continue;
        const int row = table_->rowCount();
        table_->insertRow(row);
        table_->setItem(row, 0, new QTableWidgetItem(QString::fromLatin1(tscope::format_name(b.kind))));
        table_->setItem(row, 1, cell(humanBytes(b.storage.bytes()), double(b.storage.bytes())));
        table_->setItem(row, 2, cell(humanBytes(a->storage.bytes()), double(a->storage.bytes())));
        table_->setItem(row, 3,
                        cell(change(double(b.storage.bytes()), double(a->storage.bytes())),
                             changePercent(double(b.storage.bytes()), double(a->storage.bytes()))));
        table_->setItem(row, 4, cell(grouped(b.storage.units()), double(b.storage.units())));
        table_->setItem(row, 5, cell(grouped(a->storage.units()), double(a->storage.units())));
        QString note;
        if (b.kind == tscope::FormatKind::HiCOO && c.before.hicoo_blocks && c.after.hicoo_blocks)
            note = tr("%1 blocks %2 → %3")  // "128³", the tensor's order, where "128ᴺ" left it to the reader
                       .arg(dataset_ ? powerLabel(128, dataset_->tensor.order()) : QStringLiteral("128ᴺ"),
                            grouped(*c.before.hicoo_blocks), grouped(*c.after.hicoo_blocks));
        if (b.kind == tscope::FormatKind::HLS && c.before.hls_dense_tiles && c.after.hls_dense_tiles)
            note = tr("dense 16³ tiles %1 → %2").arg(grouped(*c.before.hls_dense_tiles), grouped(*c.after.hls_dense_tiles));
        if (b.kind == tscope::FormatKind::COO) note = tr("the same: COO stores every nonzero however it is numbered");
        auto* noteItem = new QTableWidgetItem(note);
        noteItem->setToolTip(note);
        table_->setItem(row, 6, noteItem);
    }
}

void ReorderPanel::drawBars(const tscope::ReorderComparison& c, const QString& method) {
    bars_->clearPlottables();
    bars_->legend->setVisible(true);
    auto* group = new QCPBarsGroup(bars_);
    auto* before = new QCPBars(bars_->xAxis, bars_->yAxis);
    auto* after = new QCPBars(bars_->xAxis, bars_->yAxis);
    before->setName(tr("file order")), after->setName(tr("relabelled by %1").arg(method));
    before->setBrush(QColor(170, 170, 170)), after->setBrush(QColor(0, 114, 178));
    QStringList labels;
    double top = 0;
    for (const auto& [kind, seconds] : c.before.mttkrp_sweep_s) {
        double relabelled = 0;
        for (const auto& [k, s] : c.after.mttkrp_sweep_s)
            if (k == kind) relabelled = s;
        const double x = labels.size();
        before->addData(x, seconds), after->addData(x, relabelled);
        labels << QString::fromLatin1(tscope::format_name(kind));
        top = std::max({top, seconds, relabelled});
    }
    for (QCPBars* b : {before, after}) b->setWidth(0.35), b->setBarsGroup(group), b->setPen(Qt::NoPen);
    setCategoryAxis(bars_->xAxis, labels);
    bars_->xAxis->setRange(-0.6, std::max(0.6, labels.size() - 0.4));
    // in its unit ("2 ms"), as the other time axes; a sweep is each mode's median, summed
    setLinearAxis(bars_->yAxis, AxisUnit::Seconds);
    bars_->yAxis->setLabel(tr("time per sweep"));  // what a sweep is, in the title: the axis is short (sweep 74a F1)
    bars_->yAxis->setRange(0, std::max(1e-6, top * 1.1));
    showPlotHint(bars_, labels.isEmpty(), tr("No format was ticked for MTTKRP"));
    bars_->replot();
}

}  // namespace tsui
