// The Decompositions tab: its runs model (QAbstractItemModelTester while rows stream in),
// a CPD run and a FasterTucker run on the JF17K sample overlaid with curves that hold every
// reported iteration, and cancel stopping a long run between iterations.
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <qcustomplot.h>

#include "models/DecompRunsModel.hpp"
#include "panels/DecompositionPanel.hpp"
#include "ui_test_support.hpp"

using namespace tsui;

class TestDecompositionPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { tstest::sandboxSettings("test_decomposition_panel"); }

    void modelStructure() {
        DecompRunsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        DecompRun run;
        run.label = QStringLiteral("a");
        const int a = model.addRun(run);
        tscope::IterationReport rep;
        rep.iter = 1, rep.seconds = 0.5, rep.fit = 0.25;
        model.addIteration(a, rep);
        rep.iter = 2, rep.fit = 0.5;
        model.addIteration(a, rep);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(1, DecompRunsModel::Fit), Qt::UserRole).toDouble(), 0.5);
        QCOMPARE(model.data(model.index(1, DecompRunsModel::TestRmse)).toString(), QStringLiteral("–"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void runsOverlayAndGrowLive() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        QAbstractItemModelTester tester(p->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        p->configure(tscope::DecompMethod::Cpd, 3, 6);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCOMPARE(p->model()->rowCount(), 6);
        QCOMPARE(p->fitPlot()->graphCount(), 1);
        QCOMPARE(p->fitPlot()->graph(0)->dataCount(), 6);
        const double fit = p->model()->data(p->model()->index(5, DecompRunsModel::Fit), Qt::UserRole).toDouble();
        QVERIFY(fit > 0 && fit <= 1);

        p->configure(tscope::DecompMethod::FasterTucker, 4, 3);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCOMPARE(p->model()->runs().size(), std::size_t{2});
        QCOMPARE(p->fitPlot()->graphCount(), 1);    // the CPD run stays
        QCOMPARE(p->errorPlot()->graphCount(), 2);  // train and test
        QCOMPARE(p->errorPlot()->graph(0)->dataCount(), 3);

        // the ordered schedule: offered for FasterTucker only, and named in the run's label
        auto* ordered = p->findChild<QCheckBox*>(QStringLiteral("decompOrdered"));
        QVERIFY(ordered && ordered->isVisible());
        ordered->setChecked(true);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCOMPARE(p->model()->runs().size(), std::size_t{3});
        QVERIFY(p->model()->runs().back().label.endsWith(QStringLiteral(" ordered")));
        QCOMPARE(p->errorPlot()->graph(2)->dataCount(), 3);
        p->configure(tscope::DecompMethod::Cpd, 3, 2);
        QVERIFY(!ordered->isVisible());
    }

    void cancelStopsBetweenIterations() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        p->configure(tscope::DecompMethod::Cpd, 4, 10000);
        connect(p->model(), &QAbstractItemModel::rowsInserted, p, [p] { p->cancel(); });
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCOMPARE(p->model()->runs().front().outcome, QStringLiteral("cancelled"));
        QVERIFY(p->model()->rowCount() < 10000);
    }
};

QTEST_MAIN(TestDecompositionPanel)
#include "test_decomposition_panel.moc"
