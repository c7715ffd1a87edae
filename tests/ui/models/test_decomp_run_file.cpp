// A decompose run's JSON read back (models/DecompRunFile.hpp): a CPD run's setup comes with it
// (the Decompositions tab's "setup, once per run" chart was blank for every opened file); numbers
// no run can have are refused with words that name the iteration; files that are not regular,
// or larger than any recording, are not read.
#include <sys/stat.h>
#include <QTemporaryDir>
#include <QTest>

#include "models/DecompRunFile.hpp"
#include "test_support.hpp"

using namespace tsui;

namespace {

QByteArray run(const char* iterations, const char* extra = "") {
    return QByteArray(R"({"method": "cpd", "rank": 4, "format": "CSF", "backend": "omp", "iterations": [)") +
           iterations + "]" + extra + "}";
}

constexpr const char* kTwo = R"({"iter": 1, "seconds": 0.5, "iter_seconds": 0.5, "fit": 0.2},
                                {"iter": 2, "seconds": 0.9, "iter_seconds": 0.4, "fit": 0.3})";

}  // namespace

class TestDecompRunFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cpdSetupComesWithTheRun() {
        QString error;
        const auto f = parseDecompRun(
            run(kTwo,
                R"(, "setup": {"read_s": 0.16, "build_s": 0.35, "upload_s": 0.02, "built_on": "device"}, "peak_device_bytes": 1048576)"),
            &error);
        QVERIFY2(f, qPrintable(error));
        QVERIFY(f->run.setup);
        QCOMPARE(f->run.setup->readSeconds, 0.16);
        QCOMPARE(f->run.setup->buildSeconds, 0.35);
        QCOMPARE(f->run.setup->uploadSeconds, 0.02);
        QVERIFY(f->run.setup->builtOnDevice);
        QCOMPARE(f->run.setup->peakDeviceBytes, std::uint64_t{1048576});
        const auto older = parseDecompRun(run(kTwo), &error);  // a file without one: no setup, still a run
        QVERIFY2(older, qPrintable(error));
        QVERIFY(!older->run.setup);
    }

    // A Tucker run gives its core's size a mode ("ranks": [4, 4, 2]): its rank comes back, not 0
    // (an opened Tucker run was labelled "r0"), the sizes kept where they differ
    void tuckersCoreSizesAreItsRank() {
        QString error;
        const QByteArray iters = R"({"iter": 1, "seconds": 0.5, "fit": 0.2})";
        const auto same = parseDecompRun(
            QByteArray(R"({"method": "tucker", "ranks": [4, 4, 4], "iterations": [)") + iters + "]}", &error);
        QVERIFY2(same, qPrintable(error));
        QCOMPARE(same->run.rank, 4);
        QVERIFY(same->run.rankText.isEmpty());
        QCOMPARE(same->ranks, 1);  // one process
        const auto differ = parseDecompRun(
            QByteArray(R"({"method": "tucker", "ranks": [4, 4, 2], "iterations": [)") + iters + "]}", &error);
        QVERIFY2(differ, qPrintable(error));
        QCOMPARE(differ->run.rankText, QStringLiteral("4,4,2"));
        QVERIFY(!parseDecompRun(QByteArray(R"({"method": "tucker", "ranks": [4, 0], "iterations": [)") + iters + "]}",
                                &error));
        QVERIFY2(error.contains(QStringLiteral("\"ranks\"")), qPrintable(error));
    }

    // decompose --restarts K writes every start's curve under "starts": all K come back, each
    // with its start, the kept one named by "best_start" (from 1); only one did (sweep 71b)
    void everyStartOfARestartsRunComesBack() {
        QString error;
        const QByteArray json = run(kTwo, R"(, "setup": {"read_s": 0.1, "build_s": 0.2, "upload_s": 0}, "best_start": 2,
            "starts": [{"start": 1, "fit": 0.3, "iterations": [{"iter": 1, "seconds": 0.4, "fit": 0.1}, {"iter": 2, "seconds": 0.8, "fit": 0.3}]},
                       {"start": 2, "fit": 0.35, "iterations": [{"iter": 1, "seconds": 0.3, "fit": 0.2}, {"iter": 2, "seconds": 0.7, "fit": 0.35}]},
                       {"start": 3, "fit": 0.31, "iterations": [{"iter": 1, "seconds": 0.5, "fit": 0.3}]}])");
        const auto f = parseDecompRun(json, &error);
        QVERIFY2(f, qPrintable(error));
        const auto& its = f->run.iterations;
        QCOMPARE(its.size(), std::size_t{5});
        QCOMPARE(its[0].start, 0);
        QCOMPARE(its[2].start, 1);
        QCOMPARE(its[3].fit, 0.35);
        QCOMPARE(its[4].start, 2);
        QVERIFY(f->run.setup);
        QCOMPARE(f->run.setup->bestStart, 1);
        // a start's own iterations still go forward, and a fault names the start
        QByteArray back = json;
        back.replace(R"({"iter": 2, "seconds": 0.7)", R"({"iter": 2, "seconds": 0.2)");
        QVERIFY(!parseDecompRun(back, &error));
        QVERIFY2(error.contains("start 2, iteration 2"), qPrintable(error));
    }

    void impossibleNumbersAreRefused_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::addRow("negative seconds")
            << run(R"({"iter": 1, "seconds": -2.5e-3})") << QStringLiteral("iteration 1: its times");
        QTest::addRow("time going back") << run(R"({"iter": 1, "seconds": 0.5}, {"iter": 2, "seconds": 0.4})")
                                         << QStringLiteral("iteration 2: it comes after iteration 1");
        QTest::addRow("iter repeated") << run(R"({"iter": 1, "seconds": 0.5}, {"iter": 1, "seconds": 0.6})")
                                       << QStringLiteral("iteration 2: it comes after");
        QTest::addRow("fit past 1") << run(R"({"iter": 1, "seconds": 0.5, "fit": 1e308})") << QStringLiteral("past 1");
        QTest::addRow("negative rmse") << run(R"({"iter": 1, "seconds": 0.5, "train_rmse": -1})")
                                       << QStringLiteral("non-negative");
        QByteArray negativeRank = run(R"({"iter": 1, "seconds": 0.5})");
        negativeRank.replace("\"rank\": 4", "\"rank\": -5");
        QTest::addRow("negative rank") << negativeRank << QStringLiteral("\"rank\" should be a whole number");
        QTest::addRow("a million ranks") << run(R"({"iter": 1, "seconds": 0.5})", R"(, "ranks": 1000000)")
                                         << QStringLiteral("\"ranks\" should be");
        QTest::addRow("negative rows sent")
            << run(R"({"iter": 1, "seconds": 0.5})",
                   R"(, "ranks": 2, "per_rank": [{"nnz": 10, "comm_s": 0.1}, {"nnz": 12, "rows_sent": -40}])")
            << QStringLiteral("\"per_rank\" entry 2: its counts and seconds");
        QTest::addRow("huge nnz") << run(R"({"iter": 1, "seconds": 0.5})",
                                         R"(, "ranks": 1, "per_rank": [{"nnz": 1e300}])")
                                  << QStringLiteral("\"per_rank\" entry 1");
    }
    void impossibleNumbersAreRefused() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!parseDecompRun(json, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    // /dev/zero was read until memory ran out (std::bad_alloc, abort), a FIFO's open() waited for
    // a writer on the GUI thread; both are refused before they are opened, as is a huge file.
    void onlyRegularFilesOfARecordingsSizeAreRead() {
        QString error;
        QVERIFY(!readDecompRunFile(QStringLiteral("/dev/zero"), &error));
        QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("run.json"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(!readDecompRunFile(fifo, &error));
        QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));
        const QString big = dir.filePath(QStringLiteral("big.json"));
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(qint64{40} << 20));  // sparse: no disk used
        f.close();
        QVERIFY(!readDecompRunFile(big, &error));
        QVERIFY2(error.contains(QStringLiteral("larger than any recording")), qPrintable(error));
    }

    // An empty file is said to be empty (Qt's parser calls it "illegal value at offset 0").
    void emptyFilesAreSaidToBeEmpty() {
        QTemporaryDir dir;
        const QString empty = dir.filePath(QStringLiteral("empty.json")),
                      blank = dir.filePath(QStringLiteral("blank.json"));
        QFile(empty).open(QIODevice::WriteOnly);
        QFile b(blank);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write(" \n\t\n");
        b.close();
        QString error;
        QVERIFY(!readDecompRunFile(empty, &error));
        QCOMPARE(error, empty + QStringLiteral(": the file is empty"));
        QVERIFY(!readDecompRunFile(blank, &error));
        QCOMPARE(error, blank + QStringLiteral(": the file holds only white space"));
    }
};

QTEST_APPLESS_MAIN(TestDecompRunFile)
#include "test_decomp_run_file.moc"
