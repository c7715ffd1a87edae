// The dataset download against a local HTTP server that this test starts on 127.0.0.1 and
// stops: a whole file, a transfer cut off and then resumed with a Range request, a server error,
// a size that differs from the catalog's, and a cancel. Nothing leaves the machine.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <QFile>
#include <QNetworkProxy>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "local_http_server.hpp"
#include "net/DatasetDownload.hpp"

using namespace tsui;

namespace {

// The test's server: /file is the body below.
class LocalServer : public tstest::LocalHttpServer {
public:
    explicit LocalServer(const QByteArray& body) { serve("/file", body); }
};

QByteArray sampleBody() {
    QByteArray b;
    for (int i = 0; i < 300000; ++i) b.append(static_cast<char>('a' + (i * 7 + i / 13) % 26));
    return b;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Runs one download to its end; returns its error ("" on success).
QString fetch(DatasetDownload& d, const QUrl& url, const QString& target, qint64 expected, QList<DownloadProgress>* seen = nullptr) {
    QSignalSpy done(&d, &DatasetDownload::finished);
    QMetaObject::Connection c;
    if (seen) c = QObject::connect(&d, &DatasetDownload::progress, [seen](const DownloadProgress& p) { seen->append(p); });
    d.start(url, target, expected);
    if (done.isEmpty() && !done.wait(10000)) return QStringLiteral("(no finished signal in 10 s)");
    QObject::disconnect(c);
    return done.takeFirst().at(0).toString();
}

}  // namespace

class TestDatasetDownload : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QNetworkProxy::setApplicationProxy(QNetworkProxy::NoProxy); }  // 127.0.0.1 directly, whatever the CI's proxy

    void fetchesAWholeFile() {
        const QByteArray body = sampleBody();
        LocalServer server(body);
        QVERIFY(server.isListening());
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("t.tns.gz"));
        DatasetDownload d;
        QList<DownloadProgress> seen;
        const QString error = fetch(d, server.url(QStringLiteral("/file")), target, body.size(), &seen);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(readAll(target), body);
        QVERIFY(!QFile::exists(DatasetDownload::partPath(target)));
        QVERIFY(!seen.isEmpty());
        QCOMPARE(seen.last().received, qint64(body.size()));
        QCOMPARE(seen.last().total, qint64(body.size()));
        QCOMPARE(server.ranges.value(0), QByteArray());
    }

    // Behind a proxy: with http_proxy set (and no proxy chosen by the application) the request
    // goes to the proxy, in absolute form; the host in the URL does not even resolve.
    void goesThroughTheSystemProxy() {
        const QByteArray body = sampleBody();
        tstest::LocalHttpServer proxy;
        proxy.serve("http://datasets.invalid/file", body);
        QVERIFY(proxy.isListening());
        const QByteArray before = qgetenv("http_proxy");
        qputenv("http_proxy", QStringLiteral("http://127.0.0.1:%1").arg(proxy.serverPort()).toLatin1());
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("t.tns.gz"));
        DatasetDownload d;
        const QString error = fetch(d, QUrl(QStringLiteral("http://datasets.invalid/file")), target, body.size());
        if (before.isNull())
            qunsetenv("http_proxy");
        else
            qputenv("http_proxy", before);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(readAll(target), body);
    }

    // no_proxy names the host: the request goes straight to it (and finds no such host).
    void noProxyBypassesIt() {
        tstest::LocalHttpServer proxy;
        proxy.serve("http://datasets.invalid/file", sampleBody());
        const QByteArray before = qgetenv("http_proxy"), beforeNo = qgetenv("no_proxy");
        qputenv("http_proxy", QStringLiteral("http://127.0.0.1:%1").arg(proxy.serverPort()).toLatin1());
        qputenv("no_proxy", "localhost,.invalid");
        QTemporaryDir dir;
        DatasetDownload d;
        const QString error = fetch(d, QUrl(QStringLiteral("http://datasets.invalid/file")), dir.filePath(QStringLiteral("t.gz")), -1);
        for (const auto& [name, value] : {std::pair<const char*, QByteArray>{"http_proxy", before}, {"no_proxy", beforeNo}})
            if (value.isNull()) qunsetenv(name); else qputenv(name, value);
        QVERIFY2(error.contains(QStringLiteral("not found")), qPrintable(error));
    }

    void resumesACutTransfer() {
        const QByteArray body = sampleBody();
        LocalServer server(body);
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("t.tns.gz"));
        DatasetDownload d;
        server.cutAfter = 100000;
        QString error = fetch(d, server.url(QStringLiteral("/file")), target, body.size());
        QVERIFY2(error.contains(QStringLiteral("closed after 100,000 of 300,000 bytes")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("fetch again to resume")), qPrintable(error));
        QVERIFY(!QFile::exists(target));
        QCOMPARE(readAll(DatasetDownload::partPath(target)), body.left(100000));

        server.cutAfter = 0;
        error = fetch(d, server.url(QStringLiteral("/file")), target, body.size());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(server.ranges.last(), QByteArray("bytes=100000-"));  // only the rest was asked for
        QCOMPARE(readAll(target), body);
        QVERIFY(!QFile::exists(DatasetDownload::partPath(target)));
    }

    // Sweep 70b B18: two downloads of one file (two fetches, or a fetch and the window) wrote
    // into one part and left it corrupt. A part another download holds is refused at once, and
    // left as it is; once it is let go, the download resumes from it.
    void aPartInUseIsLeftToItsDownload() {
        const QByteArray body = sampleBody();
        LocalServer server(body);
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("t.tns.gz"));
        const QString part = DatasetDownload::partPath(target);
        {
            QFile f(part);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(body.left(1000));
        }
        const int other = ::open(part.toLocal8Bit().constData(), O_RDWR | O_CLOEXEC);  // as another process holds it
        QVERIFY(other >= 0 && ::flock(other, LOCK_EX | LOCK_NB) == 0);
        DatasetDownload d;
        const QString refused = fetch(d, server.url(QStringLiteral("/file")), target, body.size());
        QVERIFY2(refused.contains(QStringLiteral("another download")) && refused.contains(part), qPrintable(refused));
        QCOMPARE(readAll(part), body.left(1000));
        QVERIFY(server.ranges.isEmpty());  // nothing was asked of the server
        ::close(other);
        const QString error = fetch(d, server.url(QStringLiteral("/file")), target, body.size());
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(server.ranges.last(), QByteArray("bytes=1000-"));
        QCOMPARE(readAll(target), body);
    }

    void aServerErrorSaysSoAndWritesNothing() {
        LocalServer server(sampleBody());
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("t.tns.gz"));
        DatasetDownload d;
        const QString error = fetch(d, server.url(QStringLiteral("/broken")), target, -1);
        QVERIFY2(error.contains(QStringLiteral("HTTP 500")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("/broken")), qPrintable(error));
        QVERIFY(!QFile::exists(target));
        QVERIFY(readAll(DatasetDownload::partPath(target)).isEmpty());  // no error page stored as data
    }

    void aSizeOtherThanTheCatalogsIsRefused() {
        const QByteArray body = sampleBody();
        LocalServer server(body);
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("t.tns.gz"));
        DatasetDownload d;
        const QString error = fetch(d, server.url(QStringLiteral("/file")), target, body.size() + 1);
        QVERIFY2(error.contains(QStringLiteral("catalog says 300,001 bytes")), qPrintable(error));
        QVERIFY(!QFile::exists(target));
        QVERIFY(!QFile::exists(DatasetDownload::partPath(target)));
    }

    // Sweep 64: a server that stops sending reports nothing by itself; each second the download
    // says how long nothing has come, and no time left is guessed meanwhile.
    void aStalledTransferSaysSo() {
        LocalServer server(sampleBody());
        server.stallAfter = 10;
        QTemporaryDir dir;
        DatasetDownload d;
        QList<DownloadProgress> seen;
        QObject::connect(&d, &DatasetDownload::progress, [&seen](const DownloadProgress& p) { seen.append(p); });
        QSignalSpy done(&d, &DatasetDownload::finished);
        d.start(server.url(QStringLiteral("/file")), dir.filePath(QStringLiteral("t.tns.gz")), -1);
        QTRY_VERIFY_WITH_TIMEOUT(!seen.isEmpty() && seen.last().idleSeconds >= 2, 10000);
        QCOMPARE(seen.last().received, qint64{10});
        QCOMPARE(seen.last().secondsLeft, -1.0);
        d.cancel();
        QVERIFY(!done.isEmpty() || done.wait(10000));
    }

    void aCancelKeepsThePartAndSaysSo() {
        LocalServer server(sampleBody());
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("t.tns.gz"));
        DatasetDownload d;
        QSignalSpy done(&d, &DatasetDownload::finished);
        d.start(server.url(QStringLiteral("/file")), target, -1);
        QVERIFY(d.running());
        d.cancel();
        QVERIFY(!done.isEmpty() || done.wait(10000));  // abort() may report at once
        QVERIFY2(done.first().at(0).toString().startsWith(QStringLiteral("cancelled")), qPrintable(done.first().at(0).toString()));
        QVERIFY(!QFile::exists(target));
        QVERIFY(!d.running());
    }
};

QTEST_GUILESS_MAIN(TestDatasetDownload)
#include "test_dataset_download.moc"
