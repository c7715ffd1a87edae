// The Density tab: for a block-clustered order-3 tensor and the 4-order JF17K sample, the
// plots hold the engine's counts (slices, fiber histogram, binned map summing to nnz, HLS
// tiles), sorted view, captions, and plot export to PNG and PDF.
#include <qcustomplot.h>
#include <QComboBox>
#include <QFileInfo>
#include <QPushButton>

#include "panels/DensityPanel.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotInspector.hpp"
#include "tscope/tensor/density_map.hpp"
#include "ui_test_support.hpp"

using namespace tsui;

class TestDensityPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { tstest::sandboxSettings("test_density_panel"); }

    void showsTheEnginesCounts() {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Density")));
        DensityPanel* p = w.density();
        // before a tensor, the plots say what to do (four empty frames had 0-5 axes, sweep 66b C2)
        QVERIFY2(tstest::plotHint(p->slicePlot()).contains(QStringLiteral("Open a tensor")),
                 qPrintable(tstest::plotHint(p->slicePlot())));
        QVERIFY(tstest::openAndWait(w, tstest::blockTensor(dir)));
        QVERIFY(tstest::plotHint(p->slicePlot()).isEmpty() && tstest::plotHint(p->mapPlot()).isEmpty());
        // its Cancel (Esc's too), enabled only while it counts (it had none, sweep 72b F10)
        auto* cancel = p->findChild<QPushButton*>(QStringLiteral("densityCancel"));
        QVERIFY(cancel && cancel->property(kCancelsWork).toBool() && !cancel->isEnabled());
        const tscope::CooTensor& t = w.dataset()->tensor;
        // slices of mode 1, in index order: one point per non-empty slice, heights = counts
        const auto counts = tscope::slice_counts(t, 0);
        QCPGraph* g = p->slicePlot()->graph(0);
        int nonEmpty = 0;
        for (auto c : counts) nonEmpty += c > 0;
        QCOMPARE(g->dataCount(), nonEmpty);
        double total = 0;
        for (auto it = g->data()->begin(); it != g->data()->end(); ++it) total += it->value;
        QCOMPARE(static_cast<std::uint64_t>(total), t.nnz());
        // the binned map holds every nonzero once
        auto* map = qobject_cast<QCPColorMap*>(p->mapPlot()->plottable(0));
        QVERIFY(map);
        double cells = 0;
        for (int x = 0; x < map->data()->keySize(); ++x)
            for (int y = 0; y < map->data()->valueSize(); ++y) {
                const double v = map->data()->cell(x, y);
                if (!std::isnan(v)) cells += v;
            }
        QCOMPARE(static_cast<std::uint64_t>(cells), t.nnz());
        QVERIFY2(p->mapCaption().contains(QStringLiteral("one pixel holds")), qPrintable(p->mapCaption()));
        // dense 16^3 blocks: HLS finds dense tiles
        auto* tiles = qobject_cast<QCPColorMap*>(p->tilePlot()->plottable(0));
        QVERIFY(tiles);
        QVERIFY2(!p->tileCaption().contains(QStringLiteral("; 0 dense")), qPrintable(p->tileCaption()));
        // its colours reach at least a dense tile's fill (all-sparse tiles had shown the brightest)
        QVERIFY(tiles->dataRange().upper >= 78.0 / 4096.0);
        // its bins span the tensor, 16 indices a tile (they were drawn 16 times too wide, so
        // that the first few filled the plot: sweep 70c C8)
        const double across = tiles->data()->keyRange().upper, down = tiles->data()->valueRange().upper;
        const double dim_across = double(t.dim(1)), dim_down = double(t.dim(0));  // the map's default, 1 x 2
        QVERIFY2(across <= dim_across + 16 && across > dim_across - 16, qPrintable(QString::number(across)));
        QVERIFY2(down <= dim_down + 16 && down > dim_down - 16, qPrintable(QString::number(down)));
        // and its readout names a tile's 16 indices each way (it named 256, after the drawing's fix too)
        p->tilePlot()->replot();
        const QString said =
            PlotInspector::of(p->tilePlot())
                ->textAt({p->tilePlot()->xAxis->coordToPixel(1), p->tilePlot()->yAxis->coordToPixel(1)});
        QVERIFY2(said.contains(QStringLiteral("mode-1 1–16 × mode-2 1–16")), qPrintable(said));
        // fiber histogram: the statistics' log2 bins
        auto* bars = qobject_cast<QCPBars*>(p->fiberPlot()->plottable(0));
        QVERIFY(bars && bars->dataCount() > 0);
        {  // its few bins named by their lengths, "1, 2–3, 4–7" (they read "1, 2¹, 2²")
            const auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(p->fiberPlot()->xAxis->ticker());
            QVERIFY(ticks && ticks->ticks().size() >= 2 && ticks->ticks().size() <= 8);
            QCOMPARE(ticks->ticks().value(0), QStringLiteral("1"));
            QCOMPARE(ticks->ticks().value(1), QStringLiteral("2–3"));
        }

        QCheckBox* sorted = p->findChild<QCheckBox*>();
        QVERIFY(sorted);
        sorted->setChecked(true);
        g = p->slicePlot()->graph(0);
        double previous = 1e300;
        for (auto it = g->data()->begin(); it != g->data()->end(); ++it) {
            QVERIFY(it->value <= previous);
            previous = it->value;
        }

        QString error;
        QVERIFY(savePlot(p->mapPlot(), dir.filePath("map.png"), &error));
        QVERIFY(savePlot(p->slicePlot(), dir.filePath("slices.pdf"), &error));
        QVERIFY(QFileInfo(dir.filePath("map.png")).size() > 1000 && QFileInfo(dir.filePath("slices.pdf")).size() > 1000);
        QVERIFY(!savePlot(p->mapPlot(), dir.filePath("map.bmpx"), &error) && !error.isEmpty());
    }

    // Modes of 2^40 indices: the slices are counted from the nonzeros (an 8-byte count per index
    // had been refused), and a shape HLS cannot tile (2^108 tiles) is the tile map's note while
    // the other three plots are drawn (its error had ended all four, which went on saying
    // "Open a tensor", sweep 71b/72).
    void longModesAreDrawnAndOnlyTheTileMapSaysNo() {
        QTemporaryDir dir;
        const QString file = dir.filePath("long.tns");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "# dims: 1099511627776 1099511627776 1099511627776\n1 2 3 1.5\n1099511627776 5 6 2.5\n7 1099511627775 9 "
            "-1\n"
            "7 8 9 4\n");
        f.close();
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Density")));
        QVERIFY(tstest::openAndWait(w, file));
        DensityPanel* p = w.density();
        QVERIFY2(p->tileCaption().contains(QStringLiteral("No tile map")) &&
                     p->tileCaption().contains(QStringLiteral("2^64")),
                 qPrintable(p->tileCaption()));
        QVERIFY2(tstest::plotHint(p->slicePlot()).isEmpty(), qPrintable(tstest::plotHint(p->slicePlot())));
        QCPGraph* g = p->slicePlot()->graph(0);
        QCOMPARE(g->dataCount(), 3);  // slices 1, 7 (two nonzeros) and 2^40
        QCOMPARE(g->data()->at(1)->value, 2.0);
        QCOMPARE(g->data()->at(2)->key, 1099511627776.0);
        QVERIFY(qobject_cast<QCPColorMap*>(p->mapPlot()->plottable(0)));
        // 2^32 x 2^32 index pairs a pixel: the product is said as such, not wrapped to 0
        QVERIFY2(p->mapCaption().contains(QStringLiteral("= 18.4e18 cells (brightest: 2 nonzeros)")),
                 qPrintable(p->mapCaption()));
    }

    void fourOrderTensorSaysWhyNoTiles() {
        MainWindow w;
        w.show();
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        QVERIFY(w.density()->tileCaption().isEmpty());  // not counted while hidden
        QVERIFY(w.showTab(QStringLiteral("Density")));
        QVERIFY(tstest::waitIdle(w));
        QVERIFY2(w.density()->tileCaption().contains(QStringLiteral("order-3")), qPrintable(w.density()->tileCaption()));
        QCOMPARE(w.density()->findChild<QComboBox*>(QStringLiteral("densityPair"))->count(), 6);  // 4 choose 2
    }

    // Order 1: no map over two modes, said in words; its slices still counted. Before, drawing
    // the map read the tensor's second mode (an uncaught std::out_of_range), and the window
    // never went idle when streamed.
    void orderOneTensorSaysWhyNoMap() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("order1.tns"));
        QVERIFY(tstest::write_file(path, "5 1.0\n3 2.0\n10 1\n"));
        MainWindow w;
        w.show();
        QVERIFY(tstest::openAndWait(w, path));
        QVERIFY(w.showTab(QStringLiteral("Density")));
        QVERIFY(tstest::waitIdle(w));
        QVERIFY2(w.density()->mapCaption().contains(QStringLiteral("one mode")), qPrintable(w.density()->mapCaption()));
        QVERIFY(!w.density()->mapPlot()->isVisible());
        QVERIFY(w.density()->slicePlot()->plottableCount() > 0);
    }

    // Order 1: no map over two modes, so neither a pair to choose nor a note pointing to the map
    // (it said "the map over two modes (left)" beside the left's "no map", sweep 73b)
    void anOrderOneTensorHasNoPairToChoose() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("line.tns"));
        QVERIFY(tstest::write_file(file, "1 1.5\n4 2.5\n9 -1\n"));
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Density")));
        QVERIFY(tstest::openAndWait(w, file));
        QTRY_VERIFY(!w.density()->tileCaption().isEmpty());
        QVERIFY2(!w.density()->tileCaption().contains(QStringLiteral("(left)")),
                 qPrintable(w.density()->tileCaption()));
        QVERIFY(!w.density()->findChild<QComboBox*>(QStringLiteral("densityPair"))->isEnabled());
    }
};

QTEST_MAIN(TestDensityPanel)
#include "test_density_panel.moc"
