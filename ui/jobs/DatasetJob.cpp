#include "jobs/DatasetJob.hpp"

#include <QFileInfo>

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
    engine_.setPollInterval(50);
    connect(&engine_, &EngineJob::progress, this, &DatasetJob::progress);
    connect(&engine_, &EngineJob::failed, this, [this](const QString& message) {
        if (!launchPending()) Q_EMIT failed(message);
    });
    connect(&engine_, &EngineJob::cancelled, this, [this] {
        if (!launchPending()) Q_EMIT cancelled();
    });
    connect(&engine_, &EngineJob::idle, this, &DatasetJob::idle);
}

DatasetJob::~DatasetJob() { pending_.reset(); }  // engine_ cancels and waits

bool DatasetJob::isBusy() const { return engine_.isBusy(); }

void DatasetJob::start(const DatasetRequest& request) {
    if (engine_.isBusy()) {  // the running job ends first; its outcome then starts this one
        pending_ = request;
        engine_.cancel();
        return;
    }
    launch(request);
}

void DatasetJob::cancel() {
    pending_.reset();
    engine_.cancel();
}

void DatasetJob::launch(const DatasetRequest& request) {
    Q_EMIT started(request.describe());
    engine_.setActivity(QStringLiteral("loading %1").arg(request.describe()));
    engine_.start([request](tscope::RunControl& control) { return load(request, control); },
                  [this](DatasetPtr dataset) {
                      if (!launchPending()) Q_EMIT finished(std::move(dataset));
                  });
}

bool DatasetJob::launchPending() {
    if (!pending_) return false;
    const DatasetRequest next = *pending_;
    pending_.reset();
    launch(next);
    return true;
}

DatasetPtr DatasetJob::load(const DatasetRequest& request, tscope::RunControl& control) {
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
    return ds;
}

}  // namespace tsui
