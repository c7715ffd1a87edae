#include "plots/ScalingPlot.hpp"

#include <qcustomplot.h>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

#include "plots/LegendColumns.hpp"
#include "plots/PlotAxes.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotInspector.hpp"
#include "views/ComboWidth.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// Okabe-Ito: distinct under the common colour-vision deficiencies.
const QColor kLineColours[] = {QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115), QColor(204, 121, 167),
                               QColor(230, 159, 0), QColor(86, 180, 233), QColor(0, 0, 0)};

const QCPScatterStyle::ScatterShape kMarkers[] = {QCPScatterStyle::ssCircle,           QCPScatterStyle::ssSquare,
                                                  QCPScatterStyle::ssTriangle,         QCPScatterStyle::ssDiamond,
                                                  QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssStar};

}  // namespace

ScalingPlot::ScalingPlot(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    sources_ = new QLabel(this);
    sources_->setObjectName(QStringLiteral("scalingSources"));
    sources_->setWordWrap(true);
    top->addWidget(sources_, 1);
    tensorBox_ = new QComboBox(this);
    tensorBox_->setObjectName(QStringLiteral("scalingTensor"));
    tensorBox_->setToolTip(tr("The tensor whose recordings are drawn"));
    sizeComboToText(tensorBox_);
    tensorBox_->hide();
    top->addWidget(tensorBox_);
    auto* open = new QPushButton(tr("Open recording…"), this);
    open->setObjectName(QStringLiteral("scalingOpen"));
    open->setToolTip(tr("A JSON file written by tensorscope-cli bench --gpus N --json (or a JSON list of them)"));
    top->addWidget(open);
    layout->addLayout(top);

    stack_ = new QStackedWidget(this);
    hint_ = new QLabel(stack_);
    hint_->setObjectName(QStringLiteral("scalingHint"));
    hint_->setAlignment(Qt::AlignCenter);
    hint_->setWordWrap(true);
    hint_->setTextInteractionFlags(Qt::TextSelectableByMouse);  // the command can be copied
    stack_->addWidget(hint_);
    plot_ = new QCustomPlot(stack_);
    plot_->setObjectName(QStringLiteral("scalingPlot"));
    plot_->setMinimumHeight(220);
    plot_->legend->setVisible(true);
    placeLegendAbove(plot_);
    plot_->setMinimumWidth(360);        // the legend's long names do not set it
    fitLegendColumnsToWidth(plot_, 2);  // two a row where they fit
    PlotInspector::attach(plot_, [this](QPointF pixel) -> QString {
        const auto hit = pointAt(plot_, pixel);
        if (!hit) return {};
        return tr("%1: %2, %3 per sweep")
            .arg(hit->graph->name(), counted(std::lround(hit->key), tr("GPU"), tr("GPUs")), humanSeconds(hit->value));
    });
    plot_->xAxis->setLabel(tr("GPUs"));
    plot_->yAxis->setLabel(tr("seconds per MTTKRP sweep"));  // what a sweep is: in the sources line
    enablePlotExport(plot_);
    stack_->addWidget(plot_);
    layout->addWidget(stack_, 1);

    connect(open, &QPushButton::clicked, this, &ScalingPlot::openRecording);
    connect(tensorBox_, &QComboBox::currentIndexChanged, this, [this] { replot(); });
    recordings_ = bundledScalingRecordings(&bundledErrors_);
    replot();
}

void ScalingPlot::setRecordings(std::vector<ScalingRecording> recordings) {
    recordings_ = std::move(recordings);
    bundledErrors_.clear();
    replot();
}

bool ScalingPlot::addRecordingFile(const QString& path, QString* error) {
    auto r = readScalingRecording(path, error);
    if (!r) return false;
    r->title = tr("Opened: %1").arg(r->title);
    recordings_.push_back(std::move(*r));
    replot();
    return true;
}

bool ScalingPlot::showsChart() const { return stack_->currentWidget() == plot_; }

void ScalingPlot::openRecording() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open a scaling recording"), QString(), tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (!addRecordingFile(path, &error)) QMessageBox::warning(this, tr("Open recording"), error);
}

void ScalingPlot::replot() {
    QStringList titles;
    for (const ScalingRecording& r : recordings_) titles << r.title;
    // the recordings' names in the tooltip: listed in the line, six of them took the plot's
    // height at 1366 x 768 (sweep 66b M6)
    QString sources = titles.isEmpty()
                          ? tr("Scaling recordings: none loaded.")
                          : tr("A sweep is every mode's MTTKRP once (medians, kernels plus collectives). "
                               "%1 (hover for their names).")
                                .arg(counted(titles.size(), tr("scaling recording"), tr("scaling recordings")));
    if (!bundledErrors_.isEmpty())
        sources += QLatin1Char(' ') + tr("Not read: %1").arg(bundledErrors_.join(QStringLiteral("; ")));
    sources_->setText(sources);
    sources_->setToolTip(titles.join(QLatin1Char('\n')));

    const std::vector<ScalingLine> all = scalingLines(recordings_);
    refillTensors(all);
    std::vector<ScalingLine> lines;
    for (const ScalingLine& line : all)
        if (tensorBox_->count() < 2 || line.tensor == tensorBox_->currentText()) lines.push_back(line);
    if (lines.empty()) {
        hint_->setText(
            tr("No scaling recordings yet; run tensorscope-cli bench FILE --kernel mttkrp --backend cuda "
               "--gpus N --json on a machine with several GPUs (once per N), then open its output here."));
        stack_->setCurrentWidget(hint_);
        return;
    }
    stack_->setCurrentWidget(plot_);
    plot_->clearGraphs();
    std::set<int> counts;
    double most = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const ScalingLine& line = lines[i];
        QString name = QStringLiteral("%1 · %2").arg(line.format, line.device);
        const ScalingPoint& first = line.points.front();
        const ScalingPoint& last = line.points.back();
        if (line.points.size() > 1 && last.seconds > 0)
            name += tr(" (%1 → %2 GPUs: %3× faster)")
                        .arg(first.gpus)
                        .arg(last.gpus)
                        .arg(shortNumber(first.seconds / last.seconds));
        if (line.sharedGpu) name += tr(" [parts on one GPU]");
        if (line.modesDiffer()) name += tr(" [mode counts differ]");
        QCPGraph* g = plot_->addGraph();
        g->setName(name);
        const QColor colour = kLineColours[i % std::size(kLineColours)];
        // Lines that lie on one another (two machines' recordings of one format, sweep 70c C18:
        // six legend entries, four lines in sight): the earlier drawn wider, with larger markers
        // of another shape, so each shows as a band around the next
        const double under = std::min(4.0, static_cast<double>(lines.size() - 1 - i));  // at most 6.8 px
        g->setPen(QPen(colour, 2 + 1.2 * under, line.sharedGpu ? Qt::DashLine : Qt::SolidLine));
        g->setScatterStyle(QCPScatterStyle(kMarkers[i % std::size(kMarkers)], colour, colour, 6 + 2 * under));
        for (const ScalingPoint& p : line.points) {
            g->addData(p.gpus, p.seconds);
            counts.insert(p.gpus);
            most = std::max(most, p.seconds);
        }
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int c : counts) ticker->addTick(c, QString::number(c));
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(*counts.begin() - 0.5, *counts.rbegin() + 0.5);
    plot_->yAxis->setRange(0, most > 0 ? most * 1.25 : 1.0);  // from zero: the drop reads as a share
    setLinearAxis(plot_->yAxis, AxisUnit::Seconds);
    PlotInspector::of(plot_)->rememberHome();
    refitLegendColumns(plot_);  // the names just changed
    plot_->replot();
}

void ScalingPlot::refillTensors(const std::vector<ScalingLine>& lines) {
    QStringList tensors;  // in the lines' order: the first recording's tensor first
    for (const ScalingLine& line : lines)
        if (!tensors.contains(line.tensor)) tensors << line.tensor;
    QStringList shown;
    for (int i = 0; i < tensorBox_->count(); ++i) shown << tensorBox_->itemText(i);
    if (shown != tensors) {
        const QString keep = shown.size() > 1 ? tensorBox_->currentText() : QString();  // a choice the user could make
        const QSignalBlocker quiet(tensorBox_);
        tensorBox_->clear();
        tensorBox_->addItems(tensors);
        if (tensors.contains(keep)) tensorBox_->setCurrentText(keep);
    }
    tensorBox_->setVisible(tensors.size() > 1);
}

}  // namespace tsui
