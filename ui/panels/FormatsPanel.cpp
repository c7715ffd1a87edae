#include "panels/FormatsPanel.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QMessageBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QSplitter>
#include <QTableView>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <map>
#include <qcustomplot.h>

#include "plots/PlotAxes.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotHint.hpp"
#include "plots/PlotInspector.hpp"
#include "tscope/advisor/streamed_profile.hpp"
#include "tscope/error.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// Mode colours that stay apart for the colour-blind (Okabe-Ito).
const QColor kModeColours[] = {QColor(0, 114, 178), QColor(230, 159, 0), QColor(0, 158, 115), QColor(204, 121, 167),
                               QColor(86, 180, 233), QColor(213, 94, 0), QColor(240, 228, 66), QColor(0, 0, 0)};

enum Measure { Bytes, Units, RatioToCoo };
constexpr const char* kNoBarsMark = "formatWithoutBars";

// Reports one (format, mode) build of the survey as a step of the whole: the survey is run
// one row at a time so that the chart fills as each row arrives.
class StepControl : public tscope::RunControl {
public:
    StepControl(tscope::RunControl& whole, std::uint64_t step, std::uint64_t steps) : whole_(whole), step_(step), steps_(steps) {}
    void progress(std::uint64_t, std::uint64_t) override { whole_.progress(step_ + 1, steps_); }
    void stage(const std::string& name) override { whole_.stage(name); }
    bool cancelled() const override { return whole_.cancelled(); }  // where background work yields

private:
    tscope::RunControl& whole_;
    std::uint64_t step_, steps_;
};

// Every (format, mode) the survey builds, in the engine's survey order; formats that serve
// every mode once (their row says mode -1).
std::vector<std::pair<tscope::FormatKind, int>> surveySteps(int order) {
    std::vector<std::pair<tscope::FormatKind, int>> steps;
    for (tscope::FormatKind kind : tscope::available_formats()) {
        if (!tscope::format_is_per_mode(kind)) {
            steps.emplace_back(kind, 0);
            continue;
        }
        for (int mode : tscope::natural_modes(order)) steps.emplace_back(kind, mode);
    }
    return steps;
}

}  // namespace

FormatsPanel::FormatsPanel(QWidget* parent) : Panel(parent) {
    // two pages: the storage survey, and the advisor's ranking of the formats per kernel
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("formatsPages"));
    outer->addWidget(tabs_);
    tabs_->addTab(buildStoragePage(tabs_), tr("Storage"));
    advisor_ = new AdvisorView(tabs_);
    advisor_->setObjectName(QStringLiteral("advisorView"));
    tabs_->addTab(advisor_, tr("Advisor"));
    connectControls();
    // the survey is work nobody asked for: it runs on the background lane and pauses between
    // two builds while a benchmark or another run the user started goes on
    job_.setLane(Lane::Background);
    replot();  // the hint until the first row
}

// The storage page: what to show and the survey's progress above the chart, and under it the
// table beside the chosen row's arrays.
QWidget* FormatsPanel::buildStoragePage(QWidget* parent) {
    auto* page = new QWidget(parent);
    auto* layout = new QVBoxLayout(page);
    layout->addLayout(buildTopRow());
    auto* split = new QSplitter(Qt::Vertical, page);
    split->setObjectName(QStringLiteral("formatsSplit"));
    split->addWidget(buildPlot(split));
    auto* bottom = new QSplitter(Qt::Horizontal, split);
    bottom->setObjectName(QStringLiteral("formatsBottomSplit"));
    bottom->addWidget(buildTable(bottom));
    bottom->addWidget(buildArrays(bottom));
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    return page;
}

// The measure shown, the survey's status, progress and Cancel, and the CSV export.
QHBoxLayout* FormatsPanel::buildTopRow() {
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Show:"), this));
    measure_ = new QComboBox(this);
    measure_->setObjectName(QStringLiteral("formatsMeasure"));
    // short items, their detail in tooltips: the longest (402 px) had set both Formats pages'
    // width past a 1024-px screen, the Advisor's reasons scrolled aside (sweep 75a F14)
    measure_->addItems({tr("Bytes, log scale"), tr("Storage units, log scale"), tr("Ratio to COO's bytes, linear")});
    measure_->setItemData(Bytes, tr("Each format's bytes, with its real index widths"), Qt::ToolTipRole);
    measure_->setItemData(Units, tr("Array elements, as the papers count storage"), Qt::ToolTipRole);
    measure_->setItemData(RatioToCoo, tr("Each format's bytes over COO's: 64 MB and 100 MB look alike on a log scale, "
                                         "0.64× and 1.0× do not"),
                          Qt::ToolTipRole);
    top->addWidget(measure_);
    status_ = new QLabel(tr("Open a tensor to compare its storage formats."), this);
    status_->setWordWrap(true);  // a streamed tensor's line is long: unwrapped it widened the window past the screen
    top->addWidget(status_, 1);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(200);
    progress_->hide();
    top->addWidget(progress_);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setProperty(kCancelsWork, true);
    cancel_->hide();
    top->addWidget(cancel_);
    auto* exportCsv = new QPushButton(tr("Export CSV…"), this);
    exportCsv->setToolTip(tr("The table below, with raw byte counts"));
    top->addWidget(exportCsv);
    connect(exportCsv, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export formats"), QStringLiteral("formats.csv"), tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !writeCsv(*model_, path, &error)) QMessageBox::warning(this, tr("Export"), error);
    });
    return top;
}

QCustomPlot* FormatsPanel::buildPlot(QWidget* parent) {
    plot_ = new QCustomPlot(parent);
    plot_->setObjectName(QStringLiteral("formatsPlot"));
    plot_->setMinimumHeight(260);
    plot_->legend->setVisible(true);
    placeLegendAbove(plot_);  // inside the axis rect it covered the tallest (HOCSR) bars
    enablePlotExport(plot_);
    PlotInspector::attach(plot_, [this](QPointF pixel) { return describeBar(pixel); });
    return plot_;
}

// The survey's rows, sortable; a row chosen shows its arrays.
QTableView* FormatsPanel::buildTable(QWidget* parent) {
    model_ = new FormatTableModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(Qt::UserRole);
    table_ = new QTableView(parent);
    table_->setObjectName(QStringLiteral("formatsTable"));
    setUpResultTable(table_);
    table_->setModel(proxy);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // survey order until a click
    table_->setSortingEnabled(true);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // the reasons a format was not built wrap in the last column instead of running off it
    table_->horizontalHeader()->setSectionResizeMode(FormatTableModel::Status, QHeaderView::Stretch);
    table_->setWordWrap(true);
    // a row at most four lines tall, the rest of a long reason in its tooltip and the pane beside
    // it: JF17K's HOCSR reasons took twelve lines a row (sweep 73b #12)
    table_->verticalHeader()->setMaximumSectionSize(4 * table_->fontMetrics().lineSpacing() + 8);
    table_->setTextElideMode(Qt::ElideRight);
    connect(model_, &QAbstractItemModel::modelReset, table_, &QTableView::resizeRowsToContents);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, proxy](const QModelIndex& current) {
                if (current.isValid()) showArrays(proxy->mapToSource(current).row());
            });
    return table_;
}

// The chosen row's arrays: each one's elements, width, bytes and meaning.
QWidget* FormatsPanel::buildArrays(QWidget* parent) {
    auto* arraysBox = new QWidget(parent);
    auto* al = new QVBoxLayout(arraysBox);
    al->setContentsMargins(0, 0, 0, 0);
    arraysTitle_ = new QLabel(tr("Select a row to see its arrays."), arraysBox);
    arraysTitle_->setWordWrap(true);
    al->addWidget(arraysTitle_);
    arrays_ = new QTableWidget(0, 5, arraysBox);
    arrays_->setObjectName(QStringLiteral("formatArrays"));
    setUpResultTable(arrays_);
    arrays_->setHorizontalHeaderLabels({tr("array"), tr("elements"), tr("bytes each"), tr("bytes"), tr("meaning")});
    arrays_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    arrays_->verticalHeader()->hide();
    arrays_->horizontalHeader()->setStretchLastSection(true);
    arrays_->setWordWrap(true);  // the meaning column wraps rather than clips
    arrays_->horizontalHeader()->setSectionResizeMode(4, QHeaderView::Stretch);
    al->addWidget(arrays_, 1);
    return arraysBox;
}

// The controls', the advisor's and the job's signals.
void FormatsPanel::connectControls() {
    connect(advisor_, &AdvisorView::idle, this, [this] {
        if (!job_.isBusy()) Q_EMIT idle();
    });
    connect(advisor_, &AdvisorView::failed, this,
            [this](const QString& message) { Q_EMIT failed(tr("Advisor: %1").arg(message)); });
    connect(measure_, &QComboBox::currentIndexChanged, this, &FormatsPanel::replot);
    connect(cancel_, &QPushButton::clicked, &job_, &EngineJob::cancel);
    connect(&job_, &EngineJob::progress, progress_, &QProgressBar::setValue);
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) {
        if (!settle()) return;
        status_->setText(tr("Failed: see the message above."));
        Q_EMIT failed(message);
    });
    connect(&job_, &EngineJob::cancelled, this, [this] {
        if (!settle()) return;
        surveyed_ = true;  // the user stopped it: not again for this tensor
        status_->setText(tr("Cancelled: the chart shows the formats built before."));
    });
    connect(&job_, &EngineJob::idle, this, [this] {
        if (!advisor_->isBusy()) Q_EMIT idle();
    });
}

void FormatsPanel::setDataset(const DatasetPtr& dataset) {
    dataset_ = dataset;
    surveyed_ = false;
    survey_.reset();
    model_->setSurvey(nullptr, 0);
    arrays_->setRowCount(0);
    // a streamed tensor's survey is predicted, nothing built: no storage units, no advisor runs
    const bool streamed = dataset && dataset->streamed;
    if (auto* items = qobject_cast<QStandardItemModel*>(measure_->model())) items->item(Units)->setEnabled(!streamed);
    if (streamed && measure_->currentIndex() == Units) measure_->setCurrentIndex(Bytes);
    // nothing is built, so these stay empty: they had squeezed the reasons to nine lines (sweep 72b)
    table_->setColumnHidden(FormatTableModel::Units, streamed);
    table_->setColumnHidden(FormatTableModel::BuildSeconds, streamed);
    tabs_->setTabEnabled(tabs_->indexOf(advisor_), !streamed);
    tabs_->setTabToolTip(tabs_->indexOf(advisor_), streamed ? tr("The advisor times the formats it ranks: it needs the tensor in memory") : QString());
    replot();
    advisor_->setDataset(streamed ? DatasetPtr() : dataset);
    if (job_.isBusy()) {
        job_.cancel();  // settle() starts the survey of the new dataset
        return;
    }
    start();
}

void FormatsPanel::showEvent(QShowEvent* event) {
    Panel::showEvent(event);
    if (!surveyed_ && !job_.isBusy()) start();
}

// A streamed tensor's Formats work (the Advisor's Measure) cannot run: said in the window's
// banner, where a --run had done nothing and exited 0 and Ctrl+R had called the tab workless
// (sweep 75a F3).
bool FormatsPanel::runOwnWork() {
    if (dataset_ && dataset_->streamed) {
        Q_EMIT failed(
            tr("the Advisor's Measure builds and times the formats, so it needs the tensor in memory; this one "
               "is streamed (opened past the memory limit), and the Storage table predicts its formats instead"));
        return true;
    }
    tabs_->setCurrentWidget(advisor_);
    advisor_->measureWhenPredicted();
    return true;
}

void FormatsPanel::start() {
    if (!dataset_ || surveyed_) return;
    if (!isVisible()) {  // building every format takes the cores: only for someone looking
        status_->setText(tr("The formats are built when this tab is shown."));
        return;
    }
    const DatasetPtr dataset = dataset_;
    runningFor_ = dataset_;
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    if (dataset->streamed) {
        startPredicted();
        return;
    }
    status_->setText(tr("Building every format for every mode…"));
    auto partial = std::make_shared<std::vector<tscope::FormatRow>>();
    const auto arrived = job_.relay<tscope::FormatRow>([this, partial, dataset](tscope::FormatRow row) {
        if (dataset != dataset_) return;  // a survey being cancelled for a newer tensor
        partial->push_back(std::move(row));
        showRows(std::make_shared<const std::vector<tscope::FormatRow>>(*partial), false);
    });
    job_.start(
        [dataset, arrived](tscope::RunControl& control) {
            const auto steps = surveySteps(dataset->tensor.order());
            auto rows = std::make_shared<std::vector<tscope::FormatRow>>();
            control.stage("building formats");
            for (std::size_t i = 0; i < steps.size(); ++i) {
                StepControl step(control, i, steps.size());
                tscope::SurveyRequest request;
                request.formats = {steps[i].first};
                request.modes = {steps[i].second};
                for (tscope::FormatRow& row : tscope::survey_formats(dataset->tensor, request, step)) {
                    arrived(row);
                    rows->push_back(std::move(row));
                }
            }
            return SurveyPtr(std::move(rows));
        },
        [this](SurveyPtr rows) {
            if (!settle()) return;
            surveyed_ = true;
            showRows(std::move(rows), true);
        });
}

// A tensor too large to load: every format's storage predicted from counts gathered in passes
// over the file in parts (streamed_profile.hpp), nothing built.
void FormatsPanel::startPredicted() {
    const DatasetPtr dataset = dataset_;
    status_->setText(tr("Counting the formats' structure in passes over the file (it is not loaded)…"));
    job_.start(
        [dataset](tscope::RunControl& control) {
            const tscope::TensorProfile profile = [&] {
                try {
                    return tscope::profile_tsb(dataset->streamedFile, {}, dataset->partNnz, control);
                } catch (const tscope::SliceExceedsParts& e) {  // the parts are a quarter of the memory limit
                    throw tscope::InputError(
                        std::string(e.what()) +
                        " (start Tensorscope with a larger --memory-limit: parts are a quarter of it)");
                }
            }();
            return SurveyPtr(std::make_shared<std::vector<tscope::FormatRow>>(tscope::predicted_survey(profile, {})));
        },
        [this](SurveyPtr rows) {
            if (!settle()) return;
            surveyed_ = true;
            showRows(std::move(rows), true);
        });
}

bool FormatsPanel::settle() {
    progress_->hide();
    cancel_->hide();
    if (runningFor_ == dataset_) return true;
    start();  // a newer dataset arrived meanwhile: survey that one instead
    return false;
}

void FormatsPanel::showRows(SurveyPtr rows, bool complete) {
    const int selected = table_->currentIndex().isValid() ? table_->currentIndex().row() : 0;
    survey_ = std::move(rows);
    model_->setSurvey(survey_, cooBytes());
    replot();
    selectRow(selected);  // the arrays pane shows something from the first row on
    if (!complete) return;
    if (dataset_->streamed) {
        std::uint64_t predicted = 0, estimated = 0;
        for (const auto& r : *survey_) predicted += r.predicted, estimated += r.predicted && r.estimate;
        status_->setText(tr("%1 of %2 formats × modes predicted from counts over the file, nothing built (%3 estimated, marked ≈); "
                            "COO would hold %4.")
                             .arg(predicted)
                             .arg(survey_->size())
                             .arg(estimated)
                             .arg(humanBytes(cooBytes())));
        return;
    }
    std::uint64_t built = 0;
    for (const auto& r : *survey_) built += r.built;
    status_->setText(tr("%1 of %2 formats × modes built (a \"not built\" row says why); COO holds %3.")
                         .arg(built)
                         .arg(survey_->size())
                         .arg(humanBytes(dataset_->tensor.bytes())));
}

void FormatsPanel::selectRow(int row) {
    table_->selectRow(row);
    table_->setCurrentIndex(table_->model()->index(row, 0));
}

void FormatsPanel::showArrays(int surveyRow) {
    arrays_->setRowCount(0);
    if (!survey_ || surveyRow < 0 || surveyRow >= static_cast<int>(survey_->size())) return;
    const tscope::FormatRow& r = (*survey_)[static_cast<std::size_t>(surveyRow)];
    const QString which = r.mode < 0 ? tr("%1 (every mode)").arg(QString::fromLatin1(tscope::format_name(r.kind)))
                                     : tr("%1 for mode %2").arg(QString::fromLatin1(tscope::format_name(r.kind))).arg(r.mode + 1);
    if (r.predicted) {
        arraysTitle_->setText(tr("<b>%1</b>: %2%3 predicted by the storage model from %4 counts over the file; nothing is built, "
                                 "so there are no arrays to list.")
                                  .arg(which, r.estimate ? QStringLiteral("≈ ") : QString(), humanBytes(r.storage.bytes()),
                                       r.estimate ? tr("partly sketched") : tr("exact")));
        return;
    }
    if (!r.built) {
        arraysTitle_->setText(tr("%1: not built (%2).").arg(which, fromEngine(r.error)));
        return;
    }
    QStringList params;
    for (const auto& [k, v] : r.parameters) params << QStringLiteral("%1 %2").arg(QString::fromStdString(k), QString::fromStdString(v));
    arraysTitle_->setText(
        tr("<b>%1</b>: %2 in %3 arrays, built in %4%5")
            .arg(which, humanBytes(r.storage.bytes()))
            .arg(r.storage.arrays.size())
            .arg(humanSeconds(r.build_seconds))
            .arg(params.isEmpty() ? QString()
                                  : QStringLiteral(" (") + params.join(QStringLiteral(", ")) + QStringLiteral(")")));
    arrays_->setRowCount(static_cast<int>(r.storage.arrays.size()));
    for (std::size_t i = 0; i < r.storage.arrays.size(); ++i) {
        const tscope::ArrayInfo& a = r.storage.arrays[i];
        const QStringList cells = {QString::fromStdString(a.name), grouped(a.elements), QString::number(a.element_bytes), humanBytes(a.bytes()),
                                   QString::fromStdString(a.meaning)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 1 && c <= 3) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            arrays_->setItem(static_cast<int>(i), c, item);
        }
    }
    for (int c = 0; c < arrays_->columnCount() - 1; ++c) arrays_->resizeColumnToContents(c);
    arrays_->resizeRowsToContents();  // the meaning wraps within the pane's width
}

void FormatsPanel::replot() {
    plot_->clearPlottables();
    for (int i = plot_->itemCount() - 1; i >= 0; --i)  // the last survey's marks (the hint is an item too)
        if (plot_->item(i)->objectName() == QLatin1String(kNoBarsMark)) plot_->removeItem(i);
    const bool empty = !survey_ || survey_->empty();
    showPlotHint(plot_, empty, !dataset_           ? tr("Open a tensor to compare its storage formats")
                               : dataset_->streamed ? tr("Counting the formats' structure over the file: the bars appear when it is done")
                                                    : tr("Building the formats: the bars appear as each one is built"));
    if (empty) {
        plot_->replot();
        return;
    }
    const auto measure = static_cast<Measure>(measure_->currentIndex());
    // x positions: the formats in survey order
    std::vector<tscope::FormatKind> kinds;
    QStringList labels;
    for (const auto& r : *survey_)
        if (std::find(kinds.begin(), kinds.end(), r.kind) == kinds.end()) {
            kinds.push_back(r.kind);
            labels << QString::fromLatin1(tscope::format_name(r.kind));
        }
    setCategoryAxis(plot_->xAxis, labels);
    plot_->xAxis->setTickLabelRotation(30);
    plot_->xAxis->setLabel(tr("format"));
    // One bar series per mode, placed side by side at each format's tick (explicit offsets, so
    // a format with fewer bars keeps them on its own tick); formats that serve every mode get
    // one grey bar centred on the tick.
    const int order = dataset_ ? dataset_->tensor.order() : 3;
    const double slot = 0.8 / static_cast<double>(order);
    std::map<int, QCPBars*> series;
    double lo = 1e300, hi = 0;
    for (const auto& r : *survey_) {
        if (!r.built && !r.predicted) continue;
        QCPBars*& bars = series[r.mode];
        if (!bars) {
            bars = new QCPBars(plot_->xAxis, plot_->yAxis);
            bars->setName(r.mode < 0 ? tr("all modes (one copy)") : tr("mode %1").arg(r.mode + 1));
            const QColor c = r.mode < 0 ? QColor(120, 120, 120) : kModeColours[r.mode % 8];
            bars->setBrush(c);
            bars->setPen(QPen(c.darker(130)));
            bars->setWidth(r.mode < 0 ? 0.8 * 0.9 : slot * 0.9);
        }
        const double value = barValue(r);
        const auto tick = static_cast<double>(std::find(kinds.begin(), kinds.end(), r.kind) - kinds.begin());
        const double offset = r.mode < 0 ? 0.0 : (static_cast<double>(r.mode) - (order - 1) / 2.0) * slot;
        bars->addData(tick + offset, value);
        lo = std::min(lo, value);
        hi = std::max(hi, value);
    }
    if (measure == RatioToCoo) {
        setLinearAxis(plot_->yAxis, AxisUnit::Plain);
        plot_->yAxis->setLabel(tr("bytes ÷ COO's bytes (1 = as large as COO)"));
        plot_->yAxis->setRange(0, std::max(1.1, hi * 1.08));
    } else {
        setLogAxis(plot_->yAxis, measure == Units ? AxisUnit::Count : AxisUnit::Bytes);
        plot_->yAxis->setLabel(measure == Units ? tr("storage units (array elements of any width), log scale")
                                                : tr("bytes, log scale"));
        if (hi > 0) plot_->yAxis->setRange(lo / 2, hi * 2);  // the legend sits above, not in the data
        for (auto& [mode, bars] : series) setLogBarsBase(bars, lo / 2);
    }
    markFormatsWithoutBars(kinds);
    PlotInspector::of(plot_)->rememberHome();
    plot_->replot();
}

// A format with no bar at all says why at its tick, upright from the axis: an empty slot read as
// a format too small to draw (MM-CSF and HOCSR on a streamed tensor, sweep 72b F11).
void FormatsPanel::markFormatsWithoutBars(const std::vector<tscope::FormatKind>& kinds) {
    for (std::size_t tick = 0; tick < kinds.size(); ++tick) {
        const bool drawn = std::any_of(survey_->begin(), survey_->end(), [&](const tscope::FormatRow& r) {
            return r.kind == kinds[tick] && (r.built || r.predicted);
        });
        if (drawn) continue;
        auto* text = new QCPItemText(plot_);
        text->setObjectName(QLatin1String(kNoBarsMark));
        text->setText(dataset_ && dataset_->streamed ? tr("not predicted (table)") : tr("not built (table)"));
        text->setColor(QColor(110, 110, 110));
        QFont small = text->font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        text->setFont(small);
        text->setRotation(-90);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);  // upward from the axis
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setAxisRect(plot_->axisRect());
        text->position->setAxes(plot_->xAxis, plot_->yAxis);
        text->position->setCoords(static_cast<double>(tick), 0.97);
        text->setClipToAxisRect(true);
    }
}

std::uint64_t FormatsPanel::cooBytes() const {
    if (!dataset_) return 0;
    return dataset_->streamed ? dataset_->streamedBytes : dataset_->tensor.bytes();
}

double FormatsPanel::barValue(const tscope::FormatRow& r) const {
    switch (static_cast<Measure>(measure_->currentIndex())) {
    case Units: return static_cast<double>(r.storage.units());
    case RatioToCoo: return static_cast<double>(r.storage.bytes()) / static_cast<double>(std::max<std::uint64_t>(1, cooBytes()));
    case Bytes: break;
    }
    return static_cast<double>(r.storage.bytes());
}

QString FormatsPanel::describeBar(QPointF pixel) const {
    const auto hit = barAt(plot_, pixel);
    if (!hit || !survey_) return {};
    const QString format = categoryAt(plot_->xAxis, hit->key);
    for (const tscope::FormatRow& r : *survey_) {
        if ((!r.built && !r.predicted) || QString::fromLatin1(tscope::format_name(r.kind)) != format) continue;
        const QString mode = r.mode < 0 ? tr("every mode") : tr("mode %1").arg(r.mode + 1);
        if ((r.mode < 0 ? tr("all modes (one copy)") : tr("mode %1").arg(r.mode + 1)) != hit->bars->name()) continue;
        const double ratio = static_cast<double>(r.storage.bytes()) / static_cast<double>(std::max<std::uint64_t>(1, cooBytes()));
        if (r.predicted)
            return tr("%1, %2: %3%4 predicted (%5× COO) from %6 counts over the file; nothing built")
                .arg(format, mode, r.estimate ? QStringLiteral("≈ ") : QString(), humanBytes(r.storage.bytes()), shortNumber(ratio),
                     r.estimate ? tr("partly sketched") : tr("exact"));
        return tr("%1, %2: %3 (%4 storage units), %5× COO, built in %6")
            .arg(format, mode, humanBytes(r.storage.bytes()), grouped(r.storage.units()), shortNumber(ratio), humanSeconds(r.build_seconds));
    }
    return {};
}

}  // namespace tsui
