// One catalog dataset made ready to open: its tensor file downloaded into the cache folder
// (DatasetDownload, on a thread of its own, resumed where an earlier try stopped), then read,
// checked against the catalog's order, dims and nonzeros, and written once as NAME.tsb (an
// EngineJob, with progress and cancel). The downloaded .tns.gz is removed once the .tsb is
// whole; the .tsb is what later opens take. One fetch at a time.
#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "tscope/io/dataset_catalog.hpp"

class QThread;

namespace tsui {

class DatasetDownload;
class EngineJob;
struct DownloadProgress;

class DatasetFetch : public QObject {
    Q_OBJECT

public:
    explicit DatasetFetch(QObject* parent = nullptr);
    ~DatasetFetch() override;
    // Starts fetching `entry` into `cacheDir`; false (nothing started) while one runs.
    bool start(const tscope::CatalogEntry& entry, const QString& cacheDir);
    void cancel();
    bool isBusy() const { return busy_; }

Q_SIGNALS:
    // permille is -1 while the size is unknown; text says bytes, rate and time left, or the stage.
    void progress(int permille, const QString& text);
    void finished(const QString& tsbPath);
    void failed(const QString& message);
    void cancelled();

private:
    void onDownloaded(const QString& error);
    void onDownloadProgress(const DownloadProgress& p);
    void convert();
    void end();

    QThread* thread_;
    DatasetDownload* download_;  // lives on thread_
    EngineJob* job_;
    tscope::CatalogEntry entry_;
    QString cacheDir_, gzPath_;
    bool busy_ = false, cancelling_ = false;
};

}  // namespace tsui
