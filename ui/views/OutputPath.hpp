// Why a file the user named for output (a screenshot, an exported plot) cannot be written,
// said before any work is done for it: QPixmap::save and QCustomPlot's savers only say false.
#pragma once

#include <QString>

namespace tsui {

// "" when `path` looks writable; else why not: the path is a folder, its folder is missing or
// is not a folder or cannot be written to, or (when `imageFormat` is set) its suffix names no
// image format Qt can write.
QString whyNotWritable(const QString& path, bool imageFormat = false);

}  // namespace tsui
