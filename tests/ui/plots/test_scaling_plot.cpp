// The scaling plot: words instead of an empty chart while there is no recording; one line per
// format with a point per GPU count once there are, on axes labelled "GPUs" and "seconds per
// MTTKRP sweep"; a recording opened from a file adds its lines; a bad file is refused in words.
#include <QComboBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include "plots/ScalingPlot.hpp"

using namespace tsui;

namespace {

ScalingRow row(const QString& format, int gpus, int mode, double seconds, const QString& tensor = QStringLiteral("nell2.tsb")) {
    ScalingRow r;
    r.device = QStringLiteral("NVIDIA H200"), r.tensor = tensor, r.format = format;
    r.gpus = gpus, r.mode = mode, r.seconds = seconds;
    return r;
}

double valueAt(QCPGraph* g, double key) {
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        if (it->key == key) return it->value;
    return -1;
}

}  // namespace

class TestScalingPlot : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bundledRecordingsOrTheHint() {
        ScalingPlot plot;
        QCOMPARE(plot.showsChart(), !bundledScalingRecordings().empty());
    }

    void saysHowToRecordWhenThereIsNone() {
        ScalingPlot plot;
        plot.setRecordings({});
        QVERIFY(!plot.showsChart());
        const QString hint = plot.hint()->text();
        QVERIFY2(hint.startsWith(QStringLiteral("No scaling recordings yet; run tensorscope-cli bench")),
                 qPrintable(hint));
        QVERIFY(hint.contains(QStringLiteral("--gpus N --json on a machine with several GPUs")));
    }

    void oneLinePerFormatAgainstTheGpuCount() {
        ScalingRecording r;
        r.title = QStringLiteral("synthetic");
        r.rows = {row(QStringLiteral("COO"), 1, 1, 1.0),  row(QStringLiteral("COO"), 1, 2, 2.0),
                  row(QStringLiteral("COO"), 2, 1, 0.5),  row(QStringLiteral("COO"), 2, 2, 1.0),
                  row(QStringLiteral("CSF"), 1, 1, 0.25), row(QStringLiteral("CSF"), 1, 2, 0.25),
                  row(QStringLiteral("CSF"), 2, 1, 0.25), row(QStringLiteral("CSF"), 2, 2, 0.125)};
        ScalingPlot plot;
        plot.setRecordings({r});
        QVERIFY(plot.showsChart());
        QCustomPlot* p = plot.plot();
        QCOMPARE(p->xAxis->label(), QStringLiteral("GPUs"));
        QVERIFY(p->yAxis->label().startsWith(QStringLiteral("seconds per MTTKRP sweep")));
        QCOMPARE(p->graphCount(), 2);
        QVERIFY(p->graph(0)->name().startsWith(QStringLiteral("COO · NVIDIA H200")));
        QVERIFY2(p->graph(0)->name().contains(QStringLiteral("2× faster")), qPrintable(p->graph(0)->name()));
        QCOMPARE(valueAt(p->graph(0), 1), 3.0);
        QCOMPARE(valueAt(p->graph(0), 2), 1.5);
        QCOMPARE(valueAt(p->graph(1), 1), 0.5);
        QCOMPARE(valueAt(p->graph(1), 2), 0.375);
        QVERIFY(p->yAxis->range().lower == 0 && p->yAxis->range().upper >= 3.0);
    }

    // Recordings of two tensors: a Tensor box picks one, and only its lines are drawn (their
    // seconds differ by orders of magnitude); one tensor alone needs no box.
    void aTensorBoxPicksTheTensorDrawn() {
        ScalingRecording small, big;
        small.rows = {row(QStringLiteral("COO"), 1, 1, 0.01), row(QStringLiteral("COO"), 2, 1, 0.006)};
        big.rows = {row(QStringLiteral("COO"), 1, 1, 0.8, QStringLiteral("amz1b.tsb")), row(QStringLiteral("COO"), 2, 1, 0.4, QStringLiteral("amz1b.tsb")),
                    row(QStringLiteral("CSF"), 1, 1, 0.2, QStringLiteral("amz1b.tsb")), row(QStringLiteral("CSF"), 4, 1, 0.06, QStringLiteral("amz1b.tsb"))};
        ScalingPlot plot;
        plot.setRecordings({small});
        QVERIFY(plot.tensorBox()->isHidden());
        QCOMPARE(plot.plot()->graphCount(), 1);
        plot.setRecordings({big, small});
        QVERIFY(!plot.tensorBox()->isHidden());
        QCOMPARE(plot.tensorBox()->count(), 2);
        QCOMPARE(plot.tensorBox()->currentText(), QStringLiteral("amz1b.tsb"));  // the first recording's
        QCOMPARE(plot.plot()->graphCount(), 2);
        QCOMPARE(valueAt(plot.plot()->graph(0), 1), 0.8);
        QVERIFY(plot.plot()->yAxis->range().upper < 1.5);
        plot.tensorBox()->setCurrentText(QStringLiteral("nell2.tsb"));
        QCOMPARE(plot.plot()->graphCount(), 1);
        QCOMPARE(valueAt(plot.plot()->graph(0), 2), 0.006);
        QVERIFY(plot.plot()->yAxis->range().upper < 0.02);  // the axis follows the tensor drawn
    }

    void opensARecordingFromAFile() {
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("h200x2-scaling-test.json"));
        QFile f(good);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"j({"file": "t.tns", "results": [
            {"kernel": "mttkrp", "format": "CSF", "mode": 1, "ran": true, "median_s": 0.5, "gpus": 1, "device": "1 x GPU A"},
            {"kernel": "mttkrp", "format": "CSF", "mode": 1, "ran": true, "median_s": 0.25, "gpus": 2, "device": "2 x GPU A"}]})j");
        f.close();
        ScalingPlot plot;
        plot.setRecordings({});
        QString error;
        QVERIFY2(plot.addRecordingFile(good, &error), qPrintable(error));
        QVERIFY(plot.showsChart());
        QCOMPARE(plot.plot()->graphCount(), 1);
        QVERIFY(plot.plot()->graph(0)->name().startsWith(QStringLiteral("CSF · GPU A")));
        QCOMPARE(plot.recordings().size(), std::size_t{1});

        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write("[");
        b.close();
        QVERIFY(!plot.addRecordingFile(bad, &error));
        QVERIFY2(error.startsWith(bad + QStringLiteral(": not JSON")), qPrintable(error));
        QCOMPARE(plot.recordings().size(), std::size_t{1});  // the good one stays
    }
};

QTEST_MAIN(TestScalingPlot)
#include "test_scaling_plot.moc"
