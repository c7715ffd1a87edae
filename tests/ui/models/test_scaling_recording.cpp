// Scaling recordings (bench JSON of `tensorscope-cli bench --gpus N --json`): two recordings,
// at 1 and 2 GPUs, give one line per format whose points are the modes' median_s summed per GPU
// count, labelled with the GPU's name; rows without "gpus", of other kernels or that did not
// run are left out; bad JSON and malformed rows are refused with words that name the fault.
#include <QTemporaryDir>
#include <QTest>

#include "models/ScalingRecording.hpp"

using namespace tsui;

namespace {

// One `bench --gpus N --json` document: COO and CSF over modes 1-3, mode m of format f taking
// base * m seconds (COO) or base * m / 2 (CSF), half of it in collectives.
QByteArray benchDocument(int gpus, double base) {
    QByteArray rows;
    for (const char* format : {"COO", "CSF"})
        for (int mode = 1; mode <= 3; ++mode) {
            const double s = base * mode / (QByteArray(format) == "CSF" ? 2 : 1);
            rows += QStringLiteral(R"j({"kernel": "mttkrp", "format": "%1", "backend": "cuda", "mode": %2, "rank": 32,
                  "ran": true, "median_s": %3, "kernel_s": %4, "collective_s": %4, "gpus": %5,
                  "per_gpu_nnz": [1000], "device": "%5 x NVIDIA H200"},)j")
                        .arg(QLatin1String(format))
                        .arg(mode)
                        .arg(s, 0, 'g', 17)
                        .arg(s / 2, 0, 'g', 17)
                        .arg(gpus)
                        .toUtf8();
        }
    // left out: an omp row (no "gpus"), an SpTV row, and a multi-GPU row that did not run
    rows +=
        R"j({"kernel": "mttkrp", "format": "COO", "backend": "omp", "mode": 1, "ran": true, "median_s": 9, "device": "cpu"},
               {"kernel": "sptv", "format": "COO", "backend": "cuda", "mode": 1, "ran": true, "median_s": 9, "gpus": 1},
               {"kernel": "mttkrp", "format": "HLS", "backend": "cuda", "mode": 1, "ran": false, "median_s": 0, "gpus": 2,
                "error": "the multi-GPU MTTKRP runs on COO, CSF, B-CSF and MM-CSF, not HLS"})j";
    return R"j({"file": "/tmp/nell2.tsb", "order": 3, "dims": [10, 20, 30], "nnz": 76900000, "results": [)j" + rows +
           "]}";
}

const ScalingLine* lineOf(const std::vector<ScalingLine>& lines, const QString& format) {
    for (const ScalingLine& l : lines)
        if (l.format == format) return &l;
    return nullptr;
}

}  // namespace

class TestScalingRecording : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void twoRecordingsSumTheModesPerGpuCount() {
        // as a JSON list of the two documents, and as two recordings read apart: the same lines
        QString error;
        const auto both =
            parseScalingRecording("[" + benchDocument(1, 0.5) + "," + benchDocument(2, 0.25) + "]", &error);
        QVERIFY2(both, qPrintable(error));
        const auto one = parseScalingRecording(benchDocument(1, 0.5), &error);
        const auto two = parseScalingRecording(benchDocument(2, 0.25), &error);
        QVERIFY2(one && two, qPrintable(error));
        QCOMPARE(both->rows.size(), std::size_t{12});  // 2 formats x 3 modes x 2 GPU counts
        QCOMPARE(both->device, QStringLiteral("NVIDIA H200"));
        QVERIFY(both->title.contains(QStringLiteral("1, 2 GPUs")));
        QVERIFY(both->tensor.startsWith(QStringLiteral("nell2.tsb")));

        for (const std::vector<ScalingLine>& lines : {scalingLines({*both}), scalingLines({*one, *two})}) {
            QCOMPARE(lines.size(), std::size_t{2});
            const ScalingLine* coo = lineOf(lines, QStringLiteral("COO"));
            const ScalingLine* csf = lineOf(lines, QStringLiteral("CSF"));
            QVERIFY(coo && csf);
            QCOMPARE(coo->device, QStringLiteral("NVIDIA H200"));
            QVERIFY(!coo->sharedGpu);
            QVERIFY(!coo->modesDiffer());
            QCOMPARE(coo->points.size(), std::size_t{2});
            // a sweep: modes 1 + 2 + 3, so 6 x base
            QCOMPARE(coo->points[0].gpus, 1);
            QCOMPARE(coo->points[0].seconds, 3.0);
            QCOMPARE(coo->points[0].modes, 3);
            QCOMPARE(coo->points[0].collectiveSeconds, 1.5);
            QCOMPARE(coo->points[1].gpus, 2);
            QCOMPARE(coo->points[1].seconds, 1.5);
            QCOMPARE(csf->points[0].seconds, 1.5);
            QCOMPARE(csf->points[1].seconds, 0.75);
            QCOMPARE(csf->points[1].kernelSeconds, 0.375);
        }
    }

    void aBenchRecordNamesItsDevice() {
        // docs/bench style: device, commit, command at the top level; rows nested under "bench";
        // "2 parts on one" GPU rows are marked shared
        const QByteArray json =
            R"j({"device": "NVIDIA H200 (nvidia-h200-x2)", "commit": "abc", "command": "bench --gpus 2",
            "bench": {"file": "x.tns", "results": [
              {"kernel": "mttkrp", "format": "CSF", "mode": 1, "ran": true, "median_s": 0.5, "gpus": 2,
               "device": "2 parts on one NVIDIA H200"},
              {"kernel": "mttkrp", "format": "CSF", "mode": 1, "ran": true, "median_s": 0.75, "gpus": 1,
               "device": "1 x NVIDIA H200"}]}})j";
        QString error;
        const auto r = parseScalingRecording(json, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->commit, QStringLiteral("abc"));
        const std::vector<ScalingLine> lines = scalingLines({*r});
        QCOMPARE(lines.size(), std::size_t{1});
        QCOMPARE(lines[0].device, QStringLiteral("NVIDIA H200 (nvidia-h200-x2)"));
        QVERIFY(lines[0].sharedGpu);
        QCOMPARE(lines[0].points.front().gpus, 1);  // sorted by GPU count
        QCOMPARE(lines[0].points.back().seconds, 0.5);
    }

    void badInputIsRefusedInWords_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated") << QByteArray(R"j({"results": [{"gpus": 2,)j") << QStringLiteral("not JSON: ");
        QTest::newRow("not a document") << QByteArray("[1, 2]") << QStringLiteral("document 1: not an object");
        QTest::newRow("no results")
            << QByteArray(R"j({"file": "x.tns"})j")
            << QStringLiteral("no \"results\" list in it (is it `tensorscope-cli bench --gpus N --json` output?)");
        QTest::newRow("no multi-GPU rows")
            << QByteArray(R"j({"results": [{"kernel": "mttkrp", "format": "COO", "mode": 1, "median_s": 1}]})j")
            << QStringLiteral("none of its 1 results has \"gpus\"");
        QTest::newRow("none ran")
            << QByteArray(
                   R"j({"results": [{"format": "COO", "mode": 1, "ran": false, "gpus": 2, "error": "no CUDA device"}]})j")
            << QStringLiteral("none of its 1 multi-GPU rows ran (the first: no CUDA device)");
        QTest::newRow("gpus a word")
            << QByteArray(R"j({"results": [{"format": "COO", "mode": 1, "median_s": 1, "gpus": "two"}]})j")
            << QStringLiteral("results[0]: \"gpus\" should be a whole number of at least 1");
        QTest::newRow("negative time in the second document")
            << QByteArray(R"j([{"results": [{"format": "COO", "mode": 1, "median_s": 1, "gpus": 1}]},
                              {"results": [{"format": "COO", "mode": 1, "median_s": 1, "gpus": 2},
                                           {"format": "COO", "mode": 2, "median_s": -1, "gpus": 2}]}])j")
            << QStringLiteral("document 2: results[1]: \"median_s\" should be a non-negative number of seconds");
        QTest::newRow("no format") << QByteArray(R"j({"results": [{"mode": 1, "median_s": 1, "gpus": 1}]})j")
                                   << QStringLiteral("results[0]: no \"format\"");
    }

    void badInputIsRefusedInWords() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!parseScalingRecording(json, &error));
        QVERIFY2(error.startsWith(expected) || error.contains(expected), qPrintable(error));
        QVERIFY(!parseScalingRecording(json, nullptr));  // no error wanted: still no crash
    }

    void filesNameThemselvesInErrors() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad-scaling-x.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ nope");
        f.close();
        QString error;
        QVERIFY(!readScalingRecording(bad, &error));
        QVERIFY2(error.startsWith(bad + QStringLiteral(": not JSON")), qPrintable(error));
        QVERIFY(!readScalingRecording(dir.filePath(QStringLiteral("absent.json")), &error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot open")), qPrintable(error));
    }

    void bundledRecordingsAllParse() {
        QStringList errors;
        bundledScalingRecordings(&errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestScalingRecording)
#include "test_scaling_recording.moc"
