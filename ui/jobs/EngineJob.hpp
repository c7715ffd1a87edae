// Runs one piece of engine work at a time on a worker thread, for a panel or a job: the run
// control, cancel, progress polling, and exactly one outcome back on the GUI thread (the typed
// result, failed(message) or cancelled()), then idle(). Every exception is caught on the
// worker: none crosses the event loop. Destroying a running job cancels it and waits, so the
// work never outlives what it reports to.
//
//   job_.start([dataset](tscope::RunControl& c) { return tscope::survey_formats(dataset->tensor, {}, c); },
//              [this](std::vector<tscope::FormatRow> rows) { show(rows); });
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>
#include <type_traits>

#include "jobs/WorkPools.hpp"
#include "tscope/run_control.hpp"

namespace tsui {

class EngineJob : public QObject {
    Q_OBJECT

public:
    explicit EngineJob(QObject* parent = nullptr);
    ~EngineJob() override;

    // Runs work(control) on a worker and hands its result to onFinished on this object's
    // thread. Returns false, starting nothing, while a job is busy. onFinished may start the
    // next job.
    template <class Work, class OnFinished>
    bool start(Work work, OnFinished onFinished);
    // Asks the running work to stop at its next check(); it ends in cancelled() (or in its
    // result, when it finished before looking).
    void cancel();
    // Cancels the running work because what it works on was replaced (another tensor was
    // opened): its progress is no longer reported, and its outcome's handlers can tell by
    // superseded() that no one pressed Cancel. Nothing when idle.
    void supersede();
    // True from supersede() until the next start(), the outcome's handlers included.
    bool superseded() const { return superseded_; }
    // True from start() until the outcome has been delivered.
    bool isBusy() const { return busy_; }
    void setPollInterval(int ms) { poll_.setInterval(ms); }
    // The pool the next start() runs on; User unless set.
    void setLane(Lane lane) { lane_ = lane; }
    Lane lane() const { return lane_; }
    // A function the next start()'s work may call from its thread, any number of times, to
    // hand a partial result to onPartial on this object's thread (a chart that fills as each
    // result arrives). Calls that arrive after the job ended are dropped.
    template <class T, class OnPartial>
    std::function<void(T)> relay(OnPartial onPartial);
    // What the job does, for the messages of failures the engine did not word itself
    // ("out of memory while loading x.tns").
    void setActivity(const QString& activity) { activity_ = activity; }

Q_SIGNALS:
    // permille is 0 until the work says how much there is.
    void progress(int permille, const QString& stage);
    void failed(const QString& message);
    void cancelled();
    // After the outcome, unless its handler started another job.
    void idle();

private:
    using Value = std::shared_ptr<void>;  // the result, type-erased for the one watcher
    struct Outcome {
        enum class Kind { Finished, Failed, Cancelled };
        Kind kind = Kind::Cancelled;
        Value value;
        QString message;
    };
    void launch(std::function<Value(tscope::RunControl&)> work, std::function<void(Value)> deliver);
    static Outcome guarded(const std::function<Value(tscope::RunControl&)>& work, tscope::RunControl& control,
                           const QString& activity) noexcept;
    void poll();
    void onDone();

    QFutureWatcher<Outcome> watcher_;
    std::shared_ptr<tscope::AtomicRunControl> control_;
    std::function<void(Value)> deliver_;
    QTimer poll_;
    QString activity_;
    bool busy_ = false;
    bool superseded_ = false;
    Lane lane_ = Lane::User;
    std::uint64_t generation_ = 0;  // counts launches, so that late partial results are dropped
};

template <class Work, class OnFinished>
bool EngineJob::start(Work work, OnFinished onFinished) {
    using Result = std::decay_t<std::invoke_result_t<Work&, tscope::RunControl&>>;
    static_assert(!std::is_void_v<Result>, "the work returns what onFinished receives");
    if (busy_) return false;
    launch([work = std::move(work)](tscope::RunControl& control) mutable -> Value {
               return std::make_shared<Result>(work(control));
           },
           [onFinished = std::move(onFinished)](Value value) mutable {
               onFinished(std::move(*std::static_pointer_cast<Result>(value)));
           });
    return true;
}

template <class T, class OnPartial>
std::function<void(T)> EngineJob::relay(OnPartial onPartial) {
    const std::uint64_t generation = generation_ + 1;  // the job start() launches next
    auto handler = std::make_shared<OnPartial>(std::move(onPartial));
    return [this, generation, handler](T value) {
        QMetaObject::invokeMethod(
            this,
            [this, generation, handler, value = std::move(value)]() mutable {
                if (busy_ && generation_ == generation) (*handler)(std::move(value));
            },
            Qt::QueuedConnection);
    };
}

}  // namespace tsui
