#include "jobs/DatasetJob.hpp"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>
#include <new>

#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"

namespace tsui {

DatasetRequest DatasetRequest::file(const QString& path) {
    DatasetRequest r;
    r.kind = Kind::File;
    r.path = path;
    return r;
}

DatasetRequest DatasetRequest::generate(const tscope::GeneratorSpec& spec, const QString& title) {
    DatasetRequest r;
    r.kind = Kind::Generate;
    r.spec = spec;
    r.title = title;
    return r;
}

QString DatasetRequest::describe() const {
    return kind == Kind::File ? QFileInfo(path).fileName() : title;
}

DatasetJob::DatasetJob(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &DatasetJob::onDone);
    poll_.setInterval(50);
    connect(&poll_, &QTimer::timeout, this, &DatasetJob::poll);
}

DatasetJob::~DatasetJob() {
    pending_.reset();
    if (control_) control_->request_cancel();
    watcher_.waitForFinished();  // the engine checks for cancel between chunks: this is brief
}

bool DatasetJob::isBusy() const { return busy_; }

void DatasetJob::start(const DatasetRequest& request) {
    if (watcher_.isRunning()) {
        pending_ = request;
        control_->request_cancel();
        return;
    }
    launch(request);
}

void DatasetJob::cancel() {
    pending_.reset();
    if (control_ && watcher_.isRunning()) control_->request_cancel();
}

void DatasetJob::launch(const DatasetRequest& request) {
    busy_ = true;
    control_ = std::make_shared<tscope::AtomicRunControl>();
    auto control = control_;  // the worker keeps it alive even if we move on
    Q_EMIT started(request.describe());
    watcher_.setFuture(QtConcurrent::run([request, control] { return run(request, *control); }));
    poll_.start();
}

DatasetJob::Outcome DatasetJob::run(const DatasetRequest& request, tscope::RunControl& control) noexcept {
    Outcome out;
    try {
        auto ds = std::make_shared<Dataset>();
        if (request.kind == DatasetRequest::Kind::File) {
            tscope::LoadedTensor loaded = tscope::load_tensor(request.path.toStdString(), {}, control);
            ds->tensor = std::move(loaded.tensor);
            ds->load = std::move(loaded.info);
            ds->title = QFileInfo(request.path).fileName();
            ds->source = QFileInfo(request.path).absoluteFilePath();
        } else {
            ds->tensor = tscope::generate_tensor(request.spec, control);
            ds->generated = true;
            ds->title = request.title;
            ds->source = QString::fromStdString(tscope::describe(request.spec));
            ds->load.format = "generated";
            ds->load.zero_based.assign(static_cast<std::size_t>(ds->tensor.order()), false);
        }
        ds->stats = tscope::compute_stats(ds->tensor, control);
        out.dataset = std::move(ds);
    } catch (const tscope::Cancelled&) {
        out.cancelled = true;
    } catch (const std::bad_alloc&) {
        out.error = QStringLiteral("out of memory while loading %1").arg(request.describe());
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
    } catch (...) {
        out.error = QStringLiteral("unexpected error while loading %1").arg(request.describe());
    }
    return out;
}

void DatasetJob::poll() {
    if (!control_) return;
    const auto total = control_->total();
    const int permille = total ? static_cast<int>(1000.0 * static_cast<double>(control_->done()) / static_cast<double>(total)) : 0;
    Q_EMIT progress(permille, QString::fromStdString(control_->current_stage()));
}

void DatasetJob::onDone() {
    poll_.stop();
    const Outcome out = watcher_.result();
    if (pending_) {  // superseded: drop this outcome, run the newer request
        const DatasetRequest next = *pending_;
        pending_.reset();
        launch(next);
        return;
    }
    busy_ = false;
    if (out.cancelled)
        Q_EMIT cancelled();
    else if (!out.error.isEmpty())
        Q_EMIT failed(out.error);
    else
        Q_EMIT finished(out.dataset);
    Q_EMIT idle();
}

}  // namespace tsui
