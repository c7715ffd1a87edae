// A one-process HTTP/1.1 server on 127.0.0.1 for download tests: the test starts it (port
// chosen by the system) and it stops with the test. Paths it serves: PATH registered with
// serve() (the body, Range requests answered with 206 unless ranges are off), /broken (500),
// anything else 404. cutAfter > 0 closes each transfer after that many body bytes; stallAfter > 0
// sends that many and then nothing, the connection left open (a stalled server).
#pragma once

#include <QHash>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

namespace tstest {

class LocalHttpServer : public QTcpServer {
public:
    LocalHttpServer() {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onRequest(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        listen(QHostAddress::LocalHost, 0);
    }
    void serve(const QByteArray& path, QByteArray body) { bodies_[path] = std::move(body); }
    QUrl url(const QString& path) const { return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(serverPort()).arg(path)); }
    qint64 cutAfter = 0;
    qint64 stallAfter = 0;
    QList<QByteArray> ranges;  // the Range header of each request ("" where none)

private:
    void onRequest(QTcpSocket* s) {
        QByteArray& pending = pending_[s];
        pending += s->readAll();
        if (!pending.contains("\r\n\r\n")) return;
        const QByteArray head = pending;
        pending_.remove(s);
        const QByteArray path = head.split(' ').value(1);
        QByteArray range;
        for (const QByteArray& line : head.split('\n'))
            if (line.toLower().startsWith("range:")) range = line.mid(6).trimmed();
        ranges << range;
        if (!bodies_.contains(path)) {
            const QByteArray status = path == "/broken" ? "500 Internal Server Error" : "404 Not Found";
            s->write("HTTP/1.1 " + status + "\r\nContent-Length: 5\r\nConnection: close\r\n\r\noops!");
            s->disconnectFromHost();
            return;
        }
        const QByteArray& body = bodies_[path];
        qint64 from = 0;
        if (range.startsWith("bytes=")) from = range.mid(6, range.indexOf('-') - 6).toLongLong();
        const QByteArray part = body.mid(from);
        QByteArray reply = from > 0 ? "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes " + QByteArray::number(from) + "-" +
                                          QByteArray::number(body.size() - 1) + "/" + QByteArray::number(body.size()) + "\r\n"
                                    : QByteArray("HTTP/1.1 200 OK\r\n");
        reply += "Content-Length: " + QByteArray::number(part.size()) + "\r\nConnection: close\r\n\r\n";
        s->write(reply);
        if (stallAfter > 0) {
            s->write(part.left(stallAfter));
            s->flush();
            return;
        }
        s->write(cutAfter > 0 ? part.left(cutAfter) : part);
        s->flush();
        s->disconnectFromHost();
    }
    QHash<QByteArray, QByteArray> bodies_;
    QHash<QTcpSocket*, QByteArray> pending_;
};

}  // namespace tstest
