// The Kernels tab: its results model (QAbstractItemModelTester), a background MTTKRP run on
// the JF17K sample with every row checked against cpu-ref, the chart, and CUDA greyed out
// with its reason where there is no device.
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <qcustomplot.h>

#include "models/KernelResultsModel.hpp"
#include "panels/KernelsPanel.hpp"
#include "tscope/cuda/device.hpp"
#include "ui_test_support.hpp"
#include "views/TableExport.hpp"

using namespace tsui;

class TestKernelsPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { tstest::sandboxSettings("test_kernels_panel"); }

    void modelStructure() {
        KernelResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        tscope::BenchRequest request;
        request.formats = {tscope::FormatKind::COO};
        request.rank = 4, request.repeat = 1, request.check = true;
        const tscope::CooTensor t = tstest::random_tensor({20, 15, 10}, 300, 3);
        model.setResults(tscope::run_bench(t, request));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.data(model.index(0, KernelResultsModel::Format)).toString(), QStringLiteral("COO"));
        QVERIFY(model.data(model.index(0, KernelResultsModel::Median), Qt::UserRole).toDouble() > 0);
        QVERIFY(model.data(model.index(0, KernelResultsModel::Error), Qt::UserRole).toDouble() < 1e-8);
        QVERIFY(toCsv(model).startsWith(QStringLiteral("kernel,format,backend")));
        model.setResults({});
        QCOMPARE(model.rowCount(), 0);
    }

    void runsInTheBackgroundAndFillsTableAndChart() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Kernels")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        KernelsPanel* p = w.kernels();
        p->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF")}, 4, 1);
        p->run();
        QVERIFY(p->isBusy() || p->model()->rowCount() > 0);
        QVERIFY(tstest::waitIdle(w));
        KernelResultsModel* m = p->model();
        QCOMPARE(m->rowCount(), 2 * 4);  // two formats x four modes, omp
        for (int r = 0; r < m->rowCount(); ++r) {
            QCOMPARE(m->data(m->index(r, KernelResultsModel::Backend)).toString(), QStringLiteral("omp"));
            QVERIFY(m->data(m->index(r, KernelResultsModel::Error), Qt::UserRole).toDouble() < 1e-8);
        }
        QCOMPARE(p->chart()->plottableCount(), 1);  // one backend: one bar series
        QCOMPARE(qobject_cast<QCPBars*>(p->chart()->plottable(0))->dataCount(), 2);
        if (!tscope::query_gpu().available) {
            QVERIFY(!p->backendBox(tscope::Backend::Cuda)->isEnabled());
            QVERIFY(p->backendBox(tscope::Backend::Cuda)->toolTip().contains(QStringLiteral("no CUDA device")));
        }
    }
};

QTEST_MAIN(TestKernelsPanel)
#include "test_kernels_panel.moc"
