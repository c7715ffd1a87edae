// What every kind of recording (pipeline timelines, multi-GPU scaling runs) does with its JSON
// files: parse the document, read one file naming it in the error, list the bundled ones.
#pragma once

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QObject>
#include <QStringList>
#include <optional>
#include <vector>

namespace tsui {

// The JSON document, or std::nullopt with *error saying where it stops being JSON.
inline std::optional<QJsonDocument> parseJsonDocument(const QByteArray& json, QString* error) {
    QJsonParseError pe;
    QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (doc.isNull()) {
        if (error) *error = QObject::tr("not JSON: %1 at offset %2").arg(pe.errorString()).arg(pe.offset);
        return std::nullopt;
    }
    return doc;
}

// parse(bytes, error) on the file's contents; errors start with the path.
template <class T, class Parse>
std::optional<T> readRecordingFile(const QString& path, QString* error, Parse parse) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = QObject::tr("cannot open %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    std::optional<T> r = parse(f.readAll(), error);
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
