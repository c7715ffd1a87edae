#include "panels/DatasetPanel.hpp"

#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMap>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

#include "views/FolderNames.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

DatasetPanel::DatasetPanel(QWidget* parent) : QWidget(parent), samples_(bundledSamples()) {
    auto* layout = new QVBoxLayout(this);

    auto* currentBox = new QGroupBox(tr("Loaded"), this);
    auto* currentLayout = new QVBoxLayout(currentBox);
    current_ = new QLabel(tr("Nothing yet: open a .tns, .tns.gz or .tsb file, drop one on the window, or pick a "
                             "sample below."),
                          currentBox);
    current_->setWordWrap(true);
    current_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    currentLayout->addWidget(current_);
    layout->addWidget(currentBox);

    auto* buttons = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open…"), this);
    auto* generate = new QPushButton(tr("Generate…"), this);
    buttons->addWidget(open);
    buttons->addWidget(generate);
    layout->addLayout(buttons);
    connect(open, &QPushButton::clicked, this, &DatasetPanel::openClicked);
    connect(generate, &QPushButton::clicked, this, &DatasetPanel::generateClicked);

    auto* sampleBox = new QGroupBox(tr("Samples (double-click)"), this);
    auto* sampleLayout = new QVBoxLayout(sampleBox);
    sampleList_ = new QListWidget(sampleBox);
    sampleList_->setObjectName(QStringLiteral("sampleList"));
    for (int i = 0; i < samples_.size(); ++i) {
        auto* item = new QListWidgetItem(samples_[i].title, sampleList_);
        item->setToolTip(samples_[i].description);
        item->setData(Qt::UserRole, i);
    }
    // Wide enough for every title, so that the dock never cuts one behind a horizontal scroll bar.
    sampleList_->setMinimumWidth(sampleList_->sizeHintForColumn(0) + 2 * sampleList_->frameWidth() +
                                 sampleList_->verticalScrollBar()->sizeHint().width());
    sampleLayout->addWidget(sampleList_);
    layout->addWidget(sampleBox);
    connect(sampleList_, &QListWidget::itemActivated, this, &DatasetPanel::onSample);

    auto* recentBox = new QGroupBox(tr("Recent files"), this);
    auto* recentLayout = new QVBoxLayout(recentBox);
    recentList_ = new QListWidget(recentBox);
    recentList_->setObjectName(QStringLiteral("recentList"));
    recentList_->setTextElideMode(Qt::ElideMiddle);
    recentList_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    recentLayout->addWidget(recentList_);
    layout->addWidget(recentBox);
    connect(recentList_, &QListWidget::itemActivated, this, &DatasetPanel::onRecent);
}

void DatasetPanel::setDataset(const DatasetPtr& dataset) {
    if (!dataset) return;
    const auto& t = dataset->tensor;
    current_->setText(tr("<b>%1</b><br>order %2: %3<br>%4 nonzeros, density %5<br><small>%6</small>")
                          .arg(breakableName(dataset->title).toHtmlEscaped())
                          .arg(t.order())
                          .arg(dimsText(t.dims()))
                          .arg(grouped(dataset->nonzeros()))
                          .arg(shortNumber(dataset->stats.density))
                          .arg(breakableName(dataset->source).toHtmlEscaped()));
    current_->setToolTip(dataset->source);
    // the list marks the sample shown, or none: the last double-clicked one had stayed marked
    // beside another file (sweep 66b A12)
    const int shown = sampleIndexOf(*dataset);
    if (shown < 0) {
        sampleList_->clearSelection();
        sampleList_->setCurrentRow(-1, QItemSelectionModel::Clear);
    } else {
        sampleList_->setCurrentRow(shown);
    }
}

int DatasetPanel::sampleIndexOf(const Dataset& dataset) const {
    for (int i = 0; i < samples_.size(); ++i) {
        const DatasetRequest& r = samples_[i].request;
        const QString file = QFileInfo(r.path).canonicalFilePath();  // "" for a file gone or none
        const bool same =
            r.kind == DatasetRequest::Kind::Generate
                ? dataset.generated && dataset.title == r.title
                : !dataset.generated && !file.isEmpty() && QFileInfo(dataset.source).canonicalFilePath() == file;
        if (same) return i;
    }
    return -1;
}

void DatasetPanel::setRecentFiles(const QStringList& files) {
    recentList_->clear();
    QMap<QString, QStringList> foldersByName;  // a name's folders, in the list's order
    for (const QString& f : files) foldersByName[QFileInfo(f).fileName()] << QFileInfo(f).absolutePath();
    for (const QString& f : files) {
        // A name listed twice (two folders' blocks.tns) says which folder, or the two look alike
        const QFileInfo info(f);
        const QStringList& folders = foldersByName[info.fileName()];
        const QString shown = printableName(
            folders.size() > 1
                ? tr("%1 (in %2)")
                      .arg(info.fileName(), distinguishingFolders(folders).value(folders.indexOf(info.absolutePath())))
                : info.fileName());
        auto* item = new QListWidgetItem(shown, recentList_);
        item->setToolTip(f);
        item->setData(Qt::UserRole, f);
    }
}

void DatasetPanel::onSample(QListWidgetItem* item) {
    const int i = item->data(Qt::UserRole).toInt();
    if (i >= 0 && i < samples_.size()) Q_EMIT requested(samples_[i].request);
}

void DatasetPanel::onRecent(QListWidgetItem* item) {
    Q_EMIT requested(DatasetRequest::file(item->data(Qt::UserRole).toString()));
}

}  // namespace tsui
