// Issue 18's memory tests: `info FILE.tsb --streamed` on a tensor of 120 MB in memory peaks
// below a quarter of that (its own report of its resident peak, VmHWM), and its slice figures
// equal the loaded run's; `formats FILE.tsb --streamed` (the format-storage survey predicted
// from counts over the file) stays under the quarter and gives the built formats' bytes where
// its counts are exact; `convert FILE.tns OUT.tsb --memory 8M` of the same tensor as text stays
// under the quarter too, and writes the tensor the loader reads.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/generator.hpp"

namespace {

QJsonObject runCli(const QStringList& args, int* status) {
    QProcess p;
    p.start(TS_BIN_DIR "/tensorscope-cli", args);
    if (!p.waitForFinished(300000)) p.kill();
    *status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

constexpr std::uint64_t kNnz = 6000000;

// The tests' tensor (6M nonzeros, 120 MB in memory) written to `path`; returns its bytes in memory.
std::uint64_t writeTensor(const QString& path, const char* dist = "powerlaw:0.8") {
    tscope::GeneratorSpec spec;
    spec.dims = {20000, 20000, 20000};
    spec.nnz = kNnz;
    tscope::parse_distribution(dist, spec);
    const tscope::CooTensor t = tscope::generate_tensor(spec);
    tscope::save_tensor(t, path.toStdString());
    return t.bytes();
}

}  // namespace

class TestCliStreamedMemory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void staysUnderAQuarterOfTheTensor() {
        QTemporaryDir dir;
        const QString tsb = dir.filePath("t.tsb");
        const std::uint64_t in_memory = writeTensor(tsb);
        QVERIFY(in_memory >= 100'000'000);

        int status = -1;
        const QJsonObject streamed = runCli({"info", tsb, "--streamed", "--part-nnz", "262144", "--json"}, &status);
        QCOMPARE(status, 0);
        const auto peak = static_cast<std::uint64_t>(streamed["peak_host_bytes"].toInteger());
        QVERIFY(peak > 0);
        qInfo("streamed statistics of a %llu-byte tensor: peak %llu bytes", static_cast<unsigned long long>(in_memory),
              static_cast<unsigned long long>(peak));
        if (!TS_UNDER_ASAN)  // its shadow memory and quarantine are no reader's
            QVERIFY2(peak < in_memory / 4,
                     qPrintable(QString("peak %1 bytes, a quarter is %2").arg(peak).arg(in_memory / 4)));

        const QJsonObject loaded = runCli({"info", tsb, "--json"}, &status);
        QCOMPARE(status, 0);
        QCOMPARE(streamed["nnz"].toInteger(), loaded["nnz"].toInteger());
        for (int m = 0; m < 3; ++m) {
            const QJsonObject a = loaded["modes"].toArray()[m].toObject(), b = streamed["modes"].toArray()[m].toObject();
            QCOMPARE(b["slices"].toInteger(), a["slices"].toInteger());
            QCOMPARE(b["slice_nnz"].toObject()["max"].toInteger(), a["slice_nnz"].toObject()["max"].toInteger());
            QCOMPARE(b["slice_nnz"].toObject()["log2_histogram"].toArray(), a["slice_nnz"].toObject()["log2_histogram"].toArray());
        }
    }

    // The survey holds a block of whole slices of mode 1 at a time (about a part, sorted once per
    // tree layout): the power law's largest slice of mode 1 here holds 176,000 nonzeros, so this
    // tensor is uniform along mode 1 (slices of about 300) and skewed along the others.
    void formatSurveyStaysUnderAQuarterOfTheTensor() {
        QTemporaryDir dir;
        const QString tsb = dir.filePath("t.tsb");
        const std::uint64_t in_memory = writeTensor(tsb, "powerlaw:0,0.8,0.8");
        int status = -1;
        const QJsonObject streamed = runCli({"formats", tsb, "--streamed", "--part-nnz", "16384", "--json"}, &status);
        QCOMPARE(status, 0);
        const auto peak = static_cast<std::uint64_t>(streamed["peak_host_bytes"].toInteger());
        qInfo("streamed format survey of a %llu-byte tensor: peak %llu bytes, %.2f s", static_cast<unsigned long long>(in_memory),
              static_cast<unsigned long long>(peak), streamed["seconds"].toDouble());
        QVERIFY(peak > 0);
        if (!TS_UNDER_ASAN)  // its shadow memory and quarantine are no reader's
            QVERIFY2(peak < in_memory / 4,
                     qPrintable(QString("peak %1 bytes, a quarter is %2").arg(peak).arg(in_memory / 4)));
        // the built formats whose predictions come from exact counts: CSF and B-CSF rooted at mode 1, HiCOO, HLS, ALTO
        const QJsonObject built = runCli({"formats", tsb, "--format", "CSF,B-CSF,HiCOO,HLS,ALTO", "--mode", "1", "--json"}, &status);
        QCOMPARE(status, 0);
        int compared = 0;
        for (const auto& b : built["formats"].toArray())
            for (const auto& p : streamed["formats"].toArray()) {
                const QJsonObject bo = b.toObject(), po = p.toObject();
                if (bo["name"] != po["name"] || bo["mode"] != po["mode"]) continue;
                QCOMPARE(po["prediction"].toString(), QStringLiteral("exact"));
                QCOMPARE(po["bytes"].toInteger(), bo["bytes"].toInteger());
                ++compared;
            }
        QCOMPARE(compared, 5);
    }

    void convertStaysUnderAQuarterOfTheTensor() {
        QTemporaryDir dir;
        const QString tns = dir.filePath("t.tns"), tsb = dir.filePath("t.tsb");
        const std::uint64_t in_memory = writeTensor(tns);
        int status = -1;
        const QJsonObject r = runCli({"convert", tns, tsb, "--memory", "8M", "--json"}, &status);
        QCOMPARE(status, 0);
        const auto peak = static_cast<std::uint64_t>(r["peak_host_bytes"].toInteger());
        qInfo("bounded convert of a %llu-byte tensor: %lld runs, peak %llu bytes, %.2f s",
              static_cast<unsigned long long>(in_memory), r["runs"].toInteger(), static_cast<unsigned long long>(peak),
              r["seconds"].toDouble());
        QVERIFY(r["runs"].toInteger() >= 10);
        QVERIFY(peak > 0);
        if (!TS_UNDER_ASAN)  // its shadow memory and quarantine are no reader's
            QVERIFY2(peak < in_memory / 4,
                     qPrintable(QString("peak %1 bytes, a quarter is %2").arg(peak).arg(in_memory / 4)));
        QCOMPARE(static_cast<std::uint64_t>(r["nnz"].toInteger()), kNnz);  // the generator makes no duplicates

        const tscope::LoadedTensor text = tscope::load_tensor(tns.toStdString());
        const tscope::LoadedTensor converted = tscope::load_tensor(tsb.toStdString());
        std::string why;
        QVERIFY2(tscope::same_entries(text.tensor, converted.tensor, &why), why.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCliStreamedMemory)
#include "test_cli_streamed_memory.moc"
