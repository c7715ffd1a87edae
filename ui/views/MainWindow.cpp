#include "views/MainWindow.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "panels/DatasetPanel.hpp"
#include "panels/DecompositionPanel.hpp"
#include "panels/DensityPanel.hpp"
#include "panels/FormatsPanel.hpp"
#include "panels/KernelsPanel.hpp"
#include "panels/OverviewPanel.hpp"
#include "panels/PipelinePanel.hpp"
#include "panels/ReorderPanel.hpp"
#include "panels/TeachingPanel.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/io/dataset_catalog.hpp"
#include "views/DatasetDialog.hpp"
#include "views/GenerateDialog.hpp"
#include "views/ScreenFit.hpp"
#include "views/TextFormat.hpp"
#include "views/WindowMemory.hpp"

namespace tsui {

namespace {

constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";

using PanelFactory = Panel* (*)(QWidget* parent);

template <class T>
Panel* makePanel(QWidget* parent) {
    return new T(parent);
}

// The tabs, in the order the user sees them. A new tab is a Panel and one line here.
const PanelFactory kTabs[] = {
    makePanel<OverviewPanel>,
    makePanel<DensityPanel>,
    makePanel<FormatsPanel>,
    makePanel<ReorderPanel>,
    makePanel<TeachingPanel>,
    makePanel<KernelsPanel>,
    makePanel<PipelinePanel>,
    makePanel<DecompositionPanel>,
};

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), job_(new DatasetJob(this)) {
    setWindowTitle(tr("Tensorscope"));
    setAcceptDrops(true);
    // a 1366 x 768 laptop's first start put the status bar below its edge: the screen's whole
    // width (95% of a 1280 px screen made Decompositions scroll, sweep 66c), its height less a
    // title bar's
    resize(fitToScreenOf(this, QSize(1280, 800), QSize(0, 40)));

    datasetPanel_ = new DatasetPanel(this);
    auto* dock = new QDockWidget(tr("Dataset"), this);
    dock->setObjectName(QStringLiteral("datasetDock"));
    dock->setWidget(datasetPanel_);
    // closable, and brought back from View (Ctrl+Shift+D): on a 1024 px screen or at 200% its
    // 255 px had left tabs too narrow for their Run buttons (sweep 74a F3)
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {255}, Qt::Horizontal);

    setCentralWidget(buildCentre());
    buildMenus();
    buildStatusBar();

    connect(datasetPanel_, &DatasetPanel::requested, this, &MainWindow::openRequest);
    connect(datasetPanel_, &DatasetPanel::openClicked, this, &MainWindow::chooseFile);
    connect(datasetPanel_, &DatasetPanel::generateClicked, this, &MainWindow::chooseGenerate);
    connect(job_, &DatasetJob::started, this, &MainWindow::onStarted);
    connect(job_, &DatasetJob::progress, this, &MainWindow::onProgress);
    connect(job_, &DatasetJob::finished, this, &MainWindow::onFinished);
    connect(job_, &DatasetJob::failed, this, &MainWindow::onFailed);
    connect(job_, &DatasetJob::cancelled, this, &MainWindow::onCancelled);
    auto maybe_idle = [this] {
        if (!isBusy()) Q_EMIT idle();
    };
    connect(job_, &DatasetJob::idle, this, maybe_idle);
    for (Panel* p : panels_) {
        connect(p, &Panel::idle, this, maybe_idle);
        connect(p, &Panel::failed, this, [this, p](const QString& message) { showError(tr("%1: %2").arg(p->title(), message)); });
    }
    connect(overview(), &OverviewPanel::sampleRequested, this, &MainWindow::openSampleOfStreamed);

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreWindow(*this, *tabs_, settings);
    refreshRecentMenu();
}

MainWindow::~MainWindow() = default;

OverviewPanel* MainWindow::overview() const { return panel<OverviewPanel>(); }

void MainWindow::openSampleOfStreamed() {
    if (!dataset_ || !dataset_->streamed) return;
    openRequest(DatasetRequest::sample(QString::fromStdString(dataset_->streamedFile), dataset_->title));
}
FormatsPanel* MainWindow::formats() const { return panel<FormatsPanel>(); }
DensityPanel* MainWindow::density() const { return panel<DensityPanel>(); }
KernelsPanel* MainWindow::kernels() const { return panel<KernelsPanel>(); }
PipelinePanel* MainWindow::pipeline() const { return panel<PipelinePanel>(); }
DecompositionPanel* MainWindow::decompositions() const { return panel<DecompositionPanel>(); }
TeachingPanel* MainWindow::teaching() const { return panel<TeachingPanel>(); }

QWidget* MainWindow::buildCentre() {
    auto* centre = new QWidget(this);
    auto* layout = new QVBoxLayout(centre);
    layout->setContentsMargins(4, 4, 4, 4);

    banner_ = new QFrame(centre);
    banner_->setObjectName(QStringLiteral("errorBanner"));
    banner_->setStyleSheet(QStringLiteral("#errorBanner { background: #fdecea; border: 1px solid #e0a0a0; border-radius: 4px; }"));
    auto* bannerLayout = new QHBoxLayout(banner_);
    bannerText_ = new QLabel(banner_);
    bannerText_->setWordWrap(true);
    bannerText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bannerText_->setStyleSheet(QStringLiteral("color: #8a1c1c"));
    auto* dismiss = new QPushButton(tr("Dismiss"), banner_);
    bannerLayout->addWidget(bannerText_, 1);
    bannerLayout->addWidget(dismiss);
    connect(dismiss, &QPushButton::clicked, banner_, &QFrame::hide);
    banner_->hide();
    layout->addWidget(banner_);

    tabs_ = new QTabWidget(centre);
    tabs_->setObjectName(QStringLiteral("tabs"));
    for (PanelFactory make : kTabs) {
        Panel* p = make(tabs_);
        // a tab scrolls where the window is smaller than its controls (a 1024 x 640 screen, or
        // 1920 x 1080 at 200%): unscrolled, the widest tab set the window's minimum, 1,272 x 677
        // px, and its Run buttons and the status bar lay off those screens (sweep 66b)
        auto* scroll = new QScrollArea(tabs_);
        scroll->setObjectName(QStringLiteral("tabScroll"));
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(p);
        tabs_->addTab(scroll, p->title());
        panels_.push_back(p);
    }
    layout->addWidget(tabs_, 1);
    return centre;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    QMenu* samples = file->addMenu(tr("&Samples"));
    for (const Sample& s : datasetPanel_->samples()) {
        QAction* a = samples->addAction(s.title);
        a->setToolTip(s.description);
        const DatasetRequest request = s.request;
        connect(a, &QAction::triggered, this, [this, request] { openRequest(request); });
    }
    file->addAction(tr("Open &dataset…"), this, [this] { chooseDataset(); })
        ->setToolTip(tr("The FROSTT tensors: download one into the cache folder, converted once to .tsb"));
    file->addAction(tr("&Generate…"), this, &MainWindow::chooseGenerate);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    buildKeyboardMenus();

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Tensorscope"), this, [this] {
        const tscope::GpuInfo gpu = tscope::query_gpu();
        QMessageBox::about(this, tr("About Tensorscope"),
                           tr("<b>Tensorscope</b> %1 — an explorer for sparse tensor formats and kernels.<br><br>"
                              "GPU: %2<br><br>The same work from scripts: <tt>tensorscope-cli --help</tt>.")
                               .arg(QCoreApplication::applicationVersion().toHtmlEscaped(),
                                    QString::fromStdString(gpu.available ? gpu.name : gpu.reason).toHtmlEscaped()));
    });
}

// The tabs and their work from the keyboard (sweep 66b: only Ctrl+O and Ctrl+Q existed, and
// Ctrl+Tab did nothing from the dock or in a table): Alt+1..8 show a tab, Ctrl+R runs the shown
// tab's work, Esc presses the Cancel the user sees.
void MainWindow::buildKeyboardMenus() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < tabs_->count(); ++i) {
        QAction* a = view->addAction(tr("&%1 %2").arg(i + 1).arg(tabs_->tabText(i)), this, [this, i] {
            if (tabs_->isTabEnabled(i)) tabs_->setCurrentIndex(i);
        });
        a->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    view->addSeparator();
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("datasetDock"))) {
        QAction* toggle = dock->toggleViewAction();
        toggle->setText(tr("&Dataset panel"));
        toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
        view->addAction(toggle);
    }
    QMenu* work = menuBar()->addMenu(tr("&Run"));
    QAction* run = work->addAction(tr("&Run this tab's work"), this, [this] {
        Panel* shown = panels_[static_cast<std::size_t>(tabs_->currentIndex())];
        if (dataset_ && !shown->isBusy() && !shown->runOwnWork())
            statusText_->setText(
                tr("The %1 tab has no work to run: it shows the tensor as it is.").arg(shown->title()));
    });
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    QAction* cancel = work->addAction(tr("&Cancel"), this, &MainWindow::cancelShownWork);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
}

void MainWindow::cancelShownWork() {
    if (job_->isBusy()) return job_->cancel();  // the load's Cancel, in the status bar
    const Panel* shown = panels_[static_cast<std::size_t>(tabs_->currentIndex())];
    for (QPushButton* b : shown->findChildren<QPushButton*>())
        if (b->property(kCancelsWork).toBool() && b->isVisible() && b->isEnabled()) return b->click();
}

void MainWindow::buildStatusBar() {
    statusText_ = new QLabel(tr("Ready"), this);
    statusText_->setObjectName(QStringLiteral("windowStatus"));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(260);
    progress_->setTextVisible(true);
    progress_->setFormat(QStringLiteral("%p%"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    connect(cancel_, &QPushButton::clicked, job_, &DatasetJob::cancel);
    statusBar()->addWidget(statusText_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    setBusy(false);
}

void MainWindow::setBusy(bool busy) {
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
    if (busy) progress_->setValue(0);
}

void MainWindow::openFile(const QString& path) { openRequest(DatasetRequest::file(path)); }

void MainWindow::openRequest(const DatasetRequest& request) {
    banner_->hide();
    lastRequestedFile_ = request.kind == DatasetRequest::Kind::File ? request.path : QString();
    DatasetRequest r = request;
    if (!r.memoryLimit) r.memoryLimit = tensorMemoryLimit_;
    if (r.cacheDir.isEmpty()) r.cacheDir = DatasetDialog::defaultCacheDir();
    job_->start(r);
}

void MainWindow::chooseFile() {
    QSettings settings;
    // the open tensor's folder first: the dialog had opened in the working folder (sweep 66b A7)
    const QString shown = dataset_ && !dataset_->generated ? QFileInfo(dataset_->source).absolutePath() : QString();
    const QString dir = !shown.isEmpty() && QFileInfo(shown).isDir()
                            ? shown
                            : settings.value(QStringLiteral("lastDirectory")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a tensor"), dir,
                                                      tr("Sparse tensors (*.tns *.tns.gz *.tsb *.gz);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::chooseDataset(const QString& name) {
    DatasetDialog dialog(DatasetDialog::defaultCatalogPath(), DatasetDialog::defaultCacheDir(), this);
    if (!name.isEmpty()) dialog.selectDataset(name);
    if (dialog.exec() == QDialog::Accepted && !dialog.chosenPath().isEmpty()) openFile(dialog.chosenPath());
}

void MainWindow::chooseGenerate() {
    GenerateDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    if (const auto spec = dialog.spec()) openRequest(DatasetRequest::generate(*spec, dialog.title()));
}

void MainWindow::onStarted(const QString& what) {
    statusText_->setText(tr("Loading %1…").arg(what));
    setBusy(true);
}

void MainWindow::onProgress(int permille, const QString& stage) {
    progress_->setValue(permille);
    if (!stage.isEmpty()) progress_->setFormat(stage + QStringLiteral(" %p%"));
}

void MainWindow::onFinished(DatasetPtr dataset) {
    setBusy(false);
    dataset_ = std::move(dataset);
    const int wanted = tabs_->currentIndex();
    enableTabsFor(*dataset_);
    for (Panel* p : panels_) p->setDataset(usable(p, *dataset_) ? dataset_ : DatasetPtr());
    datasetPanel_->setDataset(dataset_);
    if (runWhenLoaded_) {
        runWhenLoaded_ = false;
        if (tabs_->currentIndex() != wanted)  // its tab is off for this tensor: said, not silently skipped
            showError(tr("Nothing was run: the %1 tab is off for this tensor. %2")
                          .arg(tabs_->tabText(wanted).remove(QLatin1Char('&')), tabs_->tabToolTip(wanted)));
        else
            runWhenIdle(panels_[static_cast<std::size_t>(tabs_->currentIndex())]);
    }
    setWindowTitle(tr("Tensorscope — %1").arg(dataset_->title));
    if (dataset_->streamed)
        statusText_->setText(tr("Streamed %1: %2 in %3, not loaded (it would take %4)")
                                 .arg(dataset_->title,
                                      counted(static_cast<qint64>(dataset_->nonzeros()), tr("nonzero"), tr("nonzeros")),
                                      humanSeconds(dataset_->stats.seconds), humanBytes(dataset_->streamedBytes)));
    else
        // the read and the statistics together, and said so: beside the Overview's load time alone
        // it read as a second figure for one thing (sweep 73b)
        statusText_->setText(
            tr("Loaded %1: %2, read and summarised in %3")
                .arg(dataset_->title,
                     counted(static_cast<qint64>(dataset_->tensor.nnz()), tr("nonzero"), tr("nonzeros")),
                     humanSeconds(dataset_->load.load_seconds + dataset_->stats.seconds)));
    if (dataset_->nonzeros() == 0)
        statusText_->setText(statusText_->text() +
                             tr(": every entry was zero, so only the Overview has something to show"));
    if (!dataset_->generated && !isBundledSample(dataset_->source))
        addRecent(dataset_->source);  // it skips a source that is no file (a partial load's description)
    // from the dock (a sample's double-click, Open…) to the tabs, where the loaded tensor is: the
    // arrow keys and Ctrl+Tab then move between them (sweep 66b: focus never moved)
    const QWidget* focus = QApplication::focusWidget();
    if (!focus || datasetPanel_->isAncestorOf(focus)) tabs_->tabBar()->setFocus();
    Q_EMIT datasetChanged(dataset_);
}

void MainWindow::onFailed(const QString& message) {
    setBusy(false);
    showError(forgetIfGone(lastRequestedFile_)
                  ? message + QLatin1Char(' ') + tr("It is gone, so it was taken off the recent files.")
                  : message);
    statusText_->setText(tr("Could not load: see the message above"));
}

void MainWindow::onCancelled() {
    setBusy(false);
    statusText_->setText(dataset_ ? tr("Cancelled; still showing %1").arg(dataset_->title) : tr("Cancelled"));
}

// The tabs that can show a tensor read in parts (Dataset::streamed).
bool MainWindow::streamable(const QWidget* tab) {
    return qobject_cast<const OverviewPanel*>(tab) || qobject_cast<const DensityPanel*>(tab) || qobject_cast<const FormatsPanel*>(tab);
}

bool MainWindow::usable(const QWidget* tab, const Dataset& dataset) {
    // no nonzeros (every entry was zero): the Overview says so; the other tabs would count,
    // build and run on nothing, and said it ten times over or plotted empty axes
    if (dataset.nonzeros() == 0) return qobject_cast<const OverviewPanel*>(tab);
    return !dataset.streamed || streamable(tab);
}

void MainWindow::enableTabsFor(const Dataset& dataset) {
    const QString empty =
        tr("This tensor has no nonzeros (every entry in the file was zero, and zeros are not "
           "stored): there is nothing to count, build or run.");
    const QString why = tr("This tensor would take %1 in memory, more than the %2 a tensor may take here: it was "
                           "read in parts for the Overview, Density and Formats (each format's storage predicted from counts over "
                           "the file). Kernels and decompositions need it in memory (the GPU's streamed CPD can take it: "
                           "tensorscope-cli decompose --stream).")
                            .arg(humanBytes(dataset.streamedBytes), humanBytes(dataset.memoryLimit));
    for (int i = 0; i < tabs_->count(); ++i) {
        const bool on = usable(panels_[static_cast<std::size_t>(i)], dataset);
        tabs_->setTabEnabled(i, on);
        tabs_->setTabToolTip(i, on ? QString() : dataset.nonzeros() == 0 ? empty : why);
    }
    if (!tabs_->isTabEnabled(tabs_->currentIndex())) tabs_->setCurrentIndex(0);  // the Overview
}

bool MainWindow::tabEnabled(const QString& name) const {
    for (int i = 0; i < tabs_->count(); ++i)
        if (tabs_->tabText(i).remove(QLatin1Char('&')).compare(name, Qt::CaseInsensitive) == 0) return tabs_->isTabEnabled(i);
    return false;
}

void MainWindow::showError(const QString& message) {
    bannerText_->setText(message);
    banner_->show();
}

QString MainWindow::errorText() const { return banner_->isHidden() ? QString() : bannerText_->text(); }

// The recent list holds each file by its canonical path, one spelling however it was opened (a
// link, then its own path, was listed twice); the path is empty once the file is gone.
QStringList MainWindow::recentFiles() const {
    QStringList files;
    for (const QString& f : QSettings().value(QLatin1String(kRecentKey)).toStringList()) {
        // once each (lists saved before the spelling was fixed), and not once gone: a temporary
        // folder's files otherwise stayed listed, each an error when picked
        const QString path = QFileInfo(f).canonicalFilePath();
        if (!path.isEmpty() && !files.contains(path)) files << path;
    }
    return files;
}

void MainWindow::addRecent(const QString& spelled) {
    const QString path = QFileInfo(spelled).canonicalFilePath();
    if (path.isEmpty()) return;  // gone since it was read
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecent) files.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), files);
    refreshRecentMenu();
}

// The samples are a click away in the dock and the Samples menu: listed as recent files too,
// they pushed the user's own files down the list (sweep 66b A12).
bool MainWindow::isBundledSample(const QString& path) {
    const QString dir = QFileInfo(samplesDirectory()).canonicalFilePath();
    return !dir.isEmpty() && QFileInfo(QFileInfo(path).canonicalPath()).canonicalFilePath() == dir;
}

// A recent file picked after it was deleted failed to open and stayed listed (sweep 66b A5).
bool MainWindow::forgetIfGone(const QString& path) {
    if (path.isEmpty() || QFileInfo::exists(path)) return false;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList stored = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    if (stored.removeAll(absolute) + stored.removeAll(path) == 0) return false;
    QSettings().setValue(QLatin1String(kRecentKey), stored);
    refreshRecentMenu();
    return true;
}

void MainWindow::refreshRecentMenu() {
    const QStringList files = recentFiles();
    recentMenu_->clear();
    for (const QString& f : files) recentMenu_->addAction(f, this, [this, f] { openFile(f); });
    recentMenu_->setEnabled(!files.isEmpty());
    datasetPanel_->setRecentFiles(files);
}

bool MainWindow::showTab(const QString& name) {
    for (int i = 0; i < tabs_->count(); ++i) {
        if (tabs_->tabText(i).remove(QLatin1Char('&')).compare(name, Qt::CaseInsensitive) == 0) {
            tabs_->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

QStringList MainWindow::tabNames() const {
    QStringList out;
    for (int i = 0; i < tabs_->count(); ++i) out << tabs_->tabText(i).remove(QLatin1Char('&'));
    return out;
}

bool MainWindow::saveScreenshot(const QString& path) { return grab().save(path); }

bool MainWindow::isBusy() const {
    return job_->isBusy() || pendingRun_ ||
           std::any_of(panels_.begin(), panels_.end(), [](const Panel* p) { return p->isBusy(); });
}

void MainWindow::runCurrentTabWhenLoaded() { runWhenLoaded_ = true; }

// The last tensor's work may still be stopping (the open superseded it): the run asked for
// starts once it has, where the tab's busy check had dropped it without a word.
// Meanwhile the run counts as work, so that the window's idle (a --screenshot's cue) waits for
// it: Formats is busy with its survey after every load, and the screenshot was taken before its
// Measure began (sweep 66c).
void MainWindow::runWhenIdle(Panel* tab) {
    if (!tab->isBusy()) {
        tab->runOwnWork();
        return;
    }
    pendingRun_ = tab;
    connect(
        tab, &Panel::idle, this,
        [this, tab] {
            pendingRun_ = nullptr;
            tab->runOwnWork();
            QTimer::singleShot(0, this, [this] {  // a run that started nothing: idle all the same
                if (!isBusy()) Q_EMIT idle();
            });
        },
        Qt::SingleShotConnection);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    for (const QUrl& url : urls) {
        if (url.isLocalFile()) {
            openFile(url.toLocalFile());
            event->acceptProposedAction();
            return;  // one tensor at a time
        }
    }
    if (urls.isEmpty()) return;
    // A link dragged from a web page had been taken and then ignored (sweep 72b): a FROSTT file
    // of the catalog opens the dataset dialog on it, anything else says why nothing opens.
    event->acceptProposedAction();
    const QUrl url = urls.front();
    const QString name = catalogNameOf(url);
    if (name.isEmpty()) {
        showError(tr("%1 is a web address: only files on this computer open by dropping. Download it first, "
                     "or use File › Open dataset… for the FROSTT tensors.")
                      .arg(url.toDisplayString()));
        return;
    }
    QTimer::singleShot(0, this, [this, name] { chooseDataset(name); });  // not inside the drop's own loop
}

// The catalog dataset whose tensor file `url` is ("" when none, or the catalog is unreadable).
QString MainWindow::catalogNameOf(const QUrl& url) {
    try {
        const tscope::DatasetCatalog catalog = tscope::read_catalog(DatasetDialog::defaultCatalogPath().toStdString());
        for (const tscope::CatalogEntry& e : catalog.entries)
            for (const tscope::CatalogFile& f : e.tensors)
                if (QUrl(QString::fromStdString(f.url))
                        .matches(url, QUrl::StripTrailingSlash | QUrl::NormalizePathSegments))
                    return QString::fromStdString(e.name);
    } catch (const std::exception&) {  // the dialog shows an unreadable catalog's error itself
    }
    return {};
}

void MainWindow::saveWindowMemory() {
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    rememberWindow(*this, *tabs_, settings);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveWindowMemory();
    job_->cancel();
    QMainWindow::closeEvent(event);
}

}  // namespace tsui
