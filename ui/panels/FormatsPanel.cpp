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
#include <QSplitter>
#include <QTableView>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <map>
#include <qcustomplot.h>

#include "tscope/error.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// Mode colours that stay apart for the colour-blind (Okabe-Ito).
const QColor kModeColours[] = {QColor(0, 114, 178), QColor(230, 159, 0), QColor(0, 158, 115), QColor(204, 121, 167),
                               QColor(86, 180, 233), QColor(213, 94, 0), QColor(240, 228, 66), QColor(0, 0, 0)};

}  // namespace

FormatsPanel::FormatsPanel(QWidget* parent) : Panel(parent) {
    // two pages: the storage survey, and the advisor's ranking of the formats per kernel
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("formatsPages"));
    outer->addWidget(tabs_);
    auto* storagePage = new QWidget(tabs_);
    auto* layout = new QVBoxLayout(storagePage);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Show:"), this));
    measure_ = new QComboBox(this);
    measure_->addItems({tr("Bytes (real index widths)"), tr("Storage units (papers' words)")});
    top->addWidget(measure_);
    status_ = new QLabel(tr("Open a tensor to compare its storage formats."), this);
    top->addWidget(status_, 1);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(200);
    progress_->hide();
    top->addWidget(progress_);
    cancel_ = new QPushButton(tr("Cancel"), this);
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
    layout->addLayout(top);

    auto* split = new QSplitter(Qt::Vertical, this);
    plot_ = new QCustomPlot(split);
    plot_->setObjectName(QStringLiteral("formatsPlot"));
    plot_->setMinimumHeight(260);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    split->addWidget(plot_);
    model_ = new FormatTableModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(Qt::UserRole);
    table_ = new QTableView(split);
    table_->setObjectName(QStringLiteral("formatsTable"));
    enableTableExport(table_);
    table_->setModel(proxy);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // survey order until a click
    table_->setSortingEnabled(true);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    auto* bottom = new QSplitter(Qt::Horizontal, split);
    bottom->addWidget(table_);
    auto* arraysBox = new QWidget(bottom);
    auto* al = new QVBoxLayout(arraysBox);
    al->setContentsMargins(0, 0, 0, 0);
    arraysTitle_ = new QLabel(tr("Select a row to see its arrays."), arraysBox);
    arraysTitle_->setWordWrap(true);
    al->addWidget(arraysTitle_);
    arrays_ = new QTableWidget(0, 5, arraysBox);
    arrays_->setObjectName(QStringLiteral("formatArrays"));
    enableTableExport(arrays_);
    arrays_->setHorizontalHeaderLabels({tr("array"), tr("elements"), tr("bytes each"), tr("bytes"), tr("meaning")});
    arrays_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    arrays_->verticalHeader()->hide();
    arrays_->horizontalHeader()->setStretchLastSection(true);
    al->addWidget(arrays_, 1);
    bottom->addWidget(arraysBox);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    tabs_->addTab(storagePage, tr("Storage"));
    advisor_ = new AdvisorView(tabs_);
    advisor_->setObjectName(QStringLiteral("advisorView"));
    tabs_->addTab(advisor_, tr("Advisor"));
    connect(advisor_, &AdvisorView::idle, this, [this] {
        if (!job_.isBusy()) Q_EMIT idle();
    });

    connect(measure_, &QComboBox::currentIndexChanged, this, &FormatsPanel::replot);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this, proxy](const QModelIndex& current) {
        if (current.isValid()) showArrays(proxy->mapToSource(current).row());
    });
    connect(cancel_, &QPushButton::clicked, &job_, &EngineJob::cancel);
    connect(&job_, &EngineJob::progress, progress_, &QProgressBar::setValue);
    connect(&job_, &EngineJob::failed, this, [this](const QString& message) {
        if (settle()) status_->setText(tr("Failed: %1").arg(message));
    });
    connect(&job_, &EngineJob::cancelled, this, [this] {
        if (settle()) status_->setText(tr("Cancelled."));
    });
    connect(&job_, &EngineJob::idle, this, [this] {
        if (!advisor_->isBusy()) Q_EMIT idle();
    });
}

void FormatsPanel::setDataset(const DatasetPtr& dataset) {
    dataset_ = dataset;
    advisor_->setDataset(dataset);
    if (job_.isBusy()) {
        job_.cancel();  // settle() starts the survey of the new dataset
        return;
    }
    start();
}

bool FormatsPanel::runOwnWork() {
    tabs_->setCurrentWidget(advisor_);
    advisor_->measureWhenPredicted();
    return true;
}

void FormatsPanel::start() {
    if (!dataset_) return;
    const DatasetPtr dataset = dataset_;
    runningFor_ = dataset_;
    status_->setText(tr("Building every format for every mode…"));
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    job_.start(
        [dataset](tscope::RunControl& control) {
            return std::make_shared<const std::vector<tscope::FormatRow>>(tscope::survey_formats(dataset->tensor, {}, control));
        },
        [this](SurveyPtr rows) {
            if (settle()) showSurvey(std::move(rows));
        });
}

bool FormatsPanel::settle() {
    progress_->hide();
    cancel_->hide();
    if (runningFor_ == dataset_) return true;
    start();  // a newer dataset arrived meanwhile: survey that one instead
    return false;
}

void FormatsPanel::showSurvey(SurveyPtr rows) {
    survey_ = std::move(rows);
    model_->setSurvey(survey_, dataset_->tensor.bytes());
    std::uint64_t built = 0;
    for (const auto& r : *survey_) built += r.built;
    status_->setText(tr("%1 of %2 formats × modes built (hover a \"not built\" row for the reason); COO holds %3.")
                         .arg(built)
                         .arg(survey_->size())
                         .arg(humanBytes(dataset_->tensor.bytes())));
    replot();
    selectRow(0);  // the arrays pane shows something from the start
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
    if (!r.built) {
        arraysTitle_->setText(tr("%1: not built (%2).").arg(which, QString::fromStdString(r.error)));
        return;
    }
    QStringList params;
    for (const auto& [k, v] : r.parameters) params << QStringLiteral("%1 %2").arg(QString::fromStdString(k), QString::fromStdString(v));
    arraysTitle_->setText(tr("<b>%1</b>: %2 in %3 arrays, built in %4 s%5")
                              .arg(which, humanBytes(r.storage.bytes()))
                              .arg(r.storage.arrays.size())
                              .arg(shortNumber(r.build_seconds))
                              .arg(params.isEmpty() ? QString() : QStringLiteral(" (") + params.join(QStringLiteral(", ")) + QStringLiteral(")")));
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
    arrays_->resizeColumnsToContents();
}

void FormatsPanel::replot() {
    plot_->clearPlottables();
    if (!survey_ || survey_->empty()) {
        plot_->replot();
        return;
    }
    const bool units = measure_->currentIndex() == 1;
    // x positions: the formats in survey order
    std::vector<tscope::FormatKind> kinds;
    for (const auto& r : *survey_)
        if (std::find(kinds.begin(), kinds.end(), r.kind) == kinds.end()) kinds.push_back(r.kind);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t i = 0; i < kinds.size(); ++i) ticker->addTick(static_cast<double>(i), QString::fromLatin1(tscope::format_name(kinds[i])));
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(30);
    plot_->xAxis->setRange(-0.7, static_cast<double>(kinds.size()) - 0.3);
    plot_->xAxis->setLabel(tr("format"));
    // One bar series per mode, placed side by side at each format's tick (explicit offsets, so
    // a format with fewer bars keeps them on its own tick); formats that serve every mode get
    // one grey bar centred on the tick.
    const int order = dataset_ ? dataset_->tensor.order() : 3;
    const double slot = 0.8 / static_cast<double>(order);
    std::map<int, QCPBars*> series;
    double lo = 1e300, hi = 0;
    for (const auto& r : *survey_) {
        if (!r.built) continue;
        QCPBars*& bars = series[r.mode];
        if (!bars) {
            bars = new QCPBars(plot_->xAxis, plot_->yAxis);
            bars->setName(r.mode < 0 ? tr("all modes (one copy)") : tr("mode %1").arg(r.mode + 1));
            const QColor c = r.mode < 0 ? QColor(120, 120, 120) : kModeColours[r.mode % 8];
            bars->setBrush(c);
            bars->setPen(QPen(c.darker(130)));
            bars->setWidth(slot * 0.9);
        }
        const double value = static_cast<double>(units ? r.storage.units() : r.storage.bytes());
        const auto tick = static_cast<double>(std::find(kinds.begin(), kinds.end(), r.kind) - kinds.begin());
        const double offset = r.mode < 0 ? 0.0 : (static_cast<double>(r.mode) - (order - 1) / 2.0) * slot;
        bars->addData(tick + offset, value);
        lo = std::min(lo, value);
        hi = std::max(hi, value);
    }
    plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot_->yAxis->setNumberFormat(QStringLiteral("eb"));
    plot_->yAxis->setNumberPrecision(0);
    plot_->yAxis->setLabel(units ? tr("storage units (words), log scale") : tr("bytes, log scale"));
    if (hi > 0) plot_->yAxis->setRange(lo / 2, hi * 30);  // headroom for the legend
    plot_->replot();
}

}  // namespace tsui
