#include "models/BenchRecording.hpp"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <cmath>

#include "models/RecordingFiles.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/tensor/coo_tensor.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

constexpr int kMostModes = tscope::kMaxOrder;
constexpr std::uint64_t kMostRank = 1 << 20;  // far past bench's --rank (at most 4096)

bool isNumber(const QJsonValue& v) { return v.isDouble() && std::isfinite(v.toDouble()); }

// A count from a whole number in [0, most]; absent leaves `to` as it is. A cast of a negative
// or huge double to an integer is undefined (rank -7 showed as a number, 1e308 as 0).
QString readCount(const QJsonObject& o, const char* key, std::uint64_t most, std::uint64_t& to) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return {};
    if (!isWholeNumber(v, 0, static_cast<double>(most)))
        return QObject::tr("\"%1\" should be a whole number from 0 to %2").arg(QLatin1String(key)).arg(most);
    to = static_cast<std::uint64_t>(v.toDouble());
    return {};
}

// The row's fields into r, or a fault naming the key. The engine's parsers name the choices.
QString readRow(const QJsonObject& o, tscope::BenchResult& r) {
    try {
        r.kernel = tscope::parse_kernel(o.value(QStringLiteral("kernel")).toString().toStdString());
        r.format = tscope::parse_format(o.value(QStringLiteral("format")).toString().toStdString());
        r.backend = tscope::parse_backend(o.value(QStringLiteral("backend")).toString().toStdString());
    } catch (const tscope::Error& e) {
        return QString::fromStdString(e.what());
    }
    const QJsonValue mode = o.value(QStringLiteral("mode"));
    if (!isWholeNumber(mode, 1, kMostModes))
        return QObject::tr("\"mode\" should be a whole number from 1 to %1").arg(kMostModes);
    r.mode = mode.toInt() - 1;
    if (!o.value(QStringLiteral("ran")).isBool()) return QObject::tr("\"ran\" should be true or false");
    r.ran = o.value(QStringLiteral("ran")).toBool();
    r.variant = o.value(QStringLiteral("variant")).toString().toStdString();
    r.path = o.value(QStringLiteral("path")).toString().toStdString();
    r.error = o.value(QStringLiteral("error")).toString().toStdString();
    r.device = o.value(QStringLiteral("device")).toString().toStdString();
    r.peak_source = o.value(QStringLiteral("peak_source")).toString().toStdString();
    if (!r.ran) return {};
    // every number a run row has; absent ones stay 0 (an older bench), a wrong one is a fault
    struct Field {
        const char* key;
        double* to;
    } fields[] = {{"median_s", &r.median_s},
                  {"transfer_s", &r.transfer_s},
                  {"gflops", &r.gflops},
                  {"gbps", &r.gbps},
                  {"intensity", &r.intensity},
                  {"copy_gbps", &r.copy_gbps},
                  {"bound_s", &r.bound_s},
                  {"share_of_bound", &r.share_of_bound},
                  {"peak_gflops", &r.peak_gflops},
                  {"gather_gbps", &r.gather_gbps},
                  {"gather_bound_s", &r.gather_bound_s},
                  {"add_gbps", &r.add_gbps},
                  {"share_of_gather_bound", &r.share_of_gather_bound},
                  {"build_seconds", &r.build_seconds}};
    for (const Field& f : fields) {
        const QJsonValue v = o.value(QLatin1String(f.key));
        if (v.isUndefined()) continue;
        if (!isNumber(v) || v.toDouble() < 0) return QObject::tr("\"%1\" should be a non-negative number").arg(QLatin1String(f.key));
        *f.to = v.toDouble();
    }
    if (!o.contains(QStringLiteral("median_s"))) return QObject::tr("a row that ran needs \"median_s\"");
    // bytes_moved is the older name of min_bytes; 2^53 is where a JSON number stops counting exactly
    constexpr std::uint64_t kExact = std::uint64_t{1} << 53;
    const std::pair<const char*, std::uint64_t*> counts[] = {{"bytes_moved", &r.bytes_moved},
                                                             {"min_bytes", &r.bytes_moved},
                                                             {"gather_bytes", &r.gather_bytes},
                                                             {"add_bytes", &r.add_bytes},
                                                             {"vector_packed", &r.vector_packed}};
    if (QString fault = readCount(o, "rank", kMostRank, r.rank); !fault.isEmpty()) return fault;
    for (const auto& [key, to] : counts)
        if (QString fault = readCount(o, key, kExact, *to); !fault.isEmpty()) return fault;
    if (isNumber(o.value(QStringLiteral("max_rel_error")))) r.max_rel_error = o.value(QStringLiteral("max_rel_error")).toDouble();
    // JSON has no inf: a failed check's infinite error is null, told apart by check_passed (sweep 65c)
    else if (o.value(QStringLiteral("check_passed")) == QJsonValue(false))
        r.max_rel_error = INFINITY;
    for (const QJsonValue& s : o.value(QStringLiteral("seconds")).toArray()) r.seconds.push_back(s.toDouble());
    return {};
}

// A document's header: the tensor, and the machine where a record names it.
void readHeader(const QJsonObject& o, BenchRecording& r) {
    if (r.tensor.isEmpty()) {
        r.tensor = QFileInfo(o.value(QStringLiteral("file")).toString()).fileName();
        if (!r.tensor.isEmpty() && o.value(QStringLiteral("nnz")).isDouble())
            r.tensor += QObject::tr(" (%1 nonzeros)").arg(grouped(static_cast<std::uint64_t>(o.value(QStringLiteral("nnz")).toDouble())));
    }
    if (r.device.isEmpty()) r.device = o.value(QStringLiteral("device")).toString();
    if (r.commit.isEmpty()) r.commit = o.value(QStringLiteral("commit")).toString();
    if (r.command.isEmpty()) r.command = o.value(QStringLiteral("command")).toString();
}

bool readRows(const QJsonArray& rows, const QString& where, BenchRecording& r, QString* error) {
    for (qsizetype i = 0; i < rows.size(); ++i) {
        tscope::BenchResult row{};
        const QString fault = rows[i].isObject() ? readRow(rows[i].toObject(), row) : QObject::tr("not an object");
        if (!fault.isEmpty()) {
            if (error) *error = where + QStringLiteral("results[%1]: ").arg(i) + fault;
            return false;
        }
        r.rows.push_back(std::move(row));
    }
    return true;
}

// --jsonl: a row a line, then the summary ({"file", "rows", ...}); blank lines are skipped.
std::optional<BenchRecording> parseLines(const QByteArray& text, QString* error) {
    BenchRecording r;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype n = 0; n < lines.size(); ++n) {
        if (lines[n].trimmed().isEmpty()) continue;
        const QString where = QObject::tr("line %1: ").arg(n + 1);
        QString fault;
        const std::optional<QJsonDocument> doc = parseJsonDocument(lines[n], &fault);
        if (!doc && n + 1 == lines.size() && !r.rows.empty()) {
            // the last line, with no newline after it: a run stopped while writing it (bench
            // flushes each row as it finishes), so the rows before it stand
            r.note =
                QObject::tr("line %1 was cut short (the run stopped while writing it); the %2 rows before it are shown")
                    .arg(n + 1)
                    .arg(r.rows.size());
            break;
        }
        if (!doc || !doc->isObject()) {
            if (error) *error = where + (doc ? QObject::tr("not a JSON object") : fault);
            return std::nullopt;
        }
        const QJsonObject o = doc->object();
        if (!o.contains(QStringLiteral("kernel"))) {  // the summary line
            readHeader(o, r);
            continue;
        }
        tscope::BenchResult row{};
        fault = readRow(o, row);
        if (!fault.isEmpty()) {
            if (error) *error = where + fault;
            return std::nullopt;
        }
        r.rows.push_back(std::move(row));
    }
    return r;
}

}  // namespace

std::optional<BenchRecording> parseBenchRecording(const QByteArray& json, QString* error) {
    std::optional<BenchRecording> r;
    const QJsonDocument whole = QJsonDocument::fromJson(json);
    const QJsonObject o = whole.object();
    const bool document = o.contains(QStringLiteral("results")) || o.contains(QStringLiteral("bench"));
    const int newline = json.trimmed().indexOf('\n');
    const bool lines = !document && (o.contains(QStringLiteral("kernel")) ||  // --jsonl of one row
                                     (whole.isNull() && QJsonDocument::fromJson(json.trimmed().left(newline)).isObject()));
    if (lines) {
        r = parseLines(json, error);
    } else {
        const std::optional<QJsonDocument> doc = parseJsonDocument(json, error);
        if (!doc) return std::nullopt;
        if (!doc->isObject()) {
            if (error) *error = QObject::tr("not a JSON object");
            return std::nullopt;
        }
        const QJsonObject body = o.contains(QStringLiteral("results")) ? o : o.value(QStringLiteral("bench")).toObject();
        if (!body.value(QStringLiteral("results")).isArray()) {
            if (error) *error = QObject::tr("no \"results\" list in it (is it `tensorscope-cli bench --json` output?)");
            return std::nullopt;
        }
        r.emplace();
        readHeader(o, *r);
        readHeader(body, *r);
        if (!readRows(body.value(QStringLiteral("results")).toArray(), {}, *r, error)) return std::nullopt;
    }
    if (!r) return std::nullopt;
    if (r->rows.empty()) {
        if (error) *error = QObject::tr("no benchmark rows in it");
        return std::nullopt;
    }
    if (r->device.isEmpty())
        for (const tscope::BenchResult& row : r->rows)
            if (!row.device.empty()) r->device = QString::fromStdString(row.device);
    return r;
}

std::optional<BenchRecording> readBenchRecording(const QString& path, QString* error) {
    std::optional<BenchRecording> r = readRecordingFile<BenchRecording>(path, error, parseBenchRecording);
    if (r) r->title = QFileInfo(path).completeBaseName();
    return r;
}

std::vector<BenchRecording> bundledBenchRecordings(QStringList* errors) {
    return bundledRecordingFiles<BenchRecording>(QStringLiteral(":/recordings/bench"), QStringLiteral("*-bench-*.json"),
                                                 readBenchRecording, errors);
}

}  // namespace tsui
