// The GUI binary's command line: FILE --tab NAME --screenshot PNG (README, "The GUI").
#include <sys/types.h>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <csignal>
#include <cstring>

#include "test_support.hpp"

namespace {

int runGui(const QStringList& args, QByteArray* err = nullptr) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir::tempPath() + QStringLiteral("/tensorscope-test-config"));
    p.setProcessEnvironment(env);
    p.start(TS_BIN_DIR "/tensorscope", args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        return -1;
    }
    if (err) *err = p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

}  // namespace

class TestGuiApp : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void screenshotOfALoadedTensor() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("overview.png"));
        QByteArray err;
        QCOMPARE(runGui({QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"), QStringLiteral("--tab"),
                         QStringLiteral("Overview"), QStringLiteral("--screenshot"), png},
                        &err),
                 0);
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 800 && image.height() >= 500);
        // grabbing the window lays out the hidden tabs too: the Pipeline tab's comparison plot was
        // 0 high there, and QCustomPlot warned six times painting its empty buffers
        QVERIFY2(!err.contains("QPainter") && !err.contains("inactive painter"), err.constData());
    }

    void badFileStillScreenshotsButExitsTwo() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("error.png"));
        QByteArray err;
        QCOMPARE(runGui({QString::fromStdString(tstest::test_data("bad/negative_index.tns")), QStringLiteral("--screenshot"), png}, &err), 2);
        QVERIFY(err.contains("negative_index.tns:2:3"));
        QVERIFY(!QImage(png).isNull());
    }

    // --open-bench: a recorded run shown in Kernels and screenshot; a file that is no bench run
    // exits 2 naming it, before any window work.
    void openBenchShowsARecordedRun() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("recorded.png"));
        const QString json = dir.filePath(QStringLiteral("run.jsonl"));
        QVERIFY(tstest::write_file(json, R"j({"kernel": "sptv", "format": "COO", "backend": "omp", "mode": 1, "rank": 1, "ran": true, "median_s": 0.001, "gflops": 2, "intensity": 0.1, "copy_gbps": 20, "peak_gflops": 50, "device": "a test CPU"})j"
                "\n"));
        QCOMPARE(runGui({QStringLiteral("--open-bench"), json, QStringLiteral("--screenshot"), png}), 0);
        QVERIFY(!QImage(png).isNull());
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(tstest::write_file(bad, "{\"file\": \"x\"}"));
        QByteArray err;
        QCOMPARE(runGui({QStringLiteral("--open-bench"), bad}, &err), 2);
        QVERIFY2(err.contains("bad.json") && err.contains("no \"results\" list"), err.constData());
    }

    // Issue 22: --help and --version answer with no display at all (QApplication aborted, 134).
    void helpAndVersionWithoutADisplay() {
        for (const char* option : {"--help", "--version"}) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove(QStringLiteral("DISPLAY"));
            env.remove(QStringLiteral("WAYLAND_DISPLAY"));
            env.remove(QStringLiteral("QT_QPA_PLATFORM"));
            p.setProcessEnvironment(env);
            p.start(TS_BIN_DIR "/tensorscope", {QString::fromLatin1(option)});
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 0);
            const QByteArray out = p.readAllStandardOutput();
            QVERIFY2(out.contains(std::strcmp(option, "--help") == 0 ? "--screenshot" : "Tensorscope 0."), out.constData());
        }
    }

    // The GUI runs OpenMP with passive waiting (gui_main.cpp says why) unless the user chose a
    // policy: libgomp's verbose display gives the spin count it settled on (0 when passive).
    void openmpWaitsPassivelyUnlessTheUserChose_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<bool>("passive");
        QTest::addRow("unset") << QString() << true;
        QTest::addRow("user's active") << QStringLiteral("ACTIVE") << false;
    }
    void openmpWaitsPassivelyUnlessTheUserChose() {
        QFETCH(QString, policy);
        QFETCH(bool, passive);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("OMP_WAIT_POLICY"));
        env.remove(QStringLiteral("GOMP_SPINCOUNT"));
        if (!policy.isEmpty()) env.insert(QStringLiteral("OMP_WAIT_POLICY"), policy);
        env.insert(QStringLiteral("OMP_DISPLAY_ENV"), QStringLiteral("verbose"));
        p.setProcessEnvironment(env);
        p.start(TS_BIN_DIR "/tensorscope", {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray err = p.readAllStandardError();
        // the last display is the running process's (the first, where it restarts, is the default's)
        const qsizetype at = err.lastIndexOf("GOMP_SPINCOUNT = '");
        QVERIFY2(at >= 0, err.constData());
        const QByteArray spin = err.mid(at + 18, err.indexOf('\'', at + 18) - at - 18);
        QVERIFY2((spin == "0") == passive, spin.constData());
    }

    // Issue 24: SIGTERM and SIGINT while a tensor loads cancel the load and quit through the
    // event loop (exit status 128 + the signal), not a crash; nothing is left in the folder.
    void signalsCancelTheWorkAndQuit_data() {
        QTest::addColumn<int>("sig");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
    }
    void signalsCancelTheWorkAndQuit() {
        QFETCH(int, sig);
        QTemporaryDir dir;
        const QString big = dir.filePath(QStringLiteral("big.tns"));
        QProcess gen;  // seconds of parsing, so that the signal comes while the load runs
        gen.start(TS_BIN_DIR "/tensorscope-cli", {QStringLiteral("generate"), QStringLiteral("--dims"), QStringLiteral("3000,3000,3000"),
                                                 QStringLiteral("--nnz"), QStringLiteral("4000000"), QStringLiteral("-o"), big});
        QVERIFY(gen.waitForFinished(300000));
        QCOMPARE(gen.exitCode(), 0);

        QProcess p;
        QTemporaryDir config;  // its own, to see the window's memory saved (sweep 68a B5: a signal saved none)
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
        p.setProcessEnvironment(env);
        // the signal at its default in the window: a parent that ignores it (a test run started
        // with & ignores SIGINT) is obeyed now, as nohup's SIGHUP is
        p.setChildProcessModifier([sig] { ::signal(sig, SIG_DFL); });
        p.start(TS_BIN_DIR "/tensorscope", {big});
        QVERIFY(p.waitForStarted());
        QTest::qWait(1500);  // the window is up and the load under way
        QVERIFY(p.state() == QProcess::Running);
        ::kill(static_cast<pid_t>(p.processId()), sig);
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + sig);
        QVERIFY2(err.contains("cancelling the running work and quitting"), err.constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("big.tns")});
        bool saved = false;
        QDirIterator it(config.path(), {QStringLiteral("*.conf")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            saved |= f.open(QIODevice::ReadOnly) && f.readAll().contains("geometry=");
        }
        QVERIFY(saved);
    }

    // Issue 18: the window opens a tensor four times the memory a tensor may take, shows its
    // Overview and Density from passes over the file, and its own resident peak (VmHWM, read
    // from /proc while it runs; its last value before the exit) stays under a quarter of what
    // the tensor takes in memory. 24M nonzeros, 480 MB in memory; --memory-limit 64M.
    void opensATensorLargerThanItsMemory() {
        QTemporaryDir dir;
        const QString tsb = dir.filePath(QStringLiteral("big.tsb"));
        QProcess gen;
        gen.start(TS_BIN_DIR "/tensorscope-cli", {QStringLiteral("generate"), QStringLiteral("--dims"), QStringLiteral("200000,150000,100000"),
                                                 QStringLiteral("--nnz"), QStringLiteral("24000000"), QStringLiteral("-o"), tsb});
        QVERIFY(gen.waitForFinished(300000));
        QCOMPARE(gen.exitCode(), 0);
        const std::uint64_t inMemory = std::uint64_t{24000000} * (3 * 4 + 8);

        const QString png = dir.filePath(QStringLiteral("density.png"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir::tempPath() + QStringLiteral("/tensorscope-test-config"));
        p.setProcessEnvironment(env);
        p.start(TS_BIN_DIR "/tensorscope", {tsb, QStringLiteral("--memory-limit"), QStringLiteral("64M"), QStringLiteral("--tab"),
                                            QStringLiteral("Density"), QStringLiteral("--screenshot"), png});
        QVERIFY(p.waitForStarted());
        const QString status = QStringLiteral("/proc/%1/status").arg(p.processId());
        std::uint64_t peak = 0;
        while (!p.waitForFinished(20)) {
            QFile f(status);
            if (!f.open(QIODevice::ReadOnly)) continue;
            for (const QByteArray& line : f.readAll().split('\n'))
                if (line.startsWith("VmHWM:")) peak = line.mid(6).trimmed().split(' ').first().toULongLong() * 1024;
        }
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(!QImage(png).isNull());
        qInfo("the window's resident peak with a %llu-byte tensor streamed: %llu bytes", static_cast<unsigned long long>(inMemory),
              static_cast<unsigned long long>(peak));
        QVERIFY(peak > 0);
        if (!TS_UNDER_ASAN)  // its shadow memory and quarantine are no window's
            QVERIFY2(peak < inMemory / 4,
                     qPrintable(QString("peak %1 bytes, a quarter is %2").arg(peak).arg(inMemory / 4)));
    }

    void unknownTabIsAnError() {
        QByteArray err;
        QCOMPARE(runGui({QStringLiteral("--tab"), QStringLiteral("Nope")}, &err), 2);
        QVERIFY(err.contains("Overview"));
    }

    // --run whose tab is off for the tensor (here: no nonzeros) says so and exits 2; it switched
    // to another tab, ran nothing and exited 0 without a word.
    void runOnATabThatIsOffSaysWhy() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("allzero.tns"));
        QVERIFY(tstest::write_file(path, "1 1 1 0\n2 2 2 0\n"));
        QByteArray err;
        QCOMPARE(runGui({path, QStringLiteral("--tab"), QStringLiteral("Kernels"), QStringLiteral("--run"),
                         QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("k.png"))},
                        &err),
                 2);
        QVERIFY2(err.contains("Nothing was run: the Kernels tab is off for this tensor") && err.contains("no nonzeros"),
                 err.constData());
    }

    // A size of 2^64 bytes or more is refused, not wrapped (17592186044417M read as 1 MiB and
    // opened every tensor streamed; 17179869184G as 0).
    // --open-run given twice opens both: a bad first file is said, where only the last was read
    // and the first ignored
    void everyOpenRunIsRead() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(tstest::write_file(bad, "{}"));
        const QString good = QStringLiteral(TS_TEST_DATA_DIR "/runs/jf17k-cpd-4-ranks.json");
        const QString png = dir.filePath(QStringLiteral("runs.png"));
        QByteArray err;
        QCOMPARE(runGui({QStringLiteral("--open-run"), bad, QStringLiteral("--open-run"), good,
                         QStringLiteral("--screenshot"), png},
                        &err),
                 2);
        QVERIFY2(err.contains("bad.json"), err.constData());
        QCOMPARE(runGui({QStringLiteral("--open-run"), good, QStringLiteral("--open-run"), good,
                         QStringLiteral("--screenshot"), png},
                        &err),
                 0);
    }

    void memoryLimitPast64BitsIsAnError() {
        for (const char* size : {"17592186044417M", "17179869184G", "garbage"}) {
            QByteArray err;
            QCOMPARE(runGui({QStringLiteral("--memory-limit"), QString::fromLatin1(size)}, &err), 2);
            QVERIFY2(err.contains("takes a size such as 512M"), err.constData());
        }
        // decimal units as the window shows sizes, and binary ones spelled out (512MB was refused)
        QTemporaryDir dir;
        for (const char* size : {"512MB", "1GiB"}) {
            QByteArray err;
            const QString png = dir.filePath(QStringLiteral("limit.png"));
            QCOMPARE(runGui({QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"), QStringLiteral("--memory-limit"),
                             QString::fromLatin1(size), QStringLiteral("--screenshot"), png},
                            &err),
                     0);
            QVERIFY2(!err.contains("takes a size"), err.constData());
        }
    }

    // A screenshot that cannot be written is said, with why, before the tensor loads ("cannot
    // write x.png" came after the work, with no reason).
    void unwritableScreenshotSaysWhyAtOnce_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("why");
        QTest::newRow("missing folder") << QStringLiteral("nodir/x.png") << QStringLiteral("does not exist");
        QTest::newRow("a folder") << QString() << QStringLiteral("is a folder");
        QTest::newRow("no image format") << QStringLiteral("x.foo") << QStringLiteral("names no image format");
    }
    void unwritableScreenshotSaysWhyAtOnce() {
        QFETCH(QString, name);
        QFETCH(QString, why);
        QTemporaryDir dir;
        QByteArray err;
        QCOMPARE(runGui({QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"), QStringLiteral("--screenshot"),
                         name.isEmpty() ? dir.path() : dir.filePath(name)},
                        &err),
                 2);
        QVERIFY2(err.contains("--screenshot") && err.contains(why.toUtf8()) && !err.contains("Loaded"),
                 err.constData());
    }
};

QTEST_APPLESS_MAIN(TestGuiApp)
#include "test_gui_app.moc"
