// Loads (or generates) a tensor and computes its statistics on a worker thread, with progress
// and cancel. Engine exceptions are caught on the worker and arrive as failed(message): none
// crosses the event loop. Starting while busy cancels the running job and queues the new one.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

#include "models/Dataset.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/generator.hpp"

namespace tsui {

struct DatasetRequest {
    enum class Kind { File, Generate };
    Kind kind = Kind::File;
    QString path;                // Kind::File
    tscope::GeneratorSpec spec;  // Kind::Generate
    QString title;               // shown for generated tensors

    static DatasetRequest file(const QString& path);
    static DatasetRequest generate(const tscope::GeneratorSpec& spec, const QString& title);
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
    struct Outcome {
        std::shared_ptr<Dataset> dataset;
        QString error;
        bool cancelled = false;
    };
    static Outcome run(const DatasetRequest& request, tscope::RunControl& control) noexcept;
    void launch(const DatasetRequest& request);
    void onDone();
    void poll();

    QFutureWatcher<Outcome> watcher_;
    std::shared_ptr<tscope::AtomicRunControl> control_;
    QTimer poll_;
    std::optional<DatasetRequest> pending_;
    bool busy_ = false;  // from launch until the outcome is delivered on this thread
};

}  // namespace tsui
