// What every kind of recording (pipeline timelines, multi-GPU scaling runs) does with its JSON
// files: parse the document, read one file naming it in the error, list the bundled ones.
#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonValue>
#include <QObject>
#include <QStringList>
#include <cmath>
#include <optional>
#include <vector>

namespace tsui {

// The JSON document, or std::nullopt with *error saying where it stops being JSON (or that there
// is nothing in it: Qt's own word for an empty file is "illegal value at offset 0").
inline std::optional<QJsonDocument> parseJsonDocument(const QByteArray& json, QString* error) {
    if (json.trimmed().isEmpty()) {
        if (error)
            *error = json.isEmpty() ? QObject::tr("the file is empty") : QObject::tr("the file holds only white space");
        return std::nullopt;
    }
    QJsonParseError pe;
    QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (doc.isNull()) {
        if (error) *error = QObject::tr("not JSON: %1 at offset %2").arg(pe.errorString()).arg(pe.offset);
        return std::nullopt;
    }
    return doc;
}

// Whether `v` is a whole number in [lo, hi]: what a count in a recording must be before it is
// cast to an integer (the cast of a negative or huge double is undefined).
inline bool isWholeNumber(const QJsonValue& v, double lo, double hi) {
    const double d = v.toDouble(NAN);
    return v.isDouble() && std::isfinite(d) && d >= lo && d <= hi && d == std::floor(d);
}

// The largest recording read: far past any the CLI writes (a bench JSONL row is under 2 KB), and
// small enough to parse at once on the GUI thread.
inline constexpr qint64 kLargestRecording = qint64{32} << 20;

// parse(bytes, error) on the file's contents; errors start with the path. Only regular files
// of at most kLargestRecording are read: a FIFO's open() would wait for a writer on the GUI
// thread, and /dev/zero or a huge file would be read whole into memory.
template <class T, class Parse>
std::optional<T> readRecordingFile(const QString& path, QString* error, Parse parse) {
    const QFileInfo info(path);
    if (info.exists() && !info.isFile()) {
        if (error) *error = QObject::tr("%1: not a regular file: a recording is a JSON file").arg(path);
        return std::nullopt;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = QObject::tr("cannot open %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = f.read(kLargestRecording + 1);  // never more, however large the file
    if (bytes.size() > kLargestRecording) {
        if (error)
            *error = QObject::tr("%1: larger than any recording (at most %2 MiB): not read")
                         .arg(path)
                         .arg(kLargestRecording >> 20);
        return std::nullopt;
    }
    std::optional<T> r = parse(bytes, error);
    if (!r && error) *error = path + QStringLiteral(": ") + *error;
    return r;
}

// Every file in the resource folder `dir` matching `pattern`, read with read(path, error) and
// titled "Recorded: ..."; the files that fail go to *errors (when given).
template <class T, class Read>
std::vector<T> bundledRecordingFiles(const QString& dir, const QString& pattern, Read read, QStringList* errors = nullptr) {
    std::vector<T> out;
    const QDir folder(dir);
    for (const QString& name : folder.entryList({pattern}, QDir::Files, QDir::Name)) {
        QString error;
        if (std::optional<T> r = read(folder.filePath(name), &error)) {
            r->title = QObject::tr("Recorded: %1").arg(r->title);
            out.push_back(std::move(*r));
        } else if (errors) {
            *errors << error;
        }
    }
    return out;
}

}  // namespace tsui
