// The Teaching tab: on the bundled 4x5x4 example of hocfs Sec. 5, every format's arrays are
// shown, clicking a nonzero highlights exactly the cells the engine says locate it (in every
// format), the selection survives a format change, and big tensors are turned away politely.
#include <QComboBox>
#include <QLabel>
#include <QScrollArea>
#include <QTableWidget>
#include <QTemporaryDir>

#include "panels/TeachingPanel.hpp"
#include "ui_test_support.hpp"
#include "views/TableExport.hpp"

using namespace tsui;

class TestTeachingPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { tstest::sandboxSettings("test_teaching_panel"); }

    void highlightsEveryCellOfANonzero() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Teaching")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns")));
        TeachingPanel* p = w.teaching();
        for (const char* f : {"COO", "HOCSR", "CFB", "HOCFS-CSR", "HOCFS-ELL", "CSF", "B-CSF", "MM-CSF", "HiCOO", "ALTO"}) {
            p->selectFormat(QString::fromLatin1(f), 1);
            QVERIFY2(p->anatomy(), f);
            QCOMPARE(p->arraysTable()->rowCount(), int(p->anatomy()->arrays.size()));
            // X(3, 3, 1) = 5 (1-based): the paper's slice 3, row 3
            QVERIFY(p->selectNonzero({2, 2, 0}));
            const auto* a = p->anatomy();
            const auto it = std::find_if(a->entries.begin(), a->entries.end(),
                                         [](const tscope::AnatomyEntry& e) { return e.coord == std::vector<std::uint64_t>{2, 2, 0}; });
            QVERIFY(it != a->entries.end());
            QCOMPARE(it->value, 5.0);
            std::vector<std::pair<int, int>> expected;
            for (const auto& [arr, pos] : it->cells) expected.emplace_back(int(arr), int(pos));
            std::sort(expected.begin(), expected.end());
            expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
            auto shown = p->highlightedCells();
            std::sort(shown.begin(), shown.end());
            QVERIFY2(shown == expected, f);
            QVERIFY(p->statusText().contains(QStringLiteral("X(3, 3, 1) = 5")));
        }
        // ALTO, the last shown: its bit layout row names each bit's origin; README's screenshot
        // is this window (TS_SCREENSHOT_DIR set)
        QCOMPARE(QString::fromStdString(p->anatomy()->format), QStringLiteral("ALTO"));
        QCOMPARE(p->arraysTable()->item(0, 0)->text(), QStringLiteral("b0: i0"));
        if (qEnvironmentVariableIsSet("TS_SCREENSHOT_DIR")) {
            w.resize(1400, 800);
            QTest::qWait(200);
            QVERIFY(w.grab().save(qEnvironmentVariable("TS_SCREENSHOT_DIR") + QStringLiteral("/teaching-alto.png")));
        }
        QVERIFY(!p->selectNonzero({1, 0, 0}));  // slice 2 is empty
        // the arrays export with their names as the first column
        const QString csv = toCsv(*p->arraysTable()->model(), true);
        QVERIFY(csv.startsWith(QStringLiteral(",0,1,2")));
        QCOMPARE(csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), p->arraysTable()->rowCount() + 1);
    }

    // The keyboard drives the highlight as clicks do (sweep 74a F11: arrows moved a cursor that
    // changed nothing), and highlighted cells have dark text, so that a dark palette's white
    // text does not sit on the light yellow (F8).
    void keyboardAndDarkPalette() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.showTab(QStringLiteral("Teaching")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns")));
        TeachingPanel* p = w.teaching();
        p->selectFormat(QStringLiteral("COO"), 1);
        QTableWidget* arrays = p->arraysTable();
        arrays->setFocus();
        QTRY_VERIFY(arrays->hasFocus());
        arrays->setCurrentCell(0, 3);  // as an arrow key moves it
        QVERIFY2(p->statusText().contains(QStringLiteral("[3] locates")), qPrintable(p->statusText()));
        QCOMPARE(arrays->item(0, 3)->foreground().color(), QColor(Qt::black));
        QCOMPARE(arrays->item(0, 0)->foreground().style(), Qt::NoBrush);  // not highlighted: the palette's
        // a slice's grid: the nonzero under the keyboard's cursor is the one shown
        QTableWidget* slice = nullptr;
        for (QTableWidget* t : p->findChildren<QTableWidget*>())
            if (t != arrays && t->isVisible()) slice = t;
        QVERIFY(slice);
        slice->setFocus();
        QTRY_VERIFY(slice->hasFocus());
        for (int r = 0; r < slice->rowCount(); ++r)
            for (int c = 0; c < slice->columnCount(); ++c)
                if (QTableWidgetItem* item = slice->item(r, c);
                    item && item->data(Qt::UserRole).isValid() && item->data(Qt::UserRole).toInt() > 0) {
                    QVERIFY(!arrays->selectedItems().isEmpty());  // the arrays' current cell, selected
                    slice->setCurrentCell(r, c);
                    QVERIFY2(p->statusText().contains(QStringLiteral("occupies")), qPrintable(p->statusText()));
                    QCOMPARE(item->foreground().color(), QColor(Qt::black));
                    // and no longer: it read as one more highlighted cell (sweep 74c N5)
                    QVERIFY(arrays->selectedItems().isEmpty());
                    return;
                }
        QFAIL("no nonzero in the slice grid");
    }

    // Every array cell fits its column on one line: at the default 34 px, values such as 0.507
    // broke over two ("0." above "507").
    void arrayCellsFitTheirColumns() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("d1.tns"));
        QVERIFY(tstest::write_file(path, "1 1 1 0.3\n1 1 2 0.507\n2 1 3 0.892\n3 1 7 12345.125\n5 1 5 -0.000125\n"));
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Teaching")));
        QVERIFY(tstest::openAndWait(w, path));
        TeachingPanel* p = w.teaching();
        for (const char* f : {"COO", "HOCFS-CSR", "CSF"}) {
            p->selectFormat(QString::fromLatin1(f), 1);
            QTableWidget* t = p->arraysTable();
            for (int r = 0; r < t->rowCount(); ++r)
                for (int c = 0; c < t->columnCount(); ++c)
                    if (const QTableWidgetItem* item = t->item(r, c))
                        QVERIFY2(t->fontMetrics().horizontalAdvance(item->text()) < t->columnWidth(c),
                                 qPrintable(QStringLiteral("%1: '%2' in %3 px").arg(QLatin1String(f), item->text()).arg(t->columnWidth(c))));
        }
        // the list's heading is read whole in the narrow pane: "(indices 1-based)" had been cut off (sweep 72b)
        const QString tall = dir.filePath(QStringLiteral("tall.tns"));  // a list, not slice grids: over 64 slices
        QVERIFY(tstest::write_file(tall, "1 1 1 0.5\n70 2 2 0.25\n"));
        w.resize(1280, 800);  // the default window, whose list pane is narrow
        QVERIFY(tstest::openAndWait(w, tall));
        p->selectFormat(QStringLiteral("HOCFS-CSR"), 1);
        QTest::qWait(50);  // laid out, the old format's widgets gone
        QLabel* heading = nullptr;
        for (QLabel* l : p->findChildren<QLabel*>())
            if (l->text().contains(QStringLiteral("indices 1-based")) && l->isVisible()) heading = l;
        QVERIFY(heading);
        const QRect needed = heading->fontMetrics().boundingRect(QRect(0, 0, heading->contentsRect().width(), 10000),
                                                                 Qt::TextWordWrap, heading->text());
        QVERIFY2(
            needed.height() <= heading->contentsRect().height() && needed.width() <= heading->contentsRect().width(),
            qPrintable(QStringLiteral("%1x%2 px needed in %3x%4")
                           .arg(needed.width())
                           .arg(needed.height())
                           .arg(heading->contentsRect().width())
                           .arg(heading->contentsRect().height())));
        QScrollArea* pane = nullptr;  // and within what the pane shows
        for (QWidget* up = heading->parentWidget(); up && !pane; up = up->parentWidget())
            pane = qobject_cast<QScrollArea*>(up);
        QVERIFY(pane);
        const int right = heading->mapTo(pane->viewport(), QPoint(heading->width(), 0)).x();
        QVERIFY2(
            right <= pane->viewport()->width(),
            qPrintable(
                QStringLiteral("heading ends at %1 px, the pane shows %2").arg(right).arg(pane->viewport()->width())));
    }

    void bigTensorsAreTurnedAway() {
        MainWindow w;
        w.show();
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        QVERIFY(!w.teaching()->anatomy());
        // the reason stands where the arrays would be, not blank panes
        QVERIFY2(w.teaching()->whyText().contains(QStringLiteral("small tensors")), qPrintable(w.teaching()->whyText()));
        QVERIFY(w.teaching()->whyText().contains(QStringLiteral("34,544")));
        // nothing to choose: the format and mode choices are off, and on again for a small tensor
        QVERIFY(!w.teaching()->findChild<QComboBox*>(QStringLiteral("teachFormat"))->isEnabled());
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns")));
        QVERIFY(w.teaching()->anatomy());
        QVERIFY(w.teaching()->findChild<QComboBox*>(QStringLiteral("teachFormat"))->isEnabled());
    }
};

QTEST_MAIN(TestTeachingPanel)
#include "test_teaching_panel.moc"
