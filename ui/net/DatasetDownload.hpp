// One dataset file fetched over HTTP(S) with Qt Network into the cache (tscope_net: Qt Core and
// Network only, shared by the GUI's Open dataset and the CLI's `fetch NAME`): written to FILE.part as
// it arrives, resumed from there with a Range request after an interruption, checked against
// the catalog's size before it is renamed to FILE, cancellable at any time. Runs on the event
// loop of the thread that owns it (a worker's in the GUI), so the window never waits on it.
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QNetworkReply>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

class QNetworkAccessManager;

namespace tsui {

struct DownloadProgress {
    qint64 received = 0;        // bytes in FILE.part, the resumed ones included
    qint64 total = -1;          // -1 while unknown
    double bytesPerSecond = 0;  // over this transfer (not the resumed part)
    double secondsLeft = -1;    // -1 while unknown (and while nothing arrives)
    double idleSeconds = 0;     // since the last bytes arrived (or the request went out)
};

class DatasetDownload : public QObject {
    Q_OBJECT

public:
    explicit DatasetDownload(QObject* parent = nullptr);
    ~DatasetDownload() override;
    // Fetches url into target (via target + ".part"). expectedBytes < 0: the size is not known
    // beforehand, and the server's length is trusted.
    void start(const QUrl& url, const QString& target, qint64 expectedBytes = -1);
    void cancel();
    bool running() const { return reply_ != nullptr; }
    static QString partPath(const QString& target) { return target + QStringLiteral(".part"); }

Q_SIGNALS:
    void progress(const tsui::DownloadProgress& p);
    // error is empty on success; otherwise it names the URL and what went wrong, and says
    // whether the part already fetched was kept for a resume.
    void finished(const QString& error);

private:
    bool lockPart();
    void releasePart();
    void onMetaData();
    void onReadyRead();
    void append(QNetworkReply* reply);
    void onFinished();
    void fail(const QString& why, bool keepPart);
    DownloadProgress current() const;

    QNetworkAccessManager* net_;
    QPointer<QNetworkReply> reply_;
    QUrl url_;
    QString target_;
    QFile part_;
    int partLock_ = -1;  // a descriptor of the part holding its flock while this download owns it
    qint64 expected_ = -1, total_ = -1, resumedFrom_ = 0;
    bool cancelled_ = false, failed_ = false;
    QElapsedTimer clock_;
    // a stalled transfer reports nothing by itself: each second the progress goes out again,
    // so that the window says for how long nothing came instead of its last estimate
    QElapsedTimer sinceData_;
    QTimer* tick_;
};

}  // namespace tsui

Q_DECLARE_METATYPE(tsui::DownloadProgress)
