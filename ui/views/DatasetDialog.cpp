#include "views/DatasetDialog.hpp"

#include <algorithm>

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

#include "jobs/DatasetFetch.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tsb_format.hpp"
#include "views/ScreenFit.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

const QString kCacheSetting = QStringLiteral("datasets/cacheDir");

QString dimsText(const tscope::CatalogEntry& e) {
    QStringList parts;
    for (std::uint64_t d : e.dims) parts << grouped(d);
    return parts.join(QStringLiteral(" × "));
}

QString stateText(tscope::CacheState s) {
    switch (s) {
    case tscope::CacheState::Ready: return QObject::tr("ready");
    case tscope::CacheState::Partial: return QObject::tr("partial (resumes)");
    case tscope::CacheState::Damaged: return QObject::tr("damaged (downloads again)");
    case tscope::CacheState::NotFetched: break;
    }
    return QObject::tr("not fetched");
}

}  // namespace

QString DatasetDialog::defaultCatalogPath() {
    const QString installed = QString::fromStdString(tscope::installed_catalog_path(QCoreApplication::applicationDirPath().toStdString()));
    return QFileInfo::exists(installed) ? installed : QStringLiteral(TS_SOURCE_CATALOG_FILE);
}

QString DatasetDialog::defaultCacheDir() {
    return QSettings().value(kCacheSetting, QString::fromStdString(tscope::default_cache_dir())).toString();
}

DatasetDialog::DatasetDialog(const QString& catalogPath, const QString& cacheDir, QWidget* parent)
    : QDialog(parent), cacheDir_(cacheDir), fetcher_(new DatasetFetch(this)) {
    setWindowTitle(tr("Open dataset"));
    // 980 x 620, or the screen less a title bar and a margin: on a 1920 x 1080 screen at 200%
    // (960 x 540) or a 600 px one its buttons had opened below the edge (sweep 74a F2)
    resize(fitToScreenOf(this, QSize(980, 620), QSize(40, 60)));
    auto* layout = new QVBoxLayout(this);
    table_ = new QTableWidget(0, 5, this);
    table_->setObjectName(QStringLiteral("datasetTable"));
    table_->setHorizontalHeaderLabels({tr("dataset"), tr("order"), tr("dims"), tr("nonzeros"), tr("in the cache")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setTabKeyNavigation(false);  // Tab reaches the buttons; the arrows pick a dataset
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(table_, 3);
    details_ = new QLabel(this);
    details_->setObjectName(QStringLiteral("datasetDetails"));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    details_->setOpenExternalLinks(true);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(details_, 2);

    auto* cacheRow = new QHBoxLayout;
    cacheLabel_ = new QLabel(this);
    cacheRow->addWidget(cacheLabel_, 1);
    changeCache_ = new QPushButton(tr("Change…"), this);
    changeCache_->setToolTip(tr("The folder that holds downloaded and converted datasets"));
    cacheRow->addWidget(changeCache_);
    layout->addLayout(cacheRow);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("datasetStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->hide();
    layout->addWidget(progress_);

    auto* buttons = new QDialogButtonBox(this);
    fetch_ = buttons->addButton(tr("Download and open"), QDialogButtonBox::AcceptRole);
    fetch_->setObjectName(QStringLiteral("datasetFetch"));
    cancel_ = buttons->addButton(tr("Cancel download"), QDialogButtonBox::ActionRole);
    cancel_->setObjectName(QStringLiteral("datasetCancel"));
    close_ = buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);

    try {
        catalog_ = tscope::read_catalog(catalogPath.toStdString());
    } catch (const tscope::Error& e) {
        status_->setText(tr("The catalog could not be read: %1").arg(QString::fromStdString(e.what())));
    }
    fillTable();
    connect(table_, &QTableWidget::itemSelectionChanged, this, &DatasetDialog::showDetails);
    connect(table_, &QTableWidget::cellDoubleClicked, this, &DatasetDialog::fetchOrOpen);
    connect(fetch_, &QPushButton::clicked, this, &DatasetDialog::fetchOrOpen);
    connect(cancel_, &QPushButton::clicked, fetcher_, &DatasetFetch::cancel);
    connect(close_, &QPushButton::clicked, this, &QDialog::reject);
    connect(changeCache_, &QPushButton::clicked, this, &DatasetDialog::chooseCache);
    connect(fetcher_, &DatasetFetch::progress, this, [this](int permille, const QString& text) {
        progress_->setRange(0, permille < 0 ? 0 : 1000);  // busy indicator while the size is unknown
        if (permille >= 0) progress_->setValue(permille);
        // a refused Esc's word stays above the progress for 4 s: the next line had replaced it at once (sweep 65c)
        const bool refusing = refused_.isValid() && refused_.elapsed() < 4000;
        status_->setText(refusing ? refusalText() + QLatin1Char('\n') + text : text);
    });
    connect(fetcher_, &DatasetFetch::finished, this, [this](const QString& tsb) {
        setRunning(false);
        fillTable();
        chosen_ = tsb;
        accept();
    });
    connect(fetcher_, &DatasetFetch::failed, this, [this](const QString& message) {
        setRunning(false);
        fillTable();
        status_->setText(tr("Not fetched: %1").arg(message));
    });
    connect(fetcher_, &DatasetFetch::cancelled, this, [this] {
        setRunning(false);
        fillTable();
        status_->setText(tr("Cancelled; what was downloaded is kept, and the next download resumes from it."));
    });
    setRunning(false);
    selectSmallest();
}

// The smallest dataset first, not the catalog's first: that was amazon-reviews, 1.7 billion
// nonzeros, one Enter from its download (sweep 66b M5).
void DatasetDialog::selectSmallest() {
    const auto smallest =
        std::min_element(catalog_.entries.begin(), catalog_.entries.end(),
                         [](const tscope::CatalogEntry& a, const tscope::CatalogEntry& b) { return a.nnz < b.nnz; });
    if (smallest != catalog_.entries.end()) table_->selectRow(static_cast<int>(smallest - catalog_.entries.begin()));
}

// What the converted tensor takes, on disk and in memory to load it whole: its .tsb's bytes.
QString DatasetDialog::sizeText(const tscope::CatalogEntry& e) {
    tscope::TsbHeader h;
    h.dims = e.dims;
    h.width = tscope::CooTensor::width_for(e.dims);
    // in the window's words for sizes, as every other size it shows (FROSTT's largest: 42 GB)
    return tr("Converted to .tsb it takes about %1 on disk, and as much in memory to open whole; past the memory "
              "a tensor may take here, it is read in parts for the Overview, Density and Formats.")
        .arg(humanBytes(e.nnz * h.bytes_per_nnz()));
}

void DatasetDialog::fillTable() {
    const QString keep = current() ? QString::fromStdString(current()->name) : QString();
    cacheLabel_->setText(tr("Cache folder: %1").arg(cacheDir_));
    table_->setRowCount(static_cast<int>(catalog_.entries.size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        const tscope::CatalogEntry& e = catalog_.entries[static_cast<std::size_t>(r)];
        const QStringList cells{QString::fromStdString(e.name), QString::number(e.order), dimsText(e), grouped(e.nnz),
                                stateText(tscope::cache_state(e, cacheDir_.toStdString()))};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 1 || c == 3) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, c, item);
        }
    }
    table_->resizeColumnsToContents();
    if (!keep.isEmpty()) selectDataset(keep);
    showDetails();
}

const tscope::CatalogEntry* DatasetDialog::current() const {
    const int row = table_->currentRow();
    if (row < 0 || row >= static_cast<int>(catalog_.entries.size()) || table_->selectedItems().isEmpty()) return nullptr;
    return &catalog_.entries[static_cast<std::size_t>(row)];
}

void DatasetDialog::selectDataset(const QString& name) {
    for (int r = 0; r < table_->rowCount(); ++r)
        if (table_->item(r, 0)->text() == name) table_->selectRow(r);
}

void DatasetDialog::showDetails() {
    const tscope::CatalogEntry* e = current();
    if (!e) {
        details_->setText(catalog_.entries.empty() ? QString() : tr("Choose a dataset."));
        fetch_->setEnabled(false);
        return;
    }
    const bool ready = tscope::cache_state(*e, cacheDir_.toStdString()) == tscope::CacheState::Ready;
    fetch_->setText(ready ? tr("Open") : tr("Download and open"));
    fetch_->setEnabled(!fetcher_->isBusy());
    const QString url = QString::fromStdString(e->tensors.front().url);
    QString html = QStringLiteral("<b>%1</b> — %2, order %3, %4 nonzeros<br>")
                       .arg(QString::fromStdString(e->title).toHtmlEscaped(), dimsText(*e), QString::number(e->order), grouped(e->nnz));
    // FROSTT writes emphasis as *markdown*: shown in italics, not with its asterisks
    html += QString::fromStdString(e->description)
                .toHtmlEscaped()
                .replace(QRegularExpression(QStringLiteral("\\*([^*]+)\\*")), QStringLiteral("<i>\\1</i>")) +
            QStringLiteral("<br>") + sizeText(*e) + QStringLiteral("<br>");
    html += tr("File: <a href=\"%1\">%1</a>").arg(url.toHtmlEscaped());
    if (!e->licence.empty()) html += QStringLiteral("<br>") + tr("Licence: %1").arg(QString::fromStdString(e->licence).toHtmlEscaped());
    html += QStringLiteral("<br><small>%1</small>").arg(tr("Source: %1").arg(QString::fromStdString(catalog_.source).toHtmlEscaped()));
    details_->setText(html);
}

void DatasetDialog::fetchOrOpen() {
    const tscope::CatalogEntry* e = current();
    if (!e || fetcher_->isBusy()) return;
    if (tscope::cache_state(*e, cacheDir_.toStdString()) == tscope::CacheState::Ready) {
        chosen_ = QString::fromStdString(tscope::cached_tensor_path(*e, cacheDir_.toStdString()));
        accept();
        return;
    }
    setRunning(true);
    status_->clear();
    fetcher_->start(*e, cacheDir_);
}

void DatasetDialog::chooseCache() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Cache folder for datasets"), cacheDir_);
    if (dir.isEmpty()) return;
    cacheDir_ = dir;
    QSettings().setValue(kCacheSetting, dir);
    fillTable();
}

QString DatasetDialog::refusalText() const {
    return tr("A download is on: press Cancel download to stop it, or wait for it to end.");
}

void DatasetDialog::reject() {
    if (fetcher_->isBusy()) {
        status_->setText(refusalText());
        refused_.start();
        return;
    }
    QDialog::reject();
}

void DatasetDialog::setRunning(bool running) {
    progress_->setVisible(running);
    if (running) progress_->setRange(0, 0);
    cancel_->setVisible(running);
    close_->setEnabled(!running);
    changeCache_->setEnabled(!running);
    table_->setEnabled(!running);
    fetch_->setEnabled(!running && current());
}

}  // namespace tsui
