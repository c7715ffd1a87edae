// The Decompositions tab: its runs model (QAbstractItemModelTester while rows stream in),
// a CPD run and a FasterTucker run on the JF17K sample overlaid with curves that hold every
// reported iteration, and cancel stopping a long run between iterations; the split of each CPD
// run's time (setup once, mean iteration) as stacked bars that fill live. The GPUs box: hidden
// with one GPU, shown with a faked two, its count reaching CPD's options on the cuda backend.
#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>

#include "models/DecompRunsModel.hpp"
#include "panels/DecompositionPanel.hpp"
#include "ui_test_support.hpp"
#include "views/TableExport.hpp"

using namespace tsui;

namespace {


QCPBars* barsNamed(QCustomPlot* plot, const QString& name) {
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot->plottable(i)); b && b->name() == name) return b;
    return nullptr;
}

// The value of the bar at `key` (0 when it has none there).
double valueAt(const QCPBars* bars, double key) {
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        if (it->key == key) return it->value;
    return 0;
}

// The stack `part` belongs to, from its top down through barBelow(): its parts' count and the
// stack's length at `key`, what the drawn stack reaches.
std::pair<int, double> stackAt(QCPBars* part, double key) {
    while (part->barAbove()) part = part->barAbove();
    int parts = 0;
    double total = 0;
    for (QCPBars* b = part; b; b = b->barBelow()) ++parts, total += valueAt(b, key);
    return {parts, total};
}

double mean(const std::vector<tscope::IterationReport>& its, double tscope::IterationReport::*part) {
    double sum = 0;
    for (const auto& it : its) sum += it.*part;
    return its.empty() ? 0 : sum / static_cast<double>(its.size());
}

}  // namespace

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
        // the seconds column counts from the start, setup included, and says so
        QCOMPARE(model.headerData(DecompRunsModel::Seconds, Qt::Horizontal).toString(), QStringLiteral("elapsed"));
        QCOMPARE(model.headerData(DecompRunsModel::Seconds, Qt::Horizontal, kExportRole).toString(),
                 QStringLiteral("elapsed s"));
        QVERIFY(model.headerData(DecompRunsModel::Seconds, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains("setup included"));
        QVERIFY(model.headerData(DecompRunsModel::Fit, Qt::Horizontal, Qt::ToolTipRole).isNull());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    // Issue 20: CPD's start (random or nvecs) and restarts reach the options; every start's
    // curve is drawn, the kept one named.
    void restartsDrawEveryStart() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        p->configure(tscope::DecompMethod::Cpd, 3, 4);
        auto* init = p->findChild<QComboBox*>(QStringLiteral("decompCpdInit"));
        auto* restarts = p->findChild<QSpinBox*>(QStringLiteral("decompRestarts"));
        QVERIFY(init && restarts && init->isVisible() && restarts->isVisible());
        init->setCurrentIndex(init->findData(static_cast<int>(tscope::CpdInit::Nvecs)));
        restarts->setValue(3);
        const tscope::CpdOptions o = p->cpdOptions();
        QCOMPARE(o.init, tscope::CpdInit::Nvecs);
        QCOMPARE(o.restarts, 3);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCOMPARE(p->fitPlot()->graphCount(), 3);
        int kept = 0;
        for (int g = 0; g < 3; ++g) {
            QVERIFY(p->fitPlot()->graph(g)->dataCount() >= 1);
            kept += p->fitPlot()->graph(g)->name().contains(QStringLiteral("(kept)"));
        }
        QCOMPARE(kept, 1);
        p->configure(tscope::DecompMethod::Tucker, 3, 2);
        QVERIFY(!init->isVisible() && !restarts->isVisible());
    }

    // Issue 22: a run the iteration cap stopped says so, apart from one that converged.
    void theIterationLimitIsToldApartFromConvergence() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        p->configure(tscope::DecompMethod::Cpd, 3, 2);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        auto* status = p->findChild<QLabel*>(QStringLiteral("decompStatus"));
        QVERIFY2(status->text().contains(QStringLiteral("stopped at the iteration limit")), qPrintable(status->text()));
        QVERIFY(!status->text().contains(QStringLiteral("converged")));
    }

    // A CPD fit this low comes with what to try (sweep 66b A11); a good one, and a Tucker run's,
    // without.
    void aLowCpdFitSaysWhatToTry() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        auto* status = p->findChild<QLabel*>(QStringLiteral("decompStatus"));
        p->configure(tscope::DecompMethod::Cpd, 3, 2);  // fit 0.009
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QVERIFY2(status->text().contains(QStringLiteral("A fit of 0.009 is low")), qPrintable(status->text()));
        QVERIFY(status->text().contains(QStringLiteral("nvecs")));
        p->configure(tscope::DecompMethod::Tucker, 3, 2);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QVERIFY2(!status->text().contains(QStringLiteral("is low")), qPrintable(status->text()));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns")));
        p->configure(tscope::DecompMethod::Cpd, 4, 50);  // fit 0.60
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QVERIFY2(status->text().contains(QStringLiteral("CPD")) && !status->text().contains(QStringLiteral("is low")),
                 qPrintable(status->text()));
    }

    // decompose's default ranks (CPD and FasterTucker 16, Tucker 8), a rank the user set kept
    // across a method change; the train/test error's controls and columns only where a
    // FasterTucker run is shown (sweep 66b M3, A10).
    void defaultsFollowDecomposeAndOnlyApplicableControlsShow() {
        DecompositionPanel p;
        p.show();
        auto* method = p.findChild<QComboBox*>(QStringLiteral("decompMethod"));
        auto* rank = p.findChild<QSpinBox*>(QStringLiteral("decompRank"));
        auto* metric = p.findChild<QComboBox*>(QStringLiteral("decompErrorMetric"));
        auto* table = p.findChild<QTableView*>(QStringLiteral("decompTable"));
        QVERIFY(method && rank && metric && table);
        QCOMPARE(rank->value(), 16);
        QVERIFY(!metric->isVisible());
        QVERIFY(table->isColumnHidden(DecompRunsModel::TrainRmse) && table->isColumnHidden(DecompRunsModel::TestMae));
        QVERIFY(!table->isColumnHidden(DecompRunsModel::Fit));
        method->setCurrentIndex(method->findData(static_cast<int>(tscope::DecompMethod::Tucker)));
        QCOMPARE(rank->value(), 8);
        method->setCurrentIndex(method->findData(static_cast<int>(tscope::DecompMethod::FasterTucker)));
        QCOMPARE(rank->value(), 16);
        QVERIFY(metric->isVisible());
        QVERIFY(!table->isColumnHidden(DecompRunsModel::TestRmse));
        QVERIFY(table->isColumnHidden(DecompRunsModel::Fit));
        rank->setValue(5);
        method->setCurrentIndex(method->findData(static_cast<int>(tscope::DecompMethod::Tucker)));
        QCOMPARE(rank->value(), 5);
    }

    void runsOverlayAndGrowLive() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        QAbstractItemModelTester tester(p->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(tstest::plotHint(p->fitPlot()).contains(QStringLiteral("press Run")));  // issue 20: a hint, no stray legend
        QVERIFY(!p->fitPlot()->legend->visible());
        p->configure(tscope::DecompMethod::Cpd, 3, 6);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QVERIFY(tstest::plotHint(p->fitPlot()).isEmpty());
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
        QCOMPARE(p->errorPlot()->graphCount(), 3);  // train, test, and the mean predictor's line
        QCOMPARE(p->errorPlot()->graph(0)->dataCount(), 3);
        // JF17K's values are all 1: predicting the mean scores 0, which no model gets under (sweep
        // 70c C13: the line and the sentence were the CLI's alone)
        QCOMPARE(p->model()->runs().back().baselineTestRmse, 0.0);
        QCOMPARE(p->errorPlot()->graph(2)->data()->at(0)->value, 0.0);
        const QString said = p->findChild<QLabel*>(QStringLiteral("decompStatus"))->text();
        QVERIFY2(said.contains(QStringLiteral("Always predicting the training mean scores a test RMSE of 0")) &&
                     said.contains(QStringLiteral("not below it")),
                 qPrintable(said));

        // the ordered schedule: offered for FasterTucker only, and named in the run's label
        auto* ordered = p->findChild<QCheckBox*>(QStringLiteral("decompOrdered"));
        QVERIFY(ordered && ordered->isVisible());
        ordered->setChecked(true);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCOMPARE(p->model()->runs().size(), std::size_t{3});
        QVERIFY(p->model()->runs().back().label.endsWith(QStringLiteral(" ordered")));
        QCOMPARE(p->errorPlot()->graph(3)->dataCount(), 3);
        p->configure(tscope::DecompMethod::Cpd, 3, 2);
        QVERIFY(!ordered->isVisible());
    }

    // Sweep 65b: a run stopped by another tensor's open says so, then Ready for the new one (it
    // read "#1 ...: cancelled" under the new tensor), and runs on the old tensor take its name
    // into their labels, so that runs on two tensors overlaid never read alike.
    void anotherTensorsOpenIsSaidAndNamed() {
        DecompositionPanel p;
        const DatasetPtr first = tstest::namedDataset(QStringLiteral("first.tns"), {300, 300, 300}, 200000, 3);
        const DatasetPtr second = tstest::namedDataset(QStringLiteral("second.tns"), {20, 20, 20}, 300, 4);
        p.setDataset(first);
        p.configure(tscope::DecompMethod::FasterTucker, 16, 5000);
        p.run();
        QTRY_VERIFY_WITH_TIMEOUT(!p.model()->runs().front().iterations.empty(), 60000);
        p.setDataset(second);
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
        auto* status = p.findChild<QLabel*>(QStringLiteral("decompStatus"));
        QVERIFY2(status->text().contains(QStringLiteral("stopped after")) &&
                     status->text().contains(QStringLiteral("another tensor was opened. Ready: second.tns.")),
                 qPrintable(status->text()));
        QVERIFY(p.model()->runs().front().label.endsWith(QStringLiteral(" · first.tns")));
        QVERIFY(p.model()->runs().front().iterations.size() < 5000);
        p.configure(tscope::DecompMethod::Cpd, 2, 2);
        p.run();
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
        QVERIFY(!p.model()->runs().back().label.contains(QStringLiteral("·")));  // the open tensor's own
    }

    void gpusBoxReachesCpdOptions() {
        DecompositionPanel p;
        auto* gpus = p.findChild<QSpinBox*>(QStringLiteral("decompGpus"));
        auto* backend = p.findChild<QComboBox*>(QStringLiteral("decompBackend"));
        QVERIFY(gpus && backend);
        p.setGpuCount(1);
        QVERIFY(!gpus->isVisibleTo(&p));
        QCOMPARE(p.cpdOptions().gpus, 1);
        p.setGpuCount(2);
        QVERIFY(gpus->isVisibleTo(&p));
        QCOMPARE(gpus->maximum(), 2);
        p.configure(tscope::DecompMethod::Cpd, 3, 2);
        QVERIFY(!gpus->isEnabled());  // omp: the box does not apply
        gpus->setValue(2);
        QCOMPARE(p.cpdOptions().gpus, 1);
        backend->setCurrentIndex(backend->findData(static_cast<int>(tscope::Backend::Cuda)));
        QVERIFY(gpus->isEnabled());
        const tscope::CpdOptions o = p.cpdOptions();
        QCOMPARE(o.gpus, 2);
        QCOMPARE(o.backend, tscope::Backend::Cuda);
        QCOMPARE(o.rank, std::uint64_t{3});
        QCOMPARE(o.max_iters, 2);
        p.configure(tscope::DecompMethod::Tucker, 3, 2);
        QVERIFY(!gpus->isEnabled());  // CPD only
        p.setGpuCount(0);
        QVERIFY(!gpus->isVisibleTo(&p));
        QCOMPARE(backend->currentIndex(), 0);  // cuda not choosable: back on omp
    }

    void splitHintBeforeAnyCpdRun() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        QVERIFY(p->splitHint()->isVisible());
        QVERIFY(p->splitHint()->text().startsWith(QStringLiteral("Run CPD to see where its iterations go")));
        QVERIFY(!p->splitPlot()->isVisible());
        QCOMPARE(p->splitPlot()->objectName(), QStringLiteral("decompSplitPlot"));
        // a Tucker run has no split: the hint stays
        p->configure(tscope::DecompMethod::Tucker, 3, 2);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCOMPARE(p->model()->runs().size(), std::size_t{1});
        QVERIFY(p->splitHint()->isVisible());
        QVERIFY(!p->splitPlot()->isVisible());
        // and says the chart is CPD's, where "Run CPD to see..." read as if no run were there
        QVERIFY2(p->splitHint()->text().contains(QStringLiteral("the runs here are Tucker or FasterTucker")),
                 qPrintable(p->splitHint()->text()));
    }

    void splitBarsPerCpdRun() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        QCustomPlot* plot = p->splitPlot();
        QCPBars* read = barsNamed(plot, QStringLiteral("read (load)"));
        QCPBars* build = barsNamed(plot, QStringLiteral("build formats"));
        QCPBars* upload = barsNamed(plot, QStringLiteral("upload to GPU"));
        QCPBars* mttkrp = barsNamed(plot, QStringLiteral("MTTKRP"));
        QCPBars* dense = barsNamed(plot, QStringLiteral("dense steps"));
        QCPBars* fit = barsNamed(plot, QStringLiteral("fit"));
        QCPBars* rest = barsNamed(plot, QStringLiteral("rest"));
        QVERIFY(read && build && upload && mttkrp && dense && fit && rest);
        // the legend sits outside the data: in the plot's layout, not in an axis rect's inset
        QCOMPARE(plot->legend->layout(), static_cast<QCPLayout*>(plot->plotLayout()));
        QCOMPARE(plot->legend->itemCount(), 7);

        // live: while iterations arrive, the iteration parts grow and the setup waits for the end
        double liveMttkrp = -1, liveBuild = -1;
        const auto live = connect(p->model(), &QAbstractItemModel::rowsInserted, p, [&] {
            if (p->model()->rowCount() == 3 && p->isBusy()) {  // the plot holds the first two iterations
                liveMttkrp = valueAt(mttkrp, 1);
                liveBuild = valueAt(build, 1);
            }
        });
        p->configure(tscope::DecompMethod::Cpd, 3, 6);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        disconnect(live);
        QVERIFY(liveMttkrp > 0);
        QCOMPARE(liveBuild, 0.0);
        QVERIFY(!p->splitHint()->isVisible());
        QVERIFY(plot->isVisible());

        const DecompRun& run = p->model()->runs().front();
        QVERIFY(run.setup.has_value());
        for (QCPBars* b : {read, build, upload, mttkrp, dense, fit, rest}) QCOMPARE(b->dataCount(), 1);
        QVERIFY(valueAt(mttkrp, 1) > 0);
        QVERIFY(valueAt(build, 1) > 0);
        QCOMPARE(valueAt(build, 1), run.setup->buildSeconds);
        QCOMPARE(valueAt(upload, 1), 0.0);  // omp uploads nothing
        QCOMPARE(valueAt(read, 1), 0.0);    // the window's load came before the run, not in it
        QCOMPARE(valueAt(mttkrp, 1), mean(run.iterations, &tscope::IterationReport::mttkrp_seconds));
        // each stack is chained through moveAbove, and its length is its parts' sum
        const auto [setupParts, setupTotal] = stackAt(read, 1);
        QCOMPARE(setupParts, 3);
        QVERIFY(qFuzzyCompare(setupTotal, run.setup->readSeconds + run.setup->buildSeconds + run.setup->uploadSeconds));
        const auto [iterParts, iterTotal] = stackAt(mttkrp, 1);
        QCOMPARE(iterParts, 4);
        QVERIFY(qFuzzyCompare(iterTotal, valueAt(mttkrp, 1) + valueAt(dense, 1) + valueAt(fit, 1) + valueAt(rest, 1)));
        // ... and the whole mean iteration: the parts plus the unattributed rest
        QVERIFY(qFuzzyCompare(iterTotal, mean(run.iterations, &tscope::IterationReport::iter_seconds)));
        QVERIFY(valueAt(rest, 1) < 0.5 * iterTotal);  // the measured parts are most of it
        auto* status = p->findChild<QLabel*>(QStringLiteral("decompStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QStringLiteral("Peak memory")), qPrintable(status->text()));
        QVERIFY(status->text().contains(QStringLiteral("on the host")));

        // a Tucker run adds no bar; a second CPD run adds one
        p->configure(tscope::DecompMethod::Tucker, 3, 2);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        for (QCPBars* b : {read, build, mttkrp, rest}) QCOMPARE(b->dataCount(), 1);
        p->configure(tscope::DecompMethod::Cpd, 2, 3);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCOMPARE(p->model()->runs().size(), std::size_t{3});
        for (QCPBars* b : {read, build, upload, mttkrp, dense, fit, rest}) QCOMPARE(b->dataCount(), 2);
        QVERIFY(valueAt(mttkrp, 2) > 0 && valueAt(build, 2) > 0);
        const auto ticks =
            qSharedPointerDynamicCast<QCPAxisTickerText>(plot->axisRect()->axis(QCPAxis::atLeft)->ticker());
        QVERIFY(ticks);
        QCOMPARE(ticks->ticks().size(), 2);
        QVERIFY(ticks->ticks().value(2).startsWith(QStringLiteral("run 3 · CSF · omp · r2")));
    }

    // A cluster run's JSON (mpirun -np 4 tensorscope-cli decompose jf17k-4d.tsb --distributed
    // --json, recorded) opens as a run: its curve holds every iteration, and the rank chart shows
    // each rank's nonzeros and rows exchanged as the file gives them.
    void opensADistributedRun() {
        DecompositionPanel panel;
        panel.resize(1200, 900);
        panel.show();
        QVERIFY(!panel.rankPlot()->isVisible());
        const QString path = QStringLiteral(TS_TEST_DATA_DIR "/runs/jf17k-cpd-4-ranks.json");
        QString error;
        QVERIFY2(panel.openRunFile(path, &error), qPrintable(error));
        QCOMPARE(panel.model()->runs().size(), std::size_t(1));
        const DecompRun& r = panel.model()->runs().front();
        QCOMPARE(r.iterations.size(), std::size_t(15));
        QVERIFY2(r.label.contains(QStringLiteral("4 ranks 1x2x2x1")), qPrintable(r.label));
        // the method as a run made here names it (it read "CPD" beside a live "CPD-ALS", sweep 72b)
        QVERIFY2(r.label.startsWith(QStringLiteral("#1 CPD-ALS r")), qPrintable(r.label));
        // the legend sits above the curves, not over them (sweep 72b F8), and the split rows name
        // the run's tensor where it is not the one open
        QVERIFY(panel.fitPlot()->legend->layout() == panel.fitPlot()->plotLayout());
        const auto splitRow = [&panel] {
            const auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(
                panel.splitPlot()->axisRect()->axis(QCPAxis::atLeft)->ticker());
            return ticks ? ticks->ticks().value(1) : QString();
        };
        const QString tensor = r.tensor;
        panel.setDataset(tstest::namedDataset(QStringLiteral("other.tns"), {20, 20, 20}, 300, 4));
        QVERIFY2(splitRow().endsWith(QStringLiteral("\n") + tensor), qPrintable(splitRow()));
        // and not where it is the one open (a run opened before its tensor loaded had been named)
        panel.setDataset(tstest::namedDataset(tensor, {20, 20, 20}, 300, 4));
        QVERIFY2(splitRow() == QStringLiteral("run 1 · CSF · omp · r8"), qPrintable(splitRow()));
        QCOMPARE(panel.model()->rowCount(), 15);
        // its setup from the ranks' parts, each its slowest rank's (it had none, sweep 72b)
        QVERIFY(r.setup);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            double read = 0, build = 0;
            for (const QJsonValue& v : QJsonDocument::fromJson(f.readAll()).object()["per_rank"].toArray()) {
                read = std::max(read, v["read_s"].toDouble() + v["distribute_s"].toDouble());
                build = std::max(build, v["build_s"].toDouble());
            }
            QVERIFY(read > 0 && build > 0);
            QCOMPARE(r.setup->readSeconds, read);
            QCOMPARE(r.setup->buildSeconds, build);
        }
        QCOMPARE(panel.fitPlot()->graphCount(), 1);
        QCOMPARE(panel.fitPlot()->graph(0)->dataCount(), 15);
        QVERIFY(panel.rankPlot()->isVisible());
        // its legend above the bars and whole within the chart (under them its frame was cut, sweep 72b)
        panel.rankPlot()->replot();
        const QRect legend = panel.rankPlot()->legend->outerRect();
        QVERIFY(legend.bottom() <= panel.rankPlot()->axisRect()->outerRect().top() + 1);
        QVERIFY(panel.rankPlot()->viewport().contains(legend));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray per = QJsonDocument::fromJson(f.readAll()).object()["per_rank"].toArray();
        QCOMPARE(per.size(), 4);
        auto* nnz = barsNamed(panel.rankPlot(), QObject::tr("nonzeros (left)"));
        auto* volume = barsNamed(panel.rankPlot(), QObject::tr("factor rows sent + received per iteration (right)"));
        QVERIFY(nnz && volume);
        for (int q = 0; q < 4; ++q) {
            const QJsonObject x = per[q].toObject();
            QCOMPARE(valueAt(nnz, q), x["nnz"].toDouble());
            QCOMPARE(valueAt(volume, q), x["rows_sent"].toDouble() + x["rows_received"].toDouble());
        }
        // a file that is no run says so, naming itself; nothing is added
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bench.json"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"results": []})");
        out.close();
        QVERIFY(!panel.openRunFile(bad, &error));
        QVERIFY2(error.startsWith(bad) && error.contains(QStringLiteral("not a decompose run")), qPrintable(error));
        QVERIFY(!panel.openRunFile(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY2(error.contains(QStringLiteral("missing.json")), qPrintable(error));
        QCOMPARE(panel.model()->runs().size(), std::size_t(1));
    }

    // 64 ranks: their labels are thinned until neighbours stand apart (one a rank ran together
    // from about 16 on this width); the bars stay one a rank.
    void manyRanksKeepTheirLabelsApart() {
        DecompositionPanel panel;
        panel.resize(1200, 900);
        panel.show();
        QString perRank;
        for (int q = 0; q < 64; ++q)
            perRank +=
                QStringLiteral(
                    "%1{\"nnz\": %2, \"rows_sent\": 10, \"rows_received\": 12, \"comm_s\": 0.0123, \"compute_s\": 1}")
                    .arg(q ? QStringLiteral(", ") : QString())
                    .arg(1000 + q);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        QVERIFY(tstest::write_file(path, QStringLiteral(R"({"method": "cpd", "rank": 4, "ranks": 64, "grid": "4x4x4",
            "iterations": [{"iter": 1, "seconds": 0.5}], "per_rank": [%1]})")
                                             .arg(perRank)
                                             .toUtf8()));
        QString error;
        QVERIFY2(panel.openRunFile(path, &error), qPrintable(error));
        QCustomPlot* plot = panel.rankPlot();
        plot->replot();
        auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(plot->xAxis->ticker());
        QVERIFY(ticks);
        const auto labelled = ticks->ticks();
        QVERIFY2(labelled.size() > 1 && labelled.size() < 64, qPrintable(QString::number(labelled.size())));
        const QFontMetrics metrics(plot->xAxis->tickLabelFont());
        const double apart =
            plot->xAxis->coordToPixel((++labelled.begin()).key()) - plot->xAxis->coordToPixel(labelled.begin().key());
        QVERIFY2(apart > metrics.horizontalAdvance(QStringLiteral("MPI 0.0123 s")), qPrintable(QString::number(apart)));
        QCOMPARE(barsNamed(plot, QObject::tr("nonzeros (left)"))->dataCount(), 64);
        // one iteration: the fit plot's iteration axis still ticks whole numbers only
        panel.fitPlot()->replot();
        QVERIFY(!panel.fitPlot()->xAxis->tickVector().isEmpty());
        for (double t : panel.fitPlot()->xAxis->tickVector()) QCOMPARE(t, std::round(t));
    }

    // Six runs overlaid: the fit curves keep 100 px under their names, and the value axis no
    // more ticks than that height holds (sweep 74a F13: 55 px, "0.06" over "0.05").
    void manyRunsLeaveTheCurvesRoom() {
        DecompositionPanel panel;
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QString error;
        for (int i = 0; i < 6; ++i)
            QVERIFY2(panel.openRunFile(QStringLiteral(TS_TEST_DATA_DIR "/runs/jf17k-cpd-4-ranks.json"), &error),
                     qPrintable(error));
        QCOMPARE(panel.fitPlot()->graphCount(), 6);
        // the panel asks for the room (in the window its tab scrolls where it has less)
        panel.resize(1000, std::max(700, panel.minimumSizeHint().height()));
        QTest::qWait(20);
        panel.fitPlot()->replot();
        panel.fitPlot()->replot();  // the ticks follow the last layout's height
        const int height = panel.fitPlot()->axisRect()->height();
        QVERIFY2(height >= 100, qPrintable(QString::number(height)));
        QVERIFY(panel.fitPlot()->yAxis->ticker()->tickCount() <= std::max(2, height / 30));
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

    // Another tensor opened while a run goes on stops that run; the tab is free for the new one.
    // Before, the old run went on for minutes with Run disabled and the status reading Ready.
    void openingAnotherTensorStopsTheRun() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        // FasterTucker runs its epochs whatever the fit: a CPD could converge before the load ends
        p->configure(tscope::DecompMethod::FasterTucker, 4, 10000);
        bool opened = false;
        connect(p->model(), &QAbstractItemModel::rowsInserted, p, [&] {
            if (!std::exchange(opened, true)) w.openFile(QStringLiteral(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns"));
        });
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QVERIFY(opened);
        QCOMPARE(p->model()->runs().front().outcome, QStringLiteral("cancelled"));
        QVERIFY(!p->isBusy());
    }
};

QTEST_MAIN(TestDecompositionPanel)
#include "test_decomposition_panel.moc"
