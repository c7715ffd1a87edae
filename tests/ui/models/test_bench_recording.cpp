// Recorded bench runs (models/BenchRecording.hpp): `bench --json` documents and `--jsonl` lines
// become the rows the Kernels tab shows, roofline figures and the gather ceiling included; rows
// that did not run keep their reason; malformed input is refused with words that name the line or
// row and the key; the bundled recordings parse; a packed SpTV vector shows in the table's note.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "models/BenchRecording.hpp"
#include "models/KernelResultsModel.hpp"
#include "test_support.hpp"

using namespace tsui;

namespace {

const char* kRanRow =
    R"j({"kernel": "mttkrp", "format": "B-CSF", "backend": "cuda", "variant": "", "path": "shared tiles", "mode": 2, "rank": 32, "ran": true,
        "median_s": 0.00225, "transfer_s": 0.15, "gflops": 3279, "gbps": 471, "bytes_moved": 1060000000, "min_bytes": 1060000000,
        "intensity": 6.96, "copy_gbps": 4217, "bound_s": 0.000251, "share_of_bound": 0.112, "peak_gflops": 66908,
        "peak_source": "device properties", "gather_bytes": 9843200000, "gather_gbps": 10513, "gather_bound_s": 0.000936,
        "share_of_gather_bound": 0.416, "build_seconds": 2.1, "seconds": [0.00226, 0.00225], "device": "NVIDIA H200",
        "max_rel_error": null})j";
const char* kMmcsfRow =
    R"j({"kernel": "mttkrp", "format": "MM-CSF", "backend": "cuda", "mode": 1, "rank": 32, "ran": true,
        "median_s": 0.00162, "gather_bytes": 6976000000, "gather_gbps": 10513, "add_bytes": 3712000000, "add_gbps": 4100,
        "gather_bound_s": 0.001569, "share_of_gather_bound": 0.969, "device": "NVIDIA H200"})j";
const char* kRefusedRow =
    R"j({"kernel": "mttkrp", "format": "HLS", "backend": "cuda", "mode": 1, "rank": 32, "ran": false,
        "error": "HLS is for order 3", "device": "NVIDIA H200"})j";

}  // namespace

class TestBenchRecording : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void jsonDocument() {
        const QByteArray doc =
            QByteArray(R"j({"file": "/tmp/nell2.tsb", "nnz": 76900000, "commit": "abc1234", "results": [)j") + kRanRow +
            "," + kRefusedRow + "," + kMmcsfRow + "]}";
        QString error;
        const auto r = parseBenchRecording(doc, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->rows.size(), std::size_t{3});
        QCOMPARE(r->device, QStringLiteral("NVIDIA H200"));  // from the rows where the header has none
        QCOMPARE(r->tensor, QStringLiteral("nell2.tsb (76,900,000 nonzeros)"));
        QCOMPARE(r->commit, QStringLiteral("abc1234"));
        const tscope::BenchResult& b = r->rows[0];
        QVERIFY(b.ran);
        QCOMPARE(b.kernel, tscope::KernelKind::MTTKRP);
        QCOMPARE(b.format, tscope::FormatKind::BCSF);
        QCOMPARE(b.backend, tscope::Backend::Cuda);
        QCOMPARE(b.mode, 1);  // 0-based
        QCOMPARE(b.rank, std::uint64_t{32});
        QCOMPARE(b.median_s, 0.00225);
        QCOMPARE(b.bytes_moved, std::uint64_t{1060000000});
        QCOMPARE(b.gather_bytes, std::uint64_t{9843200000});
        QCOMPARE(b.gather_bound_s, 0.000936);
        QCOMPARE(b.share_of_bound, 0.112);
        QCOMPARE(b.seconds.size(), std::size_t{2});
        QVERIFY(!b.max_rel_error);
        QVERIFY(!r->rows[1].ran);
        QCOMPARE(QString::fromStdString(r->rows[1].error), QStringLiteral("HLS is for order 3"));
        const tscope::BenchResult& m = r->rows[2];  // MM-CSF's atomic adds, in its bound too
        QCOMPARE(m.add_bytes, std::uint64_t{3712000000});
        QCOMPARE(m.add_gbps, 4100.0);
        QCOMPARE(m.gather_bound_s, 0.001569);
        QCOMPARE(r->rows[0].add_bytes, std::uint64_t{0});
        // the path the engine took: named in the table's format column
        QCOMPARE(QString::fromStdString(b.path), QStringLiteral("shared tiles"));
        QVERIFY(m.path.empty());
        KernelResultsModel model;
        model.setResults(r->rows);
        QCOMPARE(model.data(model.index(0, KernelResultsModel::Format)).toString(),
                 QStringLiteral("B-CSF (shared tiles)"));
        QCOMPARE(model.data(model.index(2, KernelResultsModel::Format)).toString(), QStringLiteral("MM-CSF"));
    }

    // A GPU SpTV row whose vector was packed (vector_packed): the recording keeps the count and
    // the Kernels table's note says it beside the device; a row without it says the device alone.
    void sptvPackedVector() {
        const QByteArray doc =
            QByteArray(R"j({"results": [{"kernel": "sptv", "format": "CFB", "backend": "cuda", "mode": 2,
            "rank": 1, "ran": true, "median_s": 0.00122, "vector_packed": 6553600, "device": "NVIDIA H200"}, )j") +
            kRanRow + "]}";
        QString error;
        const auto r = parseBenchRecording(doc, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->rows[0].vector_packed, std::uint64_t{6553600});
        QCOMPARE(r->rows[1].vector_packed, std::uint64_t{0});
        KernelResultsModel model;
        model.setResults(r->rows);
        const QString packed = model.data(model.index(0, KernelResultsModel::Note)).toString();
        QVERIFY2(packed.startsWith(QStringLiteral("NVIDIA H200")) && packed.contains(QStringLiteral("6,553,600")) &&
                     packed.contains(QStringLiteral("packed")),
                 qPrintable(packed));
        QCOMPARE(model.data(model.index(1, KernelResultsModel::Note)).toString(), QStringLiteral("NVIDIA H200"));
    }

    // --jsonl: a row a line, the summary last (it names the tensor)
    void jsonLines() {
        const QByteArray lines = QByteArray(kRanRow).replace('\n', ' ') + "\n" + QByteArray(kRefusedRow).replace('\n', ' ') +
                                 "\n" + R"j({"file": "/data/x.tns", "order": 3, "nnz": 12, "rows": 2})j" + "\n";
        QString error;
        const auto r = parseBenchRecording(lines, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->rows.size(), std::size_t{2});
        QCOMPARE(r->tensor, QStringLiteral("x.tns (12 nonzeros)"));
    }

    // Sweep 65c: a failed check's infinite error is null in JSON, as an unchecked row's is;
    // check_passed false tells it apart, and the row shows inf, not a dash.
    void aFailedCheckIsInfinite() {
        QByteArray failed = QByteArray(kRanRow).replace('\n', ' ');
        failed.replace("\"max_rel_error\": null", "\"max_rel_error\": null, \"check_passed\": false");
        const QByteArray lines = QByteArray(kRanRow).replace('\n', ' ') + "\n" + failed + "\n";
        QString error;
        const auto r = parseBenchRecording(lines, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->rows.size(), std::size_t{2});
        QVERIFY(!r->rows[0].max_rel_error);
        QVERIFY(r->rows[1].max_rel_error && std::isinf(*r->rows[1].max_rel_error));
    }

    // A --jsonl cut while its last row was written keeps the finished rows, and says so; a bad
    // line that is not the last is still refused.
    void jsonLinesCutShortKeepTheirFinishedRows() {
        const QByteArray row = QByteArray(kRanRow).replace('\n', ' ');
        QString error;
        const auto r = parseBenchRecording(row + "\n" + row + "\n" + row.left(row.size() / 2), &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->rows.size(), std::size_t{2});
        QVERIFY2(r->note.contains(QStringLiteral("line 3 was cut short")), qPrintable(r->note));
        QVERIFY(!parseBenchRecording(row + "\n" + row.left(row.size() / 2) + "\n" + row + "\n", &error));
        QVERIFY2(error.startsWith(QStringLiteral("line 2: ")), qPrintable(error));
    }

    void refusesWithWordsThatNameTheFault_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::addRow("not json") << QByteArray("{\"results\": [") << QStringLiteral("not JSON");
        QTest::addRow("no results") << QByteArray(R"j({"file": "x"})j") << QStringLiteral("no \"results\" list");
        QTest::addRow("no rows") << QByteArray(R"j({"results": []})j") << QStringLiteral("no benchmark rows");
        QTest::addRow("unknown format") << QByteArray(R"j({"results": [{"kernel": "mttkrp", "format": "XYZ", "backend": "omp", "mode": 1, "ran": false}]})j")
                                        << QStringLiteral("results[0]: ");
        QTest::addRow("mode 0") << QByteArray(R"j({"results": [{"kernel": "mttkrp", "format": "COO", "backend": "omp", "mode": 0, "ran": false}]})j")
                                << QStringLiteral("\"mode\" should be a whole number");
        QTest::addRow("mode past any order")
            << QByteArray(
                   R"j({"results": [{"kernel": "mttkrp", "format": "COO", "backend": "omp", "mode": 3e9, "ran": false}]})j")
            << QStringLiteral("\"mode\" should be a whole number from 1 to 16");
        QTest::addRow("negative rank")
            << QByteArray(
                   R"j({"results": [{"kernel": "sptv", "format": "COO", "backend": "omp", "mode": 1, "ran": true, "median_s": 1, "rank": -7}]})j")
            << QStringLiteral("\"rank\" should be a whole number");
        QTest::addRow("huge min_bytes")
            << QByteArray(
                   R"j({"results": [{"kernel": "sptv", "format": "COO", "backend": "omp", "mode": 1, "ran": true, "median_s": 1, "min_bytes": 1e308}]})j")
            << QStringLiteral("\"min_bytes\" should be a whole number");
        QTest::addRow("negative median") << QByteArray(R"j({"results": [{"kernel": "sptv", "format": "COO", "backend": "omp", "mode": 1, "ran": true, "median_s": -1}]})j")
                                         << QStringLiteral("\"median_s\" should be a non-negative number");
        QTest::addRow("ran without a median") << QByteArray(R"j({"results": [{"kernel": "sptv", "format": "COO", "backend": "omp", "mode": 1, "ran": true}]})j")
                                              << QStringLiteral("needs \"median_s\"");
        QTest::addRow("bad line") << QByteArray(R"j({"kernel": "sptv", "format": "COO", "backend": "omp", "mode": 1, "ran": false})j"
                                                "\n{oops\n")
                                  << QStringLiteral("line 2: ");
    }
    void refusesWithWordsThatNameTheFault() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!parseBenchRecording(json, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void fileErrorsStartWithThePath() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(tstest::write_file(path, "[1, 2]"));
        QString error;
        QVERIFY(!readBenchRecording(path, &error));
        QVERIFY2(error.startsWith(path), qPrintable(error));
        QVERIFY(!readBenchRecording(dir.filePath(QStringLiteral("absent.json")), &error));
        QVERIFY2(error.contains(QStringLiteral("cannot open")), qPrintable(error));
    }

    // The bundled H200 runs: every row ran on the GPU with its roofs, MTTKRP and SpTTM with a
    // gather ceiling.
    void bundledRecordingsParse() {
        QStringList errors;
        const std::vector<BenchRecording> all = bundledBenchRecordings(&errors);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        QVERIFY(all.size() >= 2);
        for (const BenchRecording& r : all) {
            QVERIFY(r.title.startsWith(QStringLiteral("Recorded: ")));
            QVERIFY2(r.device.contains(QStringLiteral("H200")), qPrintable(r.device));
            QVERIFY(!r.rows.empty());
            for (const tscope::BenchResult& row : r.rows) {
                QVERIFY(row.ran && row.backend == tscope::Backend::Cuda);
                QVERIFY(row.copy_gbps > 0 && row.peak_gflops > 0 && row.gather_bound_s > 0 && row.median_s > 0);
            }
        }
    }
};

QTEST_MAIN(TestBenchRecording)
#include "test_bench_recording.moc"
