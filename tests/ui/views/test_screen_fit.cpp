// A window's first size stays on its screen (sweep 74a F2: the Open dataset dialog's buttons
// below a 600 px screen's edge, and past a 1920 x 1080 screen at 200%).
#include <QtTest>

#include "views/DatasetDialog.hpp"
#include "views/ScreenFit.hpp"

using namespace tsui;

class TestScreenFit : public QObject {
    Q_OBJECT

private slots:
    void keptWithinTheScreen() {
        // the dialog's 980 x 620 on 1920 x 1080 at 200% (960 x 540 logical), a title bar and margin kept
        QCOMPARE(fitToScreen(QSize(980, 620), QSize(960, 540), QSize(40, 60)), QSize(920, 480));
        QCOMPARE(fitToScreen(QSize(980, 620), QSize(1024, 600), QSize(40, 60)), QSize(980, 540));
        QCOMPARE(fitToScreen(QSize(980, 620), QSize(2560, 1440), QSize(40, 60)), QSize(980, 620));  // room: as asked
        QCOMPARE(fitToScreen(QSize(1280, 800), QSize(1366, 728), QSize(0, 40)), QSize(1280, 688));
        QCOMPARE(fitToScreen(QSize(980, 620), QSize(30, 50), QSize(40, 60)), QSize(1, 1));  // never empty
    }

    // offscreen keeps the default, so that screenshots keep their size
    void offscreenKeepsTheDefault() {
        QCOMPARE(QGuiApplication::platformName(), QStringLiteral("offscreen"));
        DatasetDialog dialog(QStringLiteral("/nonexistent/catalog.json"), QDir::tempPath());
        QCOMPARE(dialog.size(), QSize(980, 620));
    }
};

QTEST_MAIN(TestScreenFit)
#include "test_screen_fit.moc"
