#include "views/OutputPath.hpp"

#include <QFileInfo>
#include <QImageWriter>
#include <QObject>

namespace tsui {

QString whyNotWritable(const QString& path, bool imageFormat) {
    const QFileInfo info(path);
    if (info.isDir()) return QObject::tr("%1 is a folder").arg(path);
    const QFileInfo folder(info.absolutePath());
    if (!folder.exists()) return QObject::tr("the folder %1 does not exist").arg(folder.absoluteFilePath());
    if (!folder.isDir()) return QObject::tr("%1 is not a folder").arg(folder.absoluteFilePath());
    if (!folder.isWritable()) return QObject::tr("the folder %1 is not writable").arg(folder.absoluteFilePath());
    if (info.exists() && !info.isWritable()) return QObject::tr("%1 is not writable").arg(path);
    if (imageFormat && !QImageWriter::supportedImageFormats().contains(info.suffix().toLower().toLatin1()))
        return QObject::tr("'%1' names no image format this Qt writes (use .png)").arg(info.suffix());
    return {};
}

}  // namespace tsui
