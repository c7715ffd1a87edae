#include "panels/PipelinePanel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

#include "plots/PlotAxes.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotInspector.hpp"
#include "plots/TimelineStages.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/pipeline/pipeline_prediction.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// Okabe-Ito: copy-in blue, kernel orange, copy-out green.
const QColor kIn(0, 114, 178), kKernel(230, 159, 0), kOut(0, 158, 115);

void addLegendEntry(QCustomPlot* plot, const QString& name, const QColor& colour) {
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);  // no data: only its legend swatch shows
    bars->setName(name);
    bars->setBrush(colour);
    bars->setPen(QPen(colour.darker(140)));
}

// A recording may lack a time (a streamed CPD records no one-stream run and no model).
QString ms(double seconds) { return std::isnan(seconds) ? QObject::tr("not recorded") : humanSeconds(seconds); }

// a / b as a percentage, or "not recorded" where either is missing.
QString percent(double share, int decimals) {
    return std::isfinite(share) ? QStringLiteral("%1%").arg(share * 100, 0, 'f', decimals)
                                : QObject::tr("not recorded");
}

const char* const kStageNames[] = {QT_TRANSLATE_NOOP("PipelinePanel", "copy in"), QT_TRANSLATE_NOOP("PipelinePanel", "kernel"),
                                   QT_TRANSLATE_NOOP("PipelinePanel", "copy out")};

// The formats the pipelined SpTV streams; a prediction from another recording (a streamed
// CPD's B-CSF) cuts the tensor as HOCFS-CSR.
QString streamedFormat(const QString& recorded) {
    for (const char* f : {"HOCFS-CSR", "HOCFS-ELL", "CFB"})
        if (recorded == QLatin1String(f)) return recorded;
    return QStringLiteral("HOCFS-CSR");
}

}  // namespace

PipelinePanel::PipelinePanel(QWidget* parent) : Panel(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buildSourceRow());
    layout->addLayout(buildLiveRow());
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("pipelineSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    predict_ =
        new QCheckBox(tr("Predict the loaded tensor from this recording's device figures (Sec. 6.2 model)"), this);
    predict_->setObjectName(QStringLiteral("pipelinePredict"));
    predict_->setToolTip(tr(
        "Cuts the loaded tensor into chunks as a live run would, times each chunk's copies and kernel with the "
        "bandwidths and kernel time per entry measured in the chosen recording, and lays them out over its streams"));
    layout->addWidget(predict_);
    predictionLabel_ = new QLabel(this);
    predictionLabel_->setObjectName(QStringLiteral("pipelinePrediction"));
    predictionLabel_->setWordWrap(true);
    predictionLabel_->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #5c4400; padding: 4px; }"));
    predictionLabel_->hide();
    layout->addWidget(predictionLabel_);

    layout->addWidget(buildCharts(), 1);
    const tscope::GpuInfo gpu = tscope::query_gpu();
    if (!gpu.available) gpuReason_ = QString::fromStdString(gpu.reason);
    for (QWidget* w : std::initializer_list<QWidget*>{format_, streams_, chunk_, runButton_})
        w->setEnabled(gpu.available);
    runButton_->setToolTip(gpu.available
                               ? tr("Stream the loaded tensor through %1").arg(QString::fromStdString(gpu.name))
                               : tr("Needs a GPU: %1. The recordings above show real runs.").arg(gpuReason_));
    status_->setText(gpu.available ? tr("Open a tensor to run it here.")
                                   : tr("No live runs here (%1); showing recorded timelines.").arg(gpuReason_));

    connectControls();
    for (PipelineRecording& r : bundledRecordings()) addRecording(std::move(r));
    // open on the recording with the most streams: the one where overlap can show
    int most = 0;
    for (std::size_t i = 0; i < recordings_.size(); ++i)
        if (recordings_[i].runs[recordings_[i].best].streams >
            recordings_[static_cast<std::size_t>(most)].runs[recordings_[static_cast<std::size_t>(most)].best].streams)
            most = static_cast<int>(i);
    if (!recordings_.empty()) source_->setCurrentIndex(most);
    // without a GPU the loaded tensor's own (predicted) timeline is the useful default
    QSignalBlocker block(predict_);
    predict_->setChecked(!gpu.available);
}

// The recorded timelines: which recording, which of its runs, and a file to open.
QHBoxLayout* PipelinePanel::buildSourceRow() {
    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(new QLabel(tr("Timeline:"), this));
    source_ = new QComboBox(this);
    source_->setObjectName(QStringLiteral("pipelineSource"));
    // a recording's long title gives way first (the run list beside it keeps its figures), and
    // is read whole in the list and the tooltip
    source_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    source_->setMinimumContentsLength(30);
    connect(source_, &QComboBox::currentTextChanged, source_, &QWidget::setToolTip);
    sourceRow->addWidget(source_, 2);
    run_ = new QComboBox(this);
    run_->setObjectName(QStringLiteral("pipelineRun"));
    run_->setToolTip(tr("The settings this recording tried; the fastest is chosen first"));
    sourceRow->addWidget(run_, 1);
    auto* open = new QPushButton(tr("Open recording…"), this);
    open->setToolTip(tr("A JSON file written by `tensorscope-cli pipeline … --json`, or by a CPD that streamed its tensor "
                        "(`decompose … --backend cuda --limit-gpu-memory B --json`)"));
    sourceRow->addWidget(open);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open a pipeline recording"), QString(), tr("JSON (*.json)"));
        QString error;
        if (!path.isEmpty() && !openRecording(path, &error)) status_->setText(error);
    });
    return sourceRow;
}

// A live run on this machine's GPU: format, streams, chunks, Run, Cancel and its status.
QHBoxLayout* PipelinePanel::buildLiveRow() {
    auto* liveRow = new QHBoxLayout;
    liveRow->addWidget(new QLabel(tr("Live run on this GPU:"), this));
    format_ = new QComboBox(this);
    format_->addItems({QStringLiteral("HOCFS-CSR"), QStringLiteral("HOCFS-ELL"), QStringLiteral("CFB")});
    liveRow->addWidget(format_);
    streams_ = new QComboBox(this);
    streams_->addItem(tr("auto streams"), 0);
    for (int s = 1; s <= 8; ++s) streams_->addItem(counted(s, tr("stream"), tr("streams")), s);
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
    cancel_->setProperty(kCancelsWork, true);
    cancel_->hide();
    liveRow->addWidget(cancel_);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    liveRow->addWidget(status_, 1);
    return liveRow;
}

// The timeline (lanes of copies and kernels over time) beside the one-stream, pipelined and
// modelled times.
QSplitter* PipelinePanel::buildCharts() {
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("pipelineSplit"));
    timeline_ = new QCustomPlot(split);
    timeline_->setObjectName(QStringLiteral("pipelineTimeline"));
    timeline_->setMinimumHeight(300);
    timeline_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    timeline_->axisRect()->setRangeDrag(Qt::Horizontal);
    timeline_->axisRect()->setRangeZoom(Qt::Horizontal);
    timeline_->xAxis->setLabel(tr("time since the first copy-in — drag to pan, wheel to zoom"));
    setLinearAxis(timeline_->xAxis, AxisUnit::Seconds);
    // the legend in a row above the lanes, where it hides no chunk
    timeline_->legend->setVisible(true);
    timeline_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    timeline_->plotLayout()->insertRow(0);
    timeline_->plotLayout()->addElement(0, 0, timeline_->legend);
    timeline_->plotLayout()->setRowStretchFactor(0, 0.001);
    timeline_->legend->setBorderPen(Qt::NoPen);
    // a title row above the legend, shown only for a prediction: no one may read it as measured
    timeline_->plotLayout()->insertRow(0);
    timelineTitle_ = new QCPTextElement(timeline_, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    timelineTitle_->setTextColor(QColor(150, 60, 0));
    timeline_->plotLayout()->addElement(0, 0, timelineTitle_);
    timelineTitle_->setVisible(false);
    enablePlotExport(timeline_);
    compare_ = new QCustomPlot(split);
    compare_->setObjectName(QStringLiteral("pipelineComparison"));
    compare_->setMinimumSize(220, 200);  // never 0 high: QCustomPlot warns painting an empty buffer
    compare_->yAxis->setLabel(tr("time: one stream, pipelined, Sec. 6.2 model"));
    setLinearAxis(compare_->yAxis, AxisUnit::Seconds);
    enablePlotExport(compare_);
    split->addWidget(timeline_);
    split->addWidget(compare_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    return split;
}

// The controls' and the jobs' signals.
void PipelinePanel::connectControls() {
    connect(source_, &QComboBox::currentIndexChanged, this, &PipelinePanel::showRecording);
    connect(run_, &QComboBox::currentIndexChanged, this, &PipelinePanel::showRun);
    connect(runButton_, &QPushButton::clicked, this, &PipelinePanel::runLive);
    connect(cancel_, &QPushButton::clicked, &job_, &EngineJob::cancel);
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) { settle(tr("Failed: %1").arg(message)); });
    connect(&job_, &EngineJob::cancelled, this, [this] { settle(tr("Cancelled.")); });
    connect(&job_, &EngineJob::idle, this, &Panel::idle);
    connect(&predictJob_, &EngineJob::failed, this, [this](const QString& message) {
        predictionError_ = message;
        status_->setText(tr("No prediction: %1").arg(message));
        setPredicted(false);
    });
    connect(&predictJob_, &EngineJob::idle, this, [this] {
        if (!job_.isBusy()) Q_EMIT idle();
    });
    connect(predict_, &QCheckBox::toggled, this, &PipelinePanel::setPredicted);
    attachReadouts();
}

void PipelinePanel::setDataset(const DatasetPtr& dataset) {
    dataset_ = dataset;
    if (gpuReason_.isEmpty() && dataset_) status_->setText(tr("Ready to stream %1.").arg(dataset_->title));
    predictionError_.clear();
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

std::size_t PipelinePanel::stageCount() const { return stages_ ? stages_->stageCount() : 0; }

void PipelinePanel::showRecording(int index) {
    if (index < 0 || index >= static_cast<int>(recordings_.size())) return;
    const PipelineRecording& r = recordings_[static_cast<std::size_t>(index)];
    QSignalBlocker block(run_);
    run_->clear();
    for (const tscope::PipelineRun& run : r.runs)
        run_->addItem(counted(run.streams, tr("stream"), tr("streams")) +
                      (run.chunk_bytes ? tr(" × %1").arg(binaryBytes(run.chunk_bytes)) : tr(" × auto chunks")) +
                      // "measured": beside a prediction for the loaded tensor, a bare T_p read as
                      // that tensor's (15.8 ms in the list, 40.6 µs predicted beside it: sweep 72b)
                      tr(": measured T_p %1").arg(ms(run.t_pipe)));
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
    if (predict_->isChecked() && dataset_ && predictionError_.isEmpty()) {
        updatePrediction();
        return;
    }
    predictionLabel_->hide();
    const tscope::PipelineRun& run = r->runs[static_cast<std::size_t>(index)];
    summary_->setText(
        tr("<b>%1</b> on <b>%2</b>, %3 nonzeros (%4 copied in)%5<br>"
           "%6 over %7: T<sub>s</sub> (one stream) %8, T<sub>p</sub> %9, model (Sec. 6.2) %10 — "
           "T<sub>s</sub>/T<sub>p</sub> = %11. Copies hidden under kernels: %12 of the copy time; "
           "kernels take %13 of the copy time, so at most that much can hide (%14 of it did).")
            .arg(r->format.toHtmlEscaped(), r->device.isEmpty() ? tr("an unknown GPU") : r->device.toHtmlEscaped(),
                 grouped(r->nnz), humanBytes(r->bytesIn),
                 r->tensor.isEmpty() ? QString() : tr(" — tensor: <i>%1</i>").arg(r->tensor.toHtmlEscaped()))
            .arg(counted(static_cast<qint64>(run.chunks.size()), tr("chunk"), tr("chunks")))
            .arg(counted(run.streams, tr("stream"), tr("streams")))
            .arg(ms(run.t_sync), ms(run.t_pipe), ms(run.t_model))
            .arg(std::isfinite(run.t_sync) && run.t_pipe > 0 ? QString::number(run.t_sync / run.t_pipe, 'f', 2)
                                                             : tr("not recorded"))
            .arg(percent(run.overlap, 1))
            .arg(percent(run.transfer_s > 0 ? run.kernel_s / run.transfer_s : NAN, 1))
            .arg(percent(run.overlap_of_possible, 0)) +
        (r->commit.isEmpty() ? QString() : tr(" <small>(commit %1)</small>").arg(r->commit.left(8))) +
        otherTensorNote(*r));
    drawTimeline(run, false);
    drawComparison(run);
}

void PipelinePanel::drawTimeline(const tscope::PipelineRun& run, bool predicted) {
    drawnPredicted_ = predicted;
    timelineTitle_->setVisible(predicted);
    timelineTitle_->setText(predicted ? tr("PREDICTED from %1's device figures — not measured").arg(predictedFrom_) : QString());
    timeline_->clearItems();
    timeline_->clearPlottables();
    stages_ = nullptr;  // deleted with the plottables
    addLegendEntry(timeline_, tr("copy in (host → GPU)"), kIn);
    addLegendEntry(timeline_, tr("kernel"), kKernel);
    addLegendEntry(timeline_, tr("copy out (GPU → host)"), kOut);
    // lane 0 (top): the same chunks on one stream; lanes 1..s: the pipelined streams
    const int lanes = run.streams + 1;
    auto laneOf = [&](int stream) { return static_cast<double>(lanes - 1 - stream - 1); };
    const double syncLane = static_cast<double>(lanes - 1);
    double end = 0;
    std::vector<TimelineStages::Stage> stages;
    stages.reserve(3 * (run.sync_chunks.size() + run.chunks.size()));
    auto draw = [&](const tscope::PipelineChunk& c, int chunk, double lane, int stream) {
        stages.push_back({lane, c.in_start, c.in_end, 0, chunk, stream});
        stages.push_back({lane, c.kernel_start, c.kernel_end, 1, chunk, stream});
        stages.push_back({lane, c.out_start, c.out_end, 2, chunk, stream});
        end = std::max(end, c.out_end);
    };
    for (std::size_t i = 0; i < run.sync_chunks.size(); ++i) draw(run.sync_chunks[i], static_cast<int>(i), syncLane, -1);
    for (std::size_t i = 0; i < run.chunks.size(); ++i) draw(run.chunks[i], static_cast<int>(i), laneOf(run.chunks[i].stream), run.chunks[i].stream);
    stages_ = new TimelineStages(timeline_->xAxis, timeline_->yAxis);
    stages_->removeFromLegend();
    stages_->setStages(std::move(stages), {kIn, kKernel, kOut});
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(syncLane, run.sync_chunks.empty() ? tr("(sync not recorded)") : tr("synchronous"));
    for (int s = 0; s < run.streams; ++s) ticker->addTick(laneOf(s), tr("stream %1").arg(s + 1));
    timeline_->yAxis->setTicker(ticker);
    timeline_->yAxis->setRange(-0.7, lanes - 0.3);
    timeline_->yAxis->grid()->setVisible(false);
    timeline_->xAxis->setRange(0, end * 1.02);
    if (PlotInspector* inspector = PlotInspector::of(timeline_)) inspector->rememberHome();
    timeline_->replot();
}

void PipelinePanel::drawComparison(const tscope::PipelineRun& run) {
    compare_->clearPlottables();
    auto* bars = new QCPBars(compare_->xAxis, compare_->yAxis);
    bars->setBrush(QColor(0, 114, 178, 180));
    bars->setPen(QPen(QColor(0, 114, 178).darker(130)));
    // a time the recording lacks has no bar, and its label says so
    const double times[] = {run.t_sync, run.t_pipe, run.t_model};
    const char* const names[] = {QT_TR_NOOP("T_s"), QT_TR_NOOP("T_p"), QT_TR_NOOP("model")};
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top = 0;
    for (int k = 0; k < 3; ++k) {
        const bool recorded = std::isfinite(times[k]);
        if (recorded) bars->addData(k + 1, times[k]), top = std::max(top, times[k]);
        ticker->addTick(k + 1, recorded ? tr(names[k]) : tr("%1\n(not recorded)").arg(tr(names[k])));
    }
    compare_->xAxis->setTicker(ticker);
    compare_->xAxis->setRange(0.4, 3.6);
    compare_->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
    if (PlotInspector* inspector = PlotInspector::of(compare_)) inspector->rememberHome();
    compare_->replot();
}

// --- the predicted timeline (hocfs-sptv-pipeline Sec. 6.2 without a GPU) ---

bool PipelinePanel::showingPrediction() const { return drawnPredicted_ && predict_->isChecked(); }

QString PipelinePanel::predictionText() const { return predictionLabel_->isHidden() ? QString() : predictionLabel_->text(); }

void PipelinePanel::setPredicted(bool on) {
    if (predict_->isChecked() != on) {
        QSignalBlocker block(predict_);
        predict_->setChecked(on);
    }
    if (on) predictionError_.clear();
    if (current()) showRun(run_->currentIndex() < 0 ? 0 : run_->currentIndex());
}

// Cutting the tensor needs its format built: long work, so it runs on a worker; timing the
// chunks is a few multiplications per chunk and runs here. The job's end calls back in here,
// so a recording or run chosen meanwhile is predicted with the plan it needs.
void PipelinePanel::updatePrediction() {
    const PipelineRecording* r = current();
    const tscope::PipelineRun* run = currentRun();
    if (!r || !run || !dataset_) return;
    const QString format = streamedFormat(r->format);
    const std::uint64_t chunkBytes = run->chunk_bytes ? run->chunk_bytes : 64ull << 20;
    if (plan_.dataset.lock() == dataset_ && plan_.format == format && plan_.chunkBytes == chunkBytes) {
        showPrediction(*r, *run);
        return;
    }
    if (predictJob_.isBusy()) return;
    status_->setText(tr("Cutting %1 into %2 chunks for the prediction…").arg(dataset_->title, format));
    const DatasetPtr dataset = dataset_;
    const tscope::FormatKind kind = tscope::parse_format(format.toStdString());
    predictJob_.setActivity(tr("cutting %1 into chunks").arg(dataset->title));
    predictJob_.start(
        [dataset, kind, chunkBytes](tscope::RunControl& control) {
            const tscope::CooTensor& t = dataset->tensor;
            const int mode = t.order() - 1;  // as a live run contracts it
            const auto f = tscope::build_format(kind, t, tscope::sptv_options(kind, t.order(), mode), control);
            return tscope::pipeline_chunk_plan(*f, chunkBytes);
        },
        [this, dataset, format, chunkBytes](std::vector<tscope::PipelineChunk> chunks) {
            plan_ = {dataset, format, chunkBytes, std::move(chunks)};
            if (predict_->isChecked()) updatePrediction();
        });
}

void PipelinePanel::showPrediction(const PipelineRecording& from, const tscope::PipelineRun& measured) {
    tscope::DeviceFigures figures;
    try {
        figures = tscope::device_figures(measured);
        predicted_ = tscope::predict_pipeline(plan_.chunks, figures, measured.streams, plan_.chunkBytes);
    } catch (const std::exception& e) {  // a recording without sizes: say so, show it as measured
        predictionError_ = QString::fromStdString(e.what());
        status_->setText(tr("No prediction from this recording: %1").arg(predictionError_));
        drawnPredicted_ = false;
        showRun(run_->currentIndex());
        return;
    }
    const QString device = from.device.isEmpty() ? tr("an unknown GPU") : from.device;
    predictedFrom_ = device;
    const tscope::PipelineRun& p = predicted_;
    predictionLabel_->setText(tr("<b>Predicted, not measured:</b> %1 timed with the device figures of the recording “%2” "
                                 "(copy in %3 GB/s, copy out %4 GB/s, kernel %5 per stored entry).")
                                  .arg(dataset_->title.toHtmlEscaped(), from.title.toHtmlEscaped(), shortNumber(figures.h2d_bytes_per_s / 1e9),
                                       shortNumber(figures.d2h_bytes_per_s / 1e9), humanSeconds(figures.kernel_s_per_entry)));
    predictionLabel_->show();
    summary_->setText(
        tr("<b>%1</b> (%2 nonzeros) as <b>%3</b>, contracting mode %12 (the last, as this tab's live runs do; "
           "<tt>tensorscope-cli pipeline</tt> takes <tt>--mode</tt>), cut as a live run cuts it: %4 of at most %5 "
           "(or one slice, where a slice is larger) over %6 on "
           "<b>%7</b> (predicted). T<sub>s</sub> (one stream) %8, T<sub>p</sub> %9, model (Sec. 6.2) %10 — "
           "speedup T<sub>s</sub>/T<sub>p</sub> = %11. Copy and launch latencies are not modelled, so tiny chunks "
           "come out faster than a GPU would run them.")
            .arg(dataset_->title.toHtmlEscaped(), grouped(dataset_->tensor.nnz()), plan_.format)
            .arg(counted(static_cast<qint64>(p.chunks.size()), tr("chunk"), tr("chunks")))
            .arg(binaryBytes(plan_.chunkBytes))
            .arg(counted(p.streams, tr("stream"), tr("streams")))
            .arg(device.toHtmlEscaped(), ms(p.t_sync), ms(p.t_pipe), ms(p.t_model),
                 shortNumber(p.t_pipe > 0 ? p.t_sync / p.t_pipe : 0))
            .arg(dataset_->tensor.order()));
    status_->setText(gpuReason_.isEmpty() ? tr("Showing a prediction; untick it to see the recording.")
                                          : tr("No live runs here (%1); showing %2's predicted timeline.").arg(gpuReason_, dataset_->title));
    drawTimeline(predicted_, true);
    drawComparison(predicted_);
}

// --- hover readouts ---

QString PipelinePanel::timelineTextAt(QPointF pixel) const {
    if (!timeline_->axisRect()->rect().contains(pixel.toPoint())) return {};
    const TimelineStages::Stage* best = stages_ ? stages_->stageAt(pixel) : nullptr;
    if (!best) return {};
    const QString where = best->stream < 0 ? tr("one-stream run") : tr("stream %1").arg(best->stream + 1);
    return tr("chunk %1, %2: %3, start %4, duration %5%6")
        .arg(grouped(static_cast<std::uint64_t>(best->chunk) + 1))
        .arg(where, tr(kStageNames[best->colour]), humanSeconds(best->from), humanSeconds(best->to - best->from),
             drawnPredicted_ ? tr(" (predicted)") : QString());
}

void PipelinePanel::attachReadouts() {
    PlotInspector::attach(timeline_, [this](QPointF pixel) { return timelineTextAt(pixel); });
    PlotInspector::attach(compare_, [this](QPointF pixel) -> QString {
        const auto hit = barAt(compare_, pixel);
        if (!hit) return {};
        static const char* const names[] = {"", "T_s (one stream)", "T_p (pipelined)", "Sec. 6.2 model"};
        const int k = static_cast<int>(std::lround(hit->key));
        if (k < 1 || k > 3) return {};
        return tr("%1: %2%3").arg(QString::fromLatin1(names[k]), humanSeconds(hit->value), drawnPredicted_ ? tr(" (predicted)") : QString());
    });
}

bool PipelinePanel::runOwnWork() {
    runLive();
    return true;
}

void PipelinePanel::runLive() {
    if (!gpuReason_.isEmpty()) {
        status_->setText(tr("Cannot run here: %1").arg(gpuReason_));
        // the banner too, as the other tabs say a run they cannot make: --tab Pipeline --run
        // had exited 0 having run nothing (sweep 72b F4)
        if (dataset_) Q_EMIT failed(tr("cannot run here: %1").arg(gpuReason_));
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
                   setPredicted(false);  // a measured run is shown as measured
                   addRecording(fromReport(report, QString::fromStdString(tscope::query_gpu().name), dataset_ ? dataset_->title : QString()));
                   settle(tr("Done."));
               });
}

tscope::PipelineReport PipelinePanel::stream(const tscope::CooTensor& t, tscope::FormatKind kind, const tscope::PipelineOptions& options,
                                             tscope::RunControl& control) {
    tscope::check_values_fit_gpu(t);
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
