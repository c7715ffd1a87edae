// tensorscope [FILE] [--tab NAME] [--run] [--open-run JSON] [--screenshot PNG] [--help] [--version]
// Opens FILE, shows the tab, and with --screenshot waits for the work to finish, saves the
// window as PNG and exits (status 0, or 2 when the file could not be loaded). --help and
// --version answer without a display. SIGINT, SIGTERM and SIGHUP cancel the running work and
// quit (exit status 128 + the signal's number) with no temporary left behind.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "panels/DecompositionPanel.hpp"
#include "views/MainWindow.hpp"
#include "views/SafeApplication.hpp"
#include "views/SignalQuit.hpp"
#include "tscope/io/temp_cleanup.hpp"

namespace {

const QCommandLineOption tab(QStringLiteral("tab"), QStringLiteral("The tab to show"), QStringLiteral("name"));
const QCommandLineOption shot(QStringLiteral("screenshot"), QStringLiteral("Wait for the work to finish, save the window as PNG, exit"),
                              QStringLiteral("png"));
const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Start the tab's work once FILE is loaded (Kernels: a benchmark, "
                                                                   "Decompositions: a run, Pipeline: a live GPU run)"));

const QCommandLineOption openRun(QStringLiteral("open-run"),
                                 QStringLiteral("Open a decompose run's JSON (tensorscope-cli decompose ... --json, a distributed "
                                                "run's too) in Decompositions"),
                                 QStringLiteral("json"));

void describe(QCommandLineParser& parser) {
    QCoreApplication::setOrganizationName(QStringLiteral("Tensorscope"));
    QCoreApplication::setApplicationName(QStringLiteral("Tensorscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TS_VERSION));
    parser.setApplicationDescription(QStringLiteral("Tensorscope: an explorer for sparse tensor formats and kernels"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("A .tns, .tns.gz or .tsb tensor to open"));
    parser.addOption(tab);
    parser.addOption(shot);
    parser.addOption(run);
    parser.addOption(openRun);
}

// --help and --version print and exit 0 before any window system is opened (QApplication
// aborts without a display).
bool asks_only_for_text(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        for (const char* a : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], a) == 0) return true;
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    tscope::install_temp_cleanup_on_signals();
    if (asks_only_for_text(argc, argv)) {
        QCoreApplication text_only(argc, argv);
        QCommandLineParser parser;
        describe(parser);
        parser.process(text_only);  // prints, exits 0
        return 0;
    }
    tsui::SafeApplication app(argc, argv);
    QCommandLineParser parser;
    describe(parser);
    parser.process(app);

    // SIGINT, SIGTERM, SIGHUP: cancel the running work and quit through the event loop, so that
    // the jobs stop and remove what they were writing as the window below is destroyed (it is
    // declared after this, so destroyed first, while a second signal still ends it at once).
    tsui::SignalQuit signalQuit;
    tsui::MainWindow window;
    QObject::connect(&signalQuit, &tsui::SignalQuit::received, &window, [&window](int sig) {
        std::fprintf(stderr, "tensorscope: %s: cancelling the running work and quitting\n", strsignal(sig));
        window.job()->cancel();
        QApplication::exit(tsui::SignalQuit::exitStatus(sig));
    });
    window.show();
    if (parser.isSet(tab) && !window.showTab(parser.value(tab))) {
        std::fprintf(stderr, "tensorscope: no tab named '%s' (tabs: %s)\n", qPrintable(parser.value(tab)),
                     qPrintable(window.tabNames().join(QStringLiteral(", "))));
        return 2;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1) {
        std::fprintf(stderr, "tensorscope: give one file at most\n");
        return 2;
    }
    if (parser.isSet(openRun)) {
        QString error;
        if (!window.decompositions()->openRunFile(parser.value(openRun), &error)) {
            std::fprintf(stderr, "tensorscope: %s\n", qPrintable(error));
            return 2;
        }
        if (!parser.isSet(tab)) window.showTab(QStringLiteral("Decompositions"));
    }
    if (parser.isSet(run)) window.runCurrentTabWhenLoaded();
    if (!files.isEmpty()) window.openFile(files.first());

    if (parser.isSet(shot)) {
        const QString png = parser.value(shot);
        auto capture = [&window, png] {
            // one more turn of the event loop so that the last layout and paint happen
            QTimer::singleShot(300, &window, [&window, png] {
                if (!window.saveScreenshot(png)) {
                    std::fprintf(stderr, "tensorscope: cannot write %s\n", qPrintable(png));
                    QApplication::exit(1);
                    return;
                }
                if (!window.errorText().isEmpty()) std::fprintf(stderr, "tensorscope: %s\n", qPrintable(window.errorText()));
                QApplication::exit(window.errorText().isEmpty() ? 0 : 2);
            });
        };
        if (files.isEmpty())
            capture();
        else
            QObject::connect(&window, &tsui::MainWindow::idle, &window, capture);
    }
    return app.exec();
}
