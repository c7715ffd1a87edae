// A legend of long names takes as many columns as its plot's width holds, up to its most, and
// the roofline's and the GPU-scaling chart's do; their long names no longer set the window's
// minimum width.
#include <qcustomplot.h>
#include <QtTest>

#include "plots/LegendColumns.hpp"
#include "plots/PlotAxes.hpp"
#include "plots/RooflinePlot.hpp"
#include "plots/ScalingPlot.hpp"

using namespace tsui;

namespace {

// A plot of `width` px with three graphs of names about 300 px long, its legend above it.
std::unique_ptr<QCustomPlot> plotOfLongNames(int width) {
    auto plot = std::make_unique<QCustomPlot>();
    placeLegendAbove(plot.get());
    plot->legend->setVisible(true);
    for (int i = 0; i < 3; ++i)
        plot->addGraph()->setName(
            QStringLiteral("a legend name long enough to need about three hundred px, %1").arg(i));
    plot->resize(width, 300);
    return plot;
}

}  // namespace

class TestLegendColumns : public QObject {
    Q_OBJECT

private slots:
    void columnsFollowTheWidth() {
        auto plot = plotOfLongNames(1600);
        fitLegendColumnsToWidth(plot.get(), 2);
        QCOMPARE(plot->legend->wrap(), 2);  // room for more, at most two
        plot->show();
        QVERIFY(QTest::qWaitForWindowExposed(plot.get()));
        plot->resize(500, 300);  // room for one
        QTRY_COMPARE(plot->legend->wrap(), 1);
        QCOMPARE(plot->legend->elementCount(), 3);  // one name a row
        plot->resize(1600, 300);
        QTRY_COMPARE(plot->legend->wrap(), 2);
        QCOMPARE(plot->legend->elementCount(), 4);  // two a row, the last cell empty,
        int names = 0;                              // and every name still there
        for (int i = 0; i < plot->legend->elementCount(); ++i) names += plot->legend->item(i) != nullptr;
        QCOMPARE(names, 3);
    }

    void aNewNameIsLaidOutWithTheOthers() {
        auto plot = plotOfLongNames(500);
        fitLegendColumnsToWidth(plot.get(), 3);
        QCOMPARE(plot->legend->wrap(), 1);
        plot->resize(2000, 300);
        QVERIFY(refitLegendColumns(plot.get()));
        QCOMPARE(plot->legend->wrap(), 3);
        QVERIFY(!refitLegendColumns(plot.get()));  // nothing changed
    }

    // Two short names sit side by side at the left, each as wide as it is: the legend's columns
    // had shared out the whole width, putting the second name at the plot's middle.
    void shortNamesSitTogether() {
        QCustomPlot plot;
        placeLegendAbove(&plot);
        plot.legend->setVisible(true);
        plot.addGraph()->setName(QStringLiteral("predicted"));
        plot.addGraph()->setName(QStringLiteral("measured"));
        plot.resize(1200, 300);
        plot.replot();
        const QRect first = plot.legend->item(0)->outerRect(), second = plot.legend->item(1)->outerRect();
        QVERIFY2(second.left() - first.right() < 40,
                 qPrintable(QStringLiteral("%1 px apart").arg(second.left() - first.right())));
        QVERIFY(second.right() < 600);
    }

    // Neither chart's minimum width follows its legend's names any longer.
    void chartsAskLittleWidth() {
        ScalingPlot scaling;  // the bundled recordings: six lines of long names
        RooflinePlot roofline;
        QVERIFY(scaling.minimumSizeHint().width() <= 480);
        QVERIFY(roofline.minimumSizeHint().width() <= 480);
    }
};

QTEST_MAIN(TestLegendColumns)
#include "test_legend_columns.moc"
