#include "models/DecompRunFile.hpp"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

#include "models/RecordingFiles.hpp"
#include "tscope/error.hpp"

namespace tsui {

namespace {

double numberOr(const QJsonObject& o, const char* key, double fallback = NAN) {
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : fallback;
}

}  // namespace

std::optional<DecompRunFile> parseDecompRun(const QByteArray& json, QString* error) {
    const std::optional<QJsonDocument> doc = parseJsonDocument(json, error);
    if (!doc) return std::nullopt;
    const QJsonObject o = doc->object();
    auto fail = [error](const QString& what) {
        if (error) *error = what;
        return std::nullopt;
    };
    if (!o.value(QStringLiteral("method")).isString() || !o.value(QStringLiteral("iterations")).isArray())
        return fail(QObject::tr("not a decompose run: expected \"method\" and \"iterations\" (tensorscope-cli decompose ... --json)"));
    DecompRunFile f;
    DecompRun& r = f.run;
    try {
        r.method = tscope::parse_decomp_method(o.value(QStringLiteral("method")).toString().toStdString());
    } catch (const tscope::Error& e) {
        return fail(QString::fromStdString(e.what()));
    }
    r.rank = o.value(QStringLiteral("rank")).toInt();
    r.format = o.value(QStringLiteral("format")).toString();
    r.backend = o.value(QStringLiteral("backend")).toString();
    f.file = o.value(QStringLiteral("file")).toString();
    f.ranks = o.value(QStringLiteral("ranks")).toInt(1);
    f.grid = o.value(QStringLiteral("grid")).toString();
    const QJsonArray its = o.value(QStringLiteral("iterations")).toArray();
    for (int i = 0; i < its.size(); ++i) {
        const QJsonObject it = its[i].toObject();
        tscope::IterationReport rep;
        rep.iter = it.value(QStringLiteral("iter")).toInt(-1);
        rep.seconds = numberOr(it, "seconds");
        if (rep.iter < 1 || std::isnan(rep.seconds))
            return fail(QObject::tr("iteration %1 has no \"iter\" or \"seconds\"").arg(i + 1));
        rep.iter_seconds = numberOr(it, "iter_seconds", 0);
        rep.fit = numberOr(it, "fit");
        rep.mttkrp_seconds = numberOr(it, "mttkrp_s"), rep.dense_seconds = numberOr(it, "dense_s"), rep.fit_seconds = numberOr(it, "fit_s");
        rep.train_rmse = numberOr(it, "train_rmse"), rep.test_rmse = numberOr(it, "test_rmse");
        rep.train_mae = numberOr(it, "train_mae"), rep.test_mae = numberOr(it, "test_mae");
        r.iterations.push_back(rep);
    }
    if (r.iterations.empty()) return fail(QObject::tr("the run has no iterations"));
    r.outcome = o.value(QStringLiteral("converged")).toBool() ? QObject::tr("converged") : QObject::tr("done");
    for (const QJsonValue& v : o.value(QStringLiteral("per_rank")).toArray()) {
        const QJsonObject x = v.toObject();
        f.perRank.push_back({numberOr(x, "nnz", 0), numberOr(x, "rows_sent", 0), numberOr(x, "rows_received", 0),
                             numberOr(x, "comm_s", 0), numberOr(x, "compute_s", 0)});
    }
    if (!f.perRank.empty() && static_cast<int>(f.perRank.size()) != f.ranks)
        return fail(QObject::tr("\"per_rank\" has %1 entries for %2 ranks").arg(f.perRank.size()).arg(f.ranks));
    return f;
}

std::optional<DecompRunFile> readDecompRunFile(const QString& path, QString* error) {
    return readRecordingFile<DecompRunFile>(path, error, parseDecompRun);
}

}  // namespace tsui
