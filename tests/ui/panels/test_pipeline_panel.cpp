// The Pipeline tab: the bundled GPU recordings (1 and 4 streams, with their device) load and
// draw one rectangle per chunk stage and lane; recordings open from files, bad ones say why;
// without a GPU the live run is disabled with the reason.
#include <qcustomplot.h>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>

#include "models/PipelineRecording.hpp"
#include "plots/PlotInspector.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/pipeline/pipeline_prediction.hpp"
#include "views/TextFormat.hpp"
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
        QCOMPARE(p.stageCount(), std::size_t(3 * (run->chunks.size() + run->sync_chunks.size())));
        QCOMPARE(p.timeline()->yAxis->range().upper > run->streams, true);
        QVERIFY(p.summaryText().contains(QStringLiteral("Sec. 6.2")));
        auto* bars = qobject_cast<QCPBars*>(p.comparison()->plottable(0));
        QVERIFY(bars && bars->dataCount() == 3);
        QCOMPARE(bars->data()->at(1)->value, run->t_pipe);
        if (!tscope::query_gpu().available)
            QVERIFY(!p.findChild<QPushButton*>(QStringLiteral("pipelineRunButton"))->isEnabled());
    }

    // --tab Pipeline --run without a GPU: the window's banner says why (it ran nothing, exit 0)
    void aRunWithoutAGpuSaysWhyInTheBanner() {
        if (tscope::query_gpu().available) QSKIP("this machine has a GPU: the live run runs");
        MainWindow w;
        w.show();
        QVERIFY(w.showTab(QStringLiteral("Pipeline")));
        QVERIFY(tstest::openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz")));
        w.pipeline()->runOwnWork();
        QVERIFY2(w.errorText().startsWith(QStringLiteral("Pipeline: cannot run here")), qPrintable(w.errorText()));
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
        p.setPredicted(false);  // the recording itself, not the prediction from it
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
        QCOMPARE(p.stageCount(), std::size_t(3 * run.chunks.size()));
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

    // Sweep 64: every count and time of a run is checked before it is drawn. INT_MAX streams
    // (a lane each) hung the GUI; negative times and wrapped counts were drawn as measured.
    void recordingsWithImpossibleRunsAreRefused() {
        auto recording = [](const QString& top, const QString& run, const QString& chunk) {
            return QStringLiteral(
                       "{\"device\": \"x\", %1 \"pipeline\": [{\"streams\": 2, %2 \"chunks\": ["
                       "{\"stream\": 0, \"in_start\": 0, \"in_end\": 1, \"kernel_start\": 1, \"kernel_end\": 2, "
                       "\"out_start\": 2, \"out_end\": 3},"
                       "{\"stream\": 1, %3 \"in_start\": 1, \"in_end\": 2, \"kernel_start\": 2, \"kernel_end\": 3, "
                       "\"out_start\": 3, \"out_end\": 4}]}]}")
                .arg(top, run, chunk)
                .toUtf8();
        };
        QString error;
        QVERIFY2(parseRecording(recording({}, {}, {}), &error).has_value(), qPrintable(error));
        const std::pair<QByteArray, const char*> bad[] = {
            {recording({}, QStringLiteral("\"streams\": 2147483647,"), {}),
             "\"streams\" must be a whole number from 1 to 64"},
            {recording({}, QStringLiteral("\"streams\": 2.5,"), {}), "run 1: \"streams\" must be a whole number"},
            {recording({}, QStringLiteral("\"t_pipe\": -1,"), {}), "run 1: \"t_pipe\" must be a time in seconds"},
            {recording({}, QStringLiteral("\"t_pipe\": 100,"), {}), "run 1: T_p of 100 s, but its chunks span 4 s"},
            {recording({}, QStringLiteral("\"overlap\": -2,"), {}), "\"overlap\""},
            {recording({}, QStringLiteral("\"chunk_bytes\": -1,"), {}), "\"chunk_bytes\" must be a whole number"},
            {recording(QStringLiteral("\"nnz\": -5,"), {}, {}), "\"nnz\" must be a whole number"},
            {recording(QStringLiteral("\"nnz\": 1e30,"), {}, {}), "\"nnz\" must be a whole number"},
            {recording({}, {}, QStringLiteral("\"entries\": 1.5,")), "run 1, pipelined chunk 2: \"entries\""},
        };
        for (const auto& [json, says] : bad) {
            QVERIFY2(!parseRecording(json, &error).has_value(), json.constData());
            QVERIFY2(error.contains(QString::fromUtf8(says)), qPrintable(error));
        }
        // a chunk's stream that is not a whole number is not read as stream 0
        QByteArray fractional = recording({}, {}, {});
        fractional.replace("\"stream\": 1,", "\"stream\": 1.7,");
        QVERIFY(!parseRecording(fractional, &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("chunk 2")) && error.contains(QStringLiteral("whole number")),
                 qPrintable(error));
    }

    // Sweep 64: a recording's names are text, not markup, and a very long one does not widen the
    // window; a recording of 30,000 chunks draws as one plottable, not 90,000 items.
    void namesAreTextAndManyChunksDrawAsOne() {
        QTemporaryDir dir;
        QString chunks;
        const int n = 30000;
        for (int i = 0; i < n; ++i)
            chunks += QStringLiteral(
                          "%1{\"stream\": %2, \"entries\": 10, \"bytes_in\": 100, \"in_start\": %3, \"in_end\": %4, "
                          "\"kernel_start\": %4, \"kernel_end\": %5, \"out_start\": %5, \"out_end\": %6}")
                          .arg(i ? QStringLiteral(",") : QString())
                          .arg(i % 4)
                          .arg(i * 1e-6)
                          .arg(i * 1e-6 + 4e-7)
                          .arg(i * 1e-6 + 7e-7)
                          .arg(i * 1e-6 + 9e-7);
        const QString device = QStringLiteral("<h1>BIG</h1>") + QString(3000, QLatin1Char('X'));
        const QString path = dir.filePath(QStringLiteral("many.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("{\"device\": \"%1\", \"format\": \"<u>F</u>\", \"pipeline\": [{\"streams\": 4, "
                                   "\"chunks\": [%2]}]}")
                        .arg(device, chunks)
                        .toUtf8());
        }
        PipelinePanel p;
        p.setPredicted(false);
        p.resize(1200, 700);
        p.show();
        QString error;
        QVERIFY2(p.openRecording(path, &error), qPrintable(error));
        QCOMPARE(p.stageCount(), std::size_t(3 * n));
        QCOMPARE(p.timeline()->itemCount(), 0);
        QVERIFY2(p.summaryText().contains(QStringLiteral("&lt;h1&gt;BIG")) &&
                     p.summaryText().contains(QStringLiteral("&lt;u&gt;F")),
                 qPrintable(p.summaryText().left(300)));
        QVERIFY(p.current()->device.size() <= 80);
        QVERIFY2(p.minimumSizeHint().width() < 1280, qPrintable(QString::number(p.minimumSizeHint().width())));
        p.timeline()->replot();  // all of them drawn, once
    }

    // Sweep 64: a streamed CPD records no one-stream run and no model: those read "not
    // recorded", with no bar, rather than 0 s and a speedup of 0.00.
    void timesARecordingLacksAreSaidSo() {
        PipelinePanel p;
        p.setPredicted(false);
        QString error;
        QVERIFY2(
            p.openRecording(QStringLiteral(TS_TEST_DATA_DIR "/recordings/h100-cpd-streamed-nell2-bcsf.json"), &error),
            qPrintable(error));
        QVERIFY2(p.summaryText().contains(QStringLiteral("(one stream) not recorded")) &&
                     p.summaryText().contains(QStringLiteral("model (Sec. 6.2) not recorded")) &&
                     !p.summaryText().contains(QStringLiteral("0.00")),
                 qPrintable(p.summaryText()));
        auto* bars = qobject_cast<QCPBars*>(p.comparison()->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->dataCount(), 1);
        QCOMPARE(bars->data()->at(0)->key, 2.0);
        auto ticker = p.comparison()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker && ticker->ticks().value(1).contains(QStringLiteral("not recorded")));
    }

    // Issue 22: with no GPU the tab draws the loaded tensor's timeline predicted from a
    // recording's device figures (Sec. 6.2), says so, and reads out each stage under the cursor.
    // A chunk size is said in the binary units it is set in: the recording's 64 MiB chunks read
    // "67.1 MB" beside the "64 MiB chunks" choice (sweep 70c C6).
    void chunkSizesReadInTheirOwnUnits() {
        QCOMPARE(binaryBytes(64u << 20), QStringLiteral("64 MiB"));
        QCOMPARE(binaryBytes(1536), QStringLiteral("1.5 KiB"));
        PipelinePanel p;
        PipelineRecording rec;
        rec.title = QStringLiteral("chunks");
        rec.format = QStringLiteral("HOCFS-CSR");
        tscope::PipelineRun run;
        run.streams = 4, run.chunk_bytes = 64u << 20;
        tscope::PipelineChunk c;
        c.bytes_in = 1000, c.entries = 10, c.in_end = 1e-3, c.kernel_start = 1e-3, c.kernel_end = 2e-3,
        c.out_start = 2e-3, c.out_end = 3e-3;
        run.chunks = run.sync_chunks = {c};
        run.t_sync = run.t_pipe = run.t_model = 3e-3;
        rec.runs = {run};
        p.addRecording(rec);
        const QString shown = p.findChild<QComboBox*>(QStringLiteral("pipelineRun"))->currentText();
        QVERIFY2(shown.contains(QStringLiteral("4 streams × 64 MiB")), qPrintable(shown));
    }

    void theLoadedTensorsTimelineIsPredictedAndSaysSo() {
        PipelinePanel p;
        p.resize(1200, 700);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        // a recording with small chunks, so that the small tensor is cut into several
        PipelineRecording rec;
        rec.title = QStringLiteral("test device run");
        rec.device = QStringLiteral("Test GPU");
        rec.format = QStringLiteral("HOCFS-CSR");
        rec.nnz = 4000;
        tscope::PipelineRun run;
        run.streams = 3;
        run.chunk_bytes = 16 << 10;
        tscope::PipelineChunk c;
        c.bytes_in = 16000, c.bytes_out = 400, c.entries = 2000;
        c.in_start = 0, c.in_end = 1e-3, c.kernel_start = 1e-3, c.kernel_end = 1.2e-3, c.out_start = 1.2e-3, c.out_end = 1.25e-3;
        run.sync_chunks = run.chunks = {c};
        run.t_sync = run.t_pipe = run.t_model = 1.25e-3;
        rec.runs = {run};
        p.addRecording(rec);
        QVERIFY(p.currentRun() && p.currentRun()->chunk_bytes == run.chunk_bytes);
        // the run list's T_p is the recording's, and says so beside a prediction (sweep 72b)
        auto* runs = p.findChild<QComboBox*>(QStringLiteral("pipelineRun"));
        QVERIFY(runs);
        QVERIFY2(runs->currentText().endsWith(QStringLiteral(": measured T_p 1.25 ms")),
                 qPrintable(runs->currentText()));

        auto data = std::make_shared<Dataset>();
        data->title = QStringLiteral("loaded.tns");
        data->tensor = tstest::random_tensor({200, 90, 70}, 30000, 4);
        p.setDataset(data);
        p.setPredicted(true);  // the default without a GPU; with one the user ticks it
        QTRY_VERIFY_WITH_TIMEOUT(p.predictedRun() != nullptr, 30000);
        const tscope::PipelineRun& pr = *p.predictedRun();

        // the chunks are the engine's cut of the loaded tensor, over the recording's streams
        const auto kind = tscope::FormatKind::HOCFS_CSR;
        const auto f = tscope::build_format(kind, data->tensor, tscope::sptv_options(kind, 3, 2));
        QCOMPARE(pr.chunks.size(), tscope::pipeline_chunk_plan(*f, run.chunk_bytes).size());
        QVERIFY(pr.chunks.size() > 3);
        QCOMPARE(pr.streams, 3);
        QVERIFY(pr.t_pipe < pr.t_sync);
        // at 16 MB/s in, each chunk's copy-in takes its bytes / 16e6 s
        QCOMPARE(pr.chunks[0].in_end - pr.chunks[0].in_start, double(pr.chunks[0].bytes_in) / 16e6);

        // labelled as predicted, in the tab and on the plot, with T_s, T_p and the speedup
        QVERIFY2(p.predictionText().contains(QStringLiteral("Predicted, not measured")) && p.predictionText().contains(rec.title),
                 qPrintable(p.predictionText()));
        QVERIFY(p.findChild<QLabel*>(QStringLiteral("pipelinePrediction"))->isVisible());
        // which product it times (sweep 70c C10: the tab contracts the last mode, the CLI --mode)
        QVERIFY2(p.summaryText().contains(QStringLiteral("contracting mode 3")), qPrintable(p.summaryText()));
        QVERIFY2(p.summaryText().contains(QStringLiteral("predicted")) && p.summaryText().contains(QStringLiteral("speedup")) &&
                     p.summaryText().contains(humanSeconds(pr.t_pipe)),
                 qPrintable(p.summaryText()));
        auto* title = qobject_cast<QCPTextElement*>(p.timeline()->plotLayout()->element(0, 0));
        QVERIFY(title && title->visible() && title->text().contains(QStringLiteral("PREDICTED")));
        QCOMPARE(p.stageCount(), std::size_t(3 * (pr.chunks.size() + pr.sync_chunks.size())));

        // the hover readout over the second chunk's kernel, on stream 2
        p.timeline()->replot();
        const tscope::PipelineChunk& k = pr.chunks[1];
        QCOMPARE(k.stream, 1);
        const double lane = pr.streams - 1 - k.stream;  // lanes: the one-stream run on top, then streams 1..s
        const QPointF at(p.timeline()->xAxis->coordToPixel((k.kernel_start + k.kernel_end) / 2), p.timeline()->yAxis->coordToPixel(lane));
        const QString text = PlotInspector::of(p.timeline())->textAt(at);
        QVERIFY2(text.contains(QStringLiteral("chunk 2")) && text.contains(QStringLiteral("stream 2")) &&
                     text.contains(QStringLiteral("kernel")) && text.contains(humanSeconds(k.kernel_start)) &&
                     text.contains(humanSeconds(k.kernel_end - k.kernel_start)) && text.contains(QStringLiteral("predicted")),
                 qPrintable(text));
        QVERIFY(PlotInspector::of(p.timeline())->textAt(QPointF(2, 2)).isEmpty());  // off the chunks: nothing

        // unticked, the recording shows as measured again
        p.setPredicted(false);
        QVERIFY(p.predictedRun() == nullptr);
        QVERIFY(p.predictionText().isEmpty());
        QVERIFY(!title->visible());
        QCOMPARE(p.stageCount(), std::size_t{3 * 2});
    }
};

QTEST_MAIN(TestPipelinePanel)
#include "test_pipeline_panel.moc"
