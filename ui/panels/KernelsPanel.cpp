#include "panels/KernelsPanel.hpp"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <utility>

#include "plots/PlotAxes.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotHint.hpp"
#include "plots/PlotInspector.hpp"
#include "plots/RooflinePlot.hpp"
#include "plots/ScalingPlot.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/kernels/mttkrp_multi_gpu.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

const QColor kBackendColours[] = {QColor(120, 120, 120), QColor(0, 114, 178), QColor(213, 94, 0)};  // cpu-ref, omp, cuda

// Runs the requests one after the other (the multi-GPU one reports a format it refuses as that
// format's row, as the single-GPU runs do).
// Each row also goes to `arrived` as soon as it is measured, without its output matrix.
std::vector<tscope::BenchResult> runRequests(const tscope::CooTensor& t, std::vector<tscope::BenchRequest> requests,
                                             const std::function<void(tscope::BenchResult)>& arrived, tscope::RunControl& control) {
    std::vector<tscope::BenchResult> rows;
    for (tscope::BenchRequest& request : requests) {
        request.on_result = [&arrived](const tscope::BenchResult& r) {
            tscope::BenchResult copy = r;
            copy.output = {};  // the table never shows it; it may be large
            arrived(std::move(copy));
        };
        for (tscope::BenchResult& r : tscope::run_bench(t, request, control)) rows.push_back(std::move(r));
    }
    return rows;
}

// "COO, CSF, B-CSF and MM-CSF": the engine's list, in words.
QString multiGpuFormatsText() {
    QStringList names;
    for (tscope::FormatKind f : tscope::multi_gpu_formats()) names << QString::fromLatin1(tscope::format_name(f));
    const QString last = names.takeLast();
    return names.isEmpty() ? last : QObject::tr("%1 and %2").arg(names.join(QStringLiteral(", ")), last);
}

}  // namespace

KernelsPanel::KernelsPanel(QWidget* parent) : Panel(parent) {
    auto* layout = new QHBoxLayout(this);
    auto* side = new QWidget(this);
    buildControls(side);
    layout->addWidget(side);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->setObjectName(QStringLiteral("kernelsSplit"));
    right->addWidget(buildCharts(right));
    right->addWidget(buildTable(right));
    layout->addWidget(right, 1);
    // the recorded GPU scaling is no run of this table's: there the chart takes its room, where
    // at 1024 x 640 it had been a 20 px strip under its legend beside an empty table (sweep 74a F14)
    connect(chartTabs_, &QTabWidget::currentChanged, this,
            [this] { table_->setVisible(chartTabs_->currentWidget() != scaling_); });
    connectControls();
    setGpuCount(gpu_.available ? gpu_.count : 0);
    replot();  // the hint until the first run
}

// The form on the left: what to run, how, and the run's progress and outcome.
void KernelsPanel::buildControls(QWidget* side) {
    auto* form = form_ = new QFormLayout(side);
    kernel_ = new QComboBox(side);
    kernel_->setObjectName(QStringLiteral("kernelChoice"));
    kernel_->setProperty(kRemembered, true);
    for (tscope::KernelKind k : tscope::all_kernels())  // the registry's kernels; MTTKRP first chosen
        kernel_->addItem(QString::fromLatin1(tscope::kernel_title(k)), static_cast<int>(k));
    kernel_->setCurrentIndex(kernel_->findData(static_cast<int>(tscope::KernelKind::MTTKRP)));
    form->addRow(tr("Kernel:"), kernel_);
    formats_ = new QListWidget(side);
    formats_->setObjectName(QStringLiteral("kernelFormats"));
    formats_->setProperty(kRemembered, true);
    formats_->setMinimumHeight(150);
    form->addRow(tr("Formats:"), formats_);
    auto* backends = new QWidget(side);
    auto* bl = new QVBoxLayout(backends);
    bl->setContentsMargins(0, 0, 0, 0);
    cpuRef_ = new QCheckBox(tr("cpu-ref (serial oracle)"), backends);
    omp_ = new QCheckBox(tr("omp (OpenMP)"), backends);
    omp_->setChecked(true);
    cuda_ = new QCheckBox(tr("cuda"), backends);
    cpuRef_->setObjectName(QStringLiteral("kernelCpuRef"));
    omp_->setObjectName(QStringLiteral("kernelOmp"));
    cuda_->setObjectName(QStringLiteral("kernelCuda"));
    for (QCheckBox* b : {cpuRef_, omp_, cuda_}) b->setProperty(kRemembered, true);
    gpu_ = tscope::query_gpu();
    bl->addWidget(cpuRef_);
    bl->addWidget(omp_);
    bl->addWidget(cuda_);
    form->addRow(tr("Backends:"), backends);
    mode_ = new QComboBox(side);
    form->addRow(tr("Mode:"), mode_);
    rank_ = new QSpinBox(side);
    rank_->setObjectName(QStringLiteral("kernelRank"));
    rank_->setProperty(kRemembered, true);
    rank_->setRange(1, 1024);
    rank_->setValue(32);  // bench's and the Advisor's: the same kernel measures the same in each (sweep 66b M3)
    rank_->setToolTip(tr("The factors' columns (bench --rank)"));
    form->addRow(tr("Rank:"), rank_);
    repeat_ = new QSpinBox(side);
    repeat_->setObjectName(QStringLiteral("kernelRepeat"));
    repeat_->setProperty(kRemembered, true);
    repeat_->setToolTip(tr("Runs of each kernel; the table gives their median (bench --repeat)"));
    repeat_->setRange(1, 100);
    repeat_->setValue(3);
    form->addRow(tr("Repeats:"), repeat_);
    gpus_ = new QSpinBox(side);
    gpus_->setObjectName(QStringLiteral("kernelGpus"));
    gpus_->setRange(1, 1);
    form->addRow(tr("GPUs:"), gpus_);
    check_ = new QCheckBox(tr("compare with cpu-ref"), side);
    check_->setObjectName(QStringLiteral("kernelCheck"));
    check_->setProperty(kRemembered, true);
    check_->setChecked(true);
    form->addRow(QString(), check_);
    run_ = new QPushButton(tr("Run"), side);
    run_->setObjectName(QStringLiteral("kernelRun"));
    cancel_ = new QPushButton(tr("Cancel"), side);
    cancel_->setProperty(kCancelsWork, true);
    cancel_->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    form->addRow(buttons);
    // the bar's room is kept while it is hidden: shown, it pushed Run and Cancel up by its
    // height, and a click on Run right after a run missed it (sweep 66b A9)
    auto* slot = new QWidget(side);
    auto* slotLayout = new QVBoxLayout(slot);
    slotLayout->setContentsMargins(0, 0, 0, 0);
    progress_ = new QProgressBar(slot);
    progress_->setRange(0, 1000);
    slotLayout->addWidget(progress_);
    slot->setFixedHeight(progress_->sizeHint().height());
    progress_->hide();
    form->addRow(slot);
    status_ = new QLabel(tr("Open a tensor, pick what to run."), side);
    status_->setObjectName(QStringLiteral("kernelStatus"));
    status_->setWordWrap(true);
    // three lines kept for it: the form gave a status that had grown to two lines one line's
    // height after a run, cut through both (the formats list above takes what is left)
    status_->setMinimumHeight(3 * status_->fontMetrics().lineSpacing());
    status_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    form->addRow(status_);
    // 270 px, or what its labels and boxes need at the user's font: a fixed 270 cut "cpu-ref
    // (serial oracle)" and "Backends:" inside their widgets at a 150% font (sweep 74a F7)
    side->setMaximumWidth(std::max(270, form->minimumSize().width()));
}

// The charts' tabs: the results (with the chart's measure, recorded runs and CSV export), the
// roofline and the recorded GPU scaling.
QTabWidget* KernelsPanel::buildCharts(QWidget* parent) {
    chartTabs_ = new QTabWidget(parent);
    chartTabs_->setObjectName(QStringLiteral("kernelChartTabs"));
    auto* chartBox = new QWidget(chartTabs_);
    auto* cl = new QVBoxLayout(chartBox);
    cl->setContentsMargins(0, 0, 0, 0);
    auto* chartTop = new QHBoxLayout;
    chartTop->addWidget(new QLabel(tr("Chart:"), chartBox));
    measure_ = new QComboBox(chartBox);
    measure_->setObjectName(QStringLiteral("kernelMeasure"));
    measure_->setProperty(kRemembered, true);
    measure_->addItems({tr("time (sum of the modes' medians)"), tr("GFLOP/s (mean over modes)")});
    chartTop->addWidget(measure_);
    chartTop->addStretch(1);
    auto* recorded = new QPushButton(tr("Recorded…"), chartBox);
    recorded->setObjectName(QStringLiteral("kernelRecorded"));
    recorded->setToolTip(tr("Show a bench run recorded elsewhere (a GPU's, on a machine without one): the bundled "
                            "ones, or a file of tensorscope-cli bench --json or --jsonl"));
    auto* recordedMenu = new QMenu(recorded);
    for (const BenchRecording& r : bundledBenchRecordings())
        recordedMenu->addAction(r.title, this, [this, r] { showRecording(r); });
    recordedMenu->addSeparator();
    recordedMenu->addAction(tr("Open a bench JSON file…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Recorded bench run"), {}, tr("bench JSON (*.json *.jsonl)"));
        if (path.isEmpty()) return;
        QString error;
        if (const std::optional<BenchRecording> r = readBenchRecording(path, &error)) showRecording(*r);
        else QMessageBox::warning(this, tr("Recorded bench run"), error);
    });
    recorded->setMenu(recordedMenu);
    chartTop->addWidget(recorded);
    auto* exportCsv = new QPushButton(tr("Export CSV…"), chartBox);
    chartTop->addWidget(exportCsv);
    connect(exportCsv, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export results"), QStringLiteral("kernels.csv"), tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !writeCsv(*model_, path, &error)) QMessageBox::warning(this, tr("Export"), error);
    });
    cl->addLayout(chartTop);
    chart_ = new QCustomPlot(chartBox);
    chart_->setObjectName(QStringLiteral("kernelChart"));
    chart_->setMinimumHeight(240);
    chart_->legend->setVisible(true);
    placeLegendAbove(chart_);
    enablePlotExport(chart_);
    PlotInspector::attach(chart_, [this](QPointF pixel) { return describeBar(pixel); });
    cl->addWidget(chart_, 1);
    chartTabs_->addTab(chartBox, tr("Results"));
    roofline_ = new RooflinePlot(chartTabs_);
    chartTabs_->addTab(roofline_, tr("Roofline"));
    chartTabs_->setTabToolTip(chartTabs_->indexOf(roofline_),
                              tr("GFLOP/s against flops per minimum byte, under the copy bandwidth measured in the run and "
                                 "the peak"));
    scaling_ = new ScalingPlot(chartTabs_);
    chartTabs_->addTab(scaling_, tr("GPU scaling (recorded)"));
    chartTabs_->setTabToolTip(chartTabs_->indexOf(scaling_), tr("Seconds per MTTKRP sweep against the GPU count, from recordings of "
                                    "tensorscope-cli bench --gpus N --json"));
    return chartTabs_;
}

// The results table: sortable, the columns a reader compares first, first.
QTableView* KernelsPanel::buildTable(QWidget* parent) {
    model_ = new KernelResultsModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(Qt::UserRole);
    table_ = new QTableView(parent);
    table_->setObjectName(QStringLiteral("kernelTable"));
    setUpResultTable(table_);
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The note (the device, or why a run did not happen) takes the width left and is cut there,
    // whole in its tooltip: wrapped, it made rows of a word a line where the window is narrow.
    table_->horizontalHeader()->setSectionResizeMode(KernelResultsModel::Note, QHeaderView::Stretch);
    table_->setWordWrap(false);
    // what a reader compares first, first: the error against cpu-ref sat past the tab's edge,
    // behind the transfer column (empty without a GPU); the CSV keeps the model's order
    QHeaderView* header = table_->horizontalHeader();
    header->moveSection(header->visualIndex(KernelResultsModel::Error), header->visualIndex(KernelResultsModel::Median) + 1);
    header->moveSection(header->visualIndex(KernelResultsModel::Kernel), header->count() - 2);
    header->moveSection(header->visualIndex(KernelResultsModel::Rank), header->count() - 2);
    showTransferColumn();
    connect(model_, &QAbstractItemModel::rowsInserted, table_, &QTableView::resizeRowsToContents);
    connect(model_, &QAbstractItemModel::modelReset, table_, &QTableView::resizeRowsToContents);
    return table_;
}

// The form's and the job's signals.
void KernelsPanel::connectControls() {
    connect(kernel_, &QComboBox::currentIndexChanged, this, &KernelsPanel::fillFormats);
    for (QCheckBox* b : {cpuRef_, omp_, cuda_}) connect(b, &QCheckBox::toggled, this, &KernelsPanel::fillFormats);
    connect(kernel_, &QComboBox::currentIndexChanged, this, &KernelsPanel::updateGpus);
    connect(cuda_, &QCheckBox::toggled, this, &KernelsPanel::updateGpus);
    connect(run_, &QPushButton::clicked, this, &KernelsPanel::run);
    connect(cancel_, &QPushButton::clicked, &job_, &EngineJob::cancel);
    connect(measure_, &QComboBox::currentIndexChanged, this, &KernelsPanel::replot);
    connect(&job_, &EngineJob::progress, this, [this](int permille, const QString& stage) {
        progress_->setValue(permille);
        progress_->setFormat(stage + QStringLiteral(" %p%"));
    });
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) {
        settle(tr("Failed: see the message above."));
        Q_EMIT failed(message);
    });
    connect(&job_, &EngineJob::cancelled, this, [this] {
        // no one pressed Cancel where another tensor was opened (it read "Cancelled.", sweep 65b)
        settle(job_.superseded() && dataset_
                   ? tr("Ready: %1 nonzeros. The last tensor's run stopped when this one was opened.")
                         .arg(grouped(dataset_->tensor.nnz()))
                   : tr("Cancelled."));
    });
    connect(&job_, &EngineJob::idle, this, &Panel::idle);
}

void KernelsPanel::setGpuCount(int count) {
    gpuCount_ = std::max(0, count);
    cuda_->setEnabled(gpuCount_ > 0);
    if (gpuCount_ > 0) {
        const QString name = gpu_.name.empty() ? tr("GPU") : QString::fromStdString(gpu_.name);
        const QString full = gpuCount_ > 1 ? tr("cuda (%1 × %2)").arg(gpuCount_).arg(name) : tr("cuda (%1)").arg(name);
        // the settings column is narrow: "cuda (2 × NVIDIA H100 80GB HBM3)" is elided, whole in the tooltip
        cuda_->setText(cuda_->fontMetrics().elidedText(full, Qt::ElideMiddle, 200));
        cuda_->setToolTip(full);
    } else {
        cuda_->setText(tr("cuda (no device)"));  // why, in the tooltip: "hover for why" was cut at the column's edge
        cuda_->setToolTip(QString::fromStdString(gpu_.available ? std::string("no CUDA device") : gpu_.reason));
    }
    gpus_->setRange(1, std::max(1, gpuCount_));
    form_->setRowVisible(gpus_, gpuCount_ > 1);  // one GPU: nothing to choose, no box
    fillFormats();
    updateGpus();
}

// The GPUs box applies to cuda's MTTKRP only (the engine's multi-GPU run); elsewhere it stays
// in place, greyed, saying why.
void KernelsPanel::updateGpus() {
    const bool mttkrp = static_cast<tscope::KernelKind>(kernel_->currentData().toInt()) == tscope::KernelKind::MTTKRP;
    const bool applies = mttkrp && cuda_->isEnabled() && cuda_->isChecked();
    gpus_->setEnabled(applies);
    gpus_->setToolTip(applies ? tr("cuda's MTTKRP over this many GPUs: the nonzeros split into balanced parts, one per "
                                   "GPU, the parts' results combined with NCCL. Runs on %1; the other backends run apart, "
                                   "as before.")
                                    .arg(multiGpuFormatsText())
                              : tr("Applies to MTTKRP on the cuda backend: tick cuda and choose MTTKRP."));
}

void KernelsPanel::showScalingPlot() { chartTabs_->setCurrentWidget(scaling_); }

QCheckBox* KernelsPanel::backendBox(tscope::Backend b) const {
    return b == tscope::Backend::CpuRef ? cpuRef_ : b == tscope::Backend::Omp ? omp_ : cuda_;
}

void KernelsPanel::fillFormats() {
    QStringList checked;
    for (int i = 0; i < formats_->count(); ++i)
        if (formats_->item(i)->checkState() == Qt::Checked) checked << formats_->item(i)->text();
    const bool first = formats_->count() == 0;
    formats_->clear();
    const auto k = static_cast<tscope::KernelKind>(kernel_->currentData().toInt());
    for (tscope::FormatKind f : tscope::available_formats()) {
        const bool any = tscope::kernel_supports(k, tscope::Backend::Omp, f) ||
                         (cuda_->isEnabled() && tscope::kernel_supports(k, tscope::Backend::Cuda, f));
        if (!any) continue;
        auto* item = new QListWidgetItem(QString::fromLatin1(tscope::format_name(f)), formats_);
        const bool on = first ? (f == tscope::FormatKind::COO || f == tscope::FormatKind::CSF) : checked.contains(item->text());
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
}

void KernelsPanel::configure(tscope::KernelKind kernel, const QStringList& formats, std::uint64_t rank, int repeat) {
    kernel_->setCurrentIndex(kernel_->findData(static_cast<int>(kernel)));
    for (int i = 0; i < formats_->count(); ++i)
        formats_->item(i)->setCheckState(formats.contains(formats_->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
    rank_->setValue(static_cast<int>(rank));
    repeat_->setValue(repeat);
}

void KernelsPanel::setDataset(const DatasetPtr& dataset) {
    // the last tensor's rows and bars go with it, and so does its run; a recording stays, or
    // `tensorscope FILE --open-bench JSON` lost it to FILE's load (no run is on while one shows:
    // run() clears the flag, and showRecording waits for a run's end)
    const bool keep = showingRecording_;
    if (dataset != dataset_ && !keep) {
        job_.supersede();
        model_->setResults({});
        replot();
    }
    dataset_ = dataset;
    mode_->clear();
    mode_->addItem(tr("all modes"), -1);
    if (dataset_)
        for (int m = 0; m < dataset_->tensor.order(); ++m) mode_->addItem(tr("mode %1").arg(m + 1), m);
    if (!keep) status_->setText(dataset_ ? tr("Ready: %1 nonzeros.").arg(grouped(dataset_->tensor.nnz())) : QString());
}

bool KernelsPanel::runOwnWork() {
    run();
    return true;
}

std::vector<tscope::BenchRequest> KernelsPanel::requests(QString* why) const {
    tscope::BenchRequest request;
    request.kernel = static_cast<tscope::KernelKind>(kernel_->currentData().toInt());
    for (int i = 0; i < formats_->count(); ++i)
        if (formats_->item(i)->checkState() == Qt::Checked) request.formats.push_back(tscope::parse_format(formats_->item(i)->text().toStdString()));
    request.backends.clear();
    for (tscope::Backend b : {tscope::Backend::CpuRef, tscope::Backend::Omp, tscope::Backend::Cuda})
        if (backendBox(b)->isEnabled() && backendBox(b)->isChecked()) request.backends.push_back(b);
    if (request.formats.empty() || request.backends.empty()) {
        if (why) *why = tr("Choose at least one format and one backend.");
        return {};
    }
    if (mode_->currentData().isValid() && mode_->currentData().toInt() >= 0)
        request.modes = {mode_->currentData().toInt()};
    request.rank = static_cast<std::uint64_t>(rank_->value());
    request.repeat = repeat_->value();
    request.check = check_->isChecked();
    const auto cuda = std::find(request.backends.begin(), request.backends.end(), tscope::Backend::Cuda);
    if (!gpus_->isEnabled() || gpus_->value() < 2 || cuda == request.backends.end()) return {request};
    tscope::BenchRequest multi = request;
    multi.backends = {tscope::Backend::Cuda};
    multi.gpus = gpus_->value();
    request.backends.erase(cuda);
    if (request.backends.empty()) return {multi};
    return {request, multi};
}

void KernelsPanel::run() {
    if (!dataset_ || job_.isBusy()) return;
    QString why;
    const std::vector<tscope::BenchRequest> requests = this->requests(&why);
    if (requests.empty()) {
        status_->setText(why);
        return;
    }
    const DatasetPtr dataset = dataset_;
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    progress_->setValue(0);
    progress_->show();
    status_->setText(tr("Running…"));
    showingRecording_ = false;
    model_->setResults({});
    replot();
    // rows that arrive after another tensor was opened are the old one's: dropped
    const auto arrived = job_.relay<tscope::BenchResult>([this, dataset](tscope::BenchResult r) {
        if (dataset != dataset_) return;
        model_->addResult(std::move(r));  // the chart fills as each result arrives
        replot();
    });
    job_.start(
        [dataset, requests, arrived](tscope::RunControl& control) { return runRequests(dataset->tensor, requests, arrived, control); },
        [this, dataset](std::vector<tscope::BenchResult> results) {
            if (dataset == dataset_) showResults(std::move(results));
            else settle(tr("The last tensor's run ended; its results were dropped."));
        });
}

void KernelsPanel::showTransferColumn() {
    const auto& rows = model_->results();
    const bool gpuRows = std::any_of(rows.begin(), rows.end(), [](const tscope::BenchResult& r) { return r.backend == tscope::Backend::Cuda; });
    table_->horizontalHeader()->setSectionHidden(KernelResultsModel::Transfer, !(gpu_.available || gpuRows));
}

void KernelsPanel::settle(const QString& status) {
    showTransferColumn();
    progress_->hide();
    run_->setEnabled(true);
    cancel_->setEnabled(false);
    status_->setText(status);
    replot();  // the chart's hint stops saying "Running"
}

void KernelsPanel::showResults(std::vector<tscope::BenchResult> results) {
    std::size_t ran = 0;
    for (const auto& r : results) ran += r.ran;
    // the hover hint only where a row did not run (it showed after runs that all ran, sweep 66b)
    const QString status =
        ran == results.size()
            ? (ran == 1 ? tr("1 run done.") : tr("%1 runs done.").arg(ran))
            : tr("%1 of %2 runs done (hover a row that did not run for the reason).").arg(ran).arg(results.size());
    model_->setResults(std::move(results));
    settle(status);  // which replots
}

void KernelsPanel::showRecording(const BenchRecording& recording) {
    if (job_.isBusy()) {  // a run's rows are on their way (the choice did nothing, silently, sweep 65b)
        status_->setText(tr("A run is on: choose the recording again once it ends or is cancelled."));
        return;
    }
    // the Kernel box names the recorded kernel (where its rows share one), so that Run measures it here
    const auto differs = [&](const tscope::BenchResult& r) { return r.kernel != recording.rows.front().kernel; };
    if (!recording.rows.empty() && std::none_of(recording.rows.begin(), recording.rows.end(), differs))
        kernel_->setCurrentIndex(kernel_->findData(static_cast<int>(recording.rows.front().kernel)));
    model_->setResults(recording.rows);
    showingRecording_ = true;
    QString where = recording.device;
    if (!recording.tensor.isEmpty()) where += (where.isEmpty() ? QString() : QStringLiteral(", ")) + recording.tensor;
    if (!recording.commit.isEmpty()) where += tr(", commit %1").arg(recording.commit);
    chartTabs_->setCurrentWidget(roofline_);  // where a recorded run stands against its machine's roofs
    settle(tr("%1: %2 rows recorded on %3 (Run replaces them).")
               .arg(recording.title)
               .arg(recording.rows.size())
               .arg(where) +
           (recording.note.isEmpty() ? QString() : QStringLiteral(" ") + recording.note + QStringLiteral(".")));
}

void KernelsPanel::replot() {
    roofline_->setResults(model_->results());
    chart_->clearPlottables();
    const bool time = measure_->currentIndex() == 0;
    std::vector<QString> labels;
    std::map<std::pair<int, QString>, std::pair<double, int>> values;  // (backend, label) -> sum, count
    for (const tscope::BenchResult& r : model_->results()) {
        if (!r.ran) continue;
        // one bar per format whatever path each mode took (B-CSF's modes over tiles or not)
        const QString label = QString::fromStdString(tscope::format_label(r, false));
        if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
        auto& v = values[{static_cast<int>(r.backend), label}];
        v.first += time ? r.median_s : r.gflops;
        ++v.second;
    }
    setCategoryAxis(chart_->xAxis, QStringList(labels.begin(), labels.end()));
    chart_->xAxis->setTickLabelRotation(labels.size() > 5 ? 30 : 0);
    const double slot = 0.8 / 3;
    double hi = 0, lo = 1e300;
    for (int b = 0; b < 3; ++b) {
        QCPBars* bars = nullptr;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            auto it = values.find({b, labels[i]});
            if (it == values.end()) continue;
            if (!bars) {
                bars = new QCPBars(chart_->xAxis, chart_->yAxis);
                bars->setName(QString::fromLatin1(tscope::backend_name(static_cast<tscope::Backend>(b))));
                bars->setBrush(kBackendColours[b]);
                bars->setPen(QPen(kBackendColours[b].darker(130)));
                bars->setWidth(slot * 0.9);
            }
            const double v = time ? it->second.first : it->second.first / it->second.second;
            bars->addData(static_cast<double>(i) + (b - 1) * slot, v);
            hi = std::max(hi, v), lo = std::min(lo, v);
        }
    }
    // a log axis only when the bars span more than a factor 50 (a linear one reads better)
    const bool log = hi > 0 && hi / std::max(lo, 1e-300) > 50;
    const AxisUnit unit = time ? AxisUnit::Seconds : AxisUnit::Plain;
    if (log) {
        setLogAxis(chart_->yAxis, unit);
        chart_->yAxis->setRange(lo / 3, hi * 3);
        for (int i = 0; i < chart_->plottableCount(); ++i)
            if (auto* b = qobject_cast<QCPBars*>(chart_->plottable(i))) setLogBarsBase(b, lo / 3);
    } else {
        setLinearAxis(chart_->yAxis, unit);
        chart_->yAxis->setRange(0, hi > 0 ? hi * 1.1 : 1);
    }
    chart_->yAxis->setLabel(
        // short: the chart's measure box above says how the modes are summed; the longer title
        // was cut at both ends in a short window or at a large font (sweep 74c)
        (time ? tr("time, all modes run (lower is better)") : tr("GFLOP/s (higher is better)")) +
        (log ? tr(", log scale") : QString()));
    showPlotHint(chart_, labels.empty(),
                 job_.isBusy() ? tr("Running: the bars appear as each result arrives") : tr("Choose a kernel, formats and backends, and press Run"));
    PlotInspector::of(chart_)->rememberHome();
    chart_->replot();
}

QString KernelsPanel::describeBar(QPointF pixel) const {
    const auto hit = barAt(chart_, pixel);
    if (!hit) return {};
    const bool time = measure_->currentIndex() == 0;
    const QString label = categoryAt(chart_->xAxis, hit->key);
    int modes = 0;
    for (const tscope::BenchResult& r : model_->results())
        if (r.ran && QString::fromLatin1(tscope::backend_name(r.backend)) == hit->bars->name() &&
            label.startsWith(QString::fromLatin1(tscope::format_name(r.format))))
            ++modes;
    const QString over = counted(modes, tr("mode"), tr("modes"));
    return time ? tr("%1 on %2: %3 over %4").arg(label, hit->bars->name(), humanSeconds(hit->value), over)
                : tr("%1 on %2: %3 GFLOP/s, mean of %4").arg(label, hit->bars->name(), shortNumber(hit->value), over);
}

}  // namespace tsui
