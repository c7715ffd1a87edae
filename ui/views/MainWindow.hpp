// The explorer's main window: dataset panel (left), tabs (centre), progress and cancel (status
// bar), an error banner that never blocks. Opening files: menu, drag and drop, recent files,
// bundled samples, the Generate dialog.
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <vector>

#include "jobs/DatasetJob.hpp"
#include "models/Dataset.hpp"
#include "panels/Panel.hpp"

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QFrame;
class QUrl;

namespace tsui {

class DatasetPanel;
class DecompositionPanel;
class DensityPanel;
class FormatsPanel;
class KernelsPanel;
class OverviewPanel;
class PipelinePanel;
class TeachingPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // Saves the geometry and each tab's remembered choices, as closing the window does; for a
    // quit that closes no window (a signal: sweep 68a B5, it saved nothing).
    void saveWindowMemory();
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openFile(const QString& path);
    void openRequest(const DatasetRequest& request);
    // Selects a tab by its title (case-insensitive); false when there is none of that name.
    bool showTab(const QString& name);
    QStringList tabNames() const;
    bool saveScreenshot(const QString& path);
    // A .tsb whose tensor would take more than this many bytes is opened streamed: its Overview
    // and Density from passes over the file (0: half the physical memory; tests set it small).
    void setTensorMemoryLimit(std::uint64_t bytes) { tensorMemoryLimit_ = bytes; }
    // Whether the tab of that title can be chosen (a streamed tensor leaves Overview and Density).
    bool tabEnabled(const QString& name) const;
    // For a streamed tensor: loads the first mode-1 slices that fit (the Overview's button).
    void openSampleOfStreamed();

    DatasetPtr dataset() const { return dataset_; }
    DatasetJob* job() const { return job_; }
    // The tabs, in their order on screen.
    const std::vector<Panel*>& panels() const { return panels_; }
    // The tab of type T (include its header), or nullptr.
    template <class T>
    T* panel() const {
        for (Panel* p : panels_)
            if (auto* t = qobject_cast<T*>(p)) return t;
        return nullptr;
    }
    // Shorthands for panel<T>(), which the tests use.
    OverviewPanel* overview() const;
    FormatsPanel* formats() const;
    DensityPanel* density() const;
    KernelsPanel* kernels() const;
    PipelinePanel* pipeline() const;
    DecompositionPanel* decompositions() const;
    TeachingPanel* teaching() const;
    // Starts the current tab's own work (Kernels: a benchmark, Decompositions: a run, Pipeline:
    // a live run where there is a GPU) as soon as a dataset is loaded; for --run.
    void runCurrentTabWhenLoaded();
    // True while any tab still works in the background (loading, building formats, ...).
    bool isBusy() const;
    DatasetPanel* datasetPanel() const { return datasetPanel_; }
    QString errorText() const;
    QStringList recentFiles() const;

Q_SIGNALS:
    void datasetChanged(tsui::DatasetPtr dataset);
    // Nothing runs in the background any more (for --screenshot).
    void idle();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildStatusBar();
    QWidget* buildCentre();
    void chooseFile();
    void chooseGenerate();
    // The FROSTT dialog, on dataset `name` where given.
    void chooseDataset(const QString& name = {});
    static QString catalogNameOf(const QUrl& url);
    void onStarted(const QString& what);
    void onProgress(int permille, const QString& stage);
    void onFinished(DatasetPtr dataset);
    void onFailed(const QString& message);
    void onCancelled();
    void setBusy(bool busy);
    void showError(const QString& message);
    void addRecent(const QString& spelled);
    bool forgetIfGone(const QString& path);
    static bool isBundledSample(const QString& path);
    void runWhenIdle(Panel* tab);
    void buildKeyboardMenus();
    void cancelShownWork();
    void refreshRecentMenu();

    // Tabs other than the Overview need the tensor in memory: off for a streamed one.
    void enableTabsFor(const Dataset& dataset);
    static bool streamable(const QWidget* tab);
    // Whether `tab` can show `dataset`: streamable tabs for a streamed one, the Overview alone for one without nonzeros.
    static bool usable(const QWidget* tab, const Dataset& dataset);

    DatasetPtr dataset_;
    std::uint64_t tensorMemoryLimit_ = 0;
    DatasetJob* job_;
    DatasetPanel* datasetPanel_;
    std::vector<Panel*> panels_;  // owned by tabs_
    bool runWhenLoaded_ = false;
    QPointer<Panel> pendingRun_;  // a --run waiting for its tab's last work to end (runWhenIdle)
    QTabWidget* tabs_;
    QFrame* banner_;
    QLabel* bannerText_;
    QLabel* statusText_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QMenu* recentMenu_;
    QString lastRequestedFile_;
};

}  // namespace tsui
