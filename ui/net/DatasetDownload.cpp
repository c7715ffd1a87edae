#include "net/DatasetDownload.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QFileInfo>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QLocale>
#include <QRegularExpression>

namespace tsui {

namespace {

// 1,234,567: the grouping of the rest of the tool, whatever the locale
QString grouped(qint64 n) { return QLocale(QLocale::English).toString(n); }
QString bytesText(qint64 b) { return grouped(std::max<qint64>(b, 0)) + QStringLiteral(" bytes"); }

// "bytes 100-999/1000" -> 1000; -1 where absent or unreadable.
qint64 totalFromContentRange(const QByteArray& header) {
    static const QRegularExpression form(QStringLiteral("^bytes (\\d+)-(\\d+)/(\\d+)$"));
    const auto m = form.match(QString::fromLatin1(header).trimmed());
    return m.hasMatch() ? m.captured(3).toLongLong() : -1;
}

qint64 startFromContentRange(const QByteArray& header) {
    static const QRegularExpression form(QStringLiteral("^bytes (\\d+)-"));
    const auto m = form.match(QString::fromLatin1(header).trimmed());
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

// An environment variable in either case (curl and wget read both).
QString envEither(const char* lower) {
    const QByteArray upper = QByteArray(lower).toUpper();
    const QString v = qEnvironmentVariable(lower);
    return v.isEmpty() ? qEnvironmentVariable(upper.constData()) : v;
}

// no_proxy: "*", or host names and domain suffixes separated by commas.
bool bypassed(const QString& host) {
    for (QString entry : envEither("no_proxy").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        entry = entry.trimmed();
        if (entry == QStringLiteral("*")) return true;
        if (entry.startsWith(QLatin1Char('.'))) entry.remove(0, 1);
        if (host.compare(entry, Qt::CaseInsensitive) == 0 || host.endsWith(QLatin1Char('.') + entry, Qt::CaseInsensitive)) return true;
    }
    return false;
}

// The proxy a user behind one has set for every program (https_proxy / http_proxy, no_proxy,
// as curl reads them); this machine's own addresses always directly (a proxy cannot reach
// them). Qt's own system lookup depends on how it was built; this does not.
class EnvironmentProxies : public QNetworkProxyFactory {
public:
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery& query) override {
        const QString host = query.url().host();
        if (host == QStringLiteral("localhost") || QHostAddress(host).isLoopback()) return {QNetworkProxy(QNetworkProxy::NoProxy)};
        const QString setting = envEither(query.url().scheme() == QStringLiteral("https") ? "https_proxy" : "http_proxy");
        const QUrl proxy = QUrl::fromUserInput(setting);
        if (setting.isEmpty() || !proxy.isValid() || bypassed(query.url().host())) return {QNetworkProxy(QNetworkProxy::NoProxy)};
        return {QNetworkProxy(QNetworkProxy::HttpProxy, proxy.host(), static_cast<quint16>(proxy.port(80)), proxy.userName(),
                              proxy.password())};
    }
};

}  // namespace

DatasetDownload::DatasetDownload(QObject* parent)
    : QObject(parent), net_(new QNetworkAccessManager(this)), tick_(new QTimer(this)) {
    net_->setProxyFactory(new EnvironmentProxies);  // the manager owns it
    qRegisterMetaType<tsui::DownloadProgress>();
    tick_->setInterval(1000);
    connect(tick_, &QTimer::timeout, this, [this] {
        if (reply_ && !failed_ && sinceData_.elapsed() >= 1500) Q_EMIT progress(current());
    });
}

DatasetDownload::~DatasetDownload() {
    if (reply_) {
        reply_->disconnect(this);
        reply_->abort();
    }
    releasePart();
}

// An exclusive lock on the part, on a descriptor of its own: held past the part's close until
// it is renamed, so that a second download of the file (another fetch, another window) is told
// so at once, where both had written into one part and left it corrupt (sweep 70b B18).
bool DatasetDownload::lockPart() {
    partLock_ = ::fcntl(part_.handle(), F_DUPFD_CLOEXEC, 0);  // no child keeps it (review 70 R8)
    if (partLock_ >= 0 && ::flock(partLock_, LOCK_EX | LOCK_NB) == 0) {
        // The part locked may have been renamed away meanwhile (the other download ended between
        // the open and the lock, review 70 R7): then it is not this download's to write or remove
        struct stat held {
        }, named{};
        if (::fstat(partLock_, &held) == 0 && ::stat(QFile::encodeName(part_.fileName()).constData(), &named) == 0 &&
            held.st_dev == named.st_dev && held.st_ino == named.st_ino)
            return true;
        releasePart();
        part_.close();
        failed_ = true;
        Q_EMIT finished(tr("another download of %1 has just ended: fetch again").arg(url_.toString()));
        return false;
    }
    const int why = errno;
    releasePart();
    part_.close();  // the other download's part stays as it is
    failed_ = true;
    Q_EMIT finished(why == EWOULDBLOCK
                        ? tr("another download of %1 is under way (its %2 is in use): wait for it to end, "
                             "then fetch again")
                              .arg(url_.toString(), part_.fileName())
                        : tr("cannot lock %1: %2").arg(part_.fileName(), QString::fromLocal8Bit(std::strerror(why))));
    return false;
}

void DatasetDownload::releasePart() {
    if (partLock_ >= 0) ::close(partLock_);  // closing the last descriptor of it drops the lock
    partLock_ = -1;
}

void DatasetDownload::start(const QUrl& url, const QString& target, qint64 expectedBytes) {
    Q_ASSERT(!reply_);
    url_ = url, target_ = target, expected_ = expectedBytes, total_ = expectedBytes;
    cancelled_ = failed_ = false;
    part_.close();
    part_.setFileName(partPath(target));
    if (url.scheme() != QStringLiteral("http") && url.scheme() != QStringLiteral("https")) {  // Qt says "Unknown error"
        fail(tr("%1: only http and https addresses are downloaded").arg(url.toString()), true);
        return;
    }
    if (!part_.open(QIODevice::ReadWrite)) {  // kept if it exists: the resume
        fail(tr("cannot write %1: %2").arg(part_.fileName(), part_.errorString()), false);
        return;
    }
    if (!lockPart()) return;
    resumedFrom_ = part_.size();
    if (expected_ >= 0 && resumedFrom_ > expected_) {  // not a prefix of this file: start again
        part_.resize(0);
        resumedFrom_ = 0;
    }
    part_.seek(resumedFrom_);
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    if (resumedFrom_ > 0) request.setRawHeader("Range", "bytes=" + QByteArray::number(resumedFrom_) + "-");
    clock_.start();
    sinceData_.start();
    tick_->start();
    reply_ = net_->get(request);
    connect(reply_, &QNetworkReply::metaDataChanged, this, &DatasetDownload::onMetaData);
    connect(reply_, &QNetworkReply::readyRead, this, &DatasetDownload::onReadyRead);
    connect(reply_, &QNetworkReply::finished, this, &DatasetDownload::onFinished);
}

void DatasetDownload::cancel() {
    if (!reply_) return;
    cancelled_ = true;
    reply_->abort();  // finished() follows, which reports the cancel
}

// The status decides what the body is: a 206 continues the part, a 200 replaces it.
void DatasetDownload::onMetaData() {
    if (!reply_ || failed_) return;
    const int status = reply_->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 206) {
        const qint64 from = startFromContentRange(reply_->rawHeader("Content-Range"));
        if (from != resumedFrom_) {
            fail(tr("the server resumed %1 at byte %2, not at %3").arg(url_.toString()).arg(from).arg(resumedFrom_), false);
            return;
        }
        const qint64 whole = totalFromContentRange(reply_->rawHeader("Content-Range"));
        if (whole >= 0) total_ = whole;
    } else if (status == 200) {
        if (resumedFrom_ > 0) {  // no range support: the whole file again
            part_.resize(0);
            part_.seek(0);
            resumedFrom_ = 0;
        }
        const QVariant length = reply_->header(QNetworkRequest::ContentLengthHeader);
        if (length.isValid()) total_ = length.toLongLong();
    }
    if (expected_ >= 0 && total_ >= 0 && total_ != expected_)
        fail(tr("%1 is %2 on the server, but the catalog says %3: not the file expected, nothing kept")
                 .arg(url_.toString(), bytesText(total_), bytesText(expected_)),
             false);
}

void DatasetDownload::onReadyRead() {
    if (reply_ && !failed_) append(reply_);
}

void DatasetDownload::append(QNetworkReply* reply) {
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200 && status != 206) return;  // an error page is not the file
    const QByteArray chunk = reply->readAll();
    if (part_.write(chunk) != chunk.size()) {
        fail(tr("cannot write %1: %2").arg(part_.fileName(), part_.errorString()), true);
        return;
    }
    if (!chunk.isEmpty()) sinceData_.restart();
    Q_EMIT progress(current());
}

DownloadProgress DatasetDownload::current() const {
    DownloadProgress p;
    p.received = part_.pos();
    p.total = total_;
    const double seconds = clock_.elapsed() / 1000.0;
    if (seconds > 0) p.bytesPerSecond = static_cast<double>(p.received - resumedFrom_) / seconds;
    p.idleSeconds = sinceData_.isValid() ? static_cast<double>(sinceData_.elapsed()) / 1000.0 : 0;
    if (p.total >= 0 && p.bytesPerSecond > 0 && p.idleSeconds < 1.5)
        p.secondsLeft = static_cast<double>(p.total - p.received) / p.bytesPerSecond;
    return p;
}

void DatasetDownload::onFinished() {
    tick_->stop();
    if (!reply_) return;
    QNetworkReply* reply = reply_;
    reply_ = nullptr;
    reply->deleteLater();
    if (failed_) return;  // already reported
    if (cancelled_) {
        part_.close();
        releasePart();
        Q_EMIT finished(tr("cancelled; the %1 fetched so far are kept for a resume").arg(bytesText(QFileInfo(part_.fileName()).size())));
        return;
    }
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 416) {
        // the part is already whole (or longer than the file): let the size check decide
        if (expected_ < 0 || part_.size() != expected_) {
            fail(tr("%1 refused to resume at byte %2 (HTTP 416)").arg(url_.toString()).arg(resumedFrom_), false);
            return;
        }
    } else if (status >= 300 && status < 400) {  // Qt followed redirects until it gave up
        fail(tr("%1: too many redirects, or one Qt may not follow (the last answer: HTTP %2 %3)")
                 .arg(url_.toString())
                 .arg(status)
                 .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString()),
             true);
        return;
    } else if (status != 200 && status != 206) {
        fail(status ? tr("%1: HTTP %2 %3").arg(url_.toString()).arg(status).arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString())
                    : tr("%1: %2").arg(url_.toString(), reply->errorString()),
             true);
        return;
    }
    if (reply->bytesAvailable() > 0) {  // anything still buffered
        append(reply);
        if (failed_) return;
    }
    part_.flush();
    const qint64 have = part_.size();
    if (total_ >= 0 && have < total_) {
        fail(tr("%1: the connection closed after %2 of %3").arg(url_.toString(), grouped(have), bytesText(total_)), true);
        return;
    }
    if (reply->error() != QNetworkReply::NoError && status != 416) {
        fail(tr("%1: %2").arg(url_.toString(), reply->errorString()), true);
        return;
    }
    if ((expected_ >= 0 && have != expected_) || (total_ >= 0 && have != total_)) {
        fail(tr("%1 arrived as %2, expected %3: nothing kept").arg(url_.toString(), bytesText(have), bytesText(expected_ >= 0 ? expected_ : total_)),
             false);
        return;
    }
    part_.close();
    QFile::remove(target_);
    if (!QFile::rename(part_.fileName(), target_)) {
        fail(tr("cannot rename %1 to %2").arg(part_.fileName(), target_), true);
        return;
    }
    releasePart();
    Q_EMIT finished(QString());
}

void DatasetDownload::fail(const QString& why, bool keepPart) {
    failed_ = true;
    tick_->stop();
    const qint64 kept = keepPart ? part_.size() : 0;
    part_.close();
    if (!keepPart || kept == 0) QFile::remove(part_.fileName());  // an empty part is no resume
    releasePart();
    if (reply_) {
        QNetworkReply* reply = reply_;
        reply_ = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
    Q_EMIT finished(keepPart && kept > 0 ? tr("%1 (the %2 fetched are kept: fetch again to resume)").arg(why, bytesText(kept)) : why);
}

}  // namespace tsui
