#include "models/PipelineRecording.hpp"

#include "models/RecordingFiles.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace tsui {

namespace {

tscope::PipelineChunk chunkFrom(const QJsonObject& o) {
    tscope::PipelineChunk c;
    c.stream = o.value(QStringLiteral("stream")).toInt();
    c.slices = static_cast<std::uint64_t>(o.value(QStringLiteral("slices")).toInteger());
    c.fibers = static_cast<std::uint64_t>(o.value(QStringLiteral("fibers")).toInteger());
    c.entries = static_cast<std::uint64_t>(o.value(QStringLiteral("entries")).toInteger());
    c.bytes_in = static_cast<std::uint64_t>(o.value(QStringLiteral("bytes_in")).toInteger());
    c.bytes_out = static_cast<std::uint64_t>(o.value(QStringLiteral("bytes_out")).toInteger());
    c.in_start = o.value(QStringLiteral("in_start")).toDouble();
    c.in_end = o.value(QStringLiteral("in_end")).toDouble();
    c.kernel_start = o.value(QStringLiteral("kernel_start")).toDouble();
    c.kernel_end = o.value(QStringLiteral("kernel_end")).toDouble();
    c.out_start = o.value(QStringLiteral("out_start")).toDouble();
    c.out_end = o.value(QStringLiteral("out_end")).toDouble();
    return c;
}

std::vector<tscope::PipelineChunk> chunksFrom(const QJsonValue& v) {
    std::vector<tscope::PipelineChunk> out;
    for (const QJsonValue& c : v.toArray()) out.push_back(chunkFrom(c.toObject()));
    return out;
}

// A recording is input like any file: every chunk on a stream the run has, its stage times
// finite, non-negative and in order. The first fault is named (run, list, chunk, what).
bool chunksAreSound(const std::vector<tscope::PipelineChunk>& chunks, int streams, int run, const char* list, QString* error) {
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const tscope::PipelineChunk& c = chunks[i];
        QString fault;
        if (c.stream < 0 || c.stream >= streams)
            fault = QObject::tr("stream %1, but the run has %2 stream(s)").arg(c.stream).arg(streams);
        const double t[] = {c.in_start, c.in_end, c.kernel_start, c.kernel_end, c.out_start, c.out_end};
        for (double x : t)
            if (fault.isEmpty() && (!std::isfinite(x) || x < 0)) fault = QObject::tr("a stage time of %1 s").arg(x);
        if (fault.isEmpty() && (c.in_end < c.in_start || c.kernel_end < c.kernel_start || c.out_end < c.out_start))
            fault = QObject::tr("a stage that ends before it starts");
        if (!fault.isEmpty()) {
            if (error) *error = QObject::tr("run %1, %2 chunk %3: %4").arg(run + 1).arg(QString::fromLatin1(list)).arg(i + 1).arg(fault);
            return false;
        }
    }
    return true;
}

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
    r.device = o.value(QStringLiteral("device")).toString();
    r.commit = o.value(QStringLiteral("commit")).toString();
    r.format = o.value(QStringLiteral("format")).toString();
    r.nnz = static_cast<std::uint64_t>(o.value(QStringLiteral("nnz")).toInteger());
    r.bytesIn = static_cast<std::uint64_t>(o.value(QStringLiteral("bytes_in")).toInteger());
    const QJsonValue tensor = o.value(QStringLiteral("tensor"));
    r.tensor = tensor.isObject() ? tensor.toObject().value(QStringLiteral("generated_by")).toString()
                                 : o.value(QStringLiteral("file")).toString();
    for (const QJsonValue& v : runs) {
        const QJsonObject ro = v.toObject();
        tscope::PipelineRun run;
        run.streams = ro.value(QStringLiteral("streams")).toInt();
        run.chunk_bytes = static_cast<std::uint64_t>(ro.value(QStringLiteral("chunk_bytes")).toInteger());
        run.chunks = chunksFrom(ro.value(QStringLiteral("chunks")));
        run.sync_chunks = chunksFrom(ro.value(QStringLiteral("sync_chunks")));
        run.t_sync = ro.value(QStringLiteral("t_sync")).toDouble();
        run.t_pipe = ro.value(QStringLiteral("t_pipe")).toDouble();
        run.t_model = ro.value(QStringLiteral("t_model")).toDouble();
        run.overlap = ro.value(QStringLiteral("overlap")).toDouble();
        run.transfer_s = ro.value(QStringLiteral("transfer_s")).toDouble();
        run.kernel_s = ro.value(QStringLiteral("kernel_s")).toDouble();
        run.overlap_of_possible = ro.contains(QStringLiteral("overlap_of_possible"))
                                      ? ro.value(QStringLiteral("overlap_of_possible")).toDouble()
                                      : tscope::pipeline_overlap_of_possible(run.chunks);
        if (run.streams < 1 || run.chunks.empty()) {
            if (error) *error = QObject::tr("a run without streams or chunks");
            return std::nullopt;
        }
        const int index = static_cast<int>(r.runs.size());
        if (!chunksAreSound(run.chunks, run.streams, index, "pipelined", error) ||
            !chunksAreSound(run.sync_chunks, 1, index, "one-stream", error))
            return std::nullopt;
        if (r.runs.empty() || run.t_pipe < r.runs[r.best].t_pipe) r.best = r.runs.size();
        r.runs.push_back(std::move(run));
    }
    const tscope::PipelineRun& best = r.runs[r.best];
    r.title = QObject::tr("%1 · %2 · %3 nonzeros · %4 stream(s)")
                  .arg(r.device.isEmpty() ? QObject::tr("unknown GPU") : r.device, r.format)
                  .arg(QLocale().toString(static_cast<qulonglong>(r.nnz)))
                  .arg(best.streams);
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
