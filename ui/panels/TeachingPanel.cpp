#include "panels/TeachingPanel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

#include "tscope/error.hpp"
#include "tscope/formats/format_registry.hpp"

namespace tsui {

namespace {

const QColor kSelected(255, 214, 102), kRelated(255, 240, 200);

// A highlight in light colours with dark text, whatever the palette: in a dark one the text
// had stayed white on light yellow (sweep 74a F8). An empty colour takes both back.
void paint(QTableWidgetItem* item, const QColor& background) {
    item->setBackground(background.isValid() ? QBrush(background) : QBrush());
    item->setForeground(background.isValid() ? QBrush(Qt::black) : QBrush());
}
constexpr std::uint64_t kMaxGrid = 40;  // slice grids up to this many rows and columns

QString valueText(double v) { return QString::number(v, 'g', 4); }

}  // namespace

TeachingPanel::TeachingPanel(QWidget* parent) : Panel(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Format:"), this));
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("teachFormat"));
    for (const tscope::FormatEntry& e : tscope::format_registry())
        if (e.teaching_view) format_->addItem(QString::fromLatin1(e.name));
    format_->setCurrentText(QStringLiteral("HOCFS-CSR"));  // the paper's own format first
    top->addWidget(format_);
    top->addWidget(new QLabel(tr("built for mode:"), this));
    mode_ = new QComboBox(this);
    top->addWidget(mode_);
    status_ = new QLabel(tr("Open a small tensor (File ▸ Samples ▸ the 4×5×4 example of hocfs Sec. 5) to see a format's arrays."), this);
    status_->setWordWrap(true);
    top->addWidget(status_, 1);
    layout->addLayout(top);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("teachingSplit"));
    auto* scroll = new QScrollArea(split);
    slicesScroll_ = scroll;
    scroll->setWidgetResizable(true);
    slicesBox_ = new QWidget(scroll);
    slicesLayout_ = new QVBoxLayout(slicesBox_);
    scroll->setWidget(slicesBox_);
    split->addWidget(scroll);
    auto* right = new QWidget(split);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    auto* arraysTitle =
        new QLabel(tr("<b>Arrays</b>, as stored in memory (0-based indices and offsets; the papers print 1-based). "
                      "Click a nonzero on the left, or a cell here."),
                   right);
    arraysTitle->setWordWrap(true);  // unwrapped, beside a wide tensor's nonzeros it widened the window past the screen
    rl->addWidget(arraysTitle);
    arrays_ = new QTableWidget(right);
    arrays_->setObjectName(QStringLiteral("teachArrays"));
    setUpResultTable(arrays_);
    arrays_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    arrays_->horizontalHeader()->setDefaultSectionSize(34);
    arrays_->horizontalHeader()->setMinimumSectionSize(20);
    rl->addWidget(arrays_, 1);
    // the rows' names (Ap, Aj, fibers...) with what each holds: they had been told only in the
    // cells' tooltips (sweep 66b C6)
    legend_ = new QLabel(right);
    legend_->setObjectName(QStringLiteral("teachLegend"));
    legend_->setWordWrap(true);
    legend_->setTextFormat(Qt::RichText);
    rl->addWidget(legend_);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    // where the arrays cannot be shown, the reason takes their place instead of blank panes
    pages_ = new QStackedWidget(this);
    pages_->addWidget(split);
    why_ = new QLabel(pages_);
    why_->setObjectName(QStringLiteral("teachWhy"));
    why_->setAlignment(Qt::AlignCenter);
    why_->setWordWrap(true);
    why_->setMargin(40);
    pages_->addWidget(why_);
    layout->addWidget(pages_, 1);

    connect(format_, &QComboBox::currentIndexChanged, this, &TeachingPanel::rebuild);
    connect(mode_, &QComboBox::currentIndexChanged, this, &TeachingPanel::rebuild);
    // a click, or the keyboard's current cell (arrows, Tab): the view's one interaction had
    // needed a mouse (sweep 74a F11)
    connect(arrays_, &QTableWidget::cellClicked, this, [this](int row, int col) { highlightCell(row, col); });
    connect(arrays_, &QTableWidget::currentCellChanged, this, [this](int row, int col) {
        if (row >= 0 && col >= 0 && arrays_->hasFocus()) highlightCell(row, col);
    });
}

QString TeachingPanel::statusText() const { return status_->text(); }

QString TeachingPanel::whyText() const { return pages_->currentWidget() == why_ ? why_->text() : QString(); }

void TeachingPanel::showWhy(const QString& text) {
    why_->setText(text);
    pages_->setCurrentWidget(why_);
}

void TeachingPanel::setDataset(const DatasetPtr& dataset) {
    dataset_ = dataset;
    selected_.clear();
    QSignalBlocker block(mode_);
    mode_->clear();
    if (dataset_)
        for (int m = 0; m < dataset_->tensor.order(); ++m) mode_->addItem(QString::number(m + 1), m);
    rebuild();
}

void TeachingPanel::selectFormat(const QString& name, int mode) {
    QSignalBlocker a(format_), b(mode_);
    format_->setCurrentText(name);
    mode_->setCurrentIndex(std::max(0, mode));
    rebuild();
}

void TeachingPanel::rebuild() {
    anatomy_.reset();
    arrays_->clear();
    arrays_->setRowCount(0);
    arrays_->setColumnCount(0);
    legend_->clear();
    if (!dataset_) return;
    const tscope::CooTensor& t = dataset_->tensor;
    // nothing to choose for a tensor too large to lay out: the choices had stayed live, doing nothing
    for (QComboBox* choice : {format_, mode_}) choice->setEnabled(t.nnz() <= kMaxNonzeros);
    if (t.nnz() > kMaxNonzeros) {
        status_->setText(tr("This tensor is too large to teach with."));
        showWhy(tr("The teaching view lays out every array cell by cell, which reads for small tensors only "
                   "(up to %1 nonzeros); this one has %2.\n\nOpen File ▸ Samples ▸ the 4×5×4 example of hocfs "
                   "Sec. 5, or generate a small tensor; the Formats tab shows what each format costs for this one.")
                    .arg(grouped(kMaxNonzeros), grouped(t.nnz())));
        showSlices();
        return;
    }
    try {  // a few hundred nonzeros: built here, in well under a frame
        tscope::FormatOptions o;
        o.mode = std::max(0, mode_->currentData().toInt());
        const auto f = tscope::build_format(tscope::parse_format(format_->currentText().toStdString()), t, o);
        anatomy_ = std::make_unique<tscope::FormatAnatomy>(tscope::format_anatomy(*f, kMaxNonzeros));
    } catch (const std::exception& e) {
        status_->setText(tr("%1 cannot be built here.").arg(format_->currentText()));
        showWhy(tr("%1 for %2: %3").arg(format_->currentText(), mode_->currentText(), QString::fromStdString(e.what())));
        showSlices();
        return;
    }
    pages_->setCurrentIndex(0);
    std::size_t widest = 0;
    for (const auto& a : anatomy_->arrays) widest = std::max(widest, a.cells.size());
    arrays_->setRowCount(static_cast<int>(anatomy_->arrays.size()));
    arrays_->setColumnCount(static_cast<int>(widest));
    QStringList names;
    for (std::size_t r = 0; r < anatomy_->arrays.size(); ++r) {
        const auto& a = anatomy_->arrays[r];
        names << QString::fromStdString(a.name);
        for (std::size_t c = 0; c < a.cells.size(); ++c) {
            auto* item = new QTableWidgetItem(QString::fromStdString(a.cells[c]));
            item->setTextAlignment(Qt::AlignCenter);
            item->setToolTip(QStringLiteral("%1[%2]: %3").arg(names.back()).arg(c).arg(QString::fromStdString(a.meaning)));
            arrays_->setItem(static_cast<int>(r), static_cast<int>(c), item);
        }
    }
    arrays_->setVerticalHeaderLabels(names);
    QStringList legend;
    for (std::size_t r = 0; r < anatomy_->arrays.size(); ++r) {
        const QString meaning = QString::fromStdString(anatomy_->arrays[r].meaning);
        arrays_->verticalHeaderItem(static_cast<int>(r))->setToolTip(meaning);
        legend
            << QStringLiteral("<b>%1</b>: %2").arg(names[static_cast<int>(r)].toHtmlEscaped(), meaning.toHtmlEscaped());
    }
    legend_->setText(legend.join(QStringLiteral("; ")));
    QStringList positions;
    for (std::size_t c = 0; c < widest; ++c) positions << QString::number(c);
    arrays_->setHorizontalHeaderLabels(positions);
    // each column as wide as its widest cell: at the default 34 px a value such as 0.507 broke
    // over two lines ("0." above "507")
    arrays_->resizeColumnsToContents();
    status_->setText(tr("%1 for mode %2: %3 arrays, %4 nonzeros.")
                         .arg(format_->currentText())
                         .arg(mode_->currentText())
                         .arg(anatomy_->arrays.size())
                         .arg(anatomy_->entries.size()));
    showSlices();
}

// Order 3 with small slices: a grid per mode-1 slice, as hocfs Sec. 5 prints its example;
// otherwise one list of the nonzeros.
void TeachingPanel::showSlices() {
    for (QTableWidget* w : sliceTables_) w->deleteLater();
    sliceTables_.clear();
    while (QLayoutItem* item = slicesLayout_->takeAt(0)) {
        if (item->widget()) item->widget()->deleteLater();
        delete item;
    }
    if (!dataset_ || !anatomy_) return;
    const tscope::CooTensor& t = dataset_->tensor;
    const bool grids = t.order() == 3 && t.dim(1) <= kMaxGrid && t.dim(2) <= kMaxGrid && t.dim(0) <= 64;
    auto makeTable = [this](int rows, int cols) {
        auto* table = new QTableWidget(rows, cols, slicesBox_);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setTabKeyNavigation(false);  // Tab moves on, as in the result tables (sweep 66c)
        table->horizontalHeader()->setDefaultSectionSize(34);
        table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
        sliceTables_.push_back(table);
        return table;
    };
    if (grids) {
        for (std::uint64_t i = 0; i < t.dim(0); ++i) {
            if (i == 0) {
                auto* legend = new QLabel(tr("Slices X(i, :, :): rows are mode 2, columns mode 3 (1-based, as in the paper)"), slicesBox_);
                legend->setWordWrap(true);
                slicesLayout_->addWidget(legend);
            }
            slicesLayout_->addWidget(new QLabel(tr("X(%1, :, :)").arg(i + 1), slicesBox_));
            QTableWidget* table = makeTable(static_cast<int>(t.dim(1)), static_cast<int>(t.dim(2)));
            for (int c = 0; c < table->columnCount(); ++c) table->setHorizontalHeaderItem(c, new QTableWidgetItem(QString::number(c + 1)));
            for (int r = 0; r < table->rowCount(); ++r) table->setVerticalHeaderItem(r, new QTableWidgetItem(QString::number(r + 1)));
            slicesLayout_->addWidget(table);
        }
    } else {
        QTableWidget* table = makeTable(0, t.order() + 1);
        QStringList header;
        for (int m = 0; m < t.order(); ++m) header << tr("i%1").arg(m + 1);
        header << tr("value");
        table->setHorizontalHeaderLabels(header);
        table->setRowCount(static_cast<int>(anatomy_->entries.size()));
        auto* heading = new QLabel(tr("nonzeros in the format's storage order (indices 1-based)"), slicesBox_);
        heading->setWordWrap(true);  // the pane is narrow: "(indices 1-based)" had been cut off (sweep 72b)
        slicesLayout_->addWidget(heading);
        slicesLayout_->addWidget(table);
    }
    for (std::size_t e = 0; e < anatomy_->entries.size(); ++e) {
        const tscope::AnatomyEntry& en = anatomy_->entries[e];
        if (grids) {
            auto* item = new QTableWidgetItem(valueText(en.value));
            item->setData(Qt::UserRole, static_cast<int>(e));
            item->setTextAlignment(Qt::AlignCenter);
            sliceTables_[en.coord[0]]->setItem(static_cast<int>(en.coord[1]), static_cast<int>(en.coord[2]), item);
        } else {
            for (std::size_t m = 0; m < en.coord.size(); ++m) {
                auto* item = new QTableWidgetItem(QString::number(en.coord[m] + 1));
                item->setData(Qt::UserRole, static_cast<int>(e));
                sliceTables_[0]->setItem(static_cast<int>(e), static_cast<int>(m), item);
            }
            auto* item = new QTableWidgetItem(valueText(en.value));
            item->setData(Qt::UserRole, static_cast<int>(e));
            sliceTables_[0]->setItem(static_cast<int>(e), static_cast<int>(en.coord.size()), item);
        }
    }
    int widest = 0;
    for (QTableWidget* table : sliceTables_) {
        auto pick = [this, table](int r, int c) {
            if (QTableWidgetItem* item = table->item(r, c); item && item->data(Qt::UserRole).isValid())
                highlightEntry(item->data(Qt::UserRole).toInt());
        };
        connect(table, &QTableWidget::cellClicked, this, pick);
        connect(table, &QTableWidget::currentCellChanged, this, [table, pick](int r, int c) {
            if (table->hasFocus()) pick(r, c);
        });
        table->resizeColumnsToContents();
        int w = table->verticalHeader()->sizeHint().width() + 2 * table->frameWidth() + 2;
        for (int c = 0; c < table->columnCount(); ++c) w += table->columnWidth(c);
        int h = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth() + 2;
        for (int r = 0; r < table->rowCount(); ++r) h += table->rowHeight(r);
        if (grids) table->setFixedSize(w, h);  // the whole slice at once, like the paper's figure
        widest = std::max(widest, w);
    }
    slicesScroll_->setMinimumWidth(std::min(widest + 40, 520));
    slicesLayout_->addStretch(1);
    // the same nonzero stays highlighted when the format or mode changes
    if (selected_.empty() && !anatomy_->entries.empty()) selected_ = anatomy_->entries.front().coord;
    selectNonzero(selected_);
}

void TeachingPanel::clearHighlights() {
    for (int r = 0; r < arrays_->rowCount(); ++r)
        for (int c = 0; c < arrays_->columnCount(); ++c)
            if (QTableWidgetItem* item = arrays_->item(r, c)) paint(item, QColor());
    for (QTableWidget* table : sliceTables_)
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                if (QTableWidgetItem* item = table->item(r, c)) paint(item, QColor());
}

// The tables the pick did not come from lose their selection: an earlier current cell left
// in selection blue there read as one more highlighted cell (sweep 74c N5).
void TeachingPanel::clearOtherSelections() {
    for (QTableWidget* table : sliceTables_)
        if (!table->hasFocus()) table->clearSelection();
    if (!arrays_->hasFocus()) arrays_->clearSelection();
}

void TeachingPanel::highlightEntry(int entry) {
    if (!anatomy_ || entry < 0 || entry >= static_cast<int>(anatomy_->entries.size())) return;
    clearHighlights();
    clearOtherSelections();
    const tscope::AnatomyEntry& e = anatomy_->entries[static_cast<std::size_t>(entry)];
    selected_ = e.coord;
    for (const auto& [arr, pos] : e.cells)
        if (QTableWidgetItem* item = arrays_->item(static_cast<int>(arr), static_cast<int>(pos)))
            paint(item, kSelected);
    for (QTableWidget* table : sliceTables_)
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                if (QTableWidgetItem* item = table->item(r, c); item && item->data(Qt::UserRole).toInt() == entry && item->data(Qt::UserRole).isValid())
                    paint(item, kSelected);
    QStringList coord;
    for (auto x : e.coord) coord << QString::number(x + 1);
    status_->setText(tr("X(%1) = %2 occupies %3 cells (highlighted).").arg(coord.join(QStringLiteral(", ")), valueText(e.value)).arg(e.cells.size()));
}

void TeachingPanel::highlightCell(int array, int position) {
    if (!anatomy_) return;
    clearHighlights();
    clearOtherSelections();
    int users = 0;
    for (std::size_t i = 0; i < anatomy_->entries.size(); ++i) {
        const auto& cells = anatomy_->entries[i].cells;
        if (std::find(cells.begin(), cells.end(), std::make_pair(static_cast<std::uint32_t>(array), static_cast<std::uint64_t>(position))) == cells.end())
            continue;
        ++users;
        for (QTableWidget* table : sliceTables_)
            for (int r = 0; r < table->rowCount(); ++r)
                for (int c = 0; c < table->columnCount(); ++c)
                    if (QTableWidgetItem* item = table->item(r, c); item && item->data(Qt::UserRole).isValid() && item->data(Qt::UserRole).toInt() == static_cast<int>(i))
                        paint(item, kRelated);
    }
    if (QTableWidgetItem* item = arrays_->item(array, position)) paint(item, kSelected);
    status_->setText(tr("%1[%2] locates %3 (highlighted).")
                         .arg(QString::fromStdString(anatomy_->arrays[static_cast<std::size_t>(array)].name))
                         .arg(position)
                         .arg(counted(users, tr("nonzero"), tr("nonzeros"))));
}

bool TeachingPanel::selectNonzero(const std::vector<std::uint64_t>& coord) {
    if (!anatomy_) return false;
    for (std::size_t i = 0; i < anatomy_->entries.size(); ++i)
        if (anatomy_->entries[i].coord == coord) {
            highlightEntry(static_cast<int>(i));
            return true;
        }
    return false;
}

std::vector<std::pair<int, int>> TeachingPanel::highlightedCells() const {
    std::vector<std::pair<int, int>> out;
    for (int r = 0; r < arrays_->rowCount(); ++r)
        for (int c = 0; c < arrays_->columnCount(); ++c)
            if (QTableWidgetItem* item = arrays_->item(r, c); item && item->background().color() == kSelected) out.emplace_back(r, c);
    return out;
}

}  // namespace tsui
