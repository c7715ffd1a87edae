// Issue 18's memory test, for the streamed statistics: `info FILE.tsb --streamed` on a tensor
// of 120 MB in memory peaks below a quarter of that (its own report of its resident peak,
// VmHWM), and its slice figures equal the loaded run's.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/generator.hpp"

namespace {

QJsonObject runCli(const QStringList& args, int* status) {
    QProcess p;
    p.start(TS_BIN_DIR "/tensorscope-cli", args);
    if (!p.waitForFinished(300000)) p.kill();
    *status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

}  // namespace

class TestCliStreamedMemory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void staysUnderAQuarterOfTheTensor() {
        QTemporaryDir dir;
        const QString tsb = dir.filePath("t.tsb");
        tscope::GeneratorSpec spec;
        spec.dims = {20000, 20000, 20000};
        spec.nnz = 6000000;
        tscope::parse_distribution("powerlaw:0.8", spec);
        std::uint64_t in_memory = 0;
        {
            const tscope::CooTensor t = tscope::generate_tensor(spec);
            in_memory = t.bytes();
            tscope::save_tensor(t, tsb.toStdString());
        }
        QVERIFY(in_memory >= 100'000'000);

        int status = -1;
        const QJsonObject streamed = runCli({"info", tsb, "--streamed", "--part-nnz", "262144", "--json"}, &status);
        QCOMPARE(status, 0);
        const auto peak = static_cast<std::uint64_t>(streamed["peak_host_bytes"].toInteger());
        QVERIFY(peak > 0);
        qInfo("streamed statistics of a %llu-byte tensor: peak %llu bytes", static_cast<unsigned long long>(in_memory),
              static_cast<unsigned long long>(peak));
        QVERIFY2(peak < in_memory / 4, qPrintable(QString("peak %1 bytes, a quarter is %2").arg(peak).arg(in_memory / 4)));

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
};

QTEST_APPLESS_MAIN(TestCliStreamedMemory)
#include "test_cli_streamed_memory.moc"
