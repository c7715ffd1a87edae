#include "panels/DecompositionPanel.hpp"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>
#include <limits>
#include <optional>

#include "plots/LegendColumns.hpp"
#include "plots/PlotAxes.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotHint.hpp"
#include "plots/PlotInspector.hpp"
#include "plots/TitledPlot.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/decomp/faster_tucker.hpp"
#include "tscope/decomp/tucker_hooi.hpp"
#include "tscope/error.hpp"
#include "views/ComboWidth.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

const QColor kRunColours[] = {QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115), QColor(204, 121, 167),
                              QColor(230, 159, 0), QColor(86, 180, 233), QColor(0, 0, 0)};

// What a run's work hands back: whether it converged before its last iteration, and for CPD
// what it spent once before the first (the dataset's load time is the read part).
struct RunEnd {
    bool converged = false;
    bool atLimit = false;  // CPD, Tucker: the iteration cap stopped it, the fit still moving
    std::optional<CpdSetup> setup;
    double baselineTestRmse = std::numeric_limits<double>::quiet_NaN();  // FasterTucker's mean predictor
};

// The split's parts, bottom to top of each stack, in Okabe-Ito colours (distinct under the
// common colour-vision deficiencies); grey is the unattributed rest.
struct SplitPart {
    const char* name;
    QColor colour;
};
const SplitPart kSetupParts[] = {{QT_TRANSLATE_NOOP("tsui::DecompositionPanel", "read (load)"), QColor(86, 180, 233)},
                                 {QT_TRANSLATE_NOOP("tsui::DecompositionPanel", "build formats"), QColor(0, 114, 178)},
                                 {QT_TRANSLATE_NOOP("tsui::DecompositionPanel", "upload to GPU"), QColor(0, 158, 115)}};
const SplitPart kIterParts[] = {{QT_TRANSLATE_NOOP("tsui::DecompositionPanel", "MTTKRP"), QColor(213, 94, 0)},
                                {QT_TRANSLATE_NOOP("tsui::DecompositionPanel", "dense steps"), QColor(230, 159, 0)},
                                {QT_TRANSLATE_NOOP("tsui::DecompositionPanel", "fit"), QColor(204, 121, 167)},
                                {QT_TRANSLATE_NOOP("tsui::DecompositionPanel", "rest"), QColor(170, 170, 170)}};

// A CPD fit this low says little to a newcomer (0.03 on MovieLens at rank 8, sweep 66b A11):
// whether it is the data or the settings, and what to try.
constexpr double kLowFit = 0.2;

QString lowFitHint(const DecompRun& r) {
    if (r.method != tscope::DecompMethod::Cpd || r.iterations.empty()) return {};
    const double fit = r.iterations.back().fit;
    if (!(fit < kLowFit)) return {};  // NaN too
    return QCoreApplication::translate("tsui::DecompositionPanel",
                                       "A fit of %1 is low: sparse data such as ratings often fits a low rank poorly. "
                                       "A higher rank, the nvecs start, more starts or more iterations may raise it.")
        .arg(QString::number(fit, 'f', 3));
}

// FasterTucker's last test RMSE against always predicting the training mean (the dotted line).
QString baselineSentence(const DecompRun& r) {
    const double last = r.iterations.back().test_rmse;
    const QString base =
        QCoreApplication::translate("tsui::DecompositionPanel",
                                    "Always predicting the training mean scores a test RMSE of %1 (dotted)")
            .arg(shortNumber(r.baselineTestRmse));
    if (std::isnan(last)) return base + QLatin1Char('.');
    return base + (last < r.baselineTestRmse
                       ? QCoreApplication::translate("tsui::DecompositionPanel", "; the model's %1 is below it.")
                       : QCoreApplication::translate(
                             "tsui::DecompositionPanel",
                             "; the model's %1 is not below it: it has learnt nothing a constant would not."))
                      .arg(shortNumber(last));
}

// Seconds in the unit that keeps three digits readable: "1.23 s", "45.6 ms", "789 µs".
QString secondsText(double s) {
    if (s >= 1 || s <= 0) return shortNumber(s) + QStringLiteral(" s");
    if (s >= 1e-3) return shortNumber(s * 1e3) + QStringLiteral(" ms");
    return shortNumber(s * 1e6) + QStringLiteral(" µs");
}

// The mean of one part over a run's iterations, skipping those that did not measure it.
double meanOf(const std::vector<tscope::IterationReport>& its, double tscope::IterationReport::*part) {
    double sum = 0;
    int n = 0;
    for (const auto& it : its)
        if (!std::isnan(it.*part)) sum += it.*part, ++n;
    return n > 0 ? sum / n : 0.0;
}

QCustomPlot* makePlot(QWidget* parent, const QString& name, const QString& title) {
    QCustomPlot* plot = makeTitledPlot(parent, name, title);
    plot->legend->setVisible(true);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    return plot;
}

}  // namespace

DecompositionPanel::DecompositionPanel(QWidget* parent) : Panel(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buildRunRow());
    layout->addLayout(buildViewRow());
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("decompSplit"));
    buildCharts(split);
    split->addWidget(buildTable(split));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 1);
    layout->addWidget(split, 1);
    gpu_ = tscope::query_gpu();
    setGpuCount(gpu_.available ? gpu_.count : 0);
    replotTimer_ = new QTimer(this);
    replotTimer_->setSingleShot(true);
    connect(replotTimer_, &QTimer::timeout, this, &DecompositionPanel::replot);
    connectControls();
    methodChanged();
    replot();
}

// The first row: the method and its settings, the backend, Run and Cancel.
QHBoxLayout* DecompositionPanel::buildRunRow() {
    auto* row = new QHBoxLayout;
    method_ = new QComboBox(this);
    method_->setObjectName(QStringLiteral("decompMethod"));
    method_->setProperty(kRemembered, true);
    method_->setToolTip(tr("decompose --method"));
    method_->addItem(tr("CPD-ALS"), static_cast<int>(tscope::DecompMethod::Cpd));
    method_->addItem(tr("Tucker-HOOI"), static_cast<int>(tscope::DecompMethod::Tucker));
    method_->addItem(tr("FasterTucker (SGD)"), static_cast<int>(tscope::DecompMethod::FasterTucker));
    row->addWidget(method_);
    row->addWidget(new QLabel(tr("rank"), this));
    rank_ = new QSpinBox(this);
    rank_->setObjectName(QStringLiteral("decompRank"));
    rank_->setProperty(kRemembered, true);
    rank_->setRange(1, 512);
    rank_->setValue(defaultRank(tscope::DecompMethod::Cpd));
    rank_->setToolTip(tr("decompose --rank: CPD's components, Tucker's core edge, FasterTucker's core"));
    row->addWidget(rank_);
    row->addWidget(new QLabel(tr("iterations"), this));
    iters_ = new QSpinBox(this);
    iters_->setObjectName(QStringLiteral("decompIterations"));
    iters_->setProperty(kRemembered, true);
    iters_->setRange(1, 10000);
    iters_->setValue(20);
    iters_->setToolTip(tr("decompose --iters: the most iterations (epochs for FasterTucker)"));
    row->addWidget(iters_);
    format_ = new QComboBox(this);
    format_->setToolTip(tr("CPD's MTTKRP format, decompose --format: those the chosen backend runs MTTKRP on"));
    row->addWidget(format_);
    cpdInit_ = new QComboBox(this);
    cpdInit_->setObjectName(QStringLiteral("decompCpdInit"));
    cpdInit_->addItem(tr("random start"), static_cast<int>(tscope::CpdInit::Random));
    cpdInit_->addItem(tr("nvecs start"), static_cast<int>(tscope::CpdInit::Nvecs));
    cpdInit_->setProperty(kRemembered, true);
    cpdInit_->setToolTip(
        tr("CPD's starting factors, decompose --init: random (seeded), or nvecs, each unfolding's "
           "leading left singular vectors, computed from the nonzeros"));
    row->addWidget(cpdInit_);
    restarts_ = new QSpinBox(this);
    restarts_->setObjectName(QStringLiteral("decompRestarts"));
    restarts_->setRange(1, 20);
    restarts_->setPrefix(tr("starts "));
    restarts_->setProperty(kRemembered, true);
    restarts_->setToolTip(
        tr("decompose --restarts: CPD from this many starts (the first as chosen, the others random), "
           "the best fit kept; every start's curve is drawn, the kept one solid"));
    row->addWidget(restarts_);
    lrA_ = new QDoubleSpinBox(this);
    lrA_->setDecimals(5);
    lrA_->setRange(0.00001, 1);
    lrA_->setSingleStep(0.0001);
    lrA_->setValue(tscope::FasterTuckerOptions{}.lr_a);
    lrA_->setPrefix(tr("γ_A "));
    lrA_->setToolTip(tr("FasterTucker's factor learning rate"));
    row->addWidget(lrA_);
    ordered_ = new QCheckBox(tr("ordered"), this);
    ordered_->setObjectName(QStringLiteral("decompOrdered"));
    ordered_->setProperty(kRemembered, true);
    ordered_->setToolTip(tr("FasterTucker's schedule. Off: Hogwild, as the paper (workers update shared factor rows at once; "
                            "runs differ slightly). On: each factor row's steps in tree order: the same result with any "
                            "number of threads, and CPU and GPU agree within rounding."));
    row->addWidget(ordered_);
    backend_ = new QComboBox(this);
    backend_->setObjectName(QStringLiteral("decompBackend"));
    backend_->addItem(QStringLiteral("omp"), static_cast<int>(tscope::Backend::Omp));
    backend_->addItem(QStringLiteral("cuda"), static_cast<int>(tscope::Backend::Cuda));
    sizeComboToText(backend_);
    backend_->setToolTip(tr("decompose --backend"));
    row->addWidget(backend_);
    gpusLabel_ = new QLabel(tr("GPUs"), this);
    row->addWidget(gpusLabel_);
    gpus_ = new QSpinBox(this);
    gpus_->setObjectName(QStringLiteral("decompGpus"));
    gpus_->setRange(1, 1);
    row->addWidget(gpus_);
    run_ = new QPushButton(tr("Run"), this);
    run_->setObjectName(QStringLiteral("decompRun"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setProperty(kCancelsWork, true);
    cancel_->setEnabled(false);
    clear_ = new QPushButton(tr("Clear runs"), this);
    row->addWidget(run_);
    row->addWidget(cancel_);
    row->addStretch(1);
    return row;
}

// The second row: how the curves are drawn, the status, and the runs shown (clear, open, export).
QHBoxLayout* DecompositionPanel::buildViewRow() {
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("x axis:"), this));
    xAxis_ = new QComboBox(this);
    xAxis_->addItems({tr("iteration"), tr("seconds")});
    row->addWidget(xAxis_);
    errorLabel_ = new QLabel(tr("error:"), this);
    row->addWidget(errorLabel_);
    errorMetric_ = new QComboBox(this);
    errorMetric_->setObjectName(QStringLiteral("decompErrorMetric"));
    errorMetric_->addItems({tr("RMSE"), tr("MAE")});
    errorMetric_->setToolTip(tr("FasterTucker's error on its training and test nonzeros"));
    row->addWidget(errorMetric_);
    status_ = new QLabel(tr("Open a tensor, choose a method, Run. Runs stay overlaid until cleared."), this);
    status_->setObjectName(QStringLiteral("decompStatus"));
    status_->setWordWrap(true);
    row->addWidget(status_, 1);
    row->addWidget(clear_);  // with the other buttons about the runs shown (the first row is the widest)
    auto* openRun = new QPushButton(tr("Open run…"), this);
    openRun->setObjectName(QStringLiteral("decompOpen"));
    openRun->setToolTip(tr("A run from tensorscope-cli decompose … --json: its curves, and for a distributed run "
                           "(--distributed under mpirun) its ranks' nonzeros and communication"));
    row->addWidget(openRun);
    auto* exportCsv = new QPushButton(tr("Export CSV…"), this);
    row->addWidget(exportCsv);
    connect(openRun, &QPushButton::clicked, this, &DecompositionPanel::openRun);
    connect(exportCsv, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export iterations"),
                                                          QStringLiteral("convergence.csv"), tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !writeCsv(*model_, path, &error)) QMessageBox::warning(this, tr("Export"), error);
    });
    return row;
}

// The charts, into `split`: the fit and the error side by side (a distributed run's ranks beside
// them), then the split plot.
void DecompositionPanel::buildCharts(QSplitter* split) {
    auto* plots = new QSplitter(Qt::Horizontal, split);
    plots->setObjectName(QStringLiteral("decompPlotsSplit"));
    fitPlot_ = makePlot(plots, QStringLiteral("decompFit"), tr("Fit (CPD, Tucker): 1 − ‖X − X̂‖ / ‖X‖"));
    errorPlot_ = makePlot(plots, QStringLiteral("decompError"), tr("FasterTucker: train (dashed) and test (solid)"));
    // the curves' legends above them, as many names a row as fit: inside the rect it covered a
    // run's last iterations once two runs were overlaid (sweep 72b F8)
    for (QCustomPlot* p : {fitPlot_, errorPlot_}) {
        placeLegendAbove(p);
        // the runs' names a little smaller, so that two fit a row at half the tab's width: five
        // runs took five rows, the curves what was left (sweep 74a F13); and the curves 100 px
        // however many runs, within the plot's own minimum up to six (past it the tab scrolls,
        // sweep 74c N4)
        QFont names = p->legend->font();
        names.setPointSizeF(names.pointSizeF() * 0.9);
        p->legend->setFont(names);
        fitLegendColumnsToWidth(p, 3);
        keepDataReadable(p, 100);
    }
    plots->addWidget(fitPlot_);
    plots->addWidget(errorPlot_);
    PlotInspector::attach(fitPlot_, [this](QPointF pixel) { return describePoint(fitPlot_, pixel); });
    PlotInspector::attach(errorPlot_, [this](QPointF pixel) { return describePoint(errorPlot_, pixel); });
    // a distributed run's ranks beside the fit, not below it: a fourth chart in the column
    // left each too little height at 800 px (or made the window 921 px high)
    auto* rankPlot = makePlot(plots, QStringLiteral("decompRanks"), tr("Ranks"));
    ranks_ = std::make_unique<RankBarsPlot>(rankPlot);
    rankPlot->setVisible(false);
    plots->addWidget(rankPlot);
    split->addWidget(plots);
    buildSplitPlot(split);
    split->addWidget(splitStack_);
}

// The runs' table: one row a run, sortable.
QTableView* DecompositionPanel::buildTable(QWidget* parent) {
    model_ = new DecompRunsModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(Qt::UserRole);
    table_ = new QTableView(parent);
    table_->setObjectName(QStringLiteral("decompTable"));
    setUpResultTable(table_);
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table_->verticalHeader()->hide();
    table_->setAlternatingRowColors(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // measuring every row again at each new one made a long run's table quadratic (sweep 65b)
    table_->horizontalHeader()->setResizeContentsPrecision(200);
    table_->horizontalHeader()->setStretchLastSection(true);
    return table_;
}

// The controls' and the job's signals.
void DecompositionPanel::connectControls() {
    connect(backend_, &QComboBox::currentIndexChanged, this, &DecompositionPanel::fillCpdFormats);
    connect(backend_, &QComboBox::currentIndexChanged, this, &DecompositionPanel::updateGpus);
    connect(method_, &QComboBox::currentIndexChanged, this, &DecompositionPanel::methodChanged);
    connect(method_, &QComboBox::currentIndexChanged, this, &DecompositionPanel::updateGpus);
    connect(run_, &QPushButton::clicked, this, &DecompositionPanel::run);
    connect(cancel_, &QPushButton::clicked, this, &DecompositionPanel::cancel);
    connect(clear_, &QPushButton::clicked, this, [this] {
        if (job_.isBusy()) return;
        model_->clear();
        ranks_->plot()->setVisible(false);
        replot();
    });
    connect(xAxis_, &QComboBox::currentIndexChanged, this, &DecompositionPanel::replot);
    connect(errorMetric_, &QComboBox::currentIndexChanged, this, &DecompositionPanel::replot);
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) {
        settle(QStringLiteral("failed: ") + message);
        Q_EMIT failed(message);
    });
    connect(&job_, &EngineJob::cancelled, this, [this] { settle(QStringLiteral("cancelled"), true); });
    connect(&job_, &EngineJob::idle, this, &Panel::idle);
}

QCustomPlot* DecompositionPanel::rankPlot() const { return ranks_->plot(); }

void DecompositionPanel::openRun() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a decompose run"), QString(), tr("JSON (*.json)"));
    QString error;
    if (!path.isEmpty() && !openRunFile(path, &error)) QMessageBox::warning(this, tr("Open run"), error);
}

// What the split chart's place says where no CPD run is there; `otherRuns`: Tucker or
// FasterTucker runs are.
QString DecompositionPanel::splitHintText(bool otherRuns) {
    return otherRuns ? tr("Where a run's time goes is drawn for CPD runs (setup, MTTKRP, dense steps, fit); "
                          "the runs here are Tucker or FasterTucker. Run CPD to add one.")
                     : tr("Run CPD to see where its iterations go: the setup it pays once (read, format build, "
                          "upload) and its mean iteration (MTTKRP, dense steps, fit), one bar per run.");
}

// The method as the run list names it, "CPD-ALS", whether run here or opened from a file (an
// opened run read "CPD" beside a live "CPD-ALS": two names for one method, sweep 72b F8).
QString DecompositionPanel::methodWord(tscope::DecompMethod method) const {
    const int i = method_->findData(static_cast<int>(method));
    return i >= 0 ? method_->itemText(i).section(QLatin1Char(' '), 0, 0)
                  : QString::fromLatin1(tscope::decomp_method_name(method)).toUpper();
}

bool DecompositionPanel::openRunFile(const QString& path, QString* error) {
    if (job_.isBusy()) {  // the running run's reports go to the last row of the model
        if (error) *error = tr("a run is in progress: open the file when it has ended");
        return false;
    }
    std::optional<DecompRunFile> f = readDecompRunFile(path, error);
    if (!f) return false;
    DecompRun r = std::move(f->run);
    r.id = static_cast<int>(model_->runs().size()) + 1;
    r.colour = kRunColours[static_cast<std::size_t>(r.id - 1) % std::size(kRunColours)];
    r.tensor = QFileInfo(f->file).fileName();  // the recorded run's tensor, whatever is open
    const QString where = f->ranks > 1 ? tr(", %1 ranks %2").arg(f->ranks).arg(f->grid) : QString();
    r.label = QStringLiteral("#%1 %2 r%3%4/%5%6")
                  .arg(r.id)
                  .arg(methodWord(r.method))
                  .arg(r.rankText.isEmpty() ? QString::number(r.rank) : r.rankText)
                  .arg(r.format.isEmpty() ? QString() : QStringLiteral(" ") + r.format)
                  .arg(r.backend, where);
    const std::vector<tscope::IterationReport> its = std::move(r.iterations);
    r.iterations.clear();
    const QString outcome = r.outcome;
    const int run = model_->addRun(r);
    for (const auto& it : its) model_->addIteration(run, it);
    model_->setOutcome(run, outcome);
    if (!f->perRank.empty()) {
        ranks_->show(tr("%1:\neach rank's nonzeros and communication (%2)").arg(r.label, QFileInfo(f->file).fileName()),
                     f->perRank);
        if (ranks_->plot()->isHidden()) {
            ranks_->plot()->setVisible(true);
            // it arrives after the row was laid out, and would keep its minimum width: half the row
            if (auto* row = qobject_cast<QSplitter*>(ranks_->plot()->parentWidget())) row->setSizes({50, 50, 50});
        }
    }
    if (dataset_) model_->nameOtherTensors(dataset_->title);  // tagged as it would be on the next open (sweep 65c)
    replot();
    status_->setText(tr("Opened %1 (%2): %3 after %4.")
                         .arg(r.label, QFileInfo(path).fileName(), outcome,
                              counted(static_cast<qint64>(its.size()), tr("iteration"), tr("iterations"))));
    return true;
}

void DecompositionPanel::setGpuCount(int count) {
    gpuCount_ = std::max(0, count);
    auto* m = qobject_cast<QStandardItemModel*>(backend_->model());
    if (m) m->item(1)->setEnabled(gpuCount_ > 0);
    if (gpuCount_ > 0) {
        backend_->setItemData(1, QVariant(), Qt::ToolTipRole);
        backend_->setItemText(1, gpuCount_ > 1 ? tr("cuda (%n GPUs)", nullptr, gpuCount_) : QStringLiteral("cuda"));
    } else {  // the cuda entry stays listed, greyed, with the reason
        backend_->setItemData(1, QString::fromStdString(gpu_.available ? std::string("no CUDA device") : gpu_.reason),
                              Qt::ToolTipRole);
        backend_->setItemText(1, tr("cuda (no device)"));
        if (backend_->currentIndex() == 1) backend_->setCurrentIndex(0);
    }
    gpus_->setRange(1, std::max(1, gpuCount_));
    gpusLabel_->setVisible(gpuCount_ > 1);  // one GPU: nothing to choose, no box
    gpus_->setVisible(gpuCount_ > 1);
    fillCpdFormats();
    updateGpus();
}

// The GPUs box applies to CPD on cuda (the engine splits its nonzeros over the GPUs); elsewhere
// it stays in place, greyed, saying why.
void DecompositionPanel::updateGpus() {
    const bool applies =
        static_cast<tscope::DecompMethod>(method_->currentData().toInt()) == tscope::DecompMethod::Cpd &&
        static_cast<tscope::Backend>(backend_->currentData().toInt()) == tscope::Backend::Cuda;
    gpus_->setEnabled(applies);
    gpusLabel_->setEnabled(applies);
    gpus_->setToolTip(applies ? tr("CPD's nonzeros split into this many balanced parts, one per GPU; each MTTKRP's "
                                   "parts combined with NCCL")
                              : tr("Applies to CPD-ALS on the cuda backend"));
}

tscope::CpdOptions DecompositionPanel::cpdOptions() const {
    tscope::CpdOptions o;
    o.rank = static_cast<std::uint64_t>(rank_->value()), o.max_iters = iters_->value();
    o.backend = static_cast<tscope::Backend>(backend_->currentData().toInt());
    // the list holds the registry's names only; run() refuses an empty one before asking here
    if (!format_->currentText().isEmpty()) o.format = tscope::parse_format(format_->currentText().toStdString());
    if (gpus_->isEnabled()) o.gpus = gpus_->value();
    o.init = static_cast<tscope::CpdInit>(cpdInit_->currentData().toInt());
    o.restarts = restarts_->value();
    return o;
}

// decompose's own defaults, so that the window and a script agree on a tensor's fit
int DecompositionPanel::defaultRank(tscope::DecompMethod method) {
    return method == tscope::DecompMethod::Tucker ? 8 : 16;
}

void DecompositionPanel::methodChanged() {
    const auto m = static_cast<tscope::DecompMethod>(method_->currentData().toInt());
    if (rank_->value() == defaultRank(shownMethod_)) rank_->setValue(defaultRank(m));  // one the user set stays
    shownMethod_ = m;
    format_->setVisible(m == tscope::DecompMethod::Cpd);
    cpdInit_->setVisible(m == tscope::DecompMethod::Cpd);
    restarts_->setVisible(m == tscope::DecompMethod::Cpd);
    lrA_->setVisible(m == tscope::DecompMethod::FasterTucker);
    ordered_->setVisible(m == tscope::DecompMethod::FasterTucker);
    if (m == tscope::DecompMethod::FasterTucker && iters_->value() < 30) iters_->setValue(30);
    showApplicablePlots();
}

// A plot that the chosen method does not draw and no earlier run filled would stay empty
// beside the live one (FasterTucker's errors during a CPD): it gives its room to the other.
void DecompositionPanel::showApplicablePlots() {
    const auto m = static_cast<tscope::DecompMethod>(method_->currentData().toInt());
    bool fits = m != tscope::DecompMethod::FasterTucker, errors = !fits;
    for (const DecompRun& r : model_->runs()) (r.method == tscope::DecompMethod::FasterTucker ? errors : fits) = true;
    fitPlot_->setVisible(fits);
    errorPlot_->setVisible(errors);
    // CPD's and Tucker's runs have no train/test error: its controls and columns would only
    // show "–" (sweep 66b A10)
    errorLabel_->setVisible(errors);
    errorMetric_->setVisible(errors);
    for (int c :
         {DecompRunsModel::TrainRmse, DecompRunsModel::TestRmse, DecompRunsModel::TrainMae, DecompRunsModel::TestMae})
        table_->setColumnHidden(c, !errors);
    table_->setColumnHidden(DecompRunsModel::Fit, !fits);
}

void DecompositionPanel::configure(tscope::DecompMethod method, int rank, int iterations) {
    method_->setCurrentIndex(method_->findData(static_cast<int>(method)));
    rank_->setValue(rank);
    iters_->setValue(iterations);
}

void DecompositionPanel::setDataset(const DatasetPtr& dataset) {
    // a run on the last tensor stops (it says so as it ends), as the Kernels tab's does: left
    // going, it held the Run button while the status read Ready for the new one
    if (dataset != dataset_) job_.supersede();
    dataset_ = dataset;
    if (!dataset_) return;
    status_->setText(tr("Ready: %1. Runs stay overlaid until cleared.").arg(dataset_->title));
    if (model_->nameOtherTensors(dataset_->title))
        replot();
    else
        replotSplit();  // its rows name a run's tensor where it is not this one: a run opened first had been named
}

void DecompositionPanel::cancel() { job_.cancel(); }

bool DecompositionPanel::runOwnWork() {
    run();
    return true;
}

void DecompositionPanel::run() {
    if (!dataset_ || job_.isBusy()) return;
    const auto method = static_cast<tscope::DecompMethod>(method_->currentData().toInt());
    const auto backend = static_cast<tscope::Backend>(backend_->currentData().toInt());
    const int rank = rank_->value(), iters = iters_->value();
    const QString format = format_->currentText();
    if (method == tscope::DecompMethod::Cpd && format.isEmpty()) {
        status_->setText(tr("No format runs CPD's MTTKRP on the %1 backend in this build.")
                             .arg(QString::fromLatin1(tscope::backend_name(backend))));
        return;
    }
    const tscope::CpdOptions cpd = method == tscope::DecompMethod::Cpd ? cpdOptions() : tscope::CpdOptions{};
    const double lrA = lrA_->value();
    const auto schedule = ordered_->isChecked() ? tscope::FtSchedule::Ordered : tscope::FtSchedule::Hogwild;
    DecompRun r;
    r.id = static_cast<int>(model_->runs().size()) + 1;
    r.method = method;
    r.rank = rank;
    r.format = method == tscope::DecompMethod::Cpd ? format : QString();
    r.backend = QString::fromLatin1(tscope::backend_name(backend));
    r.colour = kRunColours[static_cast<std::size_t>(r.id - 1) % std::size(kRunColours)];
    r.tensor = dataset_->title;
    r.label = QStringLiteral("#%1 %2 r%3%4/%5")
                  .arg(r.id)
                  .arg(methodWord(method))
                  .arg(rank)
                  .arg(method == tscope::DecompMethod::Cpd ? QStringLiteral(" ") + format : QString())
                  .arg(QString::fromLatin1(tscope::backend_name(backend)));
    if (method == tscope::DecompMethod::Cpd && cpd.gpus > 1) r.label += tr(" ×%1 GPUs").arg(cpd.gpus);
    if (method == tscope::DecompMethod::FasterTucker && schedule == tscope::FtSchedule::Ordered) r.label += tr(" ordered");
    running_ = model_->addRun(r);
    const DatasetPtr dataset = dataset_;
    const int run = running_;
    // reports arrive on the worker; they are handed to the GUI thread, never touched there
    auto report = [this, run](const tscope::IterationReport& rep) {
        QMetaObject::invokeMethod(this, [this, run, rep] { onIteration(run, rep); }, Qt::QueuedConnection);
    };
    run_->setEnabled(false);
    clear_->setEnabled(false);
    cancel_->setEnabled(true);
    status_->setText(tr("Running %1…").arg(r.label));
    auto work = [dataset, method, backend, rank, iters, cpd, lrA, schedule, report](tscope::RunControl& control) {
        const tscope::CooTensor& t = dataset->tensor;
        RunEnd end;
        switch (method) {
        case tscope::DecompMethod::Cpd: {
            const tscope::CpdResult r = tscope::cpd_als(t, cpd, report, control);
            end.converged = r.converged;
            end.atLimit = !r.converged;
            // no read: the window loaded the tensor once, before any run, and a run's elapsed
            // seconds start after it (the load's time in every run's setup had contradicted
            // them, sweep 72b F7); a CLI run opened from its JSON did read, and shows it
            end.setup =
                CpdSetup{0.0, r.build_seconds, r.upload_seconds, r.built_on_device, r.peak_device_bytes, r.best_start};
            break;
        }
        case tscope::DecompMethod::Tucker: {
            tscope::TuckerOptions o;
            o.ranks = {static_cast<std::uint64_t>(rank)}, o.max_iters = iters, o.backend = backend;
            end.converged = tscope::tucker_hooi(t, o, report, control).converged;
            end.atLimit = !end.converged;
            break;
        }
        case tscope::DecompMethod::FasterTucker: {
            tscope::FasterTuckerOptions o;
            o.r_rank = static_cast<std::uint64_t>(rank), o.j_ranks = {static_cast<std::uint64_t>(rank)};
            o.epochs = iters, o.backend = backend, o.lr_a = lrA, o.schedule = schedule;
            end.baselineTestRmse = tscope::faster_tucker(t, o, report, control).mean_predictor_test_rmse;
            break;
        }
        }
        return end;
    };
    job_.start(work, [this](const RunEnd& end) {
        if (end.setup) model_->setSetup(running_, *end.setup);
        model_->setBaseline(running_, end.baselineTestRmse);
        settle(end.converged ? tr("converged") : end.atLimit ? tr("stopped at the iteration limit, the fit still moving") : tr("done"));
    });
}

void DecompositionPanel::onIteration(int run, const tscope::IterationReport& report) {
    model_->addIteration(run, report);
    if (model_->runs()[static_cast<std::size_t>(run)].iterations.size() == 1)
        return replot();  // a run's first point at once
    replotSoon();
}

void DecompositionPanel::replotSoon() {
    constexpr qint64 kGapMs = 150;
    if (replotTimer_->isActive()) return;
    const qint64 since = sinceReplot_.isValid() ? sinceReplot_.elapsed() : kGapMs;
    if (since >= kGapMs) return replot();
    replotTimer_->start(static_cast<int>(kGapMs - since));
}

void DecompositionPanel::settle(const QString& outcome, bool cancelled) {
    model_->setOutcome(running_, outcome);
    const DecompRun& r = model_->runs()[static_cast<std::size_t>(running_)];
    const QString iterations = counted(static_cast<qint64>(r.iterations.size()), tr("iteration"), tr("iterations"));
    QString text = tr("%1: %2 after %3.").arg(r.label, outcome, iterations);
    if (job_.superseded() && dataset_)  // another tensor was opened: said, then its Ready
        text = cancelled ? tr("%1 stopped after %2: another tensor was opened. Ready: %3.")
                               .arg(r.label, iterations, dataset_->title)
                         : text + QLatin1Char(' ') + tr("Ready: %1.").arg(dataset_->title);
    if (!cancelled && !outcome.startsWith(QLatin1String("failed")))
        if (const QString hint = lowFitHint(r); !hint.isEmpty()) text += QLatin1Char(' ') + hint;
    if (!cancelled && !std::isnan(r.baselineTestRmse) && !r.iterations.empty())
        text += QLatin1Char(' ') + baselineSentence(r);
    if (r.setup) {  // the memory peaks, in words: the host's is the whole process's so far
        const QString device = r.backend == QLatin1String("cuda")
                                   ? tr("%1 on the GPU").arg(humanBytes(r.setup->peakDeviceBytes))
                                   : tr("no GPU memory (%1 backend)").arg(r.backend);
        text += QLatin1Char(' ') + tr("Peak memory: %1 on the host (this program so far), %2.")
                                       .arg(humanBytes(tscope::peak_host_memory_bytes()), device);
    }
    status_->setText(text);
    run_->setEnabled(true);
    clear_->setEnabled(true);
    cancel_->setEnabled(false);
    replot();
}

void DecompositionPanel::replot() {
    replotTimer_->stop();  // this one covers any pending
    sinceReplot_.start();
    const bool bySeconds = xAxis_->currentIndex() == 1;
    const bool mae = errorMetric_->currentIndex() == 1;
    for (QCustomPlot* p : {fitPlot_, errorPlot_}) {
        p->clearGraphs();
        p->xAxis->setLabel(bySeconds ? tr("seconds since the start") : tr("iteration"));
        // iterations are whole: a few of them drew ticks at 1.5 and 2.5
        if (bySeconds)
            setLinearAxis(p->xAxis, AxisUnit::Plain);
        else
            p->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new IndexTicker(p->xAxis)));
    }
    fitPlot_->yAxis->setLabel(tr("fit"));
    errorPlot_->yAxis->setLabel(mae ? tr("MAE") : tr("RMSE"));
    for (const DecompRun& r : model_->runs()) {
        auto x = [&](const tscope::IterationReport& it) { return bySeconds ? it.seconds : static_cast<double>(it.iter); };
        if (r.method != tscope::DecompMethod::FasterTucker) {
            // one curve per CPD start (restarts), the kept one solid, the others dashed
            int starts = 0;
            for (const auto& it : r.iterations) starts = std::max(starts, it.start + 1);
            for (int k = 0; k < starts; ++k) {
                QCPGraph* g = fitPlot_->addGraph();
                const bool kept = starts == 1 || (r.setup && k == r.setup->bestStart);
                g->setName(starts == 1 ? r.label : tr("%1, start %2%3").arg(r.label).arg(k + 1).arg(kept ? tr(" (kept)") : QString()));
                g->setPen(QPen(r.colour, kept ? 2 : 1.2, kept ? Qt::SolidLine : Qt::DashLine));
                g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kept ? 4 : 2));
                for (const auto& it : r.iterations)
                    if (it.start == k) g->addData(x(it), it.fit);
            }
            continue;
        }
        QCPGraph* test = errorPlot_->addGraph();
        test->setName(r.label + tr(" test"));
        test->setPen(QPen(r.colour, 2));
        QCPGraph* train = errorPlot_->addGraph();
        train->setName(r.label + tr(" train"));
        train->setPen(QPen(r.colour, 1.5, Qt::DashLine));
        for (const auto& it : r.iterations) {
            if (!std::isnan(it.test_rmse)) test->addData(x(it), mae ? it.test_mae : it.test_rmse);
            train->addData(x(it), mae ? it.train_mae : it.train_rmse);
        }
        if (!mae && !std::isnan(r.baselineTestRmse) &&
            !r.iterations.empty()) {  // the mean predictor's RMSE (no MAE is kept)
            QCPGraph* base = errorPlot_->addGraph();
            base->setName(r.label + tr(" predicting the mean (test)"));
            base->setPen(QPen(r.colour, 1.5, Qt::DotLine));
            base->addData(x(r.iterations.front()), r.baselineTestRmse);
            base->addData(x(r.iterations.back()), r.baselineTestRmse);
        }
    }
    showApplicablePlots();
    for (QCustomPlot* p : {fitPlot_, errorPlot_}) {
        const bool empty = p->graphCount() == 0;
        showPlotHint(p, empty, p == fitPlot_ ? tr("Choose CPD or Tucker, a rank and iterations; press Run")
                                             : tr("FasterTucker's train and test errors: choose it and press Run"));
        if (empty) {  // an honest empty frame: no invented scale
            p->xAxis->setRange(0, 1);
            p->yAxis->setRange(0, 1);
        } else {
            p->rescaleAxes();
            const QCPRange x = p->xAxis->range(), y = p->yAxis->range();
            p->xAxis->setRange(x.lower - 0.03 * x.size(), x.upper + 0.03 * x.size() + 1e-9);
            // at least a ten-thousandth of the value tall: a fit held at 0.9999999 drew a span of
            // 1e-9, whose every tick read "1" (sweep 71b)
            const double pad =
                std::max(0.05 * y.size(), 0.5e-4 * std::max(1.0, std::fabs(y.center())) - 0.5 * y.size());
            p->yAxis->setRange(y.lower - pad, y.upper + pad);
        }
        refitLegendColumns(p);  // the runs' names just changed
        PlotInspector::of(p)->rememberHome();
        p->replot();
    }
    replotSplit();
}

// Two stacks per run, side by side on their own scales: the setup, paid once, and the mean
// iteration, paid every iteration. One stack of both would add seconds of different kinds (its
// length would mean nothing), and on one scale a second of setup hides milliseconds of MTTKRP.
void DecompositionPanel::buildSplitPlot(QWidget* parent) {
    splitStack_ = new QStackedWidget(parent);
    splitHint_ = new QLabel(splitHintText(false), splitStack_);
    splitHint_->setObjectName(QStringLiteral("decompSplitHint"));
    splitHint_->setAlignment(Qt::AlignCenter);
    splitHint_->setWordWrap(true);
    splitStack_->addWidget(splitHint_);

    splitPlot_ = new QCustomPlot(splitStack_);
    splitPlot_->setObjectName(QStringLiteral("decompSplitPlot"));
    splitPlot_->setMinimumSize(300, 200);
    enablePlotExport(splitPlot_);
    QCPLayoutGrid* top = splitPlot_->plotLayout();
    setupRect_ = splitPlot_->axisRect();
    top->take(setupRect_);
    top->simplify();
    const QFont bold(splitPlot_->font().family(), splitPlot_->font().pointSize(), QFont::Bold);
    top->addElement(0, 0, new QCPTextElement(splitPlot_, tr("CPD: where a run's time goes"), bold));
    auto* rects = new QCPLayoutGrid;
    top->addElement(1, 0, rects);
    iterRect_ = new QCPAxisRect(splitPlot_);
    rects->addElement(0, 0, setupRect_);
    rects->addElement(0, 1, iterRect_);
    auto* margins = new QCPMarginGroup(splitPlot_);
    for (QCPAxisRect* rect : {setupRect_, iterRect_}) {
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
        rect->axis(QCPAxis::atTop)->setVisible(false);
        rect->axis(QCPAxis::atRight)->setVisible(false);
        QCPAxis* key = rect->axis(QCPAxis::atLeft);
        key->setRangeReversed(true);  // the first run on top, as in the table
        key->setSubTicks(false);
        key->setTickLength(0, 3);
        key->grid()->setVisible(false);
        // times in words (50 µs): the default format drew 0.0001 and 5·10⁻⁵ (sweep 71b)
        setLinearAxis(rect->axis(QCPAxis::atBottom), AxisUnit::Seconds);
        rect->axis(QCPAxis::atBottom)->ticker()->setTickCount(4);  // "10 ms" labels need room
        rect->axis(QCPAxis::atBottom)->setRangeLower(0);
    }
    iterRect_->axis(QCPAxis::atLeft)->setTickLabels(false);
    iterRect_->axis(QCPAxis::atLeft)->setTickLength(0, 0);
    setupRect_->axis(QCPAxis::atBottom)->setLabel(tr("setup, once per run"));
    iterRect_->axis(QCPAxis::atBottom)->setLabel(tr("mean iteration"));

    auto stack = [this](QCPAxisRect* rect, const auto& parts, std::vector<QCPBars*>& bars) {
        QCPBars* below = nullptr;
        for (const SplitPart& part : parts) {
            auto* b = new QCPBars(rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atBottom));
            b->setName(tr(part.name));
            b->setBrush(part.colour);
            b->setPen(QPen(Qt::white, 1));  // a seam between neighbouring parts
            b->setWidth(0.6);
            if (below) b->moveAbove(below);
            below = b;
            bars.push_back(b);
        }
    };
    stack(setupRect_, kSetupParts, setupBars_);
    stack(iterRect_, kIterParts, iterBars_);

    // the legend below both rects, outside the data, in one row
    QCPLegend* legend = splitPlot_->legend;
    setupRect_->insetLayout()->take(legend);
    top->addElement(2, 0, legend);
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(static_cast<int>(std::size(kSetupParts) + std::size(kIterParts)));
    legend->setBorderPen(Qt::NoPen);
    legend->setMargins(QMargins(4, 0, 4, 2));
    top->setRowStretchFactor(0, 0.001);
    top->setRowStretchFactor(2, 0.001);
    splitStack_->addWidget(splitPlot_);
    PlotInspector::attach(splitPlot_, [this](QPointF pixel) -> QString {
        const auto hit = barAt(splitPlot_, pixel);
        if (!hit) return {};
        const QString run = categoryAt(hit->bars->keyAxis(), hit->key);
        const bool setup = hit->bars->keyAxis()->axisRect() == setupRect_;
        return setup ? tr("%1: %2 %3, once").arg(run, hit->bars->name(), secondsText(hit->value))
                     : tr("%1: %2 %3 per iteration (mean)").arg(run, hit->bars->name(), secondsText(hit->value));
    });
}

// The iteration under the cursor: its run, number, time and value.
QString DecompositionPanel::describePoint(QCustomPlot* plot, QPointF pixel) const {
    const auto hit = pointAt(plot, pixel);
    if (!hit) return {};
    const bool bySeconds = xAxis_->currentIndex() == 1;
    const QString where = bySeconds ? tr("at %1").arg(secondsText(hit->key))
                                    : tr("iteration %1").arg(static_cast<long long>(std::llround(hit->key)));
    const QString what = plot == fitPlot_ ? tr("fit") : errorMetric_->currentText();
    return tr("%1, %2: %3 %4").arg(hit->graph->name(), where, what, shortNumber(hit->value));
}

void DecompositionPanel::replotSplit() {
    std::vector<const DecompRun*> cpd;
    for (const DecompRun& r : model_->runs())
        if (r.method == tscope::DecompMethod::Cpd) cpd.push_back(&r);
    splitStack_->setCurrentWidget(cpd.empty() ? static_cast<QWidget*>(splitHint_) : splitPlot_);
    // with Tucker or FasterTucker runs alone, say that this chart is CPD's, not "Run CPD" as if none were there
    splitHint_->setText(splitHintText(!model_->runs().empty()));
    splitPlot_->clearItems();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int n = static_cast<int>(cpd.size());
    std::vector<std::vector<double>> setup(setupBars_.size()), iter(iterBars_.size());
    QVector<double> keys;
    for (int i = 0; i < n; ++i) {
        const DecompRun& r = *cpd[static_cast<std::size_t>(i)];
        keys << i + 1;
        QString name = tr("run %1 · %2 · %3 · r%4").arg(r.id).arg(r.format, r.backend).arg(r.rank);
        // a run of another tensor says which, as its table rows do (two rows read alike, sweep 72b F8)
        if (dataset_ && !r.tensor.isEmpty() && r.tensor != dataset_->title) name += QLatin1Char('\n') + r.tensor;
        ticker->addTick(i + 1, name);
        const CpdSetup s = r.setup.value_or(CpdSetup{});  // the setup parts arrive when the run ends
        setup[0].push_back(s.readSeconds);
        setup[1].push_back(s.buildSeconds);
        setup[2].push_back(s.uploadSeconds);
        const double mttkrp = meanOf(r.iterations, &tscope::IterationReport::mttkrp_seconds);
        const double dense = meanOf(r.iterations, &tscope::IterationReport::dense_seconds);
        const double fit = meanOf(r.iterations, &tscope::IterationReport::fit_seconds);
        const double whole = meanOf(r.iterations, &tscope::IterationReport::iter_seconds);
        iter[0].push_back(mttkrp);
        iter[1].push_back(dense);
        iter[2].push_back(fit);
        iter[3].push_back(std::max(0.0, whole - mttkrp - dense - fit));  // so the stack is the whole iteration
    }
    auto fill = [&](QCPAxisRect* rect, const std::vector<QCPBars*>& bars,
                    const std::vector<std::vector<double>>& values, bool perIteration) {
        double most = 0;
        for (int i = 0; i < n; ++i) {
            double total = 0;
            for (const auto& v : values) total += v[static_cast<std::size_t>(i)];
            most = std::max(most, total);
            const DecompRun& r = *cpd[static_cast<std::size_t>(i)];
            if (!perIteration && !r.setup) continue;  // still running, or ended without a result
            auto* label = new QCPItemText(splitPlot_);
            label->setClipAxisRect(rect);
            label->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            label->position->setCoords(total, i + 1);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            label->setPadding(QMargins(4, 0, 0, 0));
            const int its = static_cast<int>(r.iterations.size());
            label->setText(perIteration
                               ? tr("%1 × %2 = %3").arg(secondsText(total)).arg(its).arg(secondsText(total * its))
                               : secondsText(total));
        }
        for (std::size_t b = 0; b < bars.size(); ++b)
            bars[b]->setData(keys, QVector<double>(values[b].begin(), values[b].end()), true);
        QCPAxis* key = rect->axis(QCPAxis::atLeft);
        key->setTicker(ticker);
        const double pad = 0.5 * std::max(0, 3 - n);  // one run is a bar, not a wall
        key->setRange(0.5 - pad, n + 0.5 + pad);
        // room for the total beside the longest stack
        rect->axis(QCPAxis::atBottom)->setRange(0, most > 0 ? most * (perIteration ? 1.6 : 1.3) : 1.0);
    };
    fill(setupRect_, setupBars_, setup, false);
    fill(iterRect_, iterBars_, iter, true);
    if (!cpd.empty()) splitPlot_->replot();  // hidden, it has no size to paint at
}

// The formats CPD can run its MTTKRPs on with the chosen backend (the kernel registry's), CSF
// first chosen; the user's choice stays where the new backend runs it too.
void DecompositionPanel::fillCpdFormats() {
    const QString previous = format_->currentText();
    const auto backend = static_cast<tscope::Backend>(backend_->currentData().toInt());
    format_->clear();
    for (tscope::FormatKind f : tscope::cpd_formats(backend)) format_->addItem(QString::fromLatin1(tscope::format_name(f)));
    const int keep = format_->findText(previous.isEmpty() ? QStringLiteral("CSF") : previous);
    format_->setCurrentIndex(keep >= 0 ? keep : std::max(0, format_->findText(QStringLiteral("CSF"))));
}

}  // namespace tsui
