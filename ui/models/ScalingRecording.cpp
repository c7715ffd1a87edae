#include "models/ScalingRecording.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "models/RecordingFiles.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

namespace {

bool isCount(const QJsonValue& v) { return isWholeNumber(v, 1, 999999); }

bool isSeconds(const QJsonValue& v) { return v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() >= 0; }

// "2 x NVIDIA H200" -> NVIDIA H200; "2 parts on one NVIDIA H200" -> the same, shared.
QString gpuName(const QString& rowDevice, bool* shared) {
    static const QRegularExpression prefix(QStringLiteral("^(\\d+) (x|parts on one) (.+)$"));
    const QRegularExpressionMatch m = prefix.match(rowDevice);
    *shared = m.hasMatch() && m.captured(2) == QLatin1String("parts on one");
    return m.hasMatch() ? m.captured(3) : rowDevice;
}

// One document's rows. `where` prefixes every fault ("document 2: "); *skipped counts rows
// that have "gpus" but did not run, *firstReason keeps why the first of them did not.
bool readDocument(const QJsonObject& o, const QString& where, ScalingRecording& r, int* skipped, QString* firstReason,
                  int* results, QString* error) {
    const QJsonObject body = o.contains(QStringLiteral("results")) ? o : o.value(QStringLiteral("bench")).toObject();
    const QJsonValue list = body.value(QStringLiteral("results"));
    if (!list.isArray()) {
        if (error)
            *error = where +
                     QObject::tr("no \"results\" list in it (is it `tensorscope-cli bench --gpus N --json` output?)");
        return false;
    }
    const QString recordDevice = o.value(QStringLiteral("device")).toString();
    QString tensor = QFileInfo(body.value(QStringLiteral("file")).toString()).fileName();
    if (tensor.isEmpty()) tensor = o.value(QStringLiteral("tensor")).toString();
    if (tensor.isEmpty()) tensor = QObject::tr("unnamed tensor");
    if (body.value(QStringLiteral("nnz")).isDouble())
        tensor += QObject::tr(" (%1 nonzeros)")
                      .arg(grouped(static_cast<std::uint64_t>(body.value(QStringLiteral("nnz")).toDouble())));
    if (r.tensor.isEmpty()) r.tensor = tensor;
    if (r.device.isEmpty()) r.device = recordDevice;
    if (r.commit.isEmpty()) r.commit = o.value(QStringLiteral("commit")).toString();
    if (r.command.isEmpty()) r.command = o.value(QStringLiteral("command")).toString();

    const QJsonArray rows = list.toArray();
    *results += static_cast<int>(rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QString at = where + QStringLiteral("results[%1]: ").arg(i);
        if (!rows[i].isObject()) {
            if (error) *error = at + QObject::tr("not an object");
            return false;
        }
        const QJsonObject row = rows[i].toObject();
        const QString kernel = row.value(QStringLiteral("kernel")).toString(QStringLiteral("mttkrp"));
        if (!row.contains(QStringLiteral("gpus")) || kernel != QLatin1String("mttkrp"))
            continue;  // not a multi-GPU row
        if (!row.value(QStringLiteral("ran")).toBool(true)) {
            if (++*skipped == 1) *firstReason = row.value(QStringLiteral("error")).toString();
            continue;
        }
        ScalingRow s;
        const QJsonValue gpus = row.value(QStringLiteral("gpus")), mode = row.value(QStringLiteral("mode")),
                         median = row.value(QStringLiteral("median_s"));
        QString fault;
        if (!isCount(gpus))
            fault = QObject::tr("\"gpus\" should be a whole number of at least 1");
        else if (!isCount(mode))
            fault = QObject::tr("\"mode\" should be a whole number of at least 1");
        else if (!isSeconds(median))
            fault = QObject::tr("\"median_s\" should be a non-negative number of seconds");
        else if (row.value(QStringLiteral("format")).toString().isEmpty())
            fault = QObject::tr("no \"format\"");
        for (const char* key : {"kernel_s", "collective_s"})
            if (fault.isEmpty() && row.contains(QLatin1String(key)) && !isSeconds(row.value(QLatin1String(key))))
                fault = QObject::tr("\"%1\" should be a non-negative number of seconds").arg(QLatin1String(key));
        if (!fault.isEmpty()) {
            if (error) *error = at + fault;
            return false;
        }
        s.gpus = gpus.toInt(), s.mode = mode.toInt(), s.seconds = median.toDouble();
        s.kernelSeconds = row.value(QStringLiteral("kernel_s")).toDouble();
        s.collectiveSeconds = row.value(QStringLiteral("collective_s")).toDouble();
        s.format = row.value(QStringLiteral("format")).toString();
        s.device = gpuName(row.value(QStringLiteral("device")).toString(), &s.sharedGpu);
        if (!recordDevice.isEmpty()) s.device = recordDevice;  // a record's device names the machine too
        if (s.device.isEmpty()) s.device = QObject::tr("unknown GPU");
        s.tensor = tensor;
        r.rows.push_back(std::move(s));
    }
    return true;
}

}  // namespace

bool ScalingLine::modesDiffer() const {
    for (const ScalingPoint& p : points)
        if (p.modes != points.front().modes) return true;
    return false;
}

std::optional<ScalingRecording> parseScalingRecording(const QByteArray& json, QString* error) {
    const std::optional<QJsonDocument> parsed = parseJsonDocument(json, error);
    if (!parsed) return std::nullopt;
    const QJsonDocument& doc = *parsed;
    std::vector<QJsonObject> docs;
    if (doc.isObject()) {
        docs.push_back(doc.object());
    } else {
        const QJsonArray all = doc.array();
        for (qsizetype i = 0; i < all.size(); ++i) {
            if (!all[i].isObject()) {
                if (error) *error = QObject::tr("document %1: not an object").arg(i + 1);
                return std::nullopt;
            }
            docs.push_back(all[i].toObject());
        }
        if (docs.empty()) {
            if (error) *error = QObject::tr("an empty list: no bench documents in it");
            return std::nullopt;
        }
    }
    ScalingRecording r;
    int skipped = 0, results = 0;
    QString firstReason;
    for (std::size_t i = 0; i < docs.size(); ++i) {
        const QString where = docs.size() > 1 ? QObject::tr("document %1: ").arg(i + 1) : QString();
        if (!readDocument(docs[i], where, r, &skipped, &firstReason, &results, error)) return std::nullopt;
    }
    if (r.rows.empty()) {
        if (error)
            *error = skipped > 0 ? QObject::tr("none of its %1 multi-GPU rows ran (the first: %2)")
                                       .arg(skipped)
                                       .arg(firstReason.isEmpty() ? QObject::tr("no reason given") : firstReason)
                                 : QObject::tr(
                                       "none of its %1 results has \"gpus\": it is not from "
                                       "`tensorscope-cli bench --gpus N --json`")
                                       .arg(results);
        return std::nullopt;
    }
    std::set<int> counts;
    for (const ScalingRow& row : r.rows) counts.insert(row.gpus);
    QStringList countText;
    for (int c : counts) countText << QString::number(c);
    if (r.device.isEmpty()) r.device = r.rows.front().device;
    const bool one = counts.size() == 1 && *counts.begin() == 1;
    r.title = QObject::tr("%1 · %2 · %3 %4")
                  .arg(r.device, r.tensor, countText.join(QStringLiteral(", ")),
                       one ? QObject::tr("GPU") : QObject::tr("GPUs"));
    return r;
}

std::optional<ScalingRecording> readScalingRecording(const QString& path, QString* error) {
    return readRecordingFile<ScalingRecording>(path, error, parseScalingRecording);
}

std::vector<ScalingLine> scalingLines(const std::vector<ScalingRecording>& recordings) {
    using Key = std::tuple<QString, QString, QString>;                    // device, tensor, format
    std::vector<Key> order;                                               // as first seen: the legend's order
    std::map<Key, std::map<int, std::map<int, const ScalingRow*>>> rows;  // -> gpus -> mode -> row
    for (const ScalingRecording& r : recordings)
        for (const ScalingRow& row : r.rows) {
            const Key key{row.device, row.tensor, row.format};
            if (!rows.count(key)) order.push_back(key);
            rows[key][row.gpus][row.mode] = &row;
        }
    std::vector<ScalingLine> lines;
    for (const Key& key : order) {
        ScalingLine line;
        std::tie(line.device, line.tensor, line.format) = key;
        for (const auto& [gpus, modes] : rows[key]) {
            ScalingPoint p;
            p.gpus = gpus;
            for (const auto& [mode, row] : modes) {
                p.seconds += row->seconds;
                p.kernelSeconds += row->kernelSeconds;
                p.collectiveSeconds += row->collectiveSeconds;
                ++p.modes;
                line.sharedGpu = line.sharedGpu || row->sharedGpu;
            }
            line.points.push_back(p);
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<ScalingRecording> bundledScalingRecordings(QStringList* errors) {
    return bundledRecordingFiles<ScalingRecording>(QStringLiteral(":/recordings/scaling"), QStringLiteral("*-scaling-*.json"),
                                                   readScalingRecording, errors);
}

}  // namespace tsui
