// The GUI binary's command line: FILE --tab NAME --screenshot PNG (README, "The GUI").
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
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
        QCOMPARE(runGui({QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"), QStringLiteral("--tab"),
                         QStringLiteral("Overview"), QStringLiteral("--screenshot"), png}),
                 0);
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 800 && image.height() >= 500);
    }

    void badFileStillScreenshotsButExitsTwo() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("error.png"));
        QByteArray err;
        QCOMPARE(runGui({QString::fromStdString(tstest::test_data("bad/negative_index.tns")), QStringLiteral("--screenshot"), png}, &err), 2);
        QVERIFY(err.contains("negative_index.tns:2:3"));
        QVERIFY(!QImage(png).isNull());
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

    void unknownTabIsAnError() {
        QByteArray err;
        QCOMPARE(runGui({QStringLiteral("--tab"), QStringLiteral("Nope")}, &err), 2);
        QVERIFY(err.contains("Overview"));
    }
};

QTEST_APPLESS_MAIN(TestGuiApp)
#include "test_gui_app.moc"
