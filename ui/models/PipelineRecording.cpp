#include "models/PipelineRecording.hpp"

#include "models/RecordingFiles.hpp"
#include "views/TextFormat.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

namespace tsui {

namespace {

// Far past any recording the CLI writes (pipeline --streams 1-8, decompose --streams 1-16): a
// lane is drawn per stream, and INT_MAX of them hung the GUI (sweep 64).
constexpr int kMostStreams = 64;
// JSON numbers hold counts exactly up to 2^53.
constexpr double kLargestCount = 9007199254740992.0;

QString keyName(const char* key) { return QStringLiteral("\"%1\"").arg(QLatin1String(key)); }

// A count: 0 when absent; else a whole number in [0, 2^53], or *fault says what it is.
std::uint64_t countOf(const QJsonObject& o, const char* key, QString* fault) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return 0;
    if (!isWholeNumber(v, 0, kLargestCount)) {
        if (fault->isEmpty()) *fault = QObject::tr("%1 must be a whole number of at least 0").arg(keyName(key));
        return 0;
    }
    return static_cast<std::uint64_t>(v.toDouble());
}

// A time in seconds: NaN (not recorded) when absent; else finite and at least 0.
double secondsOf(const QJsonObject& o, const char* key, QString* fault) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return NAN;
    const double x = v.toDouble(NAN);
    if (!v.isDouble() || !std::isfinite(x) || x < 0) {
        if (fault->isEmpty()) *fault = QObject::tr("%1 must be a time in seconds of at least 0").arg(keyName(key));
        return NAN;
    }
    return x;
}

// A share in [0, 1]: NaN when absent.
double shareOf(const QJsonObject& o, const char* key, QString* fault) {
    const double x = secondsOf(o, key, fault);
    if (x > 1 && fault->isEmpty()) *fault = QObject::tr("%1 must be a share from 0 to 1").arg(keyName(key));
    return x;
}

// A chunk of a run of `streams` streams: on one of them, its stage times given, each stage ending
// after it starts; else *fault says what is wrong.
tscope::PipelineChunk chunkFrom(const QJsonObject& o, int streams, QString* fault) {
    tscope::PipelineChunk c;
    const QJsonValue stream = o.value(QStringLiteral("stream"));
    if (!isWholeNumber(stream, -kLargestCount, kLargestCount))
        *fault = QObject::tr("\"stream\" must be a whole number (a stream's index from 0)");
    else if (!isWholeNumber(stream, 0, streams - 1))
        *fault = QObject::tr("stream %1, but the run has %2")
                     .arg(stream.toDouble())
                     .arg(counted(streams, QObject::tr("stream"), QObject::tr("streams")));
    else
        c.stream = static_cast<int>(stream.toDouble());
    c.slices = countOf(o, "slices", fault);
    c.fibers = countOf(o, "fibers", fault);
    c.entries = countOf(o, "entries", fault);
    c.bytes_in = countOf(o, "bytes_in", fault);
    c.bytes_out = countOf(o, "bytes_out", fault);
    double* times[] = {&c.in_start, &c.in_end, &c.kernel_start, &c.kernel_end, &c.out_start, &c.out_end};
    const char* keys[] = {"in_start", "in_end", "kernel_start", "kernel_end", "out_start", "out_end"};
    for (int k = 0; k < 6; ++k) {
        *times[k] = secondsOf(o, keys[k], fault);
        if (std::isnan(*times[k]) && fault->isEmpty()) *fault = QObject::tr("no %1").arg(keyName(keys[k]));
    }
    if (fault->isEmpty() && (c.in_end < c.in_start || c.kernel_end < c.kernel_start || c.out_end < c.out_start))
        *fault = QObject::tr("a stage that ends before it starts");
    return c;
}

// A run's chunks (chunkFrom); the first fault is named (run, list, chunk, what).
bool chunksFrom(const QJsonValue& v, int streams, int run, const char* list, std::vector<tscope::PipelineChunk>& out,
                QString* error) {
    const QJsonArray chunks = v.toArray();
    for (qsizetype i = 0; i < chunks.size(); ++i) {
        QString fault;
        const tscope::PipelineChunk c = chunkFrom(chunks[i].toObject(), streams, &fault);
        if (!fault.isEmpty()) {
            if (error) *error = QObject::tr("run %1, %2 chunk %3: %4").arg(run + 1).arg(QString::fromLatin1(list)).arg(i + 1).arg(fault);
            return false;
        }
        out.push_back(c);
    }
    return true;
}

// From the first copy-in to the last copy-out.
double spanOf(const std::vector<tscope::PipelineChunk>& chunks) {
    double first = INFINITY, last = 0;
    for (const tscope::PipelineChunk& c : chunks) {
        first = std::min(first, c.in_start);
        last = std::max(last, c.out_end);
    }
    return chunks.empty() ? 0 : last - first;
}

// One run of the recording, or std::nullopt with *error naming it and what is wrong.
std::optional<tscope::PipelineRun> runFrom(const QJsonObject& ro, int index, QString* error) {
    auto refuse = [&](const QString& what) {
        if (error) *error = QObject::tr("run %1: %2").arg(index + 1).arg(what);
        return std::nullopt;
    };
    tscope::PipelineRun run;
    const QJsonValue streams = ro.value(QStringLiteral("streams"));
    if (!isWholeNumber(streams, 1, kMostStreams))
        return refuse(QObject::tr("\"streams\" must be a whole number from 1 to %1, not %2")
                          .arg(kMostStreams)
                          .arg(streams.isDouble() ? QString::number(streams.toDouble())
                                                  : QObject::tr("missing or not a number")));
    run.streams = static_cast<int>(streams.toDouble());
    QString fault;
    run.chunk_bytes = countOf(ro, "chunk_bytes", &fault);
    run.t_sync = secondsOf(ro, "t_sync", &fault);
    run.t_pipe = secondsOf(ro, "t_pipe", &fault);
    run.t_model = secondsOf(ro, "t_model", &fault);
    run.transfer_s = secondsOf(ro, "transfer_s", &fault);
    run.kernel_s = secondsOf(ro, "kernel_s", &fault);
    run.overlap = shareOf(ro, "overlap", &fault);
    run.overlap_of_possible = shareOf(ro, "overlap_of_possible", &fault);
    if (!fault.isEmpty()) return refuse(fault);
    if (!chunksFrom(ro.value(QStringLiteral("chunks")), run.streams, index, "pipelined", run.chunks, error) ||
        !chunksFrom(ro.value(QStringLiteral("sync_chunks")), 1, index, "one-stream", run.sync_chunks, error))
        return std::nullopt;
    if (run.chunks.empty()) return refuse(QObject::tr("no chunks"));
    if (std::isnan(run.overlap_of_possible)) run.overlap_of_possible = tscope::pipeline_overlap_of_possible(run.chunks);
    // T_p is the chunks' span as measured by the same events: one far from it is not of them
    const double span = spanOf(run.chunks);
    if (std::isnan(run.t_pipe)) run.t_pipe = span;
    if (span > 0 && (run.t_pipe > 2 * span || run.t_pipe < span / 2))
        return refuse(QObject::tr("T_p of %1 s, but its chunks span %2 s").arg(run.t_pipe).arg(span));
    return run;
}

// A name as the title and summary show it: at most `most` characters, an ellipsis past them (a
// name of thousands made the window as wide).
QString elided(const QString& name, qsizetype most) { return name.size() > most ? name.left(most - 1) + QChar(0x2026) : name; }

}  // namespace

std::optional<PipelineRecording> parseRecording(const QByteArray& json, QString* error) {
    const std::optional<QJsonDocument> doc = parseJsonDocument(json, error);
    if (!doc) return std::nullopt;
    const QJsonObject o = doc->object();
    const QJsonArray runs = o.value(QStringLiteral("pipeline")).toArray();
    if (runs.isEmpty()) {
        if (error) *error = QObject::tr("no \"pipeline\" runs in it (is it `tensorscope-cli pipeline --json` output?)");
        return std::nullopt;
    }
    PipelineRecording r;
    r.device = elided(o.value(QStringLiteral("device")).toString(), 80);
    r.commit = o.value(QStringLiteral("commit")).toString().left(40);
    r.format = elided(o.value(QStringLiteral("format")).toString(), 80);
    QString fault;
    r.nnz = countOf(o, "nnz", &fault);
    r.bytesIn = countOf(o, "bytes_in", &fault);
    if (!fault.isEmpty()) {
        if (error) *error = fault;
        return std::nullopt;
    }
    const QJsonValue tensor = o.value(QStringLiteral("tensor"));
    r.tensor = elided(tensor.isObject() ? tensor.toObject().value(QStringLiteral("generated_by")).toString()
                                        : o.value(QStringLiteral("file")).toString(),
                      240);
    for (const QJsonValue& v : runs) {
        std::optional<tscope::PipelineRun> run = runFrom(v.toObject(), static_cast<int>(r.runs.size()), error);
        if (!run) return std::nullopt;
        if (r.runs.empty() || run->t_pipe < r.runs[r.best].t_pipe) r.best = r.runs.size();
        r.runs.push_back(std::move(*run));
    }
    const tscope::PipelineRun& best = r.runs[r.best];
    r.title = QObject::tr("%1 · %2 · %3 nonzeros · %4")
                  .arg(r.device.isEmpty() ? QObject::tr("unknown GPU") : r.device, r.format)
                  .arg(QLocale().toString(static_cast<qulonglong>(r.nnz)))
                  .arg(counted(best.streams, QObject::tr("stream"), QObject::tr("streams")));
    return r;
}

std::optional<PipelineRecording> readRecording(const QString& path, QString* error) {
    return readRecordingFile<PipelineRecording>(path, error, parseRecording);
}

PipelineRecording fromReport(const tscope::PipelineReport& report, const QString& device, const QString& tensor) {
    PipelineRecording r;
    r.device = device;
    r.tensor = tensor;
    r.format = QString::fromStdString(report.format);
    r.nnz = report.nnz;
    r.bytesIn = report.bytes_in;
    r.runs = report.runs;
    r.best = report.best;
    r.title = QObject::tr("live · %1 · %2").arg(device, r.format);
    return r;
}

std::vector<PipelineRecording> bundledRecordings() {
    return bundledRecordingFiles<PipelineRecording>(QStringLiteral(":/recordings"), QStringLiteral("*.json"), readRecording);
}

}  // namespace tsui
