#include "panels/AdvisorView.hpp"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QShowEvent>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "panels/Panel.hpp"
#include "plots/PlotAxes.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotHint.hpp"
#include "tscope/text_words.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// Bytes moved as the table writes sizes; past 2^63 (TTMc at a high rank and order) in the
// engine's words, where the cast to Qt's 64-bit size had wrapped to "0 B" (review 75b F4).
QString movedBytes(double bytes) {
    if (bytes < 9e18) return humanBytes(static_cast<std::uint64_t>(bytes));
    return QString::fromStdString(tscope::human_bytes(static_cast<long double>(bytes)));
}

struct Predicted {
    std::shared_ptr<const tscope::TensorProfile> profile;
    tscope::Advice advice;
};

const QColor kPredicted(0, 114, 178), kMeasured(230, 159, 0);  // Okabe-Ito blue and orange

enum Column { Place, Format, Storage, Moves, PredictedS, MeasuredS, Reason, Columns };

}  // namespace

AdvisorView::AdvisorView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buildControls());
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("advisorSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("advisorSplit"));
    split->addWidget(buildTable(split));
    split->addWidget(buildPlot(split));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    connectControls();
    replot();
}

// The row above the table: kernel, backend and rank, Measure with its progress and Cancel, the status.
QHBoxLayout* AdvisorView::buildControls() {
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Kernel:"), this));
    kernel_ = new QComboBox(this);
    kernel_->setObjectName(QStringLiteral("advisorKernel"));
    kernel_->setProperty(kRemembered, true);
    for (tscope::KernelKind k : tscope::all_kernels())
        kernel_->addItem(QString::fromLatin1(tscope::kernel_title(k)), static_cast<int>(k));
    kernel_->setCurrentIndex(kernel_->findData(static_cast<int>(tscope::KernelKind::MTTKRP)));
    top->addWidget(kernel_);
    top->addWidget(new QLabel(tr("Backend:"), this));
    backend_ = new QComboBox(this);
    backend_->setObjectName(QStringLiteral("advisorBackend"));
    backend_->setProperty(kRemembered, true);
    backend_->addItem(QStringLiteral("omp"), static_cast<int>(tscope::Backend::Omp));
    backend_->addItem(QStringLiteral("cuda"), static_cast<int>(tscope::Backend::Cuda));
    backend_->setToolTip(
        tr("cuda without a GPU predicts with the recorded H200 figures; Measure then says there is no device"));
    top->addWidget(backend_);
    top->addWidget(new QLabel(tr("Rank:"), this));
    rank_ = new QSpinBox(this);
    rank_->setObjectName(QStringLiteral("advisorRank"));
    rank_->setProperty(kRemembered, true);
    rank_->setRange(1, 4096);  // advise --rank's range
    rank_->setValue(32);
    top->addWidget(rank_);
    measureButton_ = new QPushButton(tr("Measure"), this);
    measureButton_->setObjectName(QStringLiteral("advisorMeasure"));
    measureButton_->setToolTip(tr("Run the bench on these formats (every mode, median of 3) and plot predicted against measured time"));
    measureButton_->setEnabled(false);
    top->addWidget(measureButton_);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(180);
    progress_->hide();
    top->addWidget(progress_);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setProperty(kCancelsWork, true);
    cancel_->hide();
    top->addWidget(cancel_);
    status_ = new QLabel(tr("Open a tensor for the advisor's ranking."), this);
    status_->setWordWrap(true);  // Measure's verdict is a sentence: on one line it widened the window past 1,600 px
    top->addWidget(status_, 1);
    return top;
}

// The ranking: a row per format, its reason wrapped in the width left to it.
QTableWidget* AdvisorView::buildTable(QWidget* parent) {
    table_ = new QTableWidget(0, Columns, parent);
    table_->setObjectName(QStringLiteral("advisorTable"));
    setUpResultTable(table_);
    table_->setHorizontalHeaderLabels({tr("#"), tr("format"), tr("storage,\nall modes"), tr("moves\na sweep"),
                                       tr("predicted"), tr("measured"), tr("why")});
    // times are shown in their unit, exported in seconds (sweep 72b)
    table_->horizontalHeaderItem(PredictedS)->setData(kExportRole, tr("predicted s"));
    table_->horizontalHeaderItem(MeasuredS)->setData(kExportRole, tr("measured s"));
    // two lines on screen, so that the reasons keep the width at 1024 px (sweep 75a F14); one in the CSV
    table_->horizontalHeaderItem(Storage)->setData(kExportRole, tr("storage, all modes"));
    table_->horizontalHeaderItem(Moves)->setData(kExportRole, tr("moves a sweep"));
    // a per-mode format's storage is its copies for every mode, where Storage shows one mode's
    // (CSF 4.2 MB here against 1.2-1.7 MB there, unexplained, sweep 66b M4)
    QStringList perMode, shared;
    for (tscope::FormatKind f : tscope::available_formats())
        (tscope::format_is_per_mode(f) ? perMode : shared) << QString::fromLatin1(tscope::format_name(f));
    table_->horizontalHeaderItem(2)->setToolTip(
        tr("What the format keeps to run every mode: one copy per mode, summed, for "
           "those built per mode (%1); one copy for all for the others (%2). The "
           "Storage tab shows each mode's copy apart.")
            .arg(perMode.join(QStringLiteral(", ")), shared.join(QStringLiteral(", "))));
    table_->horizontalHeaderItem(3)->setToolTip(
        tr("The bytes the cost model predicts a sweep of every mode's kernel moves from memory: the "
           "format's arrays, the outputs, and the factor rows it gathers where they miss the last-level "
           "cache (rows it holds are not counted). Not the Kernels tab's minimum bytes, which count each "
           "distinct factor row once: either can be the larger."));  // sweep 70c C17
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // The reason, the advisor's answer, wraps in the width left to it and its row grows to hold
    // it: sized to its text it scrolled the table sideways, the answer out of sight.
    table_->setWordWrap(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(Reason, QHeaderView::Stretch);
    table_->setAlternatingRowColors(true);
    return table_;
}

// Predicted (and measured) time per format, the legend above the bars.
QCustomPlot* AdvisorView::buildPlot(QWidget* parent) {
    plot_ = new QCustomPlot(parent);
    plot_->setObjectName(QStringLiteral("advisorPlot"));
    plot_->setMinimumHeight(220);
    plot_->legend->setVisible(true);
    placeLegendAbove(plot_);  // in the axes' corner it hid the tops of the first bars (sweep 73b)
    enablePlotExport(plot_);
    return plot_;
}

// A changed setting predicts again; the job's outcomes reach the status and the idle signal.
void AdvisorView::connectControls() {
    auto again = [this] {
        if (dataset_) predict();
    };
    connect(kernel_, &QComboBox::currentIndexChanged, this, again);
    connect(backend_, &QComboBox::currentIndexChanged, this, again);
    connect(rank_, &QSpinBox::valueChanged, this, again);
    // SpTV multiplies by a vector: the rank does not apply (advise refuses --rank with it)
    auto rankApplies = [this] {
        const bool sptv = static_cast<tscope::KernelKind>(kernel_->currentData().toInt()) == tscope::KernelKind::SpTV;
        rank_->setEnabled(!sptv);
        rank_->setToolTip(sptv ? tr("SpTV multiplies by a vector: no rank")
                               : tr("The factors' columns (advise --rank)"));
    };
    connect(kernel_, &QComboBox::currentIndexChanged, this, rankApplies);
    rankApplies();
    connect(measureButton_, &QPushButton::clicked, this, &AdvisorView::measure);
    connect(cancel_, &QPushButton::clicked, &job_, &EngineJob::cancel);
    connect(&job_, &EngineJob::progress, progress_, &QProgressBar::setValue);
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) {
        setRunning(false, tr("Failed: %1").arg(message));
        Q_EMIT failed(message);  // only the status had said it: a --run exited 0 (sweep 75a F8)
    });
    connect(&job_, &EngineJob::cancelled, this, [this] { setRunning(false, tr("Cancelled.")); });
    connect(&job_, &EngineJob::idle, this, [this] {
        if (predictAgain_) return predict();  // a setting changed while the job ran
        if (measureWhenPredicted_ && advice_) {
            measureWhenPredicted_ = false;
            if (measure()) return;
        }
        Q_EMIT idle();
    });
}

void AdvisorView::setDataset(const DatasetPtr& dataset) {
    dataset_ = dataset;
    advice_.reset();
    measured_.clear();
    fillTable();
    replot();
    if (isVisible() || job_.isBusy()) predict();
}

void AdvisorView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (dataset_ && !advice_ && !job_.isBusy()) predict();
}

tscope::AdviceRequest AdvisorView::request() const {
    tscope::AdviceRequest r;
    r.kernel = static_cast<tscope::KernelKind>(kernel_->currentData().toInt());
    r.backend = static_cast<tscope::Backend>(backend_->currentData().toInt());
    r.rank = r.kernel == tscope::KernelKind::SpTV ? 1 : static_cast<std::uint64_t>(rank_->value());
    return r;
}

void AdvisorView::setRunning(bool running, const QString& what) {
    progress_->setVisible(running);
    cancel_->setVisible(running);
    progress_->setValue(0);
    measureButton_->setEnabled(!running && advice_.has_value());
    status_->setText(what);
}

void AdvisorView::predict() {
    predictAgain_ = false;
    if (!dataset_) {  // the old tensor's job ends too: it kept the cores and "Predicting…" (sweep 72b F13)
        if (job_.isBusy()) job_.cancel();
        return;
    }
    if (job_.isBusy()) {  // once the running job has ended
        predictAgain_ = true;
        job_.cancel();
        return;
    }
    advice_.reset();
    measured_.clear();
    if (profiledFor_ != dataset_) profile_.reset();
    const DatasetPtr dataset = dataset_;
    const ProfilePtr profile = profile_;
    const tscope::AdviceRequest req = request();
    setRunning(true, profile ? tr("Predicting…") : tr("Counting slices, fibers, tiles and tree levels…"));
    fillTable();
    replot();
    job_.setActivity(tr("predicting format costs"));
    job_.start(
        [dataset, profile, req](tscope::RunControl& control) {
            Predicted out;
            out.profile = profile ? profile : std::make_shared<const tscope::TensorProfile>(
                                                   tscope::profile_tensor(dataset->tensor, {}, control));
            out.advice = tscope::advise(*out.profile, req, tscope::machine_figures(req.backend));
            return out;
        },
        [this, dataset](Predicted p) {
            if (dataset != dataset_) return;  // a newer tensor's prediction follows (idle)
            profile_ = p.profile;
            profiledFor_ = dataset;
            showAdvice(std::move(p.advice));
        });
}

void AdvisorView::showAdvice(tscope::Advice advice) {
    advice_ = std::move(advice);
    QString summary = QStringLiteral("<b>%1</b>").arg(fromEngine(advice_->summary).toHtmlEscaped());
    if (!advice_->caveat.empty())
        summary += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(advice_->caveat).toHtmlEscaped());
    summary_->setText(summary);
    setRunning(false, tr("Predicted from the statistics (%1) at %2 GB/s copy bandwidth (%3). Measure to compare.")
                          .arg(humanSeconds(profile_->seconds))
                          .arg(shortNumber(advice_->machine.bandwidth_gbps))
                          .arg(QString::fromStdString(advice_->machine.source)));
    fillTable();
    replot();
}

void AdvisorView::measureWhenPredicted() {
    measureWhenPredicted_ = true;
    if (advice_ && !job_.isBusy()) {
        measureWhenPredicted_ = false;
        measure();
    }
}

bool AdvisorView::measure() {
    if (job_.isBusy() || !advice_ || !dataset_) return false;
    tscope::BenchRequest bench;
    bench.kernel = advice_->request.kernel;
    bench.backends = {advice_->request.backend};
    bench.rank = advice_->request.rank;
    bench.repeat = 3;
    for (const tscope::FormatAdvice& f : advice_->ranking)
        if (f.supported) bench.formats.push_back(f.format);
    if (bench.formats.empty()) return false;
    const DatasetPtr dataset = dataset_;
    setRunning(true, tr("Measuring %1 formats on every mode…").arg(bench.formats.size()));
    job_.setActivity(tr("measuring the formats"));
    return job_.start([dataset, bench](tscope::RunControl& control) { return tscope::run_bench(dataset->tensor, bench, control); },
                      [this, dataset](std::vector<tscope::BenchResult> rows) {
                          if (dataset == dataset_ && advice_) showMeasured(rows);
                      });
}

void AdvisorView::showMeasured(const std::vector<tscope::BenchResult>& rows) {
    measured_.assign(advice_->ranking.size(), std::numeric_limits<double>::quiet_NaN());
    // each reason once, with the formats it stopped: "no CUDA device" had been said once per
    // format and mode, 25 times (sweep 68a B4)
    std::vector<std::pair<QString, QStringList>> refused;
    for (std::size_t i = 0; i < advice_->ranking.size(); ++i) {
        double sum = 0;
        bool all = advice_->ranking[i].supported;
        for (const tscope::BenchResult& r : rows) {
            if (r.format != advice_->ranking[i].format) continue;
            sum += r.median_s;
            if (r.ran) continue;
            all = false;
            const QString why = QString::fromStdString(r.error),
                          name = QString::fromLatin1(tscope::format_name(r.format));
            auto it = std::find_if(refused.begin(), refused.end(), [&](const auto& e) { return e.first == why; });
            if (it == refused.end())
                refused.push_back({why, {name}});
            else if (!it->second.contains(name))
                it->second << name;
        }
        if (all) measured_[i] = sum;
    }
    // the model's ranking against the measured one, over the formats both have
    std::vector<double> predicted, measured;
    std::size_t best_predicted = 0, best_measured = 0;
    for (std::size_t i = 0; i < measured_.size(); ++i) {
        if (std::isnan(measured_[i])) continue;
        predicted.push_back(advice_->ranking[i].seconds);
        measured.push_back(measured_[i]);
        if (std::isnan(measured_[best_predicted])) best_predicted = i;
        if (std::isnan(measured_[best_measured]) || measured_[i] < measured_[best_measured]) best_measured = i;
    }
    QString verdict = tr("No format ran.");
    if (!measured.empty()) {
        const QString tau = shortNumber(tscope::kendall_tau(predicted, measured, 0.05));
        const QString predictedBest = QString::fromLatin1(tscope::format_name(advice_->ranking[best_predicted].format));
        // "took 1x the measured best's time (ALTO)" had said of ALTO that it matched itself
        const double ratio = measured_[best_predicted] / measured_[best_measured];
        if (best_predicted == best_measured)
            verdict = tr("Kendall tau %1 between predicted and measured rankings (times within 5% tied); the predicted "
                         "best, %2, "
                         "was the measured best.")
                          .arg(tau, predictedBest);
        // tied as the tau counts ties: within 5% of the larger time (sweep 75a F4, review 75b F7)
        else if (measured_[best_predicted] - measured_[best_measured] <= 0.05 * measured_[best_predicted])
            verdict = tr("Kendall tau %1 between predicted and measured rankings (times within 5% tied); the predicted "
                         "best, %2, took %3x the measured best's time (%4): tied with it.")
                          .arg(tau, predictedBest, shortNumber(ratio),
                               QString::fromLatin1(tscope::format_name(advice_->ranking[best_measured].format)));
        else
            verdict = tr("Kendall tau %1 between predicted and measured rankings (times within 5% tied); the predicted "
                         "best, %2, "
                         "took %3x the measured best's time (%4).")
                          .arg(tau, predictedBest, shortNumber(ratio),
                               QString::fromLatin1(tscope::format_name(advice_->ranking[best_measured].format)));
    }
    QStringList reasons;
    for (const auto& [why, formats] : refused)
        reasons << QStringLiteral("%1: %2").arg(formats.join(QStringLiteral(", ")), why);
    if (!reasons.isEmpty()) verdict += QLatin1Char(' ') + tr("Not run: %1.").arg(reasons.join(QStringLiteral("; ")));
    setRunning(false, verdict);
    fillTable();
    replot();
}

void AdvisorView::fillTable() {
    table_->setRowCount(0);
    if (!advice_) return;
    table_->setRowCount(static_cast<int>(advice_->ranking.size()));
    int place = 0;
    for (std::size_t i = 0; i < advice_->ranking.size(); ++i) {
        const tscope::FormatAdvice& f = advice_->ranking[i];
        const bool measured = i < measured_.size() && !std::isnan(measured_[i]);
        const QStringList cells = {
            f.supported ? QString::number(++place) : QStringLiteral("-"),
            QString::fromLatin1(tscope::format_name(f.format)),
            f.supported ? (f.storage_exact ? QString() : QStringLiteral("≈ ")) + humanBytes(f.storage_bytes)
                        : QStringLiteral("-"),
            f.supported ? movedBytes(f.bytes_moved) : QStringLiteral("-"),
            f.supported ? columnSeconds(f.seconds) : QStringLiteral("-"),
            measured ? columnSeconds(measured_[i]) : QStringLiteral("-"),
            fromEngine(f.reason)};
        for (int c = 0; c < Columns; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == Reason) item->setToolTip(cells[c]);
            if (c == Storage && f.supported && !f.storage_exact)  // "≈", as the Storage tab marks its estimates
                item->setToolTip(
                    tr("An estimate: the counts the advisor holds do not fix this format's bytes exactly"));
            if (c != Format && c != Reason) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!f.supported) item->setForeground(QColor(120, 120, 120));
            // the times read "1.06 ms"; the CSV takes their seconds
            if (c == PredictedS && f.supported) item->setData(Qt::UserRole, f.seconds);
            if (c == MeasuredS && measured) item->setData(Qt::UserRole, measured_[i]);
            table_->setItem(static_cast<int>(i), c, item);
        }
    }
}

void AdvisorView::replot() {
    plot_->clearPlottables();
    std::vector<std::size_t> shown;
    if (advice_)
        for (std::size_t i = 0; i < advice_->ranking.size(); ++i)
            if (advice_->ranking[i].supported) shown.push_back(i);
    showPlotHint(plot_, shown.empty(), advice_ ? tr("No format runs this kernel here") : tr("Open a tensor: the advisor ranks its formats"));
    if (shown.empty()) {
        plot_->replot();
        return;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    auto* predicted = new QCPBars(plot_->xAxis, plot_->yAxis);
    predicted->setName(tr("predicted"));
    predicted->setBrush(kPredicted);
    predicted->setPen(QPen(kPredicted.darker(130)));
    predicted->setWidth(0.38);
    auto* measured = new QCPBars(plot_->xAxis, plot_->yAxis);
    measured->setName(measured_.empty() ? tr("measured (press Measure)") : tr("measured (bench, median of 3 per mode)"));
    measured->setBrush(kMeasured);
    measured->setPen(QPen(kMeasured.darker(130)));
    measured->setWidth(0.38);
    double lo = 1e300, hi = 0;
    for (std::size_t x = 0; x < shown.size(); ++x) {
        const tscope::FormatAdvice& f = advice_->ranking[shown[x]];
        ticker->addTick(static_cast<double>(x), QString::fromLatin1(tscope::format_name(f.format)));
        predicted->addData(static_cast<double>(x) - 0.2, f.seconds);
        lo = std::min(lo, f.seconds), hi = std::max(hi, f.seconds);
        if (shown[x] < measured_.size() && !std::isnan(measured_[shown[x]])) {
            measured->addData(static_cast<double>(x) + 0.2, measured_[shown[x]]);
            lo = std::min(lo, measured_[shown[x]]), hi = std::max(hi, measured_[shown[x]]);
        }
    }
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(30);
    plot_->xAxis->setRange(-0.7, static_cast<double>(shown.size()) - 0.3);
    plot_->xAxis->setLabel(tr("format, in the predicted order (fastest first)"));
    // times in their unit ("10 ms"), where bare powers of ten had none (sweep 72b)
    setLogAxis(plot_->yAxis, AxisUnit::Seconds);
    plot_->yAxis->setLabel(tr("time per sweep, log scale"));
    if (hi > 0) {
        plot_->yAxis->setRange(lo / 2, hi * 2);
        for (QCPBars* bars : {predicted, measured}) setLogBarsBase(bars, lo / 2);
    }
    plot_->replot();
}

}  // namespace tsui
