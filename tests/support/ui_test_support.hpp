// Helpers for the GUI suites: a settings sandbox, and a main window with a tensor loaded.
#pragma once

#include <qcustomplot.h>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "panels/KernelsPanel.hpp"
#include "views/MainWindow.hpp"

namespace tstest {

// A dataset titled `title` holding random_tensor(dims, nnz, seed): a tab's tensor without a file.
inline tsui::DatasetPtr namedDataset(const QString& title, std::vector<std::uint64_t> dims, std::uint64_t nnz,
                                     std::uint64_t seed) {
    auto d = std::make_shared<tsui::Dataset>();
    d->title = title;
    d->tensor = random_tensor(std::move(dims), nnz, seed);
    return d;
}

// A plot's hint text (ui/plots/PlotHint.hpp), "" when hidden or absent.
inline QString plotHint(QCustomPlot* plot) {
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->objectName() == QLatin1String("tsui-plot-hint"))
            return t->visible() ? QString(t->text()).replace(QLatin1Char('\n'), QLatin1Char(' '))
                                : QString();  // as wrapped lines read
    return {};
}

inline void sandboxSettings(const char* suite) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("TensorscopeTests"));
    QCoreApplication::setApplicationName(QString::fromLatin1(suite));
    QSettings().clear();  // what a window remembers (views/WindowMemory) from the last run of the suite
}

// Opens `path` in `w` and waits until nothing runs in the background.
inline bool openAndWait(tsui::MainWindow& w, const QString& path, int ms = 120000) {
    QSignalSpy idle(&w, &tsui::MainWindow::idle);
    w.openFile(path);
    return idle.wait(ms) && w.dataset() != nullptr;
}

// Waits for the window's next idle signal (after starting a tab's work).
inline bool waitIdle(tsui::MainWindow& w, int ms = 120000) {
    QSignalSpy idle(&w, &tsui::MainWindow::idle);
    return idle.wait(ms);
}

// JF17K opened in `w`'s Kernels tab and one COO MTTKRP (rank 4, one repeat) run to its end:
// the Kernels tests' common start.
inline bool kernelsAfterOneCooRun(tsui::MainWindow& w) {
    if (!w.showTab(QStringLiteral("Kernels")) || !openAndWait(w, QStringLiteral(TS_SAMPLES_DIR "/jf17k-4d.tns.gz"))) return false;
    w.kernels()->configure(tscope::KernelKind::MTTKRP, {QStringLiteral("COO")}, 4, 1);
    w.kernels()->run();
    return waitIdle(w);
}

// An order-3 tensor with dense 16^3 blocks, written to `dir`: HLS finds dense tiles in it.
inline QString blockTensor(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("blocks.tns"));
    tscope::GeneratorSpec spec;
    spec.dims = {160, 128, 96};
    spec.nnz = 20000;
    spec.distribution = tscope::Distribution::Blocks;
    spec.blocks = 8, spec.block_edge = 16, spec.seed = 4;
    tscope::save_tensor(tscope::generate_tensor(spec), path.toStdString());
    return path;
}

}  // namespace tstest
