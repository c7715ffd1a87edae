// The Pipeline tab: the bundled GPU recordings (1 and 4 streams, with their device) load and
// draw one rectangle per chunk stage and lane; recordings open from files, bad ones say why;
// without a GPU the live run is disabled with the reason.
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <qcustomplot.h>

#include "models/PipelineRecording.hpp"
#include "panels/PipelinePanel.hpp"
#include "tscope/cuda/device.hpp"
#include "ui_test_support.hpp"

using namespace tsui;

class TestPipelinePanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { tstest::sandboxSettings("test_pipeline_panel"); }

    void bundledRecordingsShowOneAndFourStreams() {
        const auto recs = bundledRecordings();
        QVERIFY(recs.size() >= 2);
        bool one = false, four = false;
        for (const PipelineRecording& r : recs) {
            QVERIFY(r.device.contains(QStringLiteral("H100")) || r.device.contains(QStringLiteral("H200")));
            QCOMPARE(r.nnz, std::uint64_t{100000000});
            QVERIFY(!r.commit.isEmpty());
            one |= r.runs[r.best].streams == 1;
            four |= r.runs[r.best].streams == 4;
            const tscope::PipelineRun& run = r.runs[r.best];
            QVERIFY(run.t_pipe > 0 && run.t_sync > 0 && run.t_model > 0);
            QCOMPARE(run.chunks.size(), run.sync_chunks.size());
        }
        QVERIFY(one && four);
    }

    void timelineDrawsEveryStage() {
        PipelinePanel p;
        p.resize(1200, 700);
        p.show();
        const tscope::PipelineRun* run = p.currentRun();
        QVERIFY(run);
        QCOMPARE(run->streams, 4);  // opens on the recording with the most streams
        QCOMPARE(p.timeline()->itemCount(), int(3 * (run->chunks.size() + run->sync_chunks.size())));
        QCOMPARE(p.timeline()->yAxis->range().upper > run->streams, true);
        QVERIFY(p.summaryText().contains(QStringLiteral("Sec. 6.2")));
        auto* bars = qobject_cast<QCPBars*>(p.comparison()->plottable(0));
        QVERIFY(bars && bars->dataCount() == 3);
        QCOMPARE(bars->data()->at(1)->value, run->t_pipe * 1e3);
        if (!tscope::query_gpu().available)
            QVERIFY(!p.findChild<QPushButton*>(QStringLiteral("pipelineRunButton"))->isEnabled());
    }

    void recordingsFromFiles() {
        QTemporaryDir dir;
        const QString good = dir.filePath("good.json"), bad = dir.filePath("bad.json");
        QFile::copy(QStringLiteral(":/recordings/h100-hocfs-100m-1stream.json"), good);
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"device\": \"x\"}");
        }
        PipelinePanel p;
        const std::size_t before = p.recordings().size();
        QString error;
        QVERIFY(p.openRecording(good, &error));
        QCOMPARE(p.recordings().size(), before + 1);
        QCOMPARE(p.currentRun()->streams, 1);
        QVERIFY(!p.openRecording(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("pipeline")), qPrintable(error));
        QVERIFY(!p.openRecording(dir.filePath("missing.json"), &error));
        QVERIFY(!parseRecording("not json", &error).has_value());
    }

    // Issue 22: with a tensor loaded, a recording of another one says so in its summary.
    void aRecordingOfAnotherTensorSaysSo() {
        PipelinePanel p;
        QVERIFY(p.currentRun());
        auto data = std::make_shared<Dataset>();
        data->title = QStringLiteral("small.tns");
        data->tensor = tstest::random_tensor({20, 20, 20}, 300, 1);
        p.setDataset(data);
        auto* summary = p.findChild<QLabel*>(QStringLiteral("pipelineSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QStringLiteral("recording of another tensor")) && summary->text().contains(QStringLiteral("small.tns")),
                 qPrintable(summary->text()));
    }

    // Issue 15: a CPD that streamed its tensor (`decompose --limit-gpu-memory B --json`, here a
    // real H100 run) carries its last MTTKRP's timeline in the same terms; the view opens it and
    // draws its chunks (no one-stream run to compare with: the copies stay on the device side).
    void aStreamedCpdOpensAsARecording() {
        const QString path = QStringLiteral(TS_TEST_DATA_DIR "/recordings/h100-cpd-streamed-nell2-bcsf.json");
        QString error;
        const auto rec = readRecording(path, &error);
        QVERIFY2(rec.has_value(), qPrintable(error));
        QVERIFY(rec->device.contains(QStringLiteral("H100")));
        QCOMPARE(rec->format, QStringLiteral("B-CSF"));
        QCOMPARE(rec->nnz, std::uint64_t{76900000});
        const tscope::PipelineRun& run = rec->runs[rec->best];
        QCOMPARE(run.streams, 4);
        QVERIFY(run.chunks.size() > 4);
        QVERIFY(run.t_pipe > 0 && run.kernel_s > 0 && run.transfer_s > run.kernel_s);  // copy-bound, as measured
        PipelinePanel p;
        p.resize(1200, 700);
        p.show();
        QVERIFY2(p.openRecording(path, &error), qPrintable(error));
        QCOMPARE(p.currentRun()->chunks.size(), run.chunks.size());
        QCOMPARE(p.timeline()->itemCount(), int(3 * run.chunks.size()));
    }

    // A recording is input like any file (issue 24, item 13): chunks on streams the run does not
    // have, or with stage times that go backwards, are refused with where and why.
    void recordingsWithImpossibleChunksAreRefused() {
        auto recording = [](int stream, double kernel_end) {
            return QStringLiteral("{\"device\": \"x\", \"pipeline\": [{\"streams\": 4, \"chunks\": ["
                                  "{\"stream\": 0, \"in_start\": 0, \"in_end\": 1, \"kernel_start\": 1, \"kernel_end\": 2, \"out_start\": 2, \"out_end\": 3},"
                                  "{\"stream\": %1, \"in_start\": 1, \"in_end\": 2, \"kernel_start\": 2, \"kernel_end\": %2, \"out_start\": 3, \"out_end\": 4}]}]}")
                .arg(stream)
                .arg(kernel_end)
                .toUtf8();
        };
        QString error;
        QVERIFY(parseRecording(recording(3, 3), &error).has_value());
        QVERIFY(!parseRecording(recording(7, 3), &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("chunk 2")) && error.contains(QStringLiteral("stream 7")), qPrintable(error));
        QVERIFY(!parseRecording(recording(-5, 3), &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("stream -5")), qPrintable(error));
        QVERIFY(!parseRecording(recording(1, 1.5), &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("ends before it starts")), qPrintable(error));
    }
};

QTEST_MAIN(TestPipelinePanel)
#include "test_pipeline_panel.moc"
