// A plot from the keyboard (sweep 74a F12: zoom, pan and the Save/Reset menu needed a mouse):
// Tab reaches it and a frame says so, + and - zoom, the arrows pan, Home goes back.
#include <qcustomplot.h>
#include <QtTest>
#include <memory>

#include "plots/PlotExport.hpp"
#include "plots/PlotInspector.hpp"

using namespace tsui;

namespace {

QCPItemRect* frameOf(QCustomPlot& plot) {
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* r = qobject_cast<QCPItemRect*>(plot.item(i)); r && r->layer()->name() == QLatin1String("overlay"))
            return r;
    return nullptr;
}

// Gives `plot` its keys (and, with `zooms`, the mouse's zoom and pan, which the keys follow),
// shows it at 400 x 300 and lays it out; false if it was never shown.
bool showWithKeys(QCustomPlot& plot, bool zooms = true) {
    if (zooms) PlotInspector::attach(&plot, [](QPointF) { return QString(); })->rememberHome();
    enablePlotExport(&plot);
    plot.resize(400, 300);
    plot.show();
    if (!QTest::qWaitForWindowExposed(&plot)) return false;
    plot.replot();
    return true;
}

}  // namespace

class TestPlotKeyboard : public QObject {
    Q_OBJECT

private slots:
    void keysZoomPanAndGoBack() {
        QCustomPlot plot;
        plot.addGraph()->setData({0, 5, 10}, {0, 5, 10});
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        QVERIFY(showWithKeys(plot));
        QCOMPARE(plot.focusPolicy(), Qt::StrongFocus);
        plot.setFocus();
        QTRY_VERIFY(plot.hasFocus());
        plot.replot();
        QVERIFY(frameOf(plot) && frameOf(plot)->visible());

        QTest::keyClick(&plot, Qt::Key_Plus);
        QCOMPARE(plot.xAxis->range().size(), 8.0);  // 10 / 1.25, about the middle
        QCOMPARE(plot.xAxis->range().center(), 5.0);
        QTest::keyClick(&plot, Qt::Key_Right);
        QVERIFY(plot.xAxis->range().center() > 5.5);
        QTest::keyClick(&plot, Qt::Key_Up);
        QVERIFY(plot.yAxis->range().center() > 5.5);
        QTest::keyClick(&plot, Qt::Key_Home);
        QCOMPARE(plot.xAxis->range().lower, 0.0);
        QCOMPARE(plot.xAxis->range().upper, 10.0);
        QCOMPARE(plot.yAxis->range().upper, 10.0);

        plot.clearFocus();
        QTRY_VERIFY(!plot.hasFocus());
        plot.replot();
        QVERIFY(frameOf(plot) && !frameOf(plot)->visible());
    }

    // A plot deleted while it has the keyboard focus loses it inside ~QWidget, its QCustomPlot
    // part already gone: the keys' filter leaves that event alone (it had called replot on it,
    // which the sanitizer build, .ci/sanitize.sh, reports as a call on a destroyed object).
    void focusedPlotDeletedQuietly() {
        auto plot = std::make_unique<QCustomPlot>();
        QVERIFY(showWithKeys(*plot));
        plot->activateWindow();
        plot->setFocus();
        QTRY_VERIFY(plot->hasFocus());
        const QPointer<QCustomPlot> watched(plot.get());
        plot.reset();
        QVERIFY(watched.isNull());
    }

    // A log axis pans by a share of its length on screen, as a linear one does.
    void logAxesPanEvenly() {
        QCustomPlot plot;
        plot.xAxis->setScaleType(QCPAxis::stLogarithmic);
        plot.xAxis->setRange(1, 1000);
        QVERIFY(showWithKeys(plot));
        QTest::keyClick(&plot, Qt::Key_Right);
        QVERIFY(std::abs(plot.xAxis->range().upper / plot.xAxis->range().lower - 1000.0) < 1e-6);  // still 3 decades
        QVERIFY(std::abs(std::log10(plot.xAxis->range().lower) - 0.3) < 0.01);  // a tenth of 3 decades
    }

    // On a reversed axis (the heat maps' rows run down) Up still shows what lies above on
    // screen: the smaller rows there (sweep 74c N3: it had shown rows further down).
    void arrowsFollowTheScreenOnReversedAxes() {
        QCustomPlot plot;
        plot.xAxis->setRange(0, 100);
        plot.yAxis->setRange(0, 100);
        plot.yAxis->setRangeReversed(true);
        QVERIFY(showWithKeys(plot));
        QTest::keyClick(&plot, Qt::Key_Up);
        QVERIFY2(plot.yAxis->range().lower < 0, qPrintable(QString::number(plot.yAxis->range().lower)));
        QVERIFY(std::abs(plot.yAxis->range().size() - 100) < 1e-9);
        QTest::keyClick(&plot, Qt::Key_Down);
        QTest::keyClick(&plot, Qt::Key_Down);
        QVERIFY(plot.yAxis->range().lower > 0);
    }

    // Where the plot lets the mouse do nothing, the keys are left to the window.
    void aStillPlotLeavesTheKeys() {
        QCustomPlot plot;
        plot.xAxis->setRange(0, 10);
        QVERIFY(showWithKeys(plot, false));
        QTest::keyClick(&plot, Qt::Key_Plus);
        QTest::keyClick(&plot, Qt::Key_Right);
        QCOMPARE(plot.xAxis->range().lower, 0.0);
        QCOMPARE(plot.xAxis->range().upper, 10.0);
    }
};

QTEST_MAIN(TestPlotKeyboard)
#include "test_plot_keyboard.moc"
