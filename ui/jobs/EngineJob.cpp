#include "jobs/EngineJob.hpp"

#include <QtConcurrent/QtConcurrentRun>
#include <new>

#include "jobs/UserWork.hpp"
#include "tscope/error.hpp"
#include "tscope/failed_allocation.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

// Background work's control: each check first waits while user work runs, so a survey
// stops taking cores from a benchmark between two of its steps (and still sees a cancel).
class YieldingRunControl : public tscope::AtomicRunControl {
public:
    bool cancelled() const override {
        UserWork::waitUntilNone([this] { return AtomicRunControl::cancelled(); });
        return AtomicRunControl::cancelled();
    }
};

}  // namespace

EngineJob::EngineJob(QObject* parent) : QObject(parent), activity_(QStringLiteral("running")) {
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &EngineJob::onDone);
    poll_.setInterval(100);
    connect(&poll_, &QTimer::timeout, this, &EngineJob::poll);
}

EngineJob::~EngineJob() {
    cancel();
    watcher_.waitForFinished();  // the engine checks for cancel between chunks: this is brief
}

void EngineJob::cancel() {
    if (busy_ && control_) control_->request_cancel();
}

void EngineJob::supersede() {
    if (!busy_) return;
    superseded_ = true;
    cancel();
}

void EngineJob::launch(std::function<Value(tscope::RunControl&)> work, std::function<void(Value)> deliver) {
    busy_ = true;
    superseded_ = false;
    deliver_ = std::move(deliver);
    ++generation_;
    const bool user = lane_ == Lane::User;
    control_ = user ? std::make_shared<tscope::AtomicRunControl>() : std::make_shared<YieldingRunControl>();
    auto control = control_;  // the worker keeps its control alive whatever we start next
    watcher_.setFuture(QtConcurrent::run(workPool(lane_), [work = std::move(work), control, activity = activity_, user] {
        if (!user) return guarded(work, *control, activity);
        const UserWork::Scope scope;  // background work steps aside meanwhile
        return guarded(work, *control, activity);
    }));
    poll_.start();
}

EngineJob::Outcome EngineJob::guarded(const std::function<Value(tscope::RunControl&)>& work, tscope::RunControl& control,
                                      const QString& activity) noexcept {
    Outcome out;
    try {
        out.value = work(control);
        out.kind = Outcome::Kind::Finished;
        return out;
    } catch (const tscope::Cancelled&) {
        out.kind = Outcome::Kind::Cancelled;
        return out;
    } catch (const std::bad_alloc&) {
        const std::size_t asked = tscope::take_failed_allocation_size();
        out.message = asked ? QStringLiteral("out of memory while %1: it needed %2 more at once, which this machine could not give")
                                  .arg(activity, humanBytes(asked))
                            : QStringLiteral("out of memory while %1").arg(activity);
    } catch (const std::exception& e) {
        out.message = QString::fromStdString(e.what());
    } catch (...) {
        out.message = QStringLiteral("unexpected error while %1").arg(activity);
    }
    out.kind = Outcome::Kind::Failed;
    return out;
}

void EngineJob::poll() {
    if (!control_ || superseded_) return;  // the replaced work's stages are not the new input's
    const auto total = control_->total();
    const int permille = total ? static_cast<int>(1000.0 * static_cast<double>(control_->done()) / static_cast<double>(total)) : 0;
    Q_EMIT progress(permille, QString::fromStdString(control_->current_stage()));
}

void EngineJob::onDone() {
    poll_.stop();
    Outcome out = watcher_.result();
    auto deliver = std::move(deliver_);  // the handler may start the next job, with its own
    busy_ = false;
    switch (out.kind) {
    case Outcome::Kind::Finished:
        // what shows the result may throw too (a panel meeting a case it did not foresee): said as
        // a failure, and idle still follows, where the exception went into the event loop and a
        // window waiting for idle (a --screenshot) waited for ever
        try {
            deliver(std::move(out.value));
        } catch (const std::exception& e) {
            Q_EMIT failed(QStringLiteral("while showing the result: %1").arg(QString::fromStdString(e.what())));
        } catch (...) {
            Q_EMIT failed(QStringLiteral("unexpected error while showing the result"));
        }
        break;
    case Outcome::Kind::Failed: Q_EMIT failed(out.message); break;
    case Outcome::Kind::Cancelled: Q_EMIT cancelled(); break;
    }
    if (!busy_) Q_EMIT idle();
}

}  // namespace tsui
