#include "fetch_download.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "net/DatasetDownload.hpp"
#include "text_table.hpp"
#include "tscope/error.hpp"

namespace tscope::cli {

namespace {

// A terminal line rewritten in place, at most 5 times a second.
class ProgressLine {
public:
    explicit ProgressLine(bool quiet) : quiet_(quiet) { clock_.start(); }
    void show(const tsui::DownloadProgress& p, bool force = false) {
        if (quiet_ || (!force && clock_.elapsed() < 200)) return;
        clock_.restart();
        std::string line = "downloaded " + grouped(static_cast<std::uint64_t>(p.received));
        if (p.total >= 0) line += " of " + grouped(static_cast<std::uint64_t>(p.total));
        line += " bytes";
        if (p.bytesPerSecond > 0)
            line += " at " + human_bytes(p.bytesPerSecond) + "/s";  // "13.7 kB/s", not "1.37e-02 MB/s"
        if (p.secondsLeft >= 0) line += ", " + number(p.secondsLeft) + " s left";
        std::fprintf(stderr, "\r%-78s", line.c_str());
        shown_ = true;
    }
    void end() {
        if (shown_) std::fprintf(stderr, "\n");
        shown_ = false;
    }

private:
    bool quiet_, shown_ = false;
    QElapsedTimer clock_;
};

// How long a download may go without a byte before it is given up on: 60 s, or
// TENSORSCOPE_FETCH_STALL_S (a positive number of seconds; tests set a short one).
double stall_seconds() {
    const char* text = std::getenv("TENSORSCOPE_FETCH_STALL_S");
    if (!text || !*text) return 60;
    char* end = nullptr;
    const double s = std::strtod(text, &end);
    if (end == text || *end || !(s > 0) || !std::isfinite(s))
        throw InputError(std::string("TENSORSCOPE_FETCH_STALL_S should be a positive number of seconds, not '") + text +
                         "'");
    return s;
}

// Runs the download on this thread's event loop (the CLI has no other work meanwhile).
void download(const QUrl& url, const QString& target, bool quiet) {
    std::unique_ptr<QCoreApplication> app;
    if (!QCoreApplication::instance()) {
        static int argc = 1;
        static char name[] = "tensorscope-cli";
        static char* argv[] = {name, nullptr};
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    tsui::DatasetDownload d;
    ProgressLine line(quiet);
    QString error;
    QEventLoop loop;
    // a server that stops sending is given up on (one that sent 1,000 bytes and then nothing kept
    // fetch waiting until Ctrl-C, sweep 73a): what arrived stays for the next fetch to resume
    const double stall = stall_seconds();
    bool stalled = false;
    QObject::connect(&d, &tsui::DatasetDownload::progress, [&](const tsui::DownloadProgress& p) {
        line.show(p);
        if (p.idleSeconds >= stall && !stalled) {
            stalled = true;
            d.cancel();
        }
    });
    QObject::connect(&d, &tsui::DatasetDownload::finished, [&](const QString& e) {
        error = e;
        loop.quit();
    });
    d.start(url, target);
    if (d.running()) loop.exec();
    line.end();
    if (stalled) {  // said from the part on disk, not by taking the cancel's own words apart
        const qint64 kept = QFileInfo(tsui::DatasetDownload::partPath(target)).size();
        throw Error(url.toString().toStdString() + ": nothing arrived for " + number(stall) +
                    " s, so the download stopped; the " +
                    grouped(static_cast<std::uint64_t>(std::max<qint64>(kept, 0))) +
                    " bytes fetched so far are kept for a resume (fetch again)");
    }
    if (!error.isEmpty()) throw Error(error.toStdString());
}

}  // namespace

bool fetch_download_built() { return true; }

std::string fetch_and_convert(const CatalogEntry& entry, const std::string& cache_dir, bool quiet) {
    if (!QDir().mkpath(QString::fromStdString(cache_dir))) throw Error("cannot create the cache folder " + cache_dir);
    const std::string gz = downloaded_path(entry, cache_dir);
    if (!QFile::exists(QString::fromStdString(gz))) {
        if (!quiet) std::fprintf(stderr, "fetching %s\n", entry.tensors.front().url.c_str());
        download(QUrl(QString::fromStdString(entry.tensors.front().url)), QString::fromStdString(gz), quiet);
    }
    if (!quiet) std::fprintf(stderr, "converting %s to .tsb\n", gz.c_str());
    return install_download(entry, cache_dir);
}

}  // namespace tscope::cli
