#include "jobs/DatasetJob.hpp"

#include <QFileInfo>

#include <malloc.h>

#include <chrono>
#include <cmath>
#include <cstring>

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <optional>

#include "tscope/bench/machine.hpp"
#include "tscope/error.hpp"
#include "tscope/io/bounded_convert.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/io/tsb_sample.hpp"
#include "tscope/tensor/fiber_sketch.hpp"
#include "tscope/tensor/streamed_stats.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

DatasetRequest DatasetRequest::file(const QString& path) {
    DatasetRequest r;
    r.kind = Kind::File;
    r.path = path;
    return r;
}

DatasetRequest DatasetRequest::generate(const tscope::GeneratorSpec& spec, const QString& title) {
    DatasetRequest r;
    r.kind = Kind::Generate;
    r.spec = spec;
    r.title = title;
    return r;
}

DatasetRequest DatasetRequest::sample(const QString& tsb, const QString& name) {
    DatasetRequest r;
    r.kind = Kind::Sample;
    r.path = tsb;
    r.sampleOf = name;
    return r;
}

QString DatasetRequest::describe() const {
    if (kind == Kind::Sample) return QObject::tr("a sample of %1").arg(sampleOf);
    return kind == Kind::File ? QFileInfo(path).fileName() : title;
}

DatasetJob::DatasetJob(QObject* parent) : QObject(parent) {
    engine_.setPollInterval(50);
    connect(&engine_, &EngineJob::progress, this, &DatasetJob::progress);
    connect(&engine_, &EngineJob::failed, this, [this](const QString& message) {
        if (!launchPending()) Q_EMIT failed(message);
    });
    connect(&engine_, &EngineJob::cancelled, this, [this] {
        if (!launchPending()) Q_EMIT cancelled();
    });
    connect(&engine_, &EngineJob::idle, this, &DatasetJob::idle);
}

DatasetJob::~DatasetJob() { pending_.reset(); }  // engine_ cancels and waits

bool DatasetJob::isBusy() const { return engine_.isBusy(); }

void DatasetJob::start(const DatasetRequest& request) {
    if (engine_.isBusy()) {  // the running job ends first; its outcome then starts this one
        pending_ = request;
        engine_.cancel();
        return;
    }
    launch(request);
}

void DatasetJob::cancel() {
    pending_.reset();
    engine_.cancel();
}

void DatasetJob::launch(const DatasetRequest& request) {
    Q_EMIT started(request.describe());
    engine_.setActivity(QStringLiteral("loading %1").arg(request.describe()));
    engine_.start([request](tscope::RunControl& control) { return load(request, control); },
                  [this](DatasetPtr dataset) {
                      if (!launchPending()) Q_EMIT finished(std::move(dataset));
                  });
}

bool DatasetJob::launchPending() {
    if (!pending_) return false;
    const DatasetRequest next = *pending_;
    pending_.reset();
    launch(next);
    return true;
}

namespace {

// A tensor may take half the memory unless the request says otherwise.
std::uint64_t limitOf(const DatasetRequest& request) {
    return request.memoryLimit ? request.memoryLimit : tscope::physical_memory_bytes() / 2;
}

// Nonzeros a pass in parts reads at a time: a quarter of the limit's worth, so the passes stay
// well inside it (at least 64Ki).
std::uint64_t partNnzFor(std::uint64_t limit, const tscope::TsbHeader& header) {
    return std::max<std::uint64_t>(std::uint64_t{1} << 16, limit / 4 / header.bytes_per_nnz());
}

// The statistics of a .tsb read in parts, never whole.
void streamInto(Dataset& ds, const std::string& path, const tscope::TsbHeader& header, std::uint64_t limit,
                tscope::RunControl& control) {
    // From here on memory matters more than allocation speed: blocks of 256 KiB and more come
    // from mmap and go back when freed. glibc otherwise raises that threshold as the parts are
    // freed and keeps the next ones in a heap that never shrinks (measured: a 400 MB tensor's
    // streamed Density peaked at 131 MB in the window, 81 MB with this).
    ::mallopt(M_MMAP_THRESHOLD, 256 << 10);
    control.stage("statistics, streamed");
    ds.tensor = tscope::CooTensor(header.dims, header.width, header.values);
    ds.memoryLimit = limit;
    ds.partNnz = partNnzFor(limit, header);
    const tscope::StreamedStats s = tscope::stream_tsb_stats(path, ds.partNnz, control);
    ds.streamed = true;
    ds.streamedFile = path;
    ds.streamedNnz = s.nnz;
    ds.streamedInOrder = s.in_order;
    ds.streamedBytes = header.nnz * header.bytes_per_nnz();
    ds.stats = s.stats;
    // fiber counts, estimated in a second pass (a HyperLogLog sketch per mode), timed with the first
    const auto sketchStart = std::chrono::steady_clock::now();
    const tscope::FiberSketch sketch = tscope::sketch_tsb_fibers(path, ds.partNnz, control);
    ds.stats.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - sketchStart).count();
    for (std::size_t m = 0; m < sketch.fibers.size() && m < ds.stats.modes.size(); ++m) {
        tscope::ModeStats& ms = ds.stats.modes[m];
        if (sketch.exact[m]) {  // counted a slice of mode 1 at a time
            ms.fiber_nnz = sketch.fiber_nnz[m];
            ms.fibers = ms.fiber_nnz.count;
            continue;
        }
        ms.fibers = static_cast<std::uint64_t>(std::llround(sketch.fibers[m]));
        ms.fiber_nnz = sketch.sampled_nnz[m];  // lengths from the sample; the count from the sketch
    }
    ds.fibersEstimated = true;
    ds.fibersExact = sketch.exact;
    ds.fibersSampled.assign(sketch.exact.size(), false);
    for (std::size_t m = 0; m < sketch.exact.size(); ++m) ds.fibersSampled[m] = !sketch.exact[m] && sketch.sampled_fibers[m] > 0;
    ds.fibersWhy = QString::fromStdString(sketch.not_exact_why);
    ds.load.path = path;
    ds.load.format = "tsb";
    ds.load.file_bytes = header.file_bytes;
    ds.load.load_seconds = ds.stats.seconds;  // reading the file is these passes
}

// What loading a text file would take at its peak, roughly: about one byte of tensor per byte of
// text (a line of ~20 characters holds a ~20-byte nonzero), gzip about four times its size,
// and twice that while parsing.
std::uint64_t textLoadEstimate(const QString& path) {
    const QFileInfo info(path);
    if (!info.isFile()) return 0;
    const bool gz = path.endsWith(QStringLiteral(".gz"), Qt::CaseInsensitive);
    return static_cast<std::uint64_t>(info.size()) * (gz ? 4 : 1) * 2;
}

struct CachedConversion {
    QString tsb;
    tscope::LoadInfo info;  // the text's duplicates, zeros, bases, parse rate
    double seconds = 0;     // the conversion
};

// What a conversion into the cache reported about the text (duplicates, zeros, bases, times),
// kept beside its .tsb as JSON so that a later open from the cache shows the same figures.
void writeConversionFacts(const QString& file, const QString& source, const tscope::LoadInfo& info, double seconds) {
    QJsonArray bases;
    for (bool z : info.zero_based) bases.append(z);
    const QJsonObject o{{QStringLiteral("source"), source},
                        {QStringLiteral("duplicates_summed"), static_cast<double>(info.duplicates_summed)},
                        {QStringLiteral("zeros_dropped"), static_cast<double>(info.zeros_dropped)},
                        {QStringLiteral("zero_based"), bases},
                        {QStringLiteral("header"), info.header},
                        {QStringLiteral("text_bytes"), static_cast<double>(info.text_bytes)},
                        {QStringLiteral("parse_seconds"), info.parse_seconds},
                        {QStringLiteral("seconds"), seconds}};
    QSaveFile out(file);
    if (out.open(QIODevice::WriteOnly)) {
        out.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
        out.commit();  // without it the next open converts again: no harm
    }
}

// The facts read back; nothing where they are missing, unreadable or about another file.
std::optional<CachedConversion> readConversionFacts(const QString& file, const QString& source) {
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly) || in.size() > (1 << 20)) return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(in.readAll()).object();
    if (o.value(QStringLiteral("source")).toString() != source || !o.value(QStringLiteral("zero_based")).isArray())
        return std::nullopt;
    CachedConversion c;
    c.info.duplicates_summed = static_cast<std::uint64_t>(o.value(QStringLiteral("duplicates_summed")).toDouble());
    c.info.zeros_dropped = static_cast<std::uint64_t>(o.value(QStringLiteral("zeros_dropped")).toDouble());
    for (const QJsonValue& z : o.value(QStringLiteral("zero_based")).toArray()) c.info.zero_based.push_back(z.toBool());
    c.info.header = o.value(QStringLiteral("header")).toBool();
    c.info.text_bytes = static_cast<std::uint64_t>(o.value(QStringLiteral("text_bytes")).toDouble());
    c.info.parse_seconds = o.value(QStringLiteral("parse_seconds")).toDouble();
    c.seconds = o.value(QStringLiteral("seconds")).toDouble();
    return c;
}

// The cache's .tsb for a text file: NAME-HASH.tsb for NAME.tns[.gz], HASH from the file's
// absolute path (two t.tns in different folders, or x.tns beside x.tns.gz, had shared one
// NAME.tsb, and the second opened showed the first's tensor: sweep 72b F2). Converted in bounded
// memory unless a conversion newer than the file is there with its facts. The user's file is
// only read.
CachedConversion convertIntoCache(const QString& path, const QString& cacheDir, std::uint64_t limit,
                                  tscope::RunControl& control) {
    if (!QDir().mkpath(cacheDir)) throw tscope::InputError("cannot create the cache folder " + cacheDir.toStdString());
    const QString source = QFileInfo(path).absoluteFilePath();
    QString name = QFileInfo(path).fileName();
    for (const char* tail : {".gz", ".tns"})
        if (name.endsWith(QLatin1String(tail), Qt::CaseInsensitive)) name.chop(static_cast<int>(std::strlen(tail)));
    const QString hash =
        QString::fromLatin1(QCryptographicHash::hash(source.toUtf8(), QCryptographicHash::Sha1).toHex().left(10));
    CachedConversion c;
    c.tsb = QDir(cacheDir).filePath(name + QLatin1Char('-') + hash + QStringLiteral(".tsb"));
    const QString facts = c.tsb + QStringLiteral(".json");
    const QFileInfo cached(c.tsb);
    if (cached.exists() && cached.lastModified() >= QFileInfo(path).lastModified())
        if (auto kept = readConversionFacts(facts, source)) {
            kept->tsb = c.tsb;
            return *kept;
        }
    control.stage("converting to .tsb in bounded memory");
    tscope::BoundedConvertOptions options;
    options.memory_bytes = std::max<std::uint64_t>(limit / 2, std::uint64_t{1} << 20);
    const tscope::BoundedConvertReport report =
        tscope::convert_text_to_tsb(path.toStdString(), c.tsb.toStdString(), options, control);
    c.info = report.info;
    c.seconds = report.seconds;
    writeConversionFacts(facts, source, c.info, c.seconds);
    return c;
}

}  // namespace

DatasetPtr DatasetJob::load(const DatasetRequest& request, tscope::RunControl& control) {
    auto ds = std::make_shared<Dataset>();
    const std::uint64_t limit = limitOf(request);
    if (request.kind == DatasetRequest::Kind::Sample) {
        const std::string path = request.path.toStdString();
        const tscope::TsbHeader header = tscope::read_tsb_header(path);
        const std::uint64_t sampleNnz = std::max<std::uint64_t>(limit / header.bytes_per_nnz(), 1);
        tscope::TsbSample sample = tscope::read_tsb_slice_sample(path, 0, sampleNnz, partNnzFor(limit, header), control);
        ds->tensor = std::move(sample.tensor);
        ds->title = QObject::tr("%1, mode-1 slices 1-%2").arg(request.sampleOf).arg(sample.slices);
        ds->source =
            QObject::tr("%1: the first %2 slices of mode 1 (%3 of its %4 nonzeros), the most that fit")
                .arg(request.path, grouped(sample.slices), grouped(ds->tensor.nnz()), grouped(sample.file_nnz));
        ds->load.format = "tsb";
        ds->load.path = path;
        ds->load.file_bytes = header.file_bytes;
    } else if (request.kind == DatasetRequest::Kind::File) {
        ds->title = QFileInfo(request.path).fileName();
        ds->source = QFileInfo(request.path).absoluteFilePath();
        // a text file too large to load is read from its .tsb in the cache, converted first
        std::string path = request.path.toStdString();
        std::optional<CachedConversion> converted;
        const tscope::FileKind kind = tscope::file_kind(path);
        // A FIFO's open() waits for a writer, where neither Cancel nor quitting can reach it;
        // a device or a pipe has no size to plan the load by. The CLI reads those.
        if (kind == tscope::FileKind::Stream && QFileInfo(request.path).isDir())
            throw tscope::InputError(request.path.toStdString() + ": a folder, not a tensor file");
        if (kind == tscope::FileKind::Stream && !QFileInfo::exists(request.path))
            throw tscope::InputError("cannot open '" + request.path.toStdString() + "': no such file");
        if (kind == tscope::FileKind::Stream)
            throw tscope::InputError(request.path.toStdString() +
                                     ": not a regular file (a pipe, a FIFO or a device): the window opens files; "
                                     "tensorscope-cli reads the others (e.g. tensorscope-cli convert - out.tsb)");
        if (kind != tscope::FileKind::Tsb && limit > 0 && !request.cacheDir.isEmpty() &&
            textLoadEstimate(request.path) > limit) {
            converted = convertIntoCache(request.path, request.cacheDir, limit, control);
            ds->convertedTo = converted->tsb;
            path = ds->convertedTo.toStdString();
        }
        if (tscope::file_kind(path) == tscope::FileKind::Tsb) {
            const tscope::TsbHeader header = tscope::read_tsb_header(path);
            if (limit > 0 && header.nnz * header.bytes_per_nnz() > limit) {
                streamInto(*ds, path, header, limit, control);
                // the text's own figures, from its conversion: the .tsb's said no duplicates, no
                // zeros, 0-based, and its passes' time twice (sweep 72b F5)
                if (converted) {
                    const std::uint64_t fileBytes = ds->load.file_bytes;
                    ds->load = converted->info;
                    ds->load.path = request.path.toStdString();
                    ds->load.format = "tns";
                    ds->load.file_bytes = fileBytes;
                    ds->load.load_seconds = converted->seconds;
                }
                return ds;
            }
        }
        tscope::LoadedTensor loaded = tscope::load_tensor(path, {}, control);
        ds->tensor = std::move(loaded.tensor);
        ds->load = std::move(loaded.info);
    } else {
        ds->tensor = tscope::generate_tensor(request.spec, control);
        ds->generated = true;
        ds->title = request.title;
        ds->source = QString::fromStdString(tscope::describe(request.spec));
        ds->load.format = "generated";
        ds->load.zero_based.assign(static_cast<std::size_t>(ds->tensor.order()), false);
    }
    ds->stats = tscope::compute_stats(ds->tensor, control);
    return ds;
}

}  // namespace tsui
