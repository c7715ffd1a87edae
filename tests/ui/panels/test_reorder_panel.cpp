// The Reorder tab (issue 25): on a loaded tensor, Compare draws both density maps (each holding
// every nonzero once), the storage table in both numberings (COO unchanged, HiCOO's blocks as
// the engine counts them), paired MTTKRP bars for the ticked formats, all from the background
// work; the loaded tensor keeps its numbering; cancel leaves the last comparison shown.
#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>

#include <cmath>
#include "panels/ReorderPanel.hpp"
#include "tscope/formats/format_survey.hpp"
#include "ui_test_support.hpp"
#include "views/TableExport.hpp"

using namespace tsui;

namespace {

double mapTotal(QCustomPlot* plot) {
    auto* map = qobject_cast<QCPColorMap*>(plot->plottable(0));
    if (!map) return -1;
    double cells = 0;
    for (int x = 0; x < map->data()->keySize(); ++x)
        for (int y = 0; y < map->data()->valueSize(); ++y)
            if (const double v = map->data()->cell(x, y); !std::isnan(v)) cells += v;
    return cells;
}

std::uint64_t hicooBlocks(const tscope::CooTensor& t) {
    tscope::SurveyRequest r;
    r.formats = {tscope::FormatKind::HiCOO};
    r.modes = {0};
    for (const auto& row : tscope::survey_formats(t, r))
        for (const auto& a : row.storage.arrays)
            if (a.name == "bptr") return a.elements - 1;
    return 0;
}

// The window at a usable size on the Reorder tab with the block tensor (in dir) opened: its
// panel, or null where any step failed.
ReorderPanel* reorderTabWithBlockTensor(MainWindow& w, const QTemporaryDir& dir) {
    w.resize(1400, 950);
    w.show();
    if (!w.showTab(QStringLiteral("Reorder")) || !tstest::openAndWait(w, tstest::blockTensor(dir))) return nullptr;
    return w.findChild<ReorderPanel*>();
}

}  // namespace

class TestReorderPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { tstest::sandboxSettings("test_reorder_panel"); }

    void comparesTheFileOrderWithARelabelling() {
        QTemporaryDir dir;
        MainWindow w;
        ReorderPanel* p = reorderTabWithBlockTensor(w, dir);
        QVERIFY(p);
        const tscope::CooTensor& t = w.dataset()->tensor;
        const auto before = tstest::as_map(t);
        // before the first comparison each plot says what to do, with no bare axes
        for (QCustomPlot* plot : {p->beforeMap(), p->afterMap()})
            QVERIFY(tstest::plotHint(plot).contains(QStringLiteral("press Compare")));
        QVERIFY(tstest::plotHint(p->mttkrpPlot()).contains(QStringLiteral("press Compare")));
        QVERIFY(!p->mttkrpPlot()->legend->visible());
        p->setMethod(tscope::ReorderMethod::Random);
        p->compare();
        QVERIFY(p->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!p->isBusy(), 120000);
        const tscope::ReorderComparison* c = p->comparison();
        QVERIFY2(c, qPrintable(p->status()->text()));
        QCOMPARE(mapTotal(p->beforeMap()), double(t.nnz()));
        QCOMPARE(mapTotal(p->afterMap()), double(t.nnz()));
        // the engine's own counts: HiCOO's blocks before, and after on the relabelled copy
        tscope::CooTensor relabelled = t;
        tscope::apply_relabelling(relabelled, c->relabelling);
        QCOMPARE(*c->before.hicoo_blocks, hicooBlocks(t));
        QCOMPARE(*c->after.hicoo_blocks, hicooBlocks(relabelled));
        QVERIFY(tstest::as_map(relabelled) != before);  // random did renumber
        for (QCustomPlot* plot : {p->beforeMap(), p->afterMap(), p->mttkrpPlot()}) QVERIFY(tstest::plotHint(plot).isEmpty());
        QVERIFY(!p->beforeMap()->legend->visible());
        QVERIFY2(p->status()->text().contains(QStringLiteral("HiCOO blocks")), qPrintable(p->status()->text()));
        // the table: one row per built format; COO's bytes the same in both numberings
        QTableWidget* table = p->storageTable();
        QVERIFY(table->rowCount() >= 4);
        bool sawCoo = false, sawHicoo = false;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString name = table->item(r, 0)->text();
            if (name == QLatin1String("COO")) {
                sawCoo = true;
                QCOMPARE(table->item(r, 1)->data(Qt::UserRole).toDouble(), table->item(r, 2)->data(Qt::UserRole).toDouble());
            }
            if (name == QLatin1String("HiCOO"))  // its blocks' side in the tensor's order, "128³" (was "128ᴺ")
                sawHicoo = table->item(r, 6)->text().startsWith(QStringLiteral("128%1 blocks").arg(QChar(0x00B3)));
            // the change's cell: its number is the percentage the text shows (the CSV took a 0
            // for every one, sweep 72b F1), in plain decimals
            const double before = table->item(r, 1)->data(Qt::UserRole).toDouble(),
                         after = table->item(r, 2)->data(Qt::UserRole).toDouble();
            const QVariant pct = table->item(r, 3)->data(Qt::UserRole);
            QVERIFY(pct.isValid());
            QVERIFY(std::fabs(pct.toDouble() - 100.0 * (after - before) / before) < 1e-9);
            QVERIFY2(!table->item(r, 3)->text().contains(QLatin1Char('e')), qPrintable(table->item(r, 3)->text()));
            if (pct.toDouble() < 0)  // a minus sign facing the plus, not a hyphen
                QVERIFY2(table->item(r, 3)->text().startsWith(QChar(0x2212)), qPrintable(table->item(r, 3)->text()));
        }
        QVERIFY(sawCoo && sawHicoo);
        const QString csv = toCsv(*table->model(), false);
        int changed = 0;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QStringList line = csv.split(QLatin1Char('\n')).value(r + 1).split(QLatin1Char(','));
            QVERIFY2(line.value(3).toDouble() == table->item(r, 3)->data(Qt::UserRole).toDouble(), qPrintable(csv));
            changed += line.value(3).toDouble() != 0;
        }
        QVERIFY2(changed > 0, qPrintable(csv));  // a relabelling changes some format's size (HLS's tiles here)
        // paired bars: before and after, one pair per ticked format (HiCOO, CSF, B-CSF)
        QCOMPARE(p->mttkrpPlot()->plottableCount(), 2);
        for (int i = 0; i < 2; ++i) {
            auto* bars = qobject_cast<QCPBars*>(p->mttkrpPlot()->plottable(i));
            QVERIFY(bars);
            QCOMPARE(bars->dataCount(), 3);
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) QVERIFY(it->value > 0);
        }
        QCOMPARE(c->before.mttkrp_sweep_s.size(), std::size_t(3));
        {  // the bars are the sweeps' seconds, on an axis that says its unit ("2 ms"), under their legend
            auto* before = qobject_cast<QCPBars*>(p->mttkrpPlot()->plottable(0));
            QCOMPARE(before->data()->at(0)->value, c->before.mttkrp_sweep_s.front().second);
            p->mttkrpPlot()->replot();
            bool unit = false;
            for (const QString& label : p->mttkrpPlot()->yAxis->tickVectorLabels())
                unit = unit || label.endsWith(QStringLiteral("s"));
            QVERIFY(unit);
            QCOMPARE(p->mttkrpPlot()->legend->layout(), static_cast<QCPLayout*>(p->mttkrpPlot()->plotLayout()));
        }
        // the loaded tensor is left as it was: the other tabs keep showing the file's order
        QVERIFY(tstest::as_map(w.dataset()->tensor) == before);

        // a second run, cancelled: the earlier comparison stays shown
        p->setMethod(tscope::ReorderMethod::Lexi);
        p->compare();
        p->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!p->isBusy(), 120000);
        QVERIFY(p->comparison());
        QVERIFY2(p->status()->text().contains(QStringLiteral("Cancelled")) || p->status()->text().contains(QStringLiteral("lexi")),
                 qPrintable(p->status()->text()));

        // another tensor opened while a comparison of the old one runs: whichever ends first,
        // the old tensor's comparison is not left shown over the new one
        p->setMethod(tscope::ReorderMethod::Degree);
        p->compare();
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        QTRY_VERIFY_WITH_TIMEOUT(!p->isBusy(), 120000);
        QVERIFY(!p->comparison());
        QCOMPARE(p->storageTable()->rowCount(), 0);
        QCOMPARE(p->beforeMap()->plottableCount(), 0);
        QVERIFY(tstest::plotHint(p->afterMap()).contains(QStringLiteral("press Compare")));
    }

    // Lexi-Order runs from the file order and from the degree sort: the view says which run it
    // kept, and that run's block count is the one the comparison counts on the relabelled tensor.
    // Sweep 64: an order-1 tensor has no two-mode maps: Compare is off with the reason, and a
    // run asked for anyway (--run) is a failure the window shows (the GUI's exit 2).
    void anOrderOneTensorHasNothingToCompare() {
        ReorderPanel p;
        auto data = std::make_shared<Dataset>();
        data->title = QStringLiteral("o1.tns");
        data->tensor = tstest::random_tensor({7}, 3, 1);
        p.setDataset(data);
        auto* run = p.findChild<QPushButton*>(QStringLiteral("reorderRun"));
        QVERIFY(run && !run->isEnabled());
        QVERIFY(run->toolTip().contains(QStringLiteral("one mode")));
        QSignalSpy failed(&p, &Panel::failed);
        p.runOwnWork();
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("one mode")));
    }

    // Sweep 65b: another tensor opened during a comparison stops it; its progress no longer
    // overwrites the new tensor's Ready (the old "lexi: MTTKRP… 100%" stayed for good), and
    // Compare waits for the old one to end, then works.
    void anotherTensorStopsTheComparison() {
        ReorderPanel p;
        const DatasetPtr first = tstest::namedDataset(QStringLiteral("first.tns"), {2000, 1500, 1000}, 400000, 5);
        const DatasetPtr second = tstest::namedDataset(QStringLiteral("second.tns"), {30, 20, 10}, 300, 6);
        p.setDataset(first);
        p.setMethod(tscope::ReorderMethod::Lexi);
        p.compare();
        QVERIFY(p.isBusy());
        p.setDataset(second);
        auto* run = p.findChild<QPushButton*>(QStringLiteral("reorderRun"));
        const QString ready = QStringLiteral("Ready: second.tns.");
        while (p.isBusy()) {
            QVERIFY2(p.status()->text().startsWith(ready), qPrintable(p.status()->text()));
            QVERIFY(!run->isEnabled());
            QTest::qWait(5);
        }
        QVERIFY2(p.status()->text().startsWith(ready), qPrintable(p.status()->text()));
        QVERIFY(run->isEnabled() && !p.comparison());
        p.setMethod(tscope::ReorderMethod::Random);
        p.compare();
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
        QVERIFY2(p.comparison(), qPrintable(p.status()->text()));
        QVERIFY(run->isEnabled());  // and again after a comparison that ended well (sweep 65c: it stayed off)
    }

    void lexiSaysWhichStartItKept() {
        QTemporaryDir dir;
        MainWindow w;
        ReorderPanel* p = reorderTabWithBlockTensor(w, dir);
        QVERIFY(p);
        p->setMethod(tscope::ReorderMethod::Lexi);
        p->compare();
        QTRY_VERIFY_WITH_TIMEOUT(!p->isBusy(), 120000);
        const tscope::ReorderComparison* c = p->comparison();
        QVERIFY2(c, qPrintable(p->status()->text()));
        const tscope::Relabelling& r = c->relabelling;
        QCOMPARE(*c->after.hicoo_blocks, r.from_degree ? r.blocks_from_degree : r.blocks_from_file);
        QCOMPARE(*c->after.hicoo_blocks, std::min(r.blocks_from_file, r.blocks_from_degree));
        const QString kept = r.from_degree ? QStringLiteral("kept the one from the degree sort")
                                           : QStringLiteral("kept the one from the file order");
        QVERIFY2(p->status()->text().contains(kept), qPrintable(p->status()->text()));
    }

    // At the 1280 x 800 the window opens at, the storage table shows every column without
    // scrolling sideways (it had: the units and the notes were out of sight), each note whole in
    // its tooltip.
    void storageTableFitsTheDefaultWidth() {
        QTemporaryDir dir;
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Reorder")) && tstest::openAndWait(w, tstest::blockTensor(dir)));
        auto* p = w.findChild<ReorderPanel*>();
        QVERIFY(p);
        p->setMethod(tscope::ReorderMethod::Random);
        p->compare();
        QTRY_VERIFY_WITH_TIMEOUT(!p->isBusy(), 120000);
        QVERIFY2(p->comparison(), qPrintable(p->status()->text()));
        auto* table = p->findChild<QTableWidget*>(QStringLiteral("reorderStorage"));
        QVERIFY(table && table->rowCount() > 0);
        QCOMPARE(w.width(), 1280);
        QTRY_COMPARE(table->horizontalScrollBar()->maximum(), 0);
        // each note whole on screen, wrapped in its column's width where it is long (sweep 74: cut,
        // HiCOO's "128³ blocks 4,049,428 → …" hid the count it is there to give)
        const QFontMetrics metrics = table->fontMetrics();
        for (int row = 0; row < table->rowCount(); ++row)
            if (QTableWidgetItem* note = table->item(row, 6)) {
                QCOMPARE(note->toolTip(), note->text());
                const QRect need =
                    metrics.boundingRect(QRect(0, 0, table->columnWidth(6) - 8, 10000), Qt::TextWordWrap, note->text());
                QVERIFY2(
                    table->rowHeight(row) >= need.height(),
                    qPrintable(
                        QStringLiteral("row %1: %2 px for %3").arg(row).arg(table->rowHeight(row)).arg(need.height())));
            }
        QVERIFY(table->wordWrap());
    }
};

QTEST_MAIN(TestReorderPanel)
#include "test_reorder_panel.moc"
