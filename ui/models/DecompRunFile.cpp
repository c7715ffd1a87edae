#include "models/DecompRunFile.hpp"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

#include "models/RecordingFiles.hpp"
#include "tscope/error.hpp"

namespace tsui {

namespace {

double numberOr(const QJsonObject& o, const char* key, double fallback = NAN) {
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : fallback;
}

// Past what decompose runs (--iters at most 100000) and the ranks an MPI run has here: a file
// beyond them is not a run, and drawing it froze the window for minutes.
constexpr int kMostIterations = 100000;
constexpr int kMostRanks = 4096;

// A distributed run's setup from its ranks' ("per_rank": read_s, distribute_s, build_s): each
// part as long as its slowest rank, since the ranks wait for each other between them; the read
// and the hand-out of the nonzeros together are its read. An opened cluster run had drawn no
// setup at all (sweep 72b). std::nullopt where the ranks do not give these.
std::optional<CpdSetup> distributedSetup(const QJsonObject& o) {
    const QJsonArray ranks = o.value(QStringLiteral("per_rank")).toArray();
    if (ranks.isEmpty()) return std::nullopt;
    CpdSetup setup;
    for (const QJsonValue& v : ranks) {
        const QJsonObject x = v.toObject();
        const double read = numberOr(x, "read_s", -1), distribute = numberOr(x, "distribute_s", -1),
                     build = numberOr(x, "build_s", -1);
        for (double t : {read, distribute, build})
            if (!std::isfinite(t) || t < 0) return std::nullopt;
        setup.readSeconds = std::max(setup.readSeconds, read + distribute);
        setup.buildSeconds = std::max(setup.buildSeconds, build);
    }
    return setup;
}

// The setup a CPD run's JSON reports ("setup": read, build, upload; "peak_device_bytes"), for
// the chart of what it spent once; std::nullopt where the file has none (other methods, older
// runs) or a number in it is not a time.
std::optional<CpdSetup> readSetup(const QJsonObject& o) {
    const QJsonObject s = o.value(QStringLiteral("setup")).toObject();
    if (s.isEmpty()) return distributedSetup(o);
    CpdSetup setup;
    setup.readSeconds = numberOr(s, "read_s", 0), setup.buildSeconds = numberOr(s, "build_s", 0);
    setup.uploadSeconds = numberOr(s, "upload_s", 0);
    for (double x : {setup.readSeconds, setup.buildSeconds, setup.uploadSeconds})
        if (!std::isfinite(x) || x < 0) return std::nullopt;
    setup.builtOnDevice = s.value(QStringLiteral("built_on")).toString() == QStringLiteral("device");
    const double peak = numberOr(o, "peak_device_bytes", 0);
    setup.peakDeviceBytes = peak > 0 && peak < 1e18 ? static_cast<std::uint64_t>(peak) : 0;
    const double best = numberOr(o, "best_start", 1);  // numbered from 1 (from 0 before session 70)
    setup.bestStart = best >= 1 && best < 1000 ? static_cast<int>(best) - 1 : 0;
    return setup;
}

// Why one iteration cannot be part of a run ("" when it can): times are finite, non-negative and
// add up; a fit is at most 1 (1 - the relative error); errors are non-negative.
QString iterationFault(const tscope::IterationReport& rep, const tscope::IterationReport* before) {
    if (!std::isfinite(rep.seconds) || rep.seconds < 0 || !std::isfinite(rep.iter_seconds) || rep.iter_seconds < 0)
        return QObject::tr("its times should be non-negative numbers of seconds");
    if (before && (rep.iter <= before->iter || rep.seconds < before->seconds))
        return QObject::tr("it comes after iteration %1 but not later (\"iter\" and \"seconds\" grow)")
            .arg(before->iter);
    if (!std::isnan(rep.fit) && !(rep.fit <= 1 + 1e-9))
        return QObject::tr("its fit %1 is past 1 (a fit is 1 - the relative error)").arg(rep.fit);
    for (double e : {rep.train_rmse, rep.test_rmse, rep.train_mae, rep.test_mae})
        if (!std::isnan(e) && !(e >= 0 && std::isfinite(e)))
            return QObject::tr("its errors should be non-negative numbers");
    return {};
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
    const QJsonValue rank = o.value(QStringLiteral("rank"));
    if (!rank.isUndefined() && !isWholeNumber(rank, 1, 1 << 20))
        return fail(QObject::tr("\"rank\" should be a whole number of at least 1"));
    r.rank = rank.toInt();
    // Tucker gives its core's size a mode, "ranks": [4, 4, 2] (its label read "r0")
    if (const QJsonArray core = o.value(QStringLiteral("ranks")).toArray(); rank.isUndefined() && !core.isEmpty()) {
        QStringList sizes;
        for (const QJsonValue& v : core) {
            if (!isWholeNumber(v, 1, 1 << 20))
                return fail(QObject::tr("\"ranks\" should list whole numbers of at least 1"));
            sizes << QString::number(v.toInt());
        }
        r.rank = core.first().toInt();
        if (sizes.count(sizes.front()) != sizes.size()) r.rankText = sizes.join(QLatin1Char(','));
    }
    r.format = o.value(QStringLiteral("format")).toString();
    r.backend = o.value(QStringLiteral("backend")).toString();
    f.file = o.value(QStringLiteral("file")).toString();
    f.ranks = o.value(QStringLiteral("ranks")).toInt(1);  // Tucker's "ranks" is a list (its core): 1 process
    if (f.ranks < 1 || f.ranks > kMostRanks)
        return fail(QObject::tr("\"ranks\" should be a number of processes from 1 to %1").arg(kMostRanks));
    f.grid = o.value(QStringLiteral("grid")).toString();
    // A run of --restarts K keeps every start's curve in "starts" (its "iterations" are the
    // kept start's): all K are drawn, as in a run made in the window (sweep 71b: one was).
    const QJsonArray starts = o.value(QStringLiteral("starts")).toArray();
    std::vector<std::pair<QJsonArray, int>> curves;
    if (starts.size() > 1)
        for (int k = 0; k < starts.size(); ++k)
            curves.emplace_back(starts[k].toObject().value(QStringLiteral("iterations")).toArray(), k);
    else
        curves.emplace_back(o.value(QStringLiteral("iterations")).toArray(), 0);
    qsizetype total = 0;
    for (const auto& c : curves) total += c.first.size();
    if (total > kMostIterations)
        return fail(
            QObject::tr("%1 iterations: more than decompose runs (at most %2)").arg(total).arg(kMostIterations));
    for (const auto& [its, start] : curves) {
        const std::size_t first = r.iterations.size();
        for (int i = 0; i < its.size(); ++i) {
            const QJsonObject it = its[i].toObject();
            const QString where = curves.size() > 1 ? QObject::tr("start %1, iteration %2").arg(start + 1).arg(i + 1)
                                                    : QObject::tr("iteration %1").arg(i + 1);
            tscope::IterationReport rep;
            rep.start = start;
            rep.iter = it.value(QStringLiteral("iter")).toInt(-1);
            rep.seconds = numberOr(it, "seconds");
            if (rep.iter < 1 || std::isnan(rep.seconds))
                return fail(QObject::tr("%1 has no \"iter\" or \"seconds\"").arg(where));
            rep.iter_seconds = numberOr(it, "iter_seconds", 0);
            rep.fit = numberOr(it, "fit");
            rep.mttkrp_seconds = numberOr(it, "mttkrp_s"), rep.dense_seconds = numberOr(it, "dense_s"),
            rep.fit_seconds = numberOr(it, "fit_s");
            rep.train_rmse = numberOr(it, "train_rmse"), rep.test_rmse = numberOr(it, "test_rmse");
            rep.train_mae = numberOr(it, "train_mae"), rep.test_mae = numberOr(it, "test_mae");
            const tscope::IterationReport* before = r.iterations.size() > first ? &r.iterations.back() : nullptr;
            if (const QString fault = iterationFault(rep, before); !fault.isEmpty())
                return fail(QObject::tr("%1: %2").arg(where, fault));
            r.iterations.push_back(rep);
        }
    }
    if (r.iterations.empty()) return fail(QObject::tr("the run has no iterations"));
    r.outcome = o.value(QStringLiteral("converged")).toBool() ? QObject::tr("converged") : QObject::tr("done");
    if (r.method == tscope::DecompMethod::Cpd) r.setup = readSetup(o);
    if (const double b = numberOr(o, "mean_predictor_test_rmse");
        r.method == tscope::DecompMethod::FasterTucker && b >= 0 && std::isfinite(b))
        r.baselineTestRmse = b;
    for (const QJsonValue& v : o.value(QStringLiteral("per_rank")).toArray()) {
        const QJsonObject x = v.toObject();
        f.perRank.push_back({numberOr(x, "nnz", 0), numberOr(x, "rows_sent", 0), numberOr(x, "rows_received", 0),
                             numberOr(x, "comm_s", 0), numberOr(x, "compute_s", 0)});
        const RankShare& load = f.perRank.back();  // what the rank chart draws: counts and seconds
        for (double x : {load.nnz, load.rowsSent, load.rowsReceived, load.commSeconds, load.computeSeconds})
            if (!(x >= 0 && x < 1e18))
                return fail(QObject::tr("\"per_rank\" entry %1: its counts and seconds should be non-negative numbers")
                                .arg(f.perRank.size()));
    }
    if (!f.perRank.empty() && static_cast<int>(f.perRank.size()) != f.ranks)
        return fail(QObject::tr("\"per_rank\" has %1 entries for %2 ranks").arg(f.perRank.size()).arg(f.ranks));
    return f;
}

std::optional<DecompRunFile> readDecompRunFile(const QString& path, QString* error) {
    return readRecordingFile<DecompRunFile>(path, error, parseDecompRun);
}

}  // namespace tsui
