// tensorscope [FILE] [--tab NAME] [--run] [--open-run JSON] [--open-bench JSON] [--memory-limit B] [--screenshot PNG] [--help] [--version]
// Opens FILE, shows the tab, and with --screenshot waits for the work to finish, saves the
// window as PNG and exits (status 0; 2 when the file could not be loaded or a tab's work failed). --help and
// --version answer without a display. SIGINT, SIGTERM and SIGHUP cancel the running work and
// quit (exit status 128 + the signal's number) with no temporary left behind.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTimer>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <unistd.h>

#include "models/BenchRecording.hpp"
#include "panels/DecompositionPanel.hpp"
#include "panels/KernelsPanel.hpp"
#include "tscope/blas_threads.hpp"
#include "tscope/io/temp_cleanup.hpp"
#include "tscope/text_words.hpp"
#include "views/MainWindow.hpp"
#include "views/OutputPath.hpp"
#include "views/SafeApplication.hpp"
#include "views/SignalQuit.hpp"

namespace {

const QCommandLineOption tab(QStringLiteral("tab"), QStringLiteral("The tab to show"), QStringLiteral("name"));
const QCommandLineOption shot(QStringLiteral("screenshot"), QStringLiteral("Wait for the work to finish, save the window as PNG, exit"),
                              QStringLiteral("png"));
const QCommandLineOption run(
    QStringLiteral("run"),
    QStringLiteral("Start the tab's work once FILE is loaded (Formats: the Advisor's Measure, Kernels: a benchmark, "
                   "Decompositions: a run, Pipeline: a live GPU run, Reorder: a comparison)"));

const QCommandLineOption openRun(
    QStringLiteral("open-run"),
    QStringLiteral("Open a decompose run's JSON (tensorscope-cli decompose ... --json, a distributed "
                   "run's too) in Decompositions; given again, each is overlaid"),
    QStringLiteral("json"));

const QCommandLineOption openBench(QStringLiteral("open-bench"),
                                   QStringLiteral("Show a recorded bench run (tensorscope-cli bench ... --json or --jsonl) in "
                                                  "Kernels, at its roofline"),
                                   QStringLiteral("json"));

const QCommandLineOption memoryLimit(
    QStringLiteral("memory-limit"),
    QStringLiteral("A tensor that would take more than B bytes (512M or 2G binary, 512MB decimal) opens "
                   "streamed: its Overview from a pass over the file, never loaded; text "
                   "is converted to a .tsb in the cache folder first (default: half the memory)"),
    QStringLiteral("B"));

// "512M", "2G", "512MB", "1048576": bytes (tscope::parse_byte_size, as the CLI reads them); 0 when
// the text is none of these, or is 2^64 bytes or more (17592186044417M wrapped to 1 MiB, which
// opened every tensor streamed).
std::uint64_t parse_bytes(const QString& text) {
    const tscope::ByteSize size = tscope::parse_byte_size(text.trimmed().toStdString());
    return size.valid && !size.too_large ? size.bytes : 0;
}

void describe(QCommandLineParser& parser) {
    QCoreApplication::setOrganizationName(QStringLiteral("Tensorscope"));
    QCoreApplication::setApplicationName(QStringLiteral("Tensorscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TS_VERSION));
    parser.setApplicationDescription(QStringLiteral("Tensorscope: an explorer for sparse tensor formats and kernels"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .tns, .tns.gz or .tsb tensor to open (optional)"),
                                 QStringLiteral("[file]"));
    parser.addOption(tab);
    parser.addOption(shot);
    parser.addOption(run);
    parser.addOption(openRun);
    parser.addOption(openBench);
    parser.addOption(memoryLimit);
}

// --help and --version print and exit 0 before any window system is opened (QApplication
// aborts without a display).
bool asks_only_for_text(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        for (const char* a : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], a) == 0) return true;
    return false;
}

// The GUI runs engine work from several worker threads (WorkPools: one per running tab's job,
// and the survey's), and libgomp gives each its own OpenMP team. With OpenMP's default waiting,
// a team's threads spin after each parallel region (GOMP_SPINCOUNT 300,000) on cores another
// team may need. On the 2-core VM the Advisor's Measure on MovieLens timed ALTO (several
// parallel regions a mode) at 4.2-4.4 ms a sweep with OMP_WAIT_POLICY=active and 1.7-3.9 ms
// with passive waiting (Kendall tau 0.58-0.61 against 0.60-0.89); the CLI takes 1.3-1.5 ms. So
// passive waiting narrows the gap but does not close it. libgomp reads the policy once, as it
// loads, before main, so the process sets it and starts itself again (same pid: signals and
// the caller's wait still reach it). A policy the user set is kept; where the exec fails, the
// run goes on as it was. The same exec carries OPENBLAS_NUM_THREADS=1 under an address-space
// limit (tscope/blas_threads.hpp).
void wait_passively_in_openmp(char** argv) {
    const bool blas = tscope::ask_one_blas_thread_if_limited();  // under ulimit -v: no OpenBLAS worker to hang on
    const bool omp = !std::getenv("OMP_WAIT_POLICY") && setenv("OMP_WAIT_POLICY", "PASSIVE", 1) == 0;
    if (blas || omp) execv("/proc/self/exe", argv);
}

}  // namespace

int main(int argc, char** argv) {
    wait_passively_in_openmp(argv);
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
    // a screenshot that cannot be written is said now, not after the tab's work has run
    if (parser.isSet(shot)) {
        if (const QString why = tsui::whyNotWritable(parser.value(shot), true); !why.isEmpty()) {
            std::fprintf(stderr, "tensorscope: --screenshot %s: %s\n", qPrintable(parser.value(shot)), qPrintable(why));
            return 2;
        }
    }

    // SIGINT, SIGTERM, SIGHUP: cancel the running work and quit through the event loop, so that
    // the jobs stop and remove what they were writing as the window below is destroyed (it is
    // declared after this, so destroyed first, while a second signal still ends it at once).
    tsui::SignalQuit signalQuit;
    tsui::MainWindow window;
    QObject::connect(&signalQuit, &tsui::SignalQuit::received, &window, [&window](int sig) {
        std::fprintf(stderr, "tensorscope: %s: cancelling the running work and quitting\n", strsignal(sig));
        window.saveWindowMemory();  // as a closed window does
        window.job()->cancel();
        QApplication::exit(tsui::SignalQuit::exitStatus(sig));
    });
    if (parser.isSet(memoryLimit)) {
        const std::uint64_t bytes = parse_bytes(parser.value(memoryLimit));
        if (bytes == 0) {
            std::fprintf(stderr,
                         "tensorscope: --memory-limit takes a size such as 512M, 2G or 512MB (with %s; under 16 EiB), "
                         "not '%s'\n",
                         tscope::kByteSizeSuffixes, qPrintable(parser.value(memoryLimit)));
            return 2;
        }
        window.setTensorMemoryLimit(bytes);
    }
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
        for (const QString& file : parser.values(openRun)) {  // each given, overlaid (only the last was shown)
            QString error;
            if (!window.decompositions()->openRunFile(file, &error)) {
                std::fprintf(stderr, "tensorscope: %s\n", qPrintable(error));
                return 2;
            }
        }
        if (!parser.isSet(tab)) window.showTab(QStringLiteral("Decompositions"));
    }
    if (parser.isSet(openBench)) {
        QString error;
        const std::optional<tsui::BenchRecording> recording = tsui::readBenchRecording(parser.value(openBench), &error);
        if (!recording) {
            std::fprintf(stderr, "tensorscope: %s\n", qPrintable(error));
            return 2;
        }
        window.kernels()->showRecording(*recording);
        if (!parser.isSet(tab)) window.showTab(QStringLiteral("Kernels"));
    }
    if (parser.isSet(run)) window.runCurrentTabWhenLoaded();
    if (!files.isEmpty()) window.openFile(files.first());

    if (parser.isSet(shot)) {
        const QString png = parser.value(shot);
        auto capture = [&window, png] {
            // one more turn of the event loop so that the last layout and paint happen
            QTimer::singleShot(300, &window, [&window, png] {
                if (!window.saveScreenshot(png)) {
                    const QString why = tsui::whyNotWritable(png, true);  // changed since the start, or a full disk
                    std::fprintf(stderr, "tensorscope: cannot write %s%s%s\n", qPrintable(png),
                                 why.isEmpty() ? "" : ": ", qPrintable(why));
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
