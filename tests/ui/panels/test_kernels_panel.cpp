// The Kernels tab: its results model (QAbstractItemModelTester), a background MTTKRP run on
// the JF17K sample with every row checked against cpu-ref, the chart, and CUDA greyed out
// with its reason where there is no device. The GPUs box: hidden with one GPU, shown with a
// faked two, its count reaching the bench request (cuda's MTTKRP alone; the other backends in a
// request of their own), and a run with it ending in rows, not a crash, where no GPUs exist. The
// scaling chart sits in a tab beside the results chart.
#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <map>

#include "models/FormatTableModel.hpp"
#include "models/KernelResultsModel.hpp"
#include "panels/FormatsPanel.hpp"
#include "panels/KernelsPanel.hpp"
#include "plots/RooflinePlot.hpp"
#include "plots/ScalingPlot.hpp"
#include "tscope/cuda/device.hpp"
#include "ui_test_support.hpp"
#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

using namespace tsui;



class TestKernelsPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { tstest::sandboxSettings("test_kernels_panel"); }

    // Not a timed test: with TS_GUI_BENCH_FILE (a tensor) and TS_GUI_BENCH_OUT (a JSON path)
    // set, runs what docs/bench/scripts/gui-vs-cli.sh compares with `tensorscope-cli bench`:
    // MTTKRP on COO and CSF, omp, rank 16, 3 repeats, checked, every mode, started while the
    // Formats survey runs, and writes each row's median and the run's wall time.
    void measureAgainstTheCli() {
        const QString file = qEnvironmentVariable("TS_GUI_BENCH_FILE"), out = qEnvironmentVariable("TS_GUI_BENCH_OUT");
        if (file.isEmpty() || out.isEmpty()) QSKIP("set TS_GUI_BENCH_FILE and TS_GUI_BENCH_OUT to measure");
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Formats")));
        QSignalSpy loaded(&w, &MainWindow::datasetChanged);
        w.openFile(file);
        QVERIFY(loaded.wait(300000));
        QTRY_VERIFY_WITH_TIMEOUT(w.formats()->model()->rowCount() >= 1, 120000);
        const bool surveyRunning = w.formats()->isBusy();
        QVERIFY(w.showTab(QStringLiteral("Kernels")));
        KernelsPanel* p = w.kernels();
        p->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF")}, 16, 3);
        QSignalSpy idle(p, &Panel::idle);
        QElapsedTimer wall;
        wall.start();
        p->run();
        QVERIFY(idle.wait(600000));
        const double seconds = static_cast<double>(wall.elapsed()) / 1000;
        QJsonArray rows;
        for (const tscope::BenchResult& r : p->model()->results())
            rows.append(QJsonObject{{QStringLiteral("format"), QString::fromLatin1(tscope::format_name(r.format))},
                                    {QStringLiteral("mode"), r.mode + 1},
                                    {QStringLiteral("median_s"), r.median_s},
                                    {QStringLiteral("build_s"), r.build_seconds}});
        QFile f(out);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("rows"), rows},
                                          {QStringLiteral("wall_s"), seconds},
                                          {QStringLiteral("survey_running_at_start"), surveyRunning}})
                    .toJson());
    }

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
        // times read in their unit, the CSV keeps seconds and says so (a column had mixed
        // "0.0134" and "6.34e-3", sweep 72b)
        const double median = model.data(model.index(0, KernelResultsModel::Median), Qt::UserRole).toDouble();
        QCOMPARE(model.data(model.index(0, KernelResultsModel::Median)).toString(), columnSeconds(median));
        QVERIFY(model.data(model.index(0, KernelResultsModel::Median)).toString().contains(QLatin1Char('s')));
        QCOMPARE(model.headerData(KernelResultsModel::Median, Qt::Horizontal).toString(), QStringLiteral("median"));
        QVERIFY(toCsv(model).contains(QStringLiteral(",median s,transfer s,")));
        QVERIFY(toCsv(model).contains(QVariant(median).toString()));
        // a row that did not run has no numbers: "–" in the CSV, none to sort by (they had been 0,
        // the fastest, sweep 72b F3); a non-GPU row's transfer likewise
        tscope::BenchResult failed = model.results().front();
        failed.ran = false, failed.error = "refused", failed.rank = 0;
        model.addResult(failed);
        const int last = model.rowCount() - 1;
        for (int c : {KernelResultsModel::Median, KernelResultsModel::Gflops, KernelResultsModel::Gbps,
                      KernelResultsModel::Transfer})
            QVERIFY(!model.data(model.index(last, c), Qt::UserRole).isValid());
        QVERIFY(!model.data(model.index(0, KernelResultsModel::Transfer), Qt::UserRole).isValid());
        const QStringList lastLine = toCsv(model).trimmed().split(QLatin1Char('\n')).last().split(QLatin1Char(','));
        // it says so where its time would be (a lone "–" read as no error, sweep 73b), and a rank
        // it does not carry is none, not 0
        QCOMPARE(lastLine.value(KernelResultsModel::Median), QStringLiteral("not run"));
        QCOMPARE(model.data(model.index(last, KernelResultsModel::Rank)).toString(), QStringLiteral("–"));
        model.setResults({});
        QCOMPARE(model.rowCount(), 0);
    }

    void runsInTheBackgroundAndFillsTableAndChart() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Kernels")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        KernelsPanel* p = w.kernels();
        // issue 20: before the first run the chart says what to do, with no legend box
        QVERIFY(tstest::plotHint(p->chart()).contains(QStringLiteral("press Run")));
        QVERIFY(!p->chart()->legend->visible());
        QVERIFY(tstest::plotHint(p->rooflinePlot()->plot()).contains(QStringLiteral("press Run")));
        // and the data area spans the chart: the empty legend above it no longer caps its width
        // (it did: 94 of 880 px, the hint cut off at both ends)
        p->chart()->replot();
        QVERIFY2(p->chart()->axisRect()->outerRect().width() > p->chart()->width() * 9 / 10,
                 qPrintable(QStringLiteral("axis rect %1 of %2 px").arg(p->chart()->axisRect()->outerRect().width()).arg(p->chart()->width())));
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
        // Each row one line high, its device note whole in a tooltip: at the window's 1280 px
        // the note's column was left about 30 px, wrapped a word a line into rows 57 px high.
        auto* table = p->findChild<QTableView*>(QStringLiteral("kernelTable"));
        QVERIFY(table && !table->wordWrap());
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex note = m->index(r, KernelResultsModel::Note);
            QVERIFY(!m->data(note).toString().isEmpty());
            QCOMPARE(m->data(note, Qt::ToolTipRole).toString(), m->data(note).toString());
            QVERIFY2(table->rowHeight(r) < 2 * table->fontMetrics().height(),
                     qPrintable(QString::number(table->rowHeight(r))));
        }
        // its header is short enough for the width the column is left, and says the rest on hover
        const QString header = m->headerData(KernelResultsModel::Note, Qt::Horizontal).toString();
        QVERIFY2(
            table->fontMetrics().horizontalAdvance(header) < table->columnWidth(KernelResultsModel::Note),
            qPrintable(QStringLiteral("%1 in %2 px").arg(header).arg(table->columnWidth(KernelResultsModel::Note))));
        QVERIFY(m->headerData(KernelResultsModel::Note, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("why it did not run")));
        QCOMPARE(p->chart()->plottableCount(), 1);  // one backend: one bar series
        QVERIFY(tstest::plotHint(p->chart()).isEmpty());
        QVERIFY(p->chart()->legend->visible());
        QCOMPARE(qobject_cast<QCPBars*>(p->chart()->plottable(0))->dataCount(), 2);
        checkRoofline(p->rooflinePlot(), m->results(), w.dataset()->tensor.nnz());
        if (!tscope::query_gpu().available) {
            QVERIFY(!p->backendBox(tscope::Backend::Cuda)->isEnabled());
            QVERIFY(p->backendBox(tscope::Backend::Cuda)->toolTip().contains(QStringLiteral("no CUDA device")));
        }
    }

    // Opening another tensor clears the last one's rows and bars, and a run of the last one
    // that is still going adds nothing to the new one's (its rows had no tensor column to tell)
    void anotherTensorClearsTheResults() {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(tstest::kernelsAfterOneCooRun(w));
        KernelsPanel* p = w.kernels();
        QVERIFY(p->model()->rowCount() > 0);
        // a long run (every format, many repeats), then another tensor while it goes
        p->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF"), QStringLiteral("B-CSF"),
                                                  QStringLiteral("HiCOO"), QStringLiteral("ALTO")}, 16, 200);
        p->run();
        QTRY_VERIFY_WITH_TIMEOUT(p->model()->rowCount() > 0, 60000);
        QVERIFY(p->isBusy());
        QVERIFY(tstest::openAndWait(w, tstest::blockTensor(dir)));
        QTRY_VERIFY_WITH_TIMEOUT(!p->isBusy(), 60000);
        QCoreApplication::processEvents();
        QCOMPARE(p->model()->rowCount(), 0);
        QVERIFY(tstest::plotHint(p->chart()).contains(QStringLiteral("press Run")));
    }

    // Issue 19: every run is a point at (flops / minimum bytes, GFLOP/s), labelled
    // format/backend and mode; one CPU bandwidth line through (1, copy GB/s) and the measured
    // FMA peak line; log axes.
    static void checkRoofline(RooflinePlot* roof, const std::vector<tscope::BenchResult>& rows, std::uint64_t nnz) {
        QVERIFY(tstest::plotHint(roof->plot()).isEmpty());
        QCOMPARE(roof->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(roof->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(roof->plot()->xAxis->label().contains(QStringLiteral("intensity")));
        QVERIFY(roof->plot()->legend->visible());
        // a series per format and backend: the backend's colour, the format's marker (sweep 66b M1)
        QStringList series;
        int points = 0;
        for (QCPGraph* g : roof->pointGraphs()) series << g->name(), points += g->dataCount();
        series.sort();
        QCOMPARE(series, QStringList({QStringLiteral("COO/omp"), QStringLiteral("CSF/omp")}));
        QCOMPARE(points, int(rows.size()));
        QVERIFY(roof->pointGraphs().front()->scatterStyle().shape() !=
                roof->pointGraphs().back()->scatterStyle().shape());
        QCOMPARE(roof->pointGraphs().front()->scatterStyle().pen().color(),
                 roof->pointGraphs().back()->scatterStyle().pen().color());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const tscope::BenchResult& r = rows[i];
            // MTTKRP: 3 nnz R flops over the row's minimum bytes
            const double intensity = 3.0 * double(nnz) * double(r.rank) / double(r.bytes_moved);
            bool drawn = false;  // the graphs keep their points sorted by key, not in row order
            for (QCPGraph* g : roof->pointGraphs())
                for (int k = 0; k < g->dataCount(); ++k)
                    drawn = drawn || (std::fabs(g->data()->at(k)->key - intensity) < 1e-9 * intensity &&
                                      std::fabs(g->data()->at(k)->value - r.gflops) < 1e-9 * r.gflops);
            QVERIFY2(drawn, qPrintable(QStringLiteral("row %1 is not on the roofline").arg(i)));
            QVERIFY(r.copy_gbps > 0 && r.bound_s > 0);
            QVERIFY(std::fabs(r.share_of_bound - r.bound_s / r.median_s) < 1e-12);
        }
        QVERIFY(roof->pointLabels().contains(QStringLiteral("COO/omp m1")));
        QVERIFY(roof->pointLabels().contains(QStringLiteral("CSF/omp m4")));
        QStringList written;  // on the chart: each format's points named once, its modes where they lie apart
        for (int i = 0; i < roof->plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(roof->plot()->item(i)); t && t->visible()) written << t->text();
        std::map<QString, QStringList> modesOf;  // "COO" -> {"all"} or {"1", "3", ...}
        for (const QString& label : written)
            for (const QString& part : label.split(QStringLiteral("; "))) {  // "COO, CSF/omp m1,3"
                const QString tail = part.section(QLatin1Char('/'), 1);
                QVERIFY2(tail == QStringLiteral("omp") || tail.startsWith(QStringLiteral("omp m")), qPrintable(label));
                const QStringList modes = tail == QStringLiteral("omp") ? QStringList{QStringLiteral("all")}
                                                                        : tail.mid(5).split(QLatin1Char(','));
                for (const QString& format : part.section(QLatin1Char('/'), 0, 0).split(QStringLiteral(", ")))
                    modesOf[format] += modes;
            }
        QCOMPARE(modesOf.size(), std::size_t{2});
        for (auto& [format, modes] : modesOf) {
            modes.sort();
            QVERIFY2(modes == QStringList{QStringLiteral("all")} ||
                         modes == QStringList({QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"),
                                               QStringLiteral("4")}),
                     qPrintable(format + QLatin1Char(':') + modes.join(QLatin1Char(','))));
        }
        QVERIFY(roof->sources()->text().contains(QStringLiteral("FMA loop")));
        QCOMPARE(roof->bandwidthLines().size(), std::size_t{1});
        QCPGraph* bw = roof->bandwidthLines().front();
        const auto a = bw->data()->at(0), b = bw->data()->at(1);
        QVERIFY(std::fabs(a->value / a->key - rows.front().copy_gbps) < 1e-9 * rows.front().copy_gbps);
        QVERIFY(std::fabs(b->value / b->key - rows.front().copy_gbps) < 1e-9 * rows.front().copy_gbps);
        QVERIFY(bw->name().contains(QStringLiteral("CPU copy bandwidth")));
        QCOMPARE(roof->peakLines().size(), std::size_t{1});
        QVERIFY(roof->peakLines().front()->name().contains(QStringLiteral("(measured)")));
        QVERIFY(roof->peakLines().front()->data()->at(0)->value == rows.front().peak_gflops);
        QVERIFY(rows.front().peak_gflops > 0);
    }

    // Rows of two devices: a roof each, a point series per backend; a row without a known
    // peak draws no peak line, and a row that did not run no point.
    void rooflineDrawsARoofPerDevice() {
        RooflinePlot roof;
        auto row = [](tscope::Backend b, double intensity, double gflops, double gbps, double peak) {
            tscope::BenchResult r{};
            r.kernel = tscope::KernelKind::SpTV, r.format = tscope::FormatKind::COO, r.backend = b;
            r.ran = true, r.intensity = intensity, r.gflops = gflops, r.copy_gbps = gbps, r.peak_gflops = peak;
            r.peak_source = peak > 0 ? "measured" : "not known";
            return r;
        };
        tscope::BenchResult failed = row(tscope::Backend::Omp, 1, 1, 1, 1);
        failed.ran = false;
        roof.setResults({row(tscope::Backend::Omp, 0.1, 2, 20, 100), row(tscope::Backend::Cuda, 0.2, 300, 3000, 0),
                         row(tscope::Backend::CpuRef, 0.1, 0.5, 20, 100), failed});
        QCOMPARE(roof.pointGraphs().size(), std::size_t{3});
        QCOMPARE(roof.bandwidthLines().size(), std::size_t{2});
        QCOMPARE(roof.peakLines().size(), std::size_t{1});
        QCOMPARE(roof.pointLabels(), QStringList({QStringLiteral("COO/omp"), QStringLiteral("COO/cuda"), QStringLiteral("COO/cpu-ref")}));
        // every point and the CPU ridge (100 / 20 = 5 flop/B) in view
        QVERIFY(roof.plot()->xAxis->range().contains(5) && roof.plot()->xAxis->range().contains(0.1));
        QVERIFY(roof.plot()->yAxis->range().contains(300) && roof.plot()->yAxis->range().contains(0.5));
        QVERIFY(roof.gatherLines().empty());  // SpTV rows: no gather roof
        // the caption says how each device's minimum bytes count the values
        QVERIFY(roof.sources()->text().contains(QStringLiteral("GPU: bandwidth")));
        QVERIFY(roof.sources()->text().contains(QStringLiteral("values in fp32, as the device holds them")));
        QVERIFY(roof.sources()->text().contains(QStringLiteral("values as the host stores them")));
        roof.setResults({});
        QVERIFY(tstest::plotHint(roof.plot()).contains(QStringLiteral("press Run")));
    }

    // GPU MTTKRP rows with a gather bound draw its flat roof: their flops over the bound's time.
    void rooflineDrawsTheGatherRoof() {
        RooflinePlot roof;
        tscope::BenchResult r{};
        r.kernel = tscope::KernelKind::MTTKRP, r.format = tscope::FormatKind::BCSF, r.backend = tscope::Backend::Cuda;
        r.ran = true, r.intensity = 0.5, r.gflops = 3000, r.median_s = 2e-3, r.copy_gbps = 4000, r.peak_gflops = 60000;
        r.gather_gbps = 10000, r.gather_bytes = 10'000'000'000ULL, r.gather_bound_s = 1e-3;
        roof.setResults({r});
        QCOMPARE(roof.gatherLines().size(), std::size_t{1});
        QCPGraph* g = roof.gatherLines().front();
        QCOMPARE(g->data()->at(0)->value, 6000.0);  // 3000 GFLOP/s x 2 ms / 1 ms
        QCOMPARE(g->data()->at(1)->value, 6000.0);
        QVERIFY2(g->name().contains(QStringLiteral("L2 gathers")), qPrintable(g->name()));
        // MM-CSF's bound counts its atomic adds too: its roof is its own, not the line's
        tscope::BenchResult mm = r;
        mm.format = tscope::FormatKind::MMCSF, mm.add_bytes = 3'000'000'000ULL, mm.add_gbps = 4000,
        mm.gather_bound_s = 1.5e-3;
        roof.setResults({mm, r});
        QCOMPARE(roof.gatherLines().size(), std::size_t{1});
        QCOMPARE(roof.gatherLines().front()->data()->at(0)->value, 6000.0);
        // hovering a point says how near it came to its bounds, MM-CSF's with its adds
        mm.share_of_gather_bound = 0.75, r.share_of_gather_bound = 0.5, r.share_of_bound = 0.2;
        roof.setResults({mm, r});
        const QStringList texts = roof.pointTexts();
        QCOMPARE(texts.size(), qsizetype{2});
        QVERIFY2(texts[0].contains(QStringLiteral("75% of its L2 time for row gathers and atomic adds")), qPrintable(texts[0]));
        QVERIFY2(texts[1].contains(QStringLiteral("20% of the copy bound")) &&
                     texts[1].contains(QStringLiteral("50% of its L2 time for row gathers")) && !texts[1].contains(QStringLiteral("adds")),
                 qPrintable(texts[1]));
        mm.gather_bound_s = 0.5e-3;  // even where it would be higher
        roof.setResults({mm});
        QVERIFY(roof.gatherLines().empty());
    }

    // A bundled GPU recording, shown on any machine: its rows in the table, its roofs (the gather
    // roof among them) on the roofline, which comes to the front, and where it ran in the status.
    void showsARecordedRun() {
        KernelsPanel p;
        auto* recorded = p.findChild<QPushButton*>(QStringLiteral("kernelRecorded"));
        QVERIFY(recorded && recorded->menu());
        const std::vector<BenchRecording> bundled = bundledBenchRecordings();
        QVERIFY(!bundled.empty());
        QVERIFY(recorded->menu()->actions().size() >= static_cast<qsizetype>(bundled.size()) + 2);  // + separator, file
        QCOMPARE(recorded->menu()->actions().front()->text(), bundled.front().title);
        p.showRecording(bundled.front());
        QCOMPARE(p.model()->results().size(), bundled.front().rows.size());
        QCOMPARE(p.rooflinePlot()->gatherLines().size(), std::size_t{1});
        QCOMPARE(p.rooflinePlot()->pointLabels().size(), static_cast<qsizetype>(bundled.front().rows.size()));
        auto* tabs = p.findChild<QTabWidget*>(QStringLiteral("kernelChartTabs"));
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(p.rooflinePlot()));
        const QString status = p.findChild<QLabel*>(QStringLiteral("kernelStatus"))->text();
        QVERIFY2(status.contains(QStringLiteral("H200")) && status.contains(QStringLiteral("Run replaces")), qPrintable(status));
        // the transfer column shows for the GPU's rows, and goes again with rows of the CPU alone
        QHeaderView* header = p.findChild<QTableView*>(QStringLiteral("kernelTable"))->horizontalHeader();
        QVERIFY(!header->isSectionHidden(KernelResultsModel::Transfer));
        BenchRecording cpu;
        cpu.title = QStringLiteral("cpu");
        tscope::BenchResult row{};
        row.kernel = tscope::KernelKind::SpTV, row.format = tscope::FormatKind::COO, row.backend = tscope::Backend::Omp;
        row.ran = true, row.median_s = 1e-3, row.gflops = 1, row.intensity = 0.1;
        cpu.rows = {row};
        p.showRecording(cpu);
        QCOMPARE(header->isSectionHidden(KernelResultsModel::Transfer), !tscope::query_gpu().available);
        // the Kernel box follows the recorded kernel where the rows share one, and stays where they do not
        auto* kernel = p.findChild<QComboBox*>(QStringLiteral("kernelChoice"));
        QCOMPARE(static_cast<tscope::KernelKind>(kernel->currentData().toInt()), tscope::KernelKind::SpTV);
        p.showRecording(bundled.front());
        QCOMPARE(static_cast<tscope::KernelKind>(kernel->currentData().toInt()), bundled.front().rows.front().kernel);
        BenchRecording mixed = cpu;
        mixed.rows.push_back(row);
        mixed.rows.back().kernel = tscope::KernelKind::MTTKRP;
        p.showRecording(mixed);
        QCOMPARE(static_cast<tscope::KernelKind>(kernel->currentData().toInt()), bundled.front().rows.front().kernel);
    }

    // A recording stays when a tensor is opened after it (tensorscope FILE --open-bench JSON
    // shows it, then loads FILE: the load had cleared it); a run on the tensor replaces it, and
    // a run's rows go with their tensor as before.
    void aRecordingOutlivesTheNextTensor() {
        MainWindow w;
        w.show();
        const std::vector<BenchRecording> bundled = bundledBenchRecordings();
        QVERIFY(!bundled.empty());
        w.kernels()->showRecording(bundled.front());
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        QCOMPARE(w.kernels()->model()->results().size(), bundled.front().rows.size());
        const QString status = w.kernels()->findChild<QLabel*>(QStringLiteral("kernelStatus"))->text();
        QVERIFY2(status.contains(QStringLiteral("recorded on")), qPrintable(status));
        w.kernels()->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO")}, 4, 1);
        w.kernels()->run();
        QVERIFY(tstest::waitIdle(w));
        const std::size_t ran = w.kernels()->model()->results().size();
        QVERIFY(ran > 0 && w.kernels()->model()->results().front().device != bundled.front().rows.front().device);
        // every row ran: no hint to hover a row that did not (sweep 66b C4)
        const QString done = w.kernels()->findChild<QLabel*>(QStringLiteral("kernelStatus"))->text();
        QVERIFY2(done == QStringLiteral("%1 runs done.").arg(ran), qPrintable(done));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));  // another load
        QCOMPARE(w.kernels()->model()->results().size(), std::size_t{0});
    }

    void gpusBoxOnlyWithSeveralGpus() {
        KernelsPanel p;
        auto* gpus = p.findChild<QSpinBox*>(QStringLiteral("kernelGpus"));
        QVERIFY(gpus);
        p.setGpuCount(1);
        QVERIFY(!gpus->isVisibleTo(&p));
        p.setGpuCount(2);
        QVERIFY(gpus->isVisibleTo(&p));
        QCOMPARE(gpus->minimum(), 1);
        QCOMPARE(gpus->maximum(), 2);
        QCOMPARE(gpus->value(), 1);  // one GPU unless asked
        p.setGpuCount(0);
        QVERIFY(!gpus->isVisibleTo(&p));
        QVERIFY(!p.backendBox(tscope::Backend::Cuda)->isEnabled());
    }

    // Sweep 65b: a run stopped by another tensor's open is not "Cancelled." (no one pressed
    // Cancel): the status says what happened, and Ready for the new tensor.
    void anotherTensorsOpenIsNotACancel() {
        KernelsPanel p;
        const DatasetPtr first = tstest::namedDataset(QStringLiteral("first.tns"), {3000, 3000, 3000}, 1000000, 7);
        const DatasetPtr second = tstest::namedDataset(QStringLiteral("second.tns"), {20, 20, 20}, 300, 8);
        p.setDataset(first);
        p.configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF"), QStringLiteral("HiCOO")},
                    32, 20);
        p.run();
        QVERIFY(p.isBusy());
        p.setDataset(second);
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
        auto* status = p.findChild<QLabel*>(QStringLiteral("kernelStatus"));
        QCOMPARE(status->text(),
                 QStringLiteral("Ready: 300 nonzeros. The last tensor's run stopped when this one was opened."));
    }

    void gpusReachTheRequest() {
        KernelsPanel p;
        p.setGpuCount(2);
        auto* gpus = p.findChild<QSpinBox*>(QStringLiteral("kernelGpus"));
        p.configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF")}, 4, 1);
        p.backendBox(tscope::Backend::Cuda)->setChecked(true);  // omp stays ticked
        QVERIFY(gpus->isEnabled());
        // one GPU: one request as before, gpus unset
        std::vector<tscope::BenchRequest> rs = p.requests();
        QCOMPARE(rs.size(), std::size_t{1});
        QVERIFY(!rs[0].gpus);
        QCOMPARE(rs[0].backends.size(), std::size_t{2});
        // two GPUs: omp apart, then cuda alone over two GPUs, the same formats and rank
        gpus->setValue(2);
        rs = p.requests();
        QCOMPARE(rs.size(), std::size_t{2});
        QVERIFY(!rs[0].gpus);
        QVERIFY(rs[0].backends == std::vector<tscope::Backend>{tscope::Backend::Omp});
        QVERIFY(rs[1].gpus == 2);
        QVERIFY(rs[1].backends == std::vector<tscope::Backend>{tscope::Backend::Cuda});
        QVERIFY((rs[1].formats == std::vector<tscope::FormatKind>{tscope::FormatKind::COO, tscope::FormatKind::CSF}));
        QCOMPARE(rs[1].rank, std::uint64_t{4});
        p.backendBox(tscope::Backend::Omp)->setChecked(false);
        rs = p.requests();
        QCOMPARE(rs.size(), std::size_t{1});
        QVERIFY(rs[0].gpus == 2);
        // not MTTKRP, or not cuda: the box does not apply and the request has no gpus
        p.configure(tscope::KernelKind::SpTV, {QStringLiteral("COO")}, 4, 1);
        QVERIFY(!gpus->isEnabled());
        rs = p.requests();
        QCOMPARE(rs.size(), std::size_t{1});
        QVERIFY(!rs[0].gpus);
        p.configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO")}, 4, 1);
        p.backendBox(tscope::Backend::Omp)->setChecked(true);
        p.backendBox(tscope::Backend::Cuda)->setChecked(false);
        QVERIFY(!gpus->isEnabled());
        rs = p.requests();
        QCOMPARE(rs.size(), std::size_t{1});
        QVERIFY(!rs[0].gpus);
    }

    void aMultiGpuRunEndsInRows() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Kernels")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        KernelsPanel* p = w.kernels();
        const int real = tscope::query_gpu().available ? tscope::query_gpu().count : 0;
        p->setGpuCount(std::max(2, real));
        p->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF")}, 4, 1);
        p->backendBox(tscope::Backend::Cuda)->setChecked(true);
        p->findChild<QSpinBox*>(QStringLiteral("kernelGpus"))->setValue(2);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        // omp: two formats x four modes, run; cuda over two GPUs: its rows, each run or saying
        // why not (no device, too few GPUs)
        const auto& rows = p->model()->results();
        int omp = 0, multi = 0;
        for (const tscope::BenchResult& r : rows) {
            if (r.backend == tscope::Backend::Omp) {
                QVERIFY(r.ran);
                ++omp;
            }
            if (r.backend == tscope::Backend::Cuda) {
                QCOMPARE(r.gpus, 2);
                QVERIFY2(r.ran || !r.error.empty(), "a cuda row that did not run says why");
                ++multi;
            }
        }
        QCOMPARE(omp, 8);
        QVERIFY(multi >= 2);  // at least a row per format
        p->setGpuCount(real);
    }

    void scalingChartBesideTheResults() {
        KernelsPanel p;
        auto* tabs = p.findChild<QTabWidget*>(QStringLiteral("kernelChartTabs"));
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), 3);
        QCOMPARE(tabs->widget(1), static_cast<QWidget*>(p.rooflinePlot()));
        QCOMPARE(tabs->currentIndex(), 0);  // the results chart first
        p.resize(1000, 640);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* table = p.findChild<QTableView*>(QStringLiteral("kernelTable"));
        QVERIFY(table && table->isVisible());
        const int before = tabs->height();
        p.showScalingPlot();
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(p.scalingPlot()));
        QCOMPARE(p.scalingPlot()->showsChart(), !bundledScalingRecordings().empty());
        QVERIFY(!table->isVisible());  // the recorded chart takes the table's room (sweep 74a F14)
        QTRY_VERIFY(tabs->height() > before + 100);
        tabs->setCurrentWidget(p.rooflinePlot());
        QVERIFY(table->isVisible());
    }

    // For a look at the roofline chart: TS_SCREENSHOT_DIR=DIR saves kernels-roofline.png there
    // (MTTKRP on COO, CSF and HiCOO, omp and cpu-ref, mode 1, on the JF17K sample).
    void screenshotOfTheRoofline() {
        const QString dir = qEnvironmentVariable("TS_SCREENSHOT_DIR");
        if (dir.isEmpty()) QSKIP("set TS_SCREENSHOT_DIR to save a screenshot of the Kernels tab's roofline");
        MainWindow w;
        w.resize(1400, 860);
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Kernels")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        KernelsPanel* p = w.kernels();
        p->backendBox(tscope::Backend::CpuRef)->setChecked(true);
        p->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO"), QStringLiteral("CSF"), QStringLiteral("HiCOO")}, 16, 3);
        p->run();
        QVERIFY(tstest::waitIdle(w));
        p->findChild<QTabWidget*>(QStringLiteral("kernelChartTabs"))->setCurrentWidget(p->rooflinePlot());
        QVERIFY(w.grab().save(dir + QStringLiteral("/kernels-roofline.png")));
    }

    // For docs/screenshots/kernels-scaling.png: TS_SCREENSHOT_DIR=DIR saves the window there.
    void screenshotOfTheScalingTab() {
        const QString dir = qEnvironmentVariable("TS_SCREENSHOT_DIR");
        if (dir.isEmpty()) QSKIP("set TS_SCREENSHOT_DIR to save a screenshot of the Kernels tab's scaling chart");
        MainWindow w;
        w.resize(1400, 860);
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Kernels")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        w.kernels()->showScalingPlot();
        QTest::qWait(50);  // the chart takes the hidden table's room in the next layout
        QVERIFY(w.grab().save(dir + QStringLiteral("/kernels-scaling.png")));
    }
};

QTEST_MAIN(TestKernelsPanel)
#include "test_kernels_panel.moc"
