// The Formats tab: its model (QAbstractItemModelTester), and the survey it shows for a real
// tensor, built in the background.
#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <map>

#include "models/FormatTableModel.hpp"
#include "panels/FormatsPanel.hpp"
#include "test_support.hpp"
#include "views/MainWindow.hpp"
#include "views/TableExport.hpp"

using namespace tsui;

class TestFormatsPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("TensorscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_formats_panel"));
    }

    void modelStructure() {
        FormatTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const tscope::CooTensor t = tstest::random_tensor({30, 20, 10}, 500, 2);
        auto rows = std::make_shared<std::vector<tscope::FormatRow>>(tscope::survey_formats(t, {}));
        model.setSurvey(rows, t.bytes());
        QCOMPARE(model.rowCount(), int(rows->size()));
        QCOMPARE(model.data(model.index(0, FormatTableModel::Format)).toString(), QStringLiteral("COO"));
        QCOMPARE(model.data(model.index(0, FormatTableModel::Bytes), Qt::UserRole).toULongLong(), t.bytes());
        QCOMPARE(model.data(model.index(0, FormatTableModel::VsCoo), Qt::UserRole).toDouble(), 1.0);
        model.setSurvey(nullptr, 0);
        QCOMPARE(model.rowCount(), 0);
    }

    void windowBuildsEveryFormatInTheBackground() {
        MainWindow w;
        w.show();
        QSignalSpy idle(&w, &MainWindow::idle);
        w.openFile(QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"));
        QVERIFY(idle.wait(120000));
        QVERIFY(!w.isBusy());
        // the survey waits until someone looks at the tab
        QCOMPARE(w.formats()->model()->rowCount(), 0);
        QVERIFY(w.showTab(QStringLiteral("Formats")));
        QVERIFY(w.formats()->isBusy());
        QVERIFY(idle.wait(120000));
        FormatTableModel* model = w.formats()->model();
        // order 4: 8 per-mode formats x 4 modes, plus MM-CSF, HiCOO, HLS, ALTO and BLCO once each
        QCOMPARE(model->rowCount(), 8 * 4 + 5);
        int built = 0, hls_refused = 0;
        std::map<int, qulonglong> least;  // the fewest bytes built per mode (0: the rows for all modes)
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->data(model->index(r, FormatTableModel::Status)).toString().startsWith(QStringLiteral("built"))) {
                const int mode = model->data(model->index(r, FormatTableModel::Mode), Qt::UserRole).toInt();
                const qulonglong bytes =
                    model->data(model->index(r, FormatTableModel::Bytes), Qt::UserRole).toULongLong();
                least[mode] = least.count(mode) ? std::min(least[mode], bytes) : bytes;
            }
        for (int r = 0; r < model->rowCount(); ++r) {
            const QString status = model->data(model->index(r, FormatTableModel::Status)).toString();
            built += status.startsWith(QStringLiteral("built"));
            // the smallest of its mode said as the CLI stars it (sweep 70c C3)
            const int mode = model->data(model->index(r, FormatTableModel::Mode), Qt::UserRole).toInt();
            const qulonglong bytes = model->data(model->index(r, FormatTableModel::Bytes), Qt::UserRole).toULongLong();
            if (mode > 0 && status.startsWith(QStringLiteral("built")))
                QCOMPARE(status == QStringLiteral("built; smallest"), bytes == least[mode]);
            if (model->data(model->index(r, FormatTableModel::Format)).toString() == QStringLiteral("HLS"))
                hls_refused += status.contains(QStringLiteral("third-order"));
        }
        QVERIFY(built >= 20);
        QCOMPARE(hls_refused, 1);  // JF17K is 4-order: HLS says why it is not built
        {  // a row is at most four lines tall, a long reason whole in its tooltip (HOCSR's took twelve, sweep 73b)
            auto* table = w.formats()->findChild<QTableView*>(QStringLiteral("formatsTable"));
            QVERIFY(table);
            table->resizeRowsToContents();
            const int most = 4 * table->fontMetrics().lineSpacing() + 8;
            for (int r = 0; r < table->model()->rowCount(); ++r) QVERIFY(table->rowHeight(r) <= most);
            bool whole = false;
            for (int r = 0; r < model->rowCount(); ++r)
                whole = whole || model->data(model->index(r, FormatTableModel::Status), Qt::ToolTipRole)
                                     .toString()
                                     .contains(QStringLiteral("row pointers, one per index tuple"));
            QVERIFY(whole);
        }
        QVERIFY(w.formats()->plot()->plottableCount() >= 4);  // one bar series per mode (+ "all modes")
        // the per-array breakdown of a selected row adds up to its bytes
        w.formats()->selectRow(0);
        QTableWidget* arrays = w.formats()->arrayTable();
        QVERIFY(arrays->rowCount() > 0);
        const QString firstFormat = model->data(model->index(0, FormatTableModel::Format)).toString();
        QVERIFY(firstFormat == QStringLiteral("COO"));
        QCOMPARE(arrays->rowCount(), 5);  // COO of an order-4 tensor: four index arrays and the values
        const QString csv = toCsv(*model);
        QVERIFY(csv.startsWith(QStringLiteral("Format,Mode,Storage units,Bytes")));
        QCOMPARE(csv.count(QLatin1Char('\n')), model->rowCount() + 1);
        // every-mode formats' mode is "all", as on screen (a script read mode 0, sweep 72b F13)
        QVERIFY2(csv.contains(QStringLiteral("\nMM-CSF,all,")), qPrintable(csv.left(2000)));
    }
};

QTEST_MAIN(TestFormatsPanel)
#include "test_formats_panel.moc"
