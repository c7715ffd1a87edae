#include "panels/OverviewPanel.hpp"

#include <algorithm>

#include <QFileDialog>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "models/ModeStatsModel.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

const char* kFields[][2] = {{"source", "Source"},   {"format", "Format"},     {"order", "Order"},
                            {"dims", "Dimensions"}, {"nnz", "Nonzeros"},      {"density", "Density"},
                            {"storage", "In memory"}, {"base", "Index base"}, {"duplicates", "Duplicates summed"},
                            {"zeros", "Zeros left out"}, {"load", "Load time"},  {"stats", "Statistics time"},
                            {"figures", "Figures"}};

// What a streamed tensor's fiber figures are: mode 1's sketched, the others' exact where the
// file's slice order let them be counted a slice at a time.
QString fiberFigures(const Dataset& d) {
    const bool othersExact = d.fibersExact.size() > 1 && std::all_of(d.fibersExact.begin() + 1, d.fibersExact.end(), [](bool e) { return e; });
    const bool sampled = !d.fibersSampled.empty() && d.fibersSampled[0];
    const QString sketched = sampled ? QObject::tr("estimated by a HyperLogLog sketch (standard error 0.8%), the mean nonzeros over that "
                                                   "count, the spread from a sketch of the squared lengths, the longest (≥) from a sample "
                                                   "of fibers each followed over the whole file")
                                     : QObject::tr("estimated by a HyperLogLog sketch (standard error 0.8%), their spread not computed");
    if (othersExact)
        return QObject::tr("exact slice figures, from a pass over the file in parts; mode 1's fiber count (≈) %1 (its fibers "
                           "cross every slice); the other modes' fibers counted exactly, a slice of mode 1 at a time")
            .arg(sketched);
    return QObject::tr("exact slice figures, from a pass over the file in parts; fiber counts (≈) %1 (%2)")
        .arg(sketched, d.fibersWhy.isEmpty() ? QObject::tr("they need the nonzeros grouped") : d.fibersWhy);
}

}  // namespace

OverviewPanel::OverviewPanel(QWidget* parent) : Panel(parent) {
    auto* outer = new QVBoxLayout(this);
    stack_ = new QStackedWidget(this);
    outer->addWidget(stack_);

    auto* empty = new QLabel(tr("Open a tensor to see its shape and how its nonzeros spread over slices and "
                                "fibers.\n\nFile ▸ Open (Ctrl+O), drop a .tns / .tns.gz / .tsb file here, or "
                                "double-click a sample on the left."),
                             this);
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    stack_->addWidget(empty);

    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    auto* form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignRight);
    for (const auto& f : kFields) {
        auto* value = new QLabel(page);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        value->setObjectName(QStringLiteral("overview_") + QLatin1String(f[0]));
        form->addRow(tr(f[1]) + QLatin1Char(':'), value);
        fields_ << qMakePair(QString::fromLatin1(f[0]), value);
    }
    layout->addLayout(form);
    sample_ = new QPushButton(tr("Load a sample that fits: the first slices of mode 1"), page);
    sample_->setObjectName(QStringLiteral("sampleButton"));
    sample_->setToolTip(tr("Kernels, formats and decompositions need the tensor in memory: this loads the longest run "
                           "of mode-1 slices, from the first, whose nonzeros fit the memory a tensor may take"));
    sample_->hide();
    layout->addWidget(sample_, 0, Qt::AlignLeft);
    connect(sample_, &QPushButton::clicked, this, &OverviewPanel::sampleRequested);

    auto* heading = new QHBoxLayout;
    auto* title = new QLabel(tr("<b>Per mode</b> — slices and fibers count the non-empty ones; a mode-m fiber "
                                "varies only index m"),
                             page);
    auto* exportButton = new QPushButton(tr("Export CSV…"), page);
    heading->addWidget(title, 1);
    heading->addWidget(exportButton);
    layout->addLayout(heading);
    connect(exportButton, &QPushButton::clicked, this, &OverviewPanel::exportCsv);

    model_ = new ModeStatsModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(Qt::UserRole);
    table_ = new QTableView(page);
    setUpResultTable(table_);
    table_->setObjectName(QStringLiteral("modeStatsTable"));
    table_->setModel(proxy);
    table_->setSortingEnabled(true);
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(60);
    layout->addWidget(table_, 1);
    stack_->addWidget(page);
}

void OverviewPanel::setDataset(const DatasetPtr& dataset) {
    model_->setDataset(dataset);
    if (!dataset) {
        stack_->setCurrentIndex(0);
        return;
    }
    stack_->setCurrentIndex(1);
    sample_->setVisible(dataset->streamed);
    const auto& t = dataset->tensor;
    const auto& load = dataset->load;
    QString base;
    for (std::size_t m = 0; m < load.zero_based.size(); ++m)
        base += QStringLiteral("%1%2").arg(m ? QStringLiteral(", ") : QString()).arg(load.zero_based[m] ? 0 : 1);
    // seconds in the unit that reads ("236 µs"): shortNumber's "236e-6 s" had stood beside
    // "0.012 s" (sweep 66b C1)
    QString loadText = dataset->generated ? tr("generated in %1").arg(humanSeconds(load.load_seconds))
                                          : humanSeconds(load.load_seconds);
    if (load.text_bytes && load.parse_seconds > 0)
        loadText += tr(" (parsing at %1 MB/s)").arg(shortNumber(double(load.text_bytes) / 1e6 / load.parse_seconds));
    // a tensor read in parts is not loaded: its one pass is the statistics' time (it was shown
    // twice, as the load's too), or a text file's conversion to .tsb came first
    if (dataset->streamed)
        loadText = dataset->convertedTo.isEmpty()
                       ? tr("none: not loaded (the statistics' pass reads the file)")
                       : tr("converted to .tsb in %1, then not loaded").arg(humanSeconds(load.load_seconds));
    const QMap<QString, QString> values{
        {"source", dataset->source},
        {"format",
         dataset->generated ? tr("generated")
         : !dataset->convertedTo.isEmpty()
             ? tr("text, converted in bounded memory to %1 (%2 on disk)")
                   .arg(dataset->convertedTo, humanBytes(load.file_bytes))
             : QStringLiteral("%1, %2 on disk").arg(QString::fromStdString(load.format), humanBytes(load.file_bytes))},
        {"order", QString::number(t.order())},
        {"dims", dimsText(t.dims())},
        {"nnz", grouped(dataset->nonzeros())},
        {"density", shortNumber(dataset->stats.density)},
        {"storage", dataset->streamed
                        ? tr("not loaded: it would take %1 (%2-bit indices, %3 values), more than the %4 a "
                             "tensor may take here")
                              .arg(humanBytes(dataset->streamedBytes))
                              .arg(t.index_width() == tscope::IndexWidth::U32 ? 32 : 64)
                              .arg(QString::fromLatin1(tscope::to_string(t.value_type())))
                              .arg(humanBytes(dataset->memoryLimit))
                        : tr("%1 (%2-bit indices, %3 values)")
                              .arg(humanBytes(t.bytes()))
                              .arg(t.index_width() == tscope::IndexWidth::U32 ? 32 : 64)
                              .arg(QString::fromLatin1(tscope::to_string(t.value_type())))},
        {"figures", !dataset->streamed ? tr("exact, from the tensor in memory")
                    : dataset->fibersEstimated
                        ? fiberFigures(*dataset)
                        : tr("exact slice figures, from a pass over the file in parts; fiber figures not "
                             "computed (they need the nonzeros grouped, which a bounded pass cannot do)")},
        {"base", load.format == "tsb" || dataset->generated
                     ? tr("stored 0-based")
                     : tr("per mode: %1%2").arg(base, load.header ? tr("; dims from the file's header") : QString())},
        {"duplicates", dataset->streamed && !dataset->streamedInOrder
                           ? tr("not ruled out: the file is not in coordinate order (loading it whole would sum any)")
                           : grouped(load.duplicates_summed)},
        {"zeros", grouped(load.zeros_dropped)},
        {"load", loadText},
        {"stats", humanSeconds(dataset->stats.seconds)}};
    for (auto& [key, label] : fields_) label->setText(values.value(key));
}

QString OverviewPanel::summaryText(const QString& key) const {
    for (const auto& [k, label] : fields_)
        if (k == key) return label->text();
    return {};
}

void OverviewPanel::exportCsv() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export per-mode statistics"), QStringLiteral("mode_stats.csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!writeCsv(*model_, path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace tsui
