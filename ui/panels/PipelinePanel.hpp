// The Pipeline tab (hocfs-sptv-pipeline Sec. 6.2, Fig. 13 made visible): a timeline with one
// lane per CUDA stream, a colour per stage (copy-in, kernel, copy-out), the same chunks run
// synchronously on a lane above, T_s vs T_p vs the model, and the overlap. Runs live on this
// machine's GPU; without one it shows the bundled recordings (labelled with their device) and
// can draw the loaded tensor's timeline predicted from a recording's measured device figures
// (engine/pipeline/pipeline_prediction: the Sec. 6.2 T_s / T_p model), labelled as predicted.
#pragma once

#include <QPointF>
#include <memory>
#include <vector>

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "models/PipelineRecording.hpp"
#include "panels/Panel.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QCPTextElement;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSplitter;

namespace tsui {

class TimelineStages;

class PipelinePanel : public Panel {
    Q_OBJECT

public:
    explicit PipelinePanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Pipeline"); }
    void setDataset(const DatasetPtr& dataset) override;
    bool isBusy() const override { return job_.isBusy() || predictJob_.isBusy(); }
    bool runOwnWork() override;
    // Adds a recording (from a file or a live run) and shows it.
    void addRecording(PipelineRecording recording);
    bool openRecording(const QString& path, QString* error);
    const std::vector<PipelineRecording>& recordings() const { return recordings_; }
    const PipelineRecording* current() const;
    const tscope::PipelineRun* currentRun() const;
    QCustomPlot* timeline() const { return timeline_; }
    QCustomPlot* comparison() const { return compare_; }
    // The chunk stages the timeline draws (three a chunk, on every lane).
    std::size_t stageCount() const;
    QString summaryText() const;
    // The predicted timeline on show (nullptr while the measured one is): the loaded tensor
    // cut as the engine would cut it, timed with the current recording's device figures.
    const tscope::PipelineRun* predictedRun() const { return showingPrediction() ? &predicted_ : nullptr; }
    QString predictionText() const;
    // What the timeline's hover readout says at a pixel ("" off the chunks).
    QString timelineTextAt(QPointF pixel) const;
    // Shows the prediction for the loaded tensor instead of the recording (computed off the GUI
    // thread the first time for a tensor, format and chunk size).
    void setPredicted(bool on);
    // Starts a live run on the GPU with the chosen settings (no-op with the reason shown when
    // there is no GPU or no tensor).
    void runLive();

private:
    QHBoxLayout* buildSourceRow();
    QHBoxLayout* buildLiveRow();
    QSplitter* buildCharts();
    void connectControls();
    QString otherTensorNote(const PipelineRecording& r) const;
    static tscope::PipelineReport stream(const tscope::CooTensor& t, tscope::FormatKind kind,
                                         const tscope::PipelineOptions& options, tscope::RunControl& control);
    void showRecording(int index);
    void showRun(int index);
    void drawTimeline(const tscope::PipelineRun& run, bool predicted);
    void attachReadouts();
    bool showingPrediction() const;
    void updatePrediction();
    void showPrediction(const PipelineRecording& from, const tscope::PipelineRun& measured);
    void drawComparison(const tscope::PipelineRun& run);
    // The live run ended, whichever way: the controls are usable again.
    void settle(const QString& status);

    // The timeline's stages (colour: 0 copy in, 1 kernel, 2 copy out; stream -1: the one-stream
    // lane), which the hover readout looks up; owned by the plot, replaced on each draw.
    TimelineStages* stages_ = nullptr;
    bool drawnPredicted_ = false;

    DatasetPtr dataset_;
    // The chunk plan of the loaded tensor: for which format and chunk size it was cut.
    struct Plan {
        std::weak_ptr<const Dataset> dataset;
        QString format;
        std::uint64_t chunkBytes = 0;
        std::vector<tscope::PipelineChunk> chunks;
    };
    Plan plan_;
    tscope::PipelineRun predicted_;
    QString predictedFrom_;  // the recording whose figures timed it
    QString predictionError_;
    EngineJob predictJob_;
    QCheckBox* predict_;
    QLabel* predictionLabel_;
    QCPTextElement* timelineTitle_;
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
