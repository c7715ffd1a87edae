// The main window as a user drives it: open, samples, drag and drop, bad files, cancel,
// recent files. Runs on the offscreen platform.
#include <sys/stat.h>

#include <memory>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QListWidget>
#include <QMenuBar>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <qcustomplot.h>
#include "jobs/DatasetJob.hpp"
#include "views/DatasetDialog.hpp"

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTextStream>
#include "models/ModeStatsModel.hpp"
#include "panels/DensityPanel.hpp"

#include "models/BenchRecording.hpp"
#include "models/FormatTableModel.hpp"
#include "models/SampleCatalog.hpp"
#include "panels/DatasetPanel.hpp"
#include "panels/DecompositionPanel.hpp"
#include "panels/FormatsPanel.hpp"
#include "panels/KernelsPanel.hpp"
#include "panels/OverviewPanel.hpp"
#include "panels/Panel.hpp"
#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/generator.hpp"
#include "views/MainWindow.hpp"
#include "views/TextFormat.hpp"

using namespace tsui;

namespace {

// Waits until the window's job is idle; returns false on timeout.
// How far the shown tab scrolls, "" where it shows whole. The tabs scroll where the window is
// smaller than their controls (sweep 66b), so the window's own minimum no longer tells whether
// they fit; at 1280 x 800, the size it opens at, none may scroll.
QString scrolled(MainWindow& w) {
    QTest::qWait(20);  // the layout takes the last change in
    const auto* scroll =
        qobject_cast<const QScrollArea*>(w.findChild<QTabWidget*>(QStringLiteral("tabs"))->currentWidget());
    const QScrollBar* across = scroll->horizontalScrollBar();
    const QScrollBar* down = scroll->verticalScrollBar();
    if (!across->isVisible() && !down->isVisible()) return {};
    return QStringLiteral("%1 px across, %2 px down, the window %3 x %4")
        .arg(across->isVisible() ? across->maximum() : 0)
        .arg(down->isVisible() ? down->maximum() : 0)
        .arg(w.width())
        .arg(w.height());
}

bool waitIdle(MainWindow& w, int ms = 60000) {
    if (!w.job()->isBusy()) return true;
    QSignalSpy idle(w.job(), &DatasetJob::idle);
    return idle.wait(ms);
}

// Cancel ends a run at the next check: between repeats, between a sort's passes, every 64Ki
// nonzeros of the serial oracle. 0.5 s in an optimised build (CI once measured 545 ms when the
// oracle and the sorts had no checks inside). The sanitizer build (.ci/sanitize.sh, -O1 with AddressSanitizer) runs the kernels several times
// slower, so there the bound only says that Cancel works.
#if defined(__SANITIZE_ADDRESS__)
constexpr qint64 kCancelBoundMs = 5000;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr qint64 kCancelBoundMs = 5000;
#else
constexpr qint64 kCancelBoundMs = 500;
#endif
#else
constexpr qint64 kCancelBoundMs = 500;
#endif

// A 1 ms timer on the GUI thread: the longest gap between its ticks is the longest the event
// loop was blocked.
class StallMeter {
public:
    StallMeter() {
        tick_.setInterval(1);
        QObject::connect(&tick_, &QTimer::timeout, [this] {
            const qint64 now = clock_.elapsed();
            longest_ = std::max(longest_, now - last_);
            last_ = now;
        });
        clock_.start();
        tick_.start();
    }
    qint64 stop() {
        tick_.stop();
        return longest_;
    }

private:
    QElapsedTimer clock_;
    QTimer tick_;
    qint64 last_ = 0, longest_ = 0;
};

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
        QCoreApplication::setOrganizationName(QStringLiteral("TensorscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_main_window"));
        QSettings().clear();
    }

    void startsEmptyWithOverviewTab() {
        MainWindow w;
        QVERIFY(w.tabNames().contains(QStringLiteral("Overview")));
        QVERIFY(w.showTab(QStringLiteral("overview")));
        QVERIFY(!w.showTab(QStringLiteral("nonsense")));
        QVERIFY(!w.dataset());
        QVERIFY(w.errorText().isEmpty());
    }

    // What a user leaves is what the next start shows (sweep 66b A4): the tab, a moved
    // splitter, a rank and a method; a remembered value the control no longer takes (a rank
    // past its range) leaves the default.
    // A pane dragged shut comes back open (sweep 68a B2): a collapsed pane read as missing.
    void aCollapsedPaneComesBackOpen() {
        {
            MainWindow w;
            w.resize(1280, 1000);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            auto* split = w.findChild<QSplitter*>(QStringLiteral("formatsSplit"));
            QVERIFY(w.showTab(QStringLiteral("Formats")));
            const int total = split->sizes().value(0) + split->sizes().value(1);
            split->setSizes({total, 0});
            QCOMPARE(split->sizes().value(1), 0);
            w.close();
        }
        MainWindow w;
        w.resize(1280, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QList<int> sizes = w.findChild<QSplitter*>(QStringLiteral("formatsSplit"))->sizes();
        QVERIFY2(sizes.size() == 2 && sizes.value(0) > 0 && sizes.value(1) > 0,
                 qPrintable(QStringLiteral("%1 %2").arg(sizes.value(0)).arg(sizes.value(1))));
    }

    void remembersTabSplittersAndChoicesBetweenStarts() {
        QList<int> moved;
        {
            MainWindow w;
            w.resize(1280, 1000);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.showTab(QStringLiteral("Formats")));
            auto* split = w.findChild<QSplitter*>(QStringLiteral("formatsSplit"));
            QVERIFY(split);
            const QList<int> was = split->sizes();
            const int total = was.value(0) + was.value(1);
            QVERIFY(total > 100);
            split->setSizes({total / 5, total - total / 5});
            moved = split->sizes();
            QVERIFY2(moved != was, qPrintable(QStringLiteral("%1 %2 -> %3 %4")
                                                  .arg(was.value(0))
                                                  .arg(was.value(1))
                                                  .arg(moved.value(0))
                                                  .arg(moved.value(1))));
            w.findChild<QSpinBox*>(QStringLiteral("kernelRank"))->setValue(7);
            auto* method = w.findChild<QComboBox*>(QStringLiteral("decompMethod"));
            method->setCurrentIndex(method->findData(static_cast<int>(tscope::DecompMethod::Tucker)));
            w.findChild<QSpinBox*>(QStringLiteral("decompRank"))->setValue(5);
            w.close();
        }
        {
            MainWindow w;
            w.resize(1280, 1000);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.findChild<QTabWidget*>(QStringLiteral("tabs"))
                         ->tabText(w.findChild<QTabWidget*>(QStringLiteral("tabs"))->currentIndex())
                         .remove(QLatin1Char('&')),
                     QStringLiteral("Formats"));
            QCOMPARE(w.findChild<QSplitter*>(QStringLiteral("formatsSplit"))->sizes(), moved);
            QCOMPARE(w.findChild<QSpinBox*>(QStringLiteral("kernelRank"))->value(), 7);
            QCOMPARE(w.findChild<QComboBox*>(QStringLiteral("decompMethod"))->currentData().toInt(),
                     static_cast<int>(tscope::DecompMethod::Tucker));
            QCOMPARE(w.findChild<QSpinBox*>(QStringLiteral("decompRank"))->value(), 5);
        }
        QSettings().setValue(QStringLiteral("controls/kernelRank"), 99999);
        QSettings().setValue(QStringLiteral("lastTab"), 42);
        {
            MainWindow w;
            QCOMPARE(w.findChild<QSpinBox*>(QStringLiteral("kernelRank"))->value(), 32);
            QCOMPARE(w.findChild<QTabWidget*>(QStringLiteral("tabs"))->currentIndex(), 0);
        }
        QSettings().clear();  // the other tests start from the defaults
    }

    // Past ranks and methods: Kernels' ticked formats and backends, the chart's measure,
    // Reorder's and Density's boxes. A cuda ticked on a GPU machine stays unticked where it is
    // greyed, and a saved formats set naming none of the list's entries leaves the defaults.
    void remembersFormatsAndBackends() {
        const auto ticked = [](const QListWidget* l) {
            QStringList out;
            for (int i = 0; i < l->count(); ++i)
                if (l->item(i)->checkState() == Qt::Checked) out << l->item(i)->text();
            return out;
        };
        {
            MainWindow w;
            auto* formats = w.findChild<QListWidget*>(QStringLiteral("kernelFormats"));
            QVERIFY(formats);
            QCOMPARE(ticked(formats), (QStringList{QStringLiteral("COO"), QStringLiteral("CSF")}));
            for (int i = 0; i < formats->count(); ++i)
                formats->item(i)->setCheckState(formats->item(i)->text() == QStringLiteral("B-CSF") ? Qt::Checked
                                                                                                    : Qt::Unchecked);
            w.findChild<QCheckBox*>(QStringLiteral("kernelCpuRef"))->setChecked(true);
            w.findChild<QCheckBox*>(QStringLiteral("kernelOmp"))->setChecked(false);
            w.findChild<QCheckBox*>(QStringLiteral("kernelCheck"))->setChecked(false);
            w.findChild<QComboBox*>(QStringLiteral("kernelMeasure"))->setCurrentIndex(1);
            w.findChild<QCheckBox*>(QStringLiteral("densitySorted"))->setChecked(true);
            w.findChild<QCheckBox*>(QStringLiteral("reorderMttkrpCOO"))->setChecked(true);
            w.close();
        }
        {
            MainWindow w;
            QCOMPARE(ticked(w.findChild<QListWidget*>(QStringLiteral("kernelFormats"))),
                     QStringList{QStringLiteral("B-CSF")});
            QVERIFY(w.findChild<QCheckBox*>(QStringLiteral("kernelCpuRef"))->isChecked());
            QVERIFY(!w.findChild<QCheckBox*>(QStringLiteral("kernelOmp"))->isChecked());
            QVERIFY(!w.findChild<QCheckBox*>(QStringLiteral("kernelCheck"))->isChecked());
            QCOMPARE(w.findChild<QComboBox*>(QStringLiteral("kernelMeasure"))->currentIndex(), 1);
            QVERIFY(w.findChild<QCheckBox*>(QStringLiteral("densitySorted"))->isChecked());
            QVERIFY(w.findChild<QCheckBox*>(QStringLiteral("reorderMttkrpCOO"))->isChecked());
        }
        QSettings().setValue(QStringLiteral("controls/kernelFormats"), QStringList{QStringLiteral("NO-SUCH-FORMAT")});
        QSettings().setValue(QStringLiteral("controls/kernelCuda"), true);
        {
            MainWindow w;
            QCOMPARE(ticked(w.findChild<QListWidget*>(QStringLiteral("kernelFormats"))),
                     (QStringList{QStringLiteral("COO"), QStringLiteral("CSF")}));
            auto* cuda = w.findChild<QCheckBox*>(QStringLiteral("kernelCuda"));
            QVERIFY(cuda);
            if (!cuda->isEnabled())
                QVERIFY2(!cuda->isChecked(), "a greyed cuda box came back ticked");
            else
                QVERIFY(cuda->isChecked());
        }
        QSettings().clear();
    }

    // The Dataset dock can be closed and comes back from View › Dataset panel (sweep 74a F3:
    // on a 1024 px screen its 255 px left tabs too narrow for their Run buttons); closed, it
    // stays closed at the next start, the user's choice, and the menu entry still brings it back.
    void datasetDockClosesAndComesBack() {
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            auto* dock = w.findChild<QDockWidget*>(QStringLiteral("datasetDock"));
            QVERIFY(dock && (dock->features() & QDockWidget::DockWidgetClosable));
            QAction* toggle = dock->toggleViewAction();
            QCOMPARE(toggle->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+D")));
            bool inView = false;
            for (QMenu* m : w.menuBar()->findChildren<QMenu*>())
                if (m->title() == QStringLiteral("&View")) inView = m->actions().contains(toggle);
            QVERIFY(inView);
            toggle->trigger();
            QVERIFY(!dock->isVisible());
            w.close();
        }
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            auto* dock = w.findChild<QDockWidget*>(QStringLiteral("datasetDock"));
            QVERIFY(!dock->isVisible());
            dock->toggleViewAction()->trigger();
            QVERIFY(dock->isVisible());
        }
        QSettings().clear();
    }

    // A long file name wraps in the dock (at its separators, or every 16 characters) instead of
    // widening it: an 89-character name had taken half the window (sweep 74a F15).
    void aLongNameDoesNotWidenTheDock() {
        QTemporaryDir dir;
        const QString path = dir.filePath(
            QStringLiteral("movielens-100k_ratings_user_item_timestamp_filtered_min5_deduplicated_v3_final.tns"));
        QVERIFY(tstest::write_file(path, "1 1 1 1.0\n2 2 2 2.0\n"));
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("datasetDock"));
        const int before = dock->width();
        w.openFile(path);
        QVERIFY(waitIdle(w) && w.dataset());
        QTest::qWait(50);  // the dock's layout takes the new label in
        QVERIFY2(dock->width() <= std::max(before, 300),
                 qPrintable(QStringLiteral("%1 px, was %2").arg(dock->width()).arg(before)));
        QCOMPARE(breakableName(QStringLiteral("a_b")), QStringLiteral("a_\u200Bb"));
        QCOMPARE(breakableName(QStringLiteral("abcdefghijklmnopqr")), QStringLiteral("abcdefghijklmnop\u200Bqr"));
        QCOMPARE(breakableName(QStringLiteral("x.")), QStringLiteral("x."));  // no break at the end
        QSettings().clear();
    }

    // The tabs come from one ordered list; each panel names its own tab, and the typed
    // accessors find the panels in it.
    void tabsInTheirDeclaredOrder() {
        MainWindow w;
        const QStringList expected = {QStringLiteral("Overview"), QStringLiteral("Density"), QStringLiteral("Formats"),
                                      QStringLiteral("Reorder"), QStringLiteral("Teaching"), QStringLiteral("Kernels"), QStringLiteral("Pipeline"),
                                      QStringLiteral("Decompositions")};
        QCOMPARE(w.tabNames(), expected);
        QCOMPARE(static_cast<int>(w.panels().size()), expected.size());
        for (std::size_t i = 0; i < w.panels().size(); ++i) QCOMPARE(w.panels()[i]->title(), expected[static_cast<int>(i)]);
        QCOMPARE(static_cast<Panel*>(w.overview()), w.panels().front());
        QVERIFY(!w.isBusy());
    }

    void opensBundledSampleAndShowsStatistics() {
        MainWindow w;
        w.show();
        QSignalSpy changed(&w, &MainWindow::datasetChanged);
        w.openFile(QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"));
        QVERIFY(waitIdle(w));
        QCOMPARE(changed.count(), 1);
        QVERIFY(w.dataset());
        QCOMPARE(w.overview()->summaryText(QStringLiteral("order")), QStringLiteral("4"));
        QCOMPARE(w.overview()->summaryText(QStringLiteral("nnz")), QStringLiteral("34,544"));
        QCOMPARE(w.overview()->summaryText(QStringLiteral("dims")), QStringLiteral("104 × 11,540 × 11,541 × 11,539"));
        // the table shows the engine's numbers
        const auto stats = tscope::compute_stats(tscope::load_tensor(TS_SAMPLES_DIR "/jf17k-4d.tns.gz").tensor);
        QAbstractItemModel* table = w.overview()->statsTable()->model();
        QCOMPARE(table->rowCount(), 4);
        for (int r = 0; r < 4; ++r)
            QCOMPARE(table->data(table->index(r, ModeStatsModel::Fibers), Qt::UserRole).toULongLong(),
                     stats.modes[std::size_t(r)].fibers);
        QVERIFY(w.recentFiles().first().endsWith(QStringLiteral("jf17k-4d.tns.gz")));
    }

    // --tab Formats --run: the window is idle (a --screenshot's cue) only once the Advisor has
    // measured; with the run waiting for the survey that every load starts, the window went
    // idle between the two and the screenshot showed no measurement (sweep 66c).
    void runOnFormatsIsIdleOnlyOnceMeasured() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.showTab(QStringLiteral("Formats")));
        QSignalSpy idle(&w, &MainWindow::idle);
        w.runCurrentTabWhenLoaded();
        w.openFile(QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"));
        QVERIFY(idle.wait(120000));
        QVERIFY(!w.isBusy());
        QVERIFY2(!w.formats()->advisor()->measured().empty(), "idle before the Advisor measured");
    }

    // A bundled sample opened from the dock is not listed among the recent files: the samples
    // are a click away already, and pushed the user's own files down (sweep 66b A12).
    void samplesStayOutOfTheRecentFiles() {
        MainWindow w;
        const QList<Sample> samples = bundledSamples();
        const auto file = std::find_if(samples.begin(), samples.end(),
                                       [](const Sample& s) { return s.request.kind == DatasetRequest::Kind::File; });
        QVERIFY(file != samples.end());
        w.openRequest(file->request);
        QVERIFY(waitIdle(w));
        QVERIFY2(w.errorText().isEmpty(), qPrintable(w.errorText()));
        QVERIFY(!w.recentFiles().contains(QFileInfo(file->request.path).canonicalFilePath()));
    }

    // A vector (order 1) opens and every tab takes it: formats that need order 2 say so in their
    // rows instead of crashing the window (it did, building CFB and B-CSF on load).
    void opensAnOrderOneTensor() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("vector.tns"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("3 1.5\n1 2.0\n7 -1.0\n");
        }
        MainWindow w;
        w.show();
        w.openFile(path);
        QVERIFY(waitIdle(w));
        QCOMPARE(w.overview()->summaryText(QStringLiteral("order")), QStringLiteral("1"));
        for (const QString& tab : w.tabNames()) {
            QVERIFY(w.showTab(tab));
            QVERIFY(waitIdle(w));
        }
        QVERIFY(w.errorText().isEmpty());
    }

    void opensSharedMovieLens() {
        TS_REQUIRE_SHARED(path, "movielens-100k.tns");
        MainWindow w;
        w.openFile(QString::fromStdString(path));
        QVERIFY(waitIdle(w));
        QCOMPARE(w.overview()->summaryText(QStringLiteral("dims")), QStringLiteral("943 × 1,682 × 215"));
        QCOMPARE(w.overview()->summaryText(QStringLiteral("nnz")), QStringLiteral("100,000"));
    }

    void badFileShowsErrorAndStaysUsable() {
        MainWindow w;
        const QString bad = QString::fromStdString(tstest::test_data("bad/non_numeric.tns"));
        w.openFile(bad);
        QVERIFY(waitIdle(w));
        QVERIFY(!w.dataset());
        QVERIFY2(w.errorText().contains(bad + QStringLiteral(":2:3: expected an integer index")), qPrintable(w.errorText()));
        // still usable: the next file loads and the banner goes away
        w.openFile(QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"));
        QVERIFY(waitIdle(w));
        QVERIFY(w.dataset());
        QVERIFY(w.errorText().isEmpty());
        // a missing file, then a binary file
        w.openFile(QStringLiteral("/nonexistent/file.tns"));
        QVERIFY(waitIdle(w));
        QVERIFY(w.errorText().contains(QStringLiteral("No such file")));
        QCOMPARE(w.dataset()->title, QStringLiteral("jf17k-4d.tns.gz"));  // the previous dataset stays
        w.openFile(QString::fromStdString(tstest::test_data("bad/random_binary.tns")));
        QVERIFY(waitIdle(w));
        QVERIFY(w.errorText().contains(QStringLiteral("NUL byte")));
        // a FIFO: refused in words at once; its open() would wait for a writer, out of Cancel's reach
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("fifo.tns"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        w.openFile(fifo);
        QVERIFY(waitIdle(w));
        QVERIFY2(w.errorText().contains(QStringLiteral("not a regular file")), qPrintable(w.errorText()));
        QCOMPARE(w.dataset()->title, QStringLiteral("jf17k-4d.tns.gz"));
        // a folder is called one, not "a pipe, a FIFO or a device" (sweep 64)
        w.openFile(dir.path());
        QVERIFY(waitIdle(w));
        QVERIFY2(w.errorText().contains(QStringLiteral("a folder, not a tensor file")), qPrintable(w.errorText()));
    }

    // A file whose every entry is zero loads with no nonzeros: the Overview shows it, and the
    // other tabs are off with the reason, where they listed "the tensor has no nonzeros" once per
    // format and mode, ranked formats for nothing, or drew empty axes.
    void tensorWithoutNonzerosShowsOnlyItsOverview() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("allzero.tns"));
        QVERIFY(tstest::write_file(path, "1 1 1 0\n2 2 2 0.0\n3 1 2 -0\n"));
        MainWindow w;
        w.show();
        w.openFile(path);
        QVERIFY(waitIdle(w));
        QCOMPARE(w.dataset()->nonzeros(), std::uint64_t{0});
        for (const QString& tab : w.tabNames())
            QVERIFY2(w.tabEnabled(tab) == (tab == QStringLiteral("Overview")), qPrintable(tab));
        // the next tensor with nonzeros turns them back on
        w.openFile(QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns"));
        QVERIFY(waitIdle(w));
        QVERIFY(w.tabEnabled(QStringLiteral("Formats")) && w.tabEnabled(QStringLiteral("Kernels")));
    }

    void cancelStopsALongGeneration() {
        MainWindow w;
        QSignalSpy cancelled(w.job(), &DatasetJob::cancelled);
        tscope::GeneratorSpec spec;
        spec.dims = {100000, 100000, 100000};
        spec.nnz = 20000000;  // seconds of work: long enough to cancel midway
        w.openRequest(DatasetRequest::generate(spec, QStringLiteral("big")));
        QTest::qWait(100);
        QVERIFY(w.job()->isBusy());
        w.job()->cancel();
        QVERIFY(waitIdle(w, 30000));
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!w.dataset());
    }

    // Issue 8: the window never freezes. A 1 ms timer ticks through loading a 5M-nonzero .tns
    // (parse, duplicate check, statistics, and the Formats tab's background survey starting);
    // the longest gap between ticks is the longest the event loop was blocked. A shared machine
    // can hold any process back for a while (a fresh-clone CI run once measured 226 ms where
    // this load stalls 14-27 ms), so a load that stalls is repeated once in a new window: the
    // test fails where both stall, as work on the GUI thread would every time.
    void eventLoopStaysResponsiveDuringA5MLoad() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("pl5m.tns"));
        tscope::GeneratorSpec spec;
        spec.dims = {100000, 80000, 60000};
        spec.nnz = 5000000;
        tscope::parse_distribution("powerlaw:1.1", spec);
        tscope::save_tensor(tscope::generate_tensor(spec), path.toStdString());

        qint64 longest = 0;
        for (int attempt = 1; attempt <= 2; ++attempt) {
            MainWindow w;
            w.show();
            StallMeter meter;
            w.openFile(path);
            QVERIFY(waitIdle(w, 120000));
            QTest::qWait(500);  // what the GUI thread does with the result: models, tables, plots
            longest = meter.stop();
            QVERIFY(w.dataset());
            QCOMPARE(w.overview()->summaryText(QStringLiteral("nnz")), QStringLiteral("5,000,000"));
            qInfo("longest event-loop stall while loading 5M nonzeros (attempt %d): %lld ms", attempt, longest);
            if (longest < 100) break;
        }
        QVERIFY2(longest < 100, qPrintable(QString("the event loop stalled for %1 ms in both attempts").arg(longest)));
    }

    // Issue 22: a Kernels run and the Formats survey on a 5M-nonzero tensor, both under way,
    // never block the event loop for 100 ms (Qt's painting waits on Qt's global pool, which
    // engine work no longer fills), and Cancel ends the run within 0.5 s. A run that stalls is
    // repeated once in a new window, as in the load's test above.
    void eventLoopStaysResponsiveDuringKernelsAndSurvey() {
        tscope::GeneratorSpec spec;
        spec.dims = {100000, 80000, 60000};
        spec.nnz = 5000000;
        tscope::parse_distribution("powerlaw:1.1", spec);
        std::unique_ptr<MainWindow> w;
        KernelsPanel* k = nullptr;
        qint64 longest = 0;
        for (int attempt = 1; attempt <= 2; ++attempt) {
            w.reset();  // the last attempt's window first, with its survey
            w = std::make_unique<MainWindow>();
            w->resize(1280, 800);
            w->show();
            QSignalSpy loaded(w.get(), &MainWindow::datasetChanged);
            w->openRequest(DatasetRequest::generate(spec, QStringLiteral("pl5m")));
            QVERIFY(loaded.wait(180000));

            StallMeter meter;
            QVERIFY(w->showTab(QStringLiteral("Formats")));  // the survey starts
            QTRY_VERIFY_WITH_TIMEOUT(w->formats()->model()->rowCount() >= 1, 60000);  // a build in progress meanwhile
            QVERIFY(w->formats()->isBusy());
            QVERIFY(w->showTab(QStringLiteral("Kernels")));
            k = w->kernels();
            k->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF")}, 16, 1);
            QSignalSpy ran(k, &Panel::idle);
            k->run();
            QVERIFY(ran.wait(300000));
            QVERIFY(k->model()->rowCount() > 0);
            QTest::qWait(300);
            longest = meter.stop();
            qInfo("longest event-loop stall during a Kernels run beside the Formats survey (5M nonzeros, "
                  "attempt %d): %lld ms",
                  attempt, longest);
            if (longest < 100) break;
        }
        QVERIFY2(longest < 100, qPrintable(QString("the event loop stalled for %1 ms in both attempts").arg(longest)));

        // Cancel, a second into another run
        QSignalSpy kernelsIdle(k, &Panel::idle);
        k->run();
        QTest::qWait(1000);
        QVERIFY(k->isBusy());
        QElapsedTimer cancel;
        cancel.start();
        QPushButton* button = nullptr;
        for (QPushButton* b : k->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Cancel") && b->isEnabled()) button = b;
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(kernelsIdle.wait(10000));
        qInfo("Cancel took effect after %lld ms", cancel.elapsed());
        QVERIFY2(cancel.elapsed() < kCancelBoundMs, qPrintable(QString("Cancel took %1 ms").arg(cancel.elapsed())));
    }

    // Issue 22: a tensor with a 99,999,999,999-long mode loads; what cannot be held for it is
    // refused in words, in the window's banner (not "std::bad_alloc" in a tab's status line).
    void hugeModeIsDrawnOrRefusedInWords() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.tns"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Text));
            QTextStream(&f) << "1 1 1 1.0\n99999999999 2 3 2.0\n";
        }
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Overview")));
        QSignalSpy loaded(&w, &MainWindow::datasetChanged);
        w.openFile(path);
        QVERIFY(loaded.wait(60000));
        QVERIFY(w.errorText().isEmpty());

        // Density counts the non-empty slices alone now (a count per slice, 800 GB, had been
        // refused): its two slices are drawn, no error
        QVERIFY(w.showTab(QStringLiteral("Density")));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.density()->slicePlot()->graphCount() == 1 && w.density()->slicePlot()->graph(0)->dataCount() == 2, 30000);
        QVERIFY2(w.errorText().isEmpty(), qPrintable(w.errorText()));

        QVERIFY(w.showTab(QStringLiteral("Kernels")));
        w.kernels()->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO")}, 16, 1);
        QSignalSpy kernelsIdle(w.kernels(), &Panel::idle);
        w.kernels()->run();
        QVERIFY(kernelsIdle.wait(30000));
        QVERIFY2(w.errorText().startsWith(QStringLiteral("Kernels: ")) && w.errorText().contains(QStringLiteral("would need")),
                 qPrintable(w.errorText()));

        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        w.decompositions()->configure(tscope::DecompMethod::Cpd, 4, 2);
        QSignalSpy decompIdle(w.decompositions(), &Panel::idle);
        w.decompositions()->run();
        QVERIFY(decompIdle.wait(30000));
        QVERIFY2(w.errorText().startsWith(QStringLiteral("Decompositions: ")) && w.errorText().contains(QStringLiteral("would need")),
                 qPrintable(w.errorText()));
    }

    void newerRequestSupersedesRunningOne() {
        MainWindow w;
        QSignalSpy changed(&w, &MainWindow::datasetChanged);
        tscope::GeneratorSpec spec;
        spec.dims = {100000, 100000, 100000};
        spec.nnz = 20000000;
        w.openRequest(DatasetRequest::generate(spec, QStringLiteral("slow")));
        QTest::qWait(50);
        w.openFile(QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"));
        QVERIFY(waitIdle(w));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(w.dataset()->title, QStringLiteral("jf17k-4d.tns.gz"));
    }

    void samplesAndDragAndDrop() {
        MainWindow w;
        const auto& samples = w.datasetPanel()->samples();
        QVERIFY(samples.size() >= 4);
        // a generated sample
        int generated = -1;
        for (int i = 0; i < samples.size(); ++i)
            if (samples[i].request.kind == DatasetRequest::Kind::Generate) generated = i;
        QVERIFY(generated >= 0);
        w.openRequest(samples[generated].request);
        QVERIFY(waitIdle(w));
        QVERIFY(w.dataset() && w.dataset()->generated);
        QCOMPARE(w.dataset()->tensor.nnz(), samples[generated].request.spec.nnz);
        // drop a file on the window
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("dropped.tns"));
        tscope::save_tensor(tstest::random_tensor({7, 8, 9}, 30, 1), file.toStdString());
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(file)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(waitIdle(w));
        QCOMPARE(w.dataset()->title, QStringLiteral("dropped.tns"));
        QCOMPARE(w.overview()->summaryText(QStringLiteral("dims")), QStringLiteral("7 × 8 × 9"));
        // the status bar's time is the read and the statistics together, and says so (beside the
        // Overview's load time alone it read as a second figure for one thing, sweep 73b)
        const QString status = w.findChild<QLabel*>(QStringLiteral("windowStatus"))->text();
        QVERIFY2(status.startsWith(QStringLiteral("Loaded dropped.tns: %1 nonzeros, read and summarised in ")
                                       .arg(w.dataset()->tensor.nnz())),
                 qPrintable(status));
    }

    // A dragged web link is not ignored (sweep 72b): a FROSTT tensor's opens the dataset dialog
    // on its dataset, any other link says that only local files open by dropping.
    void aDroppedWebLinkSaysWhatHappens() {
        MainWindow w;
        const auto drop = [&w](const QUrl& url) {
            QMimeData mime;
            mime.setUrls({url});
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&w, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent event(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&w, &event);
        };
        drop(QUrl(QStringLiteral("https://example.org/data/tensor.tns")));
        QVERIFY(w.errorText().contains(QStringLiteral("https://example.org/data/tensor.tns is a web address")));
        QVERIFY(!w.dataset());

        QString shown;
        QTimer::singleShot(0, &w, [&shown] {  // the dialog's own loop runs this
            QTimer::singleShot(50, [&shown] {
                auto* dialog = qobject_cast<DatasetDialog*>(QApplication::activeModalWidget());
                if (!dialog) return;
                const auto rows = dialog->table()->selectionModel()->selectedRows();
                if (!rows.isEmpty()) shown = dialog->table()->item(rows.front().row(), 0)->text();
                dialog->reject();
            });
        });
        drop(QUrl(QStringLiteral(
            "https://s3.us-east-2.amazonaws.com/frostt/frostt_data/chicago-crime/comm/chicago-crime-comm.tns.gz")));
        QTRY_COMPARE(shown, QStringLiteral("chicago-crime"));
    }

    // The samples list marks the sample shown, whichever way it was opened, and none once
    // another file is (the double-clicked one had stayed marked, sweep 66b A12).
    void theSamplesListMarksTheSampleShown() {
        MainWindow w;
        auto* list = w.findChild<QListWidget*>(QStringLiteral("sampleList"));
        const auto& samples = w.datasetPanel()->samples();
        for (int i = 0; i < samples.size(); ++i) {
            if (samples[i].request.kind != DatasetRequest::Kind::File) continue;
            w.openRequest(samples[i].request);  // as the Samples menu opens it
            QVERIFY(waitIdle(w));
            QCOMPARE(list->currentRow(), i);
            QVERIFY(list->item(i)->isSelected());
        }
        QTemporaryDir dir;
        const QString other = dir.filePath(QStringLiteral("other.tns"));
        QVERIFY(tstest::write_file(other, "1 1 1 2.0\n2 2 2 3.0\n"));
        w.openFile(other);
        QVERIFY(waitIdle(w));
        QCOMPARE(w.dataset()->title, QStringLiteral("other.tns"));
        QCOMPARE(list->currentRow(), -1);
        QVERIFY(list->selectedItems().isEmpty());
    }

    // The sidebar shows every sample's whole title: at the window's default size the dock once
    // cut them ("4×5×4 example (hocfs") behind a horizontal scroll bar.
    void sampleTitlesFitTheSidebar() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* list = w.findChild<QListWidget*>(QStringLiteral("sampleList"));
        QVERIFY(list);
        QVERIFY(list->count() >= 4);
        for (int i = 0; i < list->count(); ++i) {
            const QString title = list->item(i)->text();
            QVERIFY2(list->fontMetrics().horizontalAdvance(title) <= list->viewport()->width(), qPrintable(title));
        }
        QVERIFY(!list->horizontalScrollBar()->isVisible());
    }

    // The window fits a 1024 x 640 screen (and 1920 x 1080 at 200%, 960 x 540 in its points): its
    // minimum had been the widest tab's, 1,272 x 677 px, with Decompositions' Run button and the
    // status bar past those screens' edges (sweep 66b). Smaller than a tab, the tab scrolls, and
    // its Run button is reached by scrolling.
    void fitsSmallScreensByScrollingTheTabs() {
        MainWindow w;
        w.openFile(QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"));
        QVERIFY(waitIdle(w));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY2(w.minimumSizeHint().width() <= 960 && w.minimumSizeHint().height() <= 540,
                 qPrintable(
                     QStringLiteral("%1 x %2 px").arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())));
        w.resize(960, 540);
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QTest::qWait(50);
        auto* run = w.findChild<QPushButton*>(QStringLiteral("decompRun"));
        QVERIFY(run);
        auto* scroll = qobject_cast<QScrollArea*>(w.findChild<QTabWidget*>(QStringLiteral("tabs"))->currentWidget());
        QVERIFY(scroll);
        scroll->ensureWidgetVisible(run);
        QTest::qWait(50);
        const QRect shown(run->mapTo(scroll->viewport(), QPoint(0, 0)), run->size());
        QVERIFY2(scroll->viewport()->rect().contains(shown),
                 qPrintable(QStringLiteral("Run at %1,%2").arg(shown.x()).arg(shown.y())));
        QVERIFY(w.statusBar()->isVisible());
        QVERIFY(w.statusBar()->geometry().bottom() < w.height());
    }

    // The keyboard reaches the tabs and their work (sweep 66b): Alt+N shows tab N, Ctrl+R runs
    // the shown tab's work, Esc presses the Cancel in sight, and Tab leaves a result table.
    void keyboardShowsTabsRunsAndCancels() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("small.tns"));
        tscope::save_tensor(tstest::random_tensor({300, 200, 100}, 60000, 9), path.toStdString());
        MainWindow w;
        w.openFile(path);
        QVERIFY(waitIdle(w));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("tabs"));
        QTest::keyClick(&w, Qt::Key_6, Qt::AltModifier);
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Kernels"));
        w.kernels()->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF")}, 16, 100000);
        auto* run = w.kernels()->findChild<QPushButton*>(QStringLiteral("kernelRun"));
        QTest::qWait(20);
        const QPoint before = run->mapTo(&w, QPoint(0, 0));
        QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(w.kernels()->isBusy());
        QTest::qWait(50);  // the progress bar shows: Run stays where it was (it moved up, sweep 66b A9)
        QCOMPARE(run->mapTo(&w, QPoint(0, 0)), before);
        QTest::keyClick(&w, Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!w.kernels()->isBusy(), 10000);
        QCOMPARE(w.findChild<QLabel*>(QStringLiteral("kernelStatus"))->text(), QStringLiteral("Cancelled."));
        QTest::keyClick(&w, Qt::Key_1, Qt::AltModifier);
        QCOMPARE(tabs->currentIndex(), 0);
        QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);  // the Overview has no work: said
        const QString said = w.findChild<QLabel*>(QStringLiteral("windowStatus"))->text();
        QVERIFY2(said.contains(QStringLiteral("no work to run")), qPrintable(said));
        QVERIFY(w.showTab(QStringLiteral("Teaching")));  // its slice tables are made as it shows a tensor
        for (QTableView* table : w.findChildren<QTableView*>())  // every table of the window (sweep 66c)
            QVERIFY2(!table->tabKeyNavigation(), qPrintable(table->objectName() + QLatin1Char(' ') + table->parent()->objectName()));
    }

    // The window fits the size it opens at (1280 x 800) with every tab's widest form: each tab's
    // minimum once added up past it (the Kernels tab's GPU-scaling legend, two long names a row,
    // asked 1,178 px; the Decompositions tab's first row 1,064), so the window opened wider than
    // a 1,280 or 1,366 px screen.
    void fitsItsDefaultWidth() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* method = w.findChild<QComboBox*>(QStringLiteral("decompMethod"));
        auto* backend = w.findChild<QComboBox*>(QStringLiteral("decompBackend"));
        QVERIFY(method && backend);
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        for (int m = 0; m < method->count(); ++m) {
            method->setCurrentIndex(m);
            for (int b = 0; b < backend->count(); ++b) {
                backend->setCurrentIndex(b);
                const QString scroll = scrolled(w);
                QVERIFY2(
                    scroll.isEmpty(),
                    qPrintable(
                        QStringLiteral("%1 on %2: %3").arg(method->currentText(), backend->currentText(), scroll)));
            }
        }
    }

    // Each tab's own work (what --run starts: the Advisor's Measure, a comparison, a benchmark,
    // a decomposition) leaves the window within 1280 x 800 px: the Advisor's one-line verdict
    // after Measure had widened it to 1,681, and a distributed run's rank chart made it 921 high.
    void everyTabFitsTheDefaultWidthAfterItsWork() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("small.tns"));
        tscope::save_tensor(tstest::random_tensor({60, 50, 40}, 3000, 9), path.toStdString());
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFile(path);
        QVERIFY(waitIdle(w));
        for (Panel* tab : w.findChildren<Panel*>()) {
            QVERIFY(w.showTab(tab->title()));
            if (tab->runOwnWork()) QTRY_VERIFY_WITH_TIMEOUT(!tab->isBusy(), 120000);
            const QString scroll = scrolled(w);
            QVERIFY2(scroll.isEmpty(), qPrintable(QStringLiteral("after %1's work: %2").arg(tab->title(), scroll)));
        }
        // a distributed run's rank chart is a fourth plot in Decompositions: still within 800 px
        QString error;
        QVERIFY2(w.decompositions()->openRunFile(
                     QString::fromStdString(tstest::test_data("runs/jf17k-cpd-4-ranks.json")), &error),
                 qPrintable(error));
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QTest::qWait(100);  // the layout takes the new chart in on its next request
        QVERIFY2(scrolled(w).isEmpty(), qPrintable(scrolled(w)));
    }

    // A run asked for on the next open (--run) while the tab's run on the last tensor is still
    // stopping starts once that one has stopped, on the new tensor; it was dropped unsaid.
    void runWhenLoadedWaitsForTheLastTensorsRunToStop() {
        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first.tns")),
                      second = dir.filePath(QStringLiteral("second.tns"));
        tscope::save_tensor(tstest::random_tensor({300, 200, 100}, 30000, 3), first.toStdString());
        tscope::save_tensor(tstest::random_tensor({60, 50, 40}, 3000, 9), second.toStdString());
        MainWindow w;
        w.openFile(first);
        QVERIFY(waitIdle(w));
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        DecompositionPanel* decomp = w.decompositions();
        decomp->configure(tscope::DecompMethod::FasterTucker, 4, 100000);  // CPD may converge first
        decomp->run();
        QTRY_VERIFY(decomp->model()->runs().size() == 1 && !decomp->model()->runs()[0].iterations.empty());
        QVERIFY(decomp->isBusy());
        decomp->configure(tscope::DecompMethod::Cpd, 4, 3);
        w.runCurrentTabWhenLoaded();
        w.openFile(second);
        QVERIFY(waitIdle(w));
        QTRY_VERIFY_WITH_TIMEOUT(decomp->model()->runs().size() == 2 && !decomp->isBusy(), 60000);
        QCOMPARE(decomp->model()->runs()[1].tensor, QStringLiteral("second.tns"));
        QCOMPARE(decomp->model()->runs()[1].iterations.size(), std::size_t{3});
    }

    // Inputs that once widened the window past the screen keep it within 1280 px: Teaching on an
    // order-16 tensor of 4e9-long modes (1,574 px: the arrays' title did not wrap), Formats on a
    // streamed tensor (1,458 px: its one-line status), and a recorded bench whose peak source is
    // one 3,000-character word (21,896 px: the roofline's sources line).
    void wideInputsKeepTheDefaultWidth() {
        QTemporaryDir dir;
        const QString wide = dir.filePath(QStringLiteral("order16.tns"));
        QString text;
        for (int z = 0; z < 30; ++z) {
            for (int m = 0; m < 16; ++m)
                text += QString::number(3900000000ull + std::uint64_t(z) * 977 + std::uint64_t(m)) + QLatin1Char(' ');
            text += QStringLiteral("1.5\n");
        }
        QVERIFY(tstest::write_file(wide, text.toUtf8()));
        const QString streamed = dir.filePath(QStringLiteral("streamed.tsb"));
        tscope::save_tensor(tstest::random_tensor({300, 200, 100}, 5000, 4), streamed.toStdString());
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto settle = [&w] {  // the tabs' work done, and the layout taken it in
            QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 60000);
            QTest::qWait(50);
        };
        auto width = [&w](const char* what) { return QStringLiteral("%1: %2").arg(QLatin1String(what), scrolled(w)); };
        w.openFile(wide);
        QVERIFY(waitIdle(w));
        QVERIFY(w.showTab(QStringLiteral("Teaching")));
        settle();
        QVERIFY2(scrolled(w).isEmpty(), qPrintable(width("Teaching on order 16")));
        w.setTensorMemoryLimit(1024);
        w.openFile(streamed);
        QVERIFY(waitIdle(w));
        QVERIFY(w.showTab(QStringLiteral("Formats")));
        settle();
        QVERIFY2(scrolled(w).isEmpty(), qPrintable(width("Formats, streamed")));
        const QByteArray bench = QByteArray(R"j({"file": "/tmp/t.tns", "results": [{"kernel": "mttkrp", "format": "COO",
            "backend": "omp", "mode": 1, "rank": 16, "ran": true, "median_s": 0.001, "gflops": 5, "intensity": 2,
            "copy_gbps": 40, "peak_gflops": 90, "device": "a CPU", "peak_source": ")j") +
                                 QByteArray(3000, 'x') + QByteArray(R"j("}]})j");
        QString error;
        const std::optional<BenchRecording> recording = parseBenchRecording(bench, &error);
        QVERIFY2(recording, qPrintable(error));
        w.kernels()->showRecording(*recording);
        QVERIFY(w.showTab(QStringLiteral("Kernels")));
        settle();
        QVERIFY2(scrolled(w).isEmpty(), qPrintable(width("a recorded bench's long peak source")));
    }

    // A file opened under two spellings (a link, then its own path) is listed once; two files of
    // one name in two folders are both listed, each with what tells its folder from the other's;
    // a file since removed is not.
    void recentFilesListEachFileOnce() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("a")) && QDir(dir.path()).mkpath(QStringLiteral("b")));
        const QString a = dir.filePath(QStringLiteral("a/same.tns")), b = dir.filePath(QStringLiteral("b/same.tns"));
        tscope::save_tensor(tstest::random_tensor({5, 6, 7}, 20, 3), a.toStdString());
        tscope::save_tensor(tstest::random_tensor({5, 6, 7}, 20, 4), b.toStdString());
        const QString link = dir.filePath(QStringLiteral("link.tns"));  // a second spelling of a
        QVERIFY(QFile::link(a, link));
        MainWindow w;
        for (const QString& path : {link, a, b}) {
            w.openFile(path);
            QVERIFY(waitIdle(w));
            QVERIFY2(w.errorText().isEmpty(), qPrintable(w.errorText()));
        }
        const QStringList recent = w.recentFiles();
        QCOMPARE(recent.filter(QFileInfo(dir.path()).canonicalFilePath()).size(), 2);  // the link is not listed apart
        QCOMPARE(recent.value(0), QFileInfo(b).canonicalFilePath());
        QCOMPARE(recent.value(1), QFileInfo(a).canonicalFilePath());
        auto* list = w.findChild<QListWidget*>(QStringLiteral("recentList"));
        QVERIFY(list && list->count() >= 2);
        QCOMPARE(list->item(0)->text(), QStringLiteral("same.tns (in …/b)"));  // what tells the folders apart
        QCOMPARE(list->item(1)->text(), QStringLiteral("same.tns (in …/a)"));
        QCOMPARE(list->item(1)->toolTip(), QFileInfo(a).canonicalFilePath());
        const QString bPath = QFileInfo(b).canonicalFilePath();
        QVERIFY(QFile::remove(b));                                             // a file gone is no longer listed
        QCOMPARE(w.recentFiles().value(0), QFileInfo(a).canonicalFilePath());  // b was first
        // picked while the list still showed it (sweep 66b A5): the failure says it was taken off,
        // and the stored list lets go of it
        QVERIFY(QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(bPath));
        w.openFile(bPath);
        QVERIFY(waitIdle(w));
        QVERIFY2(w.errorText().contains(QStringLiteral("taken off the recent files")), qPrintable(w.errorText()));
        QVERIFY(!QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(bPath));
    }

    void screenshotIsAPng() {
        MainWindow w;
        w.show();
        w.openFile(QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"));
        QVERIFY(waitIdle(w));
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("w.png"));
        QVERIFY(w.saveScreenshot(png));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 600);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
