#include "jobs/DatasetFetch.hpp"

#include <QDir>
#include <QFile>
#include <QThread>
#include <cmath>

#include "jobs/EngineJob.hpp"
#include "net/DatasetDownload.hpp"
#include "tscope/error.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

QString bytes(qint64 b) { return humanBytes(static_cast<std::uint64_t>(std::max<qint64>(b, 0))); }

}  // namespace

DatasetFetch::DatasetFetch(QObject* parent)
    : QObject(parent), thread_(new QThread(this)), download_(new DatasetDownload), job_(new EngineJob(this)) {
    download_->moveToThread(thread_);
    connect(thread_, &QThread::finished, download_, &QObject::deleteLater);
    connect(download_, &DatasetDownload::progress, this, &DatasetFetch::onDownloadProgress);
    connect(download_, &DatasetDownload::finished, this, &DatasetFetch::onDownloaded);
    connect(job_, &EngineJob::progress, this, [this](int permille, const QString& stage) {
        Q_EMIT progress(permille, tr("Converting to .tsb: %1").arg(stage));
    });
    connect(job_, &EngineJob::failed, this, [this](const QString& message) {
        end();
        Q_EMIT failed(message);
    });
    connect(job_, &EngineJob::cancelled, this, [this] {
        end();
        Q_EMIT cancelled();
    });
    job_->setActivity(tr("converting the download"));
    thread_->start();
}

DatasetFetch::~DatasetFetch() {
    QMetaObject::invokeMethod(download_, &DatasetDownload::cancel, Qt::BlockingQueuedConnection);
    thread_->quit();
    thread_->wait();
}

bool DatasetFetch::start(const tscope::CatalogEntry& entry, const QString& cacheDir) {
    if (busy_) return false;
    entry_ = entry;
    cacheDir_ = cacheDir;
    gzPath_ = QString::fromStdString(tscope::downloaded_path(entry, cacheDir.toStdString()));
    busy_ = true, cancelling_ = false;
    if (!QDir().mkpath(cacheDir)) {
        end();
        Q_EMIT failed(tr("cannot create the cache folder %1").arg(cacheDir));
        return true;
    }
    if (QFile::exists(gzPath_)) {  // downloaded earlier, not yet converted
        convert();
        return true;
    }
    Q_EMIT progress(-1, tr("Connecting to %1…").arg(QString::fromStdString(entry.tensors.front().url)));
    const QUrl url(QString::fromStdString(entry.tensors.front().url));
    const QString target = gzPath_;
    QMetaObject::invokeMethod(download_, [d = download_, url, target] { d->start(url, target); }, Qt::QueuedConnection);
    return true;
}

void DatasetFetch::cancel() {
    if (!busy_) return;
    cancelling_ = true;
    if (job_->isBusy()) job_->cancel();
    else QMetaObject::invokeMethod(download_, &DatasetDownload::cancel, Qt::QueuedConnection);
}

void DatasetFetch::onDownloadProgress(const DownloadProgress& p) {
    QString text = p.total >= 0 ? tr("%1 of %2").arg(bytes(p.received), bytes(p.total)) : bytes(p.received);
    if (p.bytesPerSecond > 0) text += tr(" at %1/s").arg(bytes(static_cast<qint64>(p.bytesPerSecond)));
    if (p.secondsLeft >= 0) text += tr(", %1 left").arg(humanSeconds(p.secondsLeft));
    if (p.idleSeconds >= 1.5) text += tr(", nothing received for %1").arg(humanSeconds(std::floor(p.idleSeconds)));
    const int permille = p.total > 0 ? static_cast<int>(1000.0 * static_cast<double>(p.received) / static_cast<double>(p.total)) : -1;
    Q_EMIT progress(permille, tr("Downloading %1: %2").arg(QString::fromStdString(entry_.name), text));
}

void DatasetFetch::onDownloaded(const QString& error) {
    if (!busy_) return;
    if (error.isEmpty()) {
        convert();
        return;
    }
    end();
    if (cancelling_) Q_EMIT cancelled();
    else Q_EMIT failed(error);
}

void DatasetFetch::convert() {
    Q_EMIT progress(0, tr("Converting %1 to .tsb…").arg(QString::fromStdString(entry_.name)));
    const std::string cache = cacheDir_.toStdString();
    const tscope::CatalogEntry entry = entry_;
    job_->start([cache, entry](tscope::RunControl& control) { return tscope::install_download(entry, cache, control); },
                [this](const std::string& tsb) {
                    end();
                    Q_EMIT finished(QString::fromStdString(tsb));
                });
}

void DatasetFetch::end() { busy_ = false; }

}  // namespace tsui
