// Issue 22's plot rules, on the plots a user sees: a hover readout at a known point of each
// plot (1-based indices, counts, bytes, times), 1-based index axes whose cells have equal
// widths, legends outside the data, category axes without a zero line, the tile map giving
// way on order 4, and the one number format.
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QTextStream>
#include <qcustomplot.h>

#include "panels/DecompositionPanel.hpp"
#include "panels/DensityPanel.hpp"
#include "panels/FormatsPanel.hpp"
#include "panels/KernelsPanel.hpp"
#include "plots/PlotHint.hpp"
#include "plots/PlotInspector.hpp"
#include "ui_test_support.hpp"
#include "views/TextFormat.hpp"

using namespace tsui;

namespace {

// A 5 x 7 x 3 tensor whose nonzeros we know: slice 1 of mode 1 holds 3 of them.
QString smallTensor(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("small.tns"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) return {};
    QTextStream(&f) << "1 1 1 1.0\n1 2 1 2.0\n1 7 3 3.0\n3 4 2 4.0\n5 7 3 5.0\n";
    return path;
}

QString hoverAt(QCustomPlot* plot, double key, double value) {
    plot->replot();  // lays the plot out at its current size
    const QPointF pixel(plot->xAxis->coordToPixel(key), plot->yAxis->coordToPixel(value));
    PlotInspector* inspector = PlotInspector::of(plot);
    return inspector ? inspector->textAt(pixel) : QStringLiteral("<no inspector>");
}

// The pixel rectangle of each bar of every QCPBars on the plot.
std::vector<QRectF> barRects(QCustomPlot* plot) {
    std::vector<QRectF> rects;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        if (!bars) continue;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
            const double left = bars->keyAxis()->coordToPixel(it->key - bars->width() / 2);
            const double right = bars->keyAxis()->coordToPixel(it->key + bars->width() / 2);
            const double top = bars->valueAxis()->coordToPixel(it->value);
            const double bottom = bars->valueAxis()->coordToPixel(bars->baseValue());
            rects.push_back(QRectF(QPointF(left, top), QPointF(right, bottom)).normalized());
        }
    }
    return rects;
}

}  // namespace

class TestPlotReadouts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // An empty plot's hint is wrapped to the plot: Reorder's MTTKRP sweep (about 380 px) cut its
    // one line at both ends. Each line fits, no word is lost, and a wide plot keeps one line.
    void emptyPlotHintsWrapToThePlot() {
        QCustomPlot plot;
        plot.resize(380, 300);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        const QString hint =
            QStringLiteral("Tick formats and press Compare: each one's MTTKRP sweep, before and after");
        showPlotHint(&plot, true, hint);
        plot.replot();
        QCPItemText* text = nullptr;
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(plot.item(i)); t && t->visible()) text = t;
        QVERIFY(text);
        const QStringList lines = text->text().split(QLatin1Char('\n'));
        QVERIFY2(lines.size() >= 2, qPrintable(text->text()));
        for (const QString& line : lines)
            QVERIFY2(QFontMetrics(text->font()).horizontalAdvance(line) <= plot.axisRect()->width(), qPrintable(line));
        QCOMPARE(lines.join(QLatin1Char(' ')), hint);
        plot.resize(1200, 300);
        plot.replot();
        QCOMPARE(text->text(), hint);
    }

    void initTestCase() { tstest::sandboxSettings("test_plot_readouts"); }

    void oneNumberFormat() {
        QCOMPARE(shortNumber(8.06e-4), QStringLiteral("806e-6"));
        QCOMPARE(shortNumber(0.00589), QStringLiteral("0.00589"));
        QCOMPARE(shortNumber(0.0134), QStringLiteral("0.0134"));
        QCOMPARE(shortNumber(0.000999), QStringLiteral("999e-6"));
        // a table's times keep three digits, "3.00 ms" beside "2.45 ms" ("3 ms" read as another kind of figure)
        QCOMPARE(columnSeconds(0.003), QStringLiteral("3.00 ms"));
        QCOMPARE(columnSeconds(0.00245), QStringLiteral("2.45 ms"));
        QCOMPARE(columnSeconds(0.0203), QStringLiteral("20.3 ms"));
        QCOMPARE(columnSeconds(1.5), QStringLiteral("1.50 s"));
        QCOMPARE(columnSeconds(1188), humanSeconds(1188));  // "1,188 s" as it is
        QCOMPARE(columnSeconds(0), QStringLiteral("0 s"));
        // engine messages' powers in superscript, as the window writes them
        QCOMPARE(fromEngine("no 16^3 tile; the limit is 2^29, x^y stays"),
                 QStringLiteral("no 16³ tile; the limit is 2²⁹, x^y stays"));
        QCOMPARE(shortNumber(0.0589), QStringLiteral("0.0589"));
        QCOMPARE(shortNumber(12.34), QStringLiteral("12.3"));
        QCOMPARE(shortNumber(100000), QStringLiteral("100,000"));
        QCOMPARE(shortNumber(0.5), QStringLiteral("0.5"));
        QCOMPARE(engineering(2.5e-9), QStringLiteral("2.5e-9"));
        QCOMPARE(engineering(9.996e-4), QStringLiteral("1e-3"));
        QCOMPARE(humanSeconds(0.71), QStringLiteral("710 ms"));
        QCOMPARE(humanSeconds(1.11), QStringLiteral("1.11 s"));
        QCOMPARE(humanSeconds(7.49e-12), QStringLiteral("7.49 ps"));  // a kernel's time per stored entry
        QCOMPARE(humanSeconds(2.5e-15), QStringLiteral("2.5e-15 s"));
        QCOMPARE(humanSeconds(8.06e-4), QStringLiteral("806 µs"));
        QCOMPARE(humanSeconds(0.9996), QStringLiteral("1 s"));  // the unit after rounding: it read "1000 ms"
        QCOMPARE(humanSeconds(9.9996e-4), QStringLiteral("1 ms"));
        QCOMPARE(humanSeconds(-0.9996), QStringLiteral("-1 s"));
        QCOMPARE(counted(1, QStringLiteral("stream"), QStringLiteral("streams")), QStringLiteral("1 stream"));
        QCOMPARE(counted(0, QStringLiteral("stream"), QStringLiteral("streams")), QStringLiteral("0 streams"));
        QCOMPARE(counted(1234, QStringLiteral("chunk"), QStringLiteral("chunks")), QStringLiteral("1,234 chunks"));
    }

    // Density on a 5 x 7 x 3 tensor: index axes run 1..I (as the file and the Overview), the
    // heat map's cells sit on whole indices, and each plot reads out what is under the cursor.
    void densityIsOneBasedAndReadsOut() {
        QTemporaryDir dir;
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Density")));
        QVERIFY(tstest::openAndWait(w, smallTensor(dir)));
        DensityPanel* p = w.density();

        QCustomPlot* slices = p->slicePlot();
        QCOMPARE(slices->xAxis->range().lower, 0.5);
        QCOMPARE(slices->xAxis->range().upper, 5.5);
        QCOMPARE(slices->graph(0)->data()->constBegin()->key, 1.0);  // slice 1 is the first
        const QString sliceText = hoverAt(slices, 1, 3);
        QVERIFY2(sliceText.contains(QStringLiteral("mode-1 slice 1: 3 nonzeros")), qPrintable(sliceText));

        QCustomPlot* map = p->mapPlot();
        auto* cmap = qobject_cast<QCPColorMap*>(map->plottable(0));
        QVERIFY(cmap);
        QCOMPARE(cmap->data()->keyRange().lower, 1.0);  // the first cell's centre is index 1
        QCOMPARE(cmap->data()->keyRange().upper, 7.0);
        QCOMPARE(map->xAxis->range().lower, 0.5);
        QCOMPARE(map->xAxis->range().upper, 7.5);
        QCOMPARE(map->yAxis->range().upper, 5.5);
        // equal cells: every cell spans one index, so its pixel width is the same all along
        map->replot();
        const double first = map->xAxis->coordToPixel(1.5) - map->xAxis->coordToPixel(0.5);
        const double last = map->xAxis->coordToPixel(7.5) - map->xAxis->coordToPixel(6.5);
        QVERIFY(std::abs(first - last) < 0.01);
        const QString cellText = hoverAt(map, 2, 1);  // mode 2 across, mode 1 down
        QVERIFY2(cellText.contains(QStringLiteral("mode-1 1 × mode-2 2: 1 nonzeros")), qPrintable(cellText));

        QCustomPlot* fibers = p->fiberPlot();
        auto* bars = qobject_cast<QCPBars*>(fibers->plottable(0));
        QVERIFY(bars && bars->dataCount() > 0);
        const auto bin = bars->data()->constBegin();
        const QString fiberText = hoverAt(fibers, bin->key, std::max(1.0, bin->value * 0.9));
        QVERIFY2(fiberText.contains(QStringLiteral("fibers of length")), qPrintable(fiberText));
        QVERIFY(fibers->xAxis->grid()->zeroLinePen().style() == Qt::NoPen);
        // every bar ends at its count on the log axis: QCPBars draws base + value, and a base at
        // the axis' bottom (0.8) drew a count of 1 up to 1.8
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
            QVERIFY2(
                barAt(fibers, {fibers->xAxis->coordToPixel(it->key), fibers->yAxis->coordToPixel(it->value * 0.97)}),
                "no bar just under its count");
            QVERIFY2(
                !barAt(fibers, {fibers->xAxis->coordToPixel(it->key), fibers->yAxis->coordToPixel(it->value * 1.03)}),
                "a bar reaches above its count");
        }

        QCustomPlot* tiles = p->tilePlot();
        QVERIFY(tiles->isVisible());
        const QString tileText = hoverAt(tiles, 1, 1);
        QVERIFY2(tileText.contains(QStringLiteral("of its 4,096 cells")), qPrintable(tileText));
        QVERIFY2(tileText.contains(QStringLiteral("mode-1 1–5")), qPrintable(tileText));
    }

    // Order 4: no blank 16^3 grid; the reason takes its place.
    void tileMapGivesWayOnOrder4() {
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Density")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        QVERIFY(!w.density()->tilePlot()->isVisible());
        QVERIFY2(w.density()->tileCaption().contains(QStringLiteral("order 4")), qPrintable(w.density()->tileCaption()));
    }

    // Formats: the legend sits above the data and covers no bar; a bar reads out its bytes;
    // the linear ratio view puts COO at 1.
    void formatsLegendOutsideAndReadouts() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Formats")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        QCustomPlot* plot = w.formats()->plot();
        plot->replot();
        const QRectF legend = plot->legend->outerRect();
        QVERIFY(legend.height() > 0);
        const auto rects = barRects(plot);
        QVERIFY2(rects.size() >= 20, qPrintable(QString::number(rects.size())));
        for (const QRectF& bar : rects) QVERIFY2(!legend.intersects(bar), "the legend covers a bar");
        QVERIFY(plot->xAxis->grid()->zeroLinePen().style() == Qt::NoPen);
        // the first bar: COO for mode 1
        auto* mode1 = qobject_cast<QCPBars*>(plot->plottable(0));
        QVERIFY(mode1);
        const auto coo = mode1->data()->constBegin();
        const QString text = hoverAt(plot, coo->key, coo->value * 0.8);
        QVERIFY2(text.startsWith(QStringLiteral("COO, mode 1: ")) && text.contains(QStringLiteral("kB")) &&
                     text.contains(QStringLiteral("1× COO")),
                 qPrintable(text));
        auto* measure = w.formats()->findChild<QComboBox*>(QStringLiteral("formatsMeasure"));
        QVERIFY(measure);
        measure->setCurrentIndex(2);
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLinear);
        QCOMPARE(qobject_cast<QCPBars*>(plot->plottable(0))->data()->constBegin()->value, 1.0);
    }

    // Kernels: a bar reads out its time; no zero line over the first bar; the legend is above.
    void kernelsReadout() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(tstest::kernelsAfterOneCooRun(w));
        QCustomPlot* chart = w.kernels()->chart();
        QVERIFY(chart->xAxis->grid()->zeroLinePen().style() == Qt::NoPen);
        QVERIFY(chart->legend->layout() == chart->plotLayout());
        auto* bars = qobject_cast<QCPBars*>(chart->plottable(0));
        QVERIFY(bars && bars->dataCount() == 1);
        const auto bar = bars->data()->constBegin();
        const QString text = hoverAt(chart, bar->key, bar->value / 2);
        QVERIFY2(text.startsWith(QStringLiteral("COO on omp: ")) && text.contains(QStringLiteral("over 4 modes")),
                 qPrintable(text));
    }

    // Decompositions: a point reads out its iteration and fit; FasterTucker's empty plot gives
    // way during CPD.
    void decompositionReadout() {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Decompositions")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        DecompositionPanel* p = w.decompositions();
        p->configure(tscope::DecompMethod::Cpd, 4, 3);
        QVERIFY(!p->errorPlot()->isVisible());
        QVERIFY(p->fitPlot()->isVisible());
        p->run();
        QVERIFY(tstest::waitIdle(w));
        QCustomPlot* fit = p->fitPlot();
        const auto first = fit->graph(0)->data()->constBegin();
        const QString text = hoverAt(fit, first->key, first->value);
        QVERIFY2(text.contains(QStringLiteral("iteration %1: fit ").arg(std::lround(first->key))), qPrintable(text));
        QVERIFY(!p->errorPlot()->isVisible());
        QCustomPlot* split = p->splitPlot();
        QVERIFY(PlotInspector::of(split));
    }
};

QTEST_MAIN(TestPlotReadouts)
#include "test_plot_readouts.moc"
