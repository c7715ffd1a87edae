#include "panels/PipelinePanel.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "plots/PlotExport.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/sptv.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// Okabe-Ito: copy-in blue, kernel orange, copy-out green.
const QColor kIn(0, 114, 178), kKernel(230, 159, 0), kOut(0, 158, 115);

void addStage(QCustomPlot* plot, double lane, double from, double to, const QColor& colour) {
    auto* rect = new QCPItemRect(plot);
    rect->topLeft->setCoords(from * 1e3, lane + 0.35);
    rect->bottomRight->setCoords(to * 1e3, lane - 0.35);
    rect->setBrush(colour);
    rect->setPen(QPen(colour.darker(140), 0.5));
}

void addLegendEntry(QCustomPlot* plot, const QString& name, const QColor& colour) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);  // no data: only its legend swatch shows
    bars->setName(name);
    bars->setBrush(colour);
    bars->setPen(QPen(colour.darker(140)));
}

QString ms(double seconds) { return QObject::tr("%1 ms").arg(seconds * 1e3, 0, 'f', 2); }

}  // namespace

PipelinePanel::PipelinePanel(QWidget* parent) : Panel(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(new QLabel(tr("Timeline:"), this));
    source_ = new QComboBox(this);
    source_->setObjectName(QStringLiteral("pipelineSource"));
    sourceRow->addWidget(source_, 2);
    run_ = new QComboBox(this);
    run_->setObjectName(QStringLiteral("pipelineRun"));
    run_->setToolTip(tr("The settings this recording tried; the fastest is chosen first"));
    sourceRow->addWidget(run_, 1);
    auto* open = new QPushButton(tr("Open recording…"), this);
    open->setToolTip(tr("A JSON file written by `tensorscope-cli pipeline … --json`, or by a CPD that streamed its tensor "
                        "(`decompose … --backend cuda --limit-gpu-memory B --json`)"));
    sourceRow->addWidget(open);
    layout->addLayout(sourceRow);

    auto* liveRow = new QHBoxLayout;
    liveRow->addWidget(new QLabel(tr("Live run on this GPU:"), this));
    format_ = new QComboBox(this);
    format_->addItems({QStringLiteral("HOCFS-CSR"), QStringLiteral("HOCFS-ELL"), QStringLiteral("CFB")});
    liveRow->addWidget(format_);
    streams_ = new QComboBox(this);
    streams_->addItem(tr("auto streams"), 0);
    for (int s = 1; s <= 8; ++s) streams_->addItem(tr("%n stream(s)", nullptr, s), s);
    streams_->setCurrentIndex(4);
    liveRow->addWidget(streams_);
    chunk_ = new QComboBox(this);
    chunk_->addItem(tr("auto chunks"), 0);
    for (int mb : {16, 64, 256}) chunk_->addItem(tr("%1 MiB chunks").arg(mb), mb);
    chunk_->setCurrentIndex(2);
    liveRow->addWidget(chunk_);
    runButton_ = new QPushButton(tr("Run"), this);
    runButton_->setObjectName(QStringLiteral("pipelineRunButton"));
    liveRow->addWidget(runButton_);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->hide();
    liveRow->addWidget(cancel_);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    liveRow->addWidget(status_, 1);
    layout->addLayout(liveRow);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("pipelineSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    auto* split = new QSplitter(Qt::Horizontal, this);
    timeline_ = new QCustomPlot(split);
    timeline_->setObjectName(QStringLiteral("pipelineTimeline"));
    timeline_->setMinimumHeight(300);
    timeline_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    timeline_->axisRect()->setRangeDrag(Qt::Horizontal);
    timeline_->axisRect()->setRangeZoom(Qt::Horizontal);
    timeline_->xAxis->setLabel(tr("time since the first copy-in (ms) — drag to pan, wheel to zoom"));
    // the legend in a row above the lanes, where it hides no chunk
    timeline_->legend->setVisible(true);
    timeline_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    timeline_->plotLayout()->insertRow(0);
    timeline_->plotLayout()->addElement(0, 0, timeline_->legend);
    timeline_->plotLayout()->setRowStretchFactor(0, 0.001);
    timeline_->legend->setBorderPen(Qt::NoPen);
    enablePlotExport(timeline_);
    compare_ = new QCustomPlot(split);
    compare_->setObjectName(QStringLiteral("pipelineComparison"));
    compare_->setMinimumWidth(220);
    compare_->yAxis->setLabel(tr("ms: one stream, pipelined, predicted"));
    enablePlotExport(compare_);
    split->addWidget(timeline_);
    split->addWidget(compare_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    const tscope::GpuInfo gpu = tscope::query_gpu();
    if (!gpu.available) gpuReason_ = QString::fromStdString(gpu.reason);
    for (QWidget* w : std::initializer_list<QWidget*>{format_, streams_, chunk_, runButton_}) w->setEnabled(gpu.available);
    runButton_->setToolTip(gpu.available ? tr("Stream the loaded tensor through %1").arg(QString::fromStdString(gpu.name))
                                         : tr("Needs a GPU: %1. The recordings above show real runs.").arg(gpuReason_));
    status_->setText(gpu.available ? tr("Open a tensor to run it here.")
                                   : tr("No live runs here (%1); showing recorded timelines.").arg(gpuReason_));

    connect(source_, &QComboBox::currentIndexChanged, this, &PipelinePanel::showRecording);
    connect(run_, &QComboBox::currentIndexChanged, this, &PipelinePanel::showRun);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a pipeline recording"), QString(), tr("JSON (*.json)"));
        QString error;
        if (!path.isEmpty() && !openRecording(path, &error)) status_->setText(error);
    });
    connect(runButton_, &QPushButton::clicked, this, &PipelinePanel::runLive);
    connect(cancel_, &QPushButton::clicked, &job_, &EngineJob::cancel);
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) { settle(tr("Failed: %1").arg(message)); });
    connect(&job_, &EngineJob::cancelled, this, [this] { settle(tr("Cancelled.")); });
    connect(&job_, &EngineJob::idle, this, &Panel::idle);

    for (PipelineRecording& r : bundledRecordings()) addRecording(std::move(r));
    // open on the recording with the most streams: the one where overlap can show
    int most = 0;
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].runs[recordings_[i].best].streams > recordings_[static_cast<std::size_t>(most)].runs[recordings_[static_cast<std::size_t>(most)].best].streams)
            most = static_cast<int>(i);
    if (!recordings_.empty()) source_->setCurrentIndex(most);
}

void PipelinePanel::setDataset(const DatasetPtr& dataset) {
    dataset_ = dataset;
    if (gpuReason_.isEmpty() && dataset_) status_->setText(tr("Ready to stream %1.").arg(dataset_->title));
    if (current()) showRun(run_->currentIndex() < 0 ? 0 : run_->currentIndex());  // the summary names the tensor it is of
}

void PipelinePanel::addRecording(PipelineRecording recording) {
    recordings_.push_back(std::move(recording));
    source_->addItem(recordings_.back().title);
    source_->setCurrentIndex(source_->count() - 1);
}

bool PipelinePanel::openRecording(const QString& path, QString* error) {
    auto r = readRecording(path, error);
    if (!r) return false;
    r->title = tr("File: %1").arg(QFileInfo(path).fileName()) + QStringLiteral(" · ") + r->title;
    addRecording(std::move(*r));
    return true;
}

const PipelineRecording* PipelinePanel::current() const {
    const int i = source_->currentIndex();
    return i >= 0 && i < static_cast<int>(recordings_.size()) ? &recordings_[static_cast<std::size_t>(i)] : nullptr;
}

const tscope::PipelineRun* PipelinePanel::currentRun() const {
    const PipelineRecording* r = current();
    const int i = run_->currentIndex();
    return r && i >= 0 && i < static_cast<int>(r->runs.size()) ? &r->runs[static_cast<std::size_t>(i)] : nullptr;
}

QString PipelinePanel::summaryText() const { return summary_->text(); }

void PipelinePanel::showRecording(int index) {
    if (index < 0 || index >= static_cast<int>(recordings_.size())) return;
    const PipelineRecording& r = recordings_[static_cast<std::size_t>(index)];
    QSignalBlocker block(run_);
    run_->clear();
    for (const tscope::PipelineRun& run : r.runs)
        run_->addItem(tr("%n stream(s)", nullptr, run.streams) + tr(" × %1 MiB: T_p %2").arg(run.chunk_bytes >> 20).arg(ms(run.t_pipe)));
    run_->setCurrentIndex(static_cast<int>(r.best));
    showRun(static_cast<int>(r.best));
}

// A recording of another tensor than the loaded one says so plainly (a user with MovieLens open
// must not read a 100M-nonzero recording as MovieLens's timeline).
QString PipelinePanel::otherTensorNote(const PipelineRecording& r) const {
    if (!dataset_ || r.nnz == dataset_->tensor.nnz()) return {};
    return tr("<br><b>This is a recording of another tensor</b> (%1 nonzeros), not of the loaded %2 (%3 nonzeros).")
        .arg(grouped(r.nnz), dataset_->title.toHtmlEscaped(), grouped(dataset_->tensor.nnz()));
}

void PipelinePanel::showRun(int index) {
    const PipelineRecording* r = current();
    if (!r || index < 0 || index >= static_cast<int>(r->runs.size())) return;
    const tscope::PipelineRun& run = r->runs[static_cast<std::size_t>(index)];
    summary_->setText(
        tr("<b>%1</b> on <b>%2</b>, %3 nonzeros (%4 copied in)%5<br>"
           "%6 chunks over %7 stream(s): T<sub>s</sub> (one stream) %8, T<sub>p</sub> %9, model (Sec. 6.2) %10 — "
           "T<sub>s</sub>/T<sub>p</sub> = %11. Copies hidden under kernels: %12 of the copy time; "
           "kernels take %13 of the copy time, so at most that much can hide (%14 of it did).")
            .arg(r->format, r->device.isEmpty() ? tr("an unknown GPU") : r->device, grouped(r->nnz), humanBytes(r->bytesIn),
                 r->tensor.isEmpty() ? QString() : tr(" — tensor: <i>%1</i>").arg(r->tensor.toHtmlEscaped()))
            .arg(run.chunks.size())
            .arg(run.streams)
            .arg(ms(run.t_sync), ms(run.t_pipe), ms(run.t_model))
            .arg(run.t_pipe > 0 ? run.t_sync / run.t_pipe : 0, 0, 'f', 2)
            .arg(QStringLiteral("%1%").arg(run.overlap * 100, 0, 'f', 1))
            .arg(QStringLiteral("%1%").arg(run.transfer_s > 0 ? run.kernel_s / run.transfer_s * 100 : 0, 0, 'f', 1))
            .arg(QStringLiteral("%1%").arg(run.overlap_of_possible * 100, 0, 'f', 0)) +
        (r->commit.isEmpty() ? QString() : tr(" <small>(commit %1)</small>").arg(r->commit.left(8))) + otherTensorNote(*r));
    drawTimeline(run);
    drawComparison(run);
}

void PipelinePanel::drawTimeline(const tscope::PipelineRun& run) {
    timeline_->clearItems();
    timeline_->clearPlottables();
    addLegendEntry(timeline_, tr("copy in (host → GPU)"), kIn);
    addLegendEntry(timeline_, tr("kernel"), kKernel);
    addLegendEntry(timeline_, tr("copy out (GPU → host)"), kOut);
    // lane 0 (top): the same chunks on one stream; lanes 1..s: the pipelined streams
    const int lanes = run.streams + 1;
    auto laneOf = [&](int stream) { return static_cast<double>(lanes - 1 - stream - 1); };
    const double syncLane = static_cast<double>(lanes - 1);
    double end = 0;
    for (const tscope::PipelineChunk& c : run.sync_chunks) {
        addStage(timeline_, syncLane, c.in_start, c.in_end, kIn);
        addStage(timeline_, syncLane, c.kernel_start, c.kernel_end, kKernel);
        addStage(timeline_, syncLane, c.out_start, c.out_end, kOut);
        end = std::max(end, c.out_end);
    }
    for (const tscope::PipelineChunk& c : run.chunks) {
        addStage(timeline_, laneOf(c.stream), c.in_start, c.in_end, kIn);
        addStage(timeline_, laneOf(c.stream), c.kernel_start, c.kernel_end, kKernel);
        addStage(timeline_, laneOf(c.stream), c.out_start, c.out_end, kOut);
        end = std::max(end, c.out_end);
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(syncLane, run.sync_chunks.empty() ? tr("(sync not recorded)") : tr("synchronous"));
    for (int s = 0; s < run.streams; ++s) ticker->addTick(laneOf(s), tr("stream %1").arg(s + 1));
    timeline_->yAxis->setTicker(ticker);
    timeline_->yAxis->setRange(-0.7, lanes - 0.3);
    timeline_->yAxis->grid()->setVisible(false);
    timeline_->xAxis->setRange(0, end * 1e3 * 1.02);
    timeline_->replot();
}

void PipelinePanel::drawComparison(const tscope::PipelineRun& run) {
    compare_->clearPlottables();
    auto* bars = new QCPBars(compare_->xAxis, compare_->yAxis);
    bars->setBrush(QColor(0, 114, 178, 180));
    bars->setPen(QPen(QColor(0, 114, 178).darker(130)));
    bars->setData({1, 2, 3}, {run.t_sync * 1e3, run.t_pipe * 1e3, run.t_model * 1e3});
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(1, tr("T_s"));
    ticker->addTick(2, tr("T_p"));
    ticker->addTick(3, tr("model"));
    compare_->xAxis->setTicker(ticker);
    compare_->xAxis->setRange(0.4, 3.6);
    compare_->yAxis->setRange(0, std::max({run.t_sync, run.t_pipe, run.t_model}) * 1e3 * 1.15);
    compare_->replot();
}

bool PipelinePanel::runOwnWork() {
    runLive();
    return true;
}

void PipelinePanel::runLive() {
    if (!gpuReason_.isEmpty()) {
        status_->setText(tr("Cannot run here: %1").arg(gpuReason_));
        return;
    }
    if (!dataset_ || job_.isBusy()) return;
    const DatasetPtr dataset = dataset_;
    const tscope::FormatKind kind = tscope::parse_format(format_->currentText().toStdString());
    tscope::PipelineOptions options;
    options.streams = streams_->currentData().toInt();
    options.chunk_bytes = static_cast<std::uint64_t>(chunk_->currentData().toInt()) << 20;
    status_->setText(tr("Streaming %1 through the GPU…").arg(dataset_->title));
    runButton_->setEnabled(false);
    cancel_->show();
    job_.start([dataset, kind, options](tscope::RunControl& control) { return stream(dataset->tensor, kind, options, control); },
               [this](const tscope::PipelineReport& report) {
                   addRecording(fromReport(report, QString::fromStdString(tscope::query_gpu().name), dataset_ ? dataset_->title : QString()));
                   settle(tr("Done."));
               });
}

tscope::PipelineReport PipelinePanel::stream(const tscope::CooTensor& t, tscope::FormatKind kind, const tscope::PipelineOptions& options,
                                             tscope::RunControl& control) {
    const int mode = t.order() - 1;
    const auto format = tscope::build_format(kind, t, tscope::sptv_options(kind, t.order(), mode), control);
    const tscope::DenseMatrix vm = tscope::random_matrix(t.dim(mode), 1, 101 + std::uint64_t(mode));
    const std::vector<double> v(vm.data.begin(), vm.data.end());
    return tscope::pipeline_sptv(*format, mode, v, options, control);
}

void PipelinePanel::settle(const QString& status) {
    runButton_->setEnabled(true);
    cancel_->hide();
    status_->setText(status);
}

}  // namespace tsui
