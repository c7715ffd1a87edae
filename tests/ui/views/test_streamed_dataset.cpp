// Issue 18, item 2 in the window: a .tsb whose tensor would take more than the memory a tensor
// may take is opened streamed. Its Overview shows the exact slice figures of a pass over the
// file (equal to the loaded tensor's), says how its fibers were counted, and the tabs that need
// the tensor in memory are off with the reason; the Formats tab predicts each format's storage
// from counts over the file (the built bytes where the counts are exact); under the default
// limit the same file loads as before.
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>

#include <qcustomplot.h>
#include "models/FormatTableModel.hpp"
#include "models/ModeStatsModel.hpp"
#include "panels/AdvisorView.hpp"
#include "panels/DensityPanel.hpp"
#include "panels/FormatsPanel.hpp"
#include "panels/OverviewPanel.hpp"
#include "test_support.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/density_map.hpp"
#include "tscope/tensor/generator.hpp"
#include "tscope/tensor/tensor_stats.hpp"
#include "views/MainWindow.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

using namespace tsui;

namespace {

// A power-law tensor of 3000 x 2000 x 1000 written to `path` (.tsb or .tns by its name).
tscope::CooTensor writeTensor(const QString& path, std::uint64_t nnz) {
    tscope::GeneratorSpec spec;
    spec.dims = {3000, 2000, 1000};
    spec.nnz = nnz;
    tscope::parse_distribution("powerlaw:1.0", spec);
    tscope::CooTensor t = tscope::generate_tensor(spec);
    tscope::save_tensor(t, path.toStdString());
    return t;
}

}  // namespace

class TestStreamedDataset : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("TensorscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_streamed_dataset"));
        QSettings().clear();
    }

    void aTensorOverTheLimitIsStreamed() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.tsb"));
        const tscope::CooTensor t = writeTensor(path, 300000);
        const tscope::TensorStats loaded = tscope::compute_stats(t);

        MainWindow w;
        w.show();
        w.setTensorMemoryLimit(t.bytes() / 4);  // a quarter of what it takes loaded
        QSignalSpy changed(&w, &MainWindow::datasetChanged);
        w.openFile(path);
        QVERIFY(changed.wait(60000));
        QVERIFY(w.errorText().isEmpty());
        const DatasetPtr ds = w.dataset();
        QVERIFY(ds && ds->streamed);
        QCOMPARE(ds->tensor.nnz(), std::uint64_t{0});  // nothing loaded
        QCOMPARE(ds->streamedBytes, t.bytes());

        OverviewPanel* o = w.overview();
        QCOMPARE(o->summaryText(QStringLiteral("nnz")), grouped(t.nnz()));
        QCOMPARE(o->summaryText(QStringLiteral("dims")), dimsText(t.dims()));
        QVERIFY(o->summaryText(QStringLiteral("storage")).startsWith(QStringLiteral("not loaded: it would take")));
        QVERIFY(o->summaryText(QStringLiteral("figures")).contains(QStringLiteral("HyperLogLog sketch")));
        QVERIFY(o->summaryText(QStringLiteral("figures")).contains(QStringLiteral("counted exactly, a slice of mode 1 at a time")));
        // one pass, said once: not loaded, the statistics' time (both rows had shown it)
        QVERIFY2(o->summaryText(QStringLiteral("load")).startsWith(QStringLiteral("none: not loaded")),
                 qPrintable(o->summaryText(QStringLiteral("load"))));
        const QAbstractItemModel* m = o->statsTable()->model();
        QCOMPARE(m->rowCount(), 3);
        for (int r = 0; r < 3; ++r) {
            const int mode = m->data(m->index(r, ModeStatsModel::Mode)).toInt() - 1;
            const tscope::ModeStats& want = loaded.modes[static_cast<std::size_t>(mode)];
            QCOMPARE(m->data(m->index(r, ModeStatsModel::Slices), Qt::UserRole).toULongLong(), want.slices);
            QCOMPARE(m->data(m->index(r, ModeStatsModel::SliceMax), Qt::UserRole).toULongLong(), want.slice_nnz.max);
            QCOMPARE(m->data(m->index(r, ModeStatsModel::SliceMean), Qt::UserRole).toDouble(), want.slice_nnz.mean);
            const double fibers = static_cast<double>(m->data(m->index(r, ModeStatsModel::Fibers), Qt::UserRole).toULongLong());
            if (mode == 0) {
                // mode 1's fibers cross every slice: a sketch's count, within 4 standard errors, and
                // lengths sketched, marked so: the mean and spread within 5% and 10%, the sample's
                // longest a lower bound
                QVERIFY(m->data(m->index(r, ModeStatsModel::Fibers)).toString().startsWith(QStringLiteral("≈ ")));
                // and the CSV keeps the marks (it exported the estimates as exact numbers, sweep 72b F13)
                QVERIFY(m->data(m->index(r, ModeStatsModel::Fibers), kExportRole)
                            .toString()
                            .startsWith(QStringLiteral("≈ ")));
                QVERIFY(toCsv(*m).contains(QStringLiteral("≈ ")) && toCsv(*m).contains(QStringLiteral("≥ ")));
                QVERIFY2(std::abs(fibers - static_cast<double>(want.fibers)) <= 0.033 * static_cast<double>(want.fibers),
                         qPrintable(QString("mode %1: %2 estimated, %3 exact").arg(mode + 1).arg(fibers).arg(want.fibers)));
                const double mean = m->data(m->index(r, ModeStatsModel::FiberMean), Qt::UserRole).toDouble();
                QVERIFY2(std::abs(mean - want.fiber_nnz.mean) <= 0.05 * want.fiber_nnz.mean, qPrintable(QString::number(mean)));
                const double spread = m->data(m->index(r, ModeStatsModel::FiberStd), Qt::UserRole).toDouble();
                QVERIFY2(std::abs(spread - want.fiber_nnz.std) <= 0.1 * want.fiber_nnz.std, qPrintable(QString::number(spread)));
                QVERIFY(m->data(m->index(r, ModeStatsModel::FiberMax)).toString().startsWith(QStringLiteral("≥ ")));
                QVERIFY(m->data(m->index(r, ModeStatsModel::FiberMax), Qt::UserRole).toULongLong() <= want.fiber_nnz.max);
                continue;
            }
            // the other modes' fibers lie within a slice of mode 1: counted exactly, spread and all
            QCOMPARE(m->data(m->index(r, ModeStatsModel::Fibers), Qt::UserRole).toULongLong(), want.fibers);
            QCOMPARE(m->data(m->index(r, ModeStatsModel::FiberMax), Qt::UserRole).toULongLong(), want.fiber_nnz.max);
            QVERIFY(std::abs(m->data(m->index(r, ModeStatsModel::FiberStd), Qt::UserRole).toDouble() - want.fiber_nnz.std) <=
                    1e-9 * (1 + want.fiber_nnz.std));
        }
        const QStringList streamable = {QStringLiteral("Overview"), QStringLiteral("Density"), QStringLiteral("Formats")};
        for (const QString& tab : w.tabNames()) QVERIFY2(w.tabEnabled(tab) == streamable.contains(tab), qPrintable(tab));

        // Formats, streamed: every (format, mode) predicted or refused with a reason; CSF rooted at
        // mode 1 and HiCOO from exact counts, equal to the built formats' bytes; no advisor page.
        QVERIFY(w.showTab(QStringLiteral("Formats")));
        FormatTableModel* fm = w.formats()->model();
        QTRY_VERIFY_WITH_TIMEOUT(!w.formats()->isBusy() && fm->rowCount() > 0, 60000);
        QVERIFY(!w.formats()->pages()->isTabEnabled(w.formats()->pages()->indexOf(w.formats()->advisor())));
        {   // its work (the Advisor's Measure) asked for: said as the tab's failure, which the banner
            // shows and a --run exits 2 on, where it had done nothing (sweep 75a F3)
            QSignalSpy failed(w.formats(), &Panel::failed);
            QVERIFY(w.formats()->runOwnWork());
            QCOMPARE(failed.count(), 1);
            QVERIFY2(failed.front().front().toString().contains(QStringLiteral("needs the tensor in memory")),
                     qPrintable(failed.front().front().toString()));
        }
        int checked = 0;
        for (int r = 0; r < fm->rowCount(); ++r) {
            const QString name = fm->data(fm->index(r, FormatTableModel::Format)).toString();
            const QString status = fm->data(fm->index(r, FormatTableModel::Status)).toString();
            const int mode = fm->data(fm->index(r, FormatTableModel::Mode), Qt::UserRole).toInt();
            if (name == QStringLiteral("MM-CSF")) QVERIFY2(status.contains(QStringLiteral("MM-CSF places each nonzero")), qPrintable(status));
            if ((name == QStringLiteral("CSF") && mode == 1) || name == QStringLiteral("HiCOO")) {
                QCOMPARE(status, QStringLiteral("predicted from exact counts (nothing built)"));
                tscope::FormatOptions o;
                const auto built = tscope::build_format(name == QStringLiteral("CSF") ? tscope::FormatKind::CSF : tscope::FormatKind::HiCOO, t, o);
                QCOMPARE(fm->data(fm->index(r, FormatTableModel::Bytes), Qt::UserRole).toULongLong(), built->storage().bytes());
                ++checked;
            }
        }
        QCOMPARE(checked, 2);
        // nothing is built: the units and build-time columns, always empty, are hidden (sweep 72b)
        auto* table = w.formats()->findChild<QTableView*>(QStringLiteral("formatsTable"));
        QVERIFY(table && table->isColumnHidden(FormatTableModel::Units) && table->isColumnHidden(FormatTableModel::BuildSeconds));
        QVERIFY(!table->isColumnHidden(FormatTableModel::Bytes));
        // a format not predicted for any mode (MM-CSF here) says so at its tick (its slot had been
        // empty), and only such a format
        QStringList marked, unpredicted;
        const auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(w.formats()->plot()->xAxis->ticker());
        QVERIFY(ticks);
        for (int i = 0; i < w.formats()->plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(w.formats()->plot()->item(i));
                text && text->objectName() == QStringLiteral("formatWithoutBars")) {
                QCOMPARE(text->text(), QStringLiteral("not predicted (table)"));
                marked << ticks->ticks().value(text->position->key());
            }
        for (const QString& name : ticks->ticks()) {
            bool any = false;
            for (int r = 0; r < fm->rowCount(); ++r)
                any = any || (fm->data(fm->index(r, FormatTableModel::Format)).toString() == name &&
                              fm->data(fm->index(r, FormatTableModel::Bytes), Qt::UserRole).isValid());
            if (!any) unpredicted << name;
        }
        QVERIFY(unpredicted.contains(QStringLiteral("MM-CSF")));
        QCOMPARE(marked, unpredicted);
        QVERIFY(w.showTab(QStringLiteral("Overview")));

        // Density, streamed: the map's brightest bin and its caption as the loaded tensor's.
        QVERIFY(w.showTab(QStringLiteral("Density")));
        QTRY_VERIFY_WITH_TIMEOUT(!w.density()->mapCaption().isEmpty(), 30000);
        const tscope::DensityMap want = tscope::density_map(t, 0, 1, 256);
        QVERIFY2(w.density()->mapCaption().contains(QStringLiteral("brightest: %1 nonzeros").arg(grouped(static_cast<std::uint64_t>(want.max_value)))),
                 qPrintable(w.density()->mapCaption()));
        // HLS's tile map too, counted a block of 16 slices at a time: the loaded tensor's figures
        const tscope::TileMap tiles = tscope::hls_tile_map(t, 0, 1, 78, 256);
        QVERIFY2(w.density()->tileCaption().startsWith(QStringLiteral("%1 non-empty tiles; %2 dense").arg(grouped(tiles.tiles), grouped(tiles.dense_tiles))),
                 qPrintable(w.density()->tileCaption()));
        QVERIFY(!w.density()->tilePlot()->isHidden());
        QVERIFY(w.showTab(QStringLiteral("Overview")));

        // "Load a sample that fits": the first mode-1 slices within the limit, loaded; every tab on.
        QVERIFY(w.overview()->sampleButton()->isVisible());
        changed.clear();
        QTest::mouseClick(w.overview()->sampleButton(), Qt::LeftButton);
        QVERIFY(changed.wait(60000));
        QVERIFY2(w.errorText().isEmpty(), qPrintable(w.errorText()));
        const DatasetPtr sample = w.dataset();
        QVERIFY(!sample->streamed);
        QVERIFY(!w.overview()->sampleButton()->isVisible());
        const std::uint64_t perNnz = t.bytes() / t.nnz();
        QVERIFY(sample->tensor.nnz() > 0);
        QVERIFY(sample->tensor.nnz() <= t.bytes() / 4 / perNnz);
        std::uint64_t inSlices = 0;
        for (std::uint64_t z = 0; z < t.nnz(); ++z) inSlices += t.index(0, z) < sample->tensor.dim(0);
        QCOMPARE(sample->tensor.nnz(), inSlices);
        QVERIFY2(sample->title.contains(QStringLiteral("mode-1 slices 1-")), qPrintable(sample->title));
        for (const QString& tab : w.tabNames()) QVERIFY2(w.tabEnabled(tab), qPrintable(tab));
        QVERIFY(!table->isColumnHidden(FormatTableModel::Units) && !table->isColumnHidden(FormatTableModel::BuildSeconds));

        // The default limit (half the memory): the same file loads, every tab comes back.
        w.setTensorMemoryLimit(0);
        changed.clear();
        w.openFile(path);
        QVERIFY(changed.wait(60000));
        QVERIFY(!w.dataset()->streamed);
        QCOMPARE(w.dataset()->tensor.nnz(), t.nnz());
        QCOMPARE(o->summaryText(QStringLiteral("figures")), QStringLiteral("exact, from the tensor in memory"));
        for (const QString& tab : w.tabNames()) QVERIFY2(w.tabEnabled(tab), qPrintable(tab));
    }

    // Item 3 in the window: a text file too large to load is converted in bounded memory into
    // the cache folder, then opened streamed; the user's file is not touched, and a second open
    // takes the cached .tsb without converting again.
    void aLargeTextFileIsConvertedIntoTheCache() {
        QTemporaryDir dir, cache;
        QSettings().setValue(QStringLiteral("datasets/cacheDir"), cache.path());
        const QString path = dir.filePath(QStringLiteral("big.tns"));
        const tscope::CooTensor t = writeTensor(path, 200000);
        {  // one stored zero and one duplicate of the first nonzero: the text's own figures
            QFile f(path);
            QVERIFY(f.open(QIODevice::Append | QIODevice::Text));
            f.write(QStringLiteral("3000 2000 1000 0\n%1 %2 %3 0.5\n")
                        .arg(t.index(0, 0) + 1)
                        .arg(t.index(1, 0) + 1)
                        .arg(t.index(2, 0) + 1)
                        .toUtf8());
        }
        const QDateTime written = QFileInfo(path).lastModified();
        const qint64 size = QFileInfo(path).size();
        const tscope::TensorStats loaded = tscope::compute_stats(t);

        MainWindow w;
        w.show();
        w.setTensorMemoryLimit(std::uint64_t{2} << 20);  // a quarter of its text, which loads into about as much
        QSignalSpy changed(&w, &MainWindow::datasetChanged);
        w.openFile(path);
        QVERIFY(changed.wait(60000));
        QVERIFY2(w.errorText().isEmpty(), qPrintable(w.errorText()));
        const DatasetPtr ds = w.dataset();
        QVERIFY(ds && ds->streamed);
        const QString tsb = ds->convertedTo;
        QVERIFY2(
            tsb.startsWith(QDir(cache.path()).filePath(QStringLiteral("big-"))) && tsb.endsWith(QStringLiteral(".tsb")),
            qPrintable(tsb));
        QVERIFY(QFileInfo::exists(tsb));
        QCOMPARE(ds->nonzeros(), t.nnz());
        // the text's figures, as loading it says them (the .tsb's had said 0, 0 and 0-based: sweep 72b F5)
        QCOMPARE(w.overview()->summaryText(QStringLiteral("duplicates")), QStringLiteral("1"));
        QCOMPARE(w.overview()->summaryText(QStringLiteral("zeros")), QStringLiteral("1"));
        QVERIFY2(w.overview()->summaryText(QStringLiteral("base")).startsWith(QStringLiteral("per mode: 1, 1, 1")),
                 qPrintable(w.overview()->summaryText(QStringLiteral("base"))));
        QVERIFY(w.overview()->summaryText(QStringLiteral("format")).startsWith(QStringLiteral("text, converted in bounded memory")));
        QVERIFY2(w.overview()->summaryText(QStringLiteral("load")).startsWith(QStringLiteral("converted to .tsb in ")),
                 qPrintable(w.overview()->summaryText(QStringLiteral("load"))));
        const QAbstractItemModel* m = w.overview()->statsTable()->model();
        for (int r = 0; r < m->rowCount(); ++r) {
            const int mode = m->data(m->index(r, ModeStatsModel::Mode)).toInt() - 1;
            QCOMPARE(m->data(m->index(r, ModeStatsModel::Slices), Qt::UserRole).toULongLong(), loaded.modes[static_cast<std::size_t>(mode)].slices);
        }
        QCOMPARE(QFileInfo(path).lastModified(), written);  // the user's file, untouched
        QCOMPARE(QFileInfo(path).size(), size);

        const QDateTime converted = QFileInfo(tsb).lastModified();
        QTest::qWait(20);
        changed.clear();
        w.openFile(path);
        QVERIFY(changed.wait(60000));
        QVERIFY(w.dataset()->streamed);
        QCOMPARE(QFileInfo(tsb).lastModified(), converted);  // taken from the cache
        QCOMPARE(w.dataset()->convertedTo, tsb);
        QCOMPARE(w.overview()->summaryText(QStringLiteral("duplicates")), QStringLiteral("1"));  // kept beside it

        // another big.tns, in another folder: its own .tsb, its own tensor (it had been shown the first's)
        QTemporaryDir other;
        const QString second = other.filePath(QStringLiteral("big.tns"));
        const tscope::CooTensor t2 = writeTensor(second, 150000);
        changed.clear();
        w.openFile(second);
        QVERIFY(changed.wait(60000));
        QVERIFY(w.dataset()->streamed);
        QVERIFY(w.dataset()->convertedTo != tsb);
        QCOMPARE(w.dataset()->nonzeros(), t2.nnz());
        QSettings().remove(QStringLiteral("datasets/cacheDir"));
    }
};

QTEST_MAIN(TestStreamedDataset)
#include "test_streamed_dataset.moc"
