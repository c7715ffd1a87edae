// The Pipeline tab (hocfs-sptv-pipeline Sec. 6.2, Fig. 13 made visible): a timeline with one
// lane per CUDA stream, a colour per stage (copy-in, kernel, copy-out), the same chunks run
// synchronously on a lane above, T_s vs T_p vs the model, and the overlap. Runs live on this
// machine's GPU; without one it shows the bundled recordings (labelled with their device).
#pragma once

#include <vector>

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/PipelineRecording.hpp"
#include "panels/Panel.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;

namespace tsui {

class PipelinePanel : public Panel {
    Q_OBJECT

public:
    explicit PipelinePanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Pipeline"); }
    void setDataset(const DatasetPtr& dataset) override;
    bool isBusy() const override { return job_.isBusy(); }
    bool runOwnWork() override;
    // Adds a recording (from a file or a live run) and shows it.
    void addRecording(PipelineRecording recording);
    bool openRecording(const QString& path, QString* error);
    const std::vector<PipelineRecording>& recordings() const { return recordings_; }
    const PipelineRecording* current() const;
    const tscope::PipelineRun* currentRun() const;
    QCustomPlot* timeline() const { return timeline_; }
    QCustomPlot* comparison() const { return compare_; }
    QString summaryText() const;
    // Starts a live run on the GPU with the chosen settings (no-op with the reason shown when
    // there is no GPU or no tensor).
    void runLive();

private:
    QString otherTensorNote(const PipelineRecording& r) const;
    static tscope::PipelineReport stream(const tscope::CooTensor& t, tscope::FormatKind kind,
                                         const tscope::PipelineOptions& options, tscope::RunControl& control);
    void showRecording(int index);
    void showRun(int index);
    void drawTimeline(const tscope::PipelineRun& run);
    void drawComparison(const tscope::PipelineRun& run);
    // The live run ended, whichever way: the controls are usable again.
    void settle(const QString& status);

    DatasetPtr dataset_;
    std::vector<PipelineRecording> recordings_;
    EngineJob job_;
    QString gpuReason_;  // empty when a GPU is here
    QComboBox* source_;
    QComboBox* run_;
    QComboBox* format_;
    QComboBox* streams_;
    QComboBox* chunk_;
    QPushButton* runButton_;
    QPushButton* cancel_;
    QLabel* status_;
    QLabel* summary_;
    QCustomPlot* timeline_;
    QCustomPlot* compare_;
};

}  // namespace tsui
