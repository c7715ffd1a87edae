// Loads (or generates) a tensor and computes its statistics on a worker thread, with progress
// and cancel. Engine exceptions are caught on the worker and arrive as failed(message): none
// crosses the event loop. Starting while busy cancels the running job and queues the new one.
#pragma once

#include <QObject>
#include <optional>

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "tscope/tensor/generator.hpp"

namespace tsui {

struct DatasetRequest {
    enum class Kind { File, Generate, Sample };
    Kind kind = Kind::File;
    QString path;                // Kind::File; Kind::Sample: the .tsb too large to load
    QString sampleOf;            // Kind::Sample: the name the user opened
    tscope::GeneratorSpec spec;  // Kind::Generate
    QString title;               // shown for generated tensors
    // A .tsb whose tensor would take more bytes than this is streamed, not loaded (0: half the
    // physical memory).
    std::uint64_t memoryLimit = 0;
    // Where a text tensor too large to load is converted to .tsb first (in bounded memory), to
    // be opened streamed; "" leaves such a file to the loader.
    QString cacheDir;

    static DatasetRequest file(const QString& path);
    static DatasetRequest generate(const tscope::GeneratorSpec& spec, const QString& title);
    // The first slices of mode 1 of a .tsb that fit `memoryLimit` (set by the window).
    static DatasetRequest sample(const QString& tsb, const QString& name);
    QString describe() const;
};

class DatasetJob : public QObject {
    Q_OBJECT

public:
    explicit DatasetJob(QObject* parent = nullptr);
    ~DatasetJob() override;

    void start(const DatasetRequest& request);
    void cancel();
    // True from start() until the outcome signal has been emitted on the GUI thread.
    bool isBusy() const;

Q_SIGNALS:
    void started(const QString& what);
    void progress(int permille, const QString& stage);
    void finished(tsui::DatasetPtr dataset);
    void failed(const QString& message);
    void cancelled();
    // Nothing is running or queued any more (after finished, failed or cancelled).
    void idle();

private:
    static DatasetPtr load(const DatasetRequest& request, tscope::RunControl& control);
    void launch(const DatasetRequest& request);
    // Starts the request that superseded the one just ended; false when there is none.
    bool launchPending();

    EngineJob engine_;
    std::optional<DatasetRequest> pending_;
};

}  // namespace tsui
